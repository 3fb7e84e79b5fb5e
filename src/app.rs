//! The root: state, theme, router and the chrome around every page.

use crate::components::chrome::{Header, Notices};
use crate::pages::*;
use crate::router::{View, query_param, view_of};
use crate::state::AppState;
use leptos::prelude::*;

/// The application.
#[component]
pub fn App() -> impl IntoView {
    let state = AppState::new();
    provide_context(state);
    let theme = crate::components::theme::ThemeState::provide();
    let poll = query_param("poll")
        .and_then(|p| p.parse().ok())
        .filter(|s: &u32| *s >= 1)
        .unwrap_or(crate::api::loader::POLL_SECONDS);
    // A snapshot link shows the captured data and never contacts the API, even when it is
    // damaged (the user then gets the reason and a link to the live view).
    match crate::components::share::fragment_snapshot() {
        Some(snap) => {
            crate::components::share::open_snapshot(state, &snap);
        }
        None => crate::api::loader::start(state, poll),
    }
    crate::api::object_events::serve(state);
    crate::components::embed::report_height();
    let _ = theme;
    crate::router::Location::provide();
    view! { <Layout /> }
}

/// Chrome (header, navigation) around the routed page; none under `/embed/`.
#[component]
fn Layout() -> impl IntoView {
    let location = crate::router::use_location();
    // A memo: the page is rebuilt when the route changes, not on every query change.
    let route = Memo::new(move |_| crate::base::route_of(&location.pathname.get()));
    let embedded = move || route.with(|r| r.starts_with("/embed/"));
    view! {
        <a class="fl-skip" href="#main">"Skip to content"</a>
        <Show when=move || !embedded()>
            <Header/>
        </Show>
        <main id="main" class="fl-main" tabindex="-1" class:fl-main--embed=embedded>
            <crate::components::share::SnapshotBanner/>
            <Notices/>
            <Show when=move || !embedded()>
                <crate::components::share::ShareControls/>
            </Show>
            {move || page(&route.get())}
        </main>
    }
}

/// The page of a route.
fn page(route: &str) -> AnyView {
    match view_of(route) {
        Some(View::Overview) => view! { <OverviewPage /> }.into_any(),
        Some(View::Graph) => view! { <GraphPage /> }.into_any(),
        Some(View::Signatures) => view! { <SignaturesPage /> }.into_any(),
        Some(View::Migrations) => view! { <MigrationsPage /> }.into_any(),
        Some(View::Compliance) => view! { <CompliancePage /> }.into_any(),
        None => view! { <NotFoundPage /> }.into_any(),
    }
}
