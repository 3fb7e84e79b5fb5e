//! A fleet behind one origin, as the deploy kit serves it (`deploy/render.py --fleet`): each
//! cluster's Flux Operator API under `/clusters/<name>/api/…` (the same simulated server, with its
//! own scenario and faults), `/clusters.json` with names and labels only, and the app for every
//! other path. A scenario folder with a `fleet.json` is a fleet:
//!
//! ```json
//! {"clusters": [{"name": "prod-eu", "scenario": "homelab", "labels": {"wave": "2"},
//!                "faults": {"down": "1"}}]}
//! ```
//! `scenario` is a scenario name or `synthetic:N` / `synthetic-healthy:N`; `faults` takes the
//! flags of `/__sim/faults` (`down`, `oidc`, `latency-ms`, …), also changeable at runtime at
//! `/clusters/<name>/__sim/faults`. `"render": true` publishes the cluster's render (its
//! scenario as a repository holds it, fixed at start) at `/renders/<name>.yaml` and names it in
//! `/clusters.json`, as a hub given renders does; a path names that one instead (one nothing
//! serves, to see a row whose render is unreadable); `"revision"` names the commit it was made
//! from.

use crate::faults::Faults;
use crate::http::{self, AppState};
use crate::store::Store;
use axum::Router;
use axum::body::Body;
use axum::http::{HeaderValue, Response, StatusCode, header};
use axum::routing::{any, get};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One cluster of `fleet.json`.
#[derive(Debug, Deserialize)]
struct MemberSpec {
    name: String,
    scenario: String,
    #[serde(default)]
    labels: BTreeMap<String, String>,
    #[serde(default)]
    faults: BTreeMap<String, String>,
    #[serde(default)]
    render: RenderSpec,
    #[serde(default)]
    revision: Option<String>,
}

/// `"render"` of a member: `true` (its own, published), or a path to name instead.
#[derive(Debug, Default, Deserialize)]
#[serde(untagged)]
enum RenderSpec {
    #[default]
    None,
    Own(bool),
    Path(String),
}

#[derive(Debug, Deserialize)]
struct FleetSpec {
    clusters: Vec<MemberSpec>,
}

/// One simulated cluster.
pub struct Member {
    pub name: String,
    pub labels: BTreeMap<String, String>,
    pub state: Arc<AppState>,
    /// The render `/clusters.json` names for it, and whether it is its own (published at
    /// `/renders/<name>.yaml`).
    pub render: Option<String>,
    pub publish: bool,
    pub revision: Option<String>,
}

/// The simulated fleet.
pub struct Fleet {
    pub members: Vec<Member>,
}

impl Fleet {
    /// Reads `dir/fleet.json`; `resolve` turns a scenario name into its folder.
    pub fn from_dir(
        dir: &Path,
        dist: Option<PathBuf>,
        resolve: impl Fn(&str) -> PathBuf,
    ) -> Result<Fleet, String> {
        let path = dir.join("fleet.json");
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let spec: FleetSpec =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut members = Vec::new();
        for m in spec.clusters {
            if !fluxlens_core::fleet::clusters::valid_name(&m.name) {
                return Err(format!("fleet.json: '{}' is not a DNS label", m.name));
            }
            let store = store_of(&m.scenario, &resolve)
                .map_err(|e| format!("fleet.json: {}: {e}", m.name))?;
            let mut faults = Faults::default();
            for (k, v) in &m.faults {
                if !faults.set(k, v) {
                    return Err(format!("fleet.json: {}: unknown fault {k}", m.name));
                }
            }
            let render = match m.render {
                RenderSpec::Own(true) => Some(format!("/renders/{}.yaml", m.name)),
                RenderSpec::Path(ref p) => Some(p.clone()),
                _ => None,
            };
            members.push(Member {
                name: m.name,
                labels: m.labels,
                state: AppState::new(store, faults, dist.clone()),
                publish: matches!(m.render, RenderSpec::Own(true)),
                render,
                revision: m.revision,
            });
        }
        Ok(Fleet { members })
    }

    /// `/clusters.json` as the deploy kit writes it: names and labels, and the render each
    /// published one should run.
    pub fn clusters_json(&self) -> serde_json::Value {
        let clusters: Vec<serde_json::Value> = self
            .members
            .iter()
            .map(|m| {
                let mut e = serde_json::json!({"name": m.name, "labels": m.labels});
                if let Some(r) = &m.render {
                    e["render"] = r.clone().into();
                }
                if let Some(r) = &m.revision {
                    e["revision"] = r.clone().into();
                }
                e
            })
            .collect();
        serde_json::json!({ "clusters": clusters })
    }

    /// Objects across the fleet (for the start-up line).
    pub fn objects(&self) -> usize {
        self.members
            .iter()
            .map(|m| m.state.store.read().unwrap().entries.len())
            .sum()
    }
}

fn store_of(scenario: &str, resolve: &impl Fn(&str) -> PathBuf) -> Result<Store, String> {
    let synthetic = |p: &str, healthy| {
        scenario
            .strip_prefix(p)
            .and_then(|n| n.parse().ok())
            .map(|n| Store::synthetic(n, healthy))
    };
    if let Some(s) =
        synthetic("synthetic-healthy:", true).or_else(|| synthetic("synthetic:", false))
    {
        return Ok(s);
    }
    // Served as a cluster read now would show it, like a single scenario (replay.rs).
    let mut store = Store::from_dir(&resolve(scenario))?;
    crate::replay::rebase(&mut store, crate::replay::now_ms());
    Ok(store)
}

/// The hub: `/clusters.json`, every member's server under `/clusters/<name>`, an API at the root
/// that answers as the kit's fleet site does (there is none), and the app for every other path.
pub fn router(fleet: &Fleet, hub: Arc<AppState>) -> Router {
    let listing = fleet.clusters_json().to_string();
    let renders: Arc<BTreeMap<String, String>> = Arc::new(
        fleet
            .members
            .iter()
            .filter(|m| m.publish)
            .map(|m| (format!("{}.yaml", m.name), m.state.render.clone()))
            .collect(),
    );
    let mut r = Router::new()
        .route(
            "/clusters.json",
            get(move || {
                let body = listing.clone();
                async move { json(body) }
            }),
        )
        .route("/api/{*path}", any(no_root_api))
        .route(
            "/renders/{file}",
            get(move |p| render_of(renders.clone(), p)),
        )
        .route(
            "/",
            get(|| async { axum::response::Redirect::to("/fleet") }),
        )
        .with_state(());
    for m in &fleet.members {
        r = r.nest(
            &format!("/clusters/{}", m.name),
            http::router(m.state.clone()),
        );
    }
    http::hub_router(hub, r)
}

fn json(body: String) -> Response<Body> {
    let mut r = Response::new(Body::from(body));
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

/// A published render, as the hub's web server serves a file (`no-cache`: a merge changes it).
async fn render_of(
    renders: Arc<BTreeMap<String, String>>,
    axum::extract::Path(file): axum::extract::Path<String>,
) -> Response<Body> {
    let Some(text) = renders.get(&file) else {
        let mut r = Response::new(Body::from("no such render\n"));
        *r.status_mut() = StatusCode::NOT_FOUND;
        return r;
    };
    let mut r = Response::new(Body::from(text.clone()));
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/yaml"),
    );
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

async fn no_root_api() -> Response<Body> {
    let mut r = Response::new(Body::from(
        "this hub serves each cluster's API under /clusters/<name>/api/\n",
    ));
    *r.status_mut() = StatusCode::NOT_FOUND;
    r
}
