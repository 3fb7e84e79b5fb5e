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
    api::page_script::say_mounted();
    if let Some(doc) = web_sys::window().and_then(|w| w.document())
        && let Ok(Some(pre)) = doc.query_selector("[data-prepaint]")
    {
        pre.remove();
    }
    leptos::mount::mount_to_body(App);
}
