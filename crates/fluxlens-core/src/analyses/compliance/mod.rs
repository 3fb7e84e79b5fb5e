//! Flux Enterprise compliance: what runs (variant per component, digests, provenance), how it
//! is kept current, and an evidence report for reviewers.

pub mod export;

pub use crate::analyses::enterprise::{
    AWS_MARKETPLACE_REGISTRY, ComplianceQuery, ComponentImage, Profile, ProfileName, Variant,
    VariantBasis, catalog, classify_registry, cluster_variant, components, instance_variant,
    split_image,
};
use crate::analyses::facts::cluster::ClusterFacts;
use crate::analyses::finding::Finding;

/// A control of the scorecard.
#[derive(Debug, Clone, PartialEq)]
pub struct Control {
    pub rule: &'static str,
    pub title: &'static str,
    /// Unknown also when only informational findings speak to it.
    pub outcome: crate::analyses::outcome::Outcome,
    /// The worst finding that speaks to it (what the verdict's tone follows when it fails).
    pub worst: Option<crate::analyses::finding::Severity>,
}

/// How a scorecard stands, counted once: the verdict, the compliance view's summary line and the
/// overview's card all say these numbers (#27: they had said "10 of 12" and "10 of 14" on one
/// page, one counting the decided controls, the others every control).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    pub passed: usize,
    pub failed: usize,
    /// Controls the API cannot decide (never counted as passing).
    pub unknown: usize,
}

impl Tally {
    /// Counts a scorecard.
    pub fn of(controls: &[Control]) -> Tally {
        use crate::analyses::outcome::Outcome;
        let count = |o: Outcome| controls.iter().filter(|c| c.outcome == o).count();
        Tally {
            passed: count(Outcome::Pass),
            failed: count(Outcome::Fail),
            unknown: count(Outcome::Unknown),
        }
    }

    /// The controls decided, pass or fail.
    pub fn decided(&self) -> usize {
        self.passed + self.failed
    }

    /// Every control counted.
    pub fn total(&self) -> usize {
        self.passed + self.failed + self.unknown
    }

    /// "9 of 14 controls pass, 2 fail, 3 unknown": the parts add up to the table below it
    /// (#46: "9 of 11 controls pass, 3 unknown" above 14 rows could not be added up).
    pub fn text(&self) -> String {
        format!("{} {}", self.passed, self.after_passed())
    }

    /// [`Tally::text`] after its first number ("of 14 controls pass, 2 fail, 3 unknown"), for
    /// a view that sets the number apart.
    pub fn after_passed(&self) -> String {
        let part = |n: usize, word: &str| match n {
            0 => String::new(),
            n => format!(", {n} {word}"),
        };
        format!(
            "of {} controls pass{}{}",
            self.total(),
            part(self.failed, "fail"),
            part(self.unknown, "unknown")
        )
    }
}

/// The compliance findings for a profile.
pub fn findings(c: &ClusterFacts, profile: &Profile) -> Vec<Finding> {
    let mut out = Vec::new();
    crate::analyses::findings::rules::ent::evaluate(c, profile, &mut out);
    crate::util::sort::by(&mut out, |a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.rule.cmp(&b.rule))
    });
    out
}

