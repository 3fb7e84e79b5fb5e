//! `performance.mark` hooks for tests and embedders.

/// Cluster state loaded.
pub const DATA_READY: &str = "fluxlens:data-ready";
/// The graph is on screen.
pub const GRAPH_LAID_OUT: &str = "fluxlens:graph-laid-out";
/// The current route shows its data.
pub const VIEW_RENDERED: &str = "fluxlens:view-rendered";
/// The live data was kept for the next visit (`api::last_visit`).
pub const LAST_VISIT_KEPT: &str = "fluxlens:last-visit-kept";

/// The first load has read everything it reads (after the view: the confirming read and the
/// CRDs, #51), whether it succeeded or not.
pub const LOAD_SETTLED: &str = "fluxlens:load-settled";

/// The live loader has ended: a snapshot is shown instead (no API contact from then on).
pub const LIVE_STOPPED: &str = "fluxlens:live-stopped";

/// A live poll starts, or a fleet's round (one entry kept: each poll clears the last; observe it to see them all).
pub const POLL_STARTED: &str = "fluxlens:poll-started";

/// Records a mark (ignored where the Performance API is unavailable).
pub fn mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

/// Records a mark unless the page has one by that name already.
pub fn mark_first(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance())
        && p.get_entries_by_name(name).length() == 0
    {
        let _ = p.mark(name);
    }
}

/// Records a mark that replaces its previous entry, so a page left open for hours does not
/// grow the performance timeline by one entry a poll.
pub fn mark_once(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        p.clear_marks_with_mark_name(name);
        let _ = p.mark(name);
    }
}

/// Records a mark once the current frame has been painted: the next task after the animation
/// frame, so the mark says "on screen", not "in the DOM" (`fluxlens:view-rendered`).
pub fn mark_after_paint(name: &'static str) {
    leptos::prelude::request_animation_frame(move || {
        leptos::prelude::set_timeout(move || mark(name), std::time::Duration::ZERO);
    });
}
