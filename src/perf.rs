//! `performance.mark` hooks for tests and embedders.

/// Cluster state loaded.
pub const DATA_READY: &str = "fluxlens:data-ready";
/// The graph is on screen.
pub const GRAPH_LAID_OUT: &str = "fluxlens:graph-laid-out";
/// The current route shows its data.
pub const VIEW_RENDERED: &str = "fluxlens:view-rendered";

/// Records a mark (ignored where the Performance API is unavailable).
pub fn mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}
