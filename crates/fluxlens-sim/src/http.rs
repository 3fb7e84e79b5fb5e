//! The HTTP surface: the read API with the real server's quirks, refusal of every mutating
//! call, the SPA fallback, static files of the built app, and the `/__sim/*` controls.

use crate::clocks::Clocks;
use crate::faults::Faults;
use crate::store::Store;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path, RawQuery, State};
use axum::http::{
    Extensions, HeaderMap, HeaderValue, Method, Request, Response, StatusCode, Version, header,
};
use axum::middleware;
use axum::routing::any;
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use tower_http::compression::CompressionLayer;
use tower_http::services::{ServeDir, ServeFile};

/// One logged request.
#[derive(Debug, Clone, Serialize)]
pub struct LogEntry {
    pub method: String,
    pub path: String,
    /// The raw query string ("" when none).
    pub query: String,
    pub status: u16,
    /// True for calls that would change the cluster (always refused).
    pub mutating: bool,
    /// For an object batch (`POST /api/v1/inventory/objects`), the objects asked, as
    /// `Kind/namespace/name`: what a test counts to see an object asked again.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<String>,
}

/// The objects a batch body asks for, as `Kind/namespace/name`.
fn batch_objects(body: &[u8]) -> Vec<String> {
    let Ok(v) = serde_json::from_slice::<Value>(body) else {
        return Vec::new();
    };
    v["objects"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|o| {
                    let f = |k: &str| o[k].as_str().unwrap_or("").to_string();
                    format!("{}/{}/{}", f("kind"), f("namespace"), f("name"))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Shared server state.
pub struct AppState {
    /// Written only by `/__sim/set-ready` (a reconcile that changes one object) and
    /// `/__sim/unset-spec` (an edit no status shows yet).
    pub store: RwLock<Store>,
    pub faults: Mutex<Faults>,
    /// The server's report ticker and namespace cache over the store (`clocks.rs`).
    pub clocks: Mutex<Clocks>,
    pub log: Mutex<Vec<LogEntry>>,
    pub dist: Option<PathBuf>,
    counter: AtomicU64,
    /// The scenario's render as a repository would hold it, fixed when the server starts (every
    /// object without its status): what `/__sim/render.yaml` serves, so the drift view and `flux
    /// lens drift` have a render to judge while the controls change the cluster.
    pub render: String,
}

impl AppState {
    /// Changes the store as a control does: the ticks due before the change are run first,
    /// on the store as it was (what the server's ticker saw then).
    pub fn change_store<T>(&self, change: impl FnOnce(&mut Store, i64) -> T) -> T {
        let mut store = self.store.write().unwrap();
        let mut clocks = self.clocks.lock().unwrap();
        clocks.catch_up(&store);
        let now = clocks.now_ms();
        change(&mut store, now)
    }

    /// Wraps a store.
    pub fn new(store: Store, faults: Faults, dist: Option<PathBuf>) -> Arc<AppState> {
        let clocks = Clocks::start(&store, faults.mode.one_instant);
        let render = store.render();
        Arc::new(AppState {
            render,
            store: RwLock::new(store),
            clocks: Mutex::new(clocks),
            faults: Mutex::new(faults),
            log: Mutex::new(vec![]),
            dist,
            counter: AtomicU64::new(0),
        })
    }
}

const MUTATING_PATHS: [&str; 3] = [
    "/api/v1/resource/action",
    "/api/v1/workload/action",
    "/logout",
];
const MAX_BODY: usize = 1 << 20;

/// The simulator's routes: the `/__sim/*` controls, the API (every mutating call refused), the
/// operator's `/logout`, and the built app for every other path (its SPA fallback). Requests are
/// logged; API answers are gzipped when the browser accepts it, as the real server's
/// middleware does (FO `internal/web/middlewares.go` `GzipMiddleware`).
pub fn router(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/__sim/{*control}", any(control))
        .route("/api/{*path}", any(api_entry))
        .route("/logout", any(logout))
        .fallback(app_files)
        .layer(middleware::from_fn_with_state(state.clone(), log_requests))
        .layer(gzip())
        .with_state(state)
}

/// A fleet hub's own routes (`crate::fleet`): its `/__sim/*` controls (the log of every
/// request to the hub, full paths) and the app for every path no cluster answers.
pub fn hub_router(hub: Arc<AppState>, clusters: Router) -> Router {
    Router::new()
        .route("/__sim/{*control}", any(control))
        .fallback(app_files)
        .with_state(hub.clone())
        .merge(clusters)
        .layer(middleware::from_fn_with_state(hub, log_requests))
        .layer(gzip())
}

fn gzip() -> CompressionLayer<impl tower_http::compression::Predicate> {
    CompressionLayer::new()
        .no_br()
        .no_deflate()
        .no_zstd()
        .compress_when(|_: StatusCode, _: Version, h: &HeaderMap, x: &Extensions| {
            // A fault's dropped stream stays a drop; the app's files come precompressed.
            x.get::<Uncompressed>().is_none() && !h.contains_key(header::CONTENT_ENCODING)
        })
}

/// Handles one request through [`router`], as the server does (the conformance tests' door).
#[cfg(test)]
pub async fn handle(state: Arc<AppState>, req: Request<Body>) -> Response<Body> {
    use tower::ServiceExt;
    match router(state).oneshot(req).await {
        Ok(resp) => resp,
        Err(never) => match never {},
    }
}

/// Marks a response the compression layer must pass through untouched.
#[derive(Debug, Clone, Copy)]
struct Uncompressed;

/// Whether a request would change the cluster: anything but GET/HEAD, except the read-only
/// `POST /api/v1/inventory/objects`.
pub(crate) fn is_mutating(method: &Method, path: &str) -> bool {
    // Under a fleet hub a cluster's API is at `/clusters/<name>/api/…` (`crate::fleet`).
    let path = match path
        .strip_prefix("/clusters/")
        .and_then(|p| p.split_once('/'))
    {
        Some((_, rest)) => &path[path.len() - rest.len() - 1..],
        None => path,
    };
    method != Method::GET
        && method != Method::HEAD
        && (MUTATING_PATHS.contains(&path) || path != "/api/v1/inventory/objects")
}

/// Records every request but the controls' own in the log `/__sim/log` answers.
async fn log_requests(
    State(state): State<Arc<AppState>>,
    req: Request<Body>,
    next: middleware::Next,
) -> Response<Body> {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let query = req.uri().query().unwrap_or("").to_string();
    let (req, objects) = if method == Method::POST && path.ends_with("/api/v1/inventory/objects") {
        let (parts, body) = req.into_parts();
        let bytes = axum::body::to_bytes(body, 64 << 20)
            .await
            .unwrap_or_default();
        let objects = batch_objects(&bytes);
        (Request::from_parts(parts, Body::from(bytes)), objects)
    } else {
        (req, Vec::new())
    };
    let resp = next.run(req).await;
    if !path.contains("/__sim/") {
        state.log.lock().unwrap().push(LogEntry {
            mutating: is_mutating(&method, &path),
            method: method.to_string(),
            path,
            query,
            status: resp.status().as_u16(),
            objects,
        });
    }
    resp
}

fn refused(method: &Method, path: &str) -> Response<Body> {
    eprintln!("fluxlens-sim: REFUSED mutating request {method} {path}");
    text(
        StatusCode::METHOD_NOT_ALLOWED,
        "fluxlens-sim refuses mutating requests",
    )
}

/// `/logout` changes the session: refused; a GET is the app's page like any other path.
async fn logout(State(state): State<Arc<AppState>>, req: Request<Body>) -> Response<Body> {
    if is_mutating(req.method(), "/logout") {
        return refused(req.method(), "/logout");
    }
    app_files(State(state), req).await
}

/// Every API path: mutating calls refused, the rest answered as the real server does.
async fn api_entry(State(state): State<Arc<AppState>>, req: Request<Body>) -> Response<Body> {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    if is_mutating(&method, &path) {
        return refused(&method, &path);
    }
    let query = parse_query(req.uri().query().unwrap_or(""));
    let headers = req.headers().clone();
    let body = axum::body::to_bytes(req.into_body(), MAX_BODY + 1)
        .await
        .unwrap_or_default();
    api(&state, &method, &path, &query, &headers, &body).await
}

/// The built app: its files (the build's `.br`/`.gz` when the browser accepts them, as nginx's
/// brotli_static/gzip_static do in the deploy kit) and `index.html` for every other path, or the
/// operator UI's stand-in when that fault is on.
async fn app_files(State(state): State<Arc<AppState>>, req: Request<Body>) -> Response<Body> {
    use tower::ServiceExt;
    if state.faults.lock().unwrap().mode.ui_stand_in {
        return html(STAND_IN_STATUS_PAGE);
    }
    let Some(dist) = &state.dist else {
        return html(NO_DIST_PAGE);
    };
    // Hidden files are not the app's: they get the app's page, as unknown paths do.
    let hidden = req.uri().path().split('/').any(|p| p.starts_with('.'));
    // A build's file, when it is there (a missing one gets the page, which is never kept).
    let hashed = is_hashed_asset(req.uri().path())
        && dist
            .join(req.uri().path().trim_start_matches('/'))
            .is_file();
    let index = ServeFile::new(dist.join("index.html"))
        .precompressed_br()
        .precompressed_gzip();
    let resp = if hidden {
        index.oneshot(req).await
    } else {
        ServeDir::new(dist)
            .precompressed_br()
            .precompressed_gzip()
            .fallback(index)
            .oneshot(req)
            .await
    };
    let down = state.faults.lock().unwrap().down;
    match resp {
        Ok(r) => {
            let mut r = with_app_headers(r.map(Body::new));
            if hashed && r.status().is_success() {
                r.headers_mut().insert(
                    header::CACHE_CONTROL,
                    HeaderValue::from_static("public, max-age=31536000, immutable"),
                );
            }
            if down {
                r.headers_mut()
                    .append(header::SET_COOKIE, bootstrap_cookie());
            }
            r
        }
        Err(never) => match never {},
    }
}

/// Whether `path` is in a build's folder (`/fluxlens-<16 hex>/…`, scripts/split.py), whose
/// files never change under their name: kept a year, as the deploy kit keeps them.
fn is_hashed_asset(path: &str) -> bool {
    let Some(rest) = path.strip_prefix("/fluxlens-") else {
        return false;
    };
    rest.len() > 17
        && rest.as_bytes()[16] == b'/'
        && rest[..16].bytes().all(|b| b.is_ascii_hexdigit())
}

/// While the server starts, its bootstrap handler writes the Anonymous `auth-provider` cookie
/// on every answer, the app's files too, whatever the configured authentication (FO server.go
/// `RunServer`: "Always set auth-provider cookie").
fn bootstrap_cookie() -> HeaderValue {
    provider_cookie(ANONYMOUS_PROVIDER)
}

/// The `auth-provider` value of a server that asks for no sign-in.
const ANONYMOUS_PROVIDER: &str =
    r#"{"provider":"Anonymous","url":"","authenticated":true,"autoLogin":false}"#;

/// The `auth-provider` cookie carrying `json` (base64url, as FO auth/cookies.go `setCookie`).
fn provider_cookie(json: &str) -> HeaderValue {
    let value = fluxlens_core::util::base64url::encode(json.as_bytes());
    HeaderValue::from_str(&format!("auth-provider={value}; Path=/; SameSite=Lax"))
        .unwrap_or_else(|_| HeaderValue::from_static("auth-provider=; Path=/"))
}

/// The headers every page of the app is served with: revalidate each load, and the CSP the
/// deploy kit sets.
fn with_app_headers(mut r: Response<Body>) -> Response<Body> {
    let h = r.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert("content-security-policy", HeaderValue::from_static(APP_CSP));
    r
}

/// What the app's paths answer when the simulator was started without a build.
const NO_DIST_PAGE: &str = "<!doctype html><html><body>fluxlens-sim: no --dist given</body></html>";

const APP_CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'";

/// The app's `index.html`, as the real server's catch-all answers unknown API paths.
fn index_page(state: &AppState) -> Response<Body> {
    let Some(dist) = &state.dist else {
        return html(NO_DIST_PAGE);
    };
    with_app_headers(
        Response::builder()
            .header(header::CONTENT_TYPE, "text/html; charset=utf-8")
            .body(Body::from(
                std::fs::read(dist.join("index.html")).unwrap_or_default(),
            ))
            .unwrap(),
    )
}

async fn api(
    state: &AppState,
    method: &Method,
    path: &str,
    q: &HashMap<String, String>,
    headers: &HeaderMap,
    body: &Bytes,
) -> Response<Body> {
    let faults = state.faults.lock().unwrap().clone();
    if faults.latency_ms > 0 {
        tokio::time::sleep(std::time::Duration::from_millis(faults.latency_ms)).await;
    }
    if faults.down {
        let mut resp = text(StatusCode::SERVICE_UNAVAILABLE, "server not initialized");
        resp.headers_mut()
            .append(header::SET_COOKIE, bootstrap_cookie());
        return resp;
    }
    // The cross-origin screen runs before authentication (FO middlewares.go
    // `CrossOriginMiddleware`, wrapped outside the auth middleware).
    if let Some(refused) = cross_origin_screen(method, headers, body) {
        return refused;
    }
    let authenticated = !faults.oidc || cookie_present(headers, "auth-storage");
    let mut resp = if authenticated {
        api_routes(state, &faults, method, path, q, body)
    } else {
        text(StatusCode::UNAUTHORIZED, "Unauthorized")
    };
    // Every API answer (re)writes the auth-provider cookie (FO auth/cookies.go).
    resp.headers_mut().append(
        header::SET_COOKIE,
        auth_provider_cookie(&faults, headers, authenticated),
    );
    resp
}

/// Steps 1 and 2 of the screen for unsafe methods: `Sec-Fetch-Site` must be same-origin,
/// none or absent; a body must be `application/json`.
fn cross_origin_screen(
    method: &Method,
    headers: &HeaderMap,
    body: &Bytes,
) -> Option<Response<Body>> {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return None;
    }
    let site = headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if site == "cross-site" || site == "same-site" {
        return Some(text(
            StatusCode::FORBIDDEN,
            "Cross-origin requests are not allowed",
        ));
    }
    let ct = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !body.is_empty() && ct.split(';').next().unwrap_or("").trim() != "application/json" {
        return Some(text(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Content-Type must be application/json",
        ));
    }
    None
}

/// `auth-provider`: Anonymous when authentication is off; in OIDC mode the absolute
/// `<baseURL>/oauth2/authorize` (the sim's own origin) and whether this request had a session.
fn auth_provider_cookie(faults: &Faults, headers: &HeaderMap, authenticated: bool) -> HeaderValue {
    let json = if faults.oidc {
        let host = headers
            .get(header::HOST)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("127.0.0.1");
        format!(
            r#"{{"provider":"OIDC","url":"http://{host}/oauth2/authorize","authenticated":{authenticated},"autoLogin":false}}"#
        )
    } else {
        ANONYMOUS_PROVIDER.to_string()
    };
    provider_cookie(&json)
}

fn api_routes(
    state: &AppState,
    faults: &Faults,
    method: &Method,
    path: &str,
    q: &HashMap<String, String>,
    body: &Bytes,
) -> Response<Body> {
    let n = state.counter.fetch_add(1, Ordering::Relaxed);
    if faults.forbidden {
        return text(
            StatusCode::FORBIDDEN,
            "You do not have access to this resource. User: sim, Groups: [sim]",
        );
    }
    if faults.error_rate > 0.0
        && ((n.wrapping_mul(2654435761) % 1000) as f64) < faults.error_rate * 1000.0
    {
        return text(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Failed to list resources: injected error",
        );
    }
    if faults.html {
        return index_page(state);
    }
    let s = state.store.read().unwrap();
    let mode = &faults.mode;
    let seen = {
        let mut clocks = state.clocks.lock().unwrap();
        clocks.catch_up(&s);
        clocks.seen(&s, mode, n)
    };
    let get = |k: &str| q.get(k).map(String::as_str).filter(|v| !v.is_empty());
    for f in ["name", "namespace", "kind"] {
        if q.get(f).is_some_and(|v| v.len() > 253) {
            return text(
                StatusCode::BAD_REQUEST,
                &format!("{f} filter exceeds maximum length of 253 bytes"),
            );
        }
    }
    let is_get = method == Method::GET || method == Method::HEAD;
    let value = match (path, is_get) {
        ("/api/v1/report", true) if method == Method::HEAD => {
            return text(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed");
        }
        ("/api/v1/report", true) => {
            let placeholder = faults.report_placeholder || faults.namespaces_fail;
            let mut r = s.report_at(&seen, mode, placeholder);
            if faults.half_report {
                r["spec"]["reconcilers"] = json!([]);
            }
            r
        }
        ("/api/v1/resources" | "/api/v1/search", true)
            if faults.namespaces_fail || (faults.half_report && mode.search_cached) =>
        {
            json!({ "resources": [] })
        }
        ("/api/v1/resources", true) => {
            let query = crate::store::ListQuery {
                kind: get("kind"),
                name: get("name").unwrap_or(""),
                ns: get("namespace"),
                status: get("status"),
            };
            s.resources_at(&seen, mode, &query)
        }
        ("/api/v1/search", true) => s.search_at(
            &seen,
            mode,
            get("kind"),
            get("name").unwrap_or(""),
            get("namespace"),
        ),
        ("/api/v1/resource", true) => match (get("kind"), get("name"), get("namespace")) {
            (Some(k), Some(n), Some(ns)) => match s.resource(mode, k, n, ns) {
                Ok(v) => v,
                Err(crate::store::TextError(code, msg)) => {
                    let code = StatusCode::from_u16(code).unwrap_or(StatusCode::FORBIDDEN);
                    return text(code, &msg);
                }
            },
            _ => {
                return text(
                    StatusCode::BAD_REQUEST,
                    "Missing required parameters: kind, name, namespace",
                );
            }
        },
        ("/api/v1/events", true) => s.events_at(
            &seen,
            mode,
            get("kind"),
            get("name").unwrap_or(""),
            get("namespace"),
            get("type"),
        ),
        ("/api/v1/inventory/objects", false) => {
            let Some(req) = (body.len() <= MAX_BODY)
                .then(|| serde_json::from_slice::<Value>(body).ok())
                .flatten()
            else {
                return text(StatusCode::BAD_REQUEST, "Invalid request body");
            };
            let items = req["objects"].as_array().cloned().unwrap_or_default();
            let confirming = req["statusOnly"].as_bool() == Some(true)
                && items
                    .iter()
                    .all(|i| i["kind"].as_str() != Some("CustomResourceDefinition"));
            if faults.confirm_fail && confirming {
                return text(StatusCode::GATEWAY_TIMEOUT, "Gateway Timeout");
            }
            s.inventory_objects(
                mode,
                &items,
                req["statusOnly"].as_bool().unwrap_or(false),
                faults.crds_forbidden,
            )
        }
        // The real router's catch-all: unknown API paths get the SPA page with 200.
        _ => return index_page(state),
    };
    drop(s);
    json_with_faults(faults, &value)
}

/// A JSON answer as the faults leave it: padded, cut in half, or dropped mid-stream.
fn json_with_faults(faults: &Faults, value: &Value) -> Response<Body> {
    let mut bytes = serde_json::to_vec(value).unwrap_or_default();
    if faults.big {
        // Keep it valid JSON: pad with whitespace to ~10 MB.
        bytes.extend(std::iter::repeat_n(b' ', 10 << 20));
    }
    if faults.malformed {
        bytes.truncate(bytes.len() / 2);
    }
    if faults.drop {
        let half = Bytes::from(bytes[..bytes.len() / 2].to_vec());
        let stream = futures_util::stream::iter(vec![
            Ok(half),
            Err(std::io::Error::other(
                "connection dropped by fault injection",
            )),
        ]);
        return with_security(
            Response::builder()
                .header(header::CONTENT_TYPE, "application/json")
                .extension(Uncompressed)
                .body(Body::from_stream(stream))
                .unwrap(),
        );
    }
    with_security(
        Response::builder()
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(bytes))
            .unwrap(),
    )
}

/// The simulator's controls (any method): faults, the request log, the stand-in status page, and
/// the two edits a test makes to the cluster.
async fn control(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
    RawQuery(query): RawQuery,
) -> Response<Body> {
    let q = &parse_query(query.as_deref().unwrap_or(""));
    match name.as_str() {
        "faults" => {
            let mut f = state.faults.lock().unwrap();
            let was_down = f.down;
            match f.apply(q) {
                Ok(()) => {
                    let store = state.store.read().unwrap();
                    let mut clocks = state.clocks.lock().unwrap();
                    clocks.one_instant = f.mode.one_instant;
                    if was_down && !f.down {
                        // Back from "server not initialized": a restarted server's caches.
                        clocks.restart(&store);
                    }
                    json_resp(&json!(*f))
                }
                Err(k) => text(StatusCode::BAD_REQUEST, &format!("unknown fault {k}")),
            }
        }
        "log" => {
            let mut log = state.log.lock().unwrap();
            let v = json!(*log);
            if q.contains_key("clear") {
                log.clear();
            }
            json_resp(&v)
        }
        "status-page" => html(STAND_IN_STATUS_PAGE),
        "set-ready" => {
            let object = q.get("object").map(String::as_str).unwrap_or("");
            let (kind, ns, name) = object_param(object);
            let ready = !matches!(q.get("ready").map(String::as_str), Some("0" | "false"));
            let message = q
                .get("message")
                .map(String::as_str)
                .unwrap_or("set by /__sim/set-ready");
            if state.change_store(|store, now| store.set_ready(kind, ns, name, ready, message, now))
            {
                json_resp(&json!({"object": object, "ready": ready}))
            } else {
                text(
                    StatusCode::NOT_FOUND,
                    "no such object (Kind/namespace/name)",
                )
            }
        }
        "unset-spec" => {
            let object = q.get("object").map(String::as_str).unwrap_or("");
            let field = q.get("field").map(String::as_str).unwrap_or("");
            let (kind, ns, name) = object_param(object);
            if state.change_store(|store, _| store.unset_spec(kind, ns, name, field)) {
                json_resp(&json!({"object": object, "unset": field}))
            } else {
                text(
                    StatusCode::NOT_FOUND,
                    "no such object (Kind/namespace/name)",
                )
            }
        }
        "render.yaml" => Response::builder()
            .header(header::CONTENT_TYPE, "application/yaml")
            .body(Body::from(state.render.clone()))
            .unwrap(),
        "set-spec" => {
            let object = q.get("object").map(String::as_str).unwrap_or("");
            let field = q.get("field").map(String::as_str).unwrap_or("");
            let raw = q.get("value").map(String::as_str).unwrap_or("");
            let Ok(value) = serde_json::from_str::<Value>(raw) else {
                return text(StatusCode::BAD_REQUEST, "value must be JSON");
            };
            let (kind, ns, name) = object_param(object);
            if state.change_store(|store, _| store.set_spec(kind, ns, name, field, value)) {
                json_resp(&json!({"object": object, "set": field}))
            } else {
                text(
                    StatusCode::NOT_FOUND,
                    "no such object (Kind/namespace/name)",
                )
            }
        }
        "apply" => {
            let object = q.get("object").map(String::as_str).unwrap_or("");
            let revision = q.get("revision").map(String::as_str).unwrap_or("");
            let (kind, ns, name) = object_param(object);
            let applied = !revision.is_empty()
                && state.change_store(|store, now| {
                    crate::replay::apply_revision(store, (kind, ns, name), revision, now)
                });
            if applied {
                json_resp(&json!({"object": object, "applied": revision}))
            } else {
                text(
                    StatusCode::NOT_FOUND,
                    "no such object (Kind/namespace/name), or no revision",
                )
            }
        }
        "delete" => {
            let object = q.get("object").map(String::as_str).unwrap_or("");
            let (kind, ns, name) = object_param(object);
            if state.change_store(|store, _| store.remove(kind, ns, name)) {
                json_resp(&json!({"object": object, "deleted": true}))
            } else {
                text(
                    StatusCode::NOT_FOUND,
                    "no such object (Kind/namespace/name)",
                )
            }
        }
        "create" => {
            let object = q.get("object").map(String::as_str).unwrap_or("");
            let like = q.get("like").map(String::as_str).unwrap_or("");
            let (kind, ns, name) = object_param(object);
            let from = object_param(like);
            let created = from.0 == kind
                && state.change_store(|store, now| store.create_like(from, ns, name, now));
            if created {
                json_resp(&json!({"object": object, "created": true}))
            } else {
                text(
                    StatusCode::NOT_FOUND,
                    "no object to copy (like=Kind/namespace/name, same kind), or it exists already",
                )
            }
        }
        "clock" => clock_control(&state, q),
        _ => text(StatusCode::NOT_FOUND, "unknown control"),
    }
}

/// `/__sim/clock`: the server's clocks for a test (`clocks.rs`). `advance=MS` moves time on,
/// `refresh=1` runs a tick now, `hold=1|0` holds or releases the report's ticker, `restart=1`
/// restarts the server's caches. Answers where the clocks stand.
fn clock_control(state: &AppState, q: &HashMap<String, String>) -> Response<Body> {
    let store = state.store.read().unwrap();
    let mut clocks = state.clocks.lock().unwrap();
    clocks.catch_up(&store);
    if let Some(ms) = q.get("advance").and_then(|v| v.parse::<i64>().ok()) {
        clocks.advance(ms);
        clocks.catch_up(&store);
    }
    if let Some(v) = q.get("hold") {
        clocks.held = !matches!(v.as_str(), "0" | "false" | "");
    }
    if q.contains_key("refresh") {
        clocks.refresh_now(&store);
    }
    if q.contains_key("restart") {
        clocks.restart(&store);
    }
    json_resp(&json!({
        "now": clocks.now_ms(),
        "reportComputedAt": clocks.computed_at_ms(),
        "held": clocks.held,
        "oneInstant": clocks.one_instant,
    }))
}

/// `Kind/namespace/name` of a control's `object=` parameter (missing parts empty).
fn object_param(object: &str) -> (&str, &str, &str) {
    let mut parts = object.splitn(3, '/');
    (
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
    )
}

/// A stand-in for the Flux Operator's own UI, for the launcher-plugin tests: a small SPA with
/// in-app navigation, the operator's `/` and `?` shortcuts and its `dark` class theme.
const STAND_IN_STATUS_PAGE: &str = include_str!("stand_in.html");

fn with_security(mut r: Response<Body>) -> Response<Body> {
    let h = r.headers_mut();
    for (k, v) in [
        ("x-frame-options", "DENY"),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "strict-origin-when-cross-origin"),
        ("cache-control", "no-cache, no-store, must-revalidate"),
        ("x-robots-tag", "noindex, nofollow"),
    ] {
        h.insert(k, HeaderValue::from_static(v));
    }
    r
}

fn text(code: StatusCode, msg: &str) -> Response<Body> {
    with_security(
        Response::builder()
            .status(code)
            .header(header::CONTENT_TYPE, "text/plain; charset=utf-8")
            .body(Body::from(format!("{msg}\n")))
            .unwrap(),
    )
}

fn html(s: &'static str) -> Response<Body> {
    Response::builder()
        .header(header::CONTENT_TYPE, "text/html; charset=utf-8")
        .body(Body::from(s))
        .unwrap()
}

fn json_resp(v: &Value) -> Response<Body> {
    Response::builder()
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(v.to_string()))
        .unwrap()
}

fn cookie_present(h: &HeaderMap, name: &str) -> bool {
    h.get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .any(|c| c.trim().split('=').next() == Some(name))
}

/// Decodes `a=b&c=d` with core's bounded parser (the first value of a repeated key wins).
pub fn parse_query(q: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for (k, v) in fluxlens_core::util::query::parse_query(q) {
        out.entry(k).or_insert(v);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_decoding() {
        let q = parse_query("name=%21%2A-test&kind=Kustomization&x=a+b&bad=%zz");
        assert_eq!(q["name"], "!*-test");
        assert_eq!(q["x"], "a b");
        assert_eq!(q["bad"], "%zz");
    }
}
