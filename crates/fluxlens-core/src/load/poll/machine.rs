//! The poller as a state machine without I/O (#47): it plans each wave of requests and applies
//! the answers — first load, steady polls, faults, a degraded server and the recovery. The app
//! only sends what it asks (its one HTTP door); tests answer it natively, with the simulator.

use super::memory::{BatchAnswer, Memory, Part, list_print, request_print};
use super::relist::{RELIST_IN_FLIGHT, Relists};
use super::wire::{Answer, PageRead, Request, Step, Text, Wave};
use super::{Kept, plan_reads};
use crate::load::{self, BATCHES_IN_FLIGHT, prefetched};
use crate::model::{Cluster, CrdAccess, ObjectKey};
use crate::wire::error::{ApiError, decode};
use crate::wire::events::EventList;
use crate::wire::inventory::{InventoryObjectsRequest, InventoryObjectsResponse};
use crate::wire::kind::Kind;
use crate::wire::object::ApiObject;
use crate::wire::report::FluxReport;
use crate::wire::resources::{ResourceList, ResourceSummary};
use std::sync::Arc;

/// Seconds to the next poll while HelmRelease owners are still owed from Helm storage.
pub const OWED_SECONDS: u32 = 2;
/// Seconds to the next try while nothing has loaded yet (the user is looking at an error).
pub const FIRST_RETRY_SECONDS: u32 = 5;
/// HelmReleases whose inventory is read from Helm storage per poll, at most (one GET each).
pub const HELM_STORAGE_CAP: usize = 50;
/// Confirmations (a `dependsOn` target outside the lists, a reference outside the user's
/// namespaces) and the other renewals are renewed at least this often, whatever the interval.
pub const RENEW_MS: i64 = 5 * 60 * 1000;

/// Where a poll is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    Report,
    Lists,
    Relist,
    PageReads,
    Objects,
    Halves,
    Helm,
    Confirm,
    Recheck,
}

/// One poll under way.
struct Poll<B> {
    phase: Phase,
    now_ms: i64,
    first: bool,
    report: FluxReport,
    /// The poll's number before it counted itself (the rolling re-read's slice).
    slice: u32,
    /// The renewal poll: the default list decoded afresh, confirmations, CRDs and events renewed.
    renew: bool,
    rows: Arc<Vec<ResourceSummary>>,
    incomplete: Vec<(String, String)>,
    relists: Relists,
    dirty: bool,
    batches: Vec<InventoryObjectsRequest>,
    crd_request: Option<InventoryObjectsRequest>,
    /// The first load's CRD request, sent with the confirming read once the view is shown: on
    /// a real cluster the CRDs' schemas make them the largest read of all (#51).
    crds_after_view: Option<InventoryObjectsRequest>,
    events_of: Option<ObjectKey>,
    total: usize,
    parts: Vec<Part<B>>,
    halves: Vec<InventoryObjectsRequest>,
    crds: Option<CrdAccess>,
    events: Option<Vec<crate::wire::events::Event>>,
    helm_keys: Vec<ObjectKey>,
    cluster: Option<Cluster>,
    confirm: Vec<InventoryObjectsRequest>,
    unconfirmed: Vec<(ObjectKey, String)>,
    /// On a renewal, the answers it renews: kept for a reference whose renewal fails.
    renewed_from: std::collections::BTreeMap<ObjectKey, crate::model::Answer>,
    /// The server's "does not exist" answers asked again this poll (`None`: not yet): the
    /// requests as sent, which their answers are read against.
    recheck: Option<Vec<InventoryObjectsRequest>>,
}

impl<B> Poll<B> {
    /// A poll at `now_ms` (`slice`: the polls made before it) with nothing asked or read yet.
    fn quiet(now_ms: i64, slice: u32) -> Poll<B> {
        Poll {
            phase: Phase::Report,
            now_ms,
            first: false,
            report: FluxReport::default(),
            slice,
            renew: false,
            rows: Arc::default(),
            incomplete: Vec::new(),
            relists: Relists::default(),
            dirty: false,
            batches: Vec::new(),
            crd_request: None,
            crds_after_view: None,
            events_of: None,
            total: 0,
            parts: Vec::new(),
            halves: Vec::new(),
            crds: None,
            events: None,
            helm_keys: Vec::new(),
            cluster: None,
            confirm: Vec::new(),
            unconfirmed: Vec::new(),
            renewed_from: Default::default(),
            recheck: None,
        }
    }
}

