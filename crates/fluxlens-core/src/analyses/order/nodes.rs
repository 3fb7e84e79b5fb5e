//! The objects the order model steps: one node per object of the before and the after state,
//! and per object the FluxInstance will create (its sync source and Kustomization) that does
//! not exist yet; who applies each, what each waits for.

use super::{Input, Mode};
use crate::model::{Cluster, FluxObject, ObjectKey, RefKind};
use crate::wire::kind::Kind;
use crate::wire::status::Status;
use std::collections::HashMap;

/// What a reconciler waits for before it can act.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitKind {
    /// Its source (sourceRef, chartRef, the chart template's source) exists with an artifact.
    Source,
    /// A `dependsOn` target is Ready at its current spec.
    DependsOn,
}

/// The object a wait names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Node(usize),
    /// Neither state has it and the cluster confirms it does not exist.
    Missing(ObjectKey),
    /// Neither state has it, and whether it exists cannot be told (another namespace, a kind
    /// not listed, not in the render): not a wait the model holds anything on.
    Unknown,
}

#[derive(Debug, Clone)]
pub struct Wait {
    pub kind: WaitKind,
    pub target: Target,
}

/// One object.
#[derive(Debug, Clone)]
pub struct Node {
    pub key: ObjectKey,
    pub in_before: bool,
    pub in_after: bool,
    /// Its desired state differs between before and after (or it is new), its manifest or
    /// the values it reads.
    pub changed: bool,
    /// Its manifest differs (or it is new): its applier must apply it.
    pub spec_changed: bool,
    /// The appliers of the values sources that changed under it: it reaches its new desired
    /// state only once each has applied (revision 5).
    pub value_appliers: Vec<usize>,
    /// The objects whose changed values this one applies.
    pub value_children: Vec<usize>,
    /// Who applies (or creates) its after state.
    pub applier: Option<usize>,
    /// No inventory or label names its applier: the root Kustomization is assumed.
    pub assumed_root: bool,
    pub children: Vec<usize>,
    pub waits_after: Vec<Wait>,
    pub waits_before: Vec<Wait>,
    /// Applies the content of its source whatever its own spec (a Kustomization, an
    /// ArtifactGenerator): it runs again when the repository changes.
    pub content_applier: bool,
    pub done_initially: bool,
    /// It existed with an artifact before (a source its consumers can read meanwhile).
    pub had_artifact: bool,
    pub is_root_ks: bool,
    /// Acts at its live spec when the repository changes (revision 5): the root Kustomization,
    /// and every content applier whose live source is the root source (kustomize-controller
    /// reconciles on its source's new revision, applying the new content with its old spec).
    pub live_reads_repo: bool,
    /// Suspended in the after state: it holds its state and is never waited on as stuck.
    pub suspended: bool,
}

/// Every node, indexed by key.
pub struct Graph {
    pub nodes: Vec<Node>,
    pub index: HashMap<ObjectKey, usize>,
    pub unjudged: Vec<(ObjectKey, String)>,
}

impl Graph {
    pub fn assumed_root(&self) -> Vec<ObjectKey> {
        self.nodes
            .iter()
            .filter(|n| n.assumed_root)
            .map(|n| n.key.clone())
            .collect()
    }
}

/// Kinds that wait for a source or a dependency before they act.
fn waits_at_all(kind: &Kind) -> bool {
    matches!(
        kind,
        Kind::Kustomization
            | Kind::HelmRelease
            | Kind::HelmChart
            | Kind::ResourceSet
            | Kind::ArtifactGenerator
            | Kind::ImageUpdateAutomation
    )
}

fn content_applier(kind: &Kind) -> bool {
    matches!(kind, Kind::Kustomization | Kind::ArtifactGenerator)
}

/// What a FluxInstance or an ArtifactGenerator creates that is not there yet.
fn created(after: &Cluster) -> Vec<(ObjectKey, ObjectKey)> {
    let mut out = Vec::new();
    for o in after.objects() {
        let makes = match o.key.kind {
            Kind::FluxInstance => RefKind::Sync,
            Kind::ArtifactGenerator => RefKind::Artifact,
            _ => continue,
        };
        for r in o.refs.iter().filter(|r| r.kind == makes) {
            if !after.contains(&r.target) {
                out.push((r.target.clone(), o.key.clone()));
            }
        }
    }
    out
}

/// Builds the nodes of `input`.
pub fn build(input: &Input) -> Graph {
    let (before, after) = (input.before, input.after);
    let mut keys: Vec<ObjectKey> = after.objects().iter().map(|o| o.key.clone()).collect();
    keys.extend(
        before
            .objects()
            .iter()
            .filter(|o| !after.contains(&o.key))
            .map(|o| o.key.clone()),
    );
    let creations = created(after);
    keys.extend(creations.iter().map(|(k, _)| k.clone()));
    crate::util::sort::by(&mut keys, |a, b| a.cmp(b));
    keys.dedup();
    let index: HashMap<ObjectKey, usize> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| (k.clone(), i))
        .collect();
    let root_ks = after
        .root_kustomization()
        .or_else(|| before.root_kustomization());
    let mut g = Graph {
        nodes: Vec::with_capacity(keys.len()),
        index,
        unjudged: Vec::new(),
    };
    let known = Known {
        root_ks: root_ks.as_ref(),
        // Only a change applies a new revision of the repository; found once, not per node.
        repo: match input.mode {
            Mode::Change => input.before.root_source(),
            Mode::Live => None,
        },
        creations: &creations,
    };
    for key in &keys {
        let node = node(input, &mut g, key, &known);
        g.nodes.push(node);
    }
    link_children(&mut g);
    rerun_appliers_of_changes(&mut g);
    g
}

