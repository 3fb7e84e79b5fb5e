//! Compliance of what a FluxInstance declares. Before a merge the operator has not picked the
//! images yet, so the ENT controls that read running images have nothing to read; the variant
//! the instance asks for (`spec.distribution.variant`, else its registry path) is what the
//! change decides, and ENT-02/ENT-03 judge that under the profile. Digests are the operator's
//! choice at apply time and stay unknown here.

use fluxlens_core::analyses::compliance::ProfileName;
use fluxlens_core::analyses::compliance::{Variant, classify_registry};
use fluxlens_core::analyses::finding::Finding;
use fluxlens_core::analyses::findings::policy::{Class, fixed};
use fluxlens_core::model::Cluster;

/// The operator's default registry when `spec.distribution.registry` is unset.
const DEFAULT_REGISTRY: &str = "ghcr.io/fluxcd";

/// ENT-02 and ENT-03 on the FluxInstance's declared variant, when no controller image is in
/// the render (with Deployments in it, the dashboard's own controls judge their images).
pub fn compliance(c: &Cluster, profile: ProfileName) -> Vec<Finding> {
    let Some(inst) = c.instance() else {
        return Vec::new();
    };
    if !c.report.spec.components.is_empty() || profile == ProfileName::Upstream {
        return Vec::new();
    }
    let d = c.instance_distribution().cloned().unwrap_or_default();
    let registry = d
        .registry
        .clone()
        .unwrap_or_else(|| DEFAULT_REGISTRY.into());
    let variant = d
        .variant
        .as_deref()
        .map(Variant::parse)
        .filter(|v| *v != Variant::Unknown)
        .or_else(|| classify_registry(&registry));
    let evidence = vec![
        format!("spec.distribution.registry: {registry}"),
        format!(
            "spec.distribution.variant: {}",
            d.variant.as_deref().unwrap_or("(unset)")
        ),
    ];
    let asked = variant.map(Variant::as_str).unwrap_or("an unknown variant");
    let mut out = Vec::new();
    let mut fail = |rule: &str, message: String, remediation: &str| {
        out.push(fixed(
            rule,
            Class::ControlFailing,
            inst.key.clone(),
            message,
            evidence.clone(),
            remediation.into(),
        ));
    };
    if !variant.is_some_and(Variant::is_enterprise) {
        fail(
            "ENT-02",
            format!("Flux Enterprise is required, but the FluxInstance asks for {asked}"),
            "Set spec.distribution.registry to ghcr.io/controlplaneio-fluxcd/<variant> (and variant), with imagePullSecret.",
        );
    }
    if profile == ProfileName::Fips && variant != Some(Variant::EnterpriseDistrolessFips) {
        fail(
            "ENT-03",
            format!("FIPS is required, but the FluxInstance asks for {asked}"),
            "Use registry ghcr.io/controlplaneio-fluxcd/distroless-fips (variant enterprise-distroless-fips).",
        );
    }
    out
}
