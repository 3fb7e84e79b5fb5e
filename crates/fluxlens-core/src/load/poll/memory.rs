//! What the poller keeps between polls: one cache. Answers are recognised in one place
//! ([`AnswerCache`], by request), so an unchanged answer is neither decoded nor applied.

use crate::load;
use crate::load::answers::AnswerCache;
use crate::model::{Answer, Cluster, CrdAccess, LoadNotes, ObjectKey};
use crate::wire::error::ApiError;
use crate::wire::events::Event;
use crate::wire::inventory::InventoryObjectsRequest;
use crate::wire::object::{ApiObject, InventoryWire};
use crate::wire::report::FluxReport;
use crate::wire::resources::ResourceSummary;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// What a batch answered.
pub(super) enum BatchAnswer<B> {
    /// The same text as the last time this batch was asked and applied whole.
    Same,
    /// A new answer, and its body to recognise it next time.
    Decoded(crate::wire::inventory::InventoryObjectsResponse, B),
    /// A new answer taken from a read made for other items too (#28): applied, not recognised
    /// next time (its body answers another request).
    Partial(crate::wire::inventory::InventoryObjectsResponse),
}

/// One object batch and what it answered.
pub(super) struct Part<B> {
    pub req: InventoryObjectsRequest,
    /// The request's fingerprint (its key in [`Memory::answers`]).
    pub print: u64,
    pub answer: Result<BatchAnswer<B>, ApiError>,
}

/// The fingerprint of a batch request.
pub(super) fn request_print(req: &InventoryObjectsRequest) -> u64 {
    load::fingerprint(&serde_json::to_string(req).unwrap_or_default())
}

/// The fingerprint of a list request (`kind` and `namespace` empty: the default list).
pub(super) fn list_print(kind: &str, namespace: &str) -> u64 {
    load::fingerprint(&format!(
        "GET /api/v1/resources?kind={kind}&namespace={namespace}"
    ))
}

/// Everything besides the objects that a poll can change.
#[derive(PartialEq)]
pub(super) struct NotesPrint {
    unreadable: Vec<(ObjectKey, String)>,
    incomplete: Vec<(String, String)>,
    stale_kinds: BTreeMap<String, i64>,
    helm_inventories: HashMap<ObjectKey, InventoryWire>,
    crds: CrdAccess,
    instance_events: Vec<Event>,
}

/// The poller's memory of one cluster.
pub(super) struct Memory<B> {
    /// Polls made (the rolling re-read and the backoffs count in polls).
    pub polls: u32,
    /// The last poll's rows; the same `Arc` while nothing changed, so an unchanged poll neither
    /// copies nor compares thousands of rows.
    pub summaries: Arc<Vec<ResourceSummary>>,
    /// The default list's last rows (decoded once per distinct answer).
    pub listed: Arc<Vec<ResourceSummary>>,
    /// The rows of the kinds listed alone (operators before v0.53) at the last poll.
    pub alone: Vec<ResourceSummary>,
    /// `listed` and `alone` together (reused whole while both are unchanged).
    pub combined: Arc<Vec<ResourceSummary>>,
    /// The objects last read, each shared with the model built from them.
    pub objects: HashMap<ObjectKey, Arc<ApiObject>>,
    pub crds: CrdAccess,
    pub incomplete: Vec<(String, String)>,
    pub unreadable: Vec<(ObjectKey, String)>,
    pub confirmations: BTreeMap<ObjectKey, Answer>,
    /// Answers kept from before a renewal whose confirming read failed, with why (until a
    /// renewal answers for them again).
    pub kept_answers: Vec<(ObjectKey, String)>,
    pub instance_events: Vec<Event>,
    /// Rows found by re-listing a kind, reused while its backoff runs.
    pub relisted: HashMap<String, Vec<ResourceSummary>>,
    /// Per kind: the poll of the next re-list and the current wait.
    pub backoff: HashMap<String, (u32, u32)>,
    /// Kinds with objects whose rows left the list and that could not be read since, and since
    /// when (ms): their objects are shown as last read.
    pub stale_kinds: BTreeMap<String, i64>,
    /// The confirming read's items the server last answered NotFound, asked again every poll.
    pub absent: BTreeMap<ObjectKey, crate::wire::inventory::ObjectRef>,
    /// Objects whose rows left the list and that the server has not said are gone: read every
    /// poll until it answers NotFound or the row is back.
    pub vanished: std::collections::BTreeSet<ObjectKey>,
    /// HelmReleases' inventories read from Helm storage by the single-object GET (Flux ≤ 2.7).
    pub helm_inventories: HashMap<ObjectKey, InventoryWire>,
    /// The poll each HelmRelease was last read from Helm storage at (the reads go round).
    pub helm_read_at: HashMap<ObjectKey, u32>,
    /// The last report and what the last poll noted, to tell a poll that changed nothing.
    pub last_report: Option<FluxReport>,
    pub last_notes: Option<NotesPrint>,
    /// References the last confirming read could not confirm: asked again next poll.
    pub last_unconfirmed: usize,
    /// The root sources as the last cluster built named them (read again on the short cycle).
    pub roots: Vec<ObjectKey>,
    /// The one "same answer" cache: per request, its last answer applied whole.
    pub answers: AnswerCache<B>,
}

