//! Assembles the whole cluster in `3 + ⌈N/BATCH_SIZE⌉` requests (+1 per counted kind the
//! default list leaves out — Alerts, Providers, Receivers, image kinds — + the confirming read
//! in batches when some references look missing, +1 for the FluxInstance's events when there
//! is one), then polls: report and summaries every interval (paused while the tab is hidden),
//! refetching changed objects, what failed last time, the objects of an applier whose row
//! changed, and a rolling share of the rest (a summary row does not change when only a spec
//! does): the roots every ten polls, at most `load::REREAD_MAX` others a poll. Kinds whose list is incomplete are
//! listed again by kind and by namespace, with backoff, and keep their last objects (stale)
//! meanwhile. On error, or when the server degrades to its placeholder report, the last good
//! state stays and the page says "stale since".

use super::{Api, ApiError, Body};
use crate::state::{AppState, Loaded};
use fluxlens_core::answers::AnswerCache;
use fluxlens_core::api::object::InventoryWire;
use fluxlens_core::api::{
    ApiObject, FluxReport, InventoryObjectsRequest, InventoryObjectsResponse, ResourceSummary,
};
use fluxlens_core::load;
use fluxlens_core::load::prefetched;
use fluxlens_core::model::{Answer, Cluster, CrdAccess, LoadNotes, ObjectKey};
use leptos::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Default poll interval (the built-in UI's).
pub const POLL_SECONDS: u32 = 30;
/// Once in this many polls the default list is decoded afresh and the confirmations, the CRDs
/// (when unknown) and the instance's events are renewed. Which objects are read again each poll
/// besides the changed ones: `load::rolling_reread`; an identical batch answer is recognised
/// whenever it comes (`AnswerCache`, exact).
const FULL_REFETCH_POLLS: u32 = fluxlens_core::load::REREAD_POLLS;
/// Per-namespace lists in flight at once when completing a kind.
const RELIST_IN_FLIGHT: usize = 4;
/// Seconds to the next poll while HelmRelease owners are still owed from Helm storage.
const OWED_SECONDS: u32 = 2;
/// HelmReleases whose inventory is read from Helm storage per full poll, at most (one GET each).
const HELM_STORAGE_CAP: usize = 50;
/// A kind that stays incomplete is listed again after 1, 2, 4 … up to this many polls.
const RELIST_MAX_WAIT: u32 = 16;
/// A kind over the cap is listed again in every namespace once in this many polls (else only
/// in the namespaces that held its rows).
const SWEEP_POLLS: u32 = 3 * FULL_REFETCH_POLLS;

/// What the loader keeps between polls.
#[derive(Default)]
struct Cache {
    /// The cluster's API (the page's own, or a fleet cluster's).
    api: Api,
    /// The last poll's rows; the same `Arc` as `combined`'s while nothing changed, so an
    /// unchanged poll neither copies nor compares thousands of rows.
    summaries: Arc<Vec<ResourceSummary>>,
    objects: HashMap<ObjectKey, ApiObject>,
    crds: CrdAccess,
    incomplete: Vec<(String, String)>,
    unreadable: Vec<(ObjectKey, String)>,
    confirmations: BTreeMap<ObjectKey, Answer>,
    instance_events: Vec<fluxlens_core::api::events::Event>,
    polls: u32,
    /// Rows found by re-listing a kind, reused while its backoff runs.
    relisted: HashMap<String, Vec<ResourceSummary>>,
    /// Per kind: the poll of the next re-list and the current wait.
    backoff: HashMap<String, (u32, u32)>,
    /// Kinds whose list came back short and that keep their last objects, since when (ms).
    stale_kinds: BTreeMap<String, i64>,
    /// HelmReleases' inventories read from Helm storage by the single-object GET (Flux ≤ 2.7).
    helm_inventories: HashMap<ObjectKey, InventoryWire>,
    /// The poll each HelmRelease was last read from Helm storage at (the reads go round).
    helm_read_at: HashMap<ObjectKey, u32>,
    /// The last report and what the last poll noted, to tell a poll that changed nothing.
    last_report: Option<FluxReport>,
    last_notes: Option<NotesPrint>,
    /// References the last confirming read could not confirm: asked again next poll.
    last_unconfirmed: usize,
    /// The default list's last answer and its rows (an equal answer is not decoded).
    main_list: Option<(Body, Arc<Vec<ResourceSummary>>)>,
    /// The root sources as the last cluster built named them (read again on the short cycle).
    roots: Vec<ObjectKey>,
    /// Per object batch: its last answer applied whole, recognised when it comes again.
    batch_answers: AnswerCache<Body>,
    /// The default list's rows and the kinds listed alone at the last poll, and the rows they
    /// made together (reused whole while both are unchanged).
    combined: Option<CombinedRows>,
}

/// The default list's rows, the rows of kinds listed alone, and both together.
type CombinedRows = (
    Arc<Vec<ResourceSummary>>,
    Vec<ResourceSummary>,
    Arc<Vec<ResourceSummary>>,
);

/// What a batch answered.
enum BatchAnswer {
    /// The same text as the last time this batch was asked and applied whole.
    Same,
    /// A new answer, and its body to recognise it next time.
    Decoded(InventoryObjectsResponse, Body),
    /// A new answer taken from a read made for other items too (#28): applied, not recognised
    /// next time (its body answers another request).
    Partial(InventoryObjectsResponse),
}

fn request_print(req: &InventoryObjectsRequest) -> u64 {
    load::fingerprint(&serde_json::to_string(req).unwrap_or_default())
}

/// Everything besides the objects that a poll can change.
#[derive(PartialEq)]
struct NotesPrint {
    unreadable: Vec<(ObjectKey, String)>,
    incomplete: Vec<(String, String)>,
    stale_kinds: BTreeMap<String, i64>,
    helm_inventories: HashMap<ObjectKey, InventoryWire>,
    crds: CrdAccess,
    instance_events: Vec<fluxlens_core::api::events::Event>,
}

impl NotesPrint {
    fn of(cache: &Cache) -> NotesPrint {
        NotesPrint {
            unreadable: cache.unreadable.clone(),
            incomplete: cache.incomplete.clone(),
            stale_kinds: cache.stale_kinds.clone(),
            helm_inventories: cache.helm_inventories.clone(),
            crds: cache.crds.clone(),
            instance_events: cache.instance_events.clone(),
        }
    }
}

/// Starts the first load and the poll loop.
pub fn start(state: AppState, poll_seconds: u32) {
    // The last visit's data while the first read runs (#28), said to be so: at once where the
    // server asks for no sign-in, else once it has answered the report (`refresh`).
    if state.snapshot.with_untracked(Option::is_none) && super::last_visit::shows_at_once() {
        super::last_visit::restore(state, false);
    }
    leptos::task::spawn_local(async move {
        let mut cache = Cache::default();
        let mut first = true;
        loop {
            if !first && document_hidden() {
                gloo_timers::future::TimeoutFuture::new(1000).await;
                continue;
            }
            // Snapshot mode is snapshot mode: a snapshot opened from a file stops the live loader;
            // the way back is the explicit "Open the live view".
            if state.snapshot.with_untracked(Option::is_some) {
                return;
            }
            crate::perf::mark_once(crate::perf::POLL_STARTED);
            match refresh(&mut cache, Some(&state), first).await {
                Ok(fresh) => {
                    // A refresh whose data is the same does not touch the app's state (#23);
                    // `None`: nothing changed, the model was not even rebuilt.
                    if let Some(cluster) = fresh {
                        // The last visit's data is replaced by the first live data, equal or not.
                        let same = state.last_visit.with_untracked(Option::is_none)
                            && state.data.with_untracked(|d| {
                                d.as_ref().is_some_and(|d| d.cluster.same_data(&cluster))
                            });
                        if !same && state.snapshot.with_untracked(Option::is_none) {
                            state
                                .data
                                .set(Some(std::sync::Arc::new(Loaded::new(cluster))));
                            super::last_visit::keep_soon(state);
                        }
                    }
                    set_if_changed(state.last_visit, None);
                    set_if_changed(state.error, None);
                    set_if_changed(state.stale_since, None);
                    set_if_changed(state.progress, None);
                    state.updated_at.set(Some(js_sys::Date::now()));
                    if first {
                        crate::perf::mark(crate::perf::DATA_READY);
                    }
                    first = false;
                }
                Err(e) => {
                    // Turned away: what was read before may not be shown any more, here or on
                    // the next visit; the last visit's data goes at once.
                    if matches!(e, ApiError::Unauthorized { .. } | ApiError::Forbidden(_)) {
                        super::last_visit::forget();
                        if state.last_visit.get_untracked().is_some() {
                            state.last_visit.set(None);
                            state.stale_since.set(None);
                            state.data.set(None);
                        }
                    }
                    if state.data.with_untracked(Option::is_some)
                        && state.stale_since.with_untracked(Option::is_none)
                    {
                        state.stale_since.set(Some(js_sys::Date::now()));
                    }
                    set_if_changed(state.progress, None);
                    set_if_changed(state.error, Some(e));
                }
            }
            // Without data yet, retry sooner: the user is looking at an error, not a dashboard.
            // Owners still owed from Helm storage (Flux ≤ 2.7, not read on the first load, whose
            // request budget is the dashboard's speed) come a moment after it, not a poll later.
            let wait = if first {
                poll_seconds.min(5)
            } else if cache.helm_owed() {
                poll_seconds.min(OWED_SECONDS)
            } else {
                poll_seconds
            };
            gloo_timers::future::TimeoutFuture::new(wait * 1000).await;
        }
    });
}

impl Cache {
    /// The HelmReleases that keep their inventory in Helm storage.
    fn helm_candidates(&self) -> Vec<ObjectKey> {
        load::helm_storage_candidates(self.objects.values(), usize::MAX)
    }

    /// Whether one of `candidates` has not been read from Helm storage yet.
    fn helm_owed_of(&self, candidates: &[ObjectKey]) -> bool {
        candidates
            .iter()
            .any(|k| !self.helm_read_at.contains_key(k))
    }

    /// Whether a HelmRelease that keeps its inventory in Helm storage has not been read yet.
    fn helm_owed(&self) -> bool {
        self.helm_owed_of(&self.helm_candidates())
    }
}

/// A cluster read the way its dashboard polls it, for a fleet row: the first read whole (the
/// same requests as a dashboard's first load), each later one a poll of what it keeps (#47: the
/// fleet read every cluster cold every minute).
pub struct ClusterReader {
    cache: Cache,
    read: bool,
}

impl ClusterReader {
    /// A reader of the cluster behind `api`, nothing read yet.
    pub fn new(api: Api) -> Self {
        ClusterReader {
            cache: Cache {
                api,
                ..Cache::default()
            },
            read: false,
        }
    }

    /// The cluster, when it changed since the last read (always after the first success);
    /// `None` when a poll found nothing new.
    pub async fn read(&mut self) -> Result<Option<Cluster>, ApiError> {
        let cluster = refresh(&mut self.cache, None, !self.read).await?;
        self.read = true;
        Ok(cluster)
    }
}

/// Sets a signal only when the value differs: an equal set still wakes every subscriber.
fn set_if_changed<T: PartialEq + Send + Sync + 'static>(
    signal: RwSignal<Option<T>>,
    value: Option<T>,
) {
    if signal.with_untracked(|v| *v != value) {
        signal.set(value);
    }
}

