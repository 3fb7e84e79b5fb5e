//! The path prefix the app is served under (`""` at the origin root, `/fluxlens` under a
//! sub-path), read once from `<meta name="fluxlens-base">` so one build can serve both.

thread_local! {
    static BASE: std::cell::OnceCell<String> = const { std::cell::OnceCell::new() };
}

/// The base path, without a trailing slash (read from the page once: every link asks).
pub fn app_base() -> String {
    BASE.with(|b| b.get_or_init(read_base).clone())
}

fn read_base() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("meta[name=fluxlens-base]").ok().flatten())
        .and_then(|m| m.get_attribute("content"))
        .map(|s| s.trim_end_matches('/').to_string())
        .unwrap_or_default()
}

/// An app link: `href("/graph?x=1")` → `/fluxlens/graph?x=1` under a sub-path.
pub fn href(path: &str) -> String {
    format!("{}{path}", app_base())
}

/// The route path of the current page, without the base (`/graph`).
pub fn route_path() -> String {
    let path = web_sys::window()
        .and_then(|w| w.location().pathname().ok())
        .unwrap_or_default();
    route_of(&path)
}

/// The route of a full path: the base removed, `/` for the base itself; a path outside the
/// base is returned as it is.
pub fn route_of(path: &str) -> String {
    route_within(path).unwrap_or_else(|| path.to_string())
}

/// The route of a full path under the base, or `None` for a path outside it.
pub fn route_within(path: &str) -> Option<String> {
    let base = app_base();
    let route = path
        .strip_prefix(base.as_str())
        .filter(|p| p.is_empty() || p.starts_with('/'))?;
    Some(if route.is_empty() {
        "/".into()
    } else {
        route.into()
    })
}
