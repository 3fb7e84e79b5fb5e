//! The fleet hub as the deploy kit serves it (`fleet.rs`), and the rows the app makes of the
//! demo fleet's clusters: each loaded the way the app's loader reads it (`truth::load`).

use crate::faults::Mode;
use crate::fleet::Fleet;
use crate::http::AppState;
use axum::body::Body;
use axum::http::{Request, Response, StatusCode};
use fluxlens_core::analyses::analysis::Analysis;
use fluxlens_core::fleet::{Facts, Verified};
use std::path::{Path, PathBuf};
use tower::ServiceExt;

fn scenarios() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
}

fn demo_fleet() -> Fleet {
    Fleet::from_dir(&scenarios().join("fleet"), None, |n| scenarios().join(n)).unwrap()
}

async fn send(fleet: &Fleet, method: &str, path: &str) -> Response<Body> {
    let hub = AppState::new(
        crate::store::Store::synthetic(0, true),
        Default::default(),
        None,
    );
    let req = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
        .body(Body::from("{\"objects\":[]}"))
        .unwrap();
    match crate::fleet::router(fleet, hub).oneshot(req).await {
        Ok(r) => r,
        Err(never) => match never {},
    }
}

async fn body(r: Response<Body>) -> String {
    let b = axum::body::to_bytes(r.into_body(), 1 << 24).await.unwrap();
    String::from_utf8_lossy(&b).into_owned()
}

#[tokio::test]
async fn the_hub_lists_names_and_labels_only_and_serves_each_cluster_under_its_path() {
    let fleet = demo_fleet();
    let list = body(send(&fleet, "GET", "/clusters.json").await).await;
    let parsed = fluxlens_core::fleet::clusters::parse(&list).unwrap();
    assert_eq!(parsed.clusters.len(), 7);
    assert!(parsed.refused.is_empty());
    for leak in ["scenario", "faults", "http", "homelab", "latency"] {
        assert!(!list.contains(leak), "{leak} in {list}");
    }
    let ok = send(&fleet, "GET", "/clusters/prod-eu/api/v1/report").await;
    assert_eq!(ok.status(), StatusCode::OK);
    assert!(body(ok).await.contains("\"distribution\""));
    // Per-cluster faults: down answers as the server does before it starts (FO
    // internal/web/server.go `RunServer`: 503 "server not initialized"); oidc answers 401
    // without a session, as the auth middleware does (see conformance.rs).
    let down = send(&fleet, "GET", "/clusters/edge-1/api/v1/report").await;
    assert_eq!(down.status(), StatusCode::SERVICE_UNAVAILABLE);
    let denied = send(&fleet, "GET", "/clusters/partner/api/v1/resources").await;
    assert_eq!(denied.status(), StatusCode::UNAUTHORIZED);
    // Never a mutating request, under a cluster's path too.
    let action = send(&fleet, "POST", "/clusters/prod-eu/api/v1/resource/action").await;
    assert_eq!(action.status(), StatusCode::METHOD_NOT_ALLOWED);
    let batch = send(&fleet, "POST", "/clusters/prod-eu/api/v1/inventory/objects").await;
    assert_eq!(batch.status(), StatusCode::OK);
    assert!(!crate::http::is_mutating(
        &axum::http::Method::POST,
        "/clusters/prod-eu/api/v1/inventory/objects"
    ));
    assert!(crate::http::is_mutating(
        &axum::http::Method::POST,
        "/clusters/prod-eu/api/v1/resource/action"
    ));
    // The hub has no API of its own, and its root is the fleet.
    let root_api = send(&fleet, "GET", "/api/v1/report").await;
    assert_eq!(root_api.status(), StatusCode::NOT_FOUND);
    let root = send(&fleet, "GET", "/").await;
    assert!(root.status().is_redirection());
    assert_eq!(root.headers()["location"], "/fleet");
}

