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

/// The render a repository would hold for the cluster as it is now (`Store::render`).
fn render_of(state: &AppState, name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/tmp/drift");
    std::fs::create_dir_all(&dir).unwrap();
    // YAML, as renders are written: each document has a line for SARIF's region.
    let path = dir.canonicalize().unwrap().join(format!("{name}.yaml"));
    std::fs::write(&path, state.store.read().unwrap().render()).unwrap();
    path
}

fn args(url: &str, render: &Path) -> DriftArgs {
    DriftArgs {
        live: url.to_string(),
        auth: Auth::default(),
        ca_file: None,
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

/// The check's base fixture (a `flate build` render of a FluxInstance cluster mid-migration),
/// with its sync switched to `kind` (`None`: as written).
fn fixture_render(name: &str, kind: Option<&str>) -> PathBuf {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fluxlens-check/tests/fixtures/base");
    let out = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/tmp/drift")
        .join(name);
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    for f in ["flux-system.yaml", "apps.yaml"] {
        let mut text = std::fs::read_to_string(dir.join(f)).unwrap();
        if let Some(kind) = kind {
            text = text.replace(
                "    kind: GitRepository\n    url: https://github.com/example/fleet.git",
                &format!("    kind: {kind}\n    url: oci://ghcr.io/example/fleet-manifests"),
            );
        }
        std::fs::write(out.join(f), text).unwrap();
    }
    out
}

/// The cluster the controllers make of `render`: every declared object reconciled, plus what the
/// operator generates from the FluxInstance (its sync source and Kustomization, verify as its
/// patches give it); `strip_root_verify`: the generated source without it, as a patch that
/// missed leaves it.
fn compiled(render: &Path, strip_root_verify: bool) -> Arc<AppState> {
    use fluxlens_check::cluster::{Assume, model};
    let tree = fluxlens_check::tree_at(render).unwrap();
    let c = model(&tree, Assume::Reconciled, &Default::default());
    let objects: Vec<Value> = c
        .objects()
        .iter()
        .map(|o| {
            let mut v = serde_json::to_value(&*o.raw).unwrap();
            let generated =
                v["metadata"]["labels"]["app.kubernetes.io/managed-by"] == "flux-operator";
            if strip_root_verify && generated {
                v["spec"].as_object_mut().unwrap().remove("verify");
            }
            v
        })
        .collect();
    let dir = render.with_extension(if strip_root_verify {
        "stripped"
    } else {
        "cluster"
    });
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("objects.json"),
        serde_json::to_string(&objects).unwrap(),
    )
    .unwrap();
    let report = serde_json::to_string(&c.report).unwrap();
    std::fs::write(dir.join("report.json"), report).unwrap();
    let store = crate::store::Store::from_dir(&dir).unwrap();
    let state = AppState::new(store, crate::faults::Faults::default(), None);
    crate::poller_test::at(&state, crate::poller_test::BASE_MS);
    state
}

#[tokio::test(flavor = "multi_thread")]
async fn a_root_verify_patch_that_missed_is_fail_open_on_the_live_root() {
    // As written (sync still Git): the instance's patch targets the future OCI root, so the
    // generated GitRepository carries no verify, live or declared: no drift.
    let render = fixture_render("fixture-git", None);
    let url = serve(compiled(&render, false)).await;
    let j = drift(args(&url, &render)).await.unwrap();
    assert!(j.drift.findings.is_empty(), "{:?}", rules(&j));
    assert!(j.drift.compared > 5, "{}", j.drift.compared);
    // Switched to OCI, the patch reaches the generated root: the render says verified. A
    // cluster where it did not land (devantler-tech/platform #2627: spec.verify null on the
    // root while every tenant source verified) is fail-open, critical.
    let render = fixture_render("fixture-oci", Some("OCIRepository"));
    let url = serve(compiled(&render, false)).await;
    let j = drift(args(&url, &render)).await.unwrap();
    assert!(j.drift.findings.is_empty(), "{:?}", rules(&j));
    let url = serve(compiled(&render, true)).await;
    let j = drift(args(&url, &render)).await.unwrap();
    assert_eq!(
        rules(&j),
        vec![(
            "DRIFT-04".into(),
            "OCIRepository/flux-system/flux-system".into(),
            Severity::Critical
        )]
    );
    assert!(
        j.drift.findings[0]
            .remediation
            .contains("spec.kustomize.patches")
    );
}

/// The test CA's files (`testdata/tls/README.md`).
fn tls_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testdata/tls")
        .join(name)
}