/// Polls one cluster: [`Poller::begin`] a poll, then answer each [`Step::Ask`] until
/// [`Step::Done`]. Everything kept between polls is its one cache.
pub struct Poller<B> {
    memory: Memory<B>,
    loaded: bool,
    poll: Option<Box<Poll<B>>>,
    first_report: Option<FluxReport>,
    clock: Clock,
}

/// When the poller last did what, on the page's clock.
#[derive(Debug, Default)]
struct Clock {
    /// The interval between full polls the page asked for ([`Poller::wait_seconds`]).
    interval_ms: i64,
    /// The last poll's start, full or not.
    begun_ms: Option<i64>,
    /// The last full poll's start (report, lists, objects).
    full_ms: Option<i64>,
    /// The last renewal's start.
    renewed_ms: i64,
}

impl Clock {
    /// Whether a poll starting at `now_ms` renews: every [`load::REREAD_POLLS`] polls, at least
    /// every [`RENEW_MS`], and at once after a gap of two intervals (a hidden tab polls none:
    /// what it confirmed before may be hours old).
    fn renews(&self, polls: u32, now_ms: i64) -> bool {
        let gap = self.begun_ms.map_or(0, |t| now_ms - t);
        polls.is_multiple_of(load::REREAD_POLLS)
            || now_ms - self.renewed_ms >= RENEW_MS
            || (self.interval_ms > 0 && gap > 2 * self.interval_ms)
    }
}

impl<B> Default for Poller<B> {
    fn default() -> Self {
        Poller {
            memory: Memory::default(),
            loaded: false,
            poll: None,
            first_report: None,
            clock: Clock::default(),
        }
    }
}

impl<B: Text> Poller<B> {
    /// Whether a poll has succeeded (the next is a steady poll, not the first load).
    pub fn loaded(&self) -> bool {
        self.loaded
    }

    /// The polls made so far.
    pub fn polls(&self) -> u32 {
        self.memory.polls
    }

    /// The first load's report, once, as soon as it is read (the header's facts do not wait
    /// for the objects).
    pub fn take_first_report(&mut self) -> Option<FluxReport> {
        self.first_report.take()
    }

    /// Seconds to wait before the next poll, for an interval of `poll_seconds` between full
    /// polls: sooner while nothing has loaded, and while HelmRelease owners are still owed
    /// from Helm storage (not read on the first load, whose request budget is the dashboard's
    /// speed) — those early polls read Helm storage only ([`Poller::begin`]).
    pub fn wait_seconds(&mut self, poll_seconds: u32) -> u32 {
        self.clock.interval_ms = i64::from(poll_seconds) * 1000;
        if !self.loaded {
            poll_seconds.min(FIRST_RETRY_SECONDS)
        } else if self.memory.helm_owed_of(&self.memory.helm_candidates()) {
            poll_seconds.min(OWED_SECONDS)
        } else {
            poll_seconds
        }
    }

    /// Starts a poll at `now_ms` (a poll under way is dropped). Before the interval since the
    /// last full poll has run out, while Helm-storage owners are owed, the poll reads those
    /// only: a full poll every 2 s until 1,000 releases are read was ~20 full polls in a page's
    /// first minute.
    pub fn begin(&mut self, now_ms: i64) -> Step {
        let first = !self.loaded;
        let renew = self.clock.renews(self.memory.polls, now_ms);
        let owed_only = !first
            && !renew
            && self
                .clock
                .full_ms
                .is_some_and(|t| now_ms - t < self.clock.interval_ms)
            && self.memory.helm_owed_of(&self.memory.helm_candidates());
        self.clock.begun_ms = Some(now_ms);
        if owed_only {
            return self.helm_only(now_ms);
        }
        self.clock.full_ms = Some(now_ms);
        if renew {
            self.clock.renewed_ms = now_ms;
        }
        let mut p = Poll::quiet(now_ms, self.memory.polls);
        p.first = first;
        p.renew = renew;
        p.dirty = first;
        self.poll = Some(Box::new(p));
        ask(first, "report", vec![Request::Report], 1)
    }

