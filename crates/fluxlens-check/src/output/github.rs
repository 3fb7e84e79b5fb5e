//! `--format github`: workflow commands, one annotation per thing the change adds — an error
//! at or above `--fail-on`, a warning from medium, a notice below.

use super::Report;
use fluxlens_core::analyses::finding::Severity;

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
    for w in r.change.weighed() {
        let severity = w.severity;
        let level = if severity >= r.fail_on {
            "error"
        } else if severity >= Severity::Medium {
            "warning"
        } else {
            "notice"
        };
        let detail = w.detail.as_deref().unwrap_or(&w.what);
        out.push_str(&format!(
            "::{level} title={}::{}\n",
            property(&format!(
                "fluxlens-check {} ({})",
                w.what,
                severity.as_str()
            )),
            data(detail)
        ));
    }
    out.push_str(&format!(
        "::notice title=fluxlens-check::{}\n",
        data(&r.summary())
    ));
    out
}
