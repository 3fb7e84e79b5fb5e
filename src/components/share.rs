//! Live links, snapshot links and snapshot files.

use crate::chunks::ChunkFailed;
use crate::state::{AppState, LoadStatus, Loaded, SnapshotInfo, Source};
use fluxlens_core::share::snapshot::{self, SnapshotOptions, SnapshotView};
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// The fragment key that carries a snapshot.
pub const FRAGMENT_KEY: &str = "snap=";

/// Opens an encoded snapshot into the app state (no API is contacted). `true` on success. The
/// codec is in the snapshot chunk, fetched now if it is not here yet.
pub async fn open_snapshot(state: AppState, text: String) -> bool {
    match decode_and_show(state, text).await {
        Ok(opened) => opened,
        Err(ChunkFailed) => {
            state.update_status(|s| s.snapshot_error = Some(CHUNK_FAILED.to_string()));
            false
        }
    }
}

/// What the user is told when the snapshot code did not arrive.
const CHUNK_FAILED: &str = "The snapshot could not be opened or made: this page's code for snapshots did not arrive (the connection, or a newer fluxlens was deployed). Reload the page to try again.";

crate::chunks::in_chunk! { fluxlens_snapshot:
    fn decode_and_show(state: AppState, text: String) -> bool {
        match snapshot::decode(&text) {
            Ok(snap) => {
                let opened = snap.open();
                let captured = opened
                    .cluster
                    .notes
                    .captured_at_ms
                    .map(crate::clock::dated)
                    .unwrap_or_else(|| "unknown time".into());
                state.data.set(Some(Arc::new(Loaded::opened(
                    opened.cluster,
                    opened.verdicts,
                ))));
                state.drift_read.update(|r| r.carried = opened.drift);
                state.update_status(|s| {
                    s.source = Source::Snapshot(SnapshotInfo {
                        captured_at: captured,
                    });
                    s.snapshot_error = None;
                });
                crate::perf::mark(crate::perf::DATA_READY);
                true
            }
            Err(e) => {
                state.update_status(|s| s.snapshot_error = Some(e.to_string()));
                false
            }
        }
    }
}

/// A snapshot ready to leave: its encoded text and how many values were redacted from it.
#[derive(Clone, PartialEq)]
struct Encoded {
    text: String,
    redacted: usize,
    /// What the user is told of the redaction before the link is copied.
    sentence: String,
}

crate::chunks::in_chunk! { fluxlens_snapshot:
    /// Captures and encodes the data shown; why not, when redaction cannot be completed.
    fn encode(data: Arc<Loaded>, shared: Shared) -> Result<Encoded, String> {
        let Shared { view, drop_messages, drift } = shared;
        let options = SnapshotOptions { view, drop_messages };
        snapshot::capture_with(&data.cluster, options, drift.as_ref())
            .map(|snap| Encoded {
                text: snapshot::encode(&snap),
                redacted: snap.redacted,
                sentence: snapshot::redaction_sentence(snap.redacted, &data.cluster),
            })
            .map_err(|e| e.to_string())
    }
}

/// What a snapshot is made of besides the data: the view it is taken from, whether messages
/// are dropped, and the drift view's judgement when it shows one.
struct Shared {
    view: SnapshotView,
    drop_messages: bool,
    drift: Option<fluxlens_core::analyses::drift::Judged>,
}

/// The data shown, encoded; `None` (the user told why) when it cannot be.
async fn encode_current(state: AppState, drop_messages: bool) -> Option<Encoded> {
    let data = state.data.get_untracked()?;
    let shared = Shared {
        view: current_view(),
        drop_messages,
        drift: state.drift_read.with_untracked(|r| r.shown.clone()),
    };
    let answer = encode(data, shared).await;
    match answer.unwrap_or_else(|ChunkFailed| Err(CHUNK_FAILED.to_string())) {
        Ok(encoded) => Some(encoded),
        Err(why) => {
            state.update_status(|s| s.snapshot_error = Some(why));
            None
        }
    }
}

/// Writes an opened snapshot file into the address bar, so a reload or a copied URL reopens
/// the snapshot, not the live data (#46). The file was checked against the link's limit.
fn keep_in_address_bar(text: &str) {
    let Some(w) = web_sys::window() else {
        return;
    };
    let url = format!("{}#{FRAGMENT_KEY}{text}", live_link());
    if let Ok(history) = w.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The address to copy: the snapshot's own while one is shown, else the live view's.
fn current_link(state: AppState) -> String {
    if state.status_untracked(LoadStatus::is_snapshot) {
        web_sys::window()
            .and_then(|w| w.location().href().ok())
            .unwrap_or_default()
    } else {
        // A comparison (`#compare=`) is part of what the live page shows: its link keeps it.
        let compare = fluxlens_core::share::urlstate::Fragment {
            snapshot: None,
            compare: crate::router::fragment().compare,
        };
        format!("{}{}", live_link(), compare.to_hash())
    }
}

/// The snapshot in the page's URL fragment, if any.
pub fn fragment_snapshot() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    fluxlens_core::share::urlstate::Fragment::parse(&hash).snapshot
}

fn current_view() -> SnapshotView {
    let path = crate::base::route_path();
    SnapshotView::parse(path.trim_start_matches("/embed").trim_matches('/'))
}

fn copy(text: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.navigator().clipboard().write_text(text);
    }
}

fn live_link() -> String {
    let Some(loc) = web_sys::window().map(|w| w.location()) else {
        return String::new();
    };
    format!(
        "{}{}{}",
        loc.origin().unwrap_or_default(),
        loc.pathname().unwrap_or_default(),
        loc.search().unwrap_or_default()
    )
}