    /// A poll that reads owed Helm-storage owners only, on the last full poll's report and rows.
    fn helm_only(&mut self, now_ms: i64) -> Step {
        let m = &mut self.memory;
        let candidates = m.helm_candidates();
        let keys = load::helm_storage_due(&candidates, &m.helm_read_at, HELM_STORAGE_CAP);
        for k in &keys {
            m.helm_read_at.insert(k.clone(), m.polls);
        }
        let mut p = Box::new(Poll::quiet(now_ms, m.polls));
        p.report = m.last_report.clone().unwrap_or_default();
        p.rows = m.summaries.clone();
        p.helm_keys = keys;
        p.phase = Phase::Helm;
        let requests = p.helm_keys.iter().cloned().map(Request::Resource).collect();
        self.poll = Some(p);
        ask(false, "", requests, RELIST_IN_FLIGHT)
    }

    /// Takes the answers to the last [`Step::Ask`], in its requests' order.
    pub fn answer(&mut self, answers: Vec<Answer<B>>) -> Step {
        let Some(mut p) = self.poll.take() else {
            return Step::Done(Err(ApiError::Network("no poll under way".into())));
        };
        let step = match p.phase {
            Phase::Report => self.on_report(&mut p, answers),
            Phase::Lists => self.on_lists(&mut p, answers),
            Phase::Relist => self.on_relist(&mut p, answers),
            Phase::Objects => self.on_objects(&mut p, answers),
            Phase::Halves => self.on_halves(&mut p, answers),
            Phase::Helm => self.on_helm(&mut p, answers),
            Phase::Confirm => self.on_confirm(&mut p, answers),
            Phase::Recheck => self.on_recheck(&mut p, answers),
            Phase::PageReads => self.objects_wave(&mut p),
        };
        self.settle(p, step)
    }

    /// Takes the object batches the page's script read before the app started (#28): every
    /// item the first load would ask for is taken from them (`load::prefetched`), the rest is
    /// asked. A read that failed or is not JSON is left.
    pub fn page_reads(&mut self, reads: Vec<PageRead<B>>) -> Step {
        let Some(mut p) = self.poll.take() else {
            return Step::Done(Err(ApiError::Network("no poll under way".into())));
        };
        let mut taken = Vec::new();
        let mut bodies = Vec::new();
        for read in reads {
            let Ok(body) = read.answer else { continue };
            let (Ok(request), Ok(response)) = (
                serde_json::from_str::<InventoryObjectsRequest>(&read.body),
                decode::<InventoryObjectsResponse>(&body.text()),
            ) else {
                continue;
            };
            taken.push(prefetched::Read { request, response });
            bodies.push(body);
        }
        // The first load reads the CRDs after its view, so the page's reads hold only objects.
        let adopted = prefetched::adopt(&p.batches, taken);
        p.batches = adopted.still;
        p.parts = adopted
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
        let step = self.objects_wave(&mut p);
        self.settle(p, step)
    }

    /// Keeps the poll while it asks; ends it when done.
    fn settle(&mut self, p: Box<Poll<B>>, step: Step) -> Step {
        match &step {
            Step::Done(Ok(_)) => self.loaded = true,
            Step::Done(Err(_)) => {}
            Step::Ask(_) | Step::PageReads => self.poll = Some(p),
        }
        step
    }