/// What every node's construction reads about the whole change, found once.
struct Known<'a> {
    root_ks: Option<&'a ObjectKey>,
    /// The repository being changed: the root source before the change (Change mode only).
    repo: Option<ObjectKey>,
    /// Objects a ResourceSet or FluxInstance creates, with their creator.
    creations: &'a [(ObjectKey, ObjectKey)],
}

fn node(input: &Input, g: &mut Graph, key: &ObjectKey, known: &Known) -> Node {
    let Known {
        root_ks, creations, ..
    } = *known;
    let b = input.before.get(key);
    let a = input.after.get(key);
    let creator = creations.iter().find(|(k, _)| k == key).map(|(_, c)| c);
    let in_after = a.is_some() || creator.is_some();
    let spec_changed = in_after
        && match (b, input.changed) {
            (None, _) => true,
            (Some(_), Some(set)) => set.contains(key),
            (Some(b), None) => a.is_some_and(|a| a.raw.spec != b.raw.spec),
        };
    let value_appliers: Vec<usize> = match input.values.and_then(|v| v.get(key)) {
        Some(appliers) if in_after => appliers
            .iter()
            .filter_map(|k| g.index.get(k).copied())
            .collect(),
        _ => Vec::new(),
    };
    let changed = spec_changed || !value_appliers.is_empty();
    let is_root_ks = root_ks == Some(key);
    let owner = a.and_then(|a| a.managed_by.clone()).or(creator.cloned());
    let (applier, assumed_root) = match owner.and_then(|o| g.index.get(&o).copied()) {
        Some(i) => (Some(i), false),
        None if input.mode == Mode::Change && changed && !is_root_ks => {
            let root = root_ks.and_then(|k| g.index.get(k).copied());
            (root, root.is_some())
        }
        None => (None, false),
    };
    let waits_after = a.map(|o| waits(g, input.after, o)).unwrap_or_default();
    let waits_before = b.map(|o| waits(g, input.before, o)).unwrap_or_default();
    let suspended = a.is_some_and(|o| o.suspended());
    let ready = |o: &FluxObject| o.status == Status::Ready;
    let content = content_applier(&key.kind);
    let repo = known.repo.as_ref();
    let live_reads_repo = is_root_ks
        || (input.mode == Mode::Change
            && content
            && b.is_some_and(|o| {
                o.refs
                    .iter()
                    .any(|r| r.kind == RefKind::Source && Some(&r.target) == repo)
            }));
    let done_initially = suspended
        || match input.mode {
            Mode::Change => b.is_some() && !changed && !content,
            Mode::Live => b.is_some_and(ready) && !creations.iter().any(|(_, c)| c == key),
        };
    let had_artifact = match input.mode {
        Mode::Change => b.is_some(),
        Mode::Live => b.is_some_and(|o| ready(o) || o.artifact().is_some()),
    };
    Node {
        key: key.clone(),
        in_before: b.is_some(),
        in_after,
        changed,
        spec_changed,
        value_appliers,
        value_children: Vec::new(),
        applier,
        assumed_root,
        children: Vec::new(),
        waits_after,
        waits_before,
        content_applier: content,
        done_initially,
        had_artifact,
        is_root_ks,
        live_reads_repo,
        suspended,
    }
}

/// What `o` waits for, as `c` (its own state) names it.
fn waits(g: &mut Graph, c: &Cluster, o: &FluxObject) -> Vec<Wait> {
    if !waits_at_all(&o.key.kind) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for r in &o.refs {
        let kind = match r.kind {
            RefKind::Source | RefKind::ChartRef | RefKind::ChartTemplate => WaitKind::Source,
            RefKind::DependsOn => WaitKind::DependsOn,
            _ => continue,
        };
        let target = match g.index.get(&r.target) {
            Some(&i) => Target::Node(i),
            None if c.presence(&r.target).is_missing() => Target::Missing(r.target.clone()),
            None => {
                let why = c.presence(&r.target).describe();
                if !g.unjudged.iter().any(|(k, _)| k == &r.target) {
                    g.unjudged.push((r.target.clone(), why));
                }
                Target::Unknown
            }
        };
        out.push(Wait { kind, target });
    }
    out
}

fn link_children(g: &mut Graph) {
    for i in 0..g.nodes.len() {
        if let Some(a) = g.nodes[i].applier {
            g.nodes[a].children.push(i);
        }
        for a in g.nodes[i].value_appliers.clone() {
            g.nodes[a].value_children.push(i);
        }
    }
}

/// An applier that need not run for its own sake (an unchanged HelmRelease) runs again when
/// something it applies changes (its chart's new version renders it).
fn rerun_appliers_of_changes(g: &mut Graph) {
    for i in 0..g.nodes.len() {
        let appliers: Vec<usize> = g.nodes[i]
            .applier
            .filter(|_| g.nodes[i].spec_changed)
            .into_iter()
            .chain(g.nodes[i].value_appliers.iter().copied())
            .collect();
        for a in appliers {
            if !g.nodes[a].suspended {
                g.nodes[a].done_initially = false;
            }
        }
    }
}
