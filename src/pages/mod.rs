//! One routed page per file.

mod changes;
mod compliance;
mod drift;
mod drift_source;
mod fleet;
mod graph;
mod migrations;
mod not_found;
mod overview;
mod signatures;
pub mod split;

pub use changes::ChangesPage;
pub use compliance::CompliancePage;
pub use drift::DriftPage;
pub use fleet::FleetPage;
pub use graph::GraphPage;
pub use migrations::MigrationsPage;
pub use not_found::NotFoundPage;
pub use overview::OverviewPage;
pub use signatures::SignaturesPage;

use crate::state::{AppState, Loaded};
use leptos::prelude::*;

/// Renders `body` once, when the first data arrives — not again for later data: its sections
/// read narrow memos ([`derive`]) so a poll that changes one object re-renders only what shows
/// it. Records `fluxlens:view-rendered` after it is on screen.
pub(crate) fn when_loaded<V: IntoView + 'static>(
    body: impl Fn() -> V + Send + Sync + 'static,
) -> impl IntoView {
    let state = AppState::expect();
    let ready = Memo::new(move |_| state.data.with(Option::is_some));
    Effect::new(move |_| {
        if ready.get() {
            crate::perf::mark_after_paint(crate::perf::VIEW_RENDERED);
        }
    });
    move || match ready.get() {
        true => body().into_any(),
        false => view! {
            <p class="fl-empty" aria-busy="true">
                "Waiting for cluster data…"
            </p>
        }
        .into_any(),
    }
}

/// A narrow view of the loaded data: recomputed when the data changes, but what reads it
/// re-renders only when the value itself differs.
pub(crate) fn derive<T: PartialEq + Clone + Send + Sync + 'static>(
    f: impl Fn(&Loaded) -> T + Send + Sync + 'static,
) -> Memo<Option<T>> {
    let state = AppState::expect();
    Memo::new(move |_| state.data.with(|d| d.as_deref().map(&f)))
}

/// The loaded findings of the rules `rule` keeps that the list filters `query` admit (all of
/// them without a query), for a findings list.
pub(crate) fn findings_where(
    rule: fn(&str) -> bool,
    query: Option<Memo<fluxlens_core::share::urlstate::ListQuery>>,
) -> Signal<Vec<fluxlens_core::analyses::findings::Finding>> {
    let state = AppState::expect();
    Signal::derive(move || {
        let q = query.map(|q| q.get());
        state.data.with(|d| {
            d.as_ref()
                .map(|d| {
                    d.findings
                        .iter()
                        .filter(|f| rule(&f.rule) && q.as_ref().is_none_or(|q| q.admits(f)))
                        .cloned()
                        .collect()
                })
                .unwrap_or_default()
        })
    })
}
