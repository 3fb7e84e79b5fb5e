//! Stepping the nodes forward in waves: in each wave every object that can act at once does,
//! from the state the wave started with; what appliers apply is there for the next wave.

use super::nodes::{Graph, Target, Wait, WaitKind};
use crate::model::ObjectKey;
use std::collections::BTreeSet;

/// Which of its states an object holds in the cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Held {
    Before,
    After,
}

/// The state after stepping.
pub struct Run {
    pub held: Vec<Option<Held>>,
    pub done: Vec<bool>,
    /// The root Kustomization ran at its current spec (it applies the repository first).
    pub ran_before: Vec<bool>,
    pub waves: Vec<Vec<usize>>,
    /// Per node: whether its applier has applied its new manifest (true when it did not
    /// change), and the value appliers that have not applied yet.
    own_applied: Vec<bool>,
    values_pending: Vec<BTreeSet<usize>>,
}

impl Run {
    pub fn waves_keys(&self, g: &Graph) -> Vec<Vec<ObjectKey>> {
        self.waves
            .iter()
            .map(|w| w.iter().map(|&i| g.nodes[i].key.clone()).collect())
            .collect()
    }

    /// Node `c` takes its new desired state once its manifest and every changed values source
    /// it reads have been applied (a node the change deletes never does).
    fn reach_after(
        &mut self,
        g: &Graph,
        c: usize,
        waiters: &[Vec<usize>],
        next: &mut BTreeSet<usize>,
    ) {
        // What the change deletes is pruned, never brought to a new state.
        if g.nodes[c].in_after
            && self.held[c] != Some(Held::After)
            && self.own_applied[c]
            && self.values_pending[c].is_empty()
        {
            self.held[c] = Some(Held::After);
            next.insert(c);
            next.extend(waiters[c].iter().copied());
        }
    }

    /// Whether a wait is met now.
    pub fn met(&self, g: &Graph, w: &Wait) -> bool {
        match &w.target {
            Target::Node(t) => match w.kind {
                WaitKind::Source => {
                    self.held[*t].is_some() && (self.done[*t] || g.nodes[*t].had_artifact)
                }
                WaitKind::DependsOn => self.done[*t],
            },
            Target::Missing(_) => false,
            Target::Unknown => true,
        }
    }

    /// Whether node `i` can act now, and at which of its states.
    fn can_act(&self, g: &Graph, i: usize) -> Option<Held> {
        let n = &g.nodes[i];
        if self.done[i] || n.suspended {
            return None;
        }
        match self.held[i]? {
            Held::After => n
                .waits_after
                .iter()
                .all(|w| self.met(g, w))
                .then_some(Held::After),
            // A changed object waits for its new spec (the applier above applies it first),
            // except where it reads the repository being changed: the root Kustomization, and
            // (revision 5) every Kustomization whose live source is the root source, which
            // applies the new revision's content with its old spec.
            Held::Before => (n.live_reads_repo && !self.ran_before[i])
                .then_some(())
                .filter(|_| n.waits_before.iter().all(|w| self.met(g, w)))
                .map(|_| Held::Before),
        }
    }
}

/// Which of two objects able to act in the same wave the model lets go first, where it matters:
/// a parent that applies a child's new spec, and the child's run at its live spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precedence {
    /// The child's live run first (every order the controllers allow that converges).
    ChildFirst,
    /// The parent first: the child holds its new spec before it could apply the new revision.
    ParentFirst,
}

/// Steps `g` until nothing more can act, children's live runs first.
pub fn run(g: &Graph) -> Run {
    run_with(g, Precedence::ChildFirst).0
}

