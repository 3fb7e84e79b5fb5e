//! The reconcile-order model (rule catalog revision 4, §1.6): a change does not land at once.
//! The root Kustomization applies the repository; each applier then applies what it owns; a
//! Kustomization or HelmRelease waits for its source to exist with an artifact and for every
//! `dependsOn` target to be Ready; the FluxInstance creates its sync source and Kustomization
//! only once its own new spec is applied. [`judge`] steps this forward from a "before" to an
//! "after" until nothing more can reconcile, and says what never does and which chain of
//! waits holds it.
//!
//! Pure and deterministic; bounded by the number of objects (each object reconciles at its new
//! spec at most once), so it terminates on any input, cycles included.

mod chain;
mod nodes;
mod step;

pub use chain::{Link, LinkKind, describe};

use crate::model::{Cluster, ObjectKey};
use std::collections::{BTreeMap, BTreeSet};

/// What is being judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A change: the base as if reconciled, then the head lands through the appliers.
    Change,
    /// The live cluster: what its objects already ask for (a FluxInstance's sync source that
    /// does not exist yet, objects not Ready) stepped forward from what is Ready now.
    Live,
}

/// What the model is given.
pub struct Input<'a> {
    pub mode: Mode,
    /// The cluster the change starts from (live: the cluster itself).
    pub before: &'a Cluster,
    /// The state the objects ask for (live: the cluster itself).
    pub after: &'a Cluster,
    /// Objects whose desired state differs between before and after, as the caller compared
    /// them (a render compares whole manifests, Helm values included); `None`: the decoded
    /// objects are compared.
    pub changed: Option<&'a BTreeSet<ObjectKey>>,
    /// Objects whose values sources changed (a HelmRelease's `valuesFrom`, a Kustomization's
    /// `postBuild.substituteFrom`), each with the appliers that deliver those sources: the
    /// object reaches its new desired state only once they have applied (revision 5).
    pub values: Option<&'a BTreeMap<ObjectKey, Vec<ObjectKey>>>,
}

/// An object that never reconciles at its new spec, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stuck {
    pub object: ObjectKey,
    /// The chain of waits from the object: each link says what the previous one waits for.
    pub chain: Vec<Link>,
    /// The chain comes back to an object already in it: nothing outside can release it.
    pub cycle: bool,
}

/// The judged order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    pub mode: Mode,
    /// Wave by wave, the objects that reconcile at their new spec (the root Kustomization's
    /// run at its current spec counts in the first wave).
    pub waves: Vec<Vec<ObjectKey>>,
    /// Objects that never get there, sorted by key.
    pub stuck: Vec<Stuck>,
    /// Objects of the after state that carry no applier (no inventory, no ownership label):
    /// the model takes the root Kustomization to apply them, and says so.
    pub assumed_root: Vec<ObjectKey>,
    /// Waits the model could not judge (a target of a kind or namespace it cannot see).
    pub unjudged: Vec<(ObjectKey, String)>,
    /// Revision 5 (MIG-GO-17): where the change converges only if a child applies the new
    /// revision at its live spec before its parent applies the child's new spec.
    pub races: Vec<Race>,
}

/// A child that must run at its live spec before its parent applies its new spec, or delivery
/// freezes (MIG-GO-17).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Race {
    pub child: ObjectKey,
    pub parent: ObjectKey,
    /// Whether anything delays the parent (a `dependsOn` it waits for): when nothing does, the
    /// freezing order is the likely one.
    pub parent_delayed: bool,
    /// In the freezing order: what never reconciles, and the child's chain of waits.
    pub frozen: Vec<ObjectKey>,
    pub chain: Vec<Link>,
}

impl Order {
    /// Whether every object reaches its new spec.
    pub fn safe(&self) -> bool {
        self.stuck.is_empty()
    }

    /// How many objects reconcile at a new spec, over all waves.
    pub fn reconciled(&self) -> usize {
        self.waves.iter().map(Vec::len).sum()
    }
}

/// Steps `input` forward and returns the order.
pub fn judge(input: &Input) -> Order {
    let graph = nodes::build(input);
    let run = step::run(&graph);
    let stuck = chain::stuck(&graph, &run);
    // Revision 5: MIG-GO-15 only when no order releases it; when the children's live runs
    // first converge, try the parents first: a freeze then is order-dependent (MIG-GO-17).
    let races = match (input.mode, stuck.is_empty()) {
        (Mode::Change, true) => races(&graph),
        _ => Vec::new(),
    };
    Order {
        mode: input.mode,
        waves: run.waves_keys(&graph),
        stuck,
        assumed_root: graph.assumed_root(),
        unjudged: graph.unjudged.clone(),
        races,
    }
}

/// The pairs whose order decides whether the change freezes.
fn races(graph: &nodes::Graph) -> Vec<Race> {
    let (late, preempted) = step::run_with(graph, step::Precedence::ParentFirst);
    let frozen = chain::stuck(graph, &late);
    if frozen.is_empty() {
        return Vec::new();
    }
    let keys: Vec<ObjectKey> = frozen.iter().map(|s| s.object.clone()).collect();
    preempted
        .into_iter()
        .filter(|&(c, _)| !late.done[c])
        .map(|(c, p)| {
            let child = graph.nodes[c].key.clone();
            Race {
                chain: frozen
                    .iter()
                    .find(|s| s.object == child)
                    .map(|s| s.chain.clone())
                    .unwrap_or_default(),
                parent: graph.nodes[p].key.clone(),
                parent_delayed: graph.nodes[p]
                    .waits_after
                    .iter()
                    .chain(&graph.nodes[p].waits_before)
                    .any(|w| w.kind == nodes::WaitKind::DependsOn),
                frozen: keys.clone(),
                child,
            }
        })
        .collect()
}

/// The live cluster judged by itself.
pub fn live(c: &Cluster) -> Order {
    judge(&Input {
        mode: Mode::Live,
        before: c,
        after: c,
        changed: None,
        values: None,
    })
}

#[cfg(test)]
mod tests;