/// Pass/fail/unknown per ENT control, from the findings of that profile.
pub fn scorecard(c: &ClusterFacts, findings: &[Finding]) -> Vec<Control> {
    use crate::analyses::finding::Severity;
    crate::analyses::findings::rules::ent::CONTROLS
        .iter()
        .map(|control| {
            let mine: Vec<&Finding> = findings.iter().filter(|f| f.rule == control.id).collect();
            // ENT-01 classifies the variant: it passes when the variant (or the mix) is told,
            // as the page states it — never "unknown" beside a stated variant (#27).
            let pass = if control.id == "ENT-01" {
                crate::analyses::findings::rules::ent::variant_classified(c).then_some(true)
            } else if mine.iter().any(|f| f.severity > Severity::Info)
                || (control.fails_at_info && !mine.is_empty())
            {
                Some(false)
            } else if !mine.is_empty() || c.report.spec.components.is_empty() {
                None
            } else {
                Some(true)
            };
            Control {
                rule: control.id,
                title: control.title,
                outcome: pass.into(),
                worst: mine.iter().map(|f| f.severity).max(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Cluster;

    #[test]
    fn the_compliance_query_reads_and_writes_its_two_values() {
        let q = ComplianceQuery::from_query("?profile=fips&minop=v0.40.0&poll=5");
        assert_eq!(q.profile, Some(ProfileName::Fips));
        assert_eq!(q.min_operator.as_deref(), Some("v0.40.0"));
        assert_eq!(q.to_query(), "profile=fips&minop=v0.40.0");
        assert_eq!(ComplianceQuery::from_query(&q.to_query()), q);
        // Unknown or oversized values are absent, never an error.
        let odd = ComplianceQuery::from_query(&format!("profile=gold&minop={}", "9".repeat(40)));
        assert_eq!(odd, ComplianceQuery::default());
        assert_eq!(odd.to_query(), "");
        let c = Cluster::new(Default::default(), [], Default::default());
        assert!(q.profile(&c).require_fips);
        assert_eq!(
            q.profile(&c).min_operator_version.as_deref(),
            Some("v0.40.0")
        );
    }

    #[test]
    fn ent01_passes_when_the_variant_is_told_and_is_unknown_only_when_it_is_not() {
        // #27: the scorecard read "variant classification: unknown" under "Variant
        // upstream-alpine".
        let report = |components: &str| -> crate::wire::FluxReport {
            serde_json::from_str(&format!(r#"{{"spec":{{"components":[{components}]}}}}"#)).unwrap()
        };
        let ent01 = |c: &Cluster| {
            let findings = findings(&ClusterFacts::of(c), &Profile::default());
            scorecard(&ClusterFacts::of(c), &findings)
                .into_iter()
                .find(|x| x.rule == "ENT-01")
                .unwrap()
                .outcome
        };
        let told = Cluster::new(
            report(
                r#"{"name":"source-controller","ready":true,"image":"ghcr.io/fluxcd/source-controller:v1.7.3"}"#,
            ),
            [],
            crate::model::CrdAccess::Unknown,
        );
        assert_eq!(ent01(&told), crate::analyses::outcome::Outcome::Pass);
        let unseen = Cluster::new(report(""), [], crate::model::CrdAccess::Unknown);
        assert_eq!(ent01(&unseen), crate::analyses::outcome::Outcome::Unknown);
    }

    #[test]
    fn an_operator_older_than_required_fails_ent14_not_unknown() {
        // #46: minop=v0.40.0 with an operator at v0.33.0 turned ENT-14 from pass to unknown.
        let report: crate::wire::FluxReport = serde_json::from_str(
            r#"{"spec":{"operator":{"version":"v0.33.0"},"components":[{"name":"source-controller","ready":true,"image":"ghcr.io/fluxcd/source-controller:v1.7.3"}]}}"#,
        )
        .unwrap();
        let c = Cluster::new(report, [], crate::model::CrdAccess::Unknown);
        let ent14 = |minop: Option<&str>| {
            let profile = Profile {
                min_operator_version: minop.map(str::to_string),
                ..Profile::default()
            };
            let findings = findings(&ClusterFacts::of(&c), &profile);
            let control = scorecard(&ClusterFacts::of(&c), &findings)
                .into_iter()
                .find(|x| x.rule == "ENT-14")
                .unwrap();
            (control.outcome, control.worst)
        };
        use crate::analyses::finding::Severity;
        use crate::analyses::outcome::Outcome;
        assert_eq!(ent14(None), (Outcome::Pass, None));
        assert_eq!(ent14(Some("v0.30.0")), (Outcome::Pass, None));
        // Failing a requirement the reviewer set is degraded assurance, not context (#68: a
        // failing control graded "info: context" read as nothing to do).
        assert_eq!(
            ent14(Some("v0.40.0")),
            (Outcome::Fail, Some(Severity::Medium))
        );
    }

    #[test]
    fn one_tally_for_every_place_that_counts_controls() {
        use crate::analyses::outcome::Outcome;
        let control = |outcome| Control {
            rule: "ENT-00",
            title: "t",
            outcome,
            worst: None,
        };
        let mut controls = vec![control(Outcome::Pass); 10];
        controls.extend([control(Outcome::Fail), control(Outcome::Fail)]);
        controls.extend([control(Outcome::Unknown), control(Outcome::Unknown)]);
        let t = Tally::of(&controls);
        assert_eq!((t.passed, t.failed, t.unknown, t.decided()), (10, 2, 2, 12));
        assert_eq!(t.text(), "10 of 14 controls pass, 2 fail, 2 unknown");
        let verdict = crate::analyses::verdict::compliance(
            &controls,
            crate::analyses::enterprise::ProfileName::Upstream,
        );
        assert_eq!(
            verdict.text,
            "10 of 14 controls pass, 2 fail, 2 unknown under the upstream profile"
        );
        assert_eq!(Tally::of(&controls[..10]).text(), "10 of 10 controls pass");
    }

    #[test]
    fn every_registry_form() {
        let cases = [
            ("ghcr.io/fluxcd", Some(Variant::UpstreamAlpine)),
            ("fluxcd", Some(Variant::UpstreamAlpine)),
            ("docker.io/fluxcd", Some(Variant::UpstreamAlpine)),
            (
                "ghcr.io/controlplaneio-fluxcd/alpine",
                Some(Variant::EnterpriseAlpine),
            ),
            (
                "ghcr.io/controlplaneio-fluxcd/distroless",
                Some(Variant::EnterpriseDistroless),
            ),
            (
                "ghcr.io/controlplaneio-fluxcd/distroless-fips",
                Some(Variant::EnterpriseDistrolessFips),
            ),
            (
                AWS_MARKETPLACE_REGISTRY,
                Some(Variant::EnterpriseDistroless),
            ),
            ("registry.internal/mirror/flux", None),
        ];
        for (r, want) in cases {
            assert_eq!(classify_registry(r), want, "{r}");
        }
        assert_eq!(
            split_image(
                "ghcr.io/controlplaneio-fluxcd/distroless/source-controller:v1.7.3@sha256:ab"
            ),
            (
                "ghcr.io/controlplaneio-fluxcd/distroless".into(),
                "source-controller".into(),
                "v1.7.3".into(),
                Some("sha256:ab".into())
            )
        );
        assert_eq!(split_image("fluxcd/flux:v2.7.0").0, "fluxcd");
    }

    #[test]
    fn mirrors_with_and_without_variant_and_flux_aio() {
        use crate::model::CrdAccess;
        use crate::wire::FluxReport;
        let report: FluxReport = serde_json::from_str(r#"{"spec":{"components":[{"name":"source-controller","image":"registry.internal/flux/source-controller:v1.7.3"}]}}"#).unwrap();
        let with = serde_json::from_str(r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"distribution":{"variant":"enterprise-distroless","registry":"registry.internal/flux"}}}"#).unwrap();
        let c = Cluster::new(report.clone(), [with], CrdAccess::Unknown);
        let comps = components(&c);
        assert_eq!(
            (comps[0].variant, comps[0].basis),
            (Variant::EnterpriseDistroless, VariantBasis::InstanceVariant)
        );
        let without = Cluster::new(report, [], CrdAccess::Unknown);
        assert_eq!(components(&without)[0].variant, Variant::Unknown);
        let aio: FluxReport = serde_json::from_str(r#"{"spec":{"components":[{"name":"flux","image":"ghcr.io/fluxcd/source-controller:v1.7.3"}]}}"#).unwrap();
        let c = Cluster::new(aio, [], CrdAccess::Unknown);
        assert_eq!(
            cluster_variant(&components(&c)),
            Some(Variant::UpstreamAlpine)
        );
    }
}
