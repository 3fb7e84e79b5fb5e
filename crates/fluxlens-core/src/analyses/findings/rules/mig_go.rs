//! MIG-GO-01, 03, 04, 06 … 11: the Git → OCI root migration.

use super::rule;
use crate::analyses::facts::cluster::ClusterFacts;
use crate::analyses::facts::cluster::{self, census, consumers_of, root_pair, sha1_of, sync_kind};
use crate::analyses::findings::Finding;
use crate::analyses::findings::policy::{Class, Role, graded_as};
use crate::model::{Cluster, ObjectKey};
use crate::wire::kind::Kind;

rule!(
    /// MIG-GO-01: which kinds of source consumers read (info).
    ConsumerCensus, "MIG-GO-01", "consumer census", consumer_census
);
rule!(
    /// MIG-GO-03: the sync moved off Git while consumers still read the Git root.
    GitRootCollected, "MIG-GO-03", "Git root GC'd under consumers", git_root_collected
);
rule!(
    /// MIG-GO-04: consumers flipped to an OCI root that is not there or not Ready.
    PrematureFlip, "MIG-GO-04", "premature flip", premature_flip
);
rule!(
    /// MIG-GO-06: the OCI artifact was built from another commit than the Git root.
    ArtifactLagsGit, "MIG-GO-06", "artifact lags Git", artifact_lags
);
rule!(
    /// MIG-GO-07: commit-status Alerts on OCI-sourced Kustomizations without a SHA-1 origin.
    CommitStatusWillFail, "MIG-GO-07", "commit status will fail", commit_status
);
rule!(
    /// MIG-GO-08: Alerts naming sources that no longer exist.
    StaleAlertSources, "MIG-GO-08", "stale alert sources", stale_alert_sources
);
rule!(
    /// MIG-GO-09: Receivers not ready, dangling, or still on Git.
    ReceiverDrift, "MIG-GO-09", "receiver drift", receiver_drift
);
rule!(
    /// MIG-GO-10: the root OCI source cannot authenticate.
    RootAuthFailure, "MIG-GO-10", "root source auth failure", root_auth
);
rule!(
    /// MIG-GO-11: after handover, no way back if the tag breaks (info).
    NoBreakGlass, "MIG-GO-11", "no break-glass", no_break_glass
);

rule!(
    /// MIG-GO-12: credentials of the parallel OCI root the operator will not regenerate.
    CredentialsDropped, "MIG-GO-12", "credentials dropped at handover", credentials_dropped
);
rule!(
    /// MIG-GO-13: HelmReleases whose chart is stored in the Git root cannot simply flip.
    ChartInGitRoot, "MIG-GO-13", "chart stored in the Git root", chart_in_git_root
);
rule!(
    /// MIG-GO-14: the root source, of any kind, cannot fetch (revision 3).
    RootCannotFetch, "MIG-GO-14", "root source cannot fetch", root_cannot_fetch
);

/// A finding of `class` about a subject playing `role` in the migration (the root pair is
/// the root whatever the report says of it today).
fn f(
    id: &str,
    (class, role): (Class, Role),
    subject: ObjectKey,
    message: String,
    evidence: Vec<String>,
    remediation: &str,
) -> Finding {
    graded_as(
        role,
        id,
        class,
        subject,
        message,
        evidence,
        remediation.into(),
    )
}

/// Context, hygiene, degraded assurance: graded the same for every subject.
const CONTEXT: (Class, Role) = (Class::Context, Role::Ordinary);
const HYGIENE: (Class, Role) = (Class::Hygiene, Role::Ordinary);
const DEGRADED: (Class, Role) = (Class::Degraded, Role::Ordinary);
/// Delivery of the root breaks.
const ROOT_BROKEN: (Class, Role) = (Class::Broken, Role::Root);

fn consumer_census(id: &str, c: &ClusterFacts, out: &mut Vec<Finding>) {
    let Some(subject) = c.root_kustomization() else {
        return;
    };
    let n = census(c);
    if n.git + n.oci + n.bucket + n.external_git + n.external_oci == 0 {
        return;
    }
    out.push(f(
        id,
        CONTEXT,
        subject,
        format!(
            "Consumers by source: git {}, oci {}, bucket {}, external {}",
            n.git,
            n.oci,
            n.bucket,
            n.external_git + n.external_oci
        ),
        vec![format!(
            "external: {} git-backed, {} oci-backed; ImageUpdateAutomations excluded (Git only)",
            n.external_git, n.external_oci
        )],
        "Informational.",
    ));
}

