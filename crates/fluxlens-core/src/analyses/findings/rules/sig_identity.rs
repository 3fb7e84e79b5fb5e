//! SIG-05 … SIG-08: keyless identity matchers.

use super::rule;
use crate::analyses::findings::Finding;
use crate::analyses::findings::policy::{Class, graded};
use crate::analyses::identity::SubjectScope;
use crate::analyses::identity::{self, analyse};
use crate::analyses::signatures;
use crate::model::{Cluster, FluxObject};
use crate::wire::kind::Kind;
use crate::wire::object::OidcIdentity;

rule!(
    /// SIG-05: cosign keyless with no identity: any Fulcio certificate passes.
    KeylessWithoutIdentity, "SIG-05", "keyless without identity", keyless_without_identity
);
rule!(
    /// SIG-06: a matcher that matches far more than intended.
    OverBroadIdentity, "SIG-06", "over-broad identity regex", over_broad
);
rule!(
    /// SIG-07: the subject does not pin a workflow and ref.
    IdentityNotPinned, "SIG-07", "identity not pinned to workflow/ref", not_pinned
);
rule!(
    /// SIG-08: literal dots left unescaped.
    UnescapedDots, "SIG-08", "unescaped dots", unescaped_dots
);

fn cosign_keyless(o: &FluxObject) -> Option<&[OidcIdentity]> {
    let v = o.verify()?;
    let cosign = v
        .provider
        .as_deref()
        .is_none_or(|p| p.is_empty() || p == "cosign");
    let keyless = v.secret_ref.as_ref().is_none_or(|s| s.name.is_empty());
    (cosign && keyless && matches!(o.key.kind, Kind::OciRepository | Kind::HelmChart))
        .then_some(v.match_oidc_identity.as_slice())
}

fn keyless_without_identity(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    for o in c.objects() {
        if cosign_keyless(o).is_some_and(<[_]>::is_empty) {
            out.push(graded(c, id, Class::FailOpen, o.key.clone(),
                format!("{} verifies keyless signatures from anyone: no matchOIDCIdentity", o.key),
                vec!["spec.verify: provider cosign, no secretRef, no matchOIDCIdentity".into(), "cosign then checks no identity: any valid Fulcio certificate with a Rekor entry passes".into()],
                "Add matchOIDCIdentity with an anchored issuer and a subject pinned to the release workflow and ref.".into()));
        }
    }
    for (hr, provider, keyed, _) in signatures::template_verifications(c) {
        if provider == "cosign" && !keyed && !generated_chart_reported(c, hr) {
            out.push(graded(c, id, Class::FailOpen, hr.key.clone(),
                format!("{} verifies its chart keyless, and chart templates cannot match identities", hr.key),
                vec!["spec.chart.spec.verify: provider cosign, no secretRef (HelmChartTemplateVerification has no matchOIDCIdentity)".into()],
                "Use a chartRef to an OCIRepository with verify.matchOIDCIdentity, or a keyed verification (secretRef).".into()));
        }
    }
}

/// The HelmChart a HelmRelease generated, when it is loaded and carries the same verify:
/// the finding is reported once, on the chart (regression: SIG-05/SIG-12 reported twice).
pub(crate) fn generated_chart_reported(c: &Cluster, hr: &FluxObject) -> bool {
    hr.raw
        .status
        .helm_chart
        .as_deref()
        .and_then(|s| s.split_once('/'))
        .and_then(|(ns, name)| c.get(&crate::model::ObjectKey::new(Kind::HelmChart, ns, name)))
        .is_some_and(|chart| chart.verify().is_some())
}

fn matchers(c: &Cluster) -> impl Iterator<Item = (&FluxObject, usize, &OidcIdentity)> {
    c.objects()
        .iter()
        .filter_map(|o| cosign_keyless(o).map(|ids| (o, ids)))
        .flat_map(|(o, ids)| ids.iter().enumerate().map(move |(i, m)| (o, i, m)))
}

