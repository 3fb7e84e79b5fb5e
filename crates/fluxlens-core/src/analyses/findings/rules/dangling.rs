//! MIG-GO-02 — dangling source or dependency reference (the S003 bootstrap deadlock).

use crate::analyses::facts::cluster::ClusterFacts;
use crate::analyses::findings::policy::{Class, Role, delivery_chain, fixed, graded_as};
use crate::analyses::findings::{Finding, Rule};
use crate::model::{Answer, ObjectKey, Presence, RefKind, Reference};

/// A consumer references a source (or dependency) that does not exist.
pub struct DanglingReference;

impl Rule for DanglingReference {
    fn id(&self) -> &'static str {
        "MIG-GO-02"
    }

    fn title(&self) -> &'static str {
        "dangling source"
    }

    fn evaluate(&self, cluster: &ClusterFacts, out: &mut Vec<Finding>) {
        let root = cluster.root_kustomization();
        let chain = delivery_chain(cluster);
        for obj in cluster.objects() {
            for r in &obj.refs {
                let is_source = matches!(
                    r.kind,
                    RefKind::Source | RefKind::ChartRef | RefKind::ChartTemplate
                );
                if !(is_source || r.kind == RefKind::DependsOn) {
                    continue;
                }
                // #51: shown before the confirming read answers; nothing is said until it has.
                if cluster.confirming(&r.target) {
                    continue;
                }
                let presence = cluster.presence(&r.target);
                match presence {
                    Presence::Present | Presence::External(Some(Answer::Found(_))) => continue,
                    _ if presence.is_missing() => {}
                    // §0.2: what cannot be seen is said once as context, never as a blocker.
                    _ => {
                        out.push(not_visible(self.id(), obj.key.clone(), r, &presence));
                        continue;
                    }
                }
                let on_chain = root.as_ref() == Some(&obj.key) || chain.contains(&obj.key);
                // Broken delivery: critical for the root and its delivery chain.
                let role = if on_chain { Role::Root } else { Role::Ordinary };
                let mut evidence = vec![format!(
                    "{} → {} ({}), {}",
                    obj.key,
                    r.target,
                    r.field,
                    if cluster.confirmations.contains_key(&r.target) {
                        "not listed, and the server answered NotFound when asked"
                    } else {
                        "not listed in the namespaces and kinds you can see"
                    }
                )];
                if let Some(c) = obj.condition("Ready").filter(|c| c.status == "False") {
                    evidence.push(format!(
                        "Ready=False {}: {}",
                        c.reason.as_deref().unwrap_or(""),
                        c.message.as_deref().unwrap_or("")
                    ));
                }
                if let Some(why) = premature_flip(cluster, &r.target) {
                    evidence.push(why);
                }
                if on_chain {
                    evidence.push(format!(
                        "{} is on the FluxInstance delivery chain: the change that would create {} is delivered through it (bootstrap deadlock)",
                        obj.key, r.target
                    ));
                }
                let (message, remediation) = if is_source {
                    (
                        format!("{} references {} which does not exist", obj.key, r.target),
                        format!(
                            "Create {} before pointing consumers at it, or revert {} to an existing source. Never flip a consumer in the same change that creates its source.",
                            r.target, r.field
                        ),
                    )
                } else {
                    (
                        format!(
                            "{} depends on {} which does not exist; it will wait forever",
                            obj.key, r.target
                        ),
                        format!("Create {} or remove it from {}.", r.target, r.field),
                    )
                };
                out.push(graded_as(
                    role,
                    self.id(),
                    Class::Broken,
                    obj.key.clone(),
                    message,
                    evidence,
                    remediation,
                ));
            }
        }
    }
}

/// The info finding for a reference fluxlens cannot resolve.
fn not_visible(rule: &str, subject: ObjectKey, r: &Reference, p: &Presence) -> Finding {
    fixed(
        rule,
        Class::Context,
        subject.clone(),
        format!("{subject} → {} is {}", r.target, p.describe()),
        vec![format!("{} ({})", r.target, r.field)],
        "Nothing to do unless you expected to see it: fluxlens does not call an object missing when it cannot see it.".into(),
    )
}

