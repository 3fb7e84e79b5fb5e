//! The path prefix the app is served under (`""` at the origin root, `/fluxlens` under a
//! sub-path), read once from `<meta name="fluxlens-base">` so one build can serve both.

/// The base path, without a trailing slash.
pub fn app_base() -> String {
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

/// The route of a full path: the base removed, `/` for the base itself.
pub fn route_of(path: &str) -> String {
    let base = app_base();
    let route = path
        .strip_prefix(&base)
        .filter(|p| p.is_empty() || p.starts_with('/'))
        .unwrap_or(path);
    if route.is_empty() {
        "/".to_string()
    } else {
        route.to_string()
    }
}
