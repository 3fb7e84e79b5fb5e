//! SIG-02, SIG-03, SIG-04, SIG-12, SIG-13: what the controller says about verification.

use super::rule;
use crate::analyses::findings::Finding;
use crate::analyses::findings::policy::{Class, fixed, graded};
use crate::analyses::signatures::{self, Verifiability};
use crate::model::{Cluster, FluxObject, RefKind};
use crate::wire::kind::Kind;

rule!(
    /// SIG-02: `spec.verify` set, the controller has seen the spec, yet no `SourceVerified`.
    NoVerdict, "SIG-02", "verify configured, no verdict", no_verdict
);
rule!(
    /// SIG-03: `SourceVerified=False`.
    Failing, "SIG-03", "verification failing", failing
);
rule!(
    /// SIG-04: the verdict is about another revision or an older generation.
    Stale, "SIG-04", "verdict stale", stale
);
rule!(
    /// SIG-12: chart verification that cannot take effect.
    IneffectiveChartVerification, "SIG-12", "ineffective chart verification", ineffective_chart
);
rule!(
    /// SIG-13: Git verify mode needs a tag the ref does not give.
    GitModeMismatch, "SIG-13", "Git verify mode mismatch", git_mode
);

fn verifying(c: &Cluster) -> impl Iterator<Item = &FluxObject> {
    c.objects().iter().filter(|o| {
        matches!(
            o.key.kind,
            Kind::OciRepository | Kind::GitRepository | Kind::HelmChart
        ) && o.verify().is_some()
    })
}

fn is_root(c: &Cluster, o: &FluxObject) -> bool {
    c.root_source().as_ref() == Some(&o.key)
}

fn no_verdict(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    for o in verifying(c) {
        if o.key.kind == Kind::HelmChart
            && matches!(signatures::chart_verifiability(o, c), Verifiability::No(_))
        {
            continue; // SIG-12 (or SIG-03 for HTTP repositories) explains it
        }
        if o.condition("SourceVerified").is_some() {
            continue;
        }
        // Revision 2: only a source that has fetched at its current spec owes a verdict: an
        // artifact, and the Ready condition's observedGeneration equal to the status's. A
        // source that never fetched shows its fetch failure (its status), not SIG-02.
        let ready_gen = o.condition("Ready").and_then(|r| r.observed_generation);
        let seen = o.artifact().is_some()
            && matches!((ready_gen, o.observed_generation()), (Some(a), Some(b)) if a == b);
        if seen {
            out.push(fixed(id, Class::ControlFailing, o.key.clone(), format!("{} has spec.verify but no SourceVerified condition", o.key), vec![
                    format!("spec.verify.provider: {}", o.verify().and_then(|v| v.provider.clone()).unwrap_or_else(|| "(default)".into())),
                    format!("Ready observedGeneration {} = status.observedGeneration {}", generation(ready_gen), generation(o.observed_generation())),
                ], "Check that the source-controller version supports this verification and that the object reconciled after verify was added (flux reconcile source …).".into()));
        }
    }
}

/// A generation as written in evidence: the number, or "unset" (never `Some(1)`).
fn generation(g: Option<i64>) -> String {
    g.map_or_else(|| "unset".into(), |g| g.to_string())
}

fn failing(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    for o in c.objects() {
        let Some(cond) = o
            .condition("SourceVerified")
            .filter(|c| c.status == "False")
        else {
            continue;
        };
        let root = is_root(c, o);
        let reason = cond.reason.clone().unwrap_or_default();
        let mut evidence = vec![format!(
            "SourceVerified=False reason={reason}: {}",
            cond.message.clone().unwrap_or_default()
        )];
        if reason == "InvalidVerificationMode" {
            evidence.push(
                "the object is stalled: the verify mode does not fit the ref (see SIG-13)".into(),
            );
        }
        if root {
            evidence.push(
                "this is the root source: delivery of the whole cluster stops (fails closed)"
                    .into(),
            );
        }
        let remediation = if http_chart(c, o) {
            evidence.push("the chart comes from an HTTP HelmRepository: source-controller does not implement verification there, so it can never pass".into());
            "Move the chart to an OCI registry (an OCI HelmRepository, or a chartRef to an OCIRepository) and verify it there, or remove spec.verify; re-signing will not help."
        } else {
            "Compare the signing identity (issuer/subject) or key with spec.verify; re-sign or fix the matcher. Do not remove verify to unblock."
        };
        out.push(graded(
            c,
            id,
            Class::Broken,
            o.key.clone(),
            format!("Signature verification of {} is failing", o.key),
            evidence,
            remediation.into(),
        ));
    }
}