fn over_broad(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    for (o, i, m) in matchers(c) {
        let mut evidence = Vec::new();
        // Revision 3: a matcher that admits anyone is fail-open (critical on the root, like
        // SIG-05); a missing anchor is a control that admits more than meant.
        let mut anyone = false;
        for (field, p) in [("issuer", &m.issuer), ("subject", &m.subject)] {
            let a = analyse(p);
            if a.matches_anything {
                anyone = true;
                evidence.push(format!(
                    "matchOIDCIdentity[{i}].{field} `{p}` matches any {field}"
                ));
                continue;
            }
            if field == "subject" && identity::subject_scope(p) == SubjectScope::AnyOwner {
                anyone = true;
                evidence.push(format!("matchOIDCIdentity[{i}].subject `{p}` leaves the owner open: any GitHub account's workflow can sign"));
            }
            let lit = identity::literal(p);
            if a.missing_start_anchor {
                let decoy = if field == "issuer" {
                    format!("https://evil.example/{lit}")
                } else {
                    format!("https://github.com/attacker/x/.github/workflows/{lit}")
                };
                evidence.push(format!("matchOIDCIdentity[{i}].{field} `{p}` has no leading ^: cosign searches unanchored, so it also matches the decoy `{decoy}`"));
            }
            if a.missing_end_anchor {
                evidence.push(format!("matchOIDCIdentity[{i}].{field} `{p}` has no trailing $: it also matches the decoy `{lit}-evil`"));
            }
        }
        if !evidence.is_empty() {
            let class = if anyone {
                Class::FailOpen
            } else {
                Class::ControlFailing
            };
            out.push(graded(c, id, class, o.key.clone(),
                format!("An identity matcher of {} accepts signers it should not", o.key),
                evidence,
                r"Anchor both patterns: issuer ^https://token\.actions\.githubusercontent\.com$, subject ^https://github\.com/<owner>/<repo>/\.github/workflows/<file>@refs/heads/<branch>$.".into()));
        }
    }
}

fn not_pinned(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    for (o, i, m) in matchers(c) {
        let a = analyse(&m.subject);
        if a.matches_anything
            || a.missing_start_anchor
            || !identity::is_workflow_subject(&m.subject)
        {
            continue; // SIG-06 covers the worse cases; non-workflow identities are out of scope
        }
        let quoted = format!("matchOIDCIdentity[{i}].subject `{}`", m.subject);
        let (class, message, evidence) = match identity::subject_scope(&m.subject) {
            SubjectScope::AnyOwner | SubjectScope::Pinned => continue,
            SubjectScope::Other if identity::pins_workflow_and_ref(&m.subject) => continue,
            // Revision 3: the vendor's own documented identity for its artifacts is
            // owner-wide (fluxcd, controlplaneio-fluxcd); anyone else's is high.
            SubjectScope::AnyRepositoryOf(owner) if vendor_identity(o, &owner) => (
                Class::Degraded,
                format!("The subject of {} admits any repository of {owner}: the vendor's documented signing identity", o.key),
                vec![quoted, format!("{owner} publishes this artifact and documents ^https://github\\.com/{owner}/.*$ as its identity")],
            ),
            SubjectScope::AnyRepositoryOf(owner) => (
                Class::ControlFailing,
                format!("Any repository of {owner} can sign for {}: the subject names no repository", o.key),
                vec![quoted, format!("a workflow in any repository under github.com/{owner} (a fork-owned test repository, an intern's sandbox) produces a certificate this matcher accepts")],
            ),
            SubjectScope::AnyBranch => (
                Class::Degraded,
                format!("The subject of {} pins the workflow but not the branch: any branch of the repository can sign", o.key),
                vec![quoted, "an unguarded workflow_dispatch on any branch can then publish signed artifacts (S003)".into()],
            ),
            SubjectScope::AnyWorkflow | SubjectScope::Other => (
                Class::Degraded,
                format!("The subject of {} does not pin a workflow and ref: any workflow or branch of the repository can sign", o.key),
                vec![quoted, "an unguarded workflow_dispatch can then publish signed non-main artifacts (S003)".into()],
            ),
        };
        out.push(graded(c, id, class, o.key.clone(), message, evidence,
            "Name the owner and repository literally and end the subject with /.github/workflows/<file>@refs/heads/<branch>$ (or @refs/tags/<pattern>$ for tag releases).".into()));
    }
}

/// Whether `owner` is the vendor of the artifact `o` pulls (its URL is under that owner).
fn vendor_identity(o: &FluxObject, owner: &str) -> bool {
    matches!(owner, "fluxcd" | "controlplaneio-fluxcd")
        && o.url().is_some_and(|u| u.contains(&format!("/{owner}/")))
}