fn document_hidden() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.hidden())
}

/// One poll: the new model, or `None` when nothing the model is built from changed (so an
/// unchanged poll at 5,000 objects costs the requests and their decoding, not a rebuild).
/// `state`: the page's, told the progress and the report as they come; `None` for a fleet
/// cluster's read, which only wants the result.
async fn refresh(
    cache: &mut Cache,
    state: Option<&AppState>,
    first: bool,
) -> Result<Option<Cluster>, ApiError> {
    let say = |s: String| {
        if first && let Some(state) = state {
            state.progress.set(Some(s));
        }
    };
    say("report".into());
    let api = cache.api.clone();
    let report = api.report().await?;
    // The real server answers its placeholder report (no namespaces, no counts) when it cannot
    // read the cluster (report.go `ReportHandler`): after a good load that is a degraded
    // server, not an empty cluster. The last data stays, marked stale.
    if let Some(why) = load::partial_load(&report)
        && !cache.objects.is_empty()
    {
        return Err(ApiError::Degraded(why));
    }
    if first && let Some(state) = state {
        // The header's facts do not wait for the objects.
        state.report.set(Some(std::sync::Arc::new(report.clone())));
        // The server has answered this visit (and rewritten its sign-in cookie).
        if state.snapshot.with_untracked(Option::is_none) {
            super::last_visit::restore(*state, true);
        }
    }
    say("resource summaries".into());
    let slice_poll = cache.polls;
    let renew = slice_poll.is_multiple_of(FULL_REFETCH_POLLS);
    let summaries = summaries(cache, &report, renew).await?;
    cache.polls += 1;
    if renew {
        cache.confirmations.clear();
    }
    // Equal lists (the usual poll) need no keyed diff of thousands of rows.
    let (changed, gone) =
        if Arc::ptr_eq(&cache.summaries, &summaries) || cache.summaries == summaries {
            (Vec::new(), Vec::new())
        } else {
            load::diff_summaries(&cache.summaries, &summaries)
        };
    let report_changed = cache.last_report.as_ref() != Some(&report);
    cache.last_report = Some(report.clone());
    let mut dirty = first || renew || report_changed || !changed.is_empty() || !gone.is_empty();
    // Rows vanish only when the report agrees: a kind whose list came back short keeps its
    // objects (stale), never "deleted" (`poll::settle_gone`).
    let now = js_sys::Date::now() as i64;
    let short: Vec<&str> = cache.incomplete.iter().map(|(k, _)| k.as_str()).collect();
    let settled = fluxlens_core::poll::settle_gone(gone, &short);
    for kind in settled.stale_kinds {
        cache.stale_kinds.entry(kind).or_insert(now);
    }
    for k in settled.deleted {
        cache.unreadable.retain(|(u, _)| u != &k);
        cache.objects.remove(&k);
        cache.batch_answers.forget_holding(&k);
    }
    cache
        .stale_kinds
        .retain(|kind, _| short.contains(&kind.as_str()));
    // Which objects this poll reads, in which batches (`poll::plan_reads`).
    let kept = fluxlens_core::poll::Kept {
        objects: &cache.objects,
        unreadable: &cache.unreadable,
        roots: &cache.roots,
    };
    let plan =
        fluxlens_core::poll::plan_reads(&report, &summaries, changed, &kept, slice_poll, renew);
    cache.unreadable.retain(|(k, _)| !plan.asked.contains(k));
    let mut batches = plan.batches;
    // CRD access that failed is asked again (on the first load, then with the renewals).
    let ask_crds = first || (renew && cache.crds == CrdAccess::Unknown);
    let crd_request = load::crd_request(&report).filter(|_| ask_crds);
    // The first load takes what the page's script read before the app started (#28).
    let pre = if first {
        take_prefetched(&api, &mut batches, crd_request.as_ref()).await
    } else {
        Prefetched::default()
    };
    let crd_request = crd_request.filter(|_| pre.crds.is_none());
    let total: usize = batches.iter().map(|b| b.objects.len()).sum();
    // The object batches, the CRDs and the FluxInstance's events do not depend on each other:
    // on a slow link each saved round trip is half a second.
    let prints = &cache.batch_answers;
    let objects = async {
        let mut all = Vec::new();
        let mut done = 0;
        for batch in &batches {
            say(format!("objects {done} of {total}"));
            done += batch.objects.len();
            all.push(fetch_parts(&api, batch, prints).await);
        }
        all
    };
    let crds = async {
        match crd_request {
            // CRDs are optional: any failure means "unknown", never an error for the page.
            Some(req) => Some(match api.inventory_objects(&req).await {
                Ok(r) => load::crd_access(r.objects),
                Err(_) => CrdAccess::Unknown,
            }),
            None => None,
        }
    };
    let instance = summaries
        .iter()
        .find(|s| s.kind == "FluxInstance")
        .map(|s| (s.name.clone(), s.namespace.clone()));
    let events = async {
        // One request for ENT-14 (the operator's OutdatedVersion event); optional.
        match instance.filter(|_| renew) {
            Some((name, ns)) => api
                .events("FluxInstance", &name, &ns)
                .await
                .ok()
                .map(|e| e.events),
            None => None,
        }
    };
    let (parts, crds, events) = futures_util::future::join3(objects, crds, events).await;
    let crds = crds.or(pre.crds);
    let mut last_error = None;
    for p in std::iter::once(pre.parts).chain(parts) {
        let applied = apply_parts(cache, p);
        dirty |= applied.changed;
        if let Some(e) = applied.error {
            last_error = Some(e);
        }
    }
    // Nothing at all came back: an error page beats an empty dashboard.
    if let Some(e) = last_error
        && cache.objects.is_empty()
        && total > 0
    {
        return Err(e);
    }
    if let Some(c) = crds {
        cache.crds = c;
    }
    if let Some(e) = events {
        cache.instance_events = e;
    }
    // Not on the first load (its request budget is the dashboard's speed): from the next poll,
    // 50 a poll until every release has been read once, then again with each renewal.
    if !first {
        helm_storage_inventories(cache, renew || cache.polls == 2).await;
    }
    cache.summaries = summaries;
    let notes = NotesPrint::of(cache);
    dirty |= cache.last_notes.as_ref() != Some(&notes);
    cache.last_notes = Some(notes);
    // Unconfirmed references are asked again every poll, so their poll is never "unchanged".
    if !dirty && cache.last_unconfirmed == 0 {
        return Ok(None);
    }
    let mut cluster = build(report, cache);
    cache.roots = cluster.root_source().into_iter().collect();
    cluster.instance_events = cache.instance_events.clone();
    say("checking references that look missing".into());
    cluster.notes.unconfirmed = confirm(cache, &cluster).await;
    cache.last_unconfirmed = cluster.notes.unconfirmed.len();
    cluster.confirmations = cache.confirmations.clone();
    Ok(Some(cluster))
}

