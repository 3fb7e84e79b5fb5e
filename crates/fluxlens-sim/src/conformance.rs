//! Conformance: each test pins one behaviour of the real Flux Operator web server and names
//! the Go file and function it mirrors (controlplaneio-fluxcd/flux-operator, internal/web/).
//! The simulator must never send what the real server would not, in a shape it would not.

use crate::faults::{Faults, Mode};
use crate::http::{AppState, handle};
use crate::store::{CACHED_CAP, EVENTS_CAP_ONE_KIND, SERVER_INJECTED, Store};
use axum::body::Body;
use axum::http::{Request, header};
use serde_json::{Value, json};
use std::path::Path;

fn scenario(name: &str) -> Store {
    Store::from_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../scenarios")
            .join(name),
    )
    .unwrap()
}

fn cluster_wide() -> Mode {
    Mode::default()
}

fn tenant(ns: &[&str]) -> Mode {
    Mode {
        namespaces: Some(ns.iter().map(|s| s.to_string()).collect()),
        ..Mode::default()
    }
}

fn item(api: &str, kind: &str, ns: &str, name: &str) -> Value {
    json!({"apiVersion": api, "kind": kind, "namespace": ns, "name": name})
}

fn batch(s: &Store, mode: &Mode, items: &[Value]) -> Vec<Value> {
    s.inventory_objects(mode, items, false, false)["objects"]
        .as_array()
        .unwrap()
        .clone()
}

fn rows(v: &Value) -> Vec<Value> {
    v["resources"].as_array().cloned().unwrap_or_default()
}