fn git_root_collected(id: &str, c: &ClusterFacts, out: &mut Vec<Finding>) {
    let Some(kind) = sync_kind(c) else { return };
    if kind == "GitRepository" {
        return;
    }
    let (git, _) = root_pair(c);
    let on_git: Vec<String> = consumers_of(c, &git)
        .filter(|o| o.key.kind != Kind::ImageUpdateAutomation)
        .map(|o| o.key.to_string())
        .collect();
    if on_git.is_empty() {
        return;
    }
    // Revision 2: the operator deletes only what it applied (its inventory, §0.2), and not
    // what carries fluxcd.controlplane.io/prune: disabled.
    let obj = c.get(&git);
    let kept =
        obj.is_some_and(|g| cluster::prune_disabled(g.annotation("fluxcd.controlplane.io/prune")));
    let operator_owned = obj.is_some_and(|g| g.owners.iter().any(|o| o.kind == Kind::FluxInstance));
    let absent = c.presence(&git).is_missing();
    let n = on_git.len();
    if (operator_owned && !kept) || absent {
        let state = if absent {
            "which is already gone"
        } else {
            "which the operator garbage-collects"
        };
        out.push(f(id, ROOT_BROKEN, git.clone(), format!("FluxInstance syncs from {kind} now, and {n} consumers still read {git}, {state}"),
            on_git.into_iter().take(20).collect(), "Flip the remaining consumers to the OCI root, or annotate the GitRepository fluxcd.controlplane.io/prune: disabled."));
    } else if !kept {
        let owner = obj.map(|g| g.owner_label()).unwrap_or_default();
        out.push(f(id, DEGRADED, git.clone(), format!("{n} consumers are still on {git} after the handover to {kind}"),
            std::iter::once(format!("{git} is not in the FluxInstance inventory (owner: {owner}); the operator will not delete it")).chain(on_git.into_iter().take(20)).collect(),
            "Flip the remaining consumers to the OCI root; then remove or suspend the Git root (break-glass)."));
    }
}

fn premature_flip(id: &str, c: &ClusterFacts, out: &mut Vec<Finding>) {
    if sync_kind(c).as_deref() != Some("GitRepository") {
        return;
    }
    let (_, oci) = root_pair(c);
    let ok = c
        .get(&oci)
        .is_some_and(|o| o.condition("Ready").is_some_and(|r| r.status == "True"));
    if ok {
        return;
    }
    let flipped: Vec<ObjectKey> = consumers_of(c, &oci).map(|o| o.key.clone()).collect();
    if flipped.is_empty() {
        return;
    }
    // Revision 3: critical only on the delivery chain (the S003 deadlock); elsewhere a missing
    // source is MIG-GO-02's finding, which carries the flip as evidence (dangling.rs).
    let chain = crate::analyses::findings::policy::delivery_chain(c);
    let root_ks = c.root_kustomization();
    let on_chain: Vec<&ObjectKey> = flipped
        .iter()
        .filter(|k| chain.contains(k) || root_ks.as_ref() == Some(*k))
        .collect();
    let exists = c.contains(&oci);
    let state = if exists {
        "is not Ready"
    } else {
        "does not exist"
    };
    let evidence: Vec<String> = flipped.iter().take(20).map(|k| k.to_string()).collect();
    let remediation =
        "Revert the flip until the parallel OCI source exists, is Ready and verified (stage M2).";
    if !on_chain.is_empty() {
        out.push(f(id, ROOT_BROKEN, oci.clone(),
            format!("{} consumers read {oci}, which {state}, while the FluxInstance still syncs Git — {} of them on the delivery chain (bootstrap deadlock)", flipped.len(), on_chain.len()),
            evidence, remediation));
    } else if exists {
        out.push(f(id, (Class::Unhealthy, Role::Ordinary), oci.clone(),
            format!("{} consumers read {oci}, which is not Ready, while the FluxInstance still syncs Git", flipped.len()),
            evidence, remediation));
    }
}

fn artifact_lags(id: &str, c: &ClusterFacts, out: &mut Vec<Finding>) {
    // Revision 2: not evaluated once the Git root is suspended (break-glass) or after the
    // handover (M4): then Git moving ahead is expected.
    if sync_kind(c).as_deref() == Some("OCIRepository") {
        return;
    }
    let (git, oci) = root_pair(c);
    let Some(git_obj) = c.get(&git).filter(|g| !g.suspended()) else {
        return;
    };
    let g = git_obj.artifact_revision().and_then(sha1_of);
    let oci_obj = c.get(&oci);
    let o = oci_obj
        .and_then(|o| o.artifact())
        .and_then(|a| a.metadata.get("org.opencontainers.image.revision"))
        .and_then(|r| sha1_of(r));
    let (Some(g), Some(o)) = (g, o) else { return };
    if g == o {
        return;
    }
    // Newer by less than one OCI interval: the release workflow has not run yet.
    let git_time = git_obj
        .artifact()
        .and_then(|a| a.last_update_time.as_deref())
        .and_then(crate::util::time::parse_rfc3339_ms);
    let oci_time = oci_obj
        .and_then(|o| o.artifact())
        .and_then(|a| a.last_update_time.as_deref())
        .and_then(crate::util::time::parse_rfc3339_ms);
    let interval = oci_obj
        .and_then(|o| o.raw.spec.interval.as_deref())
        .and_then(crate::util::time::parse_duration_ms);
    let fresh = matches!((git_time, oci_time, interval), (Some(gt), Some(ot), Some(i)) if gt >= ot && gt - ot < i);
    let sev = if fresh { CONTEXT } else { DEGRADED };
    out.push(f(
        id,
        sev,
        oci.clone(),
        format!("{oci} was built from {o:.12}, the Git root is at {g:.12}"),
        vec![
            format!("org.opencontainers.image.revision SHA {o}"),
            format!("{git} artifact SHA {g}"),
        ],
        "Check that the release workflow ran for the latest commit and promoted latest.",
    ));
}

