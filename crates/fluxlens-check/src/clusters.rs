//! `check --clusters DIR`: one change judged on every cluster a repository renders. DIR holds one
//! folder per cluster with its base and head renders (`base.yaml` and `head.yaml`, or a `.yml`,
//! a `.json` or a directory, as `check` takes them). The answer starts with the blast radius —
//! which clusters the change touches and how — then each touched cluster's own report; a
//! cluster the change leaves alone is named once. The exit code is the worst cluster's.

use crate::analysis::{Analysis, ProfileName};
use crate::args::Format;
use crate::diff::{Change, diff};
use crate::output::{self, Report, sarif::Places};
use crate::read::InputError;
use fluxlens_core::analyses::finding::Severity;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// GitHub's limit for a comment's body; the Markdown answer stays under it.
pub const COMMENT_LIMIT: usize = 65_536;

/// One cluster's run: its name, both analyses and what the change does there.
pub struct ClusterRun {
    pub name: String,
    pub base: Option<Analysis>,
    pub head: Analysis,
    pub change: Change,
    /// Flux objects and values sources the change adds, removes or alters in this cluster.
    pub objects_changed: usize,
}

impl ClusterRun {
    /// Whether the change does anything in this cluster.
    pub fn touched(&self) -> bool {
        self.base.is_none()
            || self.objects_changed > 0
            || !self.change.added.is_empty()
            || !self.change.resolved.is_empty()
            || self.stages_moved() > 0
    }

    /// Migrations whose stage the change moves.
    pub fn stages_moved(&self) -> usize {
        self.change
            .stages
            .values()
            .filter(|s| s.base.as_ref().is_none_or(|b| b.stage != s.head.stage))
            .filter(|s| s.head.order >= 0 || s.base.as_ref().is_some_and(|b| b.order >= 0))
            .count()
    }

    fn report(&self, fail_on: Severity, profile: ProfileName) -> Report<'_> {
        Report {
            change: &self.change,
            fail_on,
            profile,
            has_base: self.base.is_some(),
        }
    }

    fn places(&self) -> Places<'_> {
        Places {
            origins: &self.head.origins,
            root: self.head.root.as_ref(),
        }
    }
}

/// Reads and judges every cluster under `dir`, in name order.
pub fn read(dir: &Path, profile: ProfileName) -> Result<Vec<ClusterRun>, InputError> {
    let entries = std::fs::read_dir(dir).map_err(|e| input_error(dir, &e.to_string()))?;
    let mut folders: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    folders.sort();
    if folders.is_empty() {
        return Err(input_error(dir, "holds no cluster folder"));
    }
    folders.iter().map(|f| one(f, profile)).collect()
}

fn one(folder: &Path, profile: ProfileName) -> Result<ClusterRun, InputError> {
    let name = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let head_path = render(folder, "head")
        .ok_or_else(|| input_error(folder, "has no head render (head.yaml)"))?;
    let base = render(folder, "base")
        .map(|b| crate::analyse_path(&b, profile))
        .transpose()?;
    let head = crate::analyse_head(&head_path, profile, base.as_ref())?;
    let change = diff(base.as_ref(), &head);
    let objects_changed = base
        .as_ref()
        .map_or(head.manifests.len(), |b| changed(b, &head));
    Ok(ClusterRun {
        name,
        base,
        head,
        change,
        objects_changed,
    })
}

fn input_error(path: &Path, reason: &str) -> InputError {
    InputError {
        file: path.to_path_buf(),
        document: None,
        reason: reason.to_string(),
    }
}

/// The render called `stem` in `folder`: a file with a manifest's extension, or a directory.
fn render(folder: &Path, stem: &str) -> Option<PathBuf> {
    ["yaml", "yml", "json"]
        .iter()
        .map(|ext| folder.join(format!("{stem}.{ext}")))
        .chain([folder.join(stem)])
        .find(|p| p.exists())
}

/// Flux objects and values sources added, removed or altered between two renders.
fn changed(base: &Analysis, head: &Analysis) -> usize {
    differing(&base.manifests, &head.manifests) + differing(&base.values, &head.values)
}

/// Keys present in one map only, or with another value in each.
fn differing<K: Ord, V: PartialEq>(a: &BTreeMap<K, V>, b: &BTreeMap<K, V>) -> usize {
    let keys: BTreeSet<&K> = a.keys().chain(b.keys()).collect();
    keys.into_iter().filter(|k| a.get(*k) != b.get(*k)).count()
}

/// What a run over every cluster prints, and whether it fails the change.
pub fn render_all(
    runs: &[ClusterRun],
    format: Format,
    fail_on: Severity,
    profile: ProfileName,
) -> crate::Outcome {
    let fails = runs.iter().any(|r| r.report(fail_on, profile).fails());
    let text = match format {
        Format::Markdown => markdown(runs, fail_on, profile),
        Format::Json => pretty(json(runs, fails, fail_on, profile)),
        Format::Github => github(runs, fail_on, profile),
        Format::Sarif => pretty(sarif(runs, fail_on, profile)),
    };
    crate::Outcome { text, fails }
}

fn pretty(v: Value) -> String {
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}

/// Findings added at each severity, worst first: `1 critical, 2 high`; `none`.
fn added_by_severity(change: &Change) -> String {
    let weighed = change.weighed();
    let worst_first = [
        Severity::Critical,
        Severity::High,
        Severity::Medium,
        Severity::Low,
        Severity::Info,
    ];
    let counts: Vec<String> = worst_first
        .iter()
        .filter_map(|s| {
            let n = weighed.iter().filter(|w| w.severity == *s).count();
            (n > 0).then(|| format!("{n} {}", s.as_str()))
        })
        .collect();
    if counts.is_empty() {
        "none".into()
    } else {
        counts.join(", ")
    }
}

