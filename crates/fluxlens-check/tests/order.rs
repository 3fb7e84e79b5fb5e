//! Revision 4: a change judged by the order Flux applies it. The renders are shaped like the
//! pull request the flatops review is about, from the rule catalog and the words: the
//! FluxInstance is templated by the `flux-instance` chart of a HelmRelease, which the
//! `flux-instance` Kustomization applies, a child of `cluster-apps`; `cluster-apps` and
//! `cluster-vap` are applied by the root; the objects carry the appliers' labels as `flux
//! build` writes them.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

const BIN: &str = env!("CARGO_BIN_EXE_fluxlens-check");
const GIT: &str = "GitRepository";
const OCI: &str = "OCIRepository";

/// Where the migration stands in a render.
#[derive(Clone, Copy)]
struct Stage {
    /// `FluxInstance.spec.sync.kind`.
    sync: &'static str,
    /// What the root's children and the application Kustomizations read.
    consumers: &'static str,
    /// The temporary OCIRepository delivered from Git (prune disabled, verified; the package
    /// public), as the staged migration's second step adds it.
    parallel: bool,
    /// A FluxInstance patch adds `spec.verify` to the OCIRepository it generates (SIG-09).
    patch: bool,
    /// The sync carries a pull secret.
    pull_secret: bool,
    /// The podinfo chart version (a one-line renovate change).
    podinfo: &'static str,
}

const M0: Stage = Stage {
    sync: GIT,
    consumers: GIT,
    parallel: false,
    patch: false,
    pull_secret: false,
    podinfo: "6.7.0",
};

fn labels(owner: &str) -> String {
    format!(
        "  labels:\n    kustomize.toolkit.fluxcd.io/name: {owner}\n    kustomize.toolkit.fluxcd.io/namespace: flux-system\n"
    )
}

fn ks(name: &str, owner: &str, source: &str, extra: &str) -> String {
    format!(
        "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: {name}\n  namespace: flux-system\n{}\
         spec:\n  interval: 10m\n  path: ./kubernetes/{name}\n  prune: true\n  sourceRef:\n    kind: {source}\n    name: flux-system\n{extra}",
        labels(owner)
    )
}

fn instance_release(s: Stage) -> String {
    let (url, reference) = if s.sync == OCI {
        ("oci://ghcr.io/example/cluster", "latest")
    } else {
        ("https://github.com/example/cluster.git", "refs/heads/main")
    };
    // values.instance at six spaces, as the chart reads it.
    let mut instance = format!(
        "      distribution:\n        version: 2.7.x\n        registry: ghcr.io/fluxcd\n\
         \x20     sync:\n        kind: {}\n        url: {url}\n        ref: {reference}\n        path: kubernetes/flux\n",
        s.sync
    );
    if s.pull_secret {
        instance.push_str("        pullSecret: ghcr-auth\n");
    }
    if s.patch {
        instance.push_str(concat!(
            "      kustomize:\n",
            "        patches:\n",
            "          - target:\n",
            "              kind: OCIRepository\n",
            "              name: \"(flux-system|flux)\"\n",
            "            patch: |\n",
            "              - op: add\n",
            "                path: /spec/verify\n",
            "                value:\n",
            "                  provider: cosign\n",
            "                  matchOIDCIdentity:\n",
            "                    - issuer: ^https://token\\.actions\\.githubusercontent\\.com$\n",
            "                      subject: ^https://github\\.com/example/cluster/\\.github/workflows/release\\.yaml@refs/heads/main$\n",
        ));
    }
    format!(
        "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: flux-instance\n  namespace: flux-system\n{}\
         spec:\n  interval: 30m\n  chart:\n    spec:\n      chart: flux-instance\n      version: 0.33.0\n      sourceRef:\n        kind: HelmRepository\n        name: controlplane\n\
         \x20 values:\n    instance:\n{instance}",
        labels("flux-instance")
    )
}

