//! SIG-01, SIG-09, SIG-10: the root source and the FluxInstance verify patch.

use super::rule;
use crate::api::object::KustomizePatch;
use crate::findings::policy::{Class, graded};
use crate::findings::{Finding, Severity};
use crate::kind::Kind;
use crate::model::{Cluster, FluxObject};
use crate::signatures::instance::{self, PatchVerdict};

rule!(
    /// SIG-01: the root source does not verify what it delivers.
    RootUnverified, "SIG-01", "root source unverified", root_unverified
);
rule!(
    /// SIG-09: the instance's verify patch will not reach the generated source (predictive).
    PatchTargetsNothing, "SIG-09", "instance verify patch targets nothing", patch_targets_nothing
);
rule!(
    /// SIG-10: the instance asks for verify, the live generated source has none (fail-open).
    VerifyDidNotLand, "SIG-10", "instance verify did not land", verify_did_not_land
);

fn root_unverified(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some(root) = c.root_source() else { return };
    let Some(o) = c.get(&root) else { return }; // a missing root is MIG-GO-02's
    // Revision 2: a Git root is the bootstrap default (a posture gap: say what verifying
    // needs); an OCI or Bucket root is exposed; an anonymous OCI root on a mutable tag is
    // what SIG-11 calls critical.
    let (class, problem, remediation) = match o.key.kind {
        Kind::Bucket => (
            Class::Exposed,
            "a Bucket cannot verify signatures",
            "Move the root to a signed OCI artifact (Buckets have no verify); until then restrict write access to the bucket.",
        ),
        Kind::GitRepository if o.raw.spec.verify.is_none() => (
            Class::PostureGap,
            "the live GitRepository has no spec.verify",
            "Verifying a Git root needs signed commits or tags: spec.verify {mode: HEAD|Tag|TagAndHEAD, secretRef} with PGP public keys (*.asc) or, on Flux ≥ 2.9, SSH keys (*.sshpub) — or move the root to a cosign-signed OCI artifact.",
        ),
        Kind::OciRepository if o.raw.spec.verify.is_none() => (
            if super::sig_anonymous::fires_on(o) {
                super::sig_anonymous::class_of(o)
            } else {
                Class::Exposed
            },
            "the live OCIRepository has no spec.verify",
            "Add spec.verify (cosign keyless with a pinned identity) through a FluxInstance kustomize patch targeting the generated OCIRepository.",
        ),
        _ => return,
    };
    let mut evidence = vec![
        format!(
            "root source (from the cluster-sync Kustomization {}): {}",
            c.root_kustomization()
                .map(|k| k.to_string())
                .unwrap_or_default(),
            o.key
        ),
        problem.to_string(),
    ];
    if class == Class::ExposedAnonymous {
        evidence.push("and it is pulled anonymously from a mutable tag (SIG-11): anyone who can push to the registry controls the cluster".into());
    }
    out.push(graded(
        c,
        id,
        class,
        o.key.clone(),
        format!("The root source {} is not signature-verified", o.key),
        evidence,
        remediation.into(),
    ));
}

/// The FluxInstance, the source it generates for `spec.sync`, and its kustomize patches.
fn instance_sync(c: &Cluster) -> Option<(&FluxObject, instance::Generated, &[KustomizePatch])> {
    let inst = c.instance()?;
    let generated = instance::generated_source(inst, c)?;
    let patches = inst
        .raw
        .spec
        .kustomize
        .as_ref()
        .map(|k| k.patches.as_slice())
        .unwrap_or(&[]);
    Some((inst, generated, patches))
}

fn patch_targets_nothing(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some((inst, generated, patches)) = instance_sync(c) else {
        return;
    };
    let g = format!(
        "{{group: {}, version: {}, kind: {}, name: {}, namespace: {}}}",
        generated.group, generated.version, generated.kind, generated.name, generated.namespace
    );
    match instance::evaluate(patches, &generated) {
        PatchVerdict::Misses(misses) => out.push(Finding {
            reason: String::new(),
            members: vec![],
            rule: id.into(),
            severity: Severity::High,
            subject: inst.key.clone(),
            message: format!("No verify patch of {} targets the generated source {}: verification will be silently off", inst.key, generated.key()),
            evidence: std::iter::once(format!("generated source: {g}")).chain(misses).chain(std::iter::once("kustomize skips a patch whose target matches nothing, without error".into())).collect(),
            remediation: format!("Target the generated object exactly, e.g. target: {{kind: {}, name: {}}}; then confirm spec.verify on the live object (SIG-10).", generated.kind, generated.name),
        }),
        PatchVerdict::Indeterminate(why) => out.push(Finding {
            reason: String::new(),
            members: vec![],
            rule: id.into(),
            severity: Severity::Info,
            subject: inst.key.clone(),
            message: format!("Whether the verify patch of {} reaches {} cannot be predicted", inst.key, generated.key()),
            evidence: vec![format!("generated source: {g}"), why],
            remediation: "Confirm spec.verify and SourceVerified on the live generated source (SIG-10 checks it).".into(),
        }),
        PatchVerdict::Reaches(_) | PatchVerdict::NotConfigured => {}
    }
}

