//! SIG-11: unsigned OCI content (revision 2: a posture gap graded by role; anonymous pull is
//! context, and only on the root, with a mutable tag, does it make the gap critical).

use super::rule;
use crate::analyses::findings::Finding;
use crate::analyses::findings::policy::{Class, graded};
use crate::model::{Cluster, FluxObject, RefKind};
use crate::wire::kind::Kind;

rule!(
    /// SIG-11: OCI content without signature verification and not pinned by digest.
    UnsignedAnonymousOci, "SIG-11", "unsigned OCI source", unsigned
);

/// Whether an OCI source pulls without credentials.
pub(crate) fn anonymous(o: &FluxObject) -> bool {
    let s = &o.raw.spec;
    s.secret_ref.as_ref().is_none_or(|r| r.name.is_empty())
        && s.provider
            .as_deref()
            .is_none_or(|p| p.is_empty() || p == "generic")
        && s.service_account_name.as_deref().is_none_or(str::is_empty)
        && s.cert_secret_ref.as_ref().is_none_or(|r| r.name.is_empty())
}

/// `ref.digest` pins content; a tag or a semver range follows whatever is pushed next.
pub(crate) fn digest_pinned(o: &FluxObject) -> bool {
    match o.source_ref() {
        Some(crate::wire::object::RefField::Structured(r)) => {
            r.digest.as_deref().is_some_and(|d| !d.is_empty())
        }
        _ => false,
    }
}

/// Whether SIG-11 fires on an OCIRepository.
pub(crate) fn fires_on(o: &FluxObject) -> bool {
    o.key.kind == Kind::OciRepository && o.verify().is_none() && !digest_pinned(o)
}

/// The class of an unverified, mutable OCI source: pulled anonymously it is the worst case.
pub(crate) fn class_of(o: &FluxObject) -> Class {
    if anonymous(o) {
        Class::ExposedAnonymous
    } else {
        Class::Exposed
    }
}

fn unsigned(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    for o in c.of_kind(&Kind::OciRepository).filter(|o| fires_on(o)) {
        let mut evidence = vec![format!(
            "{}: no spec.verify, ref {}",
            o.url().map(str::to_string).unwrap_or_default(),
            ref_text(o)
        )];
        if anonymous(o) {
            evidence.push(
                "pulled anonymously (no secretRef, provider generic, no serviceAccountName)".into(),
            );
        }
        out.push(graded(c, id, class_of(o), o.key.clone(),
            format!("{} delivers unverified content from a mutable reference", o.key),
            evidence,
            "Verify it (spec.verify: cosign keyless with a pinned identity, or a key), or pin ref.digest. For upstream charts this is the ecosystem's norm: schedule it, it is not an alarm.".into()));
    }
    // Charts from an OCI HelmRepository without verify.
    for ch in c.of_kind(&Kind::HelmChart).filter(|o| o.verify().is_none()) {
        let Some(src) = ch.refs.iter().find(|r| r.kind == RefKind::Source) else {
            continue;
        };
        let Some(repo) = c
            .get(&src.target)
            .filter(|r| r.key.kind == Kind::HelmRepository && r.spec_type() == Some("oci"))
        else {
            continue;
        };
        out.push(graded(c, id, class_of(repo), ch.key.clone(),
            format!("{} pulls an unverified chart from {}", ch.key, repo.key),
            vec![format!("{}: type oci; the chart has no spec.verify", repo.url().map(str::to_string).unwrap_or_default())],
            "Add spec.verify to the chart (the HelmRelease chart template) with a keyed or pinned keyless check, or move to a chartRef with a verified OCIRepository.".into()));
    }
}

fn ref_text(o: &FluxObject) -> String {
    match o.source_ref() {
        Some(crate::wire::object::RefField::Structured(r)) => r
            .semver
            .as_deref()
            .map(|s| format!("semver {s} (follows any newly pushed tag)"))
            .or_else(|| r.tag.as_deref().map(|t| format!("tag {t} (mutable)")))
            .unwrap_or_else(|| "latest (default)".into()),
        _ => "latest (default)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use crate::analyses::findings::Severity;

    #[test]
    fn catalog_examples_revision_2() {
        let oci = |spec: &str| {
            format!(
                r#"{{"kind":"OCIRepository","metadata":{{"name":"a","namespace":"n"}},"spec":{spec}}}"#
            )
        };
        // An ordinary unverified source on a tag: low, whether anonymous or not.
        let public_latest = oci(r#"{"url":"oci://ghcr.io/me/cluster","ref":{"tag":"latest"}}"#);
        let f = run(&cluster(&[&public_latest]), "SIG-11");
        assert_eq!((f.len(), f[0].severity), (1, Severity::Low));
        assert!(
            f[0].reason.starts_with("ordinary source"),
            "{}",
            f[0].reason
        );
        let authed = oci(r#"{"url":"oci://x","provider":"aws","ref":{"tag":"1.0"}}"#);
        assert_eq!(
            run(&cluster(&[&authed]), "SIG-11")[0].severity,
            Severity::Low
        );
        // Regression: ref.digest pins content and passes; a semver range is mutable.
        let pinned = oci(r#"{"url":"oci://x","ref":{"digest":"sha256:ab"}}"#);
        assert!(run(&cluster(&[&pinned]), "SIG-11").is_empty());
        let semver = oci(r#"{"url":"oci://x","ref":{"semver":">=1.0.0"}}"#);
        assert_eq!(run(&cluster(&[&semver]), "SIG-11").len(), 1);
        let verified = oci(r#"{"url":"oci://x","verify":{"provider":"cosign"}}"#);
        assert!(run(&cluster(&[&verified]), "SIG-11").is_empty());
        // The root: high, critical when also anonymous on a mutable tag.
        let root = |spec: &str| {
            format!(
                r#"{{"kind":"OCIRepository","metadata":{{"name":"flux-system","namespace":"flux-system"}},"spec":{spec}}}"#
            )
        };
        let anon_root = cluster(&[
            &root_ks("OCIRepository"),
            &root(r#"{"url":"oci://x","ref":{"tag":"latest"}}"#),
        ]);
        assert_eq!(run(&anon_root, "SIG-11")[0].severity, Severity::Critical);
        let authed_root = cluster(&[
            &root_ks("OCIRepository"),
            &root(r#"{"url":"oci://x","secretRef":{"name":"s"},"ref":{"tag":"latest"}}"#),
        ]);
        assert_eq!(run(&authed_root, "SIG-11")[0].severity, Severity::High);
        // A platform source (the operator's own chart): medium.
        let platform = oci(
            r#"{"url":"oci://ghcr.io/controlplaneio-fluxcd/charts/flux-operator","ref":{"semver":"*"}}"#,
        );
        assert_eq!(
            run(&cluster(&[&platform]), "SIG-11")[0].severity,
            Severity::Medium
        );
        let chart = cluster(&[
            r#"{"kind":"HelmRepository","metadata":{"name":"h","namespace":"n"},"spec":{"type":"oci","url":"oci://ghcr.io/charts"}}"#,
            r#"{"kind":"HelmChart","metadata":{"name":"c","namespace":"n"},"spec":{"chart":"x","sourceRef":{"kind":"HelmRepository","name":"h"}}}"#,
        ]);
        assert_eq!(run(&chart, "SIG-11")[0].severity, Severity::Low);
    }
}