const COMMIT_STATUS_PROVIDERS: [&str; 6] = [
    "github",
    "gitlab",
    "gitea",
    "bitbucket",
    "bitbucketserver",
    "azuredevops",
];

fn commit_status(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    for alert in c.of_kind(&Kind::Alert) {
        let Some(p) = alert.raw.spec.provider_ref.as_ref() else {
            continue;
        };
        let provider = ObjectKey::new(Kind::Provider, alert.key.namespace.clone(), p.name.clone());
        let Some(ptype) = c
            .get(&provider)
            .and_then(|p| p.spec_type().map(str::to_string))
        else {
            continue;
        };
        if !COMMIT_STATUS_PROVIDERS.contains(&ptype.as_str()) {
            continue;
        }
        let bad: Vec<&crate::model::FluxObject> = c
            .of_kind(&Kind::Kustomization)
            .filter(|k| {
                alert.raw.spec.event_sources.iter().any(|s| {
                    s.kind == "Kustomization"
                        && s.namespace
                            .as_deref()
                            .filter(|n| !n.is_empty())
                            .unwrap_or(&alert.key.namespace)
                            == k.key.namespace
                        && (s.name == "*" || s.name == k.key.name)
                        && s.match_labels
                            .iter()
                            .all(|(lk, lv)| k.raw.metadata.labels.get(lk) == Some(lv))
                })
            })
            .filter(|k| {
                k.refs
                    .iter()
                    .any(|r| matches!(r.target.kind, Kind::OciRepository | Kind::ExternalArtifact))
            })
            .filter(|k| {
                k.raw
                    .status
                    .last_applied_origin_revision
                    .as_deref()
                    .and_then(sha1_of)
                    .is_none()
            })
            .collect();
        // Revision 4: a Kustomization that has applied nothing yet (a render before the merge,
        // a new one) cannot show its origin revision; whether the pipeline pushes with
        // `--revision <branch>@sha1:<sha>` is then a thing to check, not a failure.
        let (seen, unseen): (Vec<_>, Vec<_>) = bad
            .into_iter()
            .partition(|k| k.last_applied_revision().is_some());
        let names = |v: &[&crate::model::FluxObject]| -> Vec<String> {
            v.iter().take(20).map(|k| k.key.to_string()).collect()
        };
        if !seen.is_empty() {
            out.push(f(id, DEGRADED, alert.key.clone(), format!("{} posts {ptype} commit statuses for {} OCI-sourced Kustomizations that have no SHA-1 origin revision", alert.key, seen.len()),
                names(&seen), "Push artifacts with --revision <branch>@sha1:<sha> so kustomize-controller forwards originRevision (Flux ≥ 2.5)."));
        } else if !unseen.is_empty() {
            out.push(f(id, CONTEXT, alert.key.clone(), format!("{} posts {ptype} commit statuses for {} OCI-sourced Kustomizations that have applied nothing yet: check that the pipeline pushes with --revision <branch>@sha1:<sha>, or every status event fails", alert.key, unseen.len()),
                names(&unseen), "Push artifacts with `flux push artifact … --revision <branch>@sha1:<sha>` (or the legacy <branch>/<sha>): kustomize-controller forwards it as originRevision (Flux ≥ 2.5), which the Git provider needs."));
        }
    }
}

fn stale_alert_sources(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    for alert in c.of_kind(&Kind::Alert) {
        let missing: Vec<String> = alert
            .refs
            .iter()
            .filter(|r| {
                matches!(r.target.kind, Kind::GitRepository | Kind::OciRepository)
                    && c.presence(&r.target).is_missing()
            })
            .map(|r| r.target.to_string())
            .collect();
        if !missing.is_empty() {
            out.push(f(
                id,
                HYGIENE,
                alert.key.clone(),
                format!("{} lists sources that do not exist", alert.key),
                missing,
                "Remove the stale eventSources entries.",
            ));
        }
    }
}

