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
use std::collections::BTreeSet;

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
    Order {
        mode: input.mode,
        waves: run.waves_keys(&graph),
        stuck,
        assumed_root: graph.assumed_root(),
        unjudged: graph.unjudged.clone(),
    }
}

/// The live cluster judged by itself.
pub fn live(c: &Cluster) -> Order {
    judge(&Input {
        mode: Mode::Live,
        before: c,
        after: c,
        changed: None,
    })
}

#[cfg(test)]
mod tests;
