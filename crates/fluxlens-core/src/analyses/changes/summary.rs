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
    // A recovery is a status that was Failed and is not: only a comparison of two reads knows
    // the status before. A condition's last transition to Ready=True is no recovery (every
    // reconcile passes through Unknown: /fleet counted "208 statuses recovered" on a healthy
    // cluster, #68).
    let recovered = changes
        .iter()
        .filter(|c| c.kind == ChangeKind::Status && !c.failed)
        .filter(|c| c.origin == super::Origin::Compared && c.what.starts_with("Failed → "))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::changes::Origin;
    use crate::model::ObjectKey;

    fn status(what: &str, failed: bool, origin: Origin) -> Change {
        Change {
            at_ms: 0,
            after_ms: None,
            subject: Subject::Object(ObjectKey::parse("Kustomization/apps/web").unwrap()),
            kind: ChangeKind::Status,
            what: what.into(),
            detail: String::new(),
            failed,
            origin,
        }
    }

    /// #68: a healthy cluster's reconciles (each passes through Unknown to Ready=True) read as
    /// "208 statuses recovered"; only a status seen Failed and then not is a recovery.
    #[test]
    fn only_a_status_seen_failed_then_not_is_a_recovery() {
        let reconciles: Vec<Change> = (0..5)
            .map(|_| status("Ready → True", false, Origin::Condition))
            .collect();
        assert_eq!(phrase(&reconciles), None);
        let recovered = [status("Failed → Ready", false, Origin::Compared)];
        assert_eq!(phrase(&recovered).as_deref(), Some("1 status recovered"));
        let progressing = [status("Ready → Progressing", false, Origin::Compared)];
        assert_eq!(phrase(&progressing), None);
    }
}
