//! The pages other than the overview, each in a wasm chunk of its own when the build splits
//! (`--features split`, `scripts/split.py`): the overview is what most visits come for, so its
//! code arrives first, and another page's when it is opened or its link is pointed at or
//! focused (`router::NavIntent`), never unasked. Without the feature every page is linked into
//! the one module (tests, clippy).

use crate::router::View;
use leptos::prelude::*;
#[cfg(feature = "split")]
use leptos::wasm_split::wasm_split;
use std::sync::Mutex;

pub use crate::chunks::ChunkFailed;

/// Declares each lazy page's split point once: `build` builds the page (in its chunk), `load`
/// fetches the chunk without building anything; then `load_page` and `build_page` by view.
macro_rules! split_pages {
    ($($view:ident => $build:ident, $load:ident, $chunk:ident, $page:path;)*) => {
        $(
            #[cfg(feature = "split")]
            #[wasm_split($chunk, wasm_split_path = ::leptos::wasm_split, fallible, preload($load))]
            fn $build() -> Result<AnyView, ChunkFailed> {
                Ok(view! { <$page /> }.into_any())
            }
            #[cfg(not(feature = "split"))]
            async fn $load() -> Result<(), ChunkFailed> {
                Ok(())
            }
            #[cfg(not(feature = "split"))]
            async fn $build() -> Result<AnyView, ChunkFailed> {
                Ok(view! { <$page /> }.into_any())
            }
        )*

        /// Fetches the chunk of `view`'s page (`Err` for a view without one).
        async fn load_page(view: View) -> Result<(), ChunkFailed> {
            match view {
                $(View::$view => $load().await.map_err(|_| ChunkFailed),)*
                #[allow(unreachable_patterns)]
                _ => Err(ChunkFailed),
            }
        }

        /// Builds `view`'s page, whose chunk is loaded: then the call completes at once.
        fn build_page(view: View) -> Option<AnyView> {
            use futures_util::FutureExt;
            let built = match view {
                $(View::$view => $build().now_or_never(),)*
                #[allow(unreachable_patterns)]
                _ => None,
            };
            built.and_then(Result::ok)
        }
    };
}

split_pages! {
    Graph => build_graph, load_graph, fluxlens_graph, super::GraphPage;
    Signatures => build_signatures, load_signatures, fluxlens_signatures, super::SignaturesPage;
    Migrations => build_migrations, load_migrations, fluxlens_migrations, super::MigrationsPage;
    Compliance => build_compliance, load_compliance, fluxlens_compliance, super::CompliancePage;
    Fleet => build_fleet, load_fleet, fluxlens_fleet, super::FleetPage;
    Changes => build_changes, load_changes, fluxlens_changes, super::ChangesPage;
    Drift => build_drift, load_drift, fluxlens_drift, super::DriftPage;
}

/// The pages whose chunk has arrived.
static LOADED: Mutex<Vec<View>> = Mutex::new(Vec::new());

fn loaded(view: View) -> bool {
    LOADED.lock().is_ok_and(|l| l.contains(&view))
}

/// Fetches the page's chunk (once; a failed fetch is tried again next time).
async fn load(view: View) -> Result<(), ChunkFailed> {
    if loaded(view) {
        return Ok(());
    }
    load_page(view).await?;
    if let Ok(mut l) = LOADED.lock() {
        l.push(view);
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Chunk {
    Loading,
    Ready,
    Failed,
}

/// The page: at once when its chunk is here; otherwise a line saying so until it arrives,
/// and a clear message when it does not.
pub fn lazy_page(view: View) -> AnyView {
    if loaded(view)
        && let Some(page) = build_page(view)
    {
        return page;
    }
    let chunk = RwSignal::new(Chunk::Loading);
    leptos::task::spawn_local(async move {
        let answer = load(view).await;
        let _ = chunk.try_set(if answer.is_ok() {
            Chunk::Ready
        } else {
            Chunk::Failed
        });
    });
    (move || match chunk.get() {
        Chunk::Loading => view! {
            <p class="fl-empty" aria-busy="true">
                "Loading this page…"
            </p>
        }
        .into_any(),
        Chunk::Ready => build_page(view).unwrap_or_else(|| failed().into_any()),
        Chunk::Failed => failed().into_any(),
    })
    .into_any()
}

fn failed() -> impl IntoView {
    view! {
        <p class="fl-error" role="alert" data-notice="chunk-failed">
            "This page's code did not arrive (the connection, or a newer fluxlens was deployed). Reload the page to try again."
        </p>
    }
}

/// Fetches the code of the page the navigation points at (`router::NavIntent`), so that the
/// click that usually follows opens it at once.
pub fn fetch_on_intent(intent: crate::router::NavIntent) {
    Effect::new(move |_| {
        if let Some(view) = intent.0.get()
            && view != View::Overview
        {
            leptos::task::spawn_local(async move {
                let _ = load(view).await;
            });
        }
    });
}