/// What the first load took of the page script's reads.
#[derive(Default)]
struct Prefetched {
    /// The objects, as parts of the load's own batches.
    parts: Vec<Part>,
    /// The CRDs' access, when a read answered the whole CRD request.
    crds: Option<CrdAccess>,
}

/// Takes from the object batches the page's script read (#28) every item the first load would
/// ask for (`load::prefetched::adopt`): `batches` keep only what is still to ask, and a read
/// that answered the whole CRD request spares it. A read that failed or is not JSON is left.
async fn take_prefetched(
    api: &Api,
    batches: &mut Vec<InventoryObjectsRequest>,
    crd_request: Option<&InventoryObjectsRequest>,
) -> Prefetched {
    let mut reads = Vec::new();
    let mut bodies = Vec::new();
    for post in api.prefetched_posts().await {
        let Ok(body) = post.answer else {
            continue;
        };
        let (Ok(request), Ok(response)) = (
            serde_json::from_str::<InventoryObjectsRequest>(&post.body),
            fluxlens_core::error::decode::<InventoryObjectsResponse>(&body.text()),
        ) else {
            continue;
        };
        reads.push(prefetched::Read { request, response });
        bodies.push(body);
    }
    let first = prefetched::adopt_first_load(batches, crd_request, reads);
    *batches = first.objects.still;
    let parts = first
        .objects
        .taken
        .into_iter()
        .map(|t| Part {
            print: request_print(&t.request),
            req: t.request,
            answer: Ok(if t.whole {
                BatchAnswer::Decoded(t.response, bodies[t.from].clone())
            } else {
                BatchAnswer::Partial(t.response)
            }),
        })
        .collect();
    let crds = first.crds.map(load::crd_access);
    Prefetched { parts, crds }
}