fn alerts() -> String {
    let mut out = format!(
        "apiVersion: notification.toolkit.fluxcd.io/v1beta3\nkind: Provider\nmetadata:\n  name: github-status\n  namespace: flux-system\n{}spec:\n  type: github\n  address: https://github.com/example/cluster\n  secretRef:\n    name: github-token\n",
        labels("cluster-apps")
    );
    for app in APPS {
        out.push_str(&format!(
            "---\napiVersion: notification.toolkit.fluxcd.io/v1beta3\nkind: Alert\nmetadata:\n  name: {app}-status\n  namespace: flux-system\n{}spec:\n  providerRef:\n    name: github-status\n  eventSources:\n    - kind: Kustomization\n      name: {app}\n",
            labels("cluster-apps")
        ));
    }
    out
}

const APPS: [&str; 7] = [
    "cert-manager",
    "cilium",
    "rook-ceph",
    "monitoring",
    "media",
    "home",
    "podinfo",
];

/// A render of the repository at `s`.
fn render(s: Stage) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "fluxlens-order-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut root = vec![
        ks("cluster-apps", "flux-system", s.consumers, ""),
        ks("cluster-vap", "flux-system", s.consumers, ""),
    ];
    if s.parallel {
        root.push(format!(
            "apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata:\n  name: flux-system\n  namespace: flux-system\n{}\
             \x20 annotations:\n    kustomize.toolkit.fluxcd.io/prune: disabled\nspec:\n  interval: 1m\n  url: oci://ghcr.io/example/cluster\n  ref:\n    tag: latest\n\
             \x20 verify:\n    provider: cosign\n    matchOIDCIdentity:\n      - issuer: ^https://token\\.actions\\.githubusercontent\\.com$\n\
             \x20       subject: ^https://github\\.com/example/cluster/\\.github/workflows/release\\.yaml@refs/heads/main$\n",
            labels("flux-system")
        ));
    }
    let mut apps = vec![ks("flux-instance", "cluster-apps", s.consumers, "")];
    for app in APPS {
        apps.push(ks(app, "cluster-apps", s.consumers, ""));
    }
    apps.push(format!(
        "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: podinfo\n  namespace: flux-system\n{}\
         spec:\n  interval: 30m\n  chart:\n    spec:\n      chart: podinfo\n      version: {}\n      sourceRef:\n        kind: HelmRepository\n        name: podinfo\n",
        labels("podinfo"),
        s.podinfo
    ));
    apps.push(format!(
        "apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: podinfo\n  namespace: flux-system\n{}spec:\n  type: oci\n  url: oci://ghcr.io/stefanprodan/charts\n",
        labels("podinfo")
    ));
    let flux = [
        instance_release(s),
        format!(
            "apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata:\n  name: controlplane\n  namespace: flux-system\n{}spec:\n  type: oci\n  url: oci://ghcr.io/controlplaneio-fluxcd/charts\n",
            labels("flux-instance")
        ),
    ];
    for (file, docs) in [
        ("root.yaml", root),
        ("apps.yaml", apps),
        ("flux.yaml", flux.to_vec()),
        ("alerts.yaml", vec![alerts()]),
    ] {
        std::fs::write(dir.join(file), docs.join("---\n")).unwrap();
    }
    dir
}

struct Run {
    code: i32,
    stdout: String,
}

fn check(base: &Path, head: &Path, format: &str) -> Run {
    let out = Command::new(BIN)
        .args(["--base", base.to_str().unwrap(), "--format", format])
        .arg(head)
        .output()
        .unwrap();
    if !out.stderr.is_empty() {
        eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    }
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
    }
}

fn json(base: Stage, head: Stage) -> (i32, Value) {
    let r = check(&render(base), &render(head), "json");
    let v = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout));
    (r.code, v)
}

fn added<'a>(v: &'a Value, rule: &str) -> Vec<&'a Value> {
    v["findings"]["added"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == rule)
        .collect()
}

/// The pull request as first written: the sync switch and every flip in one commit.
const AS_WRITTEN: Stage = Stage {
    sync: OCI,
    consumers: OCI,
    parallel: false,
    patch: false,
    pull_secret: false,
    podinfo: "6.7.0",
};