fn unescaped_dots(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    for (o, i, m) in matchers(c) {
        let fields: Vec<String> = [("issuer", &m.issuer), ("subject", &m.subject)]
            .iter()
            .filter(|(_, p)| analyse(p).unescaped_dots)
            .map(|(f, p)| format!("matchOIDCIdentity[{i}].{f} `{p}`"))
            .collect();
        if !fields.is_empty() {
            out.push(graded(
                c,
                id,
                Class::Hygiene,
                o.key.clone(),
                format!(
                    "Identity patterns of {} use unescaped dots, which match any character",
                    o.key
                ),
                fields,
                r"Escape literal dots: github\.com, token\.actions\.githubusercontent\.com.".into(),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use crate::analyses::findings::Severity;

    fn oci(verify: &str) -> String {
        format!(
            r#"{{"kind":"OCIRepository","metadata":{{"name":"a","namespace":"n"}},"spec":{{"verify":{verify}}}}}"#
        )
    }

    const GOOD: &str = r#"{"provider":"cosign","matchOIDCIdentity":[{"issuer":"^https://token\\.actions\\.githubusercontent\\.com$","subject":"^https://github\\.com/org/repo/\\.github/workflows/release\\.yaml@refs/heads/main$"}]}"#;

    #[test]
    fn good_identity_passes_everything() {
        let c = cluster(&[&oci(GOOD)]);
        for r in ["SIG-05", "SIG-06", "SIG-07", "SIG-08"] {
            assert!(run(&c, r).is_empty(), "{r}");
        }
    }

    #[test]
    fn sig_05_keyless_without_identity_and_template() {
        assert_eq!(
            run(&cluster(&[&oci(r#"{"provider":"cosign"}"#)]), "SIG-05").len(),
            1
        );
        assert!(
            run(
                &cluster(&[&oci(r#"{"provider":"cosign","secretRef":{"name":"keys"}}"#)]),
                "SIG-05"
            )
            .is_empty()
        );
        assert!(
            run(
                &cluster(&[&oci(r#"{"provider":"notation","secretRef":{"name":"ca"}}"#)]),
                "SIG-05"
            )
            .is_empty()
        );
        let hr = r#"{"kind":"HelmRelease","metadata":{"name":"r","namespace":"a"},"spec":{"chart":{"spec":{"chart":"x","sourceRef":{"kind":"HelmRepository","name":"h"},"verify":{"provider":"cosign"}}}}}"#;
        assert_eq!(run(&cluster(&[hr]), "SIG-05").len(), 1);
        let root = cluster(&[
            &root_ks("OCIRepository"),
            r#"{"kind":"OCIRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"spec":{"verify":{"provider":"cosign"}}}"#,
        ]);
        assert_eq!(run(&root, "SIG-05")[0].severity, Severity::Critical);
    }

    #[test]
    fn sig_06_over_broad_with_decoys() {
        let f = run(
            &cluster(&[&oci(
                r#"{"matchOIDCIdentity":[{"issuer":"token.actions.githubusercontent.com","subject":".*"}]}"#,
            )]),
            "SIG-06",
        );
        assert_eq!(f.len(), 1);
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.contains("https://evil.example/token.actions.githubusercontent.com"))
        );
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.contains("matches any subject"))
        );
        let prefix = run(
            &cluster(&[&oci(
                r#"{"matchOIDCIdentity":[{"issuer":"^https://token\\.actions\\.githubusercontent\\.com$","subject":"https://github.com/org/"}]}"#,
            )]),
            "SIG-06",
        );
        assert_eq!(prefix.len(), 1);
    }

    #[test]
    fn several_matchers_are_checked_each() {
        let two = format!(
            r#"{{"matchOIDCIdentity":[{},{{"issuer":"^https://token\\.actions\\.githubusercontent\\.com$","subject":".+"}}]}}"#,
            &GOOD[GOOD.find('[').unwrap() + 1..GOOD.rfind(']').unwrap()]
        );
        let f = run(&cluster(&[&oci(&two)]), "SIG-06");
        assert_eq!(f.len(), 1);
        assert!(f[0].evidence[0].contains("matchOIDCIdentity[1]"));
    }

    #[test]
    fn sig_07_and_sig_08() {
        let doc_style = oci(
            r#"{"matchOIDCIdentity":[{"issuer":"^https://token\\.actions\\.githubusercontent\\.com$","subject":"^https://github\\.com/org/repo.*$"}]}"#,
        );
        assert_eq!(run(&cluster(&[&doc_style]), "SIG-07").len(), 1);
        assert!(run(&cluster(&[&doc_style]), "SIG-08").is_empty());
        let dots = oci(
            r#"{"matchOIDCIdentity":[{"issuer":"^https://token.actions.githubusercontent.com$","subject":"^https://github\\.com/org/repo/\\.github/workflows/r\\.yaml@refs/heads/main$"}]}"#,
        );
        assert_eq!(run(&cluster(&[&dots]), "SIG-08").len(), 1);
        assert!(run(&cluster(&[&dots]), "SIG-07").is_empty());
    }
}
