//! The simulator's own routing (axum's Router, tower-http's ServeDir and compression): what
//! the app and the tests rely on besides the API's shapes.

use crate::faults::Faults;
use crate::http::{AppState, handle};
use crate::store::Store;
use axum::body::Body;
use axum::http::{Request, Response, header};
use std::path::PathBuf;

fn store() -> Store {
    Store::from_dir(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/demo"))
        .unwrap()
}

/// A built app: its page, a wasm file and the wasm's brotli twin.
fn dist() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fluxlens-sim-routes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><title>app</title>").unwrap();
    std::fs::write(dir.join("app.wasm"), b"\0asm raw").unwrap();
    std::fs::write(dir.join("app.wasm.br"), b"brotli bytes").unwrap();
    std::fs::write(dir.join(".secret"), b"hidden").unwrap();
    let build = dir.join("fluxlens-0123456789abcdef");
    std::fs::create_dir_all(&build).unwrap();
    std::fs::write(build.join("fluxlens.js"), "export default 1;").unwrap();
    dir
}

async fn get(state: &std::sync::Arc<AppState>, path: &str, accept: &str) -> Response<Body> {
    let req = Request::get(path)
        .header(header::ACCEPT_ENCODING, accept)
        .body(Body::empty())
        .unwrap();
    handle(state.clone(), req).await
}

async fn text(resp: Response<Body>) -> String {
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn header_of(resp: &Response<Body>, name: header::HeaderName) -> String {
    resp.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string()
}

#[tokio::test]
async fn the_app_is_served_precompressed_with_its_page_for_every_other_path() {
    let state = AppState::new(store(), Faults::default(), Some(dist()));
    let br = get(&state, "/app.wasm", "gzip, br").await;
    assert_eq!(header_of(&br, header::CONTENT_ENCODING), "br");
    assert_eq!(header_of(&br, header::CONTENT_TYPE), "application/wasm");
    assert_eq!(text(br).await, "brotli bytes");
    let raw = get(&state, "/app.wasm", "identity").await;
    assert_eq!(header_of(&raw, header::CONTENT_ENCODING), "");
    assert_eq!(text(raw).await, "\0asm raw");
    // The SPA fallback: a route of the app, a hidden file and a path out of the build all get
    // the app's page, with the deploy kit's headers.
    for path in ["/graph", "/.secret", "/../Cargo.toml"] {
        let page = get(&state, path, "").await;
        assert_eq!(page.status(), 200, "{path}");
        assert_eq!(header_of(&page, header::CACHE_CONTROL), "no-cache");
        assert!(
            header_of(&page, header::CONTENT_SECURITY_POLICY.clone())
                .contains("default-src 'self'")
        );
        assert_eq!(
            text(page).await,
            "<!doctype html><title>app</title>",
            "{path}"
        );
    }
}

#[tokio::test]
async fn api_answers_are_gzipped_when_accepted_but_a_dropped_stream_stays_a_drop() {
    let state = AppState::new(store(), Faults::default(), None);
    let gz = get(&state, "/api/v1/report", "gzip").await;
    assert_eq!(header_of(&gz, header::CONTENT_ENCODING), "gzip");
    let plain = get(&state, "/api/v1/report", "").await;
    assert_eq!(header_of(&plain, header::CONTENT_ENCODING), "");
    assert!(text(plain).await.contains("\"distribution\""));
    let drop = Faults {
        drop: true,
        ..Faults::default()
    };
    let state = AppState::new(store(), drop, None);
    let dropped = get(&state, "/api/v1/report", "gzip").await;
    assert_eq!(header_of(&dropped, header::CONTENT_ENCODING), "");
    assert!(
        axum::body::to_bytes(dropped.into_body(), 1 << 24)
            .await
            .is_err(),
        "the body breaks off"
    );
}

#[tokio::test]
async fn mutating_calls_are_refused_and_logged_and_controls_are_not_logged() {
    let state = AppState::new(store(), Faults::default(), None);
    for (method, path) in [
        ("POST", "/api/v1/resource/action"),
        ("DELETE", "/api/v1/report"),
        ("POST", "/logout"),
    ] {
        let req = Request::builder()
            .method(method)
            .uri(path)
            .body(Body::empty())
            .unwrap();
        assert_eq!(
            handle(state.clone(), req).await.status(),
            405,
            "{method} {path}"
        );
    }
    let read = Request::post("/api/v1/inventory/objects")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(r#"{"objects":[]}"#))
        .unwrap();
    assert_eq!(handle(state.clone(), read).await.status(), 200);
    assert_eq!(get(&state, "/__sim/nothing", "").await.status(), 404);
    let log = state.log.lock().unwrap().clone();
    let seen: Vec<(&str, bool)> = log.iter().map(|e| (e.path.as_str(), e.mutating)).collect();
    assert_eq!(
        seen,
        [
            ("/api/v1/resource/action", true),
            ("/api/v1/report", true),
            ("/logout", true),
            ("/api/v1/inventory/objects", false),
        ]
    );
}

#[test]
fn the_report_says_who_reads_as_the_server_is_configured() {
    // FO internal/web/report.go `GetReport`: `username` always; `impersonation` only with a
    // session (user/user.go `Permissions`), `provider` and `sessionStart` only under OAuth2
    // (`Provider`, `SessionStart`).
    use crate::faults::Faults;
    use fluxlens_core::analyses::access::ReadAccess;
    let s = store();
    let read = |flags: &[(&str, &str)]| {
        let mut f = Faults::default();
        for (k, v) in flags {
            assert!(f.set(k, v), "{k}");
        }
        let v = s.report(&f.mode, false);
        let info = v["spec"]["userInfo"].clone();
        let r: fluxlens_core::wire::report::FluxReport = serde_json::from_value(v).unwrap();
        (info, ReadAccess::of(&r))
    };
    let (info, access) = read(&[]);
    assert!(info.get("impersonation").is_none() && info.get("provider").is_none());
    assert_eq!(access, ReadAccess::ServiceAccount);
    let (info, access) = read(&[("auth", "anonymous")]);
    assert!(info["impersonation"]["username"].is_string() && info.get("provider").is_none());
    assert!(matches!(access, ReadAccess::Anonymous { .. }));
    let (info, access) = read(&[("namespaces", "flux-system")]);
    assert!(info["provider"].is_object() && info["sessionStart"].is_string());
    assert!(matches!(access, ReadAccess::SignedIn { .. }));
    assert!(
        !Faults::default().set("auth", "kerberos"),
        "an unknown mode is refused"
    );
}

#[tokio::test]
async fn a_builds_folder_is_kept_a_year_and_the_page_revalidated_as_the_kit_serves_them() {
    // deploy/nginx/fluxlens.conf.template: `^/fluxlens-[0-9a-f]{16}/` immutable, the rest no-cache.
    let state = AppState::new(store(), Faults::default(), Some(dist()));
    let module = get(&state, "/fluxlens-0123456789abcdef/fluxlens.js", "identity").await;
    assert_eq!(
        header_of(&module, header::CACHE_CONTROL),
        "public, max-age=31536000, immutable"
    );
    let page = get(&state, "/", "identity").await;
    assert_eq!(header_of(&page, header::CACHE_CONTROL), "no-cache");
    // A build that is not there is the app's page, never kept a year.
    let gone = get(&state, "/fluxlens-fedcba9876543210/fluxlens.js", "identity").await;
    assert_eq!(header_of(&gone, header::CACHE_CONTROL), "no-cache");
    let short = get(&state, "/fluxlens-0123/fluxlens.js", "identity").await;
    assert_eq!(header_of(&short, header::CACHE_CONTROL), "no-cache");
}
