//! The binary end to end: each regression of the field reports on a real-shaped render, a
//! no-op change, bad input, exit codes and the JSON schema.

mod common;

use common::{base, check, head_with, run, scratch};
use serde_json::Value;
use std::path::Path;

fn rules(v: &Value, side: &str) -> Vec<(String, String, String)> {
    v["findings"][side]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap().to_string();
            (s("rule"), s("severity"), s("subject"))
        })
        .collect()
}

#[test]
fn the_base_render_is_healthy_and_passes_alone() {
    let r = run(&["--format", "json", base().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    let v = r.json();
    assert_eq!(v["verdict"], "pass");
    assert!(
        rules(&v, "added")
            .iter()
            .all(|(_, s, _)| s != "high" && s != "critical")
    );
    assert_eq!(v["stages"]["git_oci"]["head"], "M3", "{}", v["stages"]);
}

#[test]
fn a_reformatted_reordered_change_adds_nothing() {
    // Every object re-emitted as JSON (keys sorted, flow style), in reverse order, split
    // across a YAML stream and a JSON array.
    let manifests = fluxlens_check::read::tree(&base()).unwrap();
    let dir = scratch();
    let mut docs: Vec<String> = manifests.iter().map(|m| m.value.to_string()).collect();
    docs.reverse();
    let (a, b) = docs.split_at(docs.len() / 2);
    std::fs::write(
        dir.join("first.yaml"),
        format!("# reordered\n{}\n", a.join("\n---\n")),
    )
    .unwrap();
    std::fs::write(dir.join("second.json"), format!("[{}]", b.join(","))).unwrap();
    let r = check(&dir, &[]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    let v = r.json();
    assert_eq!(v["verdict"], "pass");
    assert_eq!(rules(&v, "added"), vec![]);
    assert_eq!(rules(&v, "resolved"), vec![]);
    for k in ["missing_added", "cycles_added", "verify_regressions"] {
        assert_eq!(v[k], Value::Array(vec![]), "{k}");
    }
    for (_, s) in v["stages"].as_object().unwrap() {
        assert_eq!(s["base"], s["head"]);
    }
}

#[test]
fn a_source_that_loses_verify_is_high() {
    let head = head_with(&[(
        "apps.yaml",
        "  verify:\n    provider: cosign\n    matchOIDCIdentity:\n      - issuer: ^https://token\\.actions\\.githubusercontent\\.com$\n        subject: ^https://github\\.com/stefanprodan/podinfo/\\.github/workflows/release\\.yml@refs/tags/.*$\n",
        "",
    )]);
    let r = check(&head, &[]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let v = r.json();
    let reg = &v["verify_regressions"][0];
    assert_eq!(reg["subject"], "OCIRepository/apps/podinfo");
    assert_eq!(
        (reg["change"].as_str(), reg["severity"].as_str()),
        (Some("removed"), Some("high"))
    );
    assert_eq!(v["verify_regressions"].as_array().unwrap().len(), 1);
}

#[test]
fn a_weaker_identity_is_a_regression() {
    let head = head_with(&[(
        "apps.yaml",
        "subject: ^https://github\\.com/stefanprodan/podinfo/\\.github/workflows/release\\.yml@refs/tags/.*$",
        "subject: .*",
    )]);
    let v = check(&head, &[]).json();
    let reg = &v["verify_regressions"][0];
    assert_eq!(reg["change"], "weakened", "{v}");
    assert!(reg["after"].as_str().unwrap().contains("SIG-06"), "{reg}");
    assert!(
        rules(&v, "added")
            .iter()
            .any(|(r, _, s)| r == "SIG-06" && s == "OCIRepository/apps/podinfo")
    );
}

#[test]
fn the_root_switched_to_oci_without_verify_is_critical() {
    // jfroy/flatops#2161: the sync moves to the OCIRepository and the patch that carried its
    // verify across the handover is dropped with the Git sync.
    let head = head_with(&[
        (
            "flux-system.yaml",
            "    kind: GitRepository\n    url: https://github.com/example/fleet.git\n    ref: refs/heads/main",
            "    kind: OCIRepository\n    url: oci://ghcr.io/example/fleet-manifests\n    ref: latest",
        ),
        (
            "flux-system.yaml",
            "        name: flux-system\n        patch: |",
            "        name: flux-system-old\n        patch: |",
        ),
    ]);
    let r = check(&head, &[]);
    assert_eq!(r.code, 1);
    let v = r.json();
    let regs = v["verify_regressions"].as_array().unwrap();
    assert!(
        regs.iter()
            .any(|x| x["subject"] == "OCIRepository/flux-system/flux-system"
                && x["change"] == "removed"
                && x["severity"] == "critical"),
        "{regs:?}"
    );
    let added = rules(&v, "added");
    assert!(
        added.iter().any(|(r, s, k)| r == "SIG-10"
            && s == "critical"
            && k == "OCIRepository/flux-system/flux-system"),
        "{added:?}"
    );
    assert_eq!(v["stages"]["git_oci"]["base"], "M3");
    let md = run(&["--base", base().to_str().unwrap(), head.to_str().unwrap()]);
    assert!(
        md.stdout.starts_with("**fluxlens-check — fail**"),
        "{}",
        md.stdout
    );
    assert!(md.stdout.contains("#### Verify lost or weakened"));
}

#[test]
fn a_verify_patch_that_selects_nothing_is_sig_09() {
    // devantler-tech/platform#2996: "a silent no-op … no error, no warning". It is said, and,
    // while the sync stays Git, said as what the switch would drop (revision 5: a prediction
    // waits for the step that acts; the change that switches is judged on its own).
    let head = head_with(&[(
        "flux-system.yaml",
        "          name: flux-system\n        patch: |",
        "          name: flux\n        patch: |",
    )]);
    let out = check(&head, &[]);
    assert_eq!(
        out.code, 0,
        "nothing is dropped by a change that does not switch the sync"
    );
    let v = out.json();
    let added = rules(&v, "added");
    assert!(
        added.contains(&(
            "SIG-09".into(),
            "info".into(),
            "FluxInstance/flux-system/flux".into()
        )),
        "{added:?}"
    );
    let msg = v["findings"]["added"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "SIG-09")
        .unwrap()["message"]
        .clone();
    assert!(
        msg.as_str()
            .unwrap()
            .contains("would be dropped at the handover"),
        "{msg}"
    );
}

#[test]
fn a_sourceref_to_nothing_is_missing_and_another_renders_namespace_is_not() {
    let head = head_with(&[
        (
            "apps.yaml",
            "    kind: GitRepository\n    name: flux-system\n    namespace: flux-system\n---\napiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: frontend",
            "    kind: GitRepository\n    name: flux-sytem\n    namespace: flux-system\n---\napiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: frontend",
        ),
        (
            "apps.yaml",
            "  chartRef:\n    kind: OCIRepository\n    name: podinfo\n",
            "  chartRef:\n    kind: OCIRepository\n    name: podinfo\n    namespace: charts\n",
        ),
    ]);
    let r = check(&head, &[]);
    assert_eq!(r.code, 1);
    let v = r.json();
    assert_eq!(
        v["missing_added"],
        serde_json::json!(["GitRepository/flux-system/flux-sytem"])
    );
    assert_eq!(
        v["missing_referrers"]["GitRepository/flux-system/flux-sytem"],
        serde_json::json!(["Kustomization/apps/backend"])
    );
    assert!(
        rules(&v, "added")
            .iter()
            .any(|(r, _, s)| r == "MIG-GO-02" && s == "Kustomization/apps/backend")
    );
    let not_seen = v["not_in_render"].as_array().unwrap();
    assert_eq!(not_seen.len(), 1, "{not_seen:?}");
    assert_eq!(not_seen[0]["reference"], "OCIRepository/charts/podinfo");
    assert!(
        not_seen[0]["why"]
            .as_str()
            .unwrap()
            .contains("holds nothing in namespace charts")
    );
}

#[test]
fn a_dependson_cycle_is_added() {
    let head = head_with(&[(
        "apps.yaml",
        "  name: backend\n  namespace: apps\nspec:\n",
        "  name: backend\n  namespace: apps\nspec:\n  dependsOn:\n    - name: frontend\n",
    )]);
    let r = check(&head, &[]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let cycles = r.json()["cycles_added"].clone();
    let mut keys: Vec<String> = serde_json::from_value(cycles[0].clone()).unwrap();
    keys.sort();
    assert_eq!(
        keys,
        vec!["Kustomization/apps/backend", "Kustomization/apps/frontend"]
    );
}

#[test]
fn upstream_images_break_a_fips_profile_only() {
    let head = head_with(&[(
        "flux-system.yaml",
        "    registry: ghcr.io/controlplaneio-fluxcd/distroless-fips\n    variant: enterprise-distroless-fips\n",
        "    registry: ghcr.io/fluxcd\n",
    )]);
    let fips = check(&head, &["--profile", "fips"]);
    assert_eq!(fips.code, 1);
    let added = rules(&fips.json(), "added");
    for rule in ["ENT-02", "ENT-03"] {
        assert!(
            added.iter().any(|(r, s, _)| r == rule && s == "high"),
            "{rule}: {added:?}"
        );
    }
    let upstream = check(&head, &["--profile", "upstream"]);
    assert_eq!(upstream.code, 0, "{}", upstream.stdout);
}

#[test]
fn a_migration_moving_back_is_reported() {
    // Base: every consumer already on the OCI root (M3 done); head: back on Git.
    let flipped = head_with(&[
        (
            "flux-system.yaml",
            "  sourceRef:\n    kind: GitRepository\n    name: flux-system\n---",
            "  sourceRef:\n    kind: OCIRepository\n    name: flux-system\n---",
        ),
        (
            "flux-system.yaml",
            "  sourceRef:\n    kind: GitRepository\n    name: flux-system\n",
            "  sourceRef:\n    kind: OCIRepository\n    name: flux-system\n",
        ),
        (
            "apps.yaml",
            "    kind: GitRepository\n    name: flux-system",
            "    kind: OCIRepository\n    name: flux-system",
        ),
        (
            "apps.yaml",
            "    kind: GitRepository\n    name: flux-system",
            "    kind: OCIRepository\n    name: flux-system",
        ),
    ]);
    let r = run(&[
        "--base",
        flipped.to_str().unwrap(),
        "--format",
        "json",
        "--fail-on",
        "medium",
        base().to_str().unwrap(),
    ]);
    let v = r.json();
    let s = &v["stages"]["git_oci"];
    assert_eq!(s["backwards"], true, "{s}");
    assert_eq!(r.code, 1, "a backwards move is medium");
}

#[test]
fn a_real_shaped_render_is_read_and_calm() {
    // The homelab scenario (compiled from public GitOps repositories) as one kustomize-style
    // YAML stream, status removed as a render has none.
    let objects: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/homelab/objects.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert!(objects.len() > 200);
    let dir = scratch();
    let stream: Vec<String> = objects.iter().map(Value::to_string).collect();
    std::fs::write(dir.join("render.yaml"), stream.join("\n---\n")).unwrap();
    let p = dir.to_str().unwrap();
    let alone = run(&["--format", "json", p]);
    assert_eq!(alone.code, 0, "{}", alone.stdout);
    let v = alone.json();
    assert!(v["objects"]["head"].as_u64().unwrap() >= 200);
    assert_eq!(v["missing_added"], Value::Array(vec![]));
    let same = run(&["--base", p, "--format", "json", p]).json();
    assert_eq!(rules(&same, "added"), vec![]);
}

#[test]
fn bad_input_is_named_and_exits_2() {
    let dir = scratch();
    let write = |name: &str, text: &str| {
        let d = dir.join(name.replace('.', "-"));
        std::fs::create_dir_all(&d).unwrap();
        let bytes = match name {
            "e.yaml" => vec![b'k', b':', 0xff, 0xfe],
            _ => text.as_bytes().to_vec(),
        };
        std::fs::write(d.join(name), bytes).unwrap();
        d
    };
    let cases = [
        (
            write(
                "a.yaml",
                "kind: A\nmetadata: {name: a}\n---\nkind: [unclosed\n",
            ),
            "a.yaml, document 1: malformed YAML at line 5 column 1",
        ),
        (
            write(
                "b.yaml",
                "kind: GitRepository\nmetadata: {name: a, namespace: x}\n---\nmetadata: {name: b}\n",
            ),
            "b.yaml, document 1: has no kind",
        ),
        (
            write("c.json", "{\"kind\": \"GitRepository\",}"),
            "c.json, document 0: malformed JSON",
        ),
        (
            write(
                "d.yaml",
                "kind: GitRepository\nmetadata: {name: r, namespace: x}\nspec: {url: a}\n---\nkind: GitRepository\nmetadata: {name: r, namespace: x}\nspec: {url: b}\n",
            ),
            "is also written at",
        ),
        (write("e.yaml", ""), "e.yaml: not UTF-8 text (byte 2)"),
        (
            write("f.yaml", "kind: GitRepository\n\u{0}metadata: {name: a}\n"),
            "f.yaml: a NUL character at byte 20",
        ),
    ];
    for (path, expected) in cases {
        let r = run(&[path.to_str().unwrap()]);
        assert_eq!(r.code, 2, "{expected}: {}", r.stdout);
        assert!(r.stderr.contains(expected), "{expected}: {}", r.stderr);
        assert!(r.stdout.is_empty());
    }
    let r = run(&["/nonexistent/render"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("/nonexistent/render: cannot read"),
        "{}",
        r.stderr
    );
    let r = run(&["--format", "xml", "x"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--format"), "{}", r.stderr);
    assert_eq!(run(&["--help"]).code, 0);
}

#[test]
fn unknown_kinds_are_skipped_with_a_note() {
    let dir = scratch();
    std::fs::write(dir.join("x.yaml"), "kind: Widget\nmetadata: {name: w, namespace: a}\n---\nkind: Widget\nmetadata: {name: v, namespace: a}\n").unwrap();
    let v = run(&["--format", "json", dir.to_str().unwrap()]).json();
    assert_eq!(
        v["notes"][0],
        "skipped: 2 objects of 1 kind the rules do not read (Widget 2)"
    );
}

#[test]
fn the_json_schema_is_stable() {
    let v = check(&base(), &[]).json();
    let mut keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "base",
            "cycles_added",
            "fail_on",
            "findings",
            "missing_added",
            "missing_referrers",
            "missing_resolved",
            "not_in_render",
            "notes",
            "objects",
            "order",
            "profile",
            "schema",
            "stages",
            "summary",
            "verdict",
            "verify_regressions",
        ]
    );
    assert_eq!(v["schema"], "fluxlens-check/v1");
    assert!(matches!(v["verdict"].as_str(), Some("pass" | "fail")));
    for side in ["added", "resolved"] {
        assert!(v["findings"][side].is_array());
    }
    for name in ["git_oci", "storage", "distribution"] {
        let s = &v["stages"][name];
        assert!(
            s["head"].is_string() && s.get("base").is_some() && s["backwards"].is_boolean(),
            "{name}: {s}"
        );
    }
}

#[test]
fn github_annotations_are_encoded() {
    let head = head_with(&[(
        "apps.yaml",
        "  name: backend\n  namespace: apps\nspec:\n",
        "  name: backend\n  namespace: apps\nspec:\n  dependsOn:\n    - name: frontend\n",
    )]);
    let r = run(&[
        "--base",
        base().to_str().unwrap(),
        "--format",
        "github",
        head.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(
        lines.iter().all(|l| l.starts_with("::error ")
            || l.starts_with("::warning ")
            || l.starts_with("::notice ")),
        "{lines:?}"
    );
    // #69: each annotation carries the file and line SARIF gives the same object.
    let file = head
        .join("apps.yaml")
        .to_string_lossy()
        .replace(':', "%3A")
        .replace(',', "%2C");
    let cycle = lines
        .iter()
        .find(|l| l.contains("title=fluxlens-check dependsOn cycle through Kustomization/apps/"))
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(
        cycle.starts_with(&format!("::error file={file},line=")),
        "{cycle}"
    );
    let line: usize = cycle
        .split("line=")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let text = std::fs::read_to_string(head.join("apps.yaml")).unwrap();
    assert!(
        text.lines()
            .nth(line - 1)
            .is_some_and(|l| l.starts_with("apiVersion") || l.starts_with("---")),
        "line {line} is where a document starts"
    );
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("::notice title=fluxlens-check::")
    );
}

#[test]
fn mutated_renders_never_panic() {
    // A stable-toolchain stand-in for the fuzz target: every fixture file cut, spliced and
    // flipped byte-wise, deterministically, through the reader, the tree and every analysis.
    let mut seeds: Vec<Vec<u8>> = std::fs::read_dir(base())
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    seeds.push(
        b"a: &a [x, x]\nb: [*a, *a, *a]\n---\n{\"kind\": \"List\", \"items\": [1]}\n".to_vec(),
    );
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    };
    let noise = b"-:{}[]&*!|>'\"#\n ?,\t%@`";
    for round in 0..1500 {
        let seed = &seeds[round % seeds.len()];
        let mut m = seed.clone();
        for _ in 0..1 + next(6) {
            let at = next(m.len() + 1);
            match next(3) {
                0 => m.insert(at.min(m.len()), noise[next(noise.len())]),
                1 if !m.is_empty() => {
                    let end = (at + next(40)).min(m.len());
                    m.drain(at.min(end)..end);
                }
                _ => {
                    let other = &seeds[next(seeds.len())];
                    let from = next(other.len());
                    let piece = &other[from..(from + next(80)).min(other.len())];
                    let at = at.min(m.len());
                    m.splice(at..at, piece.iter().copied());
                }
            }
        }
        let Ok(text) = String::from_utf8(m) else {
            continue;
        };
        for name in ["m.yaml", "m.json"] {
            if let Ok(manifests) = fluxlens_check::read::file(Path::new(name), &text)
                && let Ok(tree) = fluxlens_check::tree::build(manifests)
            {
                let _ = fluxlens_check::analysis::analyse(
                    &tree,
                    fluxlens_core::analyses::compliance::ProfileName::Fips,
                    &Default::default(),
                );
            }
        }
    }
}

#[test]
fn controller_images_in_the_render_are_judged_under_the_profile() {
    // A bootstrap render carries the controllers' Deployments: their images are what runs.
    let deployment = |image: &str| {
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: source-controller\n  namespace: flux-system\n  labels: {{app.kubernetes.io/version: v2.7.3}}\nspec:\n  template:\n    spec:\n      containers:\n        - name: manager\n          image: {image}\n---\napiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {{name: flux-system, namespace: flux-system}}\nspec:\n  path: ./clusters/prod\n  sourceRef: {{kind: GitRepository, name: flux-system}}\n---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {{name: flux-system, namespace: flux-system}}\nspec: {{url: 'https://github.com/example/fleet.git'}}\n"
        )
    };
    let base_dir = scratch();
    std::fs::write(
        base_dir.join("gotk.yaml"),
        deployment("ghcr.io/controlplaneio-fluxcd/distroless-fips/source-controller:v1.7.3"),
    )
    .unwrap();
    let head_dir = scratch();
    std::fs::write(
        head_dir.join("gotk.yaml"),
        deployment("ghcr.io/fluxcd/source-controller:v1.7.3"),
    )
    .unwrap();
    let r = run(&[
        "--base",
        base_dir.to_str().unwrap(),
        "--format",
        "json",
        "--profile",
        "fips",
        head_dir.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let added = rules(&r.json(), "added");
    assert!(
        added
            .iter()
            .any(|(rule, s, _)| rule == "ENT-03" && s == "high"),
        "{added:?}"
    );
    let upstream = run(&[
        "--base",
        base_dir.to_str().unwrap(),
        "--format",
        "json",
        head_dir.to_str().unwrap(),
    ]);
    assert!(
        !rules(&upstream.json(), "added")
            .iter()
            .any(|(rule, _, _)| rule == "ENT-03")
    );
}

/// #69, revision 5: the careful path passes every step, the shortcut fails. Built from the rule
/// catalog's staged migration, not from one repository: (1) the verified OCI source staged while
/// the sync stays Git and no instance patch carries verify yet; (2) the patch added; (3) the sync
/// switched with the patch. The shortcut: from (1), the sync switched without the patch.
#[test]
fn a_staged_migration_passes_each_careful_step_and_the_shortcut_fails() {
    const PATCH: &str = "  kustomize:\n    patches:\n      # Verify must survive the handover: the operator generates the root without it.\n      - target:\n          kind: OCIRepository\n          name: flux-system\n";
    const NO_PATCH: &str = "  kustomize:\n    patches:\n      # Verify must survive the handover: the operator generates the root without it.\n      - target:\n          kind: ConfigMap\n          name: unrelated\n";
    const GIT: &str = "    kind: GitRepository\n    url: https://github.com/example/fleet.git\n    ref: refs/heads/main";
    const OCI: &str =
        "    kind: OCIRepository\n    url: oci://ghcr.io/example/fleet-manifests\n    ref: latest";
    let step = |base: &std::path::Path, head: &std::path::Path| {
        run(&[
            "--base",
            base.to_str().unwrap(),
            "--format",
            "json",
            head.to_str().unwrap(),
        ])
    };
    let staged = head_with(&[("flux-system.yaml", PATCH, NO_PATCH)]);
    let patched = base();
    // The switch flips every consumer with it (the parallel source already exists and is
    // verified), as the switching step of a staged migration does.
    let switched = flipped(&head_with(&[("flux-system.yaml", GIT, OCI)]));
    let shortcut = flipped(&head_with(&[
        ("flux-system.yaml", PATCH, NO_PATCH),
        ("flux-system.yaml", GIT, OCI),
    ]));
    // The careful steps, each judged against the one before.
    for (from, to, what) in [
        (&staged, &patched, "the patch added"),
        (&patched, &switched, "the sync switched with the patch"),
    ] {
        let r = step(from, to);
        assert_eq!(r.code, 0, "{what}: {}", r.stdout);
    }
    // The first step: a verified source staged without a patch yet is no failure of this change.
    let first = step(&switched_back(&staged), &staged);
    assert_eq!(
        first.code, 0,
        "the verified source staged: {}",
        first.stdout
    );
    let sig09: Vec<_> = rules(&first.json(), "added")
        .into_iter()
        .filter(|r| r.0 == "SIG-09")
        .collect();
    assert!(sig09.iter().all(|r| r.1 == "info"), "{sig09:?}");
    // The shortcut: switching without the patch fails, and says why: SIG-09 now acts (the
    // change performs the handover), the root loses its verify.
    let r = step(&staged, &shortcut);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let added = rules(&r.json(), "added");
    assert!(
        added.iter().any(|(rule, sev, k)| rule == "SIG-09"
            && sev == "high"
            && k == "FluxInstance/flux-system/flux"),
        "{added:?}"
    );
    assert!(
        added.iter().all(|(rule, _, _)| rule != "MIG-GO-03"),
        "the consumers moved with it: {added:?}"
    );
}

/// Every consumer of `GitRepository/flux-system` pointed at `OCIRepository/flux-system`.
fn flipped(dir: &std::path::Path) -> std::path::PathBuf {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap().replace(
            "    kind: GitRepository\n    name: flux-system",
            "    kind: OCIRepository\n    name: flux-system",
        );
        std::fs::write(&p, text).unwrap();
    }
    dir.to_path_buf()
}

/// The base without its parallel OCI source (the step before the staged one).
fn switched_back(staged: &std::path::Path) -> std::path::PathBuf {
    let dir = common::scratch();
    for entry in std::fs::read_dir(staged).unwrap() {
        let p = entry.unwrap().path();
        let mut text = std::fs::read_to_string(&p).unwrap();
        if let Some(at) = text.find("# Stage M1 of the Git") {
            let end = text[at..].find("\n---\n").map(|e| at + e + 5).unwrap();
            text.replace_range(at..end, "");
        }
        std::fs::write(dir.join(p.file_name().unwrap()), text).unwrap();
    }
    dir
}

/// #69, revision 5: deletions are judged against the base. A Kustomization removed with its
/// namespace while another still depends on it is a dangling reference of this change (high),
/// with no permission wording, and the order section does not say every object reconciles.
#[test]
fn a_deletion_with_its_namespace_that_leaves_a_dependant_fails() {
    let volsync = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: volsync-system\n---\napiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: volsync\n  namespace: volsync-system\nspec:\n  interval: 10m\n  path: ./volsync\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n    namespace: flux-system\n";
    let depends = (
        "apps.yaml",
        "  dependsOn:\n    - name: backend\n",
        "  dependsOn:\n    - name: backend\n    - name: volsync\n      namespace: volsync-system\n",
    );
    let before = head_with(&[depends]);
    std::fs::write(before.join("volsync.yaml"), volsync).unwrap();
    let after = head_with(&[depends]);
    let r = run(&[
        "--base",
        before.to_str().unwrap(),
        "--format",
        "json",
        after.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let v = r.json();
    let added = rules(&v, "added");
    assert!(
        added.contains(&(
            "MIG-GO-02".into(),
            "high".into(),
            "Kustomization/apps/frontend".into()
        )),
        "{added:?}"
    );
    let f = v["findings"]["added"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "MIG-GO-02")
        .unwrap();
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("Kustomization/volsync-system/volsync, which this change deletes"),
        "{f}"
    );
    assert!(
        f["remediation"]
            .as_str()
            .unwrap()
            .starts_with("Keep Kustomization/volsync-system/volsync"),
        "{f}"
    );
    let md = run(&["--base", before.to_str().unwrap(), after.to_str().unwrap()]).stdout;
    for never in [
        "not visible to you",
        "namespaces you may read",
        "Every object reconciles",
    ] {
        assert!(!md.contains(never), "{never}: {md}");
    }
    assert!(
        md.contains("1 object never reaches its new spec after the merge:\n- "),
        "{md}"
    );
    // The same dependant on a namespace no render ever held stays "not in this render".
    let unknown = run(&["--base", after.to_str().unwrap(), after.to_str().unwrap()]).stdout;
    assert!(!unknown.contains("namespaces you may read"), "{unknown}");
}

/// #69: a source renamed with its verify dropped says "verify lost" as the in-place removal
/// does, and the order section does not list the deleted source's consumers as reconciling.
#[test]
fn a_rename_that_drops_verify_is_verify_lost() {
    let head = head_with(&[
        (
            "apps.yaml",
            "  name: podinfo\n  namespace: apps\nspec:\n  interval: 10m\n  url:",
            "  name: podinfo-v2\n  namespace: apps\nspec:\n  interval: 10m\n  url:",
        ),
        (
            "apps.yaml",
            "  verify:\n    provider: cosign\n    matchOIDCIdentity:\n      - issuer: ^https://token\\.actions\\.githubusercontent\\.com$\n        subject: ^https://github\\.com/stefanprodan/podinfo/",
            "  labels:\n    provider: cosign\n    matchOIDCIdentity:\n      - issuer: ^https://token\\.actions\\.githubusercontent\\.com$\n        subject: ^https://github\\.com/stefanprodan/podinfo/",
        ),
    ]);
    let r = check(&head, &[]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    let v = r.json();
    let regs = v["verify_regressions"].as_array().unwrap();
    assert!(
        regs.iter()
            .any(|x| x["subject"] == "OCIRepository/apps/podinfo-v2"
                && x["change"] == "removed"
                && x["severity"] == "high"
                && x["before"]
                    .as_str()
                    .unwrap()
                    .starts_with("OCIRepository/apps/podinfo, renamed: cosign")),
        "{regs:?}"
    );
    // The HelmRelease still names the old source: a reference to nothing, waiting forever.
    let added = rules(&v, "added");
    assert!(
        added
            .iter()
            .any(|(r, s, k)| r == "MIG-GO-02" && s == "high" && k == "HelmRelease/apps/podinfo"),
        "{added:?}"
    );
}
