//! `--clusters DIR`: one change judged on every cluster at once — the blast radius first, each
//! touched cluster's report, the untouched named once, the exit code the worst cluster's.

mod common;

use common::{base, head_with, run, scratch};
use std::path::{Path, PathBuf};

/// A weaker keyless identity: SIG-06 (high) on podinfo's source.
fn weaker() -> PathBuf {
    head_with(&[(
        "apps.yaml",
        "subject: ^https://github\\.com/stefanprodan/podinfo/\\.github/workflows/release\\.yml@refs/tags/.*$",
        "subject: .*",
    )])
}

/// A slower interval: a change, nothing added.
fn slower() -> PathBuf {
    head_with(&[("apps.yaml", "  interval: 10m", "  interval: 20m")])
}

/// Copies render directory `from` to `to`.
fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
    }
}

/// A repository of clusters: each `(name, head)` with the fixture as its base.
fn clusters(heads: &[(&str, PathBuf)]) -> PathBuf {
    let dir = scratch();
    for (name, head) in heads {
        copy(&base(), &dir.join(name).join("base"));
        copy(head, &dir.join(name).join("head"));
    }
    dir
}

fn four() -> PathBuf {
    clusters(&[
        ("dev", base()),
        ("prod-a", base()),
        ("prod-b", weaker()),
        ("staging", slower()),
    ])
}

#[test]
fn the_blast_radius_names_each_touched_cluster_and_the_untouched_once() {
    let dir = four();
    let r = run(&["--clusters", dir.to_str().unwrap()]);
    assert_eq!(
        r.code, 1,
        "the worst cluster fails the change: {}",
        r.stdout
    );
    let md = &r.stdout;
    assert!(
        md.contains("the change touches 2 of 4 clusters; it fails on 1"),
        "{md}"
    );
    let table = &md[md.find("#### Blast radius").unwrap()..];
    let row = |name: &str| {
        table
            .lines()
            .find(|l| l.starts_with(&format!("| {name} |")))
            .unwrap_or_else(|| panic!("no row for {name}: {table}"))
            .to_string()
    };
    let b = row("prod-b");
    assert!(b.contains("| fail | 1 |") && b.contains("high"), "{b}");
    let s = row("staging");
    assert!(s.contains("| pass | 1 | none |"), "{s}");
    assert!(md.contains("Not touched (2): `dev`, `prod-a`"), "{md}");
    // The untouched are named once, never given a section.
    assert_eq!(md.matches("prod-a").count(), 1, "{md}");
    assert!(md.contains("<details><summary><b>prod-b</b> — fail"));
    assert!(md.contains("SIG-06"));
}

#[test]
fn json_sarif_and_annotations_carry_each_result_s_cluster() {
    let dir = four();
    let d = dir.to_str().unwrap();
    let json = run(&["--clusters", d, "--format", "json"]).json();
    assert_eq!(json["verdict"], "fail");
    let touched: Vec<(&str, bool)> = json["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["name"].as_str().unwrap(), c["touched"].as_bool().unwrap()))
        .collect();
    assert_eq!(
        touched,
        [
            ("dev", false),
            ("prod-a", false),
            ("prod-b", true),
            ("staging", true)
        ]
    );
    assert_eq!(json["clusters"][2]["report"]["verdict"], "fail");
    let text = run(&["--clusters", d, "--format", "sarif"]).stdout;
    // Kept for make test's SARIF 2.1.0 validation (scripts/sarif-validate.sh).
    let kept = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sarif");
    std::fs::create_dir_all(&kept).unwrap();
    std::fs::write(kept.join("clusters.sarif"), &text).unwrap();
    let sarif: serde_json::Value = serde_json::from_str(&text).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for res in results {
        assert_eq!(res["properties"]["cluster"], "prod-b", "{res}");
        assert!(
            res["message"]["text"]
                .as_str()
                .unwrap()
                .starts_with("[prod-b] ")
        );
    }
    let gh = run(&["--clusters", d, "--format", "github"]);
    assert_eq!(gh.code, 1);
    assert!(
        gh.stdout
            .lines()
            .any(|l| l.starts_with("::error") && l.contains("title=fluxlens-check [prod-b]")),
        "{}",
        gh.stdout
    );
    assert!(gh.stdout.contains("the change touches 2 of 4 clusters"));
}

#[test]
fn a_change_that_touches_nothing_passes_and_says_so() {
    let dir = clusters(&[("a", base()), ("b", base())]);
    let r = run(&["--clusters", dir.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(r.stdout.contains("the change touches 0 of 2 clusters"));
    assert!(!r.stdout.contains("Blast radius"));
    let sarif = run(&["--clusters", dir.to_str().unwrap(), "--format", "sarif"]).json();
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), 0);
}

#[test]
fn many_touched_clusters_stay_under_a_github_comment_s_limit_with_the_rest_said() {
    let heads: Vec<(String, PathBuf)> = (0..40)
        .map(|i| (format!("cluster-{i:02}"), weaker()))
        .collect();
    let named: Vec<(&str, PathBuf)> = heads.iter().map(|(n, h)| (n.as_str(), h.clone())).collect();
    let dir = clusters(&named);
    let r = run(&["--clusters", dir.to_str().unwrap()]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.len() < 65_536, "{} characters", r.stdout.len());
    // Every touched cluster keeps its row in the table, whatever the detail left out.
    assert_eq!(r.stdout.matches("| cluster-").count(), 40);
    assert!(
        r.stdout
            .contains("left out to keep this comment under GitHub's 65536 characters"),
        "{}",
        &r.stdout[r.stdout.len().saturating_sub(600)..]
    );
}

#[test]
fn a_cluster_without_a_head_or_a_repository_without_clusters_cannot_run() {
    let dir = scratch();
    let r = run(&["--clusters", dir.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("holds no cluster folder"), "{}", r.stderr);
    std::fs::create_dir_all(dir.join("lonely")).unwrap();
    let r = run(&["--clusters", dir.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("has no head render"), "{}", r.stderr);
    let r = run(&["--clusters", dir.to_str().unwrap(), "--base", "x"]);
    assert_eq!(r.code, 2, "--base with --clusters is a usage error");
}