/// Revision 5 corrects revision 4 on flatops #2161 as first written: objects act at their live
/// spec. The root applies `cluster-apps`' new spec first (it waits for the OCI source), but the
/// child `flux-instance`, still on Git at its live spec, applies the new revision's HelmRelease,
/// whose FluxInstance creates that source: the change converges, given what no render can see
/// (the artifact exists, is signed and can be pulled), which the comment lists.
#[test]
fn the_pull_request_as_first_written_converges_through_its_live_child() {
    let (code, v) = json(M0, AS_WRITTEN);
    assert_eq!(v["order"]["safe"], true, "{:#}", v["order"]["stuck"]);
    assert!(
        added(&v, "MIG-GO-15")
            .iter()
            .all(|f| f["severity"] == "info"),
        "{:#}",
        v["findings"]["added"]
    );
    assert!(
        added(&v, "MIG-GO-17").is_empty(),
        "no order of reconciles freezes it"
    );
    let waves = v["order"]["waves"].as_array().unwrap();
    let wave = |k: &str| {
        waves
            .iter()
            .rposition(|w| w.as_array().unwrap().iter().any(|x| x == k))
            .unwrap()
    };
    assert!(wave("HelmRelease/flux-system/flux-instance") < wave("FluxInstance/flux-system/flux"));
    assert!(wave("FluxInstance/flux-system/flux") < wave("Kustomization/flux-system/cluster-apps"));
    // The reviewers' second point still holds: the new root has no pull credentials.
    let anonymous = added(&v, "MIG-GO-16");
    assert_eq!(anonymous.len(), 1, "{anonymous:#?}");
    assert_eq!(anonymous[0]["severity"], "medium");
    let pre = v["order"]["preconditions"].as_array().unwrap();
    assert!(
        pre.iter().any(|p| p
            .as_str()
            .unwrap()
            .contains("oci://ghcr.io/example/cluster:latest` exists")),
        "{pre:?}"
    );
    assert!(
        pre.iter()
            .any(|p| p.as_str().unwrap().contains("pulled anonymously")),
        "{pre:?}"
    );
    // MIG-GO-07 before a merge: one aggregated info row with what to check.
    let statuses = added(&v, "MIG-GO-07");
    assert_eq!(statuses.len(), 1, "{statuses:#?}");
    assert_eq!(statuses[0]["severity"], "info");
    // What fails it is the verify the switch drops (no patch carries it), not the order.
    assert_eq!(code, 1, "{:#}", v["findings"]["added"]);
    assert!(
        added(&v, "MIG-GO-15")
            .iter()
            .all(|f| f["severity"] != "critical")
    );
}