/// A HelmChart whose HelmRepository is not of type `oci` (verification "not implemented").
fn http_chart(c: &Cluster, o: &FluxObject) -> bool {
    o.key.kind == Kind::HelmChart
        && o.refs
            .iter()
            .filter(|r| r.kind == RefKind::Source && r.target.kind == Kind::HelmRepository)
            .filter_map(|r| c.get(&r.target))
            .any(|repo| repo.spec_type() != Some("oci"))
}

fn stale(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    for o in verifying(c) {
        let Some(cond) = o.condition("SourceVerified").filter(|c| c.status == "True") else {
            continue;
        };
        let mut evidence = Vec::new();
        // Revision 3: a Git verdict names the commit (`verified signature of\n\t- commit
        // '<sha>' …`): compare its SHA-1 with the artifact's.
        if o.key.kind == Kind::GitRepository
            && let (Some(verified), Some(current)) = (
                cond.message
                    .as_deref()
                    .and_then(signatures::verified_commit),
                o.artifact_revision()
                    .and_then(crate::analyses::facts::cluster::sha1_of),
            )
            && verified != current
        {
            evidence.push(format!(
                "verified commit {verified:.12} ≠ artifact commit {current:.12}"
            ));
        }
        if matches!(o.key.kind, Kind::OciRepository | Kind::HelmChart)
            && let (Some(verified), Some(current)) = (
                cond.message
                    .as_deref()
                    .and_then(signatures::verified_revision),
                o.artifact_revision(),
            )
            && verified != current
        {
            evidence.push(format!(
                "verified revision {verified} ≠ artifact revision {current}"
            ));
        }
        // GitRepository: revision only. Its no-op path moves status.observedGeneration on an
        // unrelated spec change (an interval) without re-verifying, so generations mislead.
        if o.key.kind != Kind::GitRepository
            && let (Some(vg), Some(sg)) = (cond.observed_generation, o.observed_generation())
            && vg < sg
        {
            evidence.push(format!(
                "SourceVerified observedGeneration {vg} < status.observedGeneration {sg}"
            ));
        }
        if !evidence.is_empty() {
            out.push(fixed(
                id,
                Class::Degraded,
                o.key.clone(),
                format!(
                    "The SourceVerified verdict of {} is not about what is served now",
                    o.key
                ),
                evidence,
                "Reconcile the source and confirm SourceVerified names the current revision."
                    .into(),
            ));
        }
    }
}

fn ineffective_chart(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    for o in c.of_kind(&Kind::HelmChart).filter(|o| o.verify().is_some()) {
        let Some(src) = o.refs.iter().find(|r| r.kind == RefKind::Source) else {
            continue;
        };
        if matches!(src.target.kind, Kind::GitRepository | Kind::Bucket) {
            out.push(fixed(id, Class::ControlFailing, o.key.clone(), format!("{} sets spec.verify but is built from {}: verification is silently skipped", o.key, src.target), vec![format!("spec.sourceRef.kind: {}", src.target.kind), "the local chart builder has no verify path; SourceVerified never appears".into()], "Publish the chart to an OCI registry and reference it through an OCI HelmRepository or a chartRef to an OCIRepository with verify.".into()));
        }
    }
    for (hr, _, _, kind) in signatures::template_verifications(c) {
        if super::sig_identity::generated_chart_reported(c, hr) {
            continue; // reported once, on the generated HelmChart
        }
        if let Some(k @ (Kind::GitRepository | Kind::Bucket)) = kind {
            out.push(fixed(id, Class::ControlFailing, hr.key.clone(), format!("{} sets spec.chart.spec.verify on a chart from a {k}: verification is silently skipped", hr.key), vec![format!("spec.chart.spec.sourceRef.kind: {k}")], "Move the chart to an OCIRepository (spec.chartRef) with spec.verify.".into()));
        }
    }
}

