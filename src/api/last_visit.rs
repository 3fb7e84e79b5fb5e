//! The last visit's data (#28): kept in this browser's localStorage per API base after a live
//! read, shown when the page starts again while its first read runs — said to be the last
//! visit's and stale since it was read, never live — and dropped when the server turns the user
//! away (`fluxlens_core::share::snapshot::kept` decides who may see a kept copy again).

use crate::state::{AppState, Loaded};
use fluxlens_core::model::Cluster;
use fluxlens_core::share::snapshot::kept;
use leptos::prelude::*;
use std::cell::Cell;
use std::sync::Arc;

/// A kept copy is written again at most this often (encoding a large cluster costs tens of ms).
const KEEP_EVERY_MS: f64 = 5.0 * 60.0 * 1000.0;
/// Waited after new data lands before it is kept: the screen goes first.
const KEEP_AFTER_MS: u32 = 500;

thread_local! {
    static KEPT_AT: Cell<Option<f64>> = const { Cell::new(None) };
}

fn key() -> String {
    let base = super::base_path();
    format!(
        "fluxlens:last:{}",
        if base.is_empty() { "/" } else { &base }
    )
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn cookie() -> Option<fluxlens_core::wire::auth::AuthProvider> {
    fluxlens_core::wire::auth::parse_cookie(&super::cookies())
}

/// At the start of a visit: the kept copy shows at once where the server asks for no sign-in;
/// behind one, the code that reads it is fetched now, so that it shows as soon as the server
/// has answered (`restore(state, true)`), before the rest of this visit's reads.
pub fn begin(state: AppState) {
    if kept::shows_before_an_answer(cookie().as_ref()) {
        restore(state, false);
    } else if storage().is_some_and(|s| s.get_item(&key()).ok().flatten().is_some()) {
        leptos::task::spawn_local(async {
            let _ = codec_here().await;
        });
    }
}

crate::chunks::in_chunk! { fluxlens_snapshot:
    /// Nothing: calling it brings the snapshot codec's chunk.
    fn codec_here() {}
}

/// Shows the last visit's data, if no data is shown yet and a copy is kept that may show
/// (`answered`: whether the server has answered this visit); a copy that may not (signed out)
/// or cannot (damaged) is removed, one that waits for an answer is kept. Reading it needs the
/// snapshot codec's chunk: fetched only when a copy is kept.
pub fn restore(state: AppState, answered: bool) {
    if state.data.with_untracked(Option::is_some) {
        return;
    }
    let Some(store) = storage() else {
        return;
    };
    let Some(text) = store.get_item(&key()).ok().flatten() else {
        return;
    };
    let cookie = cookie();
    leptos::task::spawn_local(async move {
        // No chunk, no head start: the live read shows as it would on a first visit.
        let _ = reopen(state, text, cookie, answered).await;
    });
}

crate::chunks::in_chunk! { fluxlens_snapshot:
    fn reopen(
        state: AppState,
        text: String,
        cookie: Option<fluxlens_core::wire::auth::AuthProvider>,
        answered: bool,
    ) {
        // The live read may have landed while the chunk was on its way: it wins.
        if state.data.with_untracked(Option::is_none) {
            // Once answered, this visit's report says whom the server reads as.
            let now = state.report.get_untracked().filter(|_| answered);
            match kept::reopen(&text, cookie.as_ref(), now.as_deref()) {
                Ok(cluster) => {
                    let since = cluster.notes.captured_at_ms.unwrap_or_default() as f64;
                    state.update_status(|s| {
                        s.source = crate::state::Source::LastVisit { read_at: since };
                        s.stale_since = Some(since);
                    });
                    state.data.set(Some(Arc::new(Loaded::new(cluster))));
                }
                Err(kept::NotShown::NotYet) => {}
                Err(_) => forget(),
            }
        }
    }
}

/// Removes the kept copy and the kept visits (the server said 401 or 403: what it read may no
/// longer be shown).
pub fn forget() {
    if let Some(store) = storage() {
        let _ = store.remove_item(&key());
    }
    super::visits::forget();
}

/// Keeps the page's data soon (the first settled live data at once, then at most every five
/// minutes): what is kept is the data shown when the timer fires, if it is live and settled —
/// never the first load's preview ("confirming…", CRDs being read), which would then be the
/// next visit's copy for five minutes.
pub fn keep_soon(state: AppState) {
    let settled = |state: AppState| {
        state
            .data
            .with_untracked(|d| d.as_ref().is_some_and(|d| d.cluster.settled()))
    };
    if !settled(state) {
        return;
    }
    let now = js_sys::Date::now();
    if KEPT_AT
        .with(Cell::get)
        .is_some_and(|t| now - t < KEEP_EVERY_MS)
    {
        return;
    }
    KEPT_AT.with(|t| t.set(Some(now)));
    gloo_timers::callback::Timeout::new(KEEP_AFTER_MS, move || {
        let live = state.status_untracked(crate::state::LoadStatus::is_live);
        if !settled(state) {
            // Replaced meanwhile by a preview: the next settled data is kept instead.
            KEPT_AT.with(|t| t.set(None));
            return;
        }
        if let Some(data) = state.data.get_untracked().filter(|_| live) {
            let cookie = cookie();
            leptos::task::spawn_local(async move {
                // No chunk: nothing kept this time, nothing else lost.
                let _ = keep(state, data, cookie).await;
            });
        }
    })
    .forget();
}

crate::chunks::in_chunk! { fluxlens_snapshot:
    /// Keeps the data as the last visit's copy and adds it to the kept visits.
    fn keep(
        state: AppState,
        data: Arc<Loaded>,
        cookie: Option<fluxlens_core::wire::auth::AuthProvider>,
    ) {
        keep_copy(&data.cluster, cookie.as_ref());
        super::visits::record(state, &data);
    }
}

fn keep_copy(cluster: &Cluster, cookie: Option<&fluxlens_core::wire::auth::AuthProvider>) {
    let Some(store) = storage() else {
        return;
    };
    match kept::keep(cluster, cookie) {
        // Full storage: no head start next time, nothing else lost.
        Some(text) => {
            if store.set_item(&key(), &text).is_ok() {
                crate::perf::mark(crate::perf::LAST_VISIT_KEPT);
            } else {
                forget();
            }
        }
        None => forget(),
    }
}