/// The same change with the FluxInstance's HelmRelease applied by `cluster-apps` (which the root
/// flips to a source nothing creates yet): no order releases it, a critical deadlock, and the
/// comment leads with it.
#[test]
fn the_comment_is_headed_by_the_deadlock() {
    let r = check(
        &instance_under(M0, "cluster-apps", false),
        &instance_under(AS_WRITTEN, "cluster-apps", false),
        "markdown",
    );
    assert_eq!(r.code, 1);
    let first_section = r.stdout.find("\n#### ").unwrap();
    assert!(
        r.stdout[first_section..].starts_with("\n#### ⛔ MIG-GO-15 bootstrap deadlock (critical)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("**Safe order:**"));
    assert!(
        r.stdout
            .contains("#### Before you merge (a render cannot check these)\n- [ ] ")
    );
    assert!(r.stdout.contains("never lands as a whole"), "{}", r.stdout);
    let v: Value = serde_json::from_str(
        &check(
            &instance_under(M0, "cluster-apps", false),
            &instance_under(AS_WRITTEN, "cluster-apps", false),
            "json",
        )
        .stdout,
    )
    .unwrap();
    let deadlock = added(&v, "MIG-GO-15");
    assert_eq!(deadlock.len(), 1, "{deadlock:#?}");
    let msg = deadlock[0]["message"].as_str().unwrap();
    assert!(
        msg.starts_with(
            "Kustomization/flux-system/cluster-apps waits for its source OCIRepository/flux-system/flux-system, \
             which FluxInstance/flux-system/flux creates once HelmRelease/flux-system/flux-instance applies its new spec, \
             which Kustomization/flux-system/cluster-apps applies"
        ),
        "{msg}"
    );
    assert!(
        deadlock[0]["remediation"]
            .as_str()
            .unwrap()
            .contains("only then flip the consumers")
    );
}

#[test]
fn the_same_migration_in_three_safe_steps_passes_each_step() {
    let m2 = Stage {
        parallel: true,
        patch: true,
        ..M0
    };
    let m3 = Stage {
        consumers: OCI,
        ..m2
    };
    let m4 = Stage {
        sync: OCI,
        pull_secret: true,
        ..m3
    };
    for (from, to, name) in [
        (M0, m2, "parallel source"),
        (m2, m3, "consumer flip"),
        (m3, m4, "sync switch"),
    ] {
        let (code, v) = json(from, to);
        assert_eq!(code, 0, "{name}: {:#}", v["findings"]["added"]);
        assert_eq!(
            v["order"]["safe"], true,
            "{name}: {:#}",
            v["order"]["stuck"]
        );
        assert!(
            added(&v, "MIG-GO-15").is_empty(),
            "{name}: {:#} {:#}",
            v["stages"],
            v["findings"]["added"]
        );
    }
    // The handover lands through the chain, and the alternation in the verify patch's target
    // reaches the generated source (revision 4): no fail-open predicted.
    let (_, v) = json(m3, m4);
    assert!(
        added(&v, "SIG-09").is_empty() && added(&v, "SIG-10").is_empty(),
        "{:#}",
        v["findings"]
    );
    let waves = v["order"]["waves"].as_array().unwrap();
    // The last wave an object acts in: the root also acts first, at its current spec.
    let wave = |k: &str| {
        waves
            .iter()
            .rposition(|w| w.as_array().unwrap().iter().any(|x| x == k))
            .unwrap()
    };
    assert!(wave("HelmRelease/flux-system/flux-instance") < wave("FluxInstance/flux-system/flux"));
    assert!(wave("FluxInstance/flux-system/flux") < wave("Kustomization/flux-system/flux-system"));
}

#[test]
fn a_migration_in_one_safe_step_is_said_as_info() {
    // Everything at once, but the source exists first (delivered from Git, prune disabled):
    // the order holds, the stages it skips are said.
    let from = Stage {
        parallel: true,
        patch: true,
        ..M0
    };
    let to = Stage {
        sync: OCI,
        consumers: OCI,
        pull_secret: true,
        ..from
    };
    let (code, v) = json(from, to);
    assert_eq!(code, 0, "{}", v["summary"]);
    let info = added(&v, "MIG-GO-15");
    assert_eq!(info.len(), 1, "{info:#?}");
    assert_eq!(info[0]["severity"], "info");
    assert!(
        info[0]["message"]
            .as_str()
            .unwrap()
            .contains("in one change (stages M"),
        "{}",
        info[0]["message"]
    );
}

#[test]
fn renovate_commits_stay_quiet() {
    for version in ["6.7.1", "6.8.0", "7.0.0"] {
        let (code, v) = json(
            M0,
            Stage {
                podinfo: version,
                ..M0
            },
        );
        assert_eq!(code, 0, "{}", v["summary"]);
        assert_eq!(v["order"]["safe"], true);
        assert_eq!(v["findings"]["added"], Value::Array(vec![]), "{version}");
    }
}

/// The render at `s` with the flux-instance HelmRelease and its values applied by `owner`; its
/// values written inline, or moved into a ConfigMap it reads through `valuesFrom`.
fn instance_under(s: Stage, owner: &str, through_configmap: bool) -> PathBuf {
    let dir = render(s);
    let flux = std::fs::read_to_string(dir.join("flux.yaml")).unwrap();
    let (release, rest) = flux.split_once("---\n").unwrap();
    let release = release.replace(&labels("flux-instance"), &labels(owner));
    if !through_configmap {
        std::fs::write(dir.join("flux.yaml"), format!("{release}---\n{rest}")).unwrap();
        return dir;
    }
    let (head, values) = release.split_once("  values:\n").unwrap();
    let release =
        format!("{head}  valuesFrom:\n    - kind: ConfigMap\n      name: flux-instance-values\n");
    let data: String = values
        .lines()
        .map(|l| format!("    {}\n", &l[2..]))
        .collect();
    let cm = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: flux-instance-values\n  namespace: flux-system\n{}data:\n  values.yaml: |\n{data}",
        labels(owner)
    );
    std::fs::write(
        dir.join("flux.yaml"),
        format!("{release}---\n{rest}---\n{cm}"),
    )
    .unwrap();
    dir
}

/// #69, revision 5: values that arrive through a ConfigMap are part of the desired state. The
/// seed's shape (the HelmRelease and its values applied by the child `flux-instance`, which acts
/// at its live spec on the new revision) converges either way; under `cluster-apps` the new
/// values can only arrive through the Kustomization the change flips to a source that does not
/// exist yet: a deadlock, through a ConfigMap as inline (it was judged safe through one).
#[test]
fn values_through_a_configmap_are_judged_like_values_inline() {
    let judge = |owner: &str, cm: bool| {
        let r = check(
            &instance_under(M0, owner, cm),
            &instance_under(AS_WRITTEN, owner, cm),
            "json",
        );
        let v: Value =
            serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout));
        let deadlocks = added(&v, "MIG-GO-15")
            .iter()
            .filter(|f| f["severity"] != "info")
            .count();
        (deadlocks, v["order"]["safe"].as_bool().unwrap(), v)
    };
    for cm in [false, true] {
        let (deadlocks, safe, v) = judge("flux-instance", cm);
        assert_eq!(
            (deadlocks, safe),
            (0, true),
            "seed's shape, through a ConfigMap: {cm}: {:#}",
            v["order"]
        );
        // The FluxInstance is templated from the values wherever they are: the switch is seen.
        assert_eq!(v["stages"]["git_oci"]["head"], "M4", "{:#}", v["stages"]);
        let (deadlocks, safe, v) = judge("cluster-apps", cm);
        assert_eq!(
            (deadlocks, safe),
            (1, false),
            "under cluster-apps, through a ConfigMap: {cm}: {:#}",
            v["order"]
        );
        assert!(
            added(&v, "MIG-GO-15")
                .iter()
                .any(|f| f["severity"] == "critical")
        );
    }
}

