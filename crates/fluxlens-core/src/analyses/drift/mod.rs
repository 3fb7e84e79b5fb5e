//! Drift: a repository's render judged against the live cluster, read-only. Per Flux object:
//! declared and absent (DRIFT-01, with why), live and declared nowhere (DRIFT-02, with what
//! applies it), the fields that decide delivery differing (DRIFT-03), `spec.verify` declared
//! and not enforced (DRIFT-04, the fail-open of a patch that missed), and the commit the root
//! applied against the one rendered (DRIFT-05).
//!
//! What the API cannot show is never drift: an absence counts only on the server's NotFound
//! for that key, an orphan only where the live lists are complete, a field the render leaves
//! out only where leaving it out means a known default. The rules' reference entries live with
//! the rest of the reference (`findings/reference/drift.rs`).

mod absent;
mod applier;
mod commands;
mod compare;
pub mod fields;
mod orphan;
mod revision;
#[cfg(test)]
mod tests;

pub use revision::{Commit, live_commit};

use crate::analyses::finding::Finding;
use crate::model::{Answer, Cluster, ObjectKey};
use std::collections::BTreeMap;

/// What drift is judged from.
pub struct Input<'a> {
    /// The render as a cluster: its Flux objects (no status), with what the cluster generates
    /// from them (the FluxInstance's root pair, verify as its patches give it).
    pub declared: &'a Cluster,
    /// The live cluster as the API showed it.
    pub live: &'a Cluster,
    /// The server's answer, read by key, for each declared object the lists did not hold.
    pub asked: &'a BTreeMap<ObjectKey, Answer>,
    /// The commit the render was made from, when known.
    pub rendered: Option<&'a Commit>,
    /// How many commits the live root's lies behind the rendered one, when a clone told.
    pub behind: Option<Distance>,
}

/// Where the live root's commit stands against the rendered one, as a clone's history says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Distance {
    /// The rendered commit is this many commits ahead of the live one.
    Behind(usize),
    /// The live commit is ahead of the rendered one (a newer merge already landed).
    Ahead(usize),
    /// Neither descends from the other.
    Diverged,
}

/// The judgement.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Drift {
    /// Worst first.
    pub findings: Vec<Finding>,
    /// Declared objects found live and compared field by field.
    pub compared: usize,
    /// Of those, the ones with no difference.
    pub in_sync: usize,
    /// Objects or kinds that could not be compared, and why ("not visible: Forbidden").
    pub not_compared: Vec<(String, String)>,
}

impl Drift {
    /// Whether anything reaches `threshold`.
    pub fn fails(&self, threshold: crate::analyses::finding::Severity) -> bool {
        self.findings.iter().any(|f| f.severity >= threshold)
    }
}

/// A judgement as a snapshot carries it: what the drift view showed when the snapshot was taken
/// (the render itself stays with the sender).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Judged {
    /// The render's address, or the names of the files picked.
    pub render: String,
    /// The commit it was made from, when the page was told (`revision=`).
    #[serde(default)]
    pub revision: Option<String>,
    pub drift: Drift,
    /// Declared objects the lists lacked that the server had not answered for yet.
    #[serde(default)]
    pub unconfirmed: usize,
}

impl Judged {
    /// The judgement with every message in `dropped` cut out (a snapshot without messages).
    pub fn without(mut self, dropped: &[String]) -> Judged {
        let cut = |f| crate::analyses::carried::without(f, dropped);
        self.drift.findings = self.drift.findings.into_iter().map(cut).collect();
        self
    }
}

/// The declared objects the live lists do not hold: each is read by key before it is called
/// absent.
pub fn unlisted(declared: &Cluster, live: &Cluster) -> Vec<ObjectKey> {
    declared
        .objects()
        .iter()
        .map(|o| o.key.clone())
        .filter(|k| !live.contains(k))
        .collect()
}

/// Judges the render against the live cluster.
pub fn judge(input: &Input) -> Drift {
    let appliers = applier::States::new(input);
    let mut out = Drift::default();
    absent::declared_absent(input, &appliers, &mut out);
    orphan::orphans(input, &appliers, &mut out);
    compare::compare_present(input, &appliers, &mut out);
    if let Some(f) = revision::root_revision(input, &mut out) {
        out.findings.push(f);
    }
    crate::analyses::findings::sort_worst_first(&mut out.findings);
    out
}
