//! `--format github`: workflow commands, one annotation per thing the change adds — an error
//! at or above `--fail-on`, a warning from medium, a notice below.

use super::Report;
use super::sarif::Places;
use fluxlens_core::analyses::finding::Severity;
use fluxlens_core::model::ObjectKey;

/// A workflow command's data: `%`, CR and LF encoded as the runner expects.
pub(crate) fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value: also `:` and `,`.
pub(crate) fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Where an annotation is shown: the manifest and line its object was read from, as SARIF
/// locates a result (#69: the annotations carried no file), else the FluxInstance's or the
/// root's manifest; none when the render holds neither.
pub(crate) fn place(object: Option<&ObjectKey>, places: &Places) -> String {
    let origin = object
        .and_then(|k| places.origins.get(k))
        .or_else(|| places.fallback());
    match origin {
        Some(o) => {
            let file = super::sarif::relative_path(&o.file);
            match o.line {
                Some(line) => format!("file={},line={},", property(&file), line.max(1)),
                None => format!("file={},", property(&file)),
            }
        }
        None => String::new(),
    }
}

/// An annotation's level: an error at or above `--fail-on`, a warning from medium, a notice
/// below.
pub(crate) fn level(severity: Severity, fail_on: Severity) -> &'static str {
    if severity >= fail_on {
        "error"
    } else if severity >= Severity::Medium {
        "warning"
    } else {
        "notice"
    }
}

/// Every annotation, worst first, then the summary as a notice.
pub fn render(r: &Report, places: &Places) -> String {
    render_titled(r, places, "fluxlens-check")
}

/// [`render`] with each annotation's title starting `title` (`fluxlens-check [prod-eu]` for
/// one cluster of several).
pub fn render_titled(r: &Report, places: &Places, title: &str) -> String {
    let mut out = String::new();
    for w in r.change.weighed() {
        let severity = w.severity;
        let level = level(severity, r.fail_on);
        let detail = w.detail.as_deref().unwrap_or(&w.what);
        out.push_str(&format!(
            "::{level} {}title={}::{}\n",
            place(w.object.as_ref(), places),
            property(&format!("{title} {} ({})", w.what, severity.as_str())),
            data(detail)
        ));
    }
    out.push_str(&format!(
        "::notice title={}::{}\n",
        property(title),
        data(&r.summary())
    ));
    out
}
