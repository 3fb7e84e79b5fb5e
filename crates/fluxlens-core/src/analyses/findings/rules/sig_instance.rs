//! SIG-01, SIG-09, SIG-10: the root source and the FluxInstance verify patch.

use super::rule;
use crate::analyses::facts::instance::{self, PatchVerdict};
use crate::analyses::findings::Finding;
use crate::analyses::findings::policy::{Class, Role, fixed, graded, graded_as};
use crate::model::{Cluster, FluxObject};
use crate::wire::kind::Kind;
use crate::wire::object::KustomizePatch;

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
        Kind::GitRepository if o.verify().is_none() => (
            Class::PostureGap,
            "the live GitRepository has no spec.verify",
            "Verifying a Git root needs signed commits or tags: spec.verify {mode: HEAD|Tag|TagAndHEAD, secretRef} with PGP public keys (*.asc) or, on Flux ≥ 2.9, SSH keys (*.sshpub) — or move the root to a cosign-signed OCI artifact.",
        ),
        Kind::OciRepository if o.verify().is_none() => (
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
    Some((inst, generated, instance::patches(inst)))
}

fn patch_targets_nothing(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some((inst, generated, patches)) = instance_sync(c) else {
        return;
    };
    // Revision 3: before the handover the prediction is about the OCIRepository the
    // instance will generate; a verify patch prepared for it is right, not a miss.
    let handover = (generated.kind == "GitRepository")
        .then(|| instance::handover_verify(c))
        .flatten();
    if let Some(h) = &handover {
        predict_handover(id, c, inst, h, out);
    }
    let future = handover.as_ref().map(|h| &h.generated);
    match instance::evaluate(patches, &generated) {
        PatchVerdict::Misses(misses) => {
            // A targeted patch aimed at the future OCI source selects nothing today, as
            // intended; a target-less one fails today's build whatever it is aimed at.
            // A targeted patch of the future source's kind is the handover prediction's to
            // judge (#69: a mistyped OCIRepository name was also called a miss of today's Git
            // source, "verification will be silently off", which it never covered).
            let misses: Vec<_> = misses
                .into_iter()
                .filter(|m| {
                    m.targetless
                        || !future.is_some_and(|f| {
                            reaches(&patches[m.index], f)
                                || instance::patch_kind(&patches[m.index]).as_deref()
                                    == Some(f.kind.as_str())
                        })
                })
                .collect();
            if !misses.is_empty() {
                out.push(missed(id, inst, &generated, &misses));
            }
        }
        PatchVerdict::Indeterminate(why) => out.push(fixed(
            id,
            Class::Context,
            inst.key.clone(),
            format!(
                "Whether the verify patch of {} reaches {} cannot be predicted",
                inst.key,
                generated.key()
            ),
            vec![format!("generated source: {}", generated.describe()), why],
            "Confirm spec.verify and SourceVerified on the live generated source (SIG-10 checks it).".into(),
        )),
        PatchVerdict::Reaches(_) | PatchVerdict::NotConfigured => {}
    }
}

fn reaches(p: &KustomizePatch, g: &instance::Generated) -> bool {
    matches!(
        instance::evaluate(std::slice::from_ref(p), g),
        PatchVerdict::Reaches(_)
    )
}

/// The finding for verify patches that miss the generated source: silently skipped when
/// targeted, a failed build when target-less (revision 3 tells them apart).
fn missed(
    id: &str,
    inst: &FluxObject,
    g: &instance::Generated,
    misses: &[instance::Miss],
) -> Finding {
    let mut evidence = vec![format!("generated source: {}", g.describe())];
    evidence.extend(misses.iter().map(instance::Miss::describe));
    let remediation = format!(
        "Give the patch a target that selects the generated object exactly, e.g. target: {{kind: {}, name: {}}}; then confirm spec.verify on the live object (SIG-10).",
        g.kind, g.name
    );
    if misses.iter().any(|m| m.targetless) {
        let failing = inst.condition("Ready").is_some_and(|r| r.status == "False");
        let (class, state) = if failing {
            (Class::Broken, "fails")
        } else {
            (Class::Predicted, "will fail at its next reconcile")
        };
        return graded_as(
            Role::Root,
            id,
            class,
            inst.key.clone(),
            format!(
                "A target-less verify patch of {} names no generated object: the FluxInstance build {state}",
                inst.key
            ),
            evidence,
            remediation,
        );
    }
    fixed(
        id,
        Class::Predicted,
        inst.key.clone(),
        format!(
            "No verify patch of {} targets the generated source {}: verification will be silently off",
            inst.key,
            g.key()
        ),
        evidence,
        remediation,
    )
}

