//! The one list a rule is added to: its code and its reference entry (what it checks, how loud it
//! can be, what to do and what it rests on), in catalog order.

use super::*;
use crate::analyses::findings::Rule;
use crate::analyses::findings::policy::Class::*;
use crate::analyses::findings::reference::RuleDoc;
use crate::analyses::findings::reference::sources::{
    COZYSTACK_1641, FLATOPS_2161, dist, f2, fo, hc, kc, nc, sc,
};

/// Declares the registry once: `rule => its reference entry;` in catalog order. It expands to two
/// lists, so that the app, which evaluates rules, links none of the reference's text.
macro_rules! register {
    ($($rule:expr => $doc:expr;)*) => {
        /// Every rule, in catalog order.
        pub static RULES: &[&dyn Rule] = &[$($rule),*];
        /// Every rule's reference entry, in the same order.
        pub static DOCS: &[RuleDoc] = &[$($doc),*];
    };
}

register! {
    // Revision 5: what is failing now
    &ops::FailingNow => RuleDoc {
        id: "OPS-01",
        checks: "An object whose last reconcile failed at its current generation: Ready=False for a reason other than DependencyNotReady or Progressing, Stalled=True, a source whose fetch failed, a Helm release whose install, upgrade or test failed. One finding per cause, with the condition's message, since when (its lastTransitionTime) and its blast radius (what reads or waits on it); a failure that follows from another (a consumer of a failing source, an applier waiting on a failing one) is listed under its cause. The root source is MIG-GO-14's, the FluxInstance MIG-DIST-03's, a failed signature check SIG-03's; a suspended object is not failing.",
        classes: &[Broken],
        remediation: "Look closer with `flux events --for Kind/name -n namespace` (and `flux debug ks|hr` for what it applies), fix what the condition names, then reconcile it; everything in its blast radius waits until it recovers.",
        sources: &[
            kc!("api/v1/kustomization_types.go"),
            hc!("api/v2/condition_types.go"),
            sc!("api/v1/condition_types.go"),
        ],
    };
    // §1 artifact signatures
    &sig_instance::RootUnverified => RuleDoc {
        id: "SIG-01",
        checks: "The root source — the one the FluxInstance's sync (or the bootstrap Kustomization) reads — does not verify what it delivers: a Bucket (which cannot verify), or a Git or OCI source without spec.verify.",
        classes: &[Exposed, PostureGap, ExposedAnonymous],
        remediation: "Sign what the root delivers and verify it: spec.verify with cosign (keyless with a pinned identity, or a key) on an OCI root; signed commits or tags with spec.verify on a Git root. With a FluxInstance, add the verify field through a spec.kustomize.patches entry that targets the generated source.",
        sources: &[
            sc!("docs/spec/v1/ocirepositories.md"),
            sc!("docs/spec/v1/gitrepositories.md"),
            fo!("docs/guides/instance/instance-customization.md"),
        ],
    };
    &sig_verdict::NoVerdict => RuleDoc {
        id: "SIG-02",
        checks: "spec.verify is set and the source has fetched at its current spec (artifact present, observedGeneration current), yet there is no SourceVerified condition: verification never ran. A source that has not fetched yet is reported by its fetch failure instead.",
        classes: &[ControlFailing],
        remediation: "Find why the controller skipped verification: a HelmChart from a Git or Bucket source (SIG-12), a controller too old for the verify field, or a verify block the API dropped.",
        sources: &[
            sc!("api/v1/condition_types.go"),
            sc!("internal/controller/ocirepository_controller.go"),
        ],
    };
    &sig_verdict::Failing => RuleDoc {
        id: "SIG-03",
        checks: "SourceVerified is False: the signature did not verify (no matching signature, wrong key or identity, an invalid Git verification mode). Charts from HTTP Helm repositories can never verify and are reported here too.",
        classes: &[Broken],
        remediation: "Read the condition's message. Re-sign the artifact or fix the identity or key it is checked against; for a chart from an HTTP Helm repository, move the chart to an OCI repository or remove verify — re-signing cannot help.",
        sources: &[
            sc!("api/v1/condition_types.go"),
            sc!("internal/oci/cosign/cosign.go"),
            sc!("internal/helm/repository/chart_repository.go"),
        ],
    };
    &sig_verdict::Stale => RuleDoc {
        id: "SIG-04",
        checks: "SourceVerified=True speaks of another revision than the artifact served, or of an older generation than the spec (OCI and HelmChart). For Git only the revision is compared: the controller moves observedGeneration without verifying again after a spec change that fetches nothing.",
        classes: &[Degraded],
        remediation: "Trigger a reconcile of the source (flux reconcile source …) and check the verdict names the served revision; if it stays stale, the controller is not re-verifying this source.",
        sources: &[
            sc!("internal/controller/ocirepository_controller.go"),
            sc!("docs/spec/v1/gitrepositories.md"),
        ],
    };
    &sig_identity::KeylessWithoutIdentity => RuleDoc {
        id: "SIG-05",
        checks: "cosign keyless verification (no secretRef) with no matchOIDCIdentity: any certificate the public Fulcio issued passes, whoever signed.",
        classes: &[FailOpen],
        remediation: "Add spec.verify.matchOIDCIdentity with an anchored issuer and a subject naming one repository, workflow and ref.",
        sources: &[
            sc!("api/v1/ociverification_types.go"),
            sc!("internal/oci/cosign/cosign.go"),
        ],
    };
    &sig_identity::OverBroadIdentity => RuleDoc {
        id: "SIG-06",
        checks: "An identity matcher admits far more than meant: an empty or match-anything pattern, or one missing its leading ^ or trailing $ (the controller searches, it does not match whole strings).",
        classes: &[FailOpen, ControlFailing],
        remediation: "Anchor both patterns with ^…$ and name the issuer and the subject literally (escaped dots).",
        sources: &[
            sc!("api/v1/ociverification_types.go"),
            sc!("internal/oci/cosign/cosign.go"),
        ],
    };
    &sig_identity::IdentityNotPinned => RuleDoc {
        id: "SIG-07",
        checks: "A GitHub or GitLab workflow subject that does not pin what may sign: any repository of the owner, any workflow after the repository path, or any branch after the workflow (no literal ref after @refs/). Tag patterns after a pinned workflow pass; non-workflow identities are out of scope.",
        classes: &[ControlFailing, Degraded],
        remediation: "Pin the subject to one repository, one workflow file and a literal branch, or a tag pattern: ^https://github\\.com/<owner>/<repo>/\\.github/workflows/<file>@refs/heads/main$.",
        sources: &[sc!("docs/spec/v1/ocirepositories.md"), FLATOPS_2161],
    };
    &sig_identity::UnescapedDots => RuleDoc {
        id: "SIG-08",
        checks: "Literal dots of a host or path left unescaped in an identity pattern (github.com instead of github\\.com): each matches any character.",
        classes: &[Hygiene],
        remediation: "Escape the dots (\\.) or use [.].",
        sources: &[sc!("api/v1/ociverification_types.go")],
    };
    &sig_instance::PatchTargetsNothing => RuleDoc {
        id: "SIG-09",
        checks: "Predictive: the FluxInstance's verify patch (spec.kustomize.patches) will not reach the source it generates — the target's kind, name (an anchored regular expression), namespace or version misses it — or, before the handover, the OCI root carries verify that the operator will drop when it takes the source over and no patch puts it back. A prediction waits for the step that acts (revision 5): context while the sync stays Git; the change that switches the sync without the patch is SIG-10's fail-open.",
        classes: &[Broken, Predicted, Context],
        remediation: "Target the generated source by kind OCIRepository (or the sync kind) and the sync name, or omit the name; keep the verify block in the instance's patch, not in a Kustomization-delivered copy.",
        sources: &[
            fo!("docs/guides/instance/instance-customization.md"),
            fo!("internal/builder/templates.go"),
            FLATOPS_2161,
        ],
    };
    &sig_instance::VerifyDidNotLand => RuleDoc {
        id: "SIG-10",
        checks: "Definitive fail-open: the FluxInstance asks for verification of its root source (a verify patch of the matching kind, or the root was verified before the handover) and the live generated source has no spec.verify — verification is silently off. Carries SIG-09, SIG-01 and SIG-11 of the same root as evidence.",
        classes: &[FailOpen],
        remediation: "Fix the patch target so it selects the generated source, then confirm the live source shows spec.verify and SourceVerified=True at its generation.",
        sources: &[
            fo!("internal/builder/templates.go"),
            fo!("docs/api/v1/fluxinstance.md"),
            FLATOPS_2161,
        ],
    };
    &sig_anonymous::UnsignedAnonymousOci => RuleDoc {
        id: "SIG-11",
        checks: "OCI content without signature verification and not pinned by digest (a tag or a semver range follows whatever is pushed next). Pulling anonymously is shown as context; on the root with a mutable reference it raises the finding.",
        classes: &[Exposed, ExposedAnonymous],
        remediation: "Verify the artifact (spec.verify with cosign) or pin it by spec.ref.digest.",
        sources: &[sc!("docs/spec/v1/ocirepositories.md")],
    };
    &sig_verdict::IneffectiveChartVerification => RuleDoc {
        id: "SIG-12",
        checks: "A HelmChart with spec.verify built from a GitRepository or a Bucket: the controller ignores verify there, so no verdict ever appears.",
        classes: &[ControlFailing],
        remediation: "Publish the chart to an OCI repository and verify it there, or remove verify so nobody relies on it.",
        sources: &[
            sc!("docs/spec/v1/helmcharts.md"),
            sc!("internal/helm/chart/builder_local.go"),
        ],
    };
    &sig_verdict::GitModeMismatch => RuleDoc {
        id: "SIG-13",
        checks: "A GitRepository whose verify mode needs a tag (Tag, TagAndHEAD) while its ref names only a branch or a commit: the source stalls.",
        classes: &[Degraded],
        remediation: "Use mode HEAD for a branch, or point the ref at a tag or semver range.",
        sources: &[sc!("docs/spec/v1/gitrepositories.md")],
    };
    // §2.3 Git → OCI migration
    &mig_go::ConsumerCensus => RuleDoc {
        id: "MIG-GO-01",
        checks: "Counts what every consumer reads: Git, OCI, Bucket, or an ExternalArtifact backed by Git or OCI (Kustomization sourceRef, HelmRelease chartRef or chart template). Context for the migration's progress.",
        classes: &[Context],
        remediation: "None by itself; the stages use the counts.",
        sources: &[
            kc!("api/v1/reference_types.go"),
            hc!("api/v2/reference_types.go"),
        ],
    };
    &dangling::DanglingReference => RuleDoc {
        id: "MIG-GO-02",
        checks: "A reference (sourceRef, chartRef, dependsOn, a Receiver's resources) names an object that is missing: its namespace and kind are visible, it is absent from the list, and a direct read answers NotFound. What fluxlens cannot see is said as \"not visible to you\", never as missing.",
        classes: &[Broken, Context],
        remediation: "Create the referenced object before its consumers, or point the reference at one that exists. A missing root source blocks the whole cluster (the bootstrap deadlock of the field reports).",
        sources: &[kc!("docs/spec/v1/kustomizations.md"), FLATOPS_2161],
    };
    &mig_go::GitRootCollected => RuleDoc {
        id: "MIG-GO-03",
        checks: "The FluxInstance's sync has moved off Git while consumers still read the Git root it generated: the operator garbage-collects what it no longer applies, and they lose their source. Owned by a Kustomization or unowned, it is the milder \"consumers still on Git after the handover\".",
        classes: &[Broken, Degraded],
        remediation: "Flip the remaining consumers to the OCI root, or keep the Git root with the fluxcd.controlplane.io/prune: disabled annotation until they move.",
        sources: &[
            fo!("internal/controller/fluxinstance_controller.go"),
            FLATOPS_2161,
        ],
    };
    &mig_go::PrematureFlip => RuleDoc {
        id: "MIG-GO-04",
        checks: "Consumers read an OCI root that does not exist or is not Ready while the FluxInstance still syncs from Git (or its change has not been applied).",
        classes: &[Broken, Unhealthy],
        remediation: "Flip consumers only after the OCI source exists and is Ready (stage M2's exit).",
        sources: &[FLATOPS_2161],
    };
    &mig_prune::ParallelSourceNotPruneSafe => RuleDoc {
        id: "MIG-GO-05",
        checks: "During the parallel stage, the OCI root is delivered by a Kustomization without the kustomize.toolkit.fluxcd.io/prune: disabled annotation: removing it from Git at the handover deletes it under its consumers.",
        classes: &[Predicted],
        remediation: "Annotate the OCIRepository with kustomize.toolkit.fluxcd.io/prune: disabled (any letter case) before the handover.",
        sources: &[kc!("docs/spec/v1/kustomizations.md"), FLATOPS_2161],
    };
    &mig_go::ArtifactLagsGit => RuleDoc {
        id: "MIG-GO-06",
        checks: "While the Git and OCI roots both run, the OCI artifact was built from another commit than the Git root serves. Not evaluated once Git is suspended or after the handover; a lag shorter than one OCI interval is context.",
        classes: &[Context, Degraded],
        remediation: "Check the pipeline that pushes the artifact runs on every commit and stamps the revision (org.opencontainers.image.revision).",
        sources: &[sc!("docs/spec/v1/ocirepositories.md")],
    };
    &mig_go::CommitStatusWillFail => RuleDoc {
        id: "MIG-GO-07",
        checks: "A commit-status Alert covers Kustomizations sourced from OCI that carry no Git origin revision: every event fails to post its status. Before a merge, whether the pipeline pushes with --revision cannot be seen: context with what to check.",
        classes: &[Context, Degraded],
        remediation: "Push artifacts with flux push artifact --revision <branch>@sha1:<sha> so the origin revision reaches the Kustomization.",
        sources: &[
            nc!("internal/notifier/util.go"),
            nc!("docs/spec/v1beta3/providers.md"),
        ],
    };
    &mig_go::StaleAlertSources => RuleDoc {
        id: "MIG-GO-08",
        checks: "An Alert's eventSources names a Git or OCI source that no longer exists.",
        classes: &[Hygiene],
        remediation: "Point the entry at the current root, or remove it.",
        sources: &[nc!("docs/spec/v1beta3/providers.md")],
    };
    &mig_go::ReceiverDrift => RuleDoc {
        id: "MIG-GO-09",
        checks: "A Receiver is not Ready or has no webhook path, names resources that do not resolve, or still triggers the Git root after the root moved to OCI.",
        classes: &[Degraded],
        remediation: "Point the Receiver's resources at the OCI root (and update the webhook in CI), or remove it.",
        sources: &[
            nc!("docs/spec/v1/receivers.md"),
            nc!("api/v1/receiver_types.go"),
        ],
    };
    &mig_go::RootAuthFailure => RuleDoc {
        id: "MIG-GO-10",
        checks: "The root OCI source is not Ready because the registry refused it (an auth failure reason, or a 401/403, UNAUTHORIZED or DENIED message) — never inferred from digests or verification messages.",
        classes: &[Broken],
        remediation: "Give the sync the credentials the registry needs: FluxInstance spec.sync.pullSecret (a docker-registry Secret) or spec.sync.provider for workload identity.",
        sources: &[fo!("docs/api/v1/fluxinstance.md"), FLATOPS_2161],
    };
    &mig_go::NoBreakGlass => RuleDoc {
        id: "MIG-GO-11",
        checks: "After the handover there is no way back if the tag breaks: no suspended alternative source, and the root follows a mutable tag.",
        classes: &[Context],
        remediation: "Keep the old GitRepository suspended for a while, or pin the root by digest.",
        sources: &[FLATOPS_2161],
    };
    &mig_go::CredentialsDropped => RuleDoc {
        id: "MIG-GO-12",
        checks: "Predictive: before the handover the parallel OCI root pulls with credentials (secretRef, provider, service account or certificates) that the FluxInstance's sync does not carry; the operator regenerates the source from spec.sync alone, so the pull fails after the switch.",
        classes: &[Predicted],
        remediation: "Put the same credentials in FluxInstance spec.sync (pullSecret, provider) before switching its kind.",
        sources: &[fo!("docs/api/v1/fluxinstance.md"), FLATOPS_2161],
    };
    &mig_go::ChartInGitRoot => RuleDoc {
        id: "MIG-GO-13",
        checks: "A HelmRelease takes its chart from the Git root: it cannot simply flip to OCI (a chart template cannot name an OCIRepository, and a whole-repository artifact is not a chart). Only when a migration to OCI shows intent.",
        classes: &[Degraded],
        remediation: "Publish the chart as its own OCI artifact and use chartRef, or build it with an ArtifactGenerator.",
        sources: &[hc!("api/v2/helmrelease_types.go"), FLATOPS_2161],
    };
    &mig_go::RootCannotFetch => RuleDoc {
        id: "MIG-GO-14",
        checks: "The root source, of any kind, cannot fetch (not Ready, stalled, or its last fetch failed): the next change to the cluster goes nowhere. Carries MIG-GO-10 as evidence when it is the auth diagnosis.",
        classes: &[Broken],
        remediation: "Fix the fetch first (credentials, URL, TLS, a missing tag); read the source's Ready and FetchFailed messages.",
        sources: &[sc!("api/v1/condition_types.go")],
    };
    &mig_order::BootstrapDeadlock => RuleDoc {
        id: "MIG-GO-15",
        checks: "The reconcile order stepped forward until nothing more can reconcile, as the controllers run it (revision 5): each object acts at its live spec until its applier applies the new one, and a Kustomization whose live source is the repository being changed applies the new revision's content with its old spec; a HelmRelease's valuesFrom and a Kustomization's substituteFrom ConfigMaps and Secrets are part of what it will apply, delivered by whatever applies them. An object that waits, directly or through a chain of waits, for something that only it creates or delivers in every order the controllers allow, or an applier of the delivery chain that depends on one stuck behind a missing source, is this finding (when only some orders freeze, MIG-GO-17). The message names the whole chain. A change that moves a migration several stages at once is judged the same way; when the order is safe, that is context.",
        classes: &[Broken, Context],
        remediation: "Split the change in the safe order: publish and sign the artifact, switch the FluxInstance's sync, and only when its source is Ready flip the consumers.",
        sources: &[
            kc!("internal/controller/kustomization_controller.go"),
            fo!("internal/controller/fluxinstance_controller.go"),
            FLATOPS_2161,
        ],
    };
    &mig_order::RootPullsAnonymously => RuleDoc {
        id: "MIG-GO-16",
        checks: "The root source is (or a change makes it) an OCIRepository with no credentials at all and the FluxInstance has no sync pull secret: it reconciles only while the artifact is public. Live and Ready it is context; before a merge it is a precondition to confirm.",
        classes: &[PostureGap, Context],
        remediation: "Confirm the artifact is meant to be public, or set spec.sync.pullSecret / spec.sync.provider.",
        sources: &[fo!("docs/api/v1/fluxinstance.md"), FLATOPS_2161],
    };
    &mig_order::OrderDependent => RuleDoc {
        id: "MIG-GO-17",
        checks: "Revision 5: objects act at their live spec. A Kustomization whose live source is the repository being changed applies the new revision's content with its old spec while its parent may apply its new spec first. Where one order of the two freezes delivery and the other converges, both are named with the order that freezes.",
        classes: &[Predicted, Degraded],
        remediation: "Stage the change so the order no longer matters, or give the parent a dependsOn on what must be Ready first: only dependsOn orders Kustomizations.",
        sources: &[
            kc!("internal/controller/kustomization_controller.go"),
            FLATOPS_2161,
        ],
    };
    // §2.5 storage versions
    &mig_api::UnmigratedStorage => RuleDoc {
        id: "MIG-API-01",
        checks: "A Flux CRD lists more than one stored version, or one its spec no longer serves or has deprecated (needs read access to CRDs). Critical when the minor the FluxInstance allows removes a stored version.",
        classes: &[Broken, Unhealthy],
        remediation: "Let the operator migrate storage (spec.migrateResources, the default) or run flux migrate before upgrading the minor.",
        sources: &[
            fo!("internal/controller/fluxinstance_migrator.go"),
            f2!("cmd/flux/migrate.go"),
            COZYSTACK_1641,
        ],
    };
    &mig_api::CrdUpgradeBlocked => RuleDoc {
        id: "MIG-API-02",
        checks: "A Flux CRD upgrade was refused because of stored versions (a message naming storedVersions that must appear in spec.versions); only for CRDs of the fluxcd.io and controlplane.io groups.",
        classes: &[Broken],
        remediation: "Migrate the stored objects (flux migrate, or the operator's migration) and patch the CRD's status.storedVersions, then retry the upgrade.",
        sources: &[f2!("cmd/flux/migrate.go"), COZYSTACK_1641],
    };
    &mig_api::RemovedApiInGit => RuleDoc {
        id: "MIG-API-03",
        checks: "A Kustomization fails with \"no matches for kind\" for a Flux API version the installed minor removed: manifests in Git still use it.",
        classes: &[Unhealthy],
        remediation: "Rewrite the manifests in Git: flux migrate -f . --version <minor>.",
        sources: &[
            f2!("cmd/flux/migrate.go"),
            dist!("docs/distribution/upgrade.md"),
        ],
    };
    &mig_api::AutoMigrationDisabled => RuleDoc {
        id: "MIG-API-04",
        checks: "The FluxInstance turns the operator's automatic storage migration off (spec.migrateResources: false). Louder with an unbounded minor range.",
        classes: &[Unhealthy, Degraded],
        remediation: "Remove migrateResources: false, or own the duty: flux migrate before every minor upgrade.",
        sources: &[fo!("docs/api/v1/fluxinstance.md")],
    };
    &mig_api::UnboundedMinorRange => RuleDoc {
        id: "MIG-API-05",
        checks: "The FluxInstance's version range allows minor upgrades without an upper bound (*, 2.x, >=2.6, ^2); a bounded range or a patch range of one minor passes.",
        classes: &[Degraded],
        remediation: "Pin a minor with a patch range (2.9.x) and move it deliberately.",
        sources: &[
            dist!("docs/distribution/upgrade.md"),
            fo!("internal/builder/semver.go"),
        ],
    };
    &mig_api::CrdsBehind => RuleDoc {
        id: "MIG-API-06",
        checks: "A reconciler in the FluxReport serves an API version other than the storage version the installed minor expects: CRDs behind the controllers.",
        classes: &[Degraded],
        remediation: "Apply the CRDs of the installed minor (the operator does on reconcile; a bootstrap install needs flux install or the Git manifests updated).",
        sources: &[
            fo!("docs/api/v1/fluxreport.md"),
            dist!("docs/distribution/upgrade.md"),
        ],
    };
    &mig_api::ManualMigrationDuty => RuleDoc {
        id: "MIG-API-07",
        checks: "Flux is not managed by the operator (bootstrap, Helm, flux-aio): nobody migrates storage automatically.",
        classes: &[Context],
        remediation: "Run flux migrate before each minor upgrade; the finding lists the versions the next minor removes.",
        sources: &[f2!("cmd/flux/migrate.go"), COZYSTACK_1641],
    };
    // §2.7 distribution switches
    &mig_dist::InstallerClass => RuleDoc {
        id: "MIG-DIST-01",
        checks: "Who installed Flux: the operator, flux bootstrap, Helm, flux-aio/Timoni, or unknown (the report's managedBy, and flux-aio's single flux Deployment).",
        classes: &[Context],
        remediation: "None; the stages and compliance read it.",
        sources: &[fo!("internal/reporter/distribution.go"), COZYSTACK_1641],
    };
    &mig_dist::TakeoverIncomplete => RuleDoc {
        id: "MIG-DIST-02",
        checks: "A FluxInstance exists but has not taken Flux over: the report says another installer manages it, or the instance has never applied. While the takeover is being applied it is context.",
        classes: &[Unhealthy, Context],
        remediation: "Let the FluxInstance reconcile (check MIG-DIST-03 for why it does not), then remove the old installer's manifests.",
        sources: &[
            fo!("docs/guides/operator/operator-migration.md"),
            COZYSTACK_1641,
        ],
    };
    &mig_dist::InstanceUnhealthy => RuleDoc {
        id: "MIG-DIST-03",
        checks: "The FluxInstance is not Ready or is stalled; a newer attempted than applied revision is a stuck change only when Ready is False (while it reconciles, an upgrade in progress).",
        classes: &[Broken, Unhealthy, Context],
        remediation: "Read the instance's Ready message: it names the objects that failed to apply.",
        sources: &[fo!("internal/controller/fluxinstance_controller.go")],
    };
    &mig_dist::ComponentsNotReady => RuleDoc {
        id: "MIG-DIST-04",
        checks: "A controller in the report is not ready, or a component the FluxInstance asks for is absent.",
        classes: &[Unhealthy, Context],
        remediation: "Describe the controller's Deployment: image pull failures after a registry switch are the usual cause.",
        sources: &[fo!("api/v1/fluxreport_types.go")],
    };
    &mig_dist::MixedOrigins => RuleDoc {
        id: "MIG-DIST-05",
        checks: "Controller images come from more than one registry or variant (shard suffixes ignored): a switch half done.",
        classes: &[Unhealthy],
        remediation: "Finish the switch: every controller from the registry and variant the instance names.",
        sources: &[fo!("internal/builder/images.go"), COZYSTACK_1641],
    };
    &mig_dist::InstanceDrift => RuleDoc {
        id: "MIG-DIST-06",
        checks: "A deployed controller image differs from the one the FluxInstance selected (repository:tag@digest in its status): edited by hand or by another installer.",
        classes: &[Degraded],
        remediation: "Find what else writes the Deployment and remove it; the operator puts its image back on reconcile.",
        sources: &[fo!("api/v1/fluxinstance_types.go")],
    };
    &mig_dist::BootstrapLeftovers => RuleDoc {
        id: "MIG-DIST-07",
        checks: "After the takeover, the old bootstrap Kustomization's inventory still lists Flux's controllers or CRDs: harmless but confusing.",
        classes: &[Hygiene],
        remediation: "Remove gotk-components.yaml (and the flux-system folder's manifests) from Git.",
        sources: &[fo!("docs/guides/operator/operator-migration.md")],
    };
    &mig_dist::DowngradeRequested => RuleDoc {
        id: "MIG-DIST-08",
        checks: "The FluxInstance asks for an older minor than it applied: a downgrade.",
        classes: &[Unhealthy],
        remediation: "Put the version range back; Flux minors do not downgrade.",
        sources: &[dist!("docs/distribution/upgrade.md")],
    };
    &mig_dist::LimitedVisibility => RuleDoc {
        id: "MIG-DIST-09",
        checks: "A flux-aio or non-operator install: no FluxInstance status, no automatic migration, a single image to judge.",
        classes: &[Context],
        remediation: "None; fluxlens says what it cannot see.",
        sources: &[dist!("flux-aio/README.md")],
    };
    &mig_dist::ControllersTwice => RuleDoc {
        id: "MIG-DIST-10",
        checks: "flux-aio's flux Deployment runs beside controllers the operator installed; flux-aio runs without leader election, so two controller sets reconcile the same objects.",
        classes: &[Unhealthy],
        remediation: "Remove flux-aio once the operator's controllers are ready.",
        sources: &[dist!("flux-aio/README.md"), COZYSTACK_1641],
    };
    // §3 Flux Enterprise compliance
    &ent::CONTROLS[0] => RuleDoc {
        id: "ENT-01",
        checks: "Classifies every controller image (upstream, enterprise, distroless, FIPS) by registry path, the FluxInstance's declared variant and the digest catalog; the cluster's variant is the one they agree on.",
        classes: &[Context],
        remediation: "None; contradictions between path, declared variant and catalog are listed.",
        sources: &[
            fo!("internal/builder/images.go"),
            dist!("docs/distribution/install.md"),
        ],
    };
    &ent::CONTROLS[1] => RuleDoc {
        id: "ENT-02",
        checks: "The profile requires Flux Enterprise and the cluster's variant is not an enterprise one.",
        classes: &[ControlFailing, Context],
        remediation: "Set the FluxInstance's distribution registry to the enterprise one (with its pull secret).",
        sources: &[dist!("docs/distribution/install.md")],
    };
    &ent::CONTROLS[2] => RuleDoc {
        id: "ENT-03",
        checks: "The profile requires FIPS and a controller is neither from a FIPS path nor a FIPS digest of the catalog, or the platform is not linux/amd64 or linux/arm64.",
        classes: &[ControlFailing, Context],
        remediation: "Use the distroless-fips variant on a supported platform.",
        sources: &[dist!("docs/distribution/security.md")],
    };
    &ent::CONTROLS[3] => RuleDoc {
        id: "ENT-04",
        checks: "Every controller image is pinned by digest, and the FluxInstance status carries each digest. Loud when the profile requires Enterprise or FIPS; hygiene under the upstream profile.",
        classes: &[ControlFailing, Hygiene],
        remediation: "Install through the operator with a variant (it pins digests), or pin the images by digest yourself.",
        sources: &[fo!("internal/builder/images.go")],
    };
    &ent::CONTROLS[4] => RuleDoc {
        id: "ENT-05",
        checks: "The live digest is the one the operator selected (or the catalog's for the installed version and variant). An unknown digest of an upstream release is suspicious; of an enterprise variant usually a newer CVE rebuild.",
        classes: &[ControlFailing, Context],
        remediation: "Find where the image came from; re-apply the FluxInstance.",
        sources: &[fo!("config/data/flux-images/"), dist!("images/")],
    };
    &ent::CONTROLS[5] => RuleDoc {
        id: "ENT-06",
        checks: "A CVE update channel exists: the operator follows the distribution artifact (or a mirror with a variant) and the FluxInstance is not paused. Non-operator installs are patched by hand.",
        classes: &[Degraded, Context],
        remediation: "Set spec.distribution.artifact, and remove the reconcile: disabled annotation.",
        sources: &[
            fo!("docs/api/v1/fluxinstance.md"),
            dist!("docs/distribution/security.md"),
        ],
    };
    &ent::CONTROLS[6] => RuleDoc {
        id: "ENT-07",
        checks: "The installed minor is within the supported window (the latest minor and the two before it).",
        classes: &[ControlFailing],
        remediation: "Upgrade to a supported minor (run flux migrate first where needed).",
        sources: &[dist!("releases/release-v2.9.md")],
    };
    &ent::CONTROLS[7] => RuleDoc {
        id: "ENT-08",
        checks: "The installed patch is the latest of its minor, and the FluxInstance follows a patch range of it rather than an exact pin.",
        classes: &[Degraded, Context],
        remediation: "Use a patch range of the installed minor (for 2.7, 2.7.x) so patches arrive.",
        sources: &[dist!("releases/release-v2.9.md")],
    };
    &ent::CONTROLS[8] => RuleDoc {
        id: "ENT-09",
        checks: "The cluster's Kubernetes minor is in the support list of the installed Flux minor.",
        classes: &[Degraded],
        remediation: "Upgrade Kubernetes or choose a Flux minor that supports it.",
        sources: &[dist!("releases/release-v2.9.md")],
    };
    &ent::CONTROLS[9] => RuleDoc {
        id: "ENT-10",
        checks: "The entitlement the operator reports: on the AWS Marketplace registry it must be issued by controlplane-aws (Unknown means metering or IAM fails); elsewhere it is shown, never taken as a licence.",
        classes: &[Degraded, Context],
        remediation: "On the Marketplace, check the operator's service account can call the metering API.",
        sources: &[
            fo!("internal/controller/entitlement_controller.go"),
            dist!("docs/marketplace/aws.md"),
        ],
    };
    &ent::CONTROLS[10] => RuleDoc {
        id: "ENT-11",
        checks: "Images from ControlPlane's private registry path and no imagePullSecret in the FluxInstance's distribution.",
        classes: &[ControlFailing],
        remediation: "Create the registry Secret and set spec.distribution.imagePullSecret.",
        sources: &[dist!("docs/distribution/install.md")],
    };
    &ent::CONTROLS[11] => RuleDoc {
        id: "ENT-12",
        checks: "Names the cosign identity each controller's images are signed with; when the operator or the FluxInstance updates itself from ControlPlane's charts through an unverified OCIRepository, that source should verify them.",
        classes: &[Context, Degraded],
        remediation: "Verify the chart source with the identity ^https://github\\.com/controlplaneio-fluxcd/.*$.",
        sources: &[
            fo!("internal/cosign/verify.go"),
            dist!("docs/distribution/security.md"),
        ],
    };
    &ent::CONTROLS[12] => RuleDoc {
        id: "ENT-13",
        checks: "Heuristic: a distroless or FIPS variant while a Kustomization fails for a missing git or gpg executable, a remote base or SOPS PGP.",
        classes: &[Hygiene],
        remediation: "Use features distroless images support (no remote bases, age instead of PGP), or a non-distroless variant.",
        sources: &[dist!("docs/distribution/security.md")],
    };
    &ent::CONTROLS[13] => RuleDoc {
        id: "ENT-14",
        checks: "The Flux Operator is at least the version the profile requires, and the instance reports no OutdatedVersion event. An operator older than the profile requires fails the control and is degraded assurance to act on this cycle; the OutdatedVersion notice alone is context.",
        classes: &[Degraded, Context],
        remediation: "Upgrade the Flux Operator.",
        sources: &[fo!("internal/controller/fluxinstance_controller.go")],
    };
}
