//! One routed page per file.

mod compliance;
mod graph;
mod migrations;
mod not_found;
mod overview;
mod signatures;

pub use compliance::CompliancePage;
pub use graph::GraphPage;
pub use migrations::MigrationsPage;
pub use not_found::NotFoundPage;
pub use overview::OverviewPage;
pub use signatures::SignaturesPage;

use crate::state::{AppState, Loaded};
use leptos::prelude::*;
use std::sync::Arc;

/// Renders `body` once data is loaded and records `fluxlens:view-rendered` after it is on screen.
pub(crate) fn with_data<V: IntoView + 'static>(
    body: impl Fn(Arc<Loaded>) -> V + Send + Sync + 'static,
) -> impl IntoView {
    let state = AppState::expect();
    Effect::new(move |_| {
        if state.data.with(Option::is_some) {
            // After this render pass is committed to the DOM.
            request_animation_frame(|| crate::perf::mark(crate::perf::VIEW_RENDERED));
        }
    });
    move || match state.data.get() {
        Some(d) => body(d).into_any(),
        None => view! { <p class="fl-empty" aria-busy="true">"Waiting for cluster data…"</p> }
            .into_any(),
    }
}
