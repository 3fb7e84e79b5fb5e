//! The client-side router: the page URL as signals, history navigation and same-app link
//! interception. fluxlens needs a handful of fixed routes and query-string state; this does
//! that in a few hundred bytes where `leptos_router` cost 41 KB gzip of wasm (BENCHMARKS.md).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The page URL, kept in step with the browser's (navigation, back/forward).
#[derive(Clone, Copy)]
pub struct Location {
    /// The full path, base included (`/fluxlens/graph`).
    pub pathname: RwSignal<String>,
    /// The query string with its `?`, or empty.
    pub search: RwSignal<String>,
}

impl Location {
    /// Creates the location from the window, provides it and installs the listeners.
    pub fn provide() -> Self {
        let (pathname, search) = read_window();
        let loc = Location {
            pathname: RwSignal::new(pathname),
            search: RwSignal::new(search),
        };
        provide_context(loc);
        let on_pop = window_event_listener(leptos::ev::popstate, move |_| loc.sync());
        let on_click = window_event_listener(leptos::ev::click, move |ev| intercept(loc, &ev));
        on_cleanup(move || {
            on_pop.remove();
            on_click.remove();
        });
        loc
    }

    /// Sets both signals from the window (changed values only, so memos stay quiet).
    fn sync(self) {
        let (p, s) = read_window();
        if self.pathname.get_untracked() != p {
            self.pathname.set(p);
        }
        if self.search.get_untracked() != s {
            self.search.set(s);
        }
    }
}

/// The current location (after [`Location::provide`]).
pub fn use_location() -> Location {
    expect_context()
}

/// Goes to `url` (a path with an optional query, base included). `replace` rewrites the
/// current history entry (filter and zoom changes) instead of adding one.
pub fn navigate(loc: Location, url: &str, replace: bool) {
    let Some(history) = window().history().ok() else {
        return;
    };
    let here = window().location();
    let url = &fluxlens_core::share::urlstate::carry_over(
        url,
        &here.search().unwrap_or_default(),
        &here.hash().unwrap_or_default(),
    );
    let none = wasm_bindgen::JsValue::NULL;
    let _ = if replace {
        history.replace_state_with_url(&none, "", Some(url))
    } else {
        history.push_state_with_url(&none, "", Some(url))
    };
    // `loc` is passed in: event handlers run outside the owner tree, where context is gone.
    loc.sync();
}

/// Replaces the current entry's fragment with `hash` (with its `#`, or empty): state that
/// must be shareable without reaching any server (a snapshot compared with, #68).
pub fn replace_fragment(hash: &str) {
    let Some(history) = window().history().ok() else {
        return;
    };
    let here = window().location();
    let url = format!(
        "{}{}{hash}",
        here.pathname().unwrap_or_default(),
        here.search().unwrap_or_default()
    );
    let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
}

/// The current fragment, parsed.
pub fn fragment() -> fluxlens_core::share::urlstate::Fragment {
    fluxlens_core::share::urlstate::Fragment::parse(&window().location().hash().unwrap_or_default())
}

/// Writes `query` (no `?`) to the current path, replacing the history entry: for what is
/// not a step of its own (the viewport after a pan or zoom).
pub fn replace_query(loc: Location, query: &str) {
    write_query(loc, query, true);
}

/// Writes `query` as a new history entry: a deliberate change (a filter, an expanded group,
/// a focus, a selection) that Back undoes (#30).
pub fn push_query(loc: Location, query: &str) {
    if loc.search.get_untracked().trim_start_matches('?') != query {
        write_query(loc, query, false);
    }
}

fn write_query(loc: Location, query: &str, replace: bool) {
    let path = loc.pathname.get_untracked();
    if query.is_empty() {
        navigate(loc, &path, replace);
    } else {
        navigate(loc, &format!("{path}?{query}"), replace);
    }
}

fn read_window() -> (String, String) {
    let l = window().location();
    (
        l.pathname().unwrap_or_default(),
        l.search().unwrap_or_default(),
    )
}

/// Turns a plain left click on a link inside the app into a history navigation.
fn intercept(loc: Location, ev: &web_sys::MouseEvent) {
    if ev.default_prevented()
        || ev.button() != 0
        || ev.meta_key()
        || ev.ctrl_key()
        || ev.shift_key()
        || ev.alt_key()
    {
        return;
    }
    let Some(a) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|e| e.closest("a[href]").ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    else {
        return;
    };
    // Downloads, new windows and links meant for the browser keep their default.
    if a.has_attribute("download")
        || !matches!(a.target().as_str(), "" | "_self")
        || a.rel().split_whitespace().any(|r| r == "external")
    {
        return;
    }
    let here = window().location();
    if a.origin() != here.origin().unwrap_or_default() {
        return;
    }
    let path = a.pathname();
    if !crate::base::route_within(&path).is_some_and(|r| is_app_route(&r)) {
        return;
    }
    let search = a.search();
    // An in-page anchor (the skip link) is the browser's job.
    if !a.hash().is_empty()
        && path == loc.pathname.get_untracked()
        && search == loc.search.get_untracked()
    {
        return;
    }
    ev.prevent_default();
    let new_page = path != loc.pathname.get_untracked();
    navigate(loc, &format!("{path}{search}{}", a.hash()), false);
    if new_page {
        window().scroll_to_with_x_and_y(0.0, 0.0);
    }
}

