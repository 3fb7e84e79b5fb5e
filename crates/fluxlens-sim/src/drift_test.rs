//! `fluxlens-check drift` against this server over TCP, as a platform team runs it after a
//! rollout: a render compiled from the cluster has no drift; each drift class planted alone
//! through the store (a hand edit, a deletion, a verify stripped) is found, graded and worded
//! right; the server's failures stop the run with the reason; and nothing but the allowed
//! reads is ever asked. The server is the operator's (v0.58.1, `internal/web/`): lists are
//! live (resources.go `GetLiveResources`), a batch read answers each key (inventory.go
//! `inventoryObjectResult`: NotFound, Forbidden, Error).

use crate::http::{AppState, router};
use crate::poller_test::state;
use fluxlens_check::args::Format;
use fluxlens_check::drift::{DriftArgs, Judged, judge, live::Auth};
use fluxlens_core::analyses::finding::Severity;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Serves `state` on a free loopback port.
async fn serve(state: Arc<AppState>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router(state)).await });
    format!("http://{addr}")
}

/// The render a repository would hold for the cluster as it is now: every stored object
/// without its status (what the server injects lives there).
fn render_of(state: &AppState, name: &str) -> PathBuf {
    let objects: Vec<Value> = state
        .store
        .read()
        .unwrap()
        .entries
        .iter()
        .map(|e| {
            let mut v = e.json.clone();
            v.as_object_mut().map(|m| m.remove("status"));
            v
        })
        .collect();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/tmp/drift");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, serde_json::to_string(&objects).unwrap()).unwrap();
    path
}

fn args(url: &str, render: &Path) -> DriftArgs {
    DriftArgs {
        live: url.to_string(),
        auth: Auth::default(),
        revision: None,
        repo: None,
        render: render.to_path_buf(),
        format: Format::Markdown,
        fail_on: Severity::High,
    }
}

/// Runs the (blocking) drift judgement off the server's runtime threads.
async fn drift(a: DriftArgs) -> Result<Judged, String> {
    tokio::task::spawn_blocking(move || judge(&a))
        .await
        .unwrap()
}

