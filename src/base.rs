//! The path prefix the app is served under (`""` at the origin root, `/fluxlens` under a
//! sub-path, `/clusters/<name>` for one cluster of a fleet hub), read once so one build can
//! serve all three: from `<meta name="fluxlens-base">` when the page has one, else from a
//! fleet cluster's path.

thread_local! {
    static BASE: std::cell::OnceCell<String> = const { std::cell::OnceCell::new() };
    static ASSETS: std::cell::OnceCell<String> = const { std::cell::OnceCell::new() };
}

/// The base path, without a trailing slash (read from the page once: every link asks).
pub fn app_base() -> String {
    BASE.with(|b| b.get_or_init(read_base).clone())
}

fn read_base() -> String {
    let window = web_sys::window();
    let meta = window
        .as_ref()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("meta[name=fluxlens-base]").ok().flatten())
        .and_then(|m| m.get_attribute("content"));
    if let Some(base) = meta {
        return base.trim_end_matches('/').to_string();
    }
    let path = window
        .and_then(|w| w.location().pathname().ok())
        .unwrap_or_default();
    cluster_base(&path).unwrap_or_default()
}

/// The fleet cluster a path is under: `/clusters/prod-eu/graph` → `/clusters/prod-eu` (the
/// name a DNS label, as the hub lists them); `None` for any other path.
pub fn cluster_base(path: &str) -> Option<String> {
    let name = path.strip_prefix("/clusters/")?.split('/').next()?;
    fluxlens_core::fleet::clusters::valid_name(name).then(|| format!("/clusters/{name}"))
}

/// The fleet cluster the page shows, when it is one (its name).
pub fn fleet_cluster() -> Option<String> {
    app_base().strip_prefix("/clusters/").map(str::to_string)
}

/// An app link: `href("/graph?x=1")` → `/fluxlens/graph?x=1` under a sub-path.
pub fn href(path: &str) -> String {
    format!("{}{path}", app_base())
}

/// A file shipped beside the app's page (`asset("rules.html")`): where the build says its files
/// are (`<meta name="fluxlens-assets">`, scripts/build.py), which is not the app's base under a
/// fleet hub (one copy of the files serves every cluster); the app's base where no build said.
pub fn asset(name: &str) -> String {
    let dir = ASSETS.with(|a| a.get_or_init(read_asset_dir).clone());
    format!("{dir}{name}")
}

fn read_asset_dir() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector("meta[name=fluxlens-assets]")
                .ok()
                .flatten()
        })
        .and_then(|m| m.get_attribute("content"))
        .filter(|dir| dir.starts_with('/') && dir.ends_with('/'))
        .unwrap_or_else(|| href("/"))
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