impl<B> Default for Memory<B> {
    fn default() -> Self {
        Memory {
            polls: 0,
            summaries: Arc::default(),
            listed: Arc::default(),
            alone: Vec::new(),
            combined: Arc::default(),
            objects: HashMap::new(),
            crds: CrdAccess::default(),
            incomplete: Vec::new(),
            unreadable: Vec::new(),
            confirmations: BTreeMap::new(),
            kept_answers: Vec::new(),
            instance_events: Vec::new(),
            relisted: HashMap::new(),
            backoff: HashMap::new(),
            stale_kinds: BTreeMap::new(),
            vanished: Default::default(),
            absent: BTreeMap::new(),
            helm_inventories: HashMap::new(),
            helm_read_at: HashMap::new(),
            last_report: None,
            last_notes: None,
            last_unconfirmed: 0,
            roots: Vec::new(),
            answers: AnswerCache::default(),
        }
    }
}

impl<B: PartialEq> Memory<B> {
    /// What the notes hold now.
    pub fn notes_print(&self) -> NotesPrint {
        NotesPrint {
            unreadable: self.unreadable.clone(),
            incomplete: self.incomplete.clone(),
            stale_kinds: self.stale_kinds.clone(),
            helm_inventories: self.helm_inventories.clone(),
            crds: self.crds.clone(),
            instance_events: self.instance_events.clone(),
        }
    }

    /// The HelmReleases that keep their inventory in Helm storage.
    pub fn helm_candidates(&self) -> Vec<ObjectKey> {
        load::helm_storage_candidates(self.objects.values().map(|o| &**o), usize::MAX)
    }

    /// Whether one of `candidates` has not been read from Helm storage yet.
    pub fn helm_owed_of(&self, candidates: &[ObjectKey]) -> bool {
        candidates
            .iter()
            .any(|k| !self.helm_read_at.contains_key(k))
    }

    /// Keeps what a batch returned; what failed is noted as unreadable instead of discarding
    /// the rest of the poll. Returns whether an object changed, and the last error.
    pub fn apply(&mut self, parts: Vec<Part<B>>) -> (bool, Option<ApiError>) {
        let mut error = None;
        let mut changed = false;
        for Part { req, print, answer } in parts {
            let (resp, body) = match answer {
                Ok(BatchAnswer::Same) => continue,
                Ok(BatchAnswer::Decoded(resp, body)) => (resp, Some(body)),
                Ok(BatchAnswer::Partial(resp)) => (resp, None),
                Err(e) => {
                    for key in load::requested_keys(&req) {
                        self.unreadable.push((key, format!("Error ({e})")));
                    }
                    error = Some(e);
                    continue;
                }
            };
            let unreadable_before = self.unreadable.len();
            for k in load::not_returned(&req, &resp.objects) {
                let why = "not returned: the server answered fewer items than asked";
                self.unreadable.push((k, why.into()));
            }
            let (objects, failed) = load::split_results(resp.objects);
            for o in objects {
                if let Some(key) = ObjectKey::of(&o)
                    && self.objects.get(&key).map(|k| &**k) != Some(&o)
                {
                    changed = true;
                    self.answers.changed_through(print, &key);
                    self.objects.insert(key, Arc::new(o));
                }
            }
            self.unreadable.extend(failed);
            // Only an answer applied whole may be recognised and skipped next time.
            match body {
                Some(body) if self.unreadable.len() == unreadable_before => {
                    self.answers
                        .remember(print, load::requested_keys(&req), body);
                }
                _ => self.answers.forget(print),
            }
        }
        (changed, error)
    }