    fn on_report(&mut self, p: &mut Poll<B>, answers: Vec<Answer<B>>) -> Step {
        let report: FluxReport = match only(answers).and_then(|b| decode(&b.text())) {
            Ok(r) => r,
            Err(e) => return Step::Done(Err(e)),
        };
        // The server answers its placeholder report (no counts) when it cannot read the
        // cluster (report.go `ReportHandler`), or caches a half-computed one: after a good load
        // that is a degraded server, not an empty cluster. The last data stays, stale.
        if let Some(why) = load::partial_load(&report)
            && !self.memory.objects.is_empty()
        {
            return Step::Done(Err(ApiError::Degraded(why)));
        }
        if p.first {
            self.first_report = Some(report.clone());
        }
        // An operator before v0.53 leaves notification and image kinds out of the default
        // list: those go by kind, at once (today's server lists every kind).
        let mut requests = vec![Request::default_list()];
        requests.extend(
            load::kinds_listed_alone(&report)
                .into_iter()
                .map(|kind| Request::List {
                    kind,
                    namespace: String::new(),
                }),
        );
        p.report = report;
        p.phase = Phase::Lists;
        let n = requests.len();
        ask(p.first, "resource summaries", requests, n)
    }

    fn on_lists(&mut self, p: &mut Poll<B>, answers: Vec<Answer<B>>) -> Step {
        let mut answers = answers.into_iter();
        let main = match answers.next().unwrap_or(Err(no_answer())) {
            Ok(b) => b,
            Err(e) => return Step::Done(Err(e)),
        };
        let m = &mut self.memory;
        let print = list_print("", "");
        let same = !p.renew && m.answers.is_same(print, &main);
        if !same {
            match decode::<ResourceList>(&main.text()) {
                Ok(list) => m.listed = Arc::new(list.resources),
                Err(e) => return Step::Done(Err(e)),
            }
        }
        // The newer of two equal bodies is kept: the browser's reader answers "same" with it,
        // so the next comparison is one of identity (#23).
        m.answers.remember(print, [], main);
        // One of these failing leaves its kind short (said as such), not the poll failed.
        let alone: Vec<ResourceSummary> = answers
            .filter_map(|a| a.ok())
            .filter_map(|b| decode::<ResourceList>(&b.text()).ok())
            .flat_map(|l| l.resources)
            .collect();
        if !same || m.alone != alone {
            m.combined = Arc::new(load::merge_rows(&[m.listed.as_slice(), alone.as_slice()]));
            m.alone = alone;
        }
        p.rows = m.combined.clone();
        // The rows and the report of the last poll, complete then: complete now (counting
        // 5,000 rows by kind is most of an unchanged poll's own work).
        let unchanged = m.incomplete.is_empty()
            && Arc::ptr_eq(&p.rows, &m.summaries)
            && m.last_report.as_ref() == Some(&p.report);
        p.incomplete = if unchanged {
            Vec::new()
        } else {
            load::incomplete_kinds(&p.report, &p.rows)
        };
        if p.incomplete.is_empty() {
            m.incomplete = Vec::new();
            return self.rows_read(p);
        }
        p.relists = Relists::due(
            &p.report,
            &p.incomplete,
            &p.rows,
            &m.backoff,
            &m.relisted,
            m.polls,
        );
        self.relist_wave(p)
    }

    fn relist_wave(&mut self, p: &mut Poll<B>) -> Step {
        let requests = p.relists.requests();
        if requests.is_empty() {
            let relists = std::mem::take(&mut p.relists);
            let m = &mut self.memory;
            relists.finish(m.polls, &mut m.backoff, &mut m.relisted);
            self.merge_relisted(p);
            return self.rows_read(p);
        }
        p.phase = Phase::Relist;
        ask(p.first, "resource summaries", requests, RELIST_IN_FLIGHT)
    }

    fn on_relist(&mut self, p: &mut Poll<B>, answers: Vec<Answer<B>>) -> Step {
        if let Err(e) = p.relists.answer(&p.report, answers) {
            return Step::Done(Err(e));
        }
        self.relist_wave(p)
    }