/// Steps `g` with `precedence`; also the (child, parent) pairs whose live run the parent
/// pre-empted.
pub fn run_with(g: &Graph, precedence: Precedence) -> (Run, Vec<(usize, usize)>) {
    let n = g.nodes.len();
    let mut r = Run {
        held: g
            .nodes
            .iter()
            .map(|n| match (n.in_before, n.in_after, n.changed) {
                (false, _, _) => None,
                // Deleted by the change (revision 5): it stays, at its live state, until its
                // applier prunes it (a source keeps serving its artifact meanwhile), but it never
                // reconciles again, so a dependsOn on it is never met (#69: a deleted
                // Kustomization was listed in wave 1 and its dependant reconciled).
                (true, false, _) => Some(Held::Before),
                (true, true, true) => Some(Held::Before),
                (true, true, false) => Some(Held::After),
            })
            .collect(),
        done: g.nodes.iter().map(|n| n.done_initially).collect(),
        ran_before: vec![false; n],
        waves: Vec::new(),
        own_applied: g.nodes.iter().map(|n| !n.spec_changed).collect(),
        values_pending: g
            .nodes
            .iter()
            .map(|n| n.value_appliers.iter().copied().collect())
            .collect(),
    };
    let waiters = waiters(g);
    let mut pending: BTreeSet<usize> = (0..n).filter(|&i| !r.done[i]).collect();
    // Each wave makes at least one object done or lets the root act at its current spec, so
    // there are at most n + 1 waves with anything in them; the bound only guards that.
    let mut preempted = Vec::new();
    for _ in 0..=2 * n + 1 {
        let mut acting: Vec<(usize, Held)> = pending
            .iter()
            .filter_map(|&i| r.can_act(g, i).map(|h| (i, h)))
            .collect();
        match precedence {
            Precedence::ParentFirst => preempt(g, &mut acting, &mut preempted),
            // §1.6: the root applies the repository first, so what it applies never runs at
            // its old spec on the new revision in the same wave (the catalog's "cluster-apps
            // waits"); a deeper child may still win over its own parent.
            Precedence::ChildFirst => root_first(g, &mut acting),
        }
        if acting.is_empty() {
            break;
        }
        let mut next: BTreeSet<usize> = BTreeSet::new();
        for &(i, held) in &acting {
            match held {
                Held::After => r.done[i] = true,
                Held::Before => r.ran_before[i] = true,
            }
            next.extend(waiters[i].iter().copied());
            next.insert(i);
            let node = &g.nodes[i];
            if node.content_applier || held == Held::After {
                for &c in &node.children {
                    r.own_applied[c] = true;
                    r.reach_after(g, c, &waiters, &mut next);
                }
                // What it applies includes the values others read (revision 5).
                for &c in &node.value_children {
                    r.values_pending[c].remove(&i);
                    r.reach_after(g, c, &waiters, &mut next);
                }
            }
        }
        r.waves.push(acting.into_iter().map(|(i, _)| i).collect());
        pending = next.into_iter().filter(|&i| !r.done[i]).collect();
    }
    (r, preempted)
}

/// Parents first: a child about to run at its live spec loses that run when its applier acts in
/// the same wave (the applier applies the child's new spec first).
/// The root Kustomization's children lose their live run when the root acts in the same wave.
fn root_first(g: &Graph, acting: &mut Vec<(usize, Held)>) {
    let root_acts = |p: usize| g.nodes[p].is_root_ks && acting.iter().any(|&(i, _)| i == p);
    let lost: Vec<usize> = acting
        .iter()
        .filter(|&&(i, h)| h == Held::Before && !g.nodes[i].is_root_ks)
        .filter(|&&(i, _)| g.nodes[i].applier.is_some_and(root_acts))
        .map(|&(i, _)| i)
        .collect();
    acting.retain(|(i, _)| !lost.contains(i));
}

/// A parent that lost its own live run pre-empts nothing: the losses are settled from the top
/// down until none changes.
fn preempt(g: &Graph, acting: &mut Vec<(usize, Held)>, preempted: &mut Vec<(usize, usize)>) {
    let mut lost: Vec<(usize, usize)> = Vec::new();
    // Settles within the depth of the appliers' tree; the bound guards a cycle of appliers.
    for _ in 0..=g.nodes.len().min(64) {
        let applies = |p: usize, lost: &[(usize, usize)]| {
            !lost.iter().any(|&(c, _)| c == p)
                && acting
                    .iter()
                    .any(|&(i, h)| i == p && (g.nodes[p].content_applier || h == Held::After))
        };
        let next: Vec<(usize, usize)> = acting
            .iter()
            .filter(|&&(i, h)| h == Held::Before && !g.nodes[i].is_root_ks)
            .filter_map(|&(i, _)| {
                g.nodes[i]
                    .applier
                    .filter(|&p| applies(p, &lost))
                    .map(|p| (i, p))
            })
            .collect();
        if next == lost {
            break;
        }
        lost = next;
    }
    acting.retain(|(i, _)| !lost.iter().any(|(c, _)| c == i));
    preempted.extend(lost);
}

/// For every node, the nodes that wait on it (before or after).
fn waiters(g: &Graph) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); g.nodes.len()];
    for (i, n) in g.nodes.iter().enumerate() {
        for w in n.waits_after.iter().chain(&n.waits_before) {
            if let Target::Node(t) = w.target
                && !out[t].contains(&i)
            {
                out[t].push(i);
            }
        }
    }
    out
}