fn git_mode(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    for o in c.of_kind(&Kind::GitRepository) {
        let Some(mode) = o.verify().and_then(|v| v.mode.clone()) else {
            continue;
        };
        if !(mode.eq_ignore_ascii_case("Tag") || mode.eq_ignore_ascii_case("TagAndHEAD")) {
            continue;
        }
        let has_tag = match o.source_ref() {
            Some(crate::wire::object::RefField::Structured(r)) => {
                r.tag.as_deref().is_some_and(|t| !t.is_empty())
                    || r.semver.as_deref().is_some_and(|t| !t.is_empty())
                    || r.name
                        .as_deref()
                        .is_some_and(|n| n.starts_with("refs/tags/"))
            }
            _ => false,
        };
        if !has_tag {
            out.push(fixed(
                id,
                Class::Degraded,
                o.key.clone(),
                format!(
                    "{} verifies mode {mode} but its ref names no tag: the source stalls",
                    o.key
                ),
                vec![
                    format!("spec.verify.mode: {mode}"),
                    "spec.ref has no tag, semver or refs/tags/ name".into(),
                ],
                "Use mode: HEAD for branches, or point spec.ref at a tag or semver range.".into(),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;

    #[test]
    fn sig_02_no_verdict() {
        let pass = cluster(&[
            r#"{"kind":"OCIRepository","metadata":{"name":"a","namespace":"n"},"spec":{"verify":{"provider":"cosign"}},"status":{"observedGeneration":2,"conditions":[{"type":"Ready","status":"True","observedGeneration":2},{"type":"SourceVerified","status":"True"}]}}"#,
        ]);
        assert!(run(&pass, "SIG-02").is_empty());
        let fail = cluster(&[
            r#"{"kind":"OCIRepository","metadata":{"name":"a","namespace":"n"},"spec":{"verify":{"provider":"cosign"}},"status":{"observedGeneration":2,"artifact":{"revision":"latest@sha256:ab"},"conditions":[{"type":"Ready","status":"True","observedGeneration":2}]}}"#,
        ]);
        assert_eq!(run(&fail, "SIG-02").len(), 1);
        // Regression: a source that never fetched (no observedGeneration, no artifact) shows
        // its fetch failure as its status, never SIG-02.
        let never_fetched = cluster(&[
            r#"{"kind":"OCIRepository","metadata":{"name":"a","namespace":"n"},"spec":{"verify":{"provider":"cosign"}},"status":{"conditions":[{"type":"Ready","status":"False","reason":"OCIArtifactPullFailed","message":"failed to pull: 401 Unauthorized"}]}}"#,
        ]);
        assert!(run(&never_fetched, "SIG-02").is_empty());
        let not_seen = cluster(&[
            r#"{"kind":"OCIRepository","metadata":{"name":"a","namespace":"n"},"spec":{"verify":{"provider":"cosign"}},"status":{"observedGeneration":3,"conditions":[{"type":"Ready","status":"True","observedGeneration":2}]}}"#,
        ]);
        assert!(
            run(&not_seen, "SIG-02").is_empty(),
            "the controller has not seen the new spec yet"
        );
    }

    #[test]
    fn sig_03_failing_is_critical_on_root() {
        let msg = r#"{"type":"SourceVerified","status":"False","reason":"VerificationError","message":"failed to verify the signature using provider 'cosign keyless': no matching signatures were found"}"#;
        let c = cluster(&[
            &root_ks("OCIRepository"),
            &format!(
                r#"{{"kind":"OCIRepository","metadata":{{"name":"flux-system","namespace":"flux-system"}},"spec":{{"verify":{{}}}},"status":{{"conditions":[{msg}]}}}}"#
            ),
            &format!(
                r#"{{"kind":"OCIRepository","metadata":{{"name":"x","namespace":"a"}},"spec":{{"verify":{{}}}},"status":{{"conditions":[{msg}]}}}}"#
            ),
        ]);
        let f = run(&c, "SIG-03");
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].severity, crate::analyses::findings::Severity::Critical);
        assert_eq!(f[1].severity, crate::analyses::findings::Severity::High);
    }

    #[test]
    fn sig_04_stale_revision() {
        let obj = |artifact: &str| {
            format!(
                r#"{{"kind":"OCIRepository","metadata":{{"name":"a","namespace":"n"}},"spec":{{"verify":{{}}}},"status":{{"artifact":{{"revision":"{artifact}"}},"conditions":[{{"type":"SourceVerified","status":"True","message":"verified signature of revision latest@sha256:ab"}}]}}}}"#
            )
        };
        assert!(run(&cluster(&[&obj("latest@sha256:ab")]), "SIG-04").is_empty());
        assert_eq!(
            run(&cluster(&[&obj("latest@sha256:cd")]), "SIG-04").len(),
            1
        );
    }

    #[test]
    fn sig_04_git_interval_change_is_not_stale() {
        // Regression: source-controller's no-op path moves status.observedGeneration after an
        // unrelated spec change (interval) without re-verifying a GitRepository.
        let c = cluster(&[
            r#"{"kind":"GitRepository","metadata":{"name":"g","namespace":"a"},"spec":{"verify":{"mode":"HEAD"}},"status":{"observedGeneration":5,"artifact":{"revision":"main@sha1:0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f"},"conditions":[{"type":"SourceVerified","status":"True","observedGeneration":4,"message":"verified signature of\n - commit '0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f'"}]}}"#,
        ]);
        assert!(run(&c, "SIG-04").is_empty());
    }

    #[test]
    fn sig_03_http_chart_advises_oci() {
        let c = cluster(&[
            r#"{"kind":"HelmRepository","metadata":{"name":"h","namespace":"a"},"spec":{"url":"https://charts.example.org"}}"#,
            r#"{"kind":"HelmChart","metadata":{"name":"c","namespace":"a"},"spec":{"chart":"x","sourceRef":{"kind":"HelmRepository","name":"h"},"verify":{"provider":"cosign"}},"status":{"conditions":[{"type":"SourceVerified","status":"False","reason":"VerificationError","message":"verification not implemented"}]}}"#,
        ]);
        let f = run(&c, "SIG-03");
        assert!(
            f[0].remediation.contains("OCI registry")
                && f[0].remediation.contains("re-signing will not help")
        );
    }

    #[test]
    fn sig_05_and_sig_12_once_per_chart() {
        // Regression: the HelmRelease template and its generated HelmChart were both reported.
        let c = cluster(&[
            r#"{"kind":"GitRepository","metadata":{"name":"repo","namespace":"a"}}"#,
            r#"{"kind":"HelmRelease","metadata":{"name":"r","namespace":"a"},"spec":{"chart":{"spec":{"chart":"./x","sourceRef":{"kind":"GitRepository","name":"repo"},"verify":{"provider":"cosign"}}}},"status":{"helmChart":"a/a-r"}}"#,
            r#"{"kind":"HelmChart","metadata":{"name":"a-r","namespace":"a"},"spec":{"chart":"./x","sourceRef":{"kind":"GitRepository","name":"repo"},"verify":{"provider":"cosign"}}}"#,
        ]);
        let f = run(&c, "SIG-12");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].subject.to_string(), "HelmChart/a/a-r");
        assert_eq!(
            run(&c, "SIG-05").len(),
            1,
            "the chart's keyless verify, once"
        );
    }

    #[test]
    fn sig_12_chart_from_git_and_sig_02_not_double_reported() {
        let c = cluster(&[
            r#"{"kind":"GitRepository","metadata":{"name":"repo","namespace":"a"}}"#,
            r#"{"kind":"HelmChart","metadata":{"name":"c","namespace":"a"},"spec":{"chart":"./charts/x","sourceRef":{"kind":"GitRepository","name":"repo"},"verify":{"provider":"cosign"}},"status":{"conditions":[{"type":"Ready","status":"True"}]}}"#,
            r#"{"kind":"HelmRelease","metadata":{"name":"r","namespace":"a"},"spec":{"chart":{"spec":{"chart":"./x","sourceRef":{"kind":"GitRepository","name":"repo"},"verify":{"provider":"cosign"}}}}}"#,
            r#"{"kind":"HelmRepository","metadata":{"name":"oci","namespace":"a"},"spec":{"type":"oci"}}"#,
            r#"{"kind":"HelmChart","metadata":{"name":"ok","namespace":"a"},"spec":{"chart":"x","sourceRef":{"kind":"HelmRepository","name":"oci"},"verify":{"provider":"cosign"}},"status":{"conditions":[{"type":"Ready","status":"True"},{"type":"SourceVerified","status":"True"}]}}"#,
        ]);
        let f = run(&c, "SIG-12");
        assert_eq!(f.len(), 2, "{f:#?}");
        assert!(run(&c, "SIG-02").is_empty());
    }

    #[test]
    fn sig_13_tag_mode_on_branch() {
        let g = |mode: &str, r: &str| {
            format!(
                r#"{{"kind":"GitRepository","metadata":{{"name":"g","namespace":"a"}},"spec":{{"ref":{r},"verify":{{"mode":"{mode}"}}}}}}"#
            )
        };
        assert!(run(&cluster(&[&g("HEAD", r#"{"branch":"main"}"#)]), "SIG-13").is_empty());
        assert!(run(&cluster(&[&g("Tag", r#"{"tag":"v1.0.0"}"#)]), "SIG-13").is_empty());
        assert!(
            run(
                &cluster(&[&g("Tag", r#"{"name":"refs/tags/v1"}"#)]),
                "SIG-13"
            )
            .is_empty()
        );
        assert_eq!(
            run(&cluster(&[&g("Tag", r#"{"branch":"main"}"#)]), "SIG-13").len(),
            1
        );
    }
}
