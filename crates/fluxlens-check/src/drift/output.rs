//! Drift told the check's four ways: Markdown for a comment, JSON (`fluxlens-drift/v1`),
//! GitHub annotations and SARIF, each with the same verdict.

use super::Judged;
use crate::output::github::{data, level, place, property};
use crate::output::markdown::{MAX_ROWS, cell};
use crate::output::sarif::{Places, finding_hits, log};
use fluxlens_core::analyses::finding::Finding;
use fluxlens_core::analyses::verdict::plural;
use serde_json::{Value, json};
use std::fmt::Write;

/// The JSON output's schema name.
pub const SCHEMA: &str = "fluxlens-drift/v1";

impl Judged {
    fn fails(&self) -> bool {
        self.drift.fails(self.fail_on)
    }

    fn verdict(&self) -> &'static str {
        if self.fails() { "fail" } else { "pass" }
    }

    /// The one-line verdict.
    pub fn summary(&self) -> String {
        let d = &self.drift;
        let over = d
            .findings
            .iter()
            .filter(|f| f.severity >= self.fail_on)
            .count();
        let compared = format!(
            "{} compared, {} in sync",
            plural(d.compared, "object"),
            d.in_sync
        );
        match (d.findings.first(), over) {
            (None, _) => format!("no drift: {compared}"),
            (Some(worst), 0) => format!(
                "{} below {} ({compared}); the worst: {}",
                plural(d.findings.len(), "finding"),
                self.fail_on.as_str(),
                worst.message
            ),
            (Some(worst), n) => format!(
                "{} at or above {} ({compared}); the worst: {}",
                plural(n, "finding"),
                self.fail_on.as_str(),
                worst.message
            ),
        }
    }

    fn places(&self) -> Places<'_> {
        Places {
            origins: &self.origins,
            root: self.root.as_ref(),
        }
    }
}

/// A comment for a pull request or a terminal.
pub fn markdown(j: &Judged) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "## fluxlens drift: {}\n", j.verdict());
    let _ = writeln!(out, "**{}**\n", cell(&j.summary()));
    let commit = j
        .rendered
        .as_ref()
        .map_or("not given (--revision)".to_string(), |c| {
            format!("`{}`", c.sha)
        });
    let _ = writeln!(
        out,
        "Live: `{}` · render: `{}` · rendered commit: {commit} · fails at {}\n",
        j.address,
        j.render.display(),
        j.fail_on.as_str()
    );
    let shown = &j.drift.findings[..j.drift.findings.len().min(MAX_ROWS)];
    if !shown.is_empty() {
        out.push_str("| severity | rule | object | what |\n|---|---|---|---|\n");
        for f in shown {
            let _ = writeln!(
                out,
                "| {} | {} | `{}` | {} |",
                f.severity.as_str(),
                f.rule,
                f.subject,
                cell(&f.message)
            );
        }
        if j.drift.findings.len() > MAX_ROWS {
            let _ = writeln!(
                out,
                "\n… and {} more (`--format json` lists every one)",
                j.drift.findings.len() - MAX_ROWS
            );
        }
        out.push_str("\n<details><summary>Evidence and what to do</summary>\n\n");
        for f in shown {
            let _ = writeln!(out, "**{} `{}`** ({})\n", f.rule, f.subject, f.reason);
            for e in &f.evidence {
                let _ = writeln!(out, "- {}", cell(e));
            }
            let _ = writeln!(out, "- **What to do:** {}\n", cell(&f.remediation));
        }
        out.push_str("</details>\n\n");
    }
    if !j.drift.not_compared.is_empty() {
        let _ = writeln!(
            out,
            "**Not compared** ({}), never counted as drift:\n",
            j.drift.not_compared.len()
        );
        for (what, why) in &j.drift.not_compared {
            let _ = writeln!(out, "- `{}`: {}", cell(what), cell(why));
        }
        out.push('\n');
    }
    out.push_str("Values the API does not return (Secrets, fields the render leaves to their defaults) are not compared.\n");
    out
}

fn finding_json(f: &Finding) -> Value {
    json!({
        "rule": f.rule,
        "severity": f.severity.as_str(),
        "subject": f.subject.to_string(),
        "objects": f.objects().iter().map(|k| k.to_string()).collect::<Vec<_>>(),
        "message": f.message,
        "reason": f.reason,
        "evidence": f.evidence,
        "remediation": f.remediation,
    })
}

/// The stable JSON form.
pub fn json(j: &Judged) -> Value {
    let d = &j.drift;
    json!({
        "schema": SCHEMA,
        "verdict": j.verdict(),
        "summary": j.summary(),
        "failOn": j.fail_on.as_str(),
        "live": j.address,
        "render": j.render.display().to_string(),
        "revision": j.rendered.as_ref().map(|c| c.sha.clone()),
        "compared": d.compared,
        "inSync": d.in_sync,
        "findings": d.findings.iter().map(finding_json).collect::<Vec<_>>(),
        "notCompared": d.not_compared.iter().map(|(what, why)| json!({ "what": what, "why": why })).collect::<Vec<_>>(),
    })
}

/// Workflow annotations, one per finding at its object's manifest, then the verdict.
pub fn github(j: &Judged) -> String {
    let places = j.places();
    let mut out = String::new();
    for f in &j.drift.findings {
        let _ = writeln!(
            out,
            "::{} {}title={}::{}",
            level(f.severity, j.fail_on),
            place(Some(&f.subject), &places),
            property(&format!(
                "fluxlens drift {} {} ({})",
                f.rule,
                f.subject,
                f.severity.as_str()
            )),
            data(&format!("{} — {}", f.message, f.remediation))
        );
    }
    let _ = writeln!(
        out,
        "::notice title={}::{}",
        property("fluxlens drift"),
        data(&j.summary())
    );
    out
}

/// A SARIF log: one result per object a finding lists.
pub fn sarif(j: &Judged) -> Value {
    let hits: Vec<_> = j.drift.findings.iter().flat_map(finding_hits).collect();
    let properties = json!({
        "verdict": j.verdict(),
        "summary": j.summary(),
        "failOn": j.fail_on.as_str(),
        "live": j.address,
    });
    log(&hits, j.fail_on, &j.places(), properties)
}