/// The confirming read (§0.2), in batches: what the server answers decides "missing"; what it
/// does not answer for (a failed batch, an item not returned, beyond the cap) is returned
/// with why, and stays "not confirmed".
async fn confirm(cache: &mut Cache, cluster: &Cluster) -> Vec<(ObjectKey, String)> {
    let (requests, beyond) = load::confirm_requests(cluster);
    let mut unconfirmed: Vec<(ObjectKey, String)> = beyond
        .into_iter()
        .map(|k| {
            let why = format!(
                "beyond the confirming read's cap of {} references",
                load::CONFIRM_CAP
            );
            (k, why)
        })
        .collect();
    let api = cache.api.clone();
    let answers =
        futures_util::future::join_all(requests.iter().map(|r| api.inventory_objects(r))).await;
    for (req, answer) in requests.iter().zip(answers) {
        match answer {
            Ok(r) => {
                for k in load::not_returned(req, &r.objects) {
                    unconfirmed.push((k, "the server did not answer for it".into()));
                }
                cache.confirmations.extend(load::confirmations(&r.objects));
            }
            Err(e) => unconfirmed.extend(
                load::requested_keys(req)
                    .into_iter()
                    .map(|k| (k, format!("the confirming read failed ({e})"))),
            ),
        }
    }
    unconfirmed
}

