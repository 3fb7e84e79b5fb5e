//! Drift's reads, on demand: a render fetched from the page's own origin (never the API, never
//! another origin: `fluxlens_core::render::same_origin_path`), and the declared objects the live
//! lists lack, read by key with the dashboard's batch read. The drift view names what it wants
//! in `AppState::drift_wanted`, the answers land in `drift_read`; the fleet's rows read the
//! same way through [`fetch_render`] and [`ask`].

use crate::state::{AppState, DriftAnswers};
use fluxlens_core::load::poll::Request;
use fluxlens_core::wire::inventory::InventoryObjectsResponse;
use leptos::prelude::*;

/// A render may be at most this large (the check's own limit for one file).
const MAX_RENDER_BYTES: usize = fluxlens_core::render::manifests::MAX_FILE_BYTES as usize;

/// Watches `drift_wanted` for the rest of the page's life: started by the drift view when it
/// first opens (once), so that its code rides the view's chunk, not every visit's module.
pub fn serve(state: AppState) {
    static STARTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if STARTED.swap(true, std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    // The effects live as long as the page: the view that starts them comes and goes. A new
    // root becomes the current owner; the view's own is put back after.
    let view_owner = Owner::current();
    let owner = Owner::new_root(None);
    owner.with(|| watch(state));
    std::mem::forget(owner);
    if let Some(o) = view_owner {
        o.set();
    }
}

fn watch(state: AppState) {
    let url = Memo::new(move |_| state.drift_wanted.with(|w| w.render_url.clone()));
    Effect::new(move |_| {
        let Some(url) = url.get() else { return };
        leptos::task::spawn_local(async move {
            let text = fetch_render(&url).await;
            if url_still_wanted(state, &url) {
                state.drift_read.update(|r| r.render = Some((url, text)));
            }
        });
    });
    let keys = Memo::new(move |_| state.drift_wanted.with(|w| w.keys.clone()));
    Effect::new(move |_| {
        let keys = keys.get();
        // A snapshot never contacts the API: what it lacks stays unconfirmed.
        if keys.is_empty() || state.status_untracked(crate::state::LoadStatus::is_snapshot) {
            return;
        }
        leptos::task::spawn_local(async move {
            let report = state
                .data
                .with_untracked(|d| d.as_ref().map(|d| d.cluster.report.clone()))
                .unwrap_or_default();
            let answers = ask(&super::Api::page(), &report, &keys).await;
            if state.drift_wanted.with_untracked(|w| w.keys == keys) {
                state.drift_read.update(|r| r.answers = Some(answers));
            }
        });
    });
}

fn url_still_wanted(state: AppState, url: &str) -> bool {
    state
        .drift_wanted
        .with_untracked(|w| w.render_url.as_deref() == Some(url))
}

/// The render's text, or why it cannot be had: another origin, the API, a web page answered
/// in its place, an error status, too large.
pub async fn fetch_render(url: &str) -> Result<String, String> {
    let origin = super::page_origin();
    let path = fluxlens_core::render::same_origin_path(url, &origin)?;
    let resp = gloo_net::http::Request::get(&path)
        .send()
        .await
        .map_err(|e| format!("{path} could not be fetched: {e}"))?;
    let status = resp.status();
    if !(200..300).contains(&status) {
        return Err(format!("{path} answered {status} {}", resp.status_text()));
    }
    let media = resp.headers().get("content-type").unwrap_or_default();
    if media.trim_start().starts_with("text/html") {
        return Err(format!(
            "{path} answered a web page (text/html), not a render: is the file at that path?"
        ));
    }
    let text = resp
        .text()
        .await
        .map_err(|e| format!("{path} could not be read: {e}"))?;
    if text.len() > MAX_RENDER_BYTES {
        return Err(format!(
            "{path} is {} bytes, over the limit of {MAX_RENDER_BYTES}",
            text.len()
        ));
    }
    Ok(text)
}

/// Reads `keys` by key from `api`, in the poller's batches (sized by the cluster's `report`).
pub async fn ask(
    api: &super::Api,
    report: &fluxlens_core::wire::report::FluxReport,
    keys: &[fluxlens_core::ObjectKey],
) -> DriftAnswers {
    let mut out = DriftAnswers {
        keys: keys.to_vec(),
        ..Default::default()
    };
    for batch in fluxlens_core::load::key_batches(report, keys) {
        let answer = api.send(&Request::Objects(batch)).await.and_then(|body| {
            fluxlens_core::wire::error::decode::<InventoryObjectsResponse>(&body.text())
        });
        match answer {
            Ok(answer) => out.said.extend(fluxlens_core::load::answers_by_key(answer)),
            Err(e) => {
                out.error = Some(e.to_string());
                break;
            }
        }
    }
    out
}
