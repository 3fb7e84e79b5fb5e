//! The fleet table as evidence: CSV, JSON and Markdown, one record per cluster, each through the
//! same redaction as every export (`crate::redact`): nothing a cluster said leaves with a
//! credential in it.

use super::Row;
use crate::util::time::format_rfc3339;
use serde_json::{Value, json};

/// The columns, in order (CSV header, Markdown header, JSON keys).
pub const COLUMNS: [&str; 24] = [
    "cluster",
    "labels",
    "state",
    "updated_at",
    "stale_since",
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
    "problem",
];

/// One row's values, in [`COLUMNS`] order; what is not known is `unknown`.
fn values(r: &Row) -> Vec<String> {
    let unknown = || "unknown".to_string();
    let or = |v: Option<&String>| v.cloned().unwrap_or_else(unknown);
    let time = |t: Option<i64>| t.map(format_rfc3339).unwrap_or_default();
    let labels: Vec<String> = r.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut out = vec![
        r.name.clone(),
        labels.join(" "),
        r.state.as_str().to_string(),
        time(r.updated_at_ms),
        time(r.stale_since_ms),
    ];
    match &r.facts {
        Some(f) => out.extend([
            or(f.flux_version.as_ref()),
            or(f.latest_patch.as_ref()),
            or(f.operator_version.as_ref()),
            f.variant.clone(),
            match f.variant.as_str() {
                "unknown" | "mixed" => unknown(),
                v => (v == "enterprise-distroless-fips").to_string(),
            },
            or(f.entitlement.as_ref()),
            f.support.clone(),
            or(f.root.as_ref()),
            f.root_verified.as_str().to_string(),
            r.syncs_from_git().to_string(),
            f.git_oci.hook().to_string(),
            f.storage.hook().to_string(),
            f.distribution.hook().to_string(),
            f.findings[4].to_string(),
            f.findings[3].to_string(),
            f.findings[2].to_string(),
            f.findings[1].to_string(),
            f.missing_refs.to_string(),
        ]),
        None => out.extend((0..18).map(|_| unknown())),
    }
    out.push(r.problem.clone().unwrap_or_default());
    out
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
        let line: Vec<String> = values(r).iter().map(|v| q(v)).collect();
        out.push_str(&line.join(","));
        out.push('\n');
    }
    crate::redact::clean(&out)
}

/// JSON: `{generator, generated_at, target, clusters: [{column: value}]}`.
pub fn to_json(rows: &[&Row], cx: &Context) -> String {
    let clusters: Vec<Value> = rows
        .iter()
        .map(|r| {
            let map: serde_json::Map<String, Value> = COLUMNS
                .iter()
                .zip(values(r))
                .map(|(k, v)| (k.to_string(), json!(v)))
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
    crate::redact::redact_json(&mut v);
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
        let cells: Vec<String> = values(r).iter().map(|v| esc(v)).collect();
        md.push_str(&format!("| {} |\n", cells.join(" | ")));
    }
    crate::redact::clean(&md)
}