/// MIG-GO-04 off the delivery chain is this finding's evidence (revision 3): the missing
/// source is the OCI root the FluxInstance does not generate yet.
fn premature_flip(c: &ClusterFacts, target: &ObjectKey) -> Option<String> {
    let (_, oci) = crate::analyses::facts::cluster::root_pair(c);
    (target == &oci && crate::analyses::facts::cluster::sync_kind(c).as_deref() == Some("GitRepository"))
        .then(|| format!("MIG-GO-04 premature flip: {oci} is created only when the FluxInstance switches spec.sync to OCIRepository; flip consumers after stage M2"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::findings::Severity;
    use crate::model::Cluster;
    use crate::model::CrdAccess;
    use crate::wire::FluxReport;

    fn cluster(objs: &[&str]) -> Cluster {
        let report: FluxReport =
            serde_json::from_str(r#"{"metadata":{"namespace":"flux-system"},"spec":{"sync":{"id":"kustomization/flux-system"}}}"#).unwrap();
        Cluster::new(
            report,
            objs.iter().map(|s| serde_json::from_str(s).unwrap()),
            CrdAccess::Unknown,
        )
        .with_server_answers()
    }

    fn run(c: &ClusterFacts) -> Vec<Finding> {
        let mut out = vec![];
        DanglingReference.evaluate(c, &mut out);
        out
    }

    #[test]
    fn resolved_references_pass() {
        let c = cluster(&[
            r#"{"kind":"GitRepository","metadata":{"name":"repo","namespace":"apps"}}"#,
            r#"{"kind":"Kustomization","metadata":{"name":"a","namespace":"apps"},"spec":{"sourceRef":{"kind":"GitRepository","name":"repo"}}}"#,
            r#"{"kind":"Kustomization","metadata":{"name":"b","namespace":"apps"},"spec":{"sourceRef":{"kind":"GitRepository","name":"repo"},"dependsOn":[{"name":"a"}]}}"#,
        ]);
        assert!(run(&ClusterFacts::of(&c)).is_empty());
    }

    #[test]
    fn nothing_is_said_while_the_confirming_read_is_under_way() {
        // #51: the first view is shown before the server has answered for these references.
        let mut c = cluster(&[
            r#"{"kind":"Kustomization","metadata":{"name":"a","namespace":"apps"},"spec":{"sourceRef":{"kind":"OCIRepository","name":"gone","namespace":"flux-system"},"dependsOn":[{"name":"infra"}]}}"#,
        ]);
        let pending: Vec<ObjectKey> = c.confirmations.keys().cloned().collect();
        assert_eq!(pending.len(), 2);
        c.confirmations.clear();
        c.notes.unconfirmed = pending
            .into_iter()
            .map(|k| (k, crate::model::CONFIRMING.to_string()))
            .collect();
        assert!(run(&ClusterFacts::of(&c)).is_empty());
    }

    #[test]
    fn dangling_source_and_dependency_fire() {
        let c = cluster(&[
            r#"{"kind":"Kustomization","metadata":{"name":"a","namespace":"apps"},"spec":{"sourceRef":{"kind":"OCIRepository","name":"gone","namespace":"flux-system"},"dependsOn":[{"name":"infra"}]}}"#,
        ]);
        let f = run(&ClusterFacts::of(&c));
        assert_eq!(f.len(), 2);
        assert!(
            f.iter()
                .all(|f| f.rule == "MIG-GO-02" && f.severity == Severity::High)
        );
        assert!(f[0].message.contains("OCIRepository/flux-system/gone"));
        assert!(f[1].message.contains("Kustomization/apps/infra"));
    }

    #[test]
    fn namespace_defaults_to_the_referrer() {
        // The source exists in flux-system, but the ref omits the namespace → apps/repo is missing.
        let c = cluster(&[
            r#"{"kind":"GitRepository","metadata":{"name":"repo","namespace":"flux-system"}}"#,
            r#"{"kind":"Kustomization","metadata":{"name":"a","namespace":"apps"},"spec":{"sourceRef":{"kind":"GitRepository","name":"repo"}}}"#,
        ]);
        assert_eq!(run(&ClusterFacts::of(&c)).len(), 1);
    }

    #[test]
    fn the_s003_deadlock_is_critical() {
        // FluxInstance is delivered by cluster-apps, which was flipped to a source that only the
        // FluxInstance would create.
        let c = cluster(&[
            r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"sync":{"kind":"GitRepository","name":"flux-system"}},"status":{"reconcilerRef":{"managedBy":"Kustomization/flux-system/cluster-apps"}}}"#,
            r#"{"kind":"Kustomization","metadata":{"name":"cluster-apps","namespace":"flux-system"},"spec":{"sourceRef":{"kind":"OCIRepository","name":"flux-system"}},"status":{"conditions":[{"type":"Ready","status":"False","reason":"ArtifactFailed","message":"ocirepositories.source.toolkit.fluxcd.io \"flux-system\" not found"}]}}"#,
        ]);
        let f = run(&ClusterFacts::of(&c));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Critical);
        assert!(f[0].evidence.iter().any(|e| e.contains("delivery chain")));
        assert!(f[0].evidence.iter().any(|e| e.contains("ArtifactFailed")));
    }

    #[test]
    fn helmchart_source_is_always_in_its_own_namespace() {
        let c = cluster(&[
            r#"{"kind":"HelmRepository","metadata":{"name":"charts","namespace":"other"}}"#,
            r#"{"kind":"HelmChart","metadata":{"name":"c","namespace":"apps"},"spec":{"chart":"podinfo","sourceRef":{"kind":"HelmRepository","name":"charts","namespace":"other"}}}"#,
        ]);
        let f = run(&ClusterFacts::of(&c));
        assert_eq!(f.len(), 1);
        assert!(f[0].message.contains("HelmRepository/apps/charts"));
    }
}