fn receiver_drift(id: &str, c: &ClusterFacts, out: &mut Vec<Finding>) {
    let root_oci = c
        .root_source()
        .is_some_and(|k| k.kind == Kind::OciRepository);
    // Revision 2: only the Git root itself is drift; a tenant's own GitRepository is fine.
    let root_git = root_oci.then(|| root_pair(c).0);
    for rc in c.of_kind(&Kind::Receiver) {
        let mut evidence = Vec::new();
        if rc.condition("Ready").is_some_and(|r| r.status != "True") {
            evidence.push(format!(
                "Ready={}: {}",
                rc.condition("Ready")
                    .map(|r| r.status.clone())
                    .unwrap_or_default(),
                rc.message
            ));
        }
        if rc
            .raw
            .status
            .webhook_path
            .as_deref()
            .is_none_or(str::is_empty)
        {
            evidence.push("status.webhookPath is empty".into());
        }
        for r in &rc.refs {
            if c.presence(&r.target).is_missing() {
                evidence.push(format!("resource {} does not exist", r.target));
            } else if root_oci && Some(&r.target) == root_git.as_ref() {
                evidence.push(format!(
                    "resource {} is still Git while the root is OCI",
                    r.target
                ));
            }
        }
        if !evidence.is_empty() {
            if rc.spec_type() == Some("generic-oidc") {
                // #68: shown beside "token-derived webhook paths were redacted", this read as a
                // leak; a generic-oidc path comes from the name, and anyone may compute it.
                evidence.push(format!(
                    "computed webhook path for CI: {} (from the Receiver's name and namespace, \
                     not from a token: not a secret, and kept in shared snapshots)",
                    cluster::generic_oidc_webhook_path(&rc.key.name, &rc.key.namespace)
                ));
            }
            out.push(f(
                id,
                DEGRADED,
                rc.key.clone(),
                format!("{} will not trigger what CI expects", rc.key),
                evidence,
                "Point spec.resources at existing OCI sources and check the webhook path CI calls.",
            ));
        }
    }
}

fn root_auth(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some(root) = c.root_source().filter(|k| k.kind == Kind::OciRepository) else {
        return;
    };
    let Some(o) = c.get(&root) else { return };
    let Some(r) = o.condition("Ready").filter(|r| r.status == "False") else {
        return;
    };
    // Revision 2: the FetchFailed condition's reason (or Ready's) names an auth failure, or
    // the fetch message carries a whole-word status. Never inside a digest, never from a
    // verification failure (that is SIG-03).
    let fetch = o.condition("FetchFailed").unwrap_or(r);
    let reason = fetch.reason.clone().unwrap_or_default();
    let msg = fetch.message.clone().unwrap_or_default();
    let verification = reason == "VerificationError"
        || o.condition("SourceVerified")
            .is_some_and(|v| v.status == "False" && v.message == r.message);
    if verification {
        return;
    }
    if reason == "AuthenticationFailed" || cluster::auth_failure_text(&msg) {
        out.push(f(id, ROOT_BROKEN, root, "The root OCI source cannot pull: the whole cluster stops updating".into(),
            vec![format!("{} {reason}: {msg}", fetch.type_)], "New GHCR packages are private by default: make it public and verified, or set the FluxInstance sync pullSecret."));
    }
}

/// Revision 3: the root source (Git, OCI or Bucket) is not Ready, stalled, or its last fetch
/// failed: delivery of the whole cluster stops at the next change. A verification failure is
/// SIG-03's; an OCI auth failure is also MIG-GO-10, carried here as evidence.
fn root_cannot_fetch(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some(root) = c.root_source() else { return };
    let Some(o) = c.get(&root) else { return };
    let failed = |t: &str| o.condition(t).filter(|x| x.status == "True");
    let ready_false = o.condition("Ready").filter(|r| r.status == "False");
    let cause = failed("FetchFailed").or(failed("Stalled")).or(ready_false);
    let Some(cause) = cause else { return };
    let verification = o
        .condition("SourceVerified")
        .is_some_and(|v| v.status == "False")
        || cause.reason.as_deref() == Some("VerificationError");
    if verification {
        return;
    }
    let mut evidence = vec![format!(
        "{} {}={} {}: {}",
        root,
        cause.type_,
        cause.status,
        cause.reason.clone().unwrap_or_default(),
        cause.message.clone().unwrap_or_default()
    )];
    if let Some(artifact) = o.artifact_revision() {
        evidence.push(format!(
            "the cluster keeps applying the last artifact {artifact}; no change reaches it until the fetch works"
        ));
    }
    let msg = cause.message.clone().unwrap_or_default();
    if root.kind == Kind::OciRepository
        && (cause.reason.as_deref() == Some("AuthenticationFailed")
            || cluster::auth_failure_text(&msg))
    {
        evidence
            .push("MIG-GO-10: an authentication failure of the OCI root (see that finding)".into());
    }
    out.push(f(id, ROOT_BROKEN, root.clone(),
        format!("The root source {root} cannot fetch: delivery of the whole cluster stops at the next change"),
        evidence,
        "Fix what the condition names (credentials, deploy key, host key, TLS, URL or ref), then `flux reconcile source` the root; until then nothing new reaches the cluster."));
}

