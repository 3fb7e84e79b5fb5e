//! Flux Enterprise compliance: what runs (variant per component, digests, provenance), how it
//! is kept current, and an evidence report for reviewers.

pub mod export;

pub use crate::enterprise::{
    AWS_MARKETPLACE_REGISTRY, ComponentImage, Profile, Variant, VariantBasis, catalog,
    classify_registry, cluster_variant, components, instance_variant, split_image,
};
use crate::finding::Finding;
use crate::model::Cluster;

/// A control of the scorecard.
#[derive(Debug, Clone, PartialEq)]
pub struct Control {
    pub rule: &'static str,
    pub title: &'static str,
    /// Unknown also when only informational findings speak to it.
    pub outcome: crate::outcome::Outcome,
}

/// The compliance findings for a profile.
pub fn findings(c: &Cluster, profile: &Profile) -> Vec<Finding> {
    let mut out = Vec::new();
    crate::findings::rules::ent::evaluate(c, profile, &mut out);
    crate::util::sort::by(&mut out, |a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.rule.cmp(&b.rule))
    });
    out
}

/// Pass/fail/unknown per ENT control, from the findings of that profile.
pub fn scorecard(c: &Cluster, findings: &[Finding]) -> Vec<Control> {
    use crate::finding::Severity;
    crate::findings::rules::ent::CONTROLS
        .iter()
        .map(|control| {
            let mine: Vec<&Finding> = findings.iter().filter(|f| f.rule == control.id).collect();
            let pass = if mine.iter().any(|f| f.severity > Severity::Info) {
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
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        use crate::api::FluxReport;
        use crate::model::CrdAccess;
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
