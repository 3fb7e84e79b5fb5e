//! The cluster's Warning events for a window of changes (#49), read only while a view shows
//! one (`AppState::window_events_wanted`) and at most once a minute: one request, the Warning
//! events of every kind (a timeline's status rows); never in snapshot mode.

use crate::state::{AppState, WindowEvents};
use leptos::prelude::*;
use std::cell::Cell;

thread_local! {
    /// When the last request was sent (ms since epoch): one in flight at most.
    static ASKED_AT: Cell<f64> = const { Cell::new(f64::NEG_INFINITY) };
}

/// Read at most this often while wanted.
const EVERY_MS: f64 = 60_000.0;

/// Watches the wish and the polls for the rest of the page's life.
pub fn serve(state: AppState) {
    Effect::new(move |_| {
        if !state.window_events_wanted.get() {
            return;
        }
        // Each poll's data wakes this; the minute decides.
        state.data.track();
        if state.status_untracked(crate::state::LoadStatus::is_snapshot)
            || state.data.with_untracked(Option::is_none)
        {
            return;
        }
        let now = js_sys::Date::now();
        if now - ASKED_AT.with(Cell::get) < EVERY_MS {
            return;
        }
        ASKED_AT.with(|a| a.set(now));
        leptos::task::spawn_local(async move {
            let result = super::Api::page().warning_events().await.map(|e| e.events);
            state.window_events.set(Some(WindowEvents {
                read_at_ms: now,
                result,
            }));
        });
    });
}
