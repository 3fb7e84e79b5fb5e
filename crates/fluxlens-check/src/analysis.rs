//! One tree through the dashboard's analyses: findings (the compliance controls under the
//! chosen profile), dangling references, dependsOn cycles, verify as configured, where each
//! migration stands.

use crate::cluster::{Assume, model};
use crate::declared;
use crate::tree::Tree;
use fluxlens_core::analyses::compliance;
pub use fluxlens_core::analyses::compliance::ProfileName;
use fluxlens_core::analyses::facts::cluster::ClusterFacts;
use fluxlens_core::analyses::finding::Finding;
use fluxlens_core::analyses::findings::rules::mig_order;
use fluxlens_core::analyses::graph::{Graph, GraphOptions};
use fluxlens_core::analyses::migration;
use fluxlens_core::model::{Cluster, ObjectKey};
use fluxlens_core::wire::kind::Role;
use std::collections::{BTreeMap, BTreeSet};

/// A reference that names nothing in the render.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Missing {
    pub target: ObjectKey,
    /// The objects that name it.
    pub from: Vec<ObjectKey>,
}

/// `spec.verify` of a source as the manifests configure it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyConfig {
    pub provider: String,
    pub keyed: bool,
    /// `issuer ⇒ subject` per keyless identity matcher.
    pub identities: Vec<String>,
}

impl VerifyConfig {
    pub fn describe(&self) -> String {
        let how = if self.keyed { "key" } else { "keyless" };
        match self.identities.len() {
            0 => format!("{} ({how})", self.provider),
            n => format!(
                "{} ({how}, {})",
                self.provider,
                fluxlens_core::analyses::verdict::plural(n, "identity rule")
            ),
        }
    }
}

/// Where one migration stands: its current stage id, or `not-started`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageAt {
    pub stage: String,
    /// Position for comparing (-1: not started; stages count from 0).
    pub order: i32,
    pub state: String,
}

/// One tree, analysed.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub cluster: Cluster,
    pub findings: Vec<Finding>,
    pub missing: Vec<Missing>,
    /// References the render cannot answer for, with why.
    pub unresolved: Vec<(ObjectKey, String)>,
    pub cycles: Vec<Vec<ObjectKey>>,
    /// Every verifiable source and its verify (`None`: none configured).
    pub verify: BTreeMap<ObjectKey, Option<VerifyConfig>>,
    pub root: Option<ObjectKey>,
    /// `git_oci`, `storage`, `distribution`.
    pub stages: BTreeMap<&'static str, StageAt>,
    pub notes: Vec<String>,
    /// The tree's Flux objects as written (no status), to tell what a change alters.
    pub manifests: BTreeMap<ObjectKey, serde_json::Value>,
    /// Where each Flux object was read: what SARIF locates a result at.
    pub origins: BTreeMap<ObjectKey, crate::read::Origin>,
    /// The ConfigMaps and Secrets values are read from.
    pub values: BTreeMap<ObjectKey, crate::tree::ValueSource>,
}

/// Analyses one tree under `profile`; `deleted`: what the base held and this tree does not
/// (a reference to it is a dangling reference of this change).
pub fn analyse(tree: &Tree, profile: ProfileName, deleted: &BTreeSet<ObjectKey>) -> Analysis {
    let cluster = model(tree, Assume::Nothing, deleted);
    let reconciled = model(tree, Assume::Reconciled, deleted);
    let mut findings = certain(findings(&cluster, profile), &findings(&reconciled, profile));
    said_deleted(&mut findings, deleted);
    // Revision 4: before a merge an anonymous root is a precondition to confirm, whatever
    // a status assumed Ready would say.
    findings.retain(|f| f.rule != "MIG-GO-16");
    findings.extend(mig_order::anonymous_root("MIG-GO-16", &cluster, true));
    findings.extend(declared::compliance(&cluster, profile));
    fluxlens_core::analyses::findings::sort_worst_first(&mut findings);
    let graph = Graph::build(&cluster, GraphOptions::default());
    let stages = stages(&reconciled, &findings);
    Analysis {
        missing: missing(&cluster),
        unresolved: cluster.notes.unconfirmed.clone(),
        cycles: graph.cycles.clone(),
        verify: verify(&cluster),
        root: cluster.root_source(),
        stages,
        notes: tree.notes.clone(),
        manifests: tree
            .flux
            .iter()
            .map(|(k, (_, v))| (k.clone(), v.clone()))
            .collect(),
        origins: tree
            .flux
            .iter()
            .map(|(k, (o, _))| (k.clone(), o.clone()))
            .collect(),
        values: tree.values.clone(),
        findings,
        cluster,
    }
}