fn no_break_glass(id: &str, c: &ClusterFacts, out: &mut Vec<Finding>) {
    if sync_kind(c).as_deref() != Some("OCIRepository") {
        return;
    }
    let Some(root) = c.root_source() else { return };
    let Some(o) = c.get(&root) else { return };
    let mutable = match o.source_ref() {
        Some(crate::wire::object::RefField::Structured(r)) => {
            r.digest.is_none() && r.semver.is_none()
        }
        _ => true,
    };
    let spare = c.objects().iter().any(|s| {
        s.key.kind == Kind::GitRepository && s.key.namespace == root.namespace && s.suspended()
    });
    if mutable && !spare {
        out.push(f(
            id,
            CONTEXT,
            root,
            "No break-glass source: the root is a mutable tag and no suspended alternative exists"
                .into(),
            vec![],
            "Keep the old GitRepository suspended (and prune-disabled) as a documented fallback.",
        ));
    }
}

/// Before M4 (predictive): at handover the operator regenerates `OCIRepository/R` from
/// `spec.sync` alone, so credentials the Git-delivered copy carries and the sync does not
/// are dropped, and the pull fails (S003: 401 after #2161).
fn credentials_dropped(id: &str, c: &ClusterFacts, out: &mut Vec<Finding>) {
    if sync_kind(c).as_deref() == Some("OCIRepository") {
        return;
    }
    let Some(sync) = c.instance().and_then(|i| i.sync()) else {
        return;
    };
    let (_, oci) = root_pair(c);
    let Some(o) = c.get(&oci).filter(|o| {
        o.managed_by
            .as_ref()
            .is_some_and(|m| m.kind == Kind::Kustomization)
    }) else {
        return;
    };
    let s = &o.raw.spec;
    let mut dropped = Vec::new();
    if let Some(secret) = s.secret_ref.as_ref().filter(|r| !r.name.is_empty())
        && sync.pull_secret.as_deref() != Some(secret.name.as_str())
    {
        dropped.push(format!(
            "spec.secretRef {} (sync.pullSecret is {})",
            secret.name,
            sync.pull_secret.as_deref().unwrap_or("unset")
        ));
    }
    if let Some(p) = s
        .provider
        .as_deref()
        .filter(|p| !p.is_empty() && *p != "generic")
        && sync.provider.as_deref() != Some(p)
    {
        dropped.push(format!(
            "spec.provider {p} (sync.provider is {})",
            sync.provider.as_deref().unwrap_or("unset")
        ));
    }
    if let Some(sa) = s.service_account_name.as_deref().filter(|v| !v.is_empty()) {
        dropped.push(format!(
            "spec.serviceAccountName {sa} (spec.sync has no such field)"
        ));
    }
    if let Some(cert) = s.cert_secret_ref.as_ref().filter(|r| !r.name.is_empty()) {
        dropped.push(format!(
            "spec.certSecretRef {} (spec.sync has no such field)",
            cert.name
        ));
    }
    if !dropped.is_empty() {
        out.push(f(id, (Class::Predicted, Role::Root), oci.clone(),
            format!("At handover the operator regenerates {oci} from spec.sync and drops its credentials: the pull will fail"),
            dropped,
            "Before switching spec.sync.kind, set spec.sync.pullSecret (and provider) to what the OCIRepository uses today, or make the package public and verified."));
    }
}