/// Owners on Flux ≤ 2.7: a HelmRelease without `status.inventory` keeps it in Helm storage,
/// which only `GET /api/v1/resource` reads (inventory.go `getInventory`). Bounded; a failed
/// read keeps what was read before (owners stay "unknown" rather than flicker).
async fn helm_storage_inventories(cache: &mut Cache, renew: bool) {
    let api = cache.api.clone();
    let candidates = cache.helm_candidates();
    let listed: std::collections::HashSet<&ObjectKey> = candidates.iter().collect();
    cache.helm_inventories.retain(|k, _| listed.contains(k));
    cache.helm_read_at.retain(|k, _| listed.contains(k));
    if !renew && !cache.helm_owed_of(&candidates) {
        return;
    }
    let keys = load::helm_storage_due(&candidates, &cache.helm_read_at, HELM_STORAGE_CAP);
    let poll = cache.polls;
    for k in &keys {
        cache.helm_read_at.insert(k.clone(), poll);
    }
    for chunk in keys.chunks(RELIST_IN_FLIGHT) {
        let reads = futures_util::future::join_all(
            chunk
                .iter()
                .map(|k| api.resource(k.kind.as_str(), &k.name, &k.namespace)),
        )
        .await;
        for (k, read) in chunk.iter().zip(reads) {
            if let Some(inv) = read.ok().and_then(|o| o.status.inventory) {
                cache.helm_inventories.insert(k.clone(), inv);
            }
        }
    }
}