/// The reconcile order's verdict for a cluster: whether the change lands as the controllers run it.
fn order_cell(change: &Change) -> &'static str {
    match &change.order {
        Some(j) if !j.order.safe() => "never lands",
        Some(_) => "lands",
        None => "—",
    }
}

fn markdown(runs: &[ClusterRun], fail_on: Severity, profile: ProfileName) -> String {
    let touched: Vec<&ClusterRun> = runs.iter().filter(|r| r.touched()).collect();
    let failing = touched
        .iter()
        .filter(|r| r.report(fail_on, profile).fails())
        .count();
    let verdict = if failing > 0 { "fail" } else { "pass" };
    let mut out = format!(
        "**fluxlens-check — {verdict}**: the change touches {} of {} clusters{}\n\n",
        touched.len(),
        runs.len(),
        match failing {
            0 => String::new(),
            n => format!("; it fails on {n}"),
        }
    );
    out.push_str(&format!(
        "Fails on `{}` and above · profile `{}`\n",
        fail_on.as_str(),
        runs.first()
            .map(|r| r.report(fail_on, profile).profile_name())
            .unwrap_or("upstream")
    ));
    if !touched.is_empty() {
        out.push_str("\n#### Blast radius\n| Cluster | Verdict | Objects changed | Findings added | Migration stages moved | Reconcile order |\n|---|---|---|---|---|---|\n");
        for r in &touched {
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} |\n",
                output::markdown::cell(&r.name),
                r.report(fail_on, profile).verdict(),
                r.objects_changed,
                added_by_severity(&r.change),
                r.stages_moved(),
                order_cell(&r.change)
            ));
        }
    }
    let untouched: Vec<String> = runs
        .iter()
        .filter(|r| !r.touched())
        .map(|r| format!("`{}`", output::markdown::cell(&r.name)))
        .collect();
    if !untouched.is_empty() {
        out.push_str(&format!(
            "\nNot touched ({}): {}\n",
            untouched.len(),
            untouched.join(", ")
        ));
    }
    sections(&mut out, &touched, fail_on, profile);
    out
}

/// Each touched cluster's report, folded; what would pass GitHub's comment limit is left out
/// and said so.
fn sections(out: &mut String, touched: &[&ClusterRun], fail_on: Severity, profile: ProfileName) {
    const TAIL: usize = 400;
    for (i, r) in touched.iter().enumerate() {
        let report = r.report(fail_on, profile);
        let section = format!(
            "\n<details><summary><b>{}</b> — {}: {}</summary>\n\n{}\n</details>\n",
            output::markdown::cell(&r.name),
            report.verdict(),
            output::markdown::cell(&report.summary()),
            output::markdown::render(&report)
        );
        if out.len() + section.len() + TAIL > COMMENT_LIMIT {
            let left: Vec<String> = touched[i..]
                .iter()
                .map(|r| format!("`{}`", r.name))
                .collect();
            out.push_str(&format!(
                "\nThe detail of {} left out to keep this comment under GitHub's {COMMENT_LIMIT} characters: {} (`--format json` has every cluster whole).\n",
                fluxlens_core::analyses::verdict::plural(left.len(), "cluster"),
                left.join(", ")
            ));
            return;
        }
        out.push_str(&section);
    }
}

fn json(runs: &[ClusterRun], fails: bool, fail_on: Severity, profile: ProfileName) -> Value {
    json!({
        "schema": output::json::SCHEMA,
        "verdict": if fails { "fail" } else { "pass" },
        "fail_on": fail_on.as_str(),
        "clusters": runs.iter().map(|r| json!({
            "name": r.name,
            "touched": r.touched(),
            "objects_changed": r.objects_changed,
            "stages_moved": r.stages_moved(),
            "report": output::json::render(&r.report(fail_on, profile)),
        })).collect::<Vec<_>>(),
    })
}

fn github(runs: &[ClusterRun], fail_on: Severity, profile: ProfileName) -> String {
    let mut out = String::new();
    for r in runs.iter().filter(|r| r.touched()) {
        // Each annotation's title names its cluster.
        let title = format!("fluxlens-check [{}]", r.name);
        out.push_str(&output::github::render_titled(
            &r.report(fail_on, profile),
            &r.places(),
            &title,
        ));
    }
    let touched = runs.iter().filter(|r| r.touched()).count();
    out.push_str(&format!(
        "::notice title=fluxlens-check::the change touches {touched} of {} clusters\n",
        runs.len()
    ));
    out
}

/// One SARIF run over every touched cluster: the rules once, each result with its cluster in its
/// properties and its message.
fn sarif(runs: &[ClusterRun], fail_on: Severity, profile: ProfileName) -> Value {
    let mut merged: Option<Value> = None;
    for r in runs.iter().filter(|r| r.touched()) {
        let places = r.places();
        let mut one = output::sarif::render(&r.report(fail_on, profile), &places);
        let results: Vec<Value> = one["runs"][0]["results"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .map(|mut res| {
                res["properties"]["cluster"] = Value::String(r.name.clone());
                if let Some(text) = res["message"]["text"].as_str() {
                    res["message"]["text"] = Value::String(format!("[{}] {text}", r.name));
                }
                res
            })
            .collect();
        match merged.as_mut() {
            None => {
                one["runs"][0]["results"] = Value::Array(results);
                merged = Some(one);
            }
            Some(m) => {
                if let Some(all) = m["runs"][0]["results"].as_array_mut() {
                    all.extend(results);
                }
            }
        }
    }
    // No cluster touched: an untouched cluster's run, which has no result.
    merged.unwrap_or_else(|| {
        let r = &runs[0];
        output::sarif::render(&r.report(fail_on, profile), &r.places())
    })
}
