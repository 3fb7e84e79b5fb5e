//! Runs core's poller (`fluxlens_core::load::poll::Poller`, where every decision is made and tested
//! natively) against the cluster's API: sends each wave of requests it asks for, a few at a
//! time, and hands it the answers; then tells the page what the poll found. Polls every
//! interval while the tab is visible; on error, or when the server degrades, the last good
//! state stays and the page says "stale since".

use super::{Api, ApiError, Body};
use crate::state::{AppState, LoadStatus, Loaded, Source};
use fluxlens_core::load::poll::{PageRead, Poller, Step, Wave};
use fluxlens_core::model::Cluster;
use futures_util::StreamExt;
use leptos::prelude::*;

/// Default poll interval (the built-in UI's).
pub const POLL_SECONDS: u32 = 30;

/// Starts the first load and the poll loop.
pub fn start(state: AppState, poll_seconds: u32) {
    // The last visit's data while the first read runs (#28), said to be so: at once where the
    // server asks for no sign-in, else once it has answered the report (`drive`).
    if !state.status_untracked(LoadStatus::is_snapshot) {
        super::last_visit::begin(state);
    }
    leptos::task::spawn_local(async move {
        let api = Api::page();
        let mut poller = Poller::default();
        loop {
            if poller.loaded() && document_hidden() {
                gloo_timers::future::TimeoutFuture::new(1000).await;
                continue;
            }
            // Snapshot mode is snapshot mode: a snapshot opened from a file stops the live loader;
            // the way back is the explicit "Open the live view".
            if state.status_untracked(LoadStatus::is_snapshot) {
                crate::perf::mark(crate::perf::LIVE_STOPPED);
                return;
            }
            crate::perf::mark_once(crate::perf::POLL_STARTED);
            let first = !poller.loaded();
            match drive(&mut poller, &api, Some(&state)).await {
                Ok(fresh) => shown(state, fresh, first),
                Err(e) => failed(state, e),
            }
            crate::perf::mark_first(crate::perf::LOAD_SETTLED);
            let wait = poller.wait_seconds(poll_seconds);
            gloo_timers::future::TimeoutFuture::new(wait * 1000).await;
        }
    });
}

/// A poll that succeeded: its model shown when it differs (a refresh whose data is the same
/// does not touch the app's state, #23); `None`: nothing changed, the model was not rebuilt.
fn shown(state: AppState, fresh: Option<Cluster>, first: bool) {
    if let Some(cluster) = fresh {
        // The last visit's data is replaced by the first live data, equal or not.
        let same = state.status_untracked(|s| s.last_visit().is_none())
            && state
                .data
                .with_untracked(|d| d.as_ref().is_some_and(|d| d.cluster.same_data(&cluster)));
        if !same && !state.status_untracked(LoadStatus::is_snapshot) {
            state
                .data
                .set(Some(std::sync::Arc::new(Loaded::new(cluster))));
            super::last_visit::keep_soon(state);
        }
    }
    state.update_status(|s| {
        if s.last_visit().is_some() {
            s.source = Source::Live;
        }
        s.error = None;
        s.stale_since = None;
        s.progress = None;
        s.updated_at = Some(js_sys::Date::now());
    });
    if first {
        // Once: at the first load's preview when it has one, else at its model.
        crate::perf::mark_first(crate::perf::DATA_READY);
    }
}

/// A poll that failed: the last good data stays, stale since the first failure.
fn failed(state: AppState, e: ApiError) {
    // Turned away: what was read before may not be shown any more, here or on the next
    // visit; the last visit's data goes at once.
    if matches!(e, ApiError::Unauthorized { .. } | ApiError::Forbidden(_)) {
        super::last_visit::forget();
        if state.status_untracked(|s| s.last_visit().is_some()) {
            state.update_status(|s| {
                s.source = Source::Live;
                s.stale_since = None;
            });
            state.data.set(None);
        }
    }
    let shows_data = state.data.with_untracked(Option::is_some);
    state.update_status(|s| {
        if shows_data && s.stale_since.is_none() {
            s.stale_since = Some(js_sys::Date::now());
        }
        s.progress = None;
        s.error = Some(e);
    });
}

