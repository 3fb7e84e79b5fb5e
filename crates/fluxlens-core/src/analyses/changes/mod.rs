//! What changed (#49): one timeline across every object, newest first — revisions applied
//! (`status.history`, sources' artifacts), status changes (Ready transitions, Warning events) and
//! what differs from a visit kept in this browser or from a snapshot (objects added and removed,
//! revisions, statuses, findings, migration stages, `spec.verify`). Each timeline says what it
//! cannot know (bounded history, expiring events, no visit kept) instead of implying that
//! nothing changed.

pub mod diff;
pub mod digest;
pub mod summary;
pub mod timeline;
pub mod window;

use crate::model::ObjectKey;
use serde::{Deserialize, Serialize};

/// What kind of change a row is (the `data-change-kind` hook).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ChangeKind {
    /// A revision applied (history) or fetched (a source's artifact).
    Revision,
    /// A status change: a Ready transition, a Warning event, a status that differs.
    Status,
    /// An object that was not there before.
    Added,
    /// An object that is gone (only said on a complete, confirmed read).
    Removed,
    FindingAdded,
    FindingResolved,
    /// A migration stage that moved.
    Stage,
    /// A source that gained or lost `spec.verify`.
    Verify,
}

impl ChangeKind {
    /// Every kind, in the order the filters list them.
    pub const ALL: [ChangeKind; 8] = [
        ChangeKind::Revision,
        ChangeKind::Status,
        ChangeKind::Added,
        ChangeKind::Removed,
        ChangeKind::FindingAdded,
        ChangeKind::FindingResolved,
        ChangeKind::Stage,
        ChangeKind::Verify,
    ];

    /// The hook value: `revision`, `status`, `added`, `removed`, `finding-added`,
    /// `finding-resolved`, `stage`, `verify`.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Revision => "revision",
            ChangeKind::Status => "status",
            ChangeKind::Added => "added",
            ChangeKind::Removed => "removed",
            ChangeKind::FindingAdded => "finding-added",
            ChangeKind::FindingResolved => "finding-resolved",
            ChangeKind::Stage => "stage",
            ChangeKind::Verify => "verify",
        }
    }

    /// Parses [`ChangeKind::as_str`].
    pub fn parse(s: &str) -> Option<ChangeKind> {
        ChangeKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// Where a change was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Origin {
    /// `status.history` (Kustomization, HelmRelease, ResourceSet, FluxInstance).
    History,
    /// A source's `status.artifact` (revision and `lastUpdateTime`).
    Artifact,
    /// A condition's `lastTransitionTime`.
    Condition,
    /// An event the API returned.
    Event,
    /// Two reads compared (a kept visit or a snapshot, and this one): the change happened
    /// between them, when exactly is not known.
    Compared,
}

impl Origin {
    /// How the row says where it comes from.
    pub fn label(self) -> &'static str {
        match self {
            Origin::History => "status.history",
            Origin::Artifact => "status.artifact",
            Origin::Condition => "condition",
            Origin::Event => "event",
            Origin::Compared => "compared",
        }
    }
}

/// What a change is about: an object, or a migration (its stages).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Subject {
    Object(ObjectKey),
    Migration { id: String, title: String },
}

impl Subject {
    /// The `data-subject` hook: `Kind/namespace/name`, or `Migration/<id>`.
    pub fn hook(&self) -> String {
        match self {
            Subject::Object(k) => k.to_string(),
            Subject::Migration { id, .. } => format!("Migration/{id}"),
        }
    }

    /// The object, when it is about one.
    pub fn object(&self) -> Option<&ObjectKey> {
        match self {
            Subject::Object(k) => Some(k),
            Subject::Migration { .. } => None,
        }
    }

    /// How the row names it.
    pub fn label(&self) -> String {
        match self {
            Subject::Object(k) => k.to_string(),
            Subject::Migration { title, .. } => title.clone(),
        }
    }
}

/// One row of the timeline.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Change {
    /// When it happened (Unix ms); for a compared change, when it was first seen.
    pub at_ms: i64,
    /// For a compared change: the earlier read's time (it happened after this).
    pub after_ms: Option<i64>,
    pub subject: Subject,
    pub kind: ChangeKind,
    /// What changed, in one line ("applied main@sha1:4f1c…", "Ready → False: HealthCheckFailed").
    pub what: String,
    /// Where the revision came from, the status detail, the finding's rule: "" when none.
    pub detail: String,
    /// Whether it is a failure (a failed release, Ready → False, a finding added).
    pub failed: bool,
    pub origin: Origin,
}