    /// Notes which items of a confirming read the server answered NotFound (asked again each
    /// poll) and which it answered otherwise (no longer).
    pub fn note_absent(
        &mut self,
        req: &InventoryObjectsRequest,
        results: &[crate::wire::inventory::ObjectResult],
    ) {
        for (item, answer) in req.objects.iter().zip(load::confirmations(results)) {
            let (key, answer) = answer;
            if answer == Answer::NotFound {
                self.absent.insert(key, item.clone());
            } else {
                self.absent.remove(&key);
            }
        }
    }

    /// Settles the objects whose rows left the list, once this poll's reads are applied: a
    /// NotFound deletes the object, and so does a Forbidden (the user may no longer read it:
    /// not this page's to show); one the server returned stays, fresh; one it could not
    /// return for another reason stays as last read, and its kind is said to be stale from
    /// now. Returns whether an object went.
    pub fn settle_vanished(&mut self, now_ms: i64) -> bool {
        let gone = |why: &str| why == "NotFound" || why == "Forbidden";
        let not_found: Vec<ObjectKey> = self
            .unreadable
            .iter()
            .filter(|(k, why)| gone(why) && self.vanished.contains(k))
            .map(|(k, _)| k.clone())
            .collect();
        for k in &not_found {
            self.vanished.remove(k);
            self.objects.remove(k);
            self.answers.forget_holding(k);
        }
        self.unreadable
            .retain(|(k, why)| !(gone(why) && not_found.contains(k)));
        // Objects neither listed nor returned: shown as last read.
        let unread: std::collections::BTreeSet<String> = self
            .unreadable
            .iter()
            .filter(|(k, _)| self.vanished.contains(k))
            .map(|(k, _)| k.kind.as_str().to_string())
            .collect();
        for kind in &unread {
            self.stale_kinds.entry(kind.clone()).or_insert(now_ms);
        }
        self.stale_kinds.retain(|kind, _| unread.contains(kind));
        !not_found.is_empty()
    }

    /// The model of what is kept, as of `now_ms`.
    pub fn build(&self, report: FluxReport, now_ms: i64) -> Cluster {
        let partial = load::partial_load(&report);
        let objects = self
            .objects
            .iter()
            .map(|(k, o)| load::with_helm_inventory(o.clone(), self.helm_inventories.get(k)));
        let mut cluster = Cluster::from_shared(report, objects, self.crds.clone());
        let incomplete_kinds = self
            .incomplete
            .iter()
            .map(|(kind, why)| match self.stale_kinds.get(kind) {
                Some(since) => (
                    kind.clone(),
                    format!(
                        "{why}; showing the objects last read, stale since {}",
                        crate::util::time::shown(*since, now_ms)
                    ),
                ),
                None => (kind.clone(), why.clone()),
            })
            .collect();
        cluster.notes = LoadNotes {
            incomplete_kinds,
            partial,
            unreadable: self.unreadable.clone(),
            unconfirmed: vec![],
            // Both set once the confirming read has answered (`on_confirm`).
            kept_answers: vec![],
            captured_at_ms: Some(now_ms),
        };
        cluster.confirmations = self.confirmations.clone();
        cluster.instance_events = self.instance_events.clone();
        cluster
    }
}