/// Before the handover: the OCIRepository the instance will generate carries `spec.verify`
/// delivered from Git, and no instance patch will put it back (revision 3, SIG-09 high).
fn predict_handover(
    id: &str,
    c: &Cluster,
    inst: &FluxObject,
    h: &instance::Handover,
    out: &mut Vec<Finding>,
) {
    let Some(target) = h.verified_target(c) else {
        return;
    };
    let (lost, why) = match &h.verdict {
        PatchVerdict::Reaches(_) => return,
        PatchVerdict::Indeterminate(why) => (false, why.clone()),
        PatchVerdict::NotConfigured => (
            true,
            format!("{} has no kustomize patch that sets spec.verify", inst.key),
        ),
        PatchVerdict::Misses(m) => (
            true,
            m.iter()
                .map(instance::Miss::describe)
                .collect::<Vec<_>>()
                .join("; "),
        ),
    };
    let evidence = vec![
        format!(
            "{} has spec.verify today, delivered by {}",
            target.key,
            target.owner_label()
        ),
        format!(
            "at handover the operator generates {} without verify and takes the field over",
            h.generated.describe()
        ),
        why,
    ];
    if !lost {
        out.push(fixed(
            id,
            Class::Context,
            inst.key.clone(),
            format!(
                "Whether spec.verify of {} survives the handover cannot be predicted",
                target.key
            ),
            evidence,
            "Confirm spec.verify on the live object right after the handover (SIG-10).".into(),
        ));
        return;
    }
    // Revision 5: a prediction waits for the step that acts. While the sync stays Git nothing is
    // dropped (a careful migration stages the verified source first): context here; the change
    // that switches spec.sync.kind without the patch is judged on its own (SIG-10's fail-open).
    out.push(fixed(
        id,
        Class::Context,
        inst.key.clone(),
        format!(
            "spec.verify of {} would be dropped at the handover: no FluxInstance patch puts it back yet",
            target.key
        ),
        evidence,
        format!(
            "In the change that switches spec.sync.kind (or before it), add to {} spec.kustomize.patches: {}",
            inst.key,
            instance::verify_patch_yaml(&h.generated, target)
        ),
    ));
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
                crate::analyses::identity::target_matches(&kind, &generated.kind)
                    != crate::analyses::identity::TargetMatch::No
            })
    };
    let Some(live) = c.get(&generated.key()) else {
        return;
    };
    if live.managed_by.as_ref().is_some_and(|m| m != &inst.key) || live.verify().is_some() {
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
    out.push(graded_as(
        Role::Root,
        id,
        Class::FailOpen,
        live.key.clone(),
        format!("{} asks for signature verification, but the live {} has no spec.verify: verification is off (fail-open)", inst.key, live.key),
        vec![
            first_line,
            format!("live {} (managedBy {}) has no spec.verify; status {}", live.key, live.managed_by.as_ref().map(|k| k.to_string()).unwrap_or_else(|| "—".into()), live.status.as_str()),
        ],
        format!(
            "Add (or fix) the FluxInstance verify patch: {}; reconcile the FluxInstance and confirm SourceVerified=True on the live object.",
            instance::verify_patch_yaml(&generated, live)
        ),
    ));
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use crate::analyses::findings::Severity;

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
        let wrong_name = cluster(&[&inst(
            "OCIRepository",
            r#"{"kind":"OCIRepository","name":"flux"}"#,
        )]);
        assert_eq!(run(&wrong_name, "SIG-09")[0].severity, Severity::High);
        // With the live root lacking verify, SIG-10 carries it (one cause, one finding).
        let landed_wrong = cluster(&[
            &inst("OCIRepository", r#"{"kind":"OCIRepository","name":"flux"}"#),
            &oci_root(false),
        ]);
        assert!(run(&landed_wrong, "SIG-09").is_empty());
        assert_eq!(run(&landed_wrong, "SIG-10").len(), 1);
        // Revision 3: sync still Git, the patch prepared for the OCIRepository the handover
        // generates: right, not a miss.
        let prepared = cluster(&[&inst("GitRepository", r#"{"kind":"OCIRepository"}"#)]);
        assert!(run(&prepared, "SIG-09").is_empty());
        let wrong_kind = cluster(&[&inst("GitRepository", r#"{"kind":"Bucket"}"#)]);
        assert_eq!(run(&wrong_kind, "SIG-09")[0].severity, Severity::High);
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
        assert!(run(&c, "SIG-09").is_empty(), "prepared for the handover");
    }

    #[test]
    fn sig_09_targetless_and_targeted_misses_are_told_apart() {
        let sm = |kind: &str, name: &str| {
            format!(
                r#"{{"kind":"FluxInstance","metadata":{{"name":"flux","namespace":"flux-system"}},"spec":{{"sync":{{"kind":"OCIRepository"}},"kustomize":{{"patches":[{{"patch":"apiVersion: source.toolkit.fluxcd.io/v1\nkind: {kind}\nmetadata:\n  name: {name}\nspec:\n  verify:\n    provider: cosign"}}]}}}},"status":{{"lastAppliedRevision":"v2.8.3@sha256:ab"}}}}"#
            )
        };
        let loud = run(&cluster(&[&sm("OCIRepository", "flux")]), "SIG-09");
        assert!(loud[0].message.contains("build"), "{}", loud[0].message);
        assert!(
            loud[0]
                .evidence
                .iter()
                .any(|e| e.contains("fails the FluxInstance build"))
        );
        let silent = run(
            &cluster(&[&inst(
                "OCIRepository",
                r#"{"kind":"OCIRepository","name":"flux"}"#,
            )]),
            "SIG-09",
        );
        assert!(
            silent[0].message.contains("silently off"),
            "{}",
            silent[0].message
        );
        assert!(
            silent[0]
                .evidence
                .iter()
                .any(|e| e.contains("without error"))
        );
    }

    #[test]
    fn sig_10_carries_the_findings_of_the_same_cause() {
        // One cause, one finding (revision 3): the patch missed, the live root has no verify.
        let missed = cluster(&[
            &inst("OCIRepository", r#"{"kind":"OCIRepository","name":"flux"}"#),
            &root_ks("OCIRepository"),
            &oci_root(false),
        ]);
        let all = crate::analyses::findings::evaluate_all(&missed);
        let sig10 = all.iter().find(|f| f.rule == "SIG-10").unwrap();
        assert!(
            all.iter()
                .all(|f| !matches!(f.rule.as_str(), "SIG-01" | "SIG-09"))
        );
        assert!(sig10.evidence.iter().any(|e| e.starts_with("also SIG-01")));
        assert!(sig10.evidence.iter().any(|e| e.starts_with("also SIG-09")));
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
