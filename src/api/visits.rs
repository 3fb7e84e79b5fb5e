//! The reads kept in this browser for "what changed since …" (#49): a digest of each visit, a
//! week of them (`fluxlens_core::share::visits`), stored per API base beside the last visit's
//! copy and under its sign-in rule. The visits as they were when this visit began are what
//! "since your last visit" compares with: they are read once, before this visit adds its own.

use crate::state::{AppState, Loaded};
use fluxlens_core::analyses::changes::digest::VisitDigest;
use fluxlens_core::share::visits::Visits;
use fluxlens_core::wire::FluxReport;
use leptos::prelude::*;
use std::sync::Arc;

fn key() -> String {
    let base = super::base_path();
    format!(
        "fluxlens:visits:{}",
        if base.is_empty() { "/" } else { &base }
    )
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn cookie() -> Option<fluxlens_core::wire::auth::AuthProvider> {
    fluxlens_core::wire::auth::parse_cookie(&super::cookies())
}

/// The kept visits, read from this browser (none when there is no storage, nothing kept, or
/// what is kept may not show now to the user this visit's report names, `now`).
fn stored(now: &FluxReport) -> Visits {
    let text = storage().and_then(|s| s.get_item(&key()).ok().flatten());
    match text.map(|t| Visits::decode(&t, cookie().as_ref(), now)) {
        Some(Ok(v)) => v,
        // Damaged, or kept behind a sign-in this user does not have: gone.
        Some(Err(_)) => {
            forget();
            Visits::default()
        }
        None => Visits::default(),
    }
}

/// Remembers the kept visits as they are before this visit adds its own (once: after the
/// server's first answer, when its sign-in cookie is current). Decoding them needs the
/// snapshot codec's chunk: fetched only when visits are kept.
pub fn restore(state: AppState) {
    if state.visits.with_untracked(Option::is_some) {
        return;
    }
    if storage()
        .and_then(|s| s.get_item(&key()).ok().flatten())
        .is_none()
    {
        state.visits.set(Some(Arc::new(Visits::default())));
        return;
    }
    // No chunk: no "since your last visit" this time; the visits stay kept.
    leptos::task::spawn_local(async move {
        let _ = restore_kept(state).await;
    });
}

crate::chunks::in_chunk! { fluxlens_snapshot:
    fn restore_kept(state: AppState) {
        if let Some(report) = state.report.get_untracked() {
            remember(state, &report);
        }
    }
}

/// Remembers the kept visits once this visit's report says whom the server reads as.
fn remember(state: AppState, now: &FluxReport) {
    if state.visits.with_untracked(Option::is_none) {
        state.visits.set(Some(Arc::new(stored(now))));
    }
}

/// Adds this read to the kept visits (one an hour: later reads of the hour replace it).
pub fn record(state: AppState, data: &Loaded) {
    let report = &data.cluster.report;
    remember(state, report);
    let mut visits = stored(report);
    let now = js_sys::Date::now() as i64;
    visits.record(VisitDigest::of(&data.cluster, &data.analysis), now);
    let Some(store) = storage() else {
        return;
    };
    match visits.encode(cookie().as_ref(), report) {
        Some(text) if store.set_item(&key(), &text).is_ok() => {}
        // Full storage or one visit too large: nothing kept, nothing else lost.
        _ => forget(),
    }
}

/// Removes the kept visits (the server turned the user away).
pub fn forget() {
    if let Some(store) = storage() {
        let _ = store.remove_item(&key());
    }
}
