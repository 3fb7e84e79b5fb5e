//! The root: state, theme, router and the chrome around every page.

use crate::components::chrome::{AccessNotice, Header, Notices};
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
    let intent = crate::router::NavIntent(RwSignal::new(None));
    provide_context(intent);
    crate::pages::split::fetch_on_intent(intent);
    let poll = poll_seconds(crate::api::loader::POLL_SECONDS);
    if crate::router::is_fleet_page() {
        start_fleet();
    } else {
        // A snapshot link shows the captured data and never contacts the API, even when it is
        // damaged (the user then gets the reason and a link to the live view).
        match crate::components::share::fragment_snapshot() {
            Some(snap) => leptos::task::spawn_local(async move {
                crate::components::share::open_snapshot(state, snap).await;
            }),
            None => crate::api::loader::start(state, poll),
        }
    }
    crate::api::object_events::serve(state);
    crate::api::window_events::serve(state);
    crate::components::embed::report_height();
    crate::components::menu::close_on_outside();
    let _ = theme;
    crate::router::Location::provide();
    view! { <Layout /> }
}

/// The poll interval the visit asked for (`?poll=N`, at least one second), else `default`.
fn poll_seconds(default: u32) -> u32 {
    query_param("poll")
        .and_then(|p| p.parse().ok())
        .filter(|s: &u32| *s >= 1)
        .unwrap_or(default)
}

/// The fleet page's state and loader, or the fleet link it opens instead (no cluster is
/// contacted then).
fn start_fleet() {
    let fleet = crate::state::FleetState::new();
    provide_context(fleet);
    let link = crate::components::fleet_link::fragment_link();
    let poll = poll_seconds(crate::api::fleet::POLL_SECONDS);
    // Without the chunk the fleet page itself says its code did not arrive.
    leptos::task::spawn_local(async move {
        let _ = fleet_reads(fleet, link, poll).await;
    });
}

crate::chunks::in_chunk! { fluxlens_fleet:
    /// In the fleet page's chunk: a cluster's dashboard never loads the fleet's readers.
    fn fleet_reads(fleet: crate::state::FleetState, link: Option<String>, poll: u32) {
        match link {
            Some(text) => crate::components::fleet_link::open_link(fleet, &text),
            None => crate::api::fleet::start(fleet, poll),
        }
    }
}

/// Chrome (header, navigation) around the routed page; none under `/embed/`.
#[component]
fn Layout() -> impl IntoView {
    let location = crate::router::use_location();
    // A memo: the page is rebuilt when the route changes, not on every query change.
    let route = Memo::new(move |_| crate::base::route_of(&location.pathname.get()));
    let embedded = move || route.with(|r| r.starts_with("/embed/"));
    let fleet = move || {
        route.with(|r| view_of(r) == Some(View::Fleet)) && crate::base::app_base().is_empty()
    };
    view! {
        <a class="fl-skip" href="#main">"Skip to content"</a>
        <Show when=move || !embedded() && !fleet()>
            <Header/>
        </Show>
        <Show when=fleet>
            <crate::components::fleet_table::FleetHeader/>
        </Show>
        <main id="main" class="fl-main" tabindex="-1" class:fl-main--embed=embedded>
            <Show when=move || !fleet()>
                <crate::components::share::SnapshotBanner/>
                <Notices/>
            </Show>
            // On the overview, where a look starts: the graph's canvas keeps its screen.
            <Show when=move || route.with(|r| r.trim_end_matches('/').is_empty())>
                <AccessNotice/>
            </Show>
            {move || page(&route.get())}
        </main>
    }
}

/// The page of a route (the pages other than the overview from their own chunks, see
/// [`split`]).
fn page(route: &str) -> AnyView {
    match view_of(route) {
        Some(View::Overview) => view! { <OverviewPage /> }.into_any(),
        Some(View::Fleet) if !crate::base::app_base().is_empty() => {
            view! { <NotFoundPage /> }.into_any()
        }
        Some(view) => crate::pages::split::lazy_page(view),
        None => view! { <NotFoundPage /> }.into_any(),
    }
}