/// A cluster read the way its dashboard polls it, for a fleet row: the first read whole (the
/// same requests as a dashboard's first load), each later one a poll of what it keeps (#47: the
/// fleet read every cluster cold every minute).
pub struct ClusterReader {
    api: Api,
    poller: Poller<Body>,
}

impl ClusterReader {
    /// A reader of the cluster behind `api`, nothing read yet.
    pub fn new(api: Api) -> Self {
        ClusterReader {
            api,
            poller: Poller::default(),
        }
    }

    /// The cluster, when it changed since the last read (always after the first success);
    /// `None` when a poll found nothing new.
    pub async fn read(&mut self) -> Result<Option<Cluster>, ApiError> {
        drive(&mut self.poller, &self.api, None).await
    }
}

fn document_hidden() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.hidden())
}

/// One poll: sends what the poller asks until it is done. `state`: the page's, told the
/// progress and the report as they come; `None` for a fleet cluster's read.
async fn drive(
    poller: &mut Poller<Body>,
    api: &Api,
    state: Option<&AppState>,
) -> Result<Option<Cluster>, ApiError> {
    let mut step = poller.begin(js_sys::Date::now() as i64);
    loop {
        step = match step {
            Step::Ask(mut wave) => {
                // The first load's model, shown while its confirming read is under way (#51).
                if let (Some(preview), Some(state)) = (wave.preview.take(), state) {
                    shown(*state, Some(*preview), true);
                    // Sent once the view is on screen, not in the task that builds it.
                    painted().await;
                }
                let answers = send_wave(api, &wave, state).await;
                let next = poller.answer(answers);
                if let Some(report) = poller.take_first_report()
                    && let Some(state) = state
                {
                    // The header's facts do not wait for the objects.
                    state.report.set(Some(std::sync::Arc::new(report)));
                    // The server has answered this visit (and rewritten its sign-in cookie).
                    if !state.status_untracked(LoadStatus::is_snapshot) {
                        super::last_visit::restore(*state, true);
                        super::visits::restore(*state);
                    }
                }
                next
            }
            Step::PageReads => {
                let reads = api.prefetched_posts().await.into_iter();
                let reads = reads.map(|p| PageRead {
                    body: p.body,
                    answer: p.answer,
                });
                poller.page_reads(reads.collect())
            }
            Step::Done(result) => return result.map(|c| c.map(|c| *c)),
        };
    }
}

/// Resolves once the page has painted its next frame and the view has marked it (the view's
/// task after the frame, `perf::mark_after_paint`, comes first), or after 100 ms where no frame
/// comes (a hidden tab paints none).
async fn painted() {
    let frame = js_sys::Promise::new(&mut |resolve, _| {
        request_animation_frame(move || {
            set_timeout(
                move || {
                    // This frame callback was asked for before the view's: one task more.
                    set_timeout(
                        move || {
                            let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
                        },
                        std::time::Duration::ZERO,
                    )
                },
                std::time::Duration::ZERO,
            );
        });
    });
    let frame = wasm_bindgen_futures::JsFuture::from(frame);
    let cap = gloo_timers::future::TimeoutFuture::new(100);
    futures_util::future::select(frame, cap).await;
}

/// Sends a wave, at most `in_flight` at once, and returns the answers in its order; the first
/// load's progress said as they come.
async fn send_wave(
    api: &Api,
    wave: &Wave,
    state: Option<&AppState>,
) -> Vec<Result<Body, ApiError>> {
    let say = |progress: Option<String>| {
        if let (Some(state), Some(p)) = (state, progress) {
            state.update_status(|s| s.progress = Some(p));
        }
    };
    say(wave.progress.clone());
    let sends = wave
        .requests
        .iter()
        .enumerate()
        .map(|(i, r)| async move { (i, api.send(r).await) });
    let mut answered = futures_util::stream::iter(sends).buffer_unordered(wave.in_flight);
    let mut answers: Vec<Option<Result<Body, ApiError>>> =
        wave.requests.iter().map(|_| None).collect();
    let mut objects = 0;
    while let Some((i, answer)) = answered.next().await {
        objects += wave.requests[i].object_count();
        say(wave.progress_with(objects));
        answers[i] = Some(answer);
    }
    answers
        .into_iter()
        .map(|a| a.unwrap_or_else(|| Err(ApiError::Network("not sent".into()))))
        .collect()
}
