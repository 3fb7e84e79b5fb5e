//! fluxlens, the browser app: views over what `fluxlens-core` computes.
//!
//! `api` is the only module that talks HTTP; `state` holds the loaded cluster; `pages` and
//! `components` render. Nothing here re-derives what core computes.

pub mod api;
pub mod app;
pub mod base;
pub mod chunks;
pub mod clock;
pub mod components;
pub mod pages;
pub mod perf;
pub mod router;
pub mod state;

pub use app::App;

/// Mounts the app on `<body>` for the lifetime of the page, replacing the report facts that
/// `index.html`'s inline script may have painted before the wasm started.
pub fn mount() {
    if let Some(w) = web_sys::window() {
        let _ = js_sys::Reflect::set(&w, &"__fluxlensMounted".into(), &true.into());
        if let Some(doc) = w.document() {
            if let Ok(Some(pre)) = doc.query_selector("[data-prepaint]") {
                pre.remove();
            }
            // The page's hidden lines that got its fonts ready (scripts/build.py `font_warmup`):
            // laid out by now or not, they have nothing more to do.
            if let Some(warmup) = doc.get_element_by_id("fl-font-warmup") {
                warmup.remove();
            }
        }
    }
    leptos::mount::mount_to_body(App);
}