/// HelmReleases whose chart lives in `GitRepository/R`: a chart template cannot point at an
/// OCIRepository and a whole-repository artifact is not a chart.
fn chart_in_git_root(id: &str, c: &ClusterFacts, out: &mut Vec<Finding>) {
    // Revision 3: only a migration that shows intent makes a chart in Git a to-do.
    if !cluster::git_oci_intent(c) {
        return;
    }
    let (git, _) = root_pair(c);
    for hr in cluster::charts_in_git_root(c, &git) {
        out.push(f(id, DEGRADED, hr.key.clone(),
            format!("{} builds its chart from {git}: it cannot simply flip to the OCI root", hr.key),
            vec![format!("chart from {git} (spec.chart.spec.sourceRef, or a chartRef to a HelmChart built from it)")],
            "Publish the chart as its own OCI artifact and use spec.chartRef to an OCIRepository of it, or produce it with an ArtifactGenerator; then flip."));
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::testkit::*;
    use crate::analyses::findings::Severity;
    use crate::model::Cluster;

    /// A cluster each of these rules fires on, for the rule-set test that runs every rule
    /// (`coverage.rs`); each is one of the cases below.
    pub(in crate::analyses::findings::rules) fn fail_examples() -> Vec<(&'static str, Cluster)> {
        let of = |objs: &[String]| cluster(&objs.iter().map(String::as_str).collect::<Vec<_>>());
        let hr = r#"{"kind":"HelmRelease","metadata":{"name":"app","namespace":"apps"},"spec":{"chart":{"spec":{"chart":"./charts/app","sourceRef":{"kind":"GitRepository","name":"flux-system","namespace":"flux-system"}}}}}"#;
        let rc = r#"{"kind":"Receiver","metadata":{"name":"cluster-release","namespace":"flux-system"},"spec":{"type":"generic-oidc","resources":[{"kind":"GitRepository","name":"gone"}]}}"#;
        vec![
            (
                "MIG-GO-03",
                of(&[inst("OCIRepository"), GIT.into(), ks("a", "GitRepository")]),
            ),
            (
                "MIG-GO-04",
                of(&[inst("GitRepository"), GIT.into(), root_ks("OCIRepository")]),
            ),
            (
                "MIG-GO-06",
                of(&[inst("GitRepository"), GIT.into(), OCI_READY.into()]),
            ),
            ("MIG-GO-09", cluster(&[rc])),
            (
                "MIG-GO-13",
                cluster(&[&inst("GitRepository"), GIT, OCI_READY, hr]),
            ),
        ]
    }

    fn inst(kind: &str) -> String {
        format!(
            r#"{{"kind":"FluxInstance","metadata":{{"name":"flux","namespace":"flux-system"}},"spec":{{"sync":{{"kind":"{kind}","name":"flux-system"}}}}}}"#
        )
    }
    fn ks(name: &str, kind: &str) -> String {
        format!(
            r#"{{"kind":"Kustomization","metadata":{{"name":"{name}","namespace":"apps"}},"spec":{{"sourceRef":{{"kind":"{kind}","name":"flux-system","namespace":"flux-system"}}}}}}"#
        )
    }
    const GIT: &str = r#"{"kind":"GitRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"status":{"artifact":{"revision":"main@sha1:1111111111111111111111111111111111111111"}}}"#;
    const OCI_READY: &str = r#"{"kind":"OCIRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"status":{"conditions":[{"type":"Ready","status":"True"}],"artifact":{"revision":"latest@sha256:ab","metadata":{"org.opencontainers.image.revision":"main@sha1:2222222222222222222222222222222222222222"}}}}"#;

    #[test]
    fn mig_go_03_git_root_collected() {
        let objs = [
            inst("OCIRepository"),
            GIT.into(),
            ks("a", "GitRepository"),
            ks("b", "GitRepository"),
            ks("c", "GitRepository"),
        ];
        let f = run(
            &cluster(&objs.iter().map(String::as_str).collect::<Vec<_>>()),
            "MIG-GO-03",
        );
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].severity,
            Severity::Medium,
            "not in the FluxInstance inventory: the operator will not delete it"
        );
        // Owned by the FluxInstance (its inventory lists it): garbage-collected, critical.
        let owning = r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"sync":{"kind":"OCIRepository","name":"flux-system"}},"status":{"inventory":{"entries":[{"id":"flux-system_flux-system_source.toolkit.fluxcd.io_GitRepository","v":"v1"}]}}}"#;
        let owned = [owning.to_string(), GIT.into(), ks("a", "GitRepository")];
        let f = run(
            &cluster(&owned.iter().map(String::as_str).collect::<Vec<_>>()),
            "MIG-GO-03",
        );
        assert_eq!(f[0].severity, Severity::Critical);
        // Already gone: critical.
        let gone = [inst("OCIRepository"), ks("a", "GitRepository")];
        let f = run(
            &cluster(&gone.iter().map(String::as_str).collect::<Vec<_>>()),
            "MIG-GO-03",
        );
        assert_eq!(f[0].severity, Severity::Critical);
        let still_git = [inst("GitRepository"), GIT.into(), ks("a", "GitRepository")];
        assert!(
            run(
                &cluster(&still_git.iter().map(String::as_str).collect::<Vec<_>>()),
                "MIG-GO-03"
            )
            .is_empty()
        );
    }

    #[test]
    fn mig_go_04_premature_flip() {
        // Revision 3: off the delivery chain it is MIG-GO-02's evidence, not its own row.
        let objs = [inst("GitRepository"), GIT.into(), ks("a", "OCIRepository")];
        let c = cluster(&objs.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(run(&c, "MIG-GO-04").is_empty());
        let dangling = run(&c, "MIG-GO-02");
        assert!(
            dangling[0].evidence.iter().any(|e| e.contains("MIG-GO-04")),
            "{dangling:?}"
        );
        // The root Kustomization flipped: the S003 deadlock, critical.
        let root_flip = [
            inst("GitRepository"),
            GIT.into(),
            super::super::testkit::root_ks("OCIRepository"),
        ];
        let f = run(
            &cluster(&root_flip.iter().map(String::as_str).collect::<Vec<_>>()),
            "MIG-GO-04",
        );
        assert_eq!((f.len(), f[0].severity), (1, Severity::Critical));
        let after_m2 = [
            inst("GitRepository"),
            GIT.into(),
            OCI_READY.into(),
            ks("a", "OCIRepository"),
        ];
        assert!(
            run(
                &cluster(&after_m2.iter().map(String::as_str).collect::<Vec<_>>()),
                "MIG-GO-04"
            )
            .is_empty()
        );
    }

    #[test]
    fn mig_go_06_lag() {
        let objs = [inst("GitRepository"), GIT.into(), OCI_READY.into()];
        assert_eq!(
            run(
                &cluster(&objs.iter().map(String::as_str).collect::<Vec<_>>()),
                "MIG-GO-06"
            )
            .len(),
            1
        );
    }

    #[test]
    fn mig_go_07_commit_status() {
        let base = [
            r#"{"kind":"Provider","metadata":{"name":"gh","namespace":"apps"},"spec":{"type":"github"}}"#.to_string(),
            r#"{"kind":"Alert","metadata":{"name":"status","namespace":"apps"},"spec":{"providerRef":{"name":"gh"},"eventSources":[{"kind":"Kustomization","name":"*"}]}}"#.into(),
        ];
        let mut bad = base.to_vec();
        bad.push(ks("a", "OCIRepository"));
        assert_eq!(
            run(
                &cluster(&bad.iter().map(String::as_str).collect::<Vec<_>>()),
                "MIG-GO-07"
            )
            .len(),
            1
        );
        // Revision 4: one that has applied nothing yet (before a merge) is a thing to check.
        let f = run(
            &cluster(&bad.iter().map(String::as_str).collect::<Vec<_>>()),
            "MIG-GO-07",
        );
        assert_eq!(f[0].severity, crate::analyses::finding::Severity::Info);
        assert!(
            f[0].message
                .contains("check that the pipeline pushes with --revision")
        );
        // One that applied an OCI revision without a SHA-1 origin: the statuses fail.
        let mut applied = base.to_vec();
        applied.push(r#"{"kind":"Kustomization","metadata":{"name":"a","namespace":"apps"},"spec":{"sourceRef":{"kind":"OCIRepository","name":"x"}},"status":{"lastAppliedRevision":"latest@sha256:abab"}}"#.into());
        let f = run(
            &cluster(&applied.iter().map(String::as_str).collect::<Vec<_>>()),
            "MIG-GO-07",
        );
        assert_eq!(f[0].severity, crate::analyses::finding::Severity::Medium);
        let mut good = base.to_vec();
        good.push(r#"{"kind":"Kustomization","metadata":{"name":"a","namespace":"apps"},"spec":{"sourceRef":{"kind":"OCIRepository","name":"x"}},"status":{"lastAppliedOriginRevision":"main@sha1:0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f"}}"#.into());
        assert!(
            run(
                &cluster(&good.iter().map(String::as_str).collect::<Vec<_>>()),
                "MIG-GO-07"
            )
            .is_empty()
        );
    }

    #[test]
    fn mig_go_09_receiver_computes_path() {
        let rc = r#"{"kind":"Receiver","metadata":{"name":"cluster-release","namespace":"flux-system"},"spec":{"type":"generic-oidc","resources":[{"kind":"GitRepository","name":"gone"}]}}"#;
        let f = run(&cluster(&[rc]), "MIG-GO-09");
        assert!(f[0].evidence.iter().any(|e| {
            e.contains("/hook/ef1ac25eeff8057bf82070418a3eabb755c4821b29ff32377c75863bc1692ab5")
        }));
    }

    #[test]
    fn mig_go_10_auth() {
        let root = r#"{"kind":"OCIRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"status":{"conditions":[{"type":"Ready","status":"False","reason":"OCIArtifactPullFailed","message":"403: denied: requested access to the resource is denied"}]}}"#;
        assert_eq!(
            run(&cluster(&[&root_ks("OCIRepository"), root]), "MIG-GO-10").len(),
            1
        );
    }

    #[test]
    fn mig_go_06_not_evaluated_on_a_suspended_break_glass_root() {
        let git = r#"{"kind":"GitRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"spec":{"suspend":true},"status":{"artifact":{"revision":"main@sha1:1111111111111111111111111111111111111111"}}}"#;
        let c = cluster(&[&inst("GitRepository"), git, OCI_READY]);
        assert!(run(&c, "MIG-GO-06").is_empty());
        let live = cluster(&[&inst("GitRepository"), GIT, OCI_READY]);
        assert_eq!(run(&live, "MIG-GO-06").len(), 1);
    }

    #[test]
    fn mig_go_09_tenant_git_receiver_is_fine() {
        let oci_root = [
            inst("OCIRepository"),
            r#"{"kind":"Kustomization","metadata":{"name":"flux-system","namespace":"flux-system"},"spec":{"sourceRef":{"kind":"OCIRepository","name":"flux-system"}}}"#.to_string(),
            r#"{"kind":"OCIRepository","metadata":{"name":"flux-system","namespace":"flux-system"}}"#.to_string(),
            r#"{"kind":"GitRepository","metadata":{"name":"app","namespace":"team"}}"#.to_string(),
            r#"{"kind":"Receiver","metadata":{"name":"app","namespace":"team"},"spec":{"type":"github","resources":[{"kind":"GitRepository","name":"app"}]},"status":{"webhookPath":"/hook/x","conditions":[{"type":"Ready","status":"True"}]}}"#.to_string(),
        ];
        let objs: Vec<&str> = oci_root.iter().map(String::as_str).collect();
        assert!(run(&cluster(&objs), "MIG-GO-09").is_empty());
    }

    #[test]
    fn mig_go_10_digest_with_401_is_not_auth() {
        let root = |msg: &str, reason: &str| {
            format!(
                r#"{{"kind":"OCIRepository","metadata":{{"name":"flux-system","namespace":"flux-system"}},"status":{{"conditions":[{{"type":"Ready","status":"False","reason":"{reason}","message":"{msg}"}}]}}}}"#
            )
        };
        let ks = r#"{"kind":"Kustomization","metadata":{"name":"flux-system","namespace":"flux-system"},"spec":{"sourceRef":{"kind":"OCIRepository","name":"flux-system"}}}"#;
        let digest = root(
            "failed to verify sha256:40140140abcdef: no matching signatures",
            "VerificationError",
        );
        assert!(run(&cluster(&[ks, &digest]), "MIG-GO-10").is_empty());
        let other = root("layer sha256:4010401 truncated", "OCIArtifactPullFailed");
        assert!(run(&cluster(&[ks, &other]), "MIG-GO-10").is_empty());
        let denied = root(
            "GET https://ghcr.io/v2/x: DENIED: requested access to the resource is denied",
            "OCIArtifactPullFailed",
        );
        assert_eq!(
            run(&cluster(&[ks, &denied]), "MIG-GO-10")[0].severity,
            Severity::Critical
        );
    }

    #[test]
    fn mig_go_12_credentials_dropped_at_handover() {
        let owner = r#"{"kind":"Kustomization","metadata":{"name":"flux-system","namespace":"flux-system"},"spec":{"sourceRef":{"kind":"GitRepository","name":"flux-system"}},"status":{"inventory":{"entries":[{"id":"flux-system_flux-system_source.toolkit.fluxcd.io_OCIRepository","v":"v1"}]}}}"#;
        let oci = r#"{"kind":"OCIRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"spec":{"url":"oci://ghcr.io/o/fleet","secretRef":{"name":"ghcr-auth"}}}"#;
        let sync = |pull: &str| {
            format!(
                r#"{{"kind":"FluxInstance","metadata":{{"name":"flux","namespace":"flux-system"}},"spec":{{"sync":{{"kind":"GitRepository","name":"flux-system"{pull}}}}}}}"#
            )
        };
        let fail = run(&cluster(&[&sync(""), owner, oci]), "MIG-GO-12");
        assert_eq!(fail.len(), 1);
        assert_eq!(fail[0].severity, Severity::High);
        let pass = run(
            &cluster(&[&sync(r#","pullSecret":"ghcr-auth""#), owner, oci]),
            "MIG-GO-12",
        );
        assert!(pass.is_empty());
    }

    #[test]
    fn mig_go_13_chart_in_git_root() {
        let hr = r#"{"kind":"HelmRelease","metadata":{"name":"app","namespace":"apps"},"spec":{"chart":{"spec":{"chart":"./charts/app","sourceRef":{"kind":"GitRepository","name":"flux-system","namespace":"flux-system"}}}}}"#;
        // Revision 3: no intent of a Git → OCI migration, nothing to say.
        assert!(run(&cluster(&[&inst("GitRepository"), GIT, hr]), "MIG-GO-13").is_empty());
        let f = run(
            &cluster(&[&inst("GitRepository"), GIT, OCI_READY, hr]),
            "MIG-GO-13",
        );
        assert_eq!((f.len(), f[0].severity), (1, Severity::Medium));
        let chart_ref = r#"{"kind":"HelmRelease","metadata":{"name":"app","namespace":"apps"},"spec":{"chartRef":{"kind":"OCIRepository","name":"app-chart"}}}"#;
        assert!(
            run(
                &cluster(&[&inst("GitRepository"), GIT, OCI_READY, chart_ref]),
                "MIG-GO-13"
            )
            .is_empty()
        );
    }
}
