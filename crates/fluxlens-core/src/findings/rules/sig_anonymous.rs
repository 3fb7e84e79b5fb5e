//! SIG-11: unsigned OCI content pulled anonymously.

use super::rule;
use crate::findings::{Finding, Severity};
use crate::kind::Kind;
use crate::model::{Cluster, FluxObject, RefKind};

rule!(
    /// SIG-11: no verify and anonymous pull: integrity rests on registry write access alone.
    UnsignedAnonymousOci, "SIG-11", "unsigned anonymous OCI source", unsigned_anonymous
);

/// Whether an OCI source pulls without credentials.
fn anonymous(o: &FluxObject) -> bool {
    let s = &o.raw.spec;
    s.secret_ref.as_ref().is_none_or(|r| r.name.is_empty())
        && s.provider
            .as_deref()
            .is_none_or(|p| p.is_empty() || p == "generic")
        && s.service_account_name.as_deref().is_none_or(str::is_empty)
        && s.cert_secret_ref.as_ref().is_none_or(|r| r.name.is_empty())
}

fn mutable_tag(o: &FluxObject) -> bool {
    match &o.raw.spec.ref_ {
        Some(crate::api::object::RefField::Structured(r)) => {
            r.digest.as_deref().is_none_or(str::is_empty)
                && r.semver.as_deref().is_none_or(str::is_empty)
        }
        _ => true,
    }
}

/// SIG-11 fires on the root too; SIG-01 reads this to raise its own severity.
pub(crate) fn fires_on(c: &Cluster, o: &FluxObject) -> bool {
    o.key.kind == Kind::OciRepository
        && o.raw.spec.verify.is_none()
        && anonymous(o)
        && c.contains(&o.key)
}

fn unsigned_anonymous(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let root = c.root_source();
    for o in c.of_kind(&Kind::OciRepository).filter(|o| fires_on(c, o)) {
        let on_root = root.as_ref() == Some(&o.key);
        let mut sev = if on_root {
            Severity::Critical
        } else {
            Severity::High
        };
        let mut evidence = vec![format!(
            "{}: no spec.verify, no secretRef, provider generic, no serviceAccountName",
            o.raw.spec.url.clone().unwrap_or_default()
        )];
        if mutable_tag(o) {
            sev = sev.raised();
            evidence.push("the ref is a mutable tag (no digest, no semver)".into());
        }
        out.push(Finding {
            rule: id.into(),
            severity: sev,
            subject: o.key.clone(),
            message: format!("{} pulls unsigned content anonymously: whoever can push to the registry controls it", o.key),
            evidence,
            remediation: "Sign the artifact and add spec.verify with a pinned identity, or pin ref.digest.".into(),
        });
    }
    // Charts from an anonymous OCI HelmRepository without verify.
    for ch in c
        .of_kind(&Kind::HelmChart)
        .filter(|o| o.raw.spec.verify.is_none())
    {
        let Some(src) = ch.refs.iter().find(|r| r.kind == RefKind::Source) else {
            continue;
        };
        let Some(repo) = c.get(&src.target).filter(|r| {
            r.key.kind == Kind::HelmRepository && r.raw.spec.type_.as_deref() == Some("oci")
        }) else {
            continue;
        };
        if anonymous(repo) {
            out.push(Finding {
                rule: id.into(),
                severity: Severity::High,
                subject: ch.key.clone(),
                message: format!("{} pulls an unsigned chart anonymously from {}", ch.key, repo.key),
                evidence: vec![format!("{}: type oci, no credentials; the chart has no spec.verify", repo.raw.spec.url.clone().unwrap_or_default())],
                remediation: "Add spec.verify to the chart (the HelmRelease chart template) with a keyed or pinned keyless check.".into(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use crate::findings::Severity;

    #[test]
    fn catalog_examples() {
        let public_latest = r#"{"kind":"OCIRepository","metadata":{"name":"a","namespace":"n"},"spec":{"url":"oci://ghcr.io/me/cluster","ref":{"tag":"latest"}}}"#;
        let f = run(&cluster(&[public_latest]), "SIG-11");
        assert_eq!(f.len(), 1);
        assert_eq!(
            f[0].severity,
            Severity::Critical,
            "high, raised for a mutable tag"
        );
        let pinned = r#"{"kind":"OCIRepository","metadata":{"name":"a","namespace":"n"},"spec":{"url":"oci://x","ref":{"digest":"sha256:ab"}}}"#;
        assert_eq!(
            run(&cluster(&[pinned]), "SIG-11")[0].severity,
            Severity::High
        );
        let verified = r#"{"kind":"OCIRepository","metadata":{"name":"a","namespace":"n"},"spec":{"url":"oci://x","verify":{"provider":"cosign"}}}"#;
        assert!(run(&cluster(&[verified]), "SIG-11").is_empty());
        let authed = r#"{"kind":"OCIRepository","metadata":{"name":"a","namespace":"n"},"spec":{"url":"oci://x","provider":"aws"}}"#;
        assert!(run(&cluster(&[authed]), "SIG-11").is_empty());
        let chart = cluster(&[
            r#"{"kind":"HelmRepository","metadata":{"name":"h","namespace":"n"},"spec":{"type":"oci","url":"oci://ghcr.io/charts"}}"#,
            r#"{"kind":"HelmChart","metadata":{"name":"c","namespace":"n"},"spec":{"chart":"x","sourceRef":{"kind":"HelmRepository","name":"h"}}}"#,
        ]);
        assert_eq!(run(&chart, "SIG-11").len(), 1);
    }
}