/// inventory_objects.go `GetInventoryObjects` → sanitize.go `cleanObjectForExport`: the
/// batch object is sanitized only: no reconcilerRef/sourceRef, the native inventory
/// untouched, Flux ownership labels gone, `app.kubernetes.io/managed-by` kept.
#[test]
fn batch_objects_are_sanitized_never_enriched() {
    let s = scenario("demo");
    let got = batch(
        &s,
        &cluster_wide(),
        &[
            item(
                "kustomize.toolkit.fluxcd.io/v1",
                "Kustomization",
                "flux-system",
                "tenants",
            ),
            item(
                "source.toolkit.fluxcd.io/v1",
                "OCIRepository",
                "flux-system",
                "flux-system",
            ),
            item(
                "source.toolkit.fluxcd.io/v1",
                "GitRepository",
                "flux-system",
                "flux-system",
            ),
        ],
    );
    for r in &got {
        let o = &r["object"];
        for f in SERVER_INJECTED {
            assert!(
                o["status"].get(f).is_none(),
                "{f} in {}",
                o["metadata"]["name"]
            );
        }
        let labels = o["metadata"]["labels"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        assert!(
            labels
                .keys()
                .all(|k| !crate::served::is_flux_ownership_label(k)),
            "{labels:?}"
        );
    }
    assert!(
        got[0]["object"]["status"]["inventory"]["entries"].is_array(),
        "native form"
    );
    assert_eq!(
        got[2]["object"]["metadata"]["labels"]["app.kubernetes.io/managed-by"],
        "flux-operator"
    );
    assert_eq!(got[0]["status"], "Ready");
}

/// resource.go `ResourceHandler`: the single GET is enriched — reconcilerRef with managedBy
/// from the ownership labels, sourceRef, the inventory as a list — and `{}` when absent.
#[test]
fn single_get_is_enriched() {
    let s = scenario("demo");
    let m = cluster_wide();
    let o = s.resource(&m, "ks", "tenants", "flux-system").unwrap();
    assert_eq!(
        o["status"]["reconcilerRef"]["managedBy"],
        "Kustomization/flux-system/flux-system"
    );
    assert_eq!(o["status"]["sourceRef"]["kind"], "OCIRepository");
    assert!(
        o["status"]["inventory"]
            .as_array()
            .is_some_and(|l| !l.is_empty())
    );
    assert!(
        o["metadata"]["labels"]
            .get("kustomize.toolkit.fluxcd.io/name")
            .is_none()
    );
    let root = s
        .resource(&m, "OCIRepository", "flux-system", "flux-system")
        .unwrap();
    assert_eq!(
        root["status"]["reconcilerRef"]["managedBy"],
        "Kustomization/flux-system/flux-system"
    );
    assert_eq!(
        s.resource(&m, "Kustomization", "nope", "flux-system")
            .unwrap(),
        json!({})
    );
}

/// resources.go `GetResourcesStatus`: live lists per kind, capped at 2,500 per kind,
/// newest first, `null` when nothing matched and no status filter.
#[test]
fn live_list_caps_per_kind_and_answers_null() {
    let s = Store::synthetic(6000, false);
    let m = cluster_wide();
    let ks = rows(&s.resources(&m, Some("Kustomization"), "", None, None)).len();
    assert_eq!(ks, crate::store::RESOURCES_CAP_PER_KIND);
    assert_eq!(
        s.resources(&m, Some("Nope"), "", None, None),
        json!({"resources": null})
    );
    assert_eq!(
        s.resources(&m, Some("Nope"), "", None, Some("Ready")),
        json!({"resources": []})
    );
    let demo = scenario("demo");
    // v0.58 (resources.go `GetLiveResources`): without `kind`, every kind of the search index
    // (`searchIndex.Kinds()`; while it is empty `defaultFluxKinds()`, every operator and Flux
    // kind but FluxReport): every object of the cluster, Alerts and image kinds included.
    let today = rows(&demo.resources(&m, None, "", None, None));
    assert_eq!(today.len(), demo.entries.len());
    assert!(today.iter().any(|r| r["kind"] == "Alert"));
    assert!(
        rows(&demo.resources(&tenant(&["flux-system"]), None, "", None, None))
            .iter()
            .any(|r| r["kind"] == "FluxInstance"),
        "FluxInstance for whoever may read its namespace"
    );
    // Before v0.53 (`GetResourcesStatus`): appliers, sources and FluxInstance only — Alerts,
    // Providers, Receivers, image kinds and ExternalArtifacts must be asked by kind.
    let m = {
        let mut m = m;
        m.operator_version = Some("v0.52.0".into());
        m
    };
    let all = rows(&demo.resources(&m, None, "", None, None));
    // The default kinds as resources.go `GetResourcesStatus` and events.go `GetEvents` wrote them.
    assert_eq!(
        fluxlens_core::load::LISTED_BY_DEFAULT,
        [
            "ResourceSet",
            "Kustomization",
            "HelmRelease",
            "GitRepository",
            "OCIRepository",
            "HelmChart",
            "HelmRepository",
            "Bucket",
            "ArtifactGenerator",
            "ResourceSetInputProvider",
        ]
    );
    let default = |k: &str| fluxlens_core::load::listed_by_default(k, true);
    let expected = demo
        .entries
        .iter()
        .filter(|e| default(e.obj.key.kind.as_str()))
        .count();
    assert_eq!(all.len(), expected);
    assert!(
        demo.entries.len() > expected,
        "the demo has kinds outside the default list"
    );
    let mut old_tenant = tenant(&["flux-system"]);
    old_tenant.operator_version = m.operator_version.clone();
    assert!(
        rows(&demo.resources(&old_tenant, None, "", None, None))
            .iter()
            .all(|r| r["kind"] != "FluxInstance"),
        "FluxInstance only for a cluster-wide user"
    );
    let times: Vec<String> = all
        .iter()
        .map(|r| r["lastReconciled"].as_str().unwrap_or("").to_string())
        .collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "newest first");
    let neg = rows(&demo.resources(&m, Some("Kustomization"), "!team-*", None, None));
    assert!(
        !neg.is_empty()
            && neg
                .iter()
                .all(|r| !r["name"].as_str().unwrap().starts_with("team-"))
    );
}