/// One request of a batch read and what it answered.
struct Part {
    req: InventoryObjectsRequest,
    /// The request's fingerprint (the key of `Cache::batch_answers`).
    print: u64,
    answer: Result<BatchAnswer, ApiError>,
}

/// Fetches one batch; on failure retries once as two halves. `known`: the answers applied
/// whole before.
async fn fetch_parts(
    api: &Api,
    batch: &InventoryObjectsRequest,
    known: &AnswerCache<Body>,
) -> Vec<Part> {
    let print = request_print(batch);
    let part = |answer| Part {
        req: batch.clone(),
        print,
        answer,
    };
    match api.inventory_objects_text(batch).await {
        Ok(body) => {
            let same = known.is_same(print, &body);
            vec![part(read_batch(body, same))]
        }
        // Asking again only repeats a 401/403 or an unreadable answer.
        Err(e) if !e.retryable() || batch.objects.len() < 2 => vec![part(Err(e))],
        Err(_) => {
            let mid = batch.objects.len().div_ceil(2);
            let mut out = Vec::new();
            for half in batch.objects.chunks(mid.max(1)) {
                let req = InventoryObjectsRequest {
                    objects: half.to_vec(),
                    status_only: false,
                };
                let answer = api
                    .inventory_objects_text(&req)
                    .await
                    .and_then(|b| read_batch(b, false));
                out.push(Part {
                    print: request_print(&req),
                    req,
                    answer,
                });
            }
            out
        }
    }
}

fn read_batch(body: Body, same: bool) -> Result<BatchAnswer, ApiError> {
    if same {
        return Ok(BatchAnswer::Same);
    }
    fluxlens_core::error::decode(&body.text()).map(|r| BatchAnswer::Decoded(r, body))
}

/// What applying a batch did.
struct Applied {
    /// The last error, if any.
    error: Option<ApiError>,
    /// Whether any object differs from the one kept.
    changed: bool,
}