fn verify_did_not_land(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some((inst, generated, patches)) = instance_sync(c) else {
        return;
    };
    // Only patches meant for this kind of source count: a patch aimed at another kind (an
    // OCIRepository patch while the sync is still Git) is SIG-09's prediction, not a fail-open.
    // A strategic-merge patch without target takes its kind from its body; a patch whose
    // kind cannot be told is SIG-09's indeterminate case, never SIG-10's proof.
    let meant_for_it = |p: &&KustomizePatch| {
        instance::is_verify_patch(&p.patch)
            && instance::patch_kind(p).is_some_and(|kind| {
                crate::identity::target_matches(&kind, &generated.kind)
                    != crate::identity::TargetMatch::No
            })
    };
    let Some(live) = c.get(&generated.key()) else {
        return;
    };
    if live.managed_by.as_ref().is_some_and(|m| m != &inst.key) || live.raw.spec.verify.is_some() {
        return;
    }
    // Revision 2, the second proof: the live source was verifying before (a SourceVerified
    // condition lingers until the next reconcile after verify was dropped at handover).
    let was_verifying = live.condition("SourceVerified").is_some();
    let asks = patches.iter().any(|p| meant_for_it(&p));
    if !asks && !was_verifying {
        return;
    }
    let first_line = if asks {
        format!("{} has a kustomize patch that sets /spec/verify", inst.key)
    } else {
        format!(
            "{} still carries a SourceVerified condition: it verified before the operator regenerated it",
            live.key
        )
    };
    out.push(Finding {
        reason: crate::findings::policy::reason(Class::FailOpen, crate::findings::policy::Role::Root),
        members: vec![],
        rule: id.into(),
        severity: Severity::Critical,
        subject: live.key.clone(),
        message: format!("{} asks for signature verification, but the live {} has no spec.verify: verification is off (fail-open)", inst.key, live.key),
        evidence: vec![
            first_line,
            format!("live {} (managedBy {}) has no spec.verify; status {}", live.key, live.managed_by.as_ref().map(|k| k.to_string()).unwrap_or_else(|| "—".into()), live.status.as_str()),
        ],
        remediation: "Fix the patch target (see SIG-09) and reconcile the FluxInstance; confirm SourceVerified=True on the live object.".into(),
    });
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use crate::findings::Severity;

    fn inst(kind: &str, target: &str) -> String {
        format!(
            r#"{{"kind":"FluxInstance","metadata":{{"name":"flux","namespace":"flux-system"}},"spec":{{"sync":{{"kind":"{kind}"}},"kustomize":{{"patches":[{{"patch":"- op: add\n  path: /spec/verify\n  value:\n    provider: cosign","target":{target}}}]}}}},"status":{{"lastAppliedRevision":"v2.8.3@sha256:ab"}}}}"#
        )
    }

    fn oci_root(verify: bool) -> String {
        let v = if verify {
            r#","verify":{"provider":"cosign"}"#
        } else {
            ""
        };
        format!(
            r#"{{"kind":"OCIRepository","metadata":{{"name":"flux-system","namespace":"flux-system"}},"spec":{{"url":"oci://x","secretRef":{{"name":"s"}}{v}}},"status":{{"reconcilerRef":{{"managedBy":"FluxInstance/flux-system/flux"}}}}}}"#
        )
    }

    #[test]
    fn sig_01_root_unverified() {
        assert!(
            run(
                &cluster(&[&root_ks("OCIRepository"), &oci_root(true)]),
                "SIG-01"
            )
            .is_empty()
        );
        let f = run(
            &cluster(&[
                &root_ks("GitRepository"),
                r#"{"kind":"GitRepository","metadata":{"name":"flux-system","namespace":"flux-system"}}"#,
            ]),
            "SIG-01",
        );
        assert_eq!(
            f[0].severity,
            Severity::Medium,
            "a Git root is a posture gap (revision 2)"
        );
        assert!(
            f[0].remediation.contains("*.asc"),
            "says what verifying needs"
        );
        assert_eq!(run(&cluster(&[&root_ks("Bucket"), r#"{"kind":"Bucket","metadata":{"name":"flux-system","namespace":"flux-system"}}"#]), "SIG-01").len(), 1);
        let anon = run(
            &cluster(&[
                &root_ks("OCIRepository"),
                r#"{"kind":"OCIRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"spec":{"url":"oci://x"}}"#,
            ]),
            "SIG-01",
        );
        assert_eq!(
            anon[0].severity,
            Severity::Critical,
            "with SIG-11 on the root"
        );
    }

    #[test]
    fn sig_09_patch_targets() {
        let ok = cluster(&[
            &inst("OCIRepository", r#"{"kind":"OCIRepository"}"#),
            &oci_root(true),
        ]);
        assert!(run(&ok, "SIG-09").is_empty());
        let wrong_name = cluster(&[
            &inst("OCIRepository", r#"{"kind":"OCIRepository","name":"flux"}"#),
            &oci_root(false),
        ]);
        assert_eq!(run(&wrong_name, "SIG-09")[0].severity, Severity::High);
        let wrong_kind = cluster(&[&inst("GitRepository", r#"{"kind":"OCIRepository"}"#)]);
        assert_eq!(run(&wrong_kind, "SIG-09").len(), 1);
        let old_version = cluster(&[&inst(
            "OCIRepository",
            r#"{"version":"v1beta2","kind":"OCIRepository"}"#,
        )]);
        assert_eq!(run(&old_version, "SIG-09").len(), 1);
        let labels = cluster(&[&inst(
            "OCIRepository",
            r#"{"labelSelector":"app.kubernetes.io/part-of=flux"}"#,
        )]);
        assert_eq!(
            run(&labels, "SIG-09")[0].severity,
            Severity::Info,
            "indeterminate is info, never a pass"
        );
    }

    #[test]
    fn sig_10_ignores_patches_for_another_kind() {
        // Pre-handover: the patch is prepared for the future OCI root while the sync is Git.
        let git_root = r#"{"kind":"GitRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"status":{"reconcilerRef":{"managedBy":"FluxInstance/flux-system/flux"}}}"#;
        let c = cluster(&[
            &inst("GitRepository", r#"{"kind":"OCIRepository"}"#),
            git_root,
        ]);
        assert!(run(&c, "SIG-10").is_empty());
        assert_eq!(run(&c, "SIG-09").len(), 1);
    }

    #[test]
    fn sig_10_strategic_merge_for_oci_while_sync_is_git() {
        // Regression: a strategic-merge verify patch without target, staged for the future
        // OCI root, counted as a fail-open of the live Git root.
        let inst = r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"sync":{"kind":"GitRepository"},"kustomize":{"patches":[{"patch":"apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata:\n  name: flux-system\nspec:\n  verify:\n    provider: cosign"}]}},"status":{"lastAppliedRevision":"v2.8.3@sha256:ab","inventory":{"entries":[{"id":"flux-system_flux-system_source.toolkit.fluxcd.io_GitRepository","v":"v1"}]}}}"#;
        let git = r#"{"kind":"GitRepository","metadata":{"name":"flux-system","namespace":"flux-system"}}"#;
        assert!(run(&cluster(&[inst, git]), "SIG-10").is_empty());
    }

    #[test]
    fn sig_10_lingering_verdict_without_verify() {
        // No patch at all, but the live generated root still carries SourceVerified: the
        // verification set by the Git-delivered copy was dropped at handover.
        let inst = r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"sync":{"kind":"OCIRepository"}},"status":{"lastAppliedRevision":"v2.8.3@sha256:ab"}}"#;
        let live = r#"{"kind":"OCIRepository","metadata":{"name":"flux-system","namespace":"flux-system","labels":{"app.kubernetes.io/managed-by":"flux-operator"}},"spec":{"url":"oci://x","secretRef":{"name":"s"}},"status":{"conditions":[{"type":"SourceVerified","status":"True","message":"verified signature of revision latest@sha256:ab"}]}}"#;
        let f = run(&cluster(&[inst, live]), "SIG-10");
        assert_eq!((f.len(), f[0].severity), (1, Severity::Critical));
    }

    #[test]
    fn sig_10_fail_open() {
        let landed = cluster(&[
            &inst("OCIRepository", r#"{"kind":"OCIRepository"}"#),
            &oci_root(true),
        ]);
        assert!(run(&landed, "SIG-10").is_empty());
        let missed = cluster(&[
            &inst("OCIRepository", r#"{"kind":"OCIRepository","name":"flux"}"#),
            &oci_root(false),
        ]);
        let f = run(&missed, "SIG-10");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Critical);
        assert_eq!(
            f[0].subject.to_string(),
            "OCIRepository/flux-system/flux-system"
        );
    }
}