#[test]
fn a_fleet_file_with_a_bad_name_or_fault_is_refused_with_why() {
    let dir = std::env::temp_dir().join(format!("fluxlens-fleet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (text, why) in [
        (
            r#"{"clusters":[{"name":"../x","scenario":"demo"}]}"#,
            "not a DNS label",
        ),
        (
            r#"{"clusters":[{"name":"a","scenario":"demo","faults":{"nope":"1"}}]}"#,
            "unknown fault",
        ),
        (r#"{"clusters":[{"name":"a","scenario":"no-such"}]}"#, "a:"),
        ("{", "fleet.json"),
    ] {
        std::fs::write(dir.join("fleet.json"), text).unwrap();
        let err = Fleet::from_dir(&dir, None, |n| scenarios().join(n))
            .err()
            .unwrap();
        assert!(err.contains(why), "{err}");
    }
}

fn facts(scenario: &str) -> Facts {
    let store = crate::store::Store::from_dir(&scenarios().join(scenario)).unwrap();
    let c = crate::truth::load(&store, &Mode::default());
    Facts::of(&c, &Analysis::of(&c, None))
}

#[test]
fn the_demo_fleets_rows_say_what_each_cluster_is() {
    let canary = facts("enterprise-fips");
    assert_eq!(canary.variant, "enterprise-distroless-fips");
    assert_eq!(canary.root_kind(), Some("OCIRepository"));
    let staged = facts("staged");
    assert!(
        staged.git_oci.stage.is_some(),
        "mid Git → OCI: {:?}",
        staged.git_oci
    );
    let legacy = facts("upstream-bootstrap");
    assert_eq!(legacy.flux_version.as_deref(), Some("v2.6.4"));
    assert_eq!(legacy.latest_patch.as_deref(), Some("v2.6.4"));
    assert_eq!(
        legacy.behind_patch(),
        Some(false),
        "2.6.4 is 2.6's last patch"
    );
    assert_eq!(legacy.support, "fail", "2.6 is out of the support window");
    let homelab = facts("homelab");
    assert_eq!(homelab.root_kind(), Some("GitRepository"));
    assert_eq!(homelab.root_verified, Verified::No);
    assert!(homelab.objects > 200);
}

#[tokio::test]
async fn a_hub_given_renders_names_each_and_serves_it_and_the_row_counts_no_drift_against_it() {
    let dir = std::env::temp_dir().join(format!("fluxlens-fleet-renders-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("fleet.json"),
        r#"{"clusters":[{"name":"a","scenario":"demo","render":true,"revision":"main@sha1:4c1d9e0b7a3f"},
            {"name":"b","scenario":"demo","render":"/renders/missing.yaml"},{"name":"c","scenario":"demo"}]}"#,
    )
    .unwrap();
    let fleet = Fleet::from_dir(&dir, None, |n| scenarios().join(n)).unwrap();
    let list = fluxlens_core::fleet::clusters::parse(
        &body(send(&fleet, "GET", "/clusters.json").await).await,
    )
    .unwrap();
    let renders: Vec<Option<&str>> = list.clusters.iter().map(|c| c.render.as_deref()).collect();
    assert_eq!(
        renders,
        [Some("/renders/a.yaml"), Some("/renders/missing.yaml"), None]
    );
    assert_eq!(
        list.clusters[0].revision.as_deref(),
        Some("main@sha1:4c1d9e0b7a3f")
    );
    let served = send(&fleet, "GET", "/renders/a.yaml").await;
    assert_eq!(served.status(), StatusCode::OK);
    let text = body(served).await;
    assert_eq!(text, fleet.members[0].state.render);
    assert_eq!(
        send(&fleet, "GET", "/renders/missing.yaml").await.status(),
        StatusCode::NOT_FOUND
    );
    // The row's count, as the app makes it: the cluster read as its loader reads it, judged
    // against the render the hub serves for it.
    let store = crate::store::Store::from_dir(&scenarios().join("demo")).unwrap();
    let live = crate::truth::load(&store, &Mode::default());
    let declared = fluxlens_core::fleet::drift::declared("/renders/a.yaml", &text).unwrap();
    let cell = fluxlens_core::fleet::drift::judge(&declared, &live, &Default::default(), None);
    assert_eq!(cell.hook(), "0", "{}", cell.phrase());
    assert_eq!(cell.phrase(), "in sync: 190 objects compared");
}