/// resources.go `GetResourcesStatus`: a restricted user's Lists go namespace by namespace and
/// the first Forbidden returns from the kind, dropping its rows from every namespace; asked
/// in one namespace, only there. The batch read answers `Forbidden` for those items
/// (inventory_objects.go `GetInventoryObjects`).
#[test]
fn a_kind_forbidden_in_one_namespace_drops_the_kind() {
    let s = scenario("multitenant");
    let mut ns = s.visible_namespaces(&cluster_wide());
    ns.retain(|n| !crate::store::SYSTEM_NAMESPACES.contains(&n.as_str()));
    let with_hr: Vec<String> = ns
        .iter()
        .filter(|n| {
            s.entries
                .iter()
                .any(|e| e.obj.key.kind.as_str() == "HelmRelease" && &e.obj.key.namespace == *n)
        })
        .cloned()
        .collect();
    assert!(with_hr.len() >= 2, "{with_hr:?}");
    let (denied, other) = (&with_hr[0], &with_hr[1]);
    let m = Mode {
        namespaces: Some(ns.clone()),
        forbid_kind: vec![format!("HelmRelease@{denied}")],
        ..Mode::default()
    };
    let all = rows(&s.resources(&m, None, "", None, None));
    assert!(!all.is_empty() && all.iter().all(|r| r["kind"] != "HelmRelease"));
    let by_kind = rows(&s.resources(&m, Some("HelmRelease"), "", None, None));
    assert!(by_kind.is_empty(), "the kind is dropped asked by kind too");
    assert!(!rows(&s.resources(&m, Some("HelmRelease"), "", Some(other), None)).is_empty());
    assert!(rows(&s.resources(&m, Some("HelmRelease"), "", Some(denied), None)).is_empty());
    let hr = s
        .entries
        .iter()
        .find(|e| e.obj.key.kind.as_str() == "HelmRelease" && &e.obj.key.namespace == denied)
        .unwrap();
    let got = batch(
        &s,
        &m,
        &[item(
            hr.json["apiVersion"].as_str().unwrap(),
            "HelmRelease",
            denied,
            &hr.obj.key.name,
        )],
    );
    assert_eq!(got[0]["error"], "Forbidden");
}