/// A navigation link marked `aria-current="page"` while its route is shown (`exact` for
/// the overview, whose path is a prefix of every other).
#[component]
pub fn NavLink(
    /// The route path without the base (`/graph`).
    to: &'static str,
    /// Matches only the exact path.
    #[prop(optional)]
    exact: bool,
    children: Children,
) -> impl IntoView {
    let loc = use_location();
    let href = crate::base::href(to);
    let target = href.clone();
    let current = move || {
        let p = loc.pathname.get();
        let on = if exact {
            p.trim_end_matches('/') == target.trim_end_matches('/')
        } else {
            p == target || p.starts_with(&format!("{target}/"))
        };
        on.then_some("page")
    };
    let intent = use_context::<NavIntent>();
    let aim = move || {
        if let Some(NavIntent(intent)) = intent {
            intent.set(view_of(to));
        }
    };
    view! {
        <a href=href aria-current=current on:pointerenter=move |_| aim() on:focus=move |_| aim()>
            {children()}
        </a>
    }
}

/// The views; most are also served without the chrome at `/embed/<name>`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum View {
    Overview,
    Graph,
    Signatures,
    Migrations,
    Compliance,
    /// What changed in a window (`/changes`).
    Changes,
    /// A repository's render against the live cluster (`/drift`).
    Drift,
    /// Every cluster of a fleet hub, one row each (`/fleet`, at the hub's root only).
    Fleet,
}

/// A view as the app knows it: where it lives and how the navigation names it. [`VIEWS`] is
/// the one list a view is added to (its page: `pages::split`).
pub struct Registered {
    pub view: View,
    /// Its route (`/graph`).
    pub path: &'static str,
    /// Its route inside the embedded panel (`/embed/<name>`), if it can be embedded.
    pub embedded: Option<&'static str>,
    /// Its link in a cluster's navigation, if it has one.
    pub nav: Option<&'static str>,
}

/// Every view, in the navigation's order.
pub const VIEWS: [Registered; 8] = [
    Registered {
        view: View::Overview,
        path: "/",
        embedded: Some("overview"),
        nav: Some("Overview"),
    },
    Registered {
        view: View::Graph,
        path: "/graph",
        embedded: Some("graph"),
        nav: Some("Graph"),
    },
    Registered {
        view: View::Signatures,
        path: "/signatures",
        embedded: Some("signatures"),
        nav: Some("Signatures"),
    },
    Registered {
        view: View::Migrations,
        path: "/migrations",
        embedded: Some("migrations"),
        nav: Some("Migrations"),
    },
    Registered {
        view: View::Compliance,
        path: "/compliance",
        embedded: Some("compliance"),
        nav: Some("Compliance"),
    },
    Registered {
        view: View::Changes,
        path: "/changes",
        embedded: Some("changes"),
        nav: Some("Changes"),
    },
    Registered {
        view: View::Drift,
        path: "/drift",
        embedded: Some("drift"),
        nav: Some("Drift"),
    },
    Registered {
        view: View::Fleet,
        path: "/fleet",
        embedded: None,
        nav: None,
    },
];

/// The view of a route (base removed), if it is one of the app's.
pub fn view_of(route: &str) -> Option<View> {
    let route = route.trim_end_matches('/');
    let found = match route.strip_prefix("/embed/") {
        Some(name) => VIEWS.iter().find(|r| r.embedded == Some(name)),
        None => VIEWS.iter().find(|r| r.path.trim_end_matches('/') == route),
    };
    found.map(|r| r.view)
}

/// The view the pointer or keyboard focus is on in the navigation, before any click: the app
/// fetches its page's code then (`pages::split::fetch_on_intent`), not on every visit.
#[derive(Clone, Copy)]
pub struct NavIntent(pub RwSignal<Option<View>>);

/// the operator's login, to the browser).
pub fn is_app_route(route: &str) -> bool {
    view_of(route).is_some_and(|v| v != View::Fleet || crate::base::app_base().is_empty())
}

/// Whether the page is the fleet hub's `/fleet` (read once at start: it decides which loader
/// runs).
pub fn is_fleet_page() -> bool {
    crate::base::app_base().is_empty() && view_of(&crate::base::route_path()) == Some(View::Fleet)
}

/// Reads a query parameter of the page URL (outside the router, at start-up).
pub fn query_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let params = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    params.get(name)
}
