//! `fluxlens-check --clusters` over a repository of genuinely different cluster roots, as
//! hmcts/sds-flux-config's sixteen are: each cluster's render is a scenario as a repository would
//! hold it (`Store::render`: an OCI root under a FluxInstance, a Git root, a bootstrap install,
//! flux-aio, tenants), and one change lands on the test environment's clusters only. The one run
//! must judge each cluster exactly as that cluster's own `check --base --head` does, touch only
//! the clusters the change reaches, and fail on the worst of them.

use fluxlens_check::args::{Args, Format};
use fluxlens_core::analyses::compliance::ProfileName;
use fluxlens_core::analyses::finding::Severity;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn scenarios() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
}

/// The change, per cluster of the test environment: what a platform team's pull request does to
/// that cluster's render.
fn changed(name: &str, store: &mut crate::store::Store) {
    let done = match name {
        // The root source's keyless identity dropped from the shared OCI base.
        "staged" => store.unset_spec("OCIRepository", "flux-system", "flux-system", "verify"),
        // The root Kustomization's interval tuned.
        "flux-aio" => store.set_spec(
            "Kustomization",
            "flux-system",
            "flux-system",
            "interval",
            "3m".into(),
        ),
        // An app suspended by the change itself.
        "homelab" => store.set_spec("Kustomization", "default", "echo", "suspend", true.into()),
        _ => true,
    };
    assert!(done, "{name}: the object the change edits is in its render");
}

const CLUSTERS: [&str; 7] = [
    "demo",
    "enterprise-fips",
    "staged",
    "homelab",
    "multitenant",
    "upstream-bootstrap",
    "flux-aio",
];

fn write_repository() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/tmp/clusters-multi");
    let _ = std::fs::remove_dir_all(&dir);
    for name in CLUSTERS {
        let mut store = crate::store::Store::from_dir(&scenarios().join(name)).unwrap();
        let at = dir.join(name);
        std::fs::create_dir_all(&at).unwrap();
        std::fs::write(at.join("base.yaml"), store.render()).unwrap();
        changed(name, &mut store);
        std::fs::write(at.join("head.yaml"), store.render()).unwrap();
    }
    dir.canonicalize().unwrap()
}

fn args(clusters: Option<PathBuf>, base: Option<PathBuf>, head: PathBuf) -> Args {
    Args {
        base,
        head,
        clusters,
        format: Format::Json,
        profile: ProfileName::Upstream,
        fail_on: Severity::High,
    }
}

fn json(a: &Args) -> (Value, bool) {
    let out = fluxlens_check::run(a).unwrap();
    (serde_json::from_str(&out.text).unwrap(), out.fails)
}

#[test]
fn one_run_over_several_cluster_roots_judges_each_as_its_own_check_does() {
    let dir = write_repository();
    let (all, fails) = json(&args(Some(dir.clone()), None, PathBuf::new()));
    let runs = all["clusters"].as_array().unwrap();
    assert_eq!(runs.len(), CLUSTERS.len());
    let mut any_fails = false;
    for run in runs {
        let name = run["name"].as_str().unwrap();
        // The cluster's own check of the same base and head.
        let own = args(
            None,
            Some(dir.join(name).join("base.yaml")),
            dir.join(name).join("head.yaml"),
        );
        let (alone, alone_fails) = json(&own);
        let report = &run["report"];
        assert_eq!(report["verdict"], alone["verdict"], "{name}");
        assert_eq!(report["findings"], alone["findings"], "{name}");
        assert_eq!(report["missing_added"], alone["missing_added"], "{name}");
        any_fails |= alone_fails;
        let reached = matches!(name, "staged" | "flux-aio" | "homelab");
        assert_eq!(run["touched"], reached, "{name}: {report}");
        if !reached {
            assert_eq!(report["findings"]["added"], Value::Array(vec![]), "{name}");
        }
    }
    assert_eq!(fails, any_fails, "the exit code is the worst cluster's");
    assert_eq!(all["verdict"], if fails { "fail" } else { "pass" });
    // Dropping the root's identity fails the change on that cluster alone.
    let staged = runs.iter().find(|r| r["name"] == "staged").unwrap();
    assert_eq!(staged["report"]["verdict"], "fail", "{}", staged["report"]);
    // The Markdown comment names the untouched once.
    let mut md = args(Some(dir), None, PathBuf::new());
    md.format = Format::Markdown;
    let text = fluxlens_check::run(&md).unwrap().text;
    assert!(
        text.contains("the change touches 3 of 7 clusters"),
        "{text}"
    );
    assert!(text.contains("Not touched (4)"), "{text}");
    assert_eq!(text.matches("upstream-bootstrap").count(), 1, "{text}");
    // flux-aio's root Kustomization is in no inventory: its new interval never lands, and the
    // comment says why where it says so (it pointed at findings below that did not exist).
    assert!(
        text.contains("1 object never reaches its new spec after the merge:\n- Kustomization/flux-system/flux-system, which nothing is known to apply"),
        "{text}"
    );
    assert!(!text.contains("the findings below"), "{text}");
}