/// Keeps what a batch returned; what still failed is noted as unreadable instead of
/// discarding the rest of the refresh.
fn apply_parts(cache: &mut Cache, parts: Vec<Part>) -> Applied {
    let mut error = None;
    let mut changed = false;
    for Part {
        req,
        print: req_print,
        answer,
    } in parts
    {
        let (resp, body) = match answer {
            Ok(BatchAnswer::Same) => continue,
            Ok(BatchAnswer::Decoded(resp, body)) => (resp, Some(body)),
            Ok(BatchAnswer::Partial(resp)) => (resp, None),
            Err(e) => {
                for key in load::requested_keys(&req) {
                    cache.unreadable.push((key, format!("Error ({e})")));
                }
                error = Some(e);
                continue;
            }
        };
        let unreadable_before = cache.unreadable.len();
        for k in load::not_returned(&req, &resp.objects) {
            cache.unreadable.push((
                k,
                "not returned: the server answered fewer items than asked".into(),
            ));
        }
        let (objects, failed) = load::split_results(resp.objects);
        for o in objects {
            if let Some(key) = ObjectKey::of(&o)
                && cache.objects.get(&key) != Some(&o)
            {
                changed = true;
                cache.batch_answers.changed_through(req_print, &key);
                cache.objects.insert(key, o);
            }
        }
        cache.unreadable.extend(failed);
        // Only an answer applied whole may be recognised and skipped next time.
        match body {
            Some(body) if cache.unreadable.len() == unreadable_before => {
                let keys = load::requested_keys(&req);
                cache.batch_answers.remember(req_print, keys, body);
            }
            _ => cache.batch_answers.forget(req_print),
        }
    }
    Applied { error, changed }
}

/// Lists every summary; kinds the report counts more of than the list holds are listed again
/// (by kind, then by namespace), at most `RELIST_IN_FLIGHT` at once, with backoff.
async fn summaries(
    cache: &mut Cache,
    report: &FluxReport,
    renew: bool,
) -> Result<Arc<Vec<ResourceSummary>>, ApiError> {
    // An operator before v0.53 leaves notification and image kinds out of the default list:
    // those go by kind, at once (today's server lists every kind: nothing is asked twice).
    let api = cache.api.clone();
    let alone = load::kinds_listed_alone(report);
    let (main, by_kind) = futures_util::future::join(
        api.resources_text("", ""),
        futures_util::future::join_all(alone.iter().map(|k| api.resources(k, ""))),
    )
    .await;
    let main = main?;
    let listed = match cache.main_list.take() {
        Some((last, rows)) if main == last && !renew => {
            // Keep the newer of two equal bodies: it is the one the reader answers "same"
            // with, so the next comparison is one of identity, not of 766 KB (#23).
            cache.main_list = Some((main, rows.clone()));
            rows
        }
        _ => {
            let list: fluxlens_core::api::ResourceList =
                fluxlens_core::error::decode(&main.text())?;
            let rows = Arc::new(list.resources);
            cache.main_list = Some((main, rows.clone()));
            rows
        }
    };
    // One of these failing leaves its kind short (said as such), not the poll failed.
    let extra: Vec<ResourceSummary> = by_kind
        .into_iter()
        .flatten()
        .flat_map(|l| l.resources)
        .collect();
    // The same default list and the same kinds listed alone make the same rows as last time:
    // shared, neither copied nor compared row by row (#23).
    let combined = match &cache.combined {
        Some((l, e, rows)) if Arc::ptr_eq(l, &listed) && *e == extra => rows.clone(),
        _ => {
            // Each object once, however many lists returned it.
            let rows = Arc::new(load::merge_rows(&[listed.as_slice(), extra.as_slice()]));
            cache.combined = Some((listed, extra, rows.clone()));
            rows
        }
    };
    // The rows and the report of the last poll, complete then: complete now (counting 5,000
    // rows by kind is most of an unchanged poll's own work).
    if cache.incomplete.is_empty()
        && Arc::ptr_eq(&combined, &cache.summaries)
        && cache.last_report.as_ref() == Some(report)
    {
        return Ok(combined);
    }
    let mut incomplete = load::incomplete_kinds(report, &combined);
    if incomplete.is_empty() {
        cache.incomplete = incomplete;
        return Ok(combined);
    }
    let mut rows: Vec<ResourceSummary> = combined.as_ref().clone();
    let poll = cache.polls;
    for (kind, _) in &incomplete {
        let (next, wait) = cache.backoff.get(kind).copied().unwrap_or((0, 1));
        let fresh = if poll >= next {
            // Only the namespaces that held the kind's rows, unless a full sweep is due; a
            // short answer from those is followed by the sweep at once.
            let held = cache.relisted.get(kind).map(Vec::as_slice);
            let sweep = held.is_none() || poll.is_multiple_of(SWEEP_POLLS);
            let mut found = relist(
                &api,
                kind,
                report,
                &load::relist_namespaces(report, held, sweep),
            )
            .await?;
            if !sweep && found.len() < expected_rows(report, kind) {
                let all = load::relist_namespaces(report, None, true);
                found = relist(&api, kind, report, &all).await?;
            }
            let wait = if found.len() >= expected_rows(report, kind) {
                1
            } else {
                (wait * 2).min(RELIST_MAX_WAIT)
            };
            cache.backoff.insert(kind.clone(), (poll + wait, wait));
            cache.relisted.insert(kind.clone(), found.clone());
            found
        } else {
            cache.relisted.get(kind).cloned().unwrap_or_default()
        };
        let have = rows.iter().filter(|r| &r.kind == kind).count();
        if fresh.len() > have {
            // This poll's rows stay; a relisted row only adds what they lack (rows relisted
            // polls ago, kept through the backoff, replaced live ones, #47).
            rows = load::merge_rows(&[rows.as_slice(), fresh.as_slice()]);
        }
    }
    incomplete = load::incomplete_kinds(report, &rows);
    cache.incomplete = incomplete;
    Ok(Arc::new(rows))
}