fn rules(j: &Judged) -> Vec<(String, String, Severity)> {
    j.drift
        .findings
        .iter()
        .map(|f| (f.rule.clone(), f.subject.to_string(), f.severity))
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_cluster_compiled_from_its_render_has_no_drift() {
    for scenario in [
        "demo",
        "credentials",
        "flux-aio",
        "frozen",
        "upstream-bootstrap",
    ] {
        let s = state(scenario);
        let render = render_of(&s, scenario);
        let url = serve(s.clone()).await;
        let j = drift(args(&url, &render)).await.unwrap();
        assert!(j.drift.findings.is_empty(), "{scenario}: {:?}", rules(&j));
        assert_eq!(j.drift.compared, j.drift.in_sync, "{scenario}");
        assert_eq!(j.drift.compared, s.store.read().unwrap().entries.len());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_root_kustomization_the_instance_would_rewrite_is_drift() {
    // homelab's generated Kustomization has a path its FluxInstance's spec.sync.path is not: the
    // operator applies the instance's, so the live value is a difference (the scenario's own).
    let s = state("homelab");
    let render = render_of(&s, "homelab");
    let url = serve(s).await;
    let j = drift(args(&url, &render)).await.unwrap();
    let f = &j.drift.findings;
    assert_eq!(f.len(), 1, "{:?}", rules(&j));
    assert_eq!(
        f[0].subject.to_string(),
        "Kustomization/flux-system/flux-system"
    );
    assert!(f[0].message.contains("spec.path"), "{}", f[0].message);
}

/// One drift planted by hand, and what it must be reported as: rule, subject, severity.
type Planted = (
    &'static str,
    fn(&mut crate::store::Store),
    &'static str,
    &'static str,
    Severity,
);

/// A server fault and what the run must say.
type Fault = (&'static str, fn(&mut crate::faults::Faults), &'static str);

#[tokio::test(flavor = "multi_thread")]
async fn each_drift_class_planted_alone_is_found_and_graded() {
    let planted: [Planted; 4] = [
        (
            "suspend",
            |st| {
                st.set_spec(
                    "Kustomization",
                    "flux-system",
                    "tenants",
                    "suspend",
                    true.into(),
                );
            },
            "DRIFT-03",
            "Kustomization/flux-system/tenants",
            Severity::High,
        ),
        (
            "ref",
            |st| {
                let r = serde_json::json!({"tag": "v0.0.1"});
                st.set_spec("OCIRepository", "team-web", "web-chart", "ref", r);
            },
            "DRIFT-03",
            "OCIRepository/team-web/web-chart",
            Severity::High,
        ),
        (
            "verify",
            |st| {
                st.unset_spec("OCIRepository", "team-web", "web-chart", "verify");
            },
            "DRIFT-04",
            "OCIRepository/team-web/web-chart",
            Severity::High,
        ),
        (
            "deleted",
            |st| {
                st.remove("Kustomization", "flux-system", "infra-controllers");
            },
            "DRIFT-01",
            "Kustomization/flux-system/infra-controllers",
            Severity::High,
        ),
    ];
    for (name, plant, rule, subject, severity) in planted {
        let s = state("demo");
        let render = render_of(&s, &format!("demo-{name}"));
        s.change_store(|st, _| plant(st));
        let url = serve(s.clone()).await;
        let j = drift(args(&url, &render)).await.unwrap();
        assert_eq!(
            rules(&j),
            vec![(rule.to_string(), subject.to_string(), severity)],
            "{name}"
        );
        assert!(j.drift.fails(Severity::High), "{name}");
        // The SARIF make test validates with the Multitool (scripts/sarif-validate.sh).
        let sarif = fluxlens_check::drift::output::sarif(&j);
        assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], rule, "{name}");
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/tmp/sarif");
        std::fs::create_dir_all(&dir).unwrap();
        let text = serde_json::to_string_pretty(&sarif).unwrap();
        std::fs::write(dir.join(format!("drift-{name}.sarif")), text).unwrap();
        // Read-only: every request the server logged is an allowed read.
        for e in s.log.lock().unwrap().iter() {
            assert!(!e.mutating, "{name}: {} {}", e.method, e.path);
            assert!(
                fluxlens_core::wire::is_allowed(&e.method, &e.path),
                "{name}: {} {}",
                e.method,
                e.path
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_roots_commit_is_compared_with_the_rendered_one() {
    let s = state("demo");
    let render = render_of(&s, "demo-revision");
    let url = serve(s).await;
    // demo's root applied refs/heads/main@sha1:4c1d9e0b….
    let mut a = args(&url, &render);
    a.revision = Some("4c1d9e0b7a3f".into());
    assert!(drift(a.clone()).await.unwrap().drift.findings.is_empty());
    a.revision = Some("9999999999999999999999999999999999999999".into());
    let j = drift(a.clone()).await.unwrap();
    assert_eq!(
        rules(&j),
        vec![(
            "DRIFT-05".into(),
            "GitRepository/flux-system/flux-system".into(),
            Severity::Medium
        )]
    );
    a.revision = Some("not a commit".into());
    assert!(drift(a).await.unwrap_err().contains("names no Git commit"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_server_that_cannot_answer_stops_the_run_with_the_reason() {
    let cases: [Fault; 4] = [
        ("html", |f| f.html = true, "instead of JSON"),
        ("oidc", |f| f.oidc = true, "401"),
        ("malformed", |f| f.malformed = true, "could not be read"),
        (
            "down",
            |f| f.down = true,
            "503 server not initialized): it answers once it leads and has its configuration (try again)",
        ),
    ];
    for (name, fault, says) in cases {
        let s = state("demo");
        let render = render_of(&s, &format!("demo-{name}"));
        fault(&mut s.faults.lock().unwrap());
        let url = serve(s).await;
        let e = match drift(args(&url, &render)).await {
            Err(e) => e,
            Ok(j) => panic!("{name}: ran with {:?}", rules(&j)),
        };
        assert!(e.contains(says) && e.starts_with(&url), "{name}: {e}");
    }
    // Nothing listens: the address and why, never a credential.
    let mut a = args("http://127.0.0.1:9", &PathBuf::from("x.json"));
    a.auth.token = Some("s3cret".into());
    let render = render_of(&state("demo"), "demo-nothing");
    a.render = render;
    let e = drift(a).await.unwrap_err();
    assert!(e.contains("Cannot reach") && !e.contains("s3cret"), "{e}");
}
