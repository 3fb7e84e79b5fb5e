//! Assembles the whole cluster in `3 + ⌈N/2000⌉` requests, then polls: report and summaries
//! every interval (paused while the tab is hidden), refetching only changed objects. On
//! error the last good state stays and the error is shown with "stale since".

use super::{ApiError, endpoints};
use crate::state::{AppState, Loaded};
use fluxlens_core::api::{ApiObject, FluxReport, ResourceSummary};
use fluxlens_core::load;
use fluxlens_core::model::{Cluster, CrdAccess, LoadNotes, ObjectKey};
use leptos::prelude::*;
use std::collections::HashMap;

/// Default poll interval (the built-in UI's).
pub const POLL_SECONDS: u32 = 30;

/// What the loader keeps between polls.
#[derive(Default)]
struct Cache {
    summaries: Vec<ResourceSummary>,
    objects: HashMap<ObjectKey, ApiObject>,
    crds: CrdAccess,
    truncated: Vec<String>,
    unreadable: Vec<(ObjectKey, String)>,
}

/// Starts the first load and the poll loop.
pub fn start(state: AppState, poll_seconds: u32) {
    leptos::task::spawn_local(async move {
        let mut cache = Cache::default();
        let mut first = true;
        loop {
            if !first && document_hidden() {
                gloo_timers::future::TimeoutFuture::new(1000).await;
                continue;
            }
            match refresh(&mut cache, &state, first).await {
                Ok(loaded) => {
                    state.data.set(Some(std::sync::Arc::new(loaded)));
                    state.error.set(None);
                    state.stale_since.set(None);
                    state.progress.set(None);
                    if first {
                        crate::perf::mark(crate::perf::DATA_READY);
                    }
                    first = false;
                }
                Err(e) => {
                    if state.data.get_untracked().is_some()
                        && state.stale_since.get_untracked().is_none()
                    {
                        state.stale_since.set(Some(js_sys::Date::now()));
                    }
                    state.progress.set(None);
                    state.error.set(Some(e));
                }
            }
            // Without data yet, retry sooner: the user is looking at an error, not a dashboard.
            let wait = if first {
                poll_seconds.min(5)
            } else {
                poll_seconds
            };
            gloo_timers::future::TimeoutFuture::new(wait * 1000).await;
        }
    });
}

fn document_hidden() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.hidden())
}

async fn refresh(cache: &mut Cache, state: &AppState, first: bool) -> Result<Loaded, ApiError> {
    let say = |s: String| {
        if first {
            state.progress.set(Some(s));
        }
    };
    say("report".into());
    let report = endpoints::report().await?;
    say("resource summaries".into());
    let summaries = summaries(&report).await?;
    let (changed, gone) = load::diff_summaries(&cache.summaries, &summaries.0);
    for k in gone {
        cache.objects.remove(&k);
    }
    let batches = load::object_batches(&report, &changed);
    let total: usize = batches.iter().map(|b| b.objects.len()).sum();
    let mut done = 0;
    cache
        .unreadable
        .retain(|(k, _)| !changed.iter().any(|s| &load::summary_key(s) == k));
    for batch in &batches {
        say(format!("objects {done} of {total}"));
        let resp = endpoints::inventory_objects(batch).await?;
        done += batch.objects.len();
        let (objects, failed) = load::split_results(resp.objects);
        for o in objects {
            if let Some(key) = fluxlens_core::FluxObject::from_api(o.clone()).map(|f| f.key) {
                cache.objects.insert(key, o);
            }
        }
        cache.unreadable.extend(failed);
    }
    if first && let Some(req) = load::crd_request(&report) {
        say("CRD storage versions".into());
        // CRDs are optional: any failure means "unknown", never an error for the page.
        cache.crds = match endpoints::inventory_objects(&req).await {
            Ok(r) => load::crd_access(r.objects),
            Err(_) => CrdAccess::Unknown,
        };
    }
    cache.summaries = summaries.0;
    cache.truncated = summaries.1;
    Ok(build(report, cache))
}

/// Lists every summary; a kind the server truncated is listed again per namespace.
async fn summaries(report: &FluxReport) -> Result<(Vec<ResourceSummary>, Vec<String>), ApiError> {
    let mut rows = endpoints::resources("", "").await?.resources;
    let mut still_truncated = Vec::new();
    for kind in load::truncated_kinds(report, &rows) {
        rows.retain(|r| r.kind != kind);
        for ns in &report.spec.namespaces {
            let part = endpoints::resources(&kind, ns).await?.resources;
            if part.len() >= load::SUMMARY_CAP_PER_KIND {
                still_truncated.push(format!("{kind} in {ns}"));
            }
            rows.extend(part);
        }
    }
    Ok((rows, still_truncated))
}

fn build(report: FluxReport, cache: &Cache) -> Loaded {
    let mut cluster = Cluster::new(report, cache.objects.values().cloned(), cache.crds.clone());
    cluster.notes = LoadNotes {
        truncated_kinds: cache.truncated.clone(),
        unreadable: cache.unreadable.clone(),
        captured_at_ms: Some(js_sys::Date::now() as i64),
    };
    Loaded::new(cluster)
}
