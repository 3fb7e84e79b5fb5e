//! What differs between two reads (an earlier one — a visit kept in this browser, a snapshot —
//! and a later one): objects added and removed, revisions and statuses, findings added and
//! resolved, migration stages that moved, sources that gained or lost `spec.verify`. When in
//! the interval each happened is not known: every row says "between" the two reads.

use super::digest::{ObjectDigest, VisitDigest};
use super::{Change, ChangeKind, Origin, Subject};
use crate::model::ObjectKey;
use crate::util::revision::short;
use crate::wire::status::Status;
use std::collections::{BTreeMap, BTreeSet};

/// Every change from `before` to `after`, each found once.
pub fn between(before: &VisitDigest, after: &VisitDigest) -> Vec<Change> {
    let row = |subject: Subject, kind: ChangeKind, what: String, detail: String, failed| Change {
        at_ms: after.read_at_ms,
        after_ms: Some(before.read_at_ms),
        subject,
        kind,
        what,
        detail,
        failed,
        origin: Origin::Compared,
    };
    let mut out = Vec::new();
    let old: BTreeMap<&ObjectKey, &ObjectDigest> =
        before.objects.iter().map(|o| (&o.key, o)).collect();
    let new: BTreeMap<&ObjectKey, &ObjectDigest> =
        after.objects.iter().map(|o| (&o.key, o)).collect();
    for (key, n) in &new {
        match old.get(key) {
            None => out.push(row(
                Subject::Object((*key).clone()),
                ChangeKind::Added,
                "added".into(),
                status_word(n.status),
                false,
            )),
            Some(o) => out.extend(
                object_changes(o, n)
                    .into_iter()
                    .map(|(k, w, d, f)| row(Subject::Object((*key).clone()), k, w, d, f)),
            ),
        }
    }
    for key in old.keys().filter(|k| !new.contains_key(*k)) {
        // Absence is a change only where the later read is complete for the kind.
        if after.complete_for(&key.kind) {
            out.push(row(
                Subject::Object((*key).clone()),
                ChangeKind::Removed,
                "removed".into(),
                String::new(),
                false,
            ));
        }
    }
    findings(before, after, &row, &mut out);
    stages(before, after, &row, &mut out);
    out
}

fn status_word(s: Status) -> String {
    s.as_str().to_string()
}

type Found = (ChangeKind, String, String, bool);

fn object_changes(o: &ObjectDigest, n: &ObjectDigest) -> Vec<Found> {
    let mut out = Vec::new();
    if o.revision != n.revision
        && let Some(rev) = &n.revision
    {
        let was = o
            .revision
            .as_deref()
            .map(short)
            .unwrap_or_else(|| "none".into());
        out.push((
            ChangeKind::Revision,
            format!("now at {}", short(rev)),
            format!("was {was}"),
            false,
        ));
    }
    if o.status != n.status {
        out.push((
            ChangeKind::Status,
            format!("{} → {}", o.status.as_str(), n.status.as_str()),
            String::new(),
            n.status == Status::Failed,
        ));
    }
    match (o.verify, n.verify) {
        (Some(true), Some(false)) => out.push((
            ChangeKind::Verify,
            "lost spec.verify".into(),
            "its artifacts are no longer verified".into(),
            true,
        )),
        (Some(false), Some(true)) => out.push((
            ChangeKind::Verify,
            "gained spec.verify".into(),
            String::new(),
            false,
        )),
        _ => {}
    }
    out
}

fn findings(
    before: &VisitDigest,
    after: &VisitDigest,
    row: &impl Fn(Subject, ChangeKind, String, String, bool) -> Change,
    out: &mut Vec<Change>,
) {
    let id = |f: &super::digest::FindingDigest| (f.rule.clone(), f.subject.clone());
    let old: BTreeSet<_> = before.findings.iter().map(id).collect();
    let new: BTreeSet<_> = after.findings.iter().map(id).collect();
    for f in after.findings.iter().filter(|f| !old.contains(&id(f))) {
        out.push(row(
            Subject::Object(f.subject.clone()),
            ChangeKind::FindingAdded,
            format!("{} {} raised", f.rule, f.severity.as_str()),
            f.message.clone(),
            true,
        ));
    }
    for f in before.findings.iter().filter(|f| !new.contains(&id(f))) {
        // A finding about an object that is gone is not "resolved": the object's row says so.
        let gone = before.objects.iter().any(|o| o.key == f.subject)
            && !after.objects.iter().any(|o| o.key == f.subject);
        if !gone {
            out.push(row(
                Subject::Object(f.subject.clone()),
                ChangeKind::FindingResolved,
                format!("{} resolved", f.rule),
                f.message.clone(),
                false,
            ));
        }
    }
}

fn stages(
    before: &VisitDigest,
    after: &VisitDigest,
    row: &impl Fn(Subject, ChangeKind, String, String, bool) -> Change,
    out: &mut Vec<Change>,
) {
    for s in &after.stages {
        let was = before
            .stages
            .iter()
            .find(|b| b.migration == s.migration && b.stage == s.stage);
        if let Some(was) = was.filter(|b| b.state != s.state) {
            let subject = Subject::Migration {
                id: s.migration.clone(),
                title: s.migration_title.clone(),
            };
            out.push(row(
                subject,
                ChangeKind::Stage,
                format!("{} {}: {} → {}", s.stage, s.title, was.state, s.state),
                String::new(),
                s.state.contains("blocked") || s.state.contains("failing"),
            ));
        }
    }
}