fn expected_rows(report: &FluxReport, kind: &str) -> usize {
    report
        .stats_for(kind)
        .map_or(0, |r| r.stats.total() as usize)
}

/// One kind again: by kind first (its own per-kind cap), then in `namespaces` one by one.
async fn relist(
    api: &Api,
    kind: &str,
    report: &FluxReport,
    namespaces: &[String],
) -> Result<Vec<ResourceSummary>, ApiError> {
    let by_kind = api.resources(kind, "").await?.resources;
    if by_kind.len() >= expected_rows(report, kind) || namespaces.is_empty() {
        return Ok(by_kind);
    }
    let mut rows = Vec::new();
    for chunk in namespaces.chunks(RELIST_IN_FLIGHT) {
        let lists =
            futures_util::future::join_all(chunk.iter().map(|ns| api.resources(kind, ns))).await;
        // One namespace failing leaves the kind incomplete (its count says so); it does
        // not fail the poll.
        for l in lists.into_iter().flatten() {
            rows.extend(l.resources);
        }
    }
    Ok(if rows.len() > by_kind.len() {
        rows
    } else {
        by_kind
    })
}

fn build(report: FluxReport, cache: &Cache) -> Cluster {
    let partial = load::partial_load(&report);
    let objects = cache
        .objects
        .iter()
        .map(|(k, o)| load::with_helm_inventory(o.clone(), cache.helm_inventories.get(k)));
    let mut cluster = Cluster::new(report, objects, cache.crds.clone());
    let incomplete_kinds = cache
        .incomplete
        .iter()
        .map(|(kind, why)| match cache.stale_kinds.get(kind) {
            Some(since) => (
                kind.clone(),
                format!(
                    "{why}; showing the objects last read, stale since {}",
                    crate::clock::clock(*since as f64)
                ),
            ),
            None => (kind.clone(), why.clone()),
        })
        .collect();
    cluster.notes = LoadNotes {
        incomplete_kinds,
        partial,
        unreadable: cache.unreadable.clone(),
        unconfirmed: vec![],
        captured_at_ms: Some(js_sys::Date::now() as i64),
    };
    cluster.confirmations = cache.confirmations.clone();
    cluster
}
