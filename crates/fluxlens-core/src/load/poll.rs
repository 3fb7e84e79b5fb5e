//! The poller's decisions, without I/O (#47: the poll state machine lived in the wasm crate,
//! where no native test could reach it). The app's loader executes what these plan; each is a
//! pure function of what the loader keeps and what the server answered.
//!
//! The state machine is [`Poller`] (`machine.rs`): it asks in waves of [`Request`]s and takes
//! their answers; its decisions are the functions here and in `load`: which rows that left the
//! list are deleted and which kinds keep theirs, stale ([`settle_gone`]), which objects a poll
//! reads, in which batches ([`plan_reads`]), which kinds are listed again (`relist.rs`).

mod machine;
mod memory;
mod relist;
mod wire;

pub use machine::{FIRST_RETRY_SECONDS, HELM_STORAGE_CAP, OWED_SECONDS, Poller};
pub use relist::{RELIST_IN_FLIGHT, RELIST_MAX_WAIT, SWEEP_POLLS};
pub use wire::{Answer, PageRead, Request, Step, Text, Wave};

use crate::load::{applied_by, object_batches, retry_each_poll, rolling_reread, summary_key};
use crate::model::ObjectKey;
use crate::wire::inventory::InventoryObjectsRequest;
use crate::wire::kind::Role;
use crate::wire::object::ApiObject;
use crate::wire::report::FluxReport;
use crate::wire::resources::ResourceSummary;
use std::collections::{HashMap, HashSet};

/// What the loader keeps that a poll's reads depend on.
pub struct Kept<'a> {
    /// The objects read so far.
    pub objects: &'a HashMap<ObjectKey, std::sync::Arc<ApiObject>>,
    /// Objects the server could not return last time, with its reason.
    pub unreadable: &'a [(ObjectKey, String)],
    /// The root sources as the last cluster named them.
    pub roots: &'a [ObjectKey],
    /// Objects whose rows left the list and that the server has not said are gone (no
    /// NotFound yet): each is read every poll until it is, or its row is back.
    pub vanished: &'a std::collections::BTreeSet<ObjectKey>,
}

/// One poll's object reads.
#[derive(Debug, Default, PartialEq)]
pub struct ReadPlan {
    /// The batches, in order: the changed rows and what is read again with them, then the
    /// rolling groups (roots, rest), each in batches of its own so its make-up repeats with its
    /// cycle and an unchanged answer is recognised.
    pub batches: Vec<InventoryObjectsRequest>,
    /// Every object asked (each once).
    pub asked: HashSet<ObjectKey>,
}

/// A row that names `key` (all a batch read needs).
pub(crate) fn row_of(key: &ObjectKey) -> ResourceSummary {
    ResourceSummary {
        kind: key.kind.as_str().to_string(),
        namespace: key.namespace.clone(),
        name: key.name.clone(),
        ..Default::default()
    }
}

/// The objects poll `poll` reads, given this poll's rows (`rows`), those that changed since the
/// last (`changed`), and what is kept. Read besides the changed rows: what failed last time for
/// a passing reason (a Forbidden or NotFound answer waits for its row to change, or for the
/// renewal), what a changed applier applies (a GitOps change moves the applier's row, not
/// always its objects'), and a rolling share of the rest (`load::rolling_reread`). Each object
/// at most once.
pub fn plan_reads(
    report: &FluxReport,
    rows: &[ResourceSummary],
    mut changed: Vec<ResourceSummary>,
    kept: &Kept,
    poll: u32,
    renew: bool,
) -> ReadPlan {
    let appliers: Vec<ObjectKey> = changed
        .iter()
        .map(summary_key)
        .filter(|k| k.kind.role() == Role::Applier)
        .collect();
    let mut again: HashSet<ObjectKey> = kept
        .unreadable
        .iter()
        .filter(|(_, why)| renew || retry_each_poll(why))
        .map(|(k, _)| k.clone())
        .collect();
    again.extend(applied_by(kept.objects, &appliers));
    let mut asked: HashSet<ObjectKey> = changed.iter().map(summary_key).collect();
    if !again.is_empty() {
        for row in rows {
            let key = summary_key(row);
            if again.contains(&key) && asked.insert(key) {
                changed.push(row.clone());
            }
        }
    }
    // A row leaves the list for more reasons than a deletion (the report's counts lag the
    // live lists by up to 20 s, a List the server swallowed, a cap): only the object's own
    // read says NotFound.
    changed.extend(
        kept.vanished
            .iter()
            .filter(|k| asked.insert((*k).clone()))
            .map(row_of),
    );
    let mut batches = object_batches(report, &changed);
    let due = rolling_reread(rows, poll, kept.roots);
    for group in [due.roots, due.rest] {
        let group: Vec<ResourceSummary> = group
            .into_iter()
            .map(|i| &rows[i])
            .filter(|row| asked.insert(summary_key(row)))
            .cloned()
            .collect();
        batches.extend(object_batches(report, &group));
    }
    ReadPlan { batches, asked }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::kind::Kind;

    fn row(kind: &str, name: &str) -> ResourceSummary {
        ResourceSummary {
            kind: kind.into(),
            namespace: "apps".into(),
            name: name.into(),
            status: "Ready".into(),
            ..Default::default()
        }
    }

    fn key(kind: Kind, name: &str) -> ObjectKey {
        ObjectKey::new(kind, "apps", name)
    }

    fn asked_names(plan: &ReadPlan) -> Vec<String> {
        let mut v: Vec<String> = plan
            .batches
            .iter()
            .flat_map(|b| b.objects.iter().map(|o| o.name.clone()))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_poll_reads_each_object_once_and_waits_on_definitive_failures() {
        // 300 Kustomizations: the rolling share of the rest is 30 a poll.
        let rows: Vec<ResourceSummary> = (0..300)
            .map(|i| row("Kustomization", &format!("k{i:03}")))
            .collect();
        let objects = HashMap::new();
        let unreadable = vec![
            (key(Kind::Kustomization, "k001"), "Forbidden".to_string()),
            (key(Kind::Kustomization, "k002"), "Error".to_string()),
        ];
        let vanished = std::collections::BTreeSet::new();
        let kept = Kept {
            objects: &objects,
            unreadable: &unreadable,
            roots: &[],
            vanished: &vanished,
        };
        let report = FluxReport::default();
        let changed = vec![row("Kustomization", "k100")];
        let plan = plan_reads(&report, &rows, changed.clone(), &kept, 5, false);
        let names = asked_names(&plan);
        let mut unique = names.clone();
        unique.dedup();
        assert_eq!(names, unique, "each object once");
        assert!(names.contains(&"k100".to_string()), "the changed row");
        assert!(
            names.contains(&"k002".to_string()),
            "a passing failure, again"
        );
        // Forbidden waits (unless the rolling share happens to hold it this poll).
        let rolling = plan_reads(
            &report,
            &rows,
            vec![],
            &Kept {
                unreadable: &[],
                ..kept
            },
            5,
            false,
        );
        let in_share = asked_names(&rolling).contains(&"k001".to_string());
        assert_eq!(names.contains(&"k001".to_string()), in_share);
        // With the renewal, every failure is asked again.
        let renewal = plan_reads(&report, &rows, changed, &kept, 5, true);
        assert!(asked_names(&renewal).contains(&"k001".to_string()));
        // The changed rows come first, in a batch of their own.
        assert!(plan.batches[0].objects.iter().any(|o| o.name == "k100"));
    }
}