/// MIG-GO-17 before a merge: only the child `flux-instance` flips with the switch, its parent
/// `cluster-apps` is left alone and reconciles on the new revision at once. If it applies the
/// child's new spec first, the child waits for a source only its own live run creates: the
/// change converges in one order and freezes in the other. Both named; `dependsOn` or staging
/// as the fix; high, since nothing delays the parent.
#[test]
fn a_child_racing_its_parent_is_said_with_both_orders() {
    let head_stage = Stage { sync: OCI, ..M0 };
    let head = render(head_stage);
    let apps = std::fs::read_to_string(head.join("apps.yaml")).unwrap();
    let flipped: Vec<String> = apps
        .split("---\n")
        .map(|d| match d.contains("  name: flux-instance\n") {
            true => d.replace("    kind: GitRepository\n", "    kind: OCIRepository\n"),
            false => d.to_string(),
        })
        .collect();
    std::fs::write(head.join("apps.yaml"), flipped.join("---\n")).unwrap();
    let r = check(&render(M0), &head, "json");
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["order"]["safe"], true, "{:#}", v["order"]);
    let race = added(&v, "MIG-GO-17");
    assert_eq!(race.len(), 1, "{:#}", v["findings"]["added"]);
    assert_eq!(race[0]["severity"], "high");
    assert_eq!(
        race[0]["subject"],
        "Kustomization/flux-system/flux-instance"
    );
    let msg = race[0]["message"].as_str().unwrap();
    assert!(
        msg.contains("before Kustomization/flux-system/cluster-apps applies its new spec"),
        "{msg}"
    );
    assert!(
        race[0]["remediation"]
            .as_str()
            .unwrap()
            .contains("dependsOn")
    );
    assert_eq!(r.code, 1);
}