    /// This poll's rows and what the re-lists found: a relisted row only adds what they lack
    /// (rows relisted polls ago, kept through the backoff, replaced live ones, #47).
    fn merge_relisted(&mut self, p: &mut Poll<B>) {
        let m = &mut self.memory;
        let mut rows: Vec<ResourceSummary> = p.rows.as_ref().clone();
        for (kind, _) in &p.incomplete {
            let fresh = m.relisted.get(kind).map(Vec::as_slice).unwrap_or_default();
            let have = rows.iter().filter(|r| &r.kind == kind).count();
            if fresh.len() > have {
                rows = load::merge_rows(&[rows.as_slice(), fresh]);
            }
        }
        m.incomplete = load::incomplete_kinds(&p.report, &rows);
        // A kind put together from lists by namespace is whole only when it has as many rows
        // as the report counts: one of those lists may have failed without a word (a
        // Forbidden namespace, resources.go `GetLiveResources`), which the default list's
        // all-or-nothing rule cannot tell.
        for (kind, _) in &p.incomplete {
            let got = rows.iter().filter(|r| &r.kind == kind).count();
            let expected = super::relist::expected_rows(&p.report, kind);
            if got < expected && !m.incomplete.iter().any(|(k, _)| k == kind) {
                let why = format!(
                    "listed {got} of {expected} the report counts, by namespace: a List the server could not run is left out without an error"
                );
                m.incomplete.push((kind.clone(), why));
            }
        }
        p.rows = Arc::new(rows);
    }

    /// The rows are read: settles what left the list and plans the object reads.
    fn rows_read(&mut self, p: &mut Poll<B>) -> Step {
        let m = &mut self.memory;
        m.polls += 1;
        if p.renew {
            p.renewed_from = std::mem::take(&mut m.confirmations);
            m.kept_answers.clear();
            m.absent.clear();
        }
        // Equal lists (the usual poll) need no keyed diff of thousands of rows.
        let (changed, gone) = if Arc::ptr_eq(&m.summaries, &p.rows) || m.summaries == p.rows {
            (Vec::new(), Vec::new())
        } else {
            load::diff_summaries(&m.summaries, &p.rows)
        };
        let report_changed = m.last_report.as_ref() != Some(&p.report);
        m.last_report = Some(p.report.clone());
        p.dirty |= p.renew || report_changed || !changed.is_empty() || !gone.is_empty();
        // A row that left the list is asked for in this poll (plan_reads); only the server's
        // NotFound deletes its object (`settle_vanished`). A row back in the list ends that.
        m.vanished.extend(gone);
        if !m.vanished.is_empty() {
            let listed: std::collections::HashSet<ObjectKey> =
                p.rows.iter().map(load::summary_key).collect();
            m.vanished.retain(|k| !listed.contains(k));
        }
        let kept = Kept {
            objects: &m.objects,
            unreadable: &m.unreadable,
            roots: &m.roots,
            vanished: &m.vanished,
        };
        let plan = plan_reads(&p.report, &p.rows, changed, &kept, p.slice, p.renew);
        m.unreadable.retain(|(k, _)| !plan.asked.contains(k));
        p.batches = plan.batches;
        // CRD access that failed is asked again (on the first load, then with the renewals).
        let ask_crds = p.first || (p.renew && m.crds == CrdAccess::Unknown);
        p.crd_request = load::crd_request(&p.report).filter(|_| ask_crds);
        if p.first {
            p.crds_after_view = p.crd_request.take();
        }
        // One request for ENT-14 (the operator's OutdatedVersion event); optional.
        p.events_of = p
            .rows
            .iter()
            .find(|s| s.kind == "FluxInstance")
            .filter(|_| p.renew)
            .map(|s| ObjectKey::new(Kind::FluxInstance, s.namespace.clone(), s.name.clone()));
        if p.first {
            p.phase = Phase::PageReads;
            return Step::PageReads;
        }
        self.objects_wave(p)
    }

    /// The object batches, the CRDs and the FluxInstance's events: they do not depend on each
    /// other, so they go together (on a slow link each saved round trip is half a second).
    fn objects_wave(&mut self, p: &mut Poll<B>) -> Step {
        p.total = p.batches.iter().map(|b| b.objects.len()).sum();
        let mut requests: Vec<Request> = p
            .crd_request
            .iter()
            .cloned()
            .map(Request::Objects)
            .collect();
        requests.extend(p.events_of.iter().cloned().map(Request::Events));
        let sides = requests.len();
        requests.extend(p.batches.iter().cloned().map(Request::Objects));
        if requests.is_empty() {
            return self.objects_read(p);
        }
        p.phase = Phase::Objects;
        let mut wave = ask_wave(p.first, "objects", requests, sides + BATCHES_IN_FLIGHT);
        wave.progress = wave.progress_with(0);
        Step::Ask(wave)
    }