/// "Copy link", "Share snapshot", "Save snapshot" and "Open snapshot" controls.
#[component]
pub fn ShareControls() -> impl IntoView {
    let state = AppState::expect();
    let drop_messages = RwSignal::new(false);
    let shown = RwSignal::new(None::<String>);
    // A prepared snapshot link and how many values were redacted from it: shown first, copied
    // only when the user asks, so they see what left before it leaves.
    let prepared = RwSignal::new(None::<(String, usize, String)>);
    // Fails closed: when redaction cannot be completed nothing is prepared and the user is
    // told why.
    let share = move |_| {
        leptos::task::spawn_local(async move {
            if let Some(e) = encode_current(state, drop_messages.get_untracked()).await {
                let link = format!("{}#{FRAGMENT_KEY}{}", live_link(), e.text);
                shown.set(Some(link.clone()));
                prepared.set(Some((link, e.redacted, e.sentence)));
            }
        });
    };
    let save = move |_| {
        leptos::task::spawn_local(async move {
            if let Some(e) = encode_current(state, drop_messages.get_untracked()).await {
                crate::components::download::download(
                    "fluxlens-snapshot.fluxlens",
                    "text/plain",
                    &e.text,
                );
            }
        });
    };
    let open_file = move |ev: web_sys::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        if file.size() > snapshot::MAX_ENCODED as f64 {
            let why = snapshot::SnapshotError::TooLarge(file.size() as usize).to_string();
            state.update_status(|s| s.snapshot_error = Some(why));
            return;
        }
        leptos::task::spawn_local(async move {
            if let Ok(text) = wasm_bindgen_futures::JsFuture::from(file.text()).await
                && let Some(t) = text.as_string()
                && open_snapshot(state, t.trim().to_string()).await
            {
                keep_in_address_bar(t.trim());
            }
        });
    };
    view! {
        <crate::components::menu::Menu label="Share" id="share">
            <div class="fl-share">
                <button
                    class="fl-btn"
                    type="button"
                    on:click=move |_| {
                        let l = current_link(state);
                        copy(&l);
                        shown.set(Some(l));
                    }
                >
                    "Copy link"
                </button>
                <Show when=move || !state.status(LoadStatus::is_snapshot)>
                    <button class="fl-btn" type="button" on:click=share>
                        "Share snapshot"
                    </button>
                </Show>
                <button class="fl-btn" type="button" on:click=save>
                    "Save snapshot"
                </button>
                <label class="fl-btn">
                    "Open snapshot…"
                    <input
                        class="fl-sr"
                        type="file"
                        accept=".fluxlens,text/plain"
                        on:change=open_file
                    />
                </label>
                <label>
                    <input
                        type="checkbox"
                        prop:checked=move || drop_messages.get()
                        on:change=move |ev| drop_messages.set(event_target_checked(&ev))
                    />
                    " drop messages"
                </label>
                {move || {
                    shown
                        .get()
                        .map(|l| {
                            let redaction = prepared
                                .get()
                                .filter(|(p, _, _)| *p == l)
                                .map(|(p, n, sentence)| {
                                    view! {
                                        <span class="fl-share__redacted" data-redacted=n>
                                            {sentence}
                                        </span>
                                        <button
                                            class="fl-btn"
                                            type="button"
                                            data-copy-snapshot=""
                                            on:click=move |_| copy(&p)
                                        >
                                            "Copy snapshot link"
                                        </button>
                                    }
                                });
                            let label = if redaction.is_some() {
                                "Snapshot link "
                            } else {
                                "Link (copied) "
                            };
                            view! {
                                <label class="fl-share__link">
                                    {label}
                                    <input
                                        type="text"
                                        readonly
                                        prop:value=l.clone()
                                        data-share-link=""
                                        size="40"
                                    />
                                </label>
                                {redaction}
                            }
                        })
                }}
            </div>
        </crate::components::menu::Menu>
    }
}

/// The banner shown while a snapshot is on screen.
#[component]
pub fn SnapshotBanner() -> impl IntoView {
    let state = AppState::expect();
    let loc = crate::router::use_location();
    // The live view of the page shown now (in-app navigation keeps the snapshot).
    let live_href = move || {
        let origin = web_sys::window()
            .and_then(|w| w.location().origin().ok())
            .unwrap_or_default();
        format!("{origin}{}{}", loc.pathname.get(), loc.search.get())
    };
    move || {
        let (snapshot_error, snapshot) =
            state.status(|s| (s.snapshot_error.clone(), s.snapshot().cloned()));
        let err = snapshot_error.map(|e| {
            view! {
                <div class="fl-notice fl-notice--error" role="alert" data-snapshot-error="">
                    {e}
                </div>
            }
        });
        let banner = snapshot.map(|s| {
            let cluster = state
                .data
                .with(|d| {
                    d.as_ref()
                        .and_then(|d| d.cluster.report.spec.distribution.version.clone())
                })
                .unwrap_or_else(|| "unknown".into());
            view! {
                <div class="fl-notice fl-notice--snapshot" role="status" data-snapshot="">
                    <strong>"Snapshot — not live. "</strong>
                    {format!(
                        "Captured at {} · cluster Flux {cluster} · read-only",
                        s.captured_at,
                    )}
                    // A full load: the page must start over without the snapshot and contact the API.
                    " "
                    <a href=live_href rel="external">
                        "Open the live view"
                    </a>
                </div>
            }
        });
        (err, banner)
    }
}
