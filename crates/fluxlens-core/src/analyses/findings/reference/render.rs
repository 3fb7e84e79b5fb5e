//! The reference as Markdown (`docs/rules.md`, for the repository) and as a standalone HTML
//! page (`rules.html`, shipped beside the app; findings link to `rules.html#<id>`).

use super::{RuleDoc, docs, title};
use crate::analyses::findings::policy::{Class, Role, grade};
use std::fmt::Write;

/// The fragment of a rule's entry in either rendering (`SIG-01`).
pub fn anchor(id: &str) -> &str {
    id
}

/// A subject playing `role`, with its article: the roles' own names read as reasons ("on the
/// FluxInstance delivery chain"), which made "medium for a on the FluxInstance delivery chain".
fn subject_phrase(role: Role) -> &'static str {
    match role {
        Role::Root => "a root source",
        Role::DeliveryChain => "an object on the FluxInstance delivery chain",
        Role::Platform => "a platform source",
        Role::Ordinary => "an ordinary source",
    }
}

/// How loud a class is: one severity, or the severity per role
/// ("critical for a root source or on the FluxInstance delivery chain; high otherwise").
pub fn loudness(class: Class) -> String {
    if !class.depends_on_role() {
        return grade(class, Role::Ordinary).as_str().to_string();
    }
    let mut groups: Vec<(crate::analyses::findings::Severity, Vec<&str>)> = Vec::new();
    for role in Role::ALL {
        let s = grade(class, role);
        match groups.iter_mut().find(|(g, _)| *g == s) {
            Some((_, roles)) => roles.push(subject_phrase(role)),
            None => groups.push((s, vec![subject_phrase(role)])),
        }
    }
    let last = groups.len() - 1;
    groups
        .iter()
        .enumerate()
        .map(|(i, (s, roles))| match i == last {
            true => format!("{} otherwise", s.as_str()),
            false => format!("{} for {}", s.as_str(), roles.join(" or ")),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

const PREAMBLE: &str = "Every rule fluxlens evaluates, generated from the registry in fluxlens-core \
(`make rules` writes this file; a test fails when it is out of date). A finding's severity is not \
fixed by its rule: the rule says what class of evidence it found, and the policy grades that class \
by the part the subject plays (a root source, the FluxInstance's delivery chain, a platform source, \
an ordinary one). Each finding shows its severity and the reason in one line. The DRIFT rules come \
last: they judge a repository's render against the live cluster (`flux lens drift`), so no cluster \
alone makes them fire.";

/// The Markdown reference.
pub fn markdown() -> String {
    let mut out = String::from("# fluxlens rule reference\n\n");
    let _ = writeln!(out, "{PREAMBLE}\n");
    for d in docs() {
        entry_markdown(&mut out, d);
    }
    out
}

fn entry_markdown(out: &mut String, d: &RuleDoc) {
    let _ = writeln!(out, "<a id=\"{}\"></a>", anchor(d.id));
    let _ = writeln!(out, "## {} — {}\n", d.id, title(d.id));
    let _ = writeln!(out, "{}\n", d.checks);
    let _ = writeln!(out, "**Severity**");
    for c in d.classes {
        let _ = writeln!(out, "- {}: {}", c.as_str(), loudness(*c));
    }
    let _ = writeln!(out, "\n**Remediation** {}\n", d.remediation);
    let _ = writeln!(out, "**Sources**");
    for s in d.sources {
        let _ = writeln!(out, "- [{}]({})", s.label, s.url);
    }
    out.push('\n');
}

const STYLE: &str = "body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:0 auto;padding:1rem;color:#1b1f24;background:#fff}\
section{border-top:1px solid #d0d7de;padding:.5rem 0}section:target{background:#fff8c5;outline:2px solid #d4a72c;outline-offset:4px}\
h2{font-size:1.1rem;margin:.5rem 0}code,h2 span{font-family:ui-monospace,monospace}a{color:#0969da}ul{padding-left:1.2rem}\
@media (prefers-color-scheme:dark){body{color:#e6edf3;background:#0d1117}section{border-color:#30363d}section:target{background:#3b2e00}a{color:#4493f8}}";

/// The standalone HTML page (no script; the entry named by the fragment is highlighted).
pub fn html() -> String {
    let mut out = String::from(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n\
         <title>fluxlens rule reference</title>\n<link rel=\"icon\" href=\"data:,\">\n",
    );
    let _ = writeln!(out, "<style>{STYLE}</style>\n</head>\n<body>");
    let _ = writeln!(
        out,
        "<h1>fluxlens rule reference</h1>\n<p>{}</p>",
        esc(PREAMBLE)
    );
    let _ = writeln!(out, "<nav><p>{}</p></nav>", index());
    for d in docs() {
        entry_html(&mut out, d);
    }
    out.push_str("</body>\n</html>\n");
    out
}

fn index() -> String {
    docs()
        .map(|d| format!("<a href=\"#{0}\">{0}</a>", anchor(d.id)))
        .collect::<Vec<_>>()
        .join(" · ")
}

fn entry_html(out: &mut String, d: &RuleDoc) {
    let _ = writeln!(out, "<section id=\"{}\">", anchor(d.id));
    let _ = writeln!(out, "<h2><span>{}</span> {}</h2>", d.id, esc(title(d.id)));
    let _ = writeln!(out, "<p>{}</p>", esc(d.checks));
    let _ = writeln!(out, "<p><strong>Severity</strong></p><ul>");
    for c in d.classes {
        let _ = writeln!(out, "<li>{}: {}</li>", esc(c.as_str()), loudness(*c));
    }
    let _ = writeln!(
        out,
        "</ul><p><strong>Remediation</strong> {}</p>",
        esc(d.remediation)
    );
    let _ = writeln!(out, "<p><strong>Sources</strong></p><ul>");
    for s in d.sources {
        let _ = writeln!(out, "<li><a href=\"{}\">{}</a></li>", s.url, esc(s.label));
    }
    out.push_str("</ul>\n</section>\n");
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_graded_by_role_says_each_severity() {
        assert_eq!(
            loudness(Class::Broken),
            "critical for a root source or an object on the FluxInstance delivery chain; high otherwise"
        );
        assert_eq!(loudness(Class::Context), "info");
        // #68: the roles' names are reasons, not nouns: "medium for a on the FluxInstance …".
        assert_eq!(
            loudness(Class::Exposed),
            "high for a root source; medium for an object on the FluxInstance delivery chain or a platform source; low otherwise"
        );
        assert!(!markdown().contains("for a on"));
    }

    #[test]
    fn html_escapes_the_texts() {
        let page = html();
        assert!(page.contains("&lt;branch&gt;"));
        assert!(!page.contains("<branch>"));
        assert!(page.contains("<section id=\"MIG-GO-15\">"));
    }
}