    fn on_objects(&mut self, p: &mut Poll<B>, answers: Vec<Answer<B>>) -> Step {
        let mut answers = answers.into_iter();
        if p.crd_request.is_some() {
            // CRDs are optional: any failure means "unknown", never an error for the page.
            let read =
                next(&mut answers).and_then(|b| decode::<InventoryObjectsResponse>(&b.text()));
            p.crds = Some(read.map_or(CrdAccess::Unknown, |r| load::crd_access(r.objects)));
        }
        if p.events_of.is_some() {
            let read = next(&mut answers).and_then(|b| decode::<EventList>(&b.text()));
            p.events = read.ok().map(|e| e.events);
        }
        let batches = std::mem::take(&mut p.batches);
        for (req, answer) in batches.into_iter().zip(answers) {
            let print = request_print(&req);
            let answer = match answer {
                Ok(body) if self.memory.answers.is_same(print, &body) => Ok(BatchAnswer::Same),
                Ok(body) => decode(&body.text()).map(|r| BatchAnswer::Decoded(r, body)),
                // Asking again only repeats a 401/403 or an unreadable answer; a batch that
                // failed otherwise is asked again once, as two halves.
                Err(e) if e.retryable() && req.objects.len() >= 2 => {
                    let mid = req.objects.len().div_ceil(2);
                    p.halves
                        .extend(req.objects.chunks(mid).map(|half| InventoryObjectsRequest {
                            objects: half.to_vec(),
                            status_only: false,
                        }));
                    continue;
                }
                Err(e) => Err(e),
            };
            p.parts.push(Part { req, print, answer });
        }
        if p.halves.is_empty() {
            return self.objects_read(p);
        }
        p.phase = Phase::Halves;
        let requests = p.halves.iter().cloned().map(Request::Objects).collect();
        ask(p.first, "objects", requests, BATCHES_IN_FLIGHT)
    }

    fn on_halves(&mut self, p: &mut Poll<B>, answers: Vec<Answer<B>>) -> Step {
        for (req, answer) in std::mem::take(&mut p.halves).into_iter().zip(answers) {
            let answer =
                answer.and_then(|body| decode(&body.text()).map(|r| BatchAnswer::Decoded(r, body)));
            p.parts.push(Part {
                print: request_print(&req),
                req,
                answer,
            });
        }
        self.objects_read(p)
    }

    /// Applies what the batches answered, then reads owners from Helm storage when due.
    fn objects_read(&mut self, p: &mut Poll<B>) -> Step {
        let m = &mut self.memory;
        let (changed, error) = m.apply(std::mem::take(&mut p.parts));
        p.dirty |= changed;
        p.dirty |= m.settle_vanished(p.now_ms);
        // Nothing at all came back: an error page beats an empty dashboard.
        if let Some(e) = error
            && m.objects.is_empty()
            && p.total > 0
        {
            return Step::Done(Err(e));
        }
        if let Some(c) = p.crds.take() {
            m.crds = c;
        }
        if let Some(e) = p.events.take() {
            m.instance_events = e;
        }
        // Not on the first load: from the next poll, 50 a poll until every release has been
        // read once, then again with each renewal.
        if !p.first {
            let candidates = m.helm_candidates();
            let listed: std::collections::HashSet<&ObjectKey> = candidates.iter().collect();
            m.helm_inventories.retain(|k, _| listed.contains(k));
            m.helm_read_at.retain(|k, _| listed.contains(k));
            if p.renew || m.polls == 2 || m.helm_owed_of(&candidates) {
                p.helm_keys =
                    load::helm_storage_due(&candidates, &m.helm_read_at, HELM_STORAGE_CAP);
                for k in &p.helm_keys {
                    m.helm_read_at.insert(k.clone(), m.polls);
                }
            }
        }
        if p.helm_keys.is_empty() {
            return self.finish(p);
        }
        p.phase = Phase::Helm;
        let requests = p.helm_keys.iter().cloned().map(Request::Resource).collect();
        ask(false, "", requests, RELIST_IN_FLIGHT)
    }

