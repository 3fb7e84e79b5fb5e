//! `--format github`: workflow commands, one annotation per thing the change adds — an error
//! at or above `--fail-on`, a warning from medium, a notice below.

use super::Report;
use fluxlens_core::finding::Severity;

/// A workflow command's data: `%`, CR and LF encoded as the runner expects.
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value: also `:` and `,`.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Every annotation, worst first, then the summary as a notice.
pub fn render(r: &Report) -> String {
    let mut out = String::new();
    for (severity, what) in r.change.weighed() {
        let level = if severity >= r.fail_on {
            "error"
        } else if severity >= Severity::Medium {
            "warning"
        } else {
            "notice"
        };
        let detail = detail_for(r, &what);
        out.push_str(&format!(
            "::{level} title={}::{}\n",
            property(&format!("fluxlens-check {} ({})", what, severity.as_str())),
            data(&detail)
        ));
    }
    out.push_str(&format!(
        "::notice title=fluxlens-check::{}\n",
        data(&r.summary())
    ));
    out
}

/// The finding's message and remediation, when `what` names one.
fn detail_for(r: &Report, what: &str) -> String {
    r.change
        .added
        .iter()
        .find(|f| format!("{} on {}", f.rule, f.subject) == what)
        .map(|f| format!("{}\n{}", f.message, f.remediation))
        .unwrap_or_else(|| what.to_string())
}