/// A TLS front for the plain server at `backend` (`http://host:port`) on a free port, with the
/// test CA's certificate for localhost: what an ingress before the operator's web server is to
/// the command line. One request a connection, relayed whole.
fn tls_front(backend: &str) -> u16 {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let certs: Vec<CertificateDer> = CertificateDer::pem_file_iter(tls_file("leaf.pem"))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let key = PrivateKeyDer::from_pem_file(tls_file("leaf.key")).unwrap();
    // The crate's one provider (ring, as the command line's).
    let config = rustls::ServerConfig::builder()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .unwrap();
    let config = Arc::new(config);
    let backend = backend.trim_start_matches("http://").to_string();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for tcp in listener.incoming().flatten() {
            let (config, backend) = (config.clone(), backend.clone());
            // A refused handshake ends its connection only.
            std::thread::spawn(move || relay(config, tcp, &backend));
        }
    });
    port
}

fn relay(
    config: Arc<rustls::ServerConfig>,
    tcp: std::net::TcpStream,
    backend: &str,
) -> std::io::Result<()> {
    use std::io::{Read, Write};
    let conn = rustls::ServerConnection::new(config).map_err(std::io::Error::other)?;
    let mut tls = rustls::StreamOwned::new(conn, tcp);
    let request = read_request(&mut tls)?;
    let mut up = std::net::TcpStream::connect(backend)?;
    up.write_all(&request)?;
    let mut answer = Vec::new();
    up.read_to_end(&mut answer)?;
    tls.write_all(&answer)?;
    tls.conn.send_close_notify();
    tls.flush()
}

/// One HTTP/1.1 request, with `Connection: close` so that the server's answer ends with its
/// connection.
fn read_request(r: &mut impl std::io::Read) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        if r.read(&mut byte)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let lines: Vec<&str> = head
        .trim_end()
        .split("\r\n")
        .filter(|l| !l.to_ascii_lowercase().starts_with("connection:"))
        .collect();
    let length = lines
        .iter()
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("content-length")
                .then(|| value.trim().parse::<usize>().ok())?
        })
        .unwrap_or(0);
    let mut body = vec![0; length];
    r.read_exact(&mut body)?;
    let mut out = format!("{}\r\nConnection: close\r\n\r\n", lines.join("\r\n")).into_bytes();
    out.extend(body);
    Ok(out)
}

#[tokio::test(flavor = "multi_thread")]
async fn an_https_address_is_verified_against_the_ca_given_and_refused_without_it() {
    let s = state("demo");
    let render = render_of(&s, "demo-tls");
    let plain = serve(s.clone()).await;
    let port = tls_front(&plain);
    // Through the front, with its CA: the same judgement as over plain HTTP.
    let mut a = args(&format!("https://localhost:{port}"), &render);
    a.ca_file = Some(tls_file("ca.pem"));
    let j = drift(a).await.unwrap();
    assert!(j.drift.findings.is_empty(), "{:?}", rules(&j));
    assert_eq!(j.drift.compared, s.store.read().unwrap().entries.len());
    // Without it, Mozilla's roots do not know the test CA: the run stops and says what to do.
    let err = drift(args(&format!("https://localhost:{port}"), &render))
        .await
        .unwrap_err();
    assert!(err.contains("--ca-file"), "{err}");
    assert!(err.to_lowercase().contains("certificate"), "{err}");
    assert!(!err.contains("try again"), "{err}");
    // A certificate for another name is refused even with the CA (the leaf names localhost
    // and 127.0.0.1 only).
    let mut other = args(&format!("https://127.0.0.2:{port}"), &render);
    other.ca_file = Some(tls_file("ca.pem"));
    assert!(drift(other).await.is_err());
    // A file that holds no certificate says so before anything is asked.
    let mut bad = args(&format!("https://localhost:{port}"), &render);
    bad.ca_file = Some(tls_file("README.md"));
    let err = drift(bad).await.unwrap_err();
    assert!(err.contains("holds no PEM certificate"), "{err}");
}