    /// Owners on Flux ≤ 2.7: a HelmRelease without `status.inventory` keeps it in Helm
    /// storage, which only the single-object GET reads (inventory.go `getInventory`). A failed
    /// read keeps what was read before (owners stay "unknown" rather than flicker).
    fn on_helm(&mut self, p: &mut Poll<B>, answers: Vec<Answer<B>>) -> Step {
        for (k, answer) in std::mem::take(&mut p.helm_keys).into_iter().zip(answers) {
            let read = answer.and_then(|b| decode::<ApiObject>(&b.text()));
            if let Some(inv) = read.ok().and_then(|o| o.status.inventory) {
                self.memory.helm_inventories.insert(k, inv);
            }
        }
        self.finish(p)
    }

    /// Builds the model when anything it is built from changed, then confirms the references
    /// that look missing (§0.2).
    fn finish(&mut self, p: &mut Poll<B>) -> Step {
        // "Does not exist" is said only while it is true: every NotFound the server gave is
        // asked again each poll (one small status-only read), not only at the renewal — a
        // `dependsOn` target created after its NotFound read "does not exist" for 5 minutes.
        if p.recheck.is_none() && !p.renew && !p.first && !self.memory.absent.is_empty() {
            let refs: Vec<_> = self.memory.absent.values().cloned().collect();
            let batches: Vec<InventoryObjectsRequest> = refs
                .chunks(load::BATCH_SIZE)
                .map(|c| InventoryObjectsRequest {
                    objects: c.to_vec(),
                    status_only: true,
                })
                .collect();
            let requests = batches.iter().cloned().map(Request::Objects).collect();
            p.recheck = Some(batches);
            p.phase = Phase::Recheck;
            return ask(false, "", requests, BATCHES_IN_FLIGHT);
        }
        let m = &mut self.memory;
        m.summaries = p.rows.clone();
        let notes = m.notes_print();
        p.dirty |= m.last_notes.as_ref() != Some(&notes);
        m.last_notes = Some(notes);
        // Unconfirmed references are asked again every poll, so their poll is never "unchanged".
        if !p.dirty && m.last_unconfirmed == 0 {
            return Step::Done(Ok(None));
        }
        let cluster = m.build(p.report.clone(), p.now_ms);
        m.roots = cluster.root_source().into_iter().collect();
        let (requests, beyond) = load::confirm_requests(&cluster);
        let why = format!(
            "beyond the confirming read's cap of {} references",
            load::CONFIRM_CAP
        );
        p.unconfirmed = beyond.into_iter().map(|k| (k, why.clone())).collect();
        p.cluster = Some(cluster);
        p.confirm = requests;
        if p.confirm.is_empty() && p.crds_after_view.is_none() {
            return self.on_confirm(p, Vec::new());
        }
        p.phase = Phase::Confirm;
        let requests: Vec<Request> = p
            .confirm
            .iter()
            .chain(&p.crds_after_view)
            .cloned()
            .map(Request::Objects)
            .collect();
        let n = requests.len();
        let mut wave = ask_wave(
            p.first,
            "checking references that look missing",
            requests,
            n,
        );
        if p.first {
            // The view is shown meanwhile: its "confirming…" and "reading the Flux CRDs…" say
            // what is under way, in place (a notice above the view would push it down and back).
            wave.preview = p.cluster.as_ref().map(|c| Box::new(confirming(c, p)));
            wave.progress = None;
        }
        Step::Ask(wave)
    }