/// resources.go `ResourcesHandler`: "Return empty array instead of error for better UX" —
/// a kind whose List fails is left out and the answer is still 200.
#[test]
fn failed_list_leaves_the_kind_out() {
    let s = scenario("demo");
    let m = Mode {
        fail_list: vec!["HelmRepository".into()],
        ..Mode::default()
    };
    let all = rows(&s.resources(&m, None, "", None, None));
    assert!(!all.is_empty());
    assert!(all.iter().all(|r| r["kind"] != "HelmRepository"));
    let report = s.report(&m, false);
    assert!(
        report["spec"]["reconcilers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["kind"] == "HelmRepository"),
        "the report still counts the kind"
    );
}

/// search.go `GetCachedResources` + search_index.go `SearchResources`/`buildSearchIndex`:
/// with `search.cached`, 2,500 rows in total, newest first, names lower-cased.
#[test]
fn cached_list_caps_in_total_and_lowercases() {
    let s = Store::synthetic(3000, true);
    let m = Mode {
        search_cached: true,
        ..Mode::default()
    };
    let all = rows(&s.resources(&m, None, "", None, None));
    assert_eq!(all.len(), CACHED_CAP);
    assert!(all.iter().all(|r| {
        let n = r["name"].as_str().unwrap();
        n == n.to_lowercase()
    }));
    let empty = s.resources(&m, Some("Nope"), "", None, None);
    assert_eq!(
        empty,
        json!({"resources": []}),
        "the index answers an array"
    );
}

/// kubeclient `ListUserNamespaces` as used by report.go, resources.go, events.go and the
/// per-object GETs: a tenant sees only its namespaces everywhere; batch items outside are
/// `Forbidden`, the single GET outside is 403, and nothing else answers 403.
#[test]
fn restricted_user_sees_only_their_namespaces() {
    let s = scenario("demo");
    let m = tenant(&["team-payments", "team-ledger"]);
    let report = s.report(&m, false);
    assert_eq!(
        report["spec"]["namespaces"],
        json!(["team-ledger", "team-payments"])
    );
    let counted: u64 = report["spec"]["reconcilers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["stats"]["running"].as_u64().unwrap() + r["stats"]["suspended"].as_u64().unwrap()
        })
        .sum();
    let listed = rows(&s.resources(&m, None, "", None, None));
    assert_eq!(
        counted as usize,
        listed.len(),
        "counters filtered like the list"
    );
    assert!(
        listed
            .iter()
            .all(|r| r["namespace"].as_str().unwrap().starts_with("team-"))
    );
    let got = batch(
        &s,
        &m,
        &[
            item(
                "source.toolkit.fluxcd.io/v1",
                "OCIRepository",
                "flux-system",
                "flux-system",
            ),
            item(
                "source.toolkit.fluxcd.io/v1",
                "HelmRepository",
                "team-payments",
                "charts",
            ),
        ],
    );
    assert_eq!(got[0]["error"], "Forbidden");
    assert!(got[1]["object"].is_object());
    assert_eq!(
        s.resource(&m, "OCIRepository", "flux-system", "flux-system")
            .unwrap_err()
            .0,
        403
    );
    let ev = s.events(&m, None, "", None, None)["events"]
        .as_array()
        .unwrap()
        .clone();
    assert!(
        ev.iter()
            .all(|e| e["namespace"].as_str().unwrap().starts_with("team-"))
    );
}

/// inventory_objects.go `getInventoryObject`: the GET uses the requested apiVersion; one the
/// cluster does not serve fails the REST mapping and comes back as `Error`, a missing object
/// as `NotFound`; any kind is accepted, cluster-scoped ones without a namespace.
#[test]
fn batch_honours_api_version_and_any_kind() {
    let s = scenario("operator-mock");
    let m = cluster_wide();
    let got = batch(
        &s,
        &m,
        &[
            item(
                "kustomize.toolkit.fluxcd.io/v1",
                "Kustomization",
                "flux-system",
                "flux-system",
            ),
            item(
                "kustomize.toolkit.fluxcd.io/v1beta1",
                "Kustomization",
                "flux-system",
                "flux-system",
            ),
            item(
                "kustomize.toolkit.fluxcd.io/v1",
                "Kustomization",
                "flux-system",
                "nope",
            ),
            item("tailscale.com/v1alpha1", "ProxyGroup", "", "ingress"),
            item(
                "apiextensions.k8s.io/v1",
                "CustomResourceDefinition",
                "",
                "proxygroups.tailscale.com",
            ),
        ],
    );
    assert!(got[0]["object"].is_object());
    assert_eq!(got[1]["error"], "Error", "v1beta1 is not served on 2.7");
    assert_eq!(got[2]["error"], "NotFound");
    assert_eq!(got[3]["status"], "Current");
    assert!(got[3].get("namespace").is_none(), "namespace,omitempty");
    assert!(got[4]["object"].is_object());
}

