//! The fleet table as evidence: CSV, JSON and Markdown, one record per cluster, each through the
//! same redaction as every export (`crate::redact`): nothing a cluster said leaves with a
//! credential in it.

use super::Row;
use crate::util::time::format_rfc3339;
use serde_json::{Value, json};

/// The columns, in order (CSV header, Markdown header, JSON keys).
pub const COLUMNS: [&str; 27] = [
    "cluster",
    "labels",
    "state",
    "updated_at",
    "stale_since",
    "read_ms",
    "flux_version",
    "latest_patch",
    "operator_version",
    "variant",
    "fips",
    "entitlement",
    "support",
    "root",
    "root_verified",
    "syncs_from_git",
    "git_oci_stage",
    "storage_stage",
    "distribution_stage",
    "critical",
    "high",
    "medium",
    "low",
    "missing_refs",
    "drift",
    "drift_worst",
    "problem",
];

/// One value of a record, typed: JSON writes numbers and booleans as such and what is not
/// known as `null` (#46: every value was a string); CSV and Markdown write text.
#[derive(Debug, Clone, PartialEq)]
enum Cell {
    Text(String),
    Number(u64),
    Flag(bool),
    Unknown,
}

impl Cell {
    fn text(&self) -> String {
        match self {
            Cell::Text(s) => s.clone(),
            Cell::Number(n) => n.to_string(),
            Cell::Flag(b) => b.to_string(),
            Cell::Unknown => "unknown".into(),
        }
    }

    fn json(&self) -> Value {
        match self {
            Cell::Text(s) => json!(s),
            Cell::Number(n) => json!(n),
            Cell::Flag(b) => json!(b),
            Cell::Unknown => Value::Null,
        }
    }
}

/// One row's values, in [`COLUMNS`] order.
fn values(r: &Row) -> Vec<Cell> {
    let or = |v: Option<&String>| v.map_or(Cell::Unknown, |v| Cell::Text(v.clone()));
    let text = |s: &str| Cell::Text(s.to_string());
    let time = |t: Option<i64>| Cell::Text(t.map(format_rfc3339).unwrap_or_default());
    let count = |n: usize| Cell::Number(n as u64);
    let labels: Vec<String> = r.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut out = vec![
        Cell::Text(r.name.clone()),
        Cell::Text(labels.join(" ")),
        text(r.state.as_str()),
        time(r.updated_at_ms),
        time(r.stale_since_ms),
        r.read_ms
            .map_or(Cell::Unknown, |ms| Cell::Number(ms.into())),
    ];
    match &r.facts {
        Some(f) => out.extend([
            or(f.flux_version.as_ref()),
            or(f.latest_patch.as_ref()),
            or(f.operator_version.as_ref()),
            text(&f.variant),
            match f.variant.as_str() {
                "unknown" | "mixed" => Cell::Unknown,
                v => Cell::Flag(v == "enterprise-distroless-fips"),
            },
            or(f.entitlement.as_ref()),
            text(&f.support),
            or(f.root.as_ref()),
            match f.root_verified {
                super::Verified::Yes => Cell::Flag(true),
                super::Verified::No => Cell::Flag(false),
                super::Verified::Unknown => Cell::Unknown,
            },
            Cell::Flag(r.syncs_from_git()),
            text(f.git_oci.hook()),
            text(f.storage.hook()),
            text(f.distribution.hook()),
            count(f.findings[4]),
            count(f.findings[3]),
            count(f.findings[2]),
            count(f.findings[1]),
            count(f.missing_refs),
        ]),
        None => out.extend((0..18).map(|_| Cell::Unknown)),
    }
    out.extend(drift(r));
    out.push(Cell::Text(r.problem.clone().unwrap_or_default()));
    out
}

/// Drift's findings and the worst of them: unknown without a render, or before a judgement.
fn drift(r: &Row) -> [Cell; 2] {
    match r.facts.as_ref().and_then(|f| f.drift.as_ref()) {
        Some(super::DriftCell::Judged(c)) => [
            Cell::Number(c.total() as u64),
            Cell::Text(c.worst().map_or("none", |s| s.as_str()).into()),
        ],
        _ => [Cell::Unknown, Cell::Unknown],
    }
}

/// The header every format carries: when, and for which target.
pub struct Context<'a> {
    pub generated_at_ms: i64,
    pub target: Option<&'a str>,
}

/// CSV, RFC 4180 quoting.
pub fn to_csv(rows: &[&Row]) -> String {
    let q = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let mut out = COLUMNS.join(",") + "\n";
    for r in rows {
        let line: Vec<String> = values(r).iter().map(|v| q(&v.text())).collect();
        out.push_str(&line.join(","));
        out.push('\n');
    }
    crate::util::redact::clean(&out)
}

/// JSON: `{generator, generated_at, target, clusters: [{column: value}]}`.
pub fn to_json(rows: &[&Row], cx: &Context) -> String {
    let clusters: Vec<Value> = rows
        .iter()
        .map(|r| {
            let map: serde_json::Map<String, Value> = COLUMNS
                .iter()
                .zip(values(r))
                .map(|(k, v)| (k.to_string(), v.json()))
                .collect();
            Value::Object(map)
        })
        .collect();
    let mut v = json!({
        "generator": "fluxlens fleet",
        "generated_at": format_rfc3339(cx.generated_at_ms),
        "target_version": cx.target,
        "clusters": clusters,
    });
    crate::util::redact::redact_json(&mut v);
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// Markdown: a table whose cells cannot break it.
pub fn to_markdown(rows: &[&Row], cx: &Context) -> String {
    let esc = |s: &str| {
        s.replace('\\', "\\\\")
            .replace('|', "\\|")
            .replace(['\n', '\r'], " ")
            .replace('<', "&lt;")
    };
    let mut md = format!(
        "# Flux fleet (fluxlens)\n\n- **generated_at**: {}\n- **target_version**: {}\n- **clusters**: {}\n\n",
        format_rfc3339(cx.generated_at_ms),
        cx.target.unwrap_or("unknown"),
        rows.len()
    );
    md.push_str(&format!("| {} |\n", COLUMNS.join(" | ")));
    md.push_str(&format!("|{}\n", "---|".repeat(COLUMNS.len())));
    for r in rows {
        let cells: Vec<String> = values(r).iter().map(|v| esc(&v.text())).collect();
        md.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    crate::util::redact::clean(&md)
}