    /// What the server answers decides "missing"; what it does not answer for (a failed
    /// batch, an item not returned, beyond the cap) stays "not confirmed", with why.
    fn on_confirm(&mut self, p: &mut Poll<B>, answers: Vec<Answer<B>>) -> Step {
        let m = &mut self.memory;
        let mut answers = answers.into_iter();
        for (req, answer) in p.confirm.iter().zip(answers.by_ref()) {
            match answer.and_then(|b| decode::<InventoryObjectsResponse>(&b.text())) {
                Ok(r) => {
                    for k in load::not_returned(req, &r.objects) {
                        p.unconfirmed
                            .push((k, "the server did not answer for it".into()));
                    }
                    m.confirmations.extend(load::confirmations(&r.objects));
                    m.note_absent(req, &r.objects);
                }
                Err(e) => {
                    let why = format!("the confirming read failed ({e})");
                    for k in load::requested_keys(req) {
                        // Over a watch: a renewal that fails does not take back what the server
                        // said before (a confirmed deadlock does not vanish on a 504); it stands,
                        // said to be the last answer, until a renewal answers again.
                        match p.renewed_from.get(&k) {
                            Some(last) => {
                                m.confirmations.insert(k.clone(), last.clone());
                                m.kept_answers.push((k, why.clone()));
                            }
                            None => p.unconfirmed.push((k, why.clone())),
                        }
                    }
                }
            }
        }
        if p.crds_after_view.take().is_some() {
            // Optional, as with the objects: a failure is "unknown", asked again at a renewal.
            let read =
                next(&mut answers).and_then(|b| decode::<InventoryObjectsResponse>(&b.text()));
            m.crds = read.map_or(CrdAccess::Unknown, |r| load::crd_access(r.objects));
            // The model shown at last is built with them: the next poll compares with that.
            m.last_notes = Some(m.notes_print());
        }
        let Some(mut cluster) = p.cluster.take() else {
            return Step::Done(Ok(None));
        };
        cluster.crds = m.crds.clone();
        cluster.notes.unconfirmed = std::mem::take(&mut p.unconfirmed);
        m.last_unconfirmed = cluster.notes.unconfirmed.len();
        cluster.confirmations = m.confirmations.clone();
        cluster.notes.kept_answers = m.kept_answers.clone();
        Step::Done(Ok(Some(Box::new(cluster))))
    }
}

impl<B: Text> Poller<B> {
    /// The NotFound answers asked again: one that changed makes the poll rebuild the model; a
    /// read that failed leaves them as they were (asked again next poll).
    fn on_recheck(&mut self, p: &mut Poll<B>, answers: Vec<Answer<B>>) -> Step {
        let m = &mut self.memory;
        // Taken, not cleared: `Some` says the recheck is done for this poll.
        let asked = p.recheck.replace(Vec::new()).unwrap_or_default();
        for (req, answer) in asked.iter().zip(answers) {
            if let Ok(r) = answer.and_then(|b| decode::<InventoryObjectsResponse>(&b.text())) {
                for (k, answer) in load::confirmations(&r.objects) {
                    if m.confirmations.get(&k) != Some(&answer) {
                        p.dirty = true;
                        m.confirmations.insert(k, answer);
                    }
                }
                m.note_absent(req, &r.objects);
            }
        }
        self.finish(p)
    }
}

/// The model as it stands before the confirming read answers: every reference it asks about
/// pending, so nothing is called missing before the server has said so.
fn confirming<B>(cluster: &Cluster, p: &Poll<B>) -> Cluster {
    let mut shown = cluster.clone();
    let mut pending = p.unconfirmed.clone();
    for req in &p.confirm {
        pending.extend(
            load::requested_keys(req)
                .into_iter()
                .map(|k| (k, crate::model::CONFIRMING.to_string())),
        );
    }
    shown.notes.unconfirmed = pending;
    if p.crds_after_view.is_some() {
        shown.crds = CrdAccess::Reading;
    }
    shown
}

/// A wave of `requests`, said on the first load as `progress`.
fn ask_wave(first: bool, progress: &str, requests: Vec<Request>, in_flight: usize) -> Wave {
    Wave {
        requests,
        in_flight: in_flight.max(1),
        progress: (first && !progress.is_empty()).then(|| progress.to_string()),
        preview: None,
    }
}

fn ask(first: bool, progress: &str, requests: Vec<Request>, in_flight: usize) -> Step {
    Step::Ask(ask_wave(first, progress, requests, in_flight))
}

fn no_answer() -> ApiError {
    ApiError::Network("no answer was given for this request".into())
}

fn next<B>(answers: &mut impl Iterator<Item = Answer<B>>) -> Answer<B> {
    answers.next().unwrap_or(Err(no_answer()))
}

fn only<B>(answers: Vec<Answer<B>>) -> Answer<B> {
    next(&mut answers.into_iter())
}