/// events.go `GetEvents`: newest first, at most 1,000 for one kind, Flux kinds only when no
/// kind is given.
#[test]
fn events_are_sorted_and_capped() {
    let mut s = scenario("demo");
    s.events = (0..1500)
        .map(|i| json!({"lastTimestamp": format!("2026-11-29T{:02}:{:02}:{:02}Z", i / 3600 % 24, i / 60 % 60, i % 60),
            "type": "Normal", "message": "m", "involvedObject": "Kustomization/tenants", "namespace": "flux-system"}))
        .chain([json!({"lastTimestamp": "2026-11-30T00:00:00Z", "type": "Normal", "message": "pod",
            "involvedObject": "Deployment/web", "namespace": "flux-system"})])
        .collect();
    let m = cluster_wide();
    let one = s.events(&m, Some("Kustomization"), "", None, None)["events"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(one.len(), EVENTS_CAP_ONE_KIND);
    let t: Vec<&str> = one
        .iter()
        .map(|e| e["lastTimestamp"].as_str().unwrap())
        .collect();
    assert!(t.windows(2).all(|w| w[0] >= w[1]));
    let all = s.events(&m, None, "", None, None)["events"]
        .as_array()
        .unwrap()
        .clone();
    assert!(all.iter().all(|e| e["involvedObject"] != "Deployment/web"));
    let dep = s.events(&m, Some("Deployment"), "", None, None)["events"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(dep, 1, "any kind when asked by name");
}

/// events.go `GetEvents`: the cap is each List's (`client.Limit` per kind, and per namespace
/// for a user who is not cluster-wide), applied in the API server's order (namespace, name)
/// before the newest-first sort: newer events of a later name can be cut while older ones
/// stay. Without `kind`, before v0.53: no notification kinds, FluxInstance only for a
/// cluster-wide user; from v0.53 every kind of the index (`searchIndex.Kinds()`).
#[test]
fn events_cap_applies_per_list_before_sorting() {
    let before_053 = |mut m: Mode| {
        m.operator_version = Some("v0.52.0".into());
        m
    };
    let mut s = scenario("demo");
    let ev = |ns: &str, obj: &str, hour: u32, i: usize| {
        json!({"lastTimestamp": format!("2026-11-29T{hour:02}:{:02}:{:02}Z", i / 60 % 60, i % 60),
               "type": "Normal", "message": "m", "involvedObject": obj, "namespace": ns})
    };
    s.events = (0..600)
        .map(|i| ev("team-a", "Kustomization/apps", 1, i))
        .chain((0..600).map(|i| ev("team-b", "Kustomization/zz-newest", 9, i)))
        .chain([
            ev("team-a", "Alert/slack", 10, 0),
            ev("flux-system", "FluxInstance/flux", 10, 1),
        ])
        .collect();
    let count = |rows: &Value, ns: &str| {
        rows["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["namespace"] == ns)
            .count()
    };
    // Cluster-wide: one List per kind over every namespace, 500 kept by name: team-a's.
    let wide = s.events(&before_053(cluster_wide()), None, "", None, None);
    assert_eq!(count(&wide, "team-a"), 500);
    assert_eq!(
        count(&wide, "team-b"),
        0,
        "the newest were cut by the per-List cap"
    );
    assert_eq!(
        count(&wide, "flux-system"),
        1,
        "FluxInstance for a cluster-wide user"
    );
    assert!(
        wide["events"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["involvedObject"] != "Alert/slack")
    );
    // A restricted user: one List per namespace, each capped.
    let m = tenant(&["team-a", "team-b", "flux-system"]);
    let restricted = s.events(&before_053(m.clone()), None, "", None, None);
    assert_eq!(count(&restricted, "team-a"), 500);
    assert_eq!(count(&restricted, "team-b"), 500);
    assert_eq!(count(&restricted, "flux-system"), 0, "no FluxInstance kind");
    let first = restricted["events"][0]["lastTimestamp"].as_str().unwrap();
    assert!(
        first.starts_with("2026-11-29T09"),
        "sorted newest first after the cap"
    );
    // v0.58: the Alert's events are in the default list (a List of their own kind, capped on
    // its own), and the FluxInstance's for any user who may read its namespace.
    let today = s.events(&m, None, "", None, None);
    assert_eq!(count(&today, "team-a"), 501);
    assert_eq!(count(&today, "flux-system"), 1);
    assert!(
        today["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["involvedObject"] == "Alert/slack")
    );
}

/// report.go `ReportHandler`: while the report cannot be computed the handler answers 200
/// with a placeholder: no namespaces, no reconcilers, no userInfo.
#[test]
fn uninitialised_report_is_a_placeholder() {
    let s = scenario("demo");
    let r = s.report(&cluster_wide(), true);
    assert_eq!(
        r["spec"],
        json!({"distribution": {"entitlement": "Unknown", "status": "Unknown"}})
    );
}

async fn call(state: &std::sync::Arc<AppState>, req: Request<Body>) -> axum::http::Response<Body> {
    handle(state.clone(), req).await
}

fn cookie(resp: &axum::http::Response<Body>) -> String {
    let raw = resp
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("auth-provider="))
        .unwrap_or("")
        .to_string();
    let value = raw
        .trim_start_matches("auth-provider=")
        .split(';')
        .next()
        .unwrap_or("");
    String::from_utf8(fluxlens_core::util::base64url::decode(value).unwrap_or_default()).unwrap()
}

/// middlewares.go `CrossOriginMiddleware` wraps the auth middleware: a cross-site POST is
/// refused 403 before authentication would answer 401; auth/cookies.go writes the
/// auth-provider cookie on every API answer (Anonymous without auth; the absolute
/// `<baseURL>/oauth2/authorize` in OIDC mode).
#[tokio::test]
async fn cross_origin_screen_before_auth_and_provider_cookie() {
    let oidc = Faults {
        oidc: true,
        ..Faults::default()
    };
    let state = AppState::new(scenario("demo"), oidc, None);
    let post = Request::post("/api/v1/inventory/objects")
        .header("sec-fetch-site", "cross-site")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(r#"{"objects":[]}"#))
        .unwrap();
    assert_eq!(call(&state, post).await.status(), 403);
    let get = Request::get("/api/v1/report")
        .header(header::HOST, "flux.example.org")
        .body(Body::empty())
        .unwrap();
    let resp = call(&state, get).await;
    assert_eq!(resp.status(), 401);
    let c = cookie(&resp);
    assert!(
        c.contains(r#""url":"http://flux.example.org/oauth2/authorize""#),
        "{c}"
    );
    assert!(c.contains(r#""authenticated":false"#));
    let anon = AppState::new(scenario("demo"), Faults::default(), None);
    let resp = call(
        &anon,
        Request::get("/api/v1/report").body(Body::empty()).unwrap(),
    )
    .await;
    assert_eq!(resp.status(), 200);
    assert!(cookie(&resp).contains(r#""provider":"Anonymous""#));
}

async fn body_json(resp: axum::http::Response<Body>) -> Value {
    let bytes = axum::body::to_bytes(resp.into_body(), 64 << 20)
        .await
        .unwrap();
    serde_json::from_slice(&bytes).unwrap_or(Value::Null)
}

/// report.go `ReportHandler`: `GetReport` fails when `ListUserNamespaces` fails, and the
/// handler answers `uninitialisedReport()` with 200; search.go `GetCachedResources` answers an
/// empty list on the same failure. A server that degrades after a good load looks like this.
#[tokio::test]
async fn failing_namespace_list_gives_the_placeholder_and_empty_lists() {
    let faults = Faults {
        namespaces_fail: true,
        ..Faults::default()
    };
    let state = AppState::new(scenario("homelab"), faults, None);
    let get = |p: &str| Request::get(p).body(Body::empty()).unwrap();
    let report = call(&state, get("/api/v1/report")).await;
    assert_eq!(report.status(), 200);
    let report = body_json(report).await;
    assert!(
        report["spec"].get("namespaces").is_none() && report["spec"].get("reconcilers").is_none()
    );
    for p in ["/api/v1/resources", "/api/v1/search"] {
        let list = body_json(call(&state, get(p)).await).await;
        assert_eq!(rows(&list).len(), 0, "{p}");
    }
}

/// report.go `refreshReportCache`: when `rep.Compute` fails part-way the error is logged and
/// the result still cached — the report keeps the user's namespaces (injected per request by
/// `GetReport`) but has no counts — and `searchIndex.Update(computeResult.Resources)` rebuilds
/// the `search.cached` index from the same empty result.
#[tokio::test]
async fn a_half_computed_report_has_namespaces_but_no_counts() {
    for cached in [false, true] {
        let mut faults = Faults {
            half_report: true,
            ..Faults::default()
        };
        faults.mode.search_cached = cached;
        let state = AppState::new(scenario("homelab"), faults, None);
        let get = |p: &str| Request::get(p).body(Body::empty()).unwrap();
        let report = body_json(call(&state, get("/api/v1/report")).await).await;
        assert!(!report["spec"]["namespaces"].as_array().unwrap().is_empty());
        assert_eq!(report["spec"]["reconcilers"], json!([]));
        let list = body_json(call(&state, get("/api/v1/resources")).await).await;
        assert_eq!(rows(&list).is_empty(), cached, "cached: {cached}");
    }
}

/// server.go `RunServer`: until a web configuration is loaded the bootstrap handler answers
/// every `/api/` request `503 server not initialized` in plain text, with none of the
/// middlewares, while the SPA is still served.
#[tokio::test]
async fn a_starting_server_answers_503_on_the_api_only() {
    let faults = Faults {
        down: true,
        ..Faults::default()
    };
    let dist = std::env::temp_dir().join(format!("fluxlens-sim-503-{}", std::process::id()));
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(dist.join("index.html"), "<!doctype html><title>app</title>").unwrap();
    let state = AppState::new(scenario("demo"), faults, Some(dist.clone()));
    let get = |p: &str| Request::get(p).body(Body::empty()).unwrap();
    for p in ["/api/v1/report", "/api/v1/resources"] {
        let resp = call(&state, get(p)).await;
        assert_eq!(resp.status(), 503, "{p}");
        // "Always set auth-provider cookie": Anonymous, whatever the configured authentication.
        let cookie = resp.headers()[header::SET_COOKIE]
            .to_str()
            .unwrap()
            .to_string();
        let value = cookie
            .trim_start_matches("auth-provider=")
            .split(';')
            .next()
            .unwrap();
        let decoded = fluxlens_core::util::base64url::decode(value).unwrap();
        assert!(
            String::from_utf8(decoded)
                .unwrap()
                .contains(r#""provider":"Anonymous""#)
        );
        let body = axum::body::to_bytes(resp.into_body(), 1 << 20)
            .await
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&body).trim(),
            "server not initialized"
        );
    }
    assert_eq!(
        call(&state, get("/")).await.status(),
        200,
        "the SPA is served"
    );
    std::fs::remove_dir_all(dist).ok();
}

/// kubeclient `ListUserNamespaces` for a cluster-wide user lists every namespace of the
/// cluster — system and empty ones too — so a reference into a namespace that is not in the
/// list names one that does not exist.
#[test]
fn a_cluster_wide_user_sees_every_namespace() {
    let s = scenario("demo");
    let ns = s.visible_namespaces(&cluster_wide());
    for system in crate::store::SYSTEM_NAMESPACES {
        assert!(ns.iter().any(|n| n == system), "{system} in {ns:?}");
    }
    assert!(ns.windows(2).all(|w| w[0] < w[1]), "sorted, no duplicates");
}

/// inventory_objects.go `GetInventoryObjects` asks the API server per item; behind a gateway a
/// busy server times the whole request out. The simulator's `confirm-fail` answers 504 to the
/// confirming read (status-only Flux items) and nothing else.
#[tokio::test]
async fn confirm_fail_times_out_only_the_confirming_read() {
    let faults = Faults {
        confirm_fail: true,
        ..Faults::default()
    };
    let state = AppState::new(scenario("demo"), faults, None);
    let post = |body: &str| {
        Request::post("/api/v1/inventory/objects")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    let confirm = r#"{"objects":[{"apiVersion":"source.toolkit.fluxcd.io/v1","kind":"GitRepository","namespace":"apps","name":"gone"}],"statusOnly":true}"#;
    assert_eq!(call(&state, post(confirm)).await.status(), 504);
    let objects = r#"{"objects":[{"apiVersion":"source.toolkit.fluxcd.io/v1","kind":"GitRepository","namespace":"flux-system","name":"flux-system"}]}"#;
    assert_eq!(call(&state, post(objects)).await.status(), 200);
}

/// The rule for every scenario: stored objects only, never a server-injected field.
#[test]
fn every_scenario_loads_without_server_fields() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        if e.path().join("objects.json").is_file() {
            let s = Store::from_dir(&e.path()).unwrap_or_else(|err| panic!("{err}"));
            assert!(!s.entries.is_empty(), "{:?}", e.path());
            n += 1;
        }
    }
    assert!(n >= 6, "{n} scenarios");
}

/// reporter/reconcilers.go `getReconcilersStatus` and `FilterReconcilerStatsByNamespaces`: the
/// report counts every installed Flux kind (reporter/crds.go `listCRDs`), a kind without objects
/// included at zero; a kind whose CRD is absent has no row. Failing: Ready=False for any reason
/// but DependencyNotReady, suspended objects not counted failing.
#[test]
fn the_report_counts_every_installed_kind_zero_included() {
    let s = scenario("demo");
    let report = s.report(&cluster_wide(), false);
    let kinds: Vec<&str> = report["spec"]["reconcilers"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["kind"].as_str())
        .collect();
    // The demo runs no image controllers: no image kinds. It has no Bucket, yet its
    // source-controller installs the CRD: counted at zero.
    assert!(!kinds.contains(&"ImagePolicy"), "{kinds:?}");
    let bucket = report["spec"]["reconcilers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "Bucket")
        .expect("Bucket counted");
    assert_eq!(
        bucket["stats"],
        json!({"running": 0, "failing": 0, "suspended": 0})
    );
}

/// inventory_objects.go `inventoryObjectResult`: a Get of a kind whose CRD is absent fails its
/// REST mapping ("no matches for kind"), reported as "Error", never NotFound; resources.go
/// `GetLiveResources` skips such a kind, so a list of it alone answers `null`.
#[test]
fn a_kind_without_its_crd_is_an_error_not_an_absence() {
    let s = scenario("demo");
    let got = batch(
        &s,
        &cluster_wide(),
        &[item(
            "image.toolkit.fluxcd.io/v1",
            "ImagePolicy",
            "flux-system",
            "podinfo",
        )],
    );
    assert_eq!(got[0]["error"], "Error");
    assert_eq!(
        s.resources(&cluster_wide(), Some("ImagePolicy"), "", None, None),
        json!({"resources": null})
    );
}

/// resources.go `GetLiveResources` sorts with `sort.Slice` (not stable) after per-kind
/// goroutines appended in no fixed order: rows tied on `lastReconciled` come in an order that
/// differs between requests.
#[tokio::test]
async fn tied_rows_come_in_no_fixed_order() {
    let mut store = scenario("homelab");
    // Every object reconciled at the same instant.
    store.edit_all(|o| {
        if let Some(c) = o["status"]["conditions"].as_array_mut() {
            for c in c.iter_mut() {
                c["lastTransitionTime"] = json!("2026-12-01T00:00:00Z");
            }
        }
    });
    let state = AppState::new(store, Faults::default(), None);
    let mut orders = std::collections::BTreeSet::new();
    for _ in 0..6 {
        let req = Request::get("/api/v1/resources")
            .body(Body::empty())
            .unwrap();
        let v = body_json(handle(state.clone(), req).await).await;
        let names: Vec<String> = rows(&v)
            .iter()
            .map(|r| format!("{}/{}", r["kind"], r["name"]))
            .collect();
        orders.insert(names);
    }
    assert!(orders.len() > 1, "the same order six times");
}