/// The timeline of a window: its changes, newest first, and what it cannot know.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Timeline {
    pub changes: Vec<Change>,
    /// Each limit of the answer, one sentence each ("history keeps the last 5 revisions…").
    pub limits: Vec<String>,
    /// The window: from this time (Unix ms) to `to_ms`.
    pub from_ms: i64,
    pub to_ms: i64,
    /// The read compared with, named ("the visit kept in this browser from …", "the snapshot
    /// read …"); `None` when none was.
    pub compared_with: Option<String>,
}

impl Timeline {
    /// Where a row comes from, as the row says it: a compared change names what it was
    /// compared with (#68: rows compared with a snapshot said "compared with the earlier read").
    pub fn origin_label(&self, c: &Change) -> String {
        match (c.origin, &self.compared_with) {
            (Origin::Compared, Some(with)) => format!("compared with {with}"),
            (o, _) => o.label().to_string(),
        }
    }

    /// Sorts newest first (then by subject, so equal times read in a stable order) and drops
    /// exact repeats (the same change read from two places).
    pub fn settle(&mut self) {
        crate::util::sort::by(&mut self.changes, |a, b| {
            b.at_ms
                .cmp(&a.at_ms)
                .then_with(|| a.subject.cmp(&b.subject))
                .then_with(|| a.kind.cmp(&b.kind))
                .then_with(|| a.what.cmp(&b.what))
        });
        self.changes.dedup_by(|a, b| {
            a.at_ms == b.at_ms && a.subject == b.subject && a.kind == b.kind && a.what == b.what
        });
    }
}

/// What a timeline is built from.
pub struct Reads<'a> {
    /// The current read.
    pub cluster: &'a crate::model::Cluster,
    pub now: &'a digest::VisitDigest,
    /// The earlier read to compare with (a kept visit or a snapshot), if any.
    pub earlier: Option<&'a digest::VisitDigest>,
    pub events: &'a [crate::wire::events::Event],
    pub events_read: &'a timeline::EventsRead,
}

/// The timeline of `[from_ms, to_ms]`: what the current read shows in it, and what differs from
/// the earlier read, with every limit of the answer.
pub fn timeline(r: &Reads, from_ms: i64, to_ms: i64) -> Timeline {
    let (mut changes, mut limits) =
        timeline::read(r.cluster, r.events, r.events_read, from_ms, to_ms);
    match r.earlier {
        Some(e) => {
            changes.extend(diff::between(e, r.now));
            let at = crate::util::time::shown_dated(e.read_at_ms);
            if e.read_at_ms < from_ms {
                limits.push(format!(
                    "The earlier read compared with is from {at}, before this window: what \
                     differs from it may have changed before the window began."
                ));
            } else if e.read_at_ms > from_ms {
                limits.push(format!(
                    "No read kept in this browser goes back to the window's start: what changed \
                     before {at} is known only from history, conditions and events."
                ));
            }
        }
        None => limits.push(
            "No earlier read is kept to compare with: objects removed, findings and migration \
             stages are compared only from the next visit on."
                .into(),
        ),
    }
    let compared_with = r.earlier.map(|e| {
        format!(
            "the visit kept in this browser from {}",
            crate::util::time::shown_dated(e.read_at_ms)
        )
    });
    let mut t = Timeline {
        changes,
        limits,
        from_ms,
        to_ms,
        compared_with,
    };
    t.settle();
    t
}

/// The timeline between a snapshot and the page's read (live, or another snapshot), in time
/// order whichever is older: only what comparing them finds, each change dated "between" the
/// two, and the snapshot named as what the rows were compared with.
pub fn between_reads(snapshot: &digest::VisitDigest, shown: &digest::VisitDigest) -> Timeline {
    let (older, newer) = if snapshot.read_at_ms <= shown.read_at_ms {
        (snapshot, shown)
    } else {
        (shown, snapshot)
    };
    let shown = crate::util::time::shown_dated;
    let mut t = Timeline {
        changes: diff::between(older, newer),
        limits: vec![format!(
            "Two reads compared, {} and {}: each change happened between them, when exactly is \
             not known, and a change undone in between does not show.",
            shown(older.read_at_ms),
            shown(newer.read_at_ms)
        )],
        from_ms: older.read_at_ms,
        to_ms: newer.read_at_ms,
        compared_with: Some(format!(
            "the snapshot read {}",
            crate::util::time::shown_dated(snapshot.read_at_ms)
        )),
    };
    t.settle();
    t
}

#[cfg(test)]
mod tests;
