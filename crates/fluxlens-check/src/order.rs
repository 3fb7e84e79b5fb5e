//! The change judged in the order Flux applies it (rule catalog revision 4): the base as if
//! reconciled, then the head landing through the root and each applier. What never reconciles
//! is MIG-GO-15; a migration of several stages at once is judged here too; and what a render
//! cannot check (the artifact exists, is signed, can be pulled) is said as preconditions.

use crate::analysis::Analysis;
use fluxlens_core::analyses::finding::Finding;
use fluxlens_core::analyses::findings::policy::{Class, Role, graded_as};
use fluxlens_core::analyses::findings::rules::mig_order;
use fluxlens_core::analyses::order::{self, Input, Mode, Order};
use fluxlens_core::model::ObjectKey;
use fluxlens_core::wire::kind::Kind;
use std::collections::{BTreeMap, BTreeSet};

/// The rule the order model speaks through.
pub const RULE: &str = "MIG-GO-15";
/// Revision 5: a change whose outcome depends on which of two objects reconciles first.
pub const RACE: &str = "MIG-GO-17";

/// A change, stepped.
#[derive(Debug, Clone)]
pub struct Judged {
    pub order: Order,
    /// MIG-GO-15: the deadlocks, or the info that a migration of several stages is safe.
    pub findings: Vec<Finding>,
    /// What must hold before the merge that no render can check.
    pub preconditions: Vec<String>,
}

/// Objects whose desired state differs: whole manifests compared (Helm values included);
/// objects the cluster generates (the root pair, ExternalArtifacts) by their decoded spec.
fn changed(base: &Analysis, head: &Analysis) -> BTreeSet<ObjectKey> {
    head.cluster
        .objects()
        .iter()
        .filter(
            |o| match (base.manifests.get(&o.key), head.manifests.get(&o.key)) {
                (Some(a), Some(b)) => a != b,
                _ => base
                    .cluster
                    .get(&o.key)
                    .is_none_or(|b| b.raw.spec != o.raw.spec),
            },
        )
        .map(|o| o.key.clone())
        .collect()
}

/// The ConfigMaps and Secrets an object reads values from: a HelmRelease's `valuesFrom`, a
/// Kustomization's `postBuild.substituteFrom` (in the object's namespace).
fn value_sources(key: &ObjectKey, manifest: &serde_json::Value) -> Vec<ObjectKey> {
    let list = match key.kind {
        Kind::HelmRelease => manifest.pointer("/spec/valuesFrom"),
        Kind::Kustomization => manifest.pointer("/spec/postBuild/substituteFrom"),
        _ => None,
    };
    list.and_then(|l| l.as_array())
        .into_iter()
        .flatten()
        .filter_map(|r| {
            let kind = r.get("kind")?.as_str()?;
            let name = r.get("name")?.as_str()?;
            matches!(kind, "ConfigMap" | "Secret")
                .then(|| ObjectKey::new(Kind::parse(kind), key.namespace.clone(), name))
        })
        .collect()
}

/// Revision 5: values sources are part of the desired state. Each object whose ConfigMaps or
/// Secrets differ between base and head, with who delivers them (their applier label; the root
/// Kustomization when none is written) — #69: a HelmRelease whose values moved under a
/// Kustomization waiting on a source nothing creates was judged "safe".
fn values_changed(base: &Analysis, head: &Analysis) -> BTreeMap<ObjectKey, Vec<ObjectKey>> {
    let root = head.cluster.root_kustomization();
    let mut out = BTreeMap::new();
    for (key, manifest) in &head.manifests {
        let appliers: Vec<ObjectKey> = value_sources(key, manifest)
            .into_iter()
            .filter(|src| base.values.get(src) != head.values.get(src))
            .filter_map(|src| {
                head.values
                    .get(&src)
                    .and_then(|v| v.applier.clone())
                    .or_else(|| root.clone())
            })
            .collect();
        if !appliers.is_empty() {
            out.insert(key.clone(), appliers);
        }
    }
    out
}

