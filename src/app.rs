//! The root: state, theme, router and the chrome around every page.

use crate::components::chrome::{Header, Notices};
use crate::pages::*;
use crate::state::AppState;
use leptos::prelude::*;
use leptos_router::components::{Route, Router, Routes};
use leptos_router::hooks::use_location;
use leptos_router::path;

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
    crate::components::embed::report_height();
    let _ = theme;
    view! {
        <Router base=crate::base::app_base()>
            <Layout/>
        </Router>
    }
}

/// Chrome (header, navigation) around the routed page; none under `/embed/`.
#[component]
fn Layout() -> impl IntoView {
    let location = use_location();
    let embedded = move || {
        location.pathname.track();
        crate::base::route_path().starts_with("/embed/")
    };
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
            <Routes fallback=|| view! { <NotFoundPage/> }>
                <Route path=path!("/") view=OverviewPage/>
                <Route path=path!("/graph") view=GraphPage/>
                <Route path=path!("/signatures") view=SignaturesPage/>
                <Route path=path!("/migrations") view=MigrationsPage/>
                <Route path=path!("/compliance") view=CompliancePage/>
                <Route path=path!("/embed/overview") view=OverviewPage/>
                <Route path=path!("/embed/graph") view=GraphPage/>
                <Route path=path!("/embed/signatures") view=SignaturesPage/>
                <Route path=path!("/embed/migrations") view=MigrationsPage/>
                <Route path=path!("/embed/compliance") view=CompliancePage/>
            </Routes>
        </main>
    }
}

/// Reads a query parameter of the page URL (outside the router, at start-up).
pub fn query_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get(name)
}