/// A dangling reference to what the change deletes says so (revision 5: judged against the
/// base, #69: onedr0p/home-ops d67a2188f9 removed a Kustomization with its namespace while
/// another still depended on it, and passed).
fn said_deleted(findings: &mut [Finding], deleted: &BTreeSet<ObjectKey>) {
    for f in findings.iter_mut().filter(|f| f.rule == "MIG-GO-02") {
        let gone: Vec<String> = deleted
            .iter()
            .map(ToString::to_string)
            .filter(|k| f.message.contains(k.as_str()))
            .collect();
        for k in gone {
            f.message = match f.message.contains(&format!("{k} which does not exist")) {
                true => f.message.replace(
                    &format!("{k} which does not exist"),
                    &format!("{k}, which this change deletes"),
                ),
                false => format!("{} ({k}: this change deletes it)", f.message),
            };
            f.evidence
                .insert(0, format!("the base held {k}; this change deletes it"));
            f.remediation = format!("Keep {k}, or first remove what names it. {}", f.remediation);
        }
    }
}

/// Every rule, with the ENT controls evaluated under `profile`.
fn findings(c: &Cluster, profile: ProfileName) -> Vec<Finding> {
    let mut out: Vec<Finding> = fluxlens_core::analyses::findings::evaluate_all(c)
        .into_iter()
        .filter(|f| !f.rule.starts_with("ENT-"))
        .collect();
    out.extend(compliance::findings(
        &ClusterFacts::of(c),
        &profile.profile(),
    ));
    out
}

/// What the manifests alone decide: a finding that fires both with no status at all and as if
/// everything reconciled, at the lower of its two severities. One that needs a status (a
/// controller not ready, a verdict missing) fires in one of them only, and is unknown here.
fn certain(statusless: Vec<Finding>, reconciled: &[Finding]) -> Vec<Finding> {
    statusless
        .into_iter()
        .filter_map(|mut f| {
            let twin = reconciled
                .iter()
                .filter(|r| r.rule == f.rule && r.subject == f.subject)
                .map(|r| r.severity)
                .min()?;
            f.severity = f.severity.min(twin);
            Some(f)
        })
        .collect()
}

fn missing(c: &Cluster) -> Vec<Missing> {
    let mut by_target: BTreeMap<ObjectKey, Vec<ObjectKey>> = BTreeMap::new();
    for o in c.objects() {
        for r in &o.refs {
            if c.presence(&r.target).is_missing() {
                let from = by_target.entry(r.target.clone()).or_default();
                if !from.contains(&o.key) {
                    from.push(o.key.clone());
                }
            }
        }
    }
    by_target
        .into_iter()
        .map(|(target, from)| Missing { target, from })
        .collect()
}

fn verify(c: &Cluster) -> BTreeMap<ObjectKey, Option<VerifyConfig>> {
    c.objects()
        .iter()
        .filter(|o| o.key.kind.role() == Role::Source && verifiable(&o.key.kind))
        .map(|o| {
            let v = o.verify().map(|v| VerifyConfig {
                provider: v.provider.clone().unwrap_or_else(|| "pgp".into()),
                keyed: v.secret_ref.is_some(),
                identities: v
                    .match_oidc_identity
                    .iter()
                    .map(|i| format!("{} ⇒ {}", i.issuer, i.subject))
                    .collect(),
            });
            (o.key.clone(), v)
        })
        .collect()
}

fn verifiable(k: &fluxlens_core::Kind) -> bool {
    use fluxlens_core::Kind::*;
    matches!(k, GitRepository | OciRepository | HelmChart)
}

/// Where each migration stands, read from the model that assumes the change reconciles
/// (checks that need a status pass there); blockers are the honest findings'.
fn stages(reconciled: &Cluster, findings: &[Finding]) -> BTreeMap<&'static str, StageAt> {
    migration::all(&ClusterFacts::of(reconciled), findings)
        .into_iter()
        .map(|m| {
            let name = match m.id {
                "git-oci" => "git_oci",
                other => other,
            };
            let at = if !m.started {
                StageAt {
                    stage: "not-started".into(),
                    order: -1,
                    state: "not started".into(),
                }
            } else {
                let i = m
                    .stages
                    .iter()
                    .position(|s| Some(s) == m.current())
                    .unwrap_or(0);
                let s = &m.stages[i];
                StageAt {
                    stage: s.id.clone(),
                    order: i as i32,
                    state: m.badge().into(),
                }
            };
            (name, at)
        })
        .collect()
}