/// Steps `base` → `head`.
pub fn judge(base: &Analysis, head: &Analysis) -> Judged {
    let set = changed(base, head);
    let values = values_changed(base, head);
    let order = order::judge(&Input {
        mode: Mode::Change,
        before: &base.cluster,
        after: &head.cluster,
        changed: Some(&set),
        values: Some(&values),
    });
    let mut findings = mig_order::deadlocks(RULE, &order, &head.cluster);
    findings.extend(mig_order::races(RACE, &order));
    findings.extend(stages_at_once(base, head, &order));
    debug_assert!(
        findings
            .iter()
            .all(fluxlens_core::analyses::findings::reference::documents)
    );
    Judged {
        preconditions: preconditions(base, head),
        order,
        findings,
    }
}

/// Revision 4: a change that moves Git → OCI by more than one stage is judged by the order;
/// when it is safe, that is said (info), with the stages it takes at once.
fn stages_at_once(base: &Analysis, head: &Analysis, order: &Order) -> Option<Finding> {
    let (b, h) = (base.stages.get("git_oci")?, head.stages.get("git_oci")?);
    // A stage shown is the one in progress: the stages before it are done. M1 (the artifact
    // pipeline) shows in no render, so reaching M2 from the baseline is one step.
    let done = |order: i32| (order - 1).max(0);
    let (was, now) = (done(b.order), done(h.order));
    if now - was.max(1) <= 1 || !order.safe() {
        return None;
    }
    let subject = head.cluster.root_kustomization()?;
    let message = format!(
        "Git → OCI moves {} → {} in one change (stages M{}–M{} at once): the order model finds it safe, every object reconciling in {} waves; confirm the preconditions before merging",
        b.stage,
        h.stage,
        was + 1,
        now,
        order.waves.len()
    );
    let evidence = order
        .waves
        .iter()
        .enumerate()
        .map(|(i, w)| format!("wave {}: {}", i + 1, sample(w)))
        .collect();
    Some(graded_as(
        Role::Ordinary,
        RULE,
        Class::Context,
        subject,
        message,
        evidence,
        "A staged migration is easier to roll back one step at a time; nothing here blocks it."
            .into(),
    ))
}

fn sample(keys: &[ObjectKey]) -> String {
    let mut s: Vec<String> = keys.iter().take(6).map(|k| k.to_string()).collect();
    if keys.len() > 6 {
        s.push(format!("… {} in all", keys.len()));
    }
    s.join(", ")
}

/// What the head's root asks of the world outside the render, when the change moves the root
/// to an OCI artifact (or changes which artifact).
fn preconditions(base: &Analysis, head: &Analysis) -> Vec<String> {
    let Some(root) = head.root.as_ref().filter(|k| k.kind == Kind::OciRepository) else {
        return Vec::new();
    };
    let Some(o) = head.cluster.get(root) else {
        return Vec::new();
    };
    let url = o.url().map(str::to_string).unwrap_or_default();
    let was = base.root.as_ref().and_then(|k| base.cluster.get(k));
    if was.is_some_and(|w| w.key == *root && w.raw.spec.url == o.raw.spec.url) {
        return Vec::new();
    }
    let tag = head
        .cluster
        .instance()
        .and_then(|i| i.sync())
        .and_then(|s| s.ref_.clone())
        .unwrap_or_else(|| "latest".into());
    let mut out = vec![format!(
        "`{url}:{tag}` exists and holds the manifests at the sync path (a render cannot see the registry)"
    )];
    match head.verify.get(root) {
        Some(Some(v)) => out.push(format!(
            "`{url}:{tag}` is signed so that {} accepts it, before the sync switches",
            v.describe()
        )),
        _ => out.push(format!(
            "`{url}:{tag}` is signed, and a FluxInstance patch adds `spec.verify` to {root} (none reaches it in this render)"
        )),
    }
    if let Some(f) = mig_order::anonymous_root("MIG-GO-16", &head.cluster, true) {
        out.push(format!(
            "`{url}` can be pulled anonymously (the package is public), or FluxInstance.spec.sync.pullSecret names a Secret that exists: {}",
            f.evidence.first().cloned().unwrap_or_default()
        ));
    }
    out
}
