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
}

impl Run {
    pub fn waves_keys(&self, g: &Graph) -> Vec<Vec<ObjectKey>> {
        self.waves
            .iter()
            .map(|w| w.iter().map(|&i| g.nodes[i].key.clone()).collect())
            .collect()
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
            // except the root Kustomization: it is how the change enters the cluster.
            Held::Before => (n.is_root_ks && !self.ran_before[i])
                .then_some(())
                .filter(|_| n.waits_before.iter().all(|w| self.met(g, w)))
                .map(|_| Held::Before),
        }
    }
}

/// Steps `g` until nothing more can act.
pub fn run(g: &Graph) -> Run {
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
    };
    let waiters = waiters(g);
    let mut pending: BTreeSet<usize> = (0..n).filter(|&i| !r.done[i]).collect();
    // Each wave makes at least one object done or lets the root act at its current spec, so
    // there are at most n + 1 waves with anything in them; the bound only guards that.
    for _ in 0..=2 * n + 1 {
        let acting: Vec<(usize, Held)> = pending
            .iter()
            .filter_map(|&i| r.can_act(g, i).map(|h| (i, h)))
            .collect();
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
                    if r.held[c] != Some(Held::After) {
                        r.held[c] = Some(Held::After);
                        next.insert(c);
                        next.extend(waiters[c].iter().copied());
                    }
                }
            }
        }
        r.waves.push(acting.into_iter().map(|(i, _)| i).collect());
        pending = next.into_iter().filter(|&i| !r.done[i]).collect();
    }
    r
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
