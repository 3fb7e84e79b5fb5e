//! What a read showed, compactly: enough to tell what changed between two reads (a visit kept
//! in this browser, a snapshot, the live cluster) and nothing else — each object's status,
//! revision and verification, the per-object findings, the migration stages. Kept for a week
//! of visits within a few hundred kilobytes (`share::visits`).

use crate::analyses::analysis::Analysis;
use crate::analyses::finding::Severity;
use crate::model::{Cluster, FluxObject, ObjectKey};
use crate::wire::kind::Kind;
use crate::wire::status::Status;
use serde::{Deserialize, Serialize};

/// One object as read.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ObjectDigest {
    pub key: ObjectKey,
    pub status: Status,
    /// The revision it shows: a source's artifact, an applier's last applied revision, a
    /// HelmRelease's chart version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<String>,
    /// For sources that can be verified: whether `spec.verify` is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verify: Option<bool>,
}

/// One per-object finding as read.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FindingDigest {
    pub rule: String,
    pub subject: ObjectKey,
    pub severity: Severity,
    pub message: String,
}

/// One migration stage as read.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StageDigest {
    /// The migration's id and title.
    pub migration: String,
    pub migration_title: String,
    pub stage: String,
    pub title: String,
    pub state: String,
}

/// What one read showed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VisitDigest {
    /// When it was read (Unix ms).
    pub read_at_ms: i64,
    pub objects: Vec<ObjectDigest>,
    pub findings: Vec<FindingDigest>,
    pub stages: Vec<StageDigest>,
    /// Kinds whose list was incomplete in this read: an object of these kinds that is absent
    /// may still exist (never "removed").
    #[serde(default)]
    pub incomplete_kinds: Vec<String>,
    /// Set when nothing can be said of absence in this read (the report was not ready).
    #[serde(default)]
    pub partial: bool,
}

/// The revision an object shows, if any.
pub fn revision_of(o: &FluxObject) -> Option<String> {
    if let Some(r) = o.artifact_revision() {
        return Some(r.to_string());
    }
    if let Some(r) = o.last_applied_revision() {
        return Some(r.to_string());
    }
    o.raw
        .status
        .history
        .first()
        .filter(|_| o.key.kind == Kind::HelmRelease)
        .and_then(|h| h.chart_version.clone())
}

fn verifiable(kind: &Kind) -> bool {
    matches!(
        kind,
        Kind::GitRepository | Kind::OciRepository | Kind::HelmChart
    )
}

impl VisitDigest {
    /// The digest of a read and its analyses.
    pub fn of(c: &Cluster, a: &Analysis) -> VisitDigest {
        let objects = c
            .objects()
            .iter()
            .map(|o| ObjectDigest {
                key: o.key.clone(),
                status: o.status,
                revision: revision_of(o),
                verify: verifiable(&o.key.kind).then(|| o.verify().is_some()),
            })
            .collect();
        let mut findings: Vec<FindingDigest> = a
            .per_object
            .iter()
            .map(|f| FindingDigest {
                rule: f.rule.clone(),
                subject: f.subject.clone(),
                severity: f.severity,
                message: f.message.clone(),
            })
            .collect();
        crate::util::sort::natural(&mut findings);
        findings.dedup_by(|a, b| a.rule == b.rule && a.subject == b.subject);
        let stages = a
            .migrations
            .iter()
            .flat_map(|m| {
                m.stages.iter().map(|s| StageDigest {
                    migration: m.id.to_string(),
                    migration_title: m.title.clone(),
                    stage: s.id.clone(),
                    title: s.title.clone(),
                    state: s.state_label(),
                })
            })
            .collect();
        VisitDigest {
            read_at_ms: c.notes.captured_at_ms.unwrap_or_default(),
            objects,
            findings,
            stages,
            incomplete_kinds: c
                .notes
                .incomplete_kinds
                .iter()
                .map(|(k, _)| k.clone())
                .collect(),
            partial: c.notes.partial.is_some(),
        }
    }

    /// Whether an absence of `kind` in this read says the object is gone.
    pub fn complete_for(&self, kind: &Kind) -> bool {
        !self.partial && !self.incomplete_kinds.iter().any(|k| k == kind.as_str())
    }
}
