//! Why an object never reconciles: the chain of waits from it, link by link, until something
//! nothing creates, or back to an object already in the chain (a deadlock).

use super::Stuck;
use super::nodes::{Graph, Target, WaitKind};
use super::step::{Held, Run};
use crate::model::ObjectKey;

/// How one object of a chain holds the previous one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// The previous object waits for this source to exist with an artifact.
    Source,
    /// The previous object waits for this one to be Ready (`dependsOn`).
    DependsOn,
    /// This object creates the previous one (a FluxInstance its sync source, an
    /// ArtifactGenerator its ExternalArtifact, an applier what it applies first).
    CreatedBy,
    /// This object applies the previous one's new spec.
    DeliveredBy,
    /// The previous object waits for this one, which exists in neither state (terminal).
    Missing,
    /// Nothing is known to apply the previous object (terminal).
    NoApplier,
}

/// One link of a chain of waits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub kind: LinkKind,
    pub object: ObjectKey,
}

impl Link {
    /// Whether the chain ends here.
    pub fn terminal(&self) -> bool {
        matches!(self.kind, LinkKind::Missing | LinkKind::NoApplier)
    }
}

/// What holds node `i` once nothing more can act, and the node it leads to.
fn blocker(g: &Graph, r: &Run, i: usize) -> (Link, Option<usize>) {
    let n = &g.nodes[i];
    if r.held[i] != Some(Held::After) {
        return match n.applier {
            Some(a) => {
                let kind = if n.in_before {
                    LinkKind::DeliveredBy
                } else {
                    LinkKind::CreatedBy
                };
                let object = g.nodes[a].key.clone();
                (Link { kind, object }, Some(a))
            }
            None => (
                Link {
                    kind: LinkKind::NoApplier,
                    object: n.key.clone(),
                },
                None,
            ),
        };
    }
    let unmet = n.waits_after.iter().find(|w| !r.met(g, w));
    match unmet.map(|w| (w.kind, &w.target)) {
        Some((kind, Target::Node(t))) => {
            let kind = match kind {
                WaitKind::Source => LinkKind::Source,
                WaitKind::DependsOn => LinkKind::DependsOn,
            };
            let object = g.nodes[*t].key.clone();
            (Link { kind, object }, Some(*t))
        }
        Some((_, Target::Missing(k))) => (
            Link {
                kind: LinkKind::Missing,
                object: k.clone(),
            },
            None,
        ),
        _ => (
            Link {
                kind: LinkKind::NoApplier,
                object: n.key.clone(),
            },
            None,
        ),
    }
}

/// The chain of waits from node `start`.
fn chain_from(g: &Graph, r: &Run, start: usize) -> (Vec<Link>, bool) {
    let mut seen = vec![start];
    let mut links = Vec::new();
    let mut cur = start;
    while links.len() <= g.nodes.len() {
        let (link, next) = blocker(g, r, cur);
        links.push(link);
        let Some(next) = next else {
            return (links, false);
        };
        if seen.contains(&next) {
            return (links, true);
        }
        seen.push(next);
        cur = next;
    }
    (links, false)
}

/// Every object of the after state that never reconciles at its new spec.
pub fn stuck(g: &Graph, r: &Run) -> Vec<Stuck> {
    g.nodes
        .iter()
        .enumerate()
        .filter(|(i, n)| n.in_after && !n.suspended && !r.done[*i])
        .map(|(i, n)| {
            let (chain, cycle) = chain_from(g, r, i);
            Stuck {
                object: n.key.clone(),
                chain,
                cycle,
            }
        })
        .collect()
}

/// The chain in words: "A waits for B, which C creates once D delivers it, which A applies".
pub fn describe(start: &ObjectKey, chain: &[Link]) -> String {
    let mut s = start.to_string();
    let mut prev: Option<LinkKind> = None;
    for (i, l) in chain.iter().enumerate() {
        let o = &l.object;
        let part = match (l.kind, prev) {
            (LinkKind::Source, None) => format!(" waits for its source {o}"),
            (LinkKind::Source, _) => format!(", which waits for its source {o}"),
            (LinkKind::DependsOn, None) => format!(" waits for {o} (dependsOn)"),
            (LinkKind::DependsOn, _) => format!(", which waits for {o} (dependsOn)"),
            (LinkKind::CreatedBy, None) => format!(" is created by {o}"),
            (LinkKind::CreatedBy, _) => format!(", which {o} creates"),
            (LinkKind::DeliveredBy, Some(LinkKind::CreatedBy)) => {
                format!(" once {o} applies its new spec")
            }
            (LinkKind::DeliveredBy, None) => format!(": its new spec is applied by {o}"),
            (LinkKind::DeliveredBy, _) => format!(", which {o} applies"),
            (LinkKind::Missing, None) => format!(" waits for {o}, which nothing creates"),
            (LinkKind::Missing, _) => format!(", which waits for {o}, which nothing creates"),
            (LinkKind::NoApplier, _) => ", which nothing is known to apply".to_string(),
        };
        s.push_str(&part);
        prev = Some(l.kind);
        if i + 1 == chain.len() && !l.terminal() && chain.iter().any(|x| &x.object == start) {
            s.push_str(" — the chain closes on itself");
        }
    }
    s
}
