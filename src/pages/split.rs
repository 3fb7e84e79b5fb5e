//! The pages other than the overview, each in a wasm chunk of its own when the build splits
//! (`--features split`, `scripts/split.py`): the overview is what most visits come for, so its
//! code arrives first and the rest when a page is opened, or later, while the browser is idle.
//! Without the feature every page is linked into the one module, as before (tests, clippy).

use leptos::prelude::*;
#[cfg(feature = "split")]
use leptos::wasm_split::wasm_split;
use std::sync::atomic::{AtomicBool, Ordering};

pub use crate::chunks::ChunkFailed;

/// A page whose code may live in another chunk.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Lazy {
    Graph,
    Changes,
    Signatures,
    Migrations,
    Compliance,
    Fleet,
}

/// Declares a page's split point: `$build` builds the page (in its chunk), `$load` fetches the
/// chunk without building anything.
macro_rules! split_page {
    ($build:ident, $load:ident, $chunk:ident, $page:path) => {
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
    };
}

split_page!(build_graph, load_graph, fluxlens_graph, super::GraphPage);
split_page!(
    build_signatures,
    load_signatures,
    fluxlens_signatures,
    super::SignaturesPage
);
split_page!(
    build_migrations,
    load_migrations,
    fluxlens_migrations,
    super::MigrationsPage
);
split_page!(
    build_compliance,
    load_compliance,
    fluxlens_compliance,
    super::CompliancePage
);
split_page!(build_fleet, load_fleet, fluxlens_fleet, super::FleetPage);
split_page!(
    build_changes,
    load_changes,
    fluxlens_changes,
    super::ChangesPage
);

static GRAPH: AtomicBool = AtomicBool::new(false);
static SIGNATURES: AtomicBool = AtomicBool::new(false);
static MIGRATIONS: AtomicBool = AtomicBool::new(false);
static COMPLIANCE: AtomicBool = AtomicBool::new(false);
static FLEET: AtomicBool = AtomicBool::new(false);
static CHANGES: AtomicBool = AtomicBool::new(false);

impl Lazy {
    /// The pages a cluster's navigation links to (the fleet page is an entry point of its own).
    const LINKED: [Lazy; 5] = [
        Lazy::Graph,
        Lazy::Changes,
        Lazy::Signatures,
        Lazy::Migrations,
        Lazy::Compliance,
    ];

    fn loaded(self) -> &'static AtomicBool {
        match self {
            Lazy::Graph => &GRAPH,
            Lazy::Signatures => &SIGNATURES,
            Lazy::Migrations => &MIGRATIONS,
            Lazy::Compliance => &COMPLIANCE,
            Lazy::Fleet => &FLEET,
            Lazy::Changes => &CHANGES,
        }
    }

    /// Fetches the page's chunk (once; a failed fetch is tried again next time).
    async fn load(self) -> Result<(), ChunkFailed> {
        let answer = match self {
            Lazy::Graph => load_graph().await,
            Lazy::Signatures => load_signatures().await,
            Lazy::Migrations => load_migrations().await,
            Lazy::Compliance => load_compliance().await,
            Lazy::Fleet => load_fleet().await,
            Lazy::Changes => load_changes().await,
        };
        if answer.is_ok() {
            self.loaded().store(true, Ordering::Relaxed);
        }
        // Under `split` the loader's own error; either way only "did not arrive" matters.
        answer.map_err(|_| ChunkFailed)
    }

    /// Builds the page, which needs its chunk loaded: then the call completes at once.
    fn build(self) -> Option<AnyView> {
        use futures_util::FutureExt;
        let built = match self {
            Lazy::Graph => build_graph().now_or_never(),
            Lazy::Signatures => build_signatures().now_or_never(),
            Lazy::Migrations => build_migrations().now_or_never(),
            Lazy::Compliance => build_compliance().now_or_never(),
            Lazy::Fleet => build_fleet().now_or_never(),
            Lazy::Changes => build_changes().now_or_never(),
        };
        built.and_then(Result::ok)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Chunk {
    Loading,
    Ready,
    Failed,
}

/// The page: at once when its chunk is here; otherwise a line saying so until it arrives,
/// and a clear message when it does not.
pub fn lazy_page(page: Lazy) -> AnyView {
    if page.loaded().load(Ordering::Relaxed)
        && let Some(view) = page.build()
    {
        return view;
    }
    let chunk = RwSignal::new(Chunk::Loading);
    leptos::task::spawn_local(async move {
        let answer = page.load().await;
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
        Chunk::Ready => page.build().unwrap_or_else(|| failed().into_any()),
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

/// Fetches the chunks of the pages the navigation links to, one after another, a while after
/// the first view: a later click opens its page at once. Once per session; never in the
/// embedded panel, which has no navigation.
pub fn fetch_the_rest_later() {
    static STARTED: AtomicBool = AtomicBool::new(false);
    if !cfg!(feature = "split") || embedded() || STARTED.swap(true, Ordering::Relaxed) {
        return;
    }
    leptos::task::spawn_local(async {
        gloo_timers::future::TimeoutFuture::new(REST_AFTER_MS).await;
        for page in Lazy::LINKED {
            let _ = page.load().await;
        }
    });
}

fn embedded() -> bool {
    let path = window().location().pathname().unwrap_or_default();
    crate::base::route_of(&path).starts_with("/embed/")
}

/// How long after the first view the other pages' code is fetched.
const REST_AFTER_MS: u32 = 1_500;
