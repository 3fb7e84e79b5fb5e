//! `--format sarif` and the Flux CLI plugin, end to end: the same check through `flux-lens`,
//! SARIF 2.1.0 with a rule per catalog id and a result per object at its manifest's line.
//! Every log written here is also validated by Microsoft's SARIF Multitool in `make test`
//! (`scripts/sarif-validate.sh` reads `$CARGO_TARGET_TMPDIR/sarif/`).

mod common;

use common::{PLUGIN, base, head_with, run, run_bin};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A head that adds a dependsOn cycle and a dangling sourceRef.
fn broken_head() -> PathBuf {
    head_with(&[
        (
            "apps.yaml",
            "  name: backend\n  namespace: apps\nspec:\n",
            "  name: backend\n  namespace: apps\nspec:\n  dependsOn:\n    - name: frontend\n",
        ),
        (
            "apps.yaml",
            "    kind: GitRepository\n    name: flux-system\n    namespace: flux-system\n---\napiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: frontend",
            "    kind: GitRepository\n    name: flux-sytem\n    namespace: flux-system\n---\napiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: frontend",
        ),
    ])
}

/// Keeps a log for the validator, under the name of the test that wrote it.
fn keep(name: &str, text: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sarif");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}.sarif")), text).unwrap();
}

/// The check run from inside `head` (as CI runs from the checkout), base given by path.
fn sarif_in(head: &Path) -> (i32, Value, String) {
    let out = Command::new(common::BIN)
        .current_dir(head)
        .args(["--base", base().to_str().unwrap(), "--format", "sarif", "."])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (out.status.code().unwrap(), v, text)
}

#[test]
fn the_plugin_is_the_check_with_the_same_exit_codes() {
    let head = broken_head();
    let (b, h) = (base(), head.to_str().unwrap().to_string());
    let args = ["--base", b.to_str().unwrap(), "--format", "json", &h];
    let direct = run(&args);
    let mut plugin_args = vec!["check"];
    plugin_args.extend_from_slice(&args);
    let plugin = run_bin(PLUGIN, &plugin_args);
    assert_eq!((direct.code, plugin.code), (1, 1));
    assert_eq!(direct.stdout, plugin.stdout);
    let calm = run_bin(PLUGIN, &["check", b.to_str().unwrap()]);
    assert_eq!(calm.code, 0, "{}", calm.stdout);
    for bad in [
        &[][..],
        &["chek"][..],
        &["check"][..],
        &["check", "/nowhere"][..],
    ] {
        let r = run_bin(PLUGIN, bad);
        assert_eq!(r.code, 2, "{bad:?}: {}", r.stdout);
        assert!(r.stderr.starts_with("flux-lens: "), "{bad:?}: {}", r.stderr);
    }
    let v = run_bin(PLUGIN, &["version"]);
    assert_eq!(
        v.stdout.trim(),
        format!("flux-lens {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(
        run_bin(PLUGIN, &["--help"])
            .stdout
            .contains("flux lens check")
    );
}

#[test]
fn sarif_has_a_rule_per_catalog_id_and_a_result_per_object_at_its_document() {
    let head = broken_head();
    let (code, v, text) = sarif_in(&head);
    keep("broken-head", &text);
    assert_eq!(code, 1, "the exit code does not depend on the format");
    assert_eq!(v["version"], "2.1.0");
    let run = &v["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    let catalog: Vec<&str> = fluxlens_core::analyses::findings::reference::docs()
        .map(|d| d.id)
        .collect();
    assert_eq!(&ids[..catalog.len()], &catalog[..]);
    for r in rules {
        for field in ["shortDescription", "fullDescription", "help"] {
            assert!(!r[field]["text"].as_str().unwrap().is_empty(), "{r}");
        }
        let name = r["name"].as_str().unwrap();
        assert!(name.chars().all(|c| c.is_ascii_alphanumeric()), "{name}");
    }
    let results = run["results"].as_array().unwrap();
    let mut seen: Vec<(String, String)> = Vec::new();
    for r in results {
        let rule = r["ruleId"].as_str().unwrap();
        assert_eq!(rules[r["ruleIndex"].as_u64().unwrap() as usize]["id"], rule);
        let object = r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]
            .as_str()
            .unwrap();
        seen.push((rule.to_string(), object.to_string()));
        let at = &r["locations"][0]["physicalLocation"];
        assert_eq!(at["artifactLocation"]["uriBaseId"], "%SRCROOT%", "{r}");
        let file = at["artifactLocation"]["uri"].as_str().unwrap();
        let line = at["region"]["startLine"].as_u64().unwrap() as usize;
        // The line opens the object's document: its name is in the lines that follow.
        let text = std::fs::read_to_string(head.join(file)).unwrap();
        let document: String = text
            .lines()
            .skip(line - 1)
            .take(6)
            .collect::<Vec<_>>()
            .join("\n");
        let name = object.rsplit('/').next().unwrap();
        assert!(
            document.contains(&format!("name: {name}")),
            "{object} at {file}:{line}\n{document}"
        );
    }
    for (rule, object) in [
        ("CHECK-CYCLE", "Kustomization/apps/backend"),
        ("CHECK-CYCLE", "Kustomization/apps/frontend"),
        ("CHECK-MISSING", "Kustomization/apps/backend"),
        ("MIG-GO-02", "Kustomization/apps/backend"),
    ] {
        let n = seen
            .iter()
            .filter(|(r, o)| r == rule && o == object)
            .count();
        assert_eq!(n, 1, "{rule} on {object}: {seen:?}");
    }
    assert_eq!(run["properties"]["verdict"], "fail");
    assert!(results.iter().any(|r| r["level"] == "error"));
}

#[test]
fn without_a_base_each_result_is_on_a_file_even_for_generated_objects() {
    let r = run(&["--format", "sarif", base().to_str().unwrap()]);
    keep("base", &r.stdout);
    let v = r.json();
    assert_eq!(r.code, 0, "nothing reaches --fail-on high");
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for r in results {
        assert_ne!(
            r["level"], "error",
            "below --fail-on nothing is an error: {r}"
        );
        // The root source is generated by the FluxInstance: shown on the instance's manifest,
        // relative to the working directory it is under.
        let at = &r["locations"][0]["physicalLocation"];
        let uri = at["artifactLocation"]["uri"].as_str().unwrap();
        assert_eq!(uri, "tests/fixtures/base/flux-system.yaml", "{r}");
        assert_eq!(at["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        assert!(at["region"]["startLine"].as_u64().unwrap() >= 1, "{r}");
    }
}
