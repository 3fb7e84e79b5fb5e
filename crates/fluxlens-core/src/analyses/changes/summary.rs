//! The overview's one line about what changed since the last visit:
//! "3 revisions applied, 1 HelmRelease failed, 1 object removed, 1 added".

use super::{Change, ChangeKind, Subject};
use crate::wire::kind::Kind;
use std::collections::BTreeMap;

/// The counts of a list of changes, in one phrase; `None` when there is none.
pub fn phrase(changes: &[Change]) -> Option<String> {
    let count = |k: ChangeKind| changes.iter().filter(|c| c.kind == k).count();
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut parts = Vec::new();
    // A source fetches a revision; an applier applies one.
    let fetched = |c: &&&Change| {
        c.subject.object().is_some_and(|k| {
            matches!(
                k.kind,
                Kind::GitRepository
                    | Kind::OciRepository
                    | Kind::Bucket
                    | Kind::HelmRepository
                    | Kind::HelmChart
                    | Kind::ExternalArtifact
            )
        })
    };
    let revisions: Vec<&Change> = changes
        .iter()
        .filter(|c| c.kind == ChangeKind::Revision)
        .collect();
    let sources = revisions.iter().filter(fetched).count();
    let applied = revisions.len() - sources;
    if applied > 0 {
        parts.push(format!(
            "{} applied",
            plural(applied, "revision", "revisions")
        ));
    }
    if sources > 0 {
        parts.push(format!(
            "{} fetched",
            plural(sources, "source revision", "source revisions")
        ));
    }
    // Failures by kind: "1 HelmRelease failed".
    let mut failed: BTreeMap<String, usize> = BTreeMap::new();
    for c in changes
        .iter()
        .filter(|c| c.failed && matches!(c.kind, ChangeKind::Status | ChangeKind::Revision))
    {
        if let Subject::Object(k) = &c.subject {
            *failed.entry(k.kind.as_str().to_string()).or_default() += 1;
        }
    }
    for (kind, n) in failed {
        parts.push(format!("{n} {kind} failed"));
    }
    let recovered = changes
        .iter()
        .filter(|c| c.kind == ChangeKind::Status && !c.failed)
        .count();
    if recovered > 0 {
        parts.push(plural(recovered, "status recovered", "statuses recovered"));
    }
    let removed = count(ChangeKind::Removed);
    if removed > 0 {
        parts.push(format!("{} removed", plural(removed, "object", "objects")));
    }
    let added = count(ChangeKind::Added);
    if added > 0 {
        parts.push(format!("{added} added"));
    }
    for (k, one, many) in [
        (
            ChangeKind::FindingAdded,
            "finding raised",
            "findings raised",
        ),
        (
            ChangeKind::FindingResolved,
            "finding resolved",
            "findings resolved",
        ),
        (
            ChangeKind::Stage,
            "migration stage moved",
            "migration stages moved",
        ),
        (
            ChangeKind::Verify,
            "verification changed",
            "verifications changed",
        ),
    ] {
        let n = count(k);
        if n > 0 {
            parts.push(plural(n, one, many));
        }
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}
