//! ENT-01 … ENT-14: Flux Enterprise compliance, evaluated for a [`Profile`].
//! The registry evaluates them with the profile the FluxInstance implies; the compliance
//! view re-evaluates with the profile the reviewer chose.

use crate::analyses::enterprise::{
    self as enterprise, AWS_MARKETPLACE_REGISTRY, ComponentImage, Profile, Variant, catalog,
};
use crate::analyses::facts::cluster::ClusterFacts;
use crate::analyses::facts::cluster::Installer;
use crate::analyses::findings::Finding;
use crate::analyses::findings::policy::{Class, fixed};
use crate::model::{Cluster, ObjectKey};
use crate::util::version::Version;
use crate::wire::kind::Kind;

fn subject(c: &Cluster) -> ObjectKey {
    c.instance()
        .map(|i| i.key.clone())
        .unwrap_or_else(|| ObjectKey::new(Kind::FluxReport, c.operator_namespace(), "flux"))
}

fn push(
    out: &mut Vec<Finding>,
    c: &Cluster,
    rule: &str,
    class: Class,
    message: String,
    evidence: Vec<String>,
    remediation: &str,
) {
    // A compliance control is about the installation: its severity never depends on a role.
    out.push(fixed(
        rule,
        class,
        subject(c),
        message,
        evidence,
        remediation.into(),
    ));
}

/// Whether the cluster's image variant can be told (ENT-01 passes then): some component is
/// seen and none is hidden behind flux-aio's one Deployment.
pub(crate) fn variant_classified(c: &ClusterFacts) -> bool {
    let comps = enterprise::components(c);
    !comps.is_empty() && aio_visibility(c, &comps).is_none()
}

/// With flux-aio: "1 of N controllers visible" (the report's `flux` component is only the
/// first container of the one Deployment running them all).
fn aio_visibility(c: &ClusterFacts, comps: &[ComponentImage]) -> Option<String> {
    let aio = comps.iter().any(|x| x.name == "flux")
        && crate::analyses::facts::cluster::installer(c) == Installer::FluxAio;
    aio.then(|| {
        let n = crate::analyses::facts::cluster::requested_controllers(c)
            .map(|v| v.len())
            .unwrap_or(crate::analyses::facts::cluster::DEFAULT_CONTROLLERS.len());
        format!("1 of {n} controllers visible")
    })
}

/// Where the registry path, the FluxInstance's `spec.distribution.variant` and the digest
/// catalog disagree about a component's variant.
fn contradictions(c: &Cluster, comps: &[ComponentImage]) -> Vec<String> {
    let declared = enterprise::instance_variant(c).filter(|v| *v != Variant::Unknown);
    let mut out = Vec::new();
    for x in comps {
        let by_path = enterprise::classify_registry(&x.registry);
        if let (Some(path), Some(decl)) = (by_path, declared)
            && path != decl
        {
            out.push(format!(
                "contradiction: {} comes from a {} registry path while spec.distribution.variant says {}",
                x.name,
                path.as_str(),
                decl.as_str()
            ));
        }
        if let Some(cat) = x.catalog_variant
            && cat != x.variant
            && x.variant != Variant::Unknown
        {
            out.push(format!(
                "{}: the bundled catalog lists its digest as {} (classified {} by its path)",
                x.name,
                cat.as_str(),
                x.variant.as_str()
            ));
        }
    }
    out
}

/// Installed and latest Flux versions, when both are known.
#[derive(Clone, Copy)]
struct Releases {
    ma: u32,
    mi: u32,
    /// `None` when the report writes no patch (`v2.8`).
    pa: Option<u32>,
    lma: u32,
    lmi: u32,
}

/// What the controls read: computed once per [`evaluate`] (the compliance view, every control
/// at once); a control run as a registered rule computes its own.
struct Facts<'a> {
    c: &'a Cluster,
    installer: Installer,
    p: &'a Profile,
    comps: Vec<ComponentImage>,
    cluster_variant: Option<Variant>,
    /// With flux-aio: what the report can show ("1 of N controllers visible").
    aio_hidden: Option<String>,
    version: Option<Releases>,
}

impl<'a> Facts<'a> {
    /// `None` when no component image is known: nothing to classify, every control unknown.
    fn new(cf: &'a ClusterFacts, p: &'a Profile) -> Option<Facts<'a>> {
        let c = cf.cluster;
        let comps = enterprise::components(c);
        if comps.is_empty() {
            return None;
        }
        let installed = c
            .report
            .spec
            .distribution
            .version
            .as_deref()
            .and_then(Version::parse);
        let latest = Version::minor_of(&catalog::versions().latest_minor);
        let version = match (installed, latest) {
            (Some(v), Some((lma, lmi))) => Some(Releases {
                ma: v.major,
                mi: v.minor,
                pa: v.patch,
                lma,
                lmi,
            }),
            _ => None,
        };
        Some(Facts {
            c,
            installer: crate::analyses::facts::cluster::installer(cf),
            p,
            cluster_variant: enterprise::cluster_variant(&comps),
            aio_hidden: aio_visibility(cf, &comps),
            comps,
            version,
        })
    }
}

fn describe(x: &ComponentImage) -> String {
    format!(
        "{}: {} → {} ({:?})",
        x.name,
        x.image,
        x.variant.as_str(),
        x.basis
    )
}

/// One ENT control: its catalog id and title and the check that writes its findings.
pub struct Control {
    pub id: &'static str,
    pub title: &'static str,
    /// Whether a finding of this control fails it even at info: the catalog grades ENT-14 info
    /// (operator currency is context for the cluster's risk), yet an operator older than the
    /// required one fails the requirement (#46: it read "unknown").
    pub fails_at_info: bool,
    check: fn(&Facts, &mut Vec<Finding>),
}

/// Every control, in catalog order.
pub static CONTROLS: [Control; 14] = [
    Control {
        id: "ENT-01",
        title: "variant classification",
        fails_at_info: false,
        check: ent01,
    },
    Control {
        id: "ENT-02",
        title: "enterprise required",
        fails_at_info: false,
        check: ent02,
    },
    Control {
        id: "ENT-03",
        title: "FIPS required",
        fails_at_info: false,
        check: ent03,
    },
    Control {
        id: "ENT-04",
        title: "digest pinning",
        fails_at_info: false,
        check: ent04,
    },
    Control {
        id: "ENT-05",
        title: "digest provenance",
        fails_at_info: false,
        check: ent05,
    },
    Control {
        id: "ENT-06",
        title: "CVE update channel",
        fails_at_info: false,
        check: ent06,
    },
    Control {
        id: "ENT-07",
        title: "supported minor",
        fails_at_info: false,
        check: ent07,
    },
    Control {
        id: "ENT-08",
        title: "latest patch",
        fails_at_info: false,
        check: ent08,
    },
    Control {
        id: "ENT-09",
        title: "Kubernetes support",
        fails_at_info: false,
        check: ent09,
    },
    Control {
        id: "ENT-10",
        title: "entitlement",
        fails_at_info: false,
        check: ent10,
    },
    Control {
        id: "ENT-11",
        title: "pull secret",
        fails_at_info: false,
        check: ent11,
    },
    Control {
        id: "ENT-12",
        title: "signature identity advisory",
        fails_at_info: false,
        check: ent12,
    },
    Control {
        id: "ENT-13",
        title: "distroless feature conflict",
        fails_at_info: false,
        check: ent13,
    },
    Control {
        id: "ENT-14",
        title: "operator currency",
        fails_at_info: true,
        check: ent14,
    },
];

/// Registered like every other rule: evaluated with the profile the FluxInstance implies.
impl crate::analyses::findings::Rule for Control {
    fn id(&self) -> &'static str {
        self.id
    }
    fn title(&self) -> &'static str {
        self.title
    }
    fn evaluate(&self, c: &ClusterFacts, out: &mut Vec<Finding>) {
        let p = Profile::default_for(c);
        if let Some(facts) = Facts::new(c, &p) {
            (self.check)(&facts, out);
        }
    }
}

/// Evaluates every ENT control for the profile `p` (the compliance view's choice).
pub fn evaluate(c: &ClusterFacts, p: &Profile, out: &mut Vec<Finding>) {
    if let Some(facts) = Facts::new(c, p) {
        for control in &CONTROLS {
            (control.check)(&facts, out);
        }
    }
}

/// ENT-01 variant classification. Revision 3: flux-aio shows one controller's image of several, so
/// a variant judged from it is unknown; a registry path and a variant that disagree are said.
fn ent01(facts: &Facts, out: &mut Vec<Finding>) {
    let c = facts.c;
    let comps = &facts.comps;
    let cluster_variant = facts.cluster_variant;
    let variant_name = match (&facts.aio_hidden, cluster_variant) {
        (Some(seen), _) => format!("unknown ({seen})"),
        (None, Some(v)) => v.as_str().to_string(),
        (None, None) => "mixed".into(),
    };
    let mut ev: Vec<String> = comps.iter().map(describe).collect();
    ev.extend(contradictions(c, comps));
    push(
        out,
        c,
        "ENT-01",
        Class::Context,
        format!("Cluster variant: {variant_name}"),
        ev,
        "Informational.",
    );
}

/// ENT-02 enterprise required.
fn ent02(facts: &Facts, out: &mut Vec<Finding>) {
    let c = facts.c;
    let p = facts.p;
    let comps = &facts.comps;
    let cluster_variant = facts.cluster_variant;
    if let Some(seen) = &facts.aio_hidden
        && (p.require_enterprise || p.require_fips)
    {
        push(
            out,
            c,
            "ENT-02",
            Class::Context,
            format!("The variant cannot be judged: {seen}"),
            vec!["flux-aio runs every controller in one Deployment; the report shows only the first container's image".into()],
            "Check the flux-aio bundle's registry for every controller, or move to the Flux Operator.",
        );
    }
    let p_enterprise = p.require_enterprise && facts.aio_hidden.is_none();
    if p_enterprise && !cluster_variant.is_some_and(Variant::is_enterprise) {
        let not: Vec<String> = comps
            .iter()
            .filter(|x| !x.variant.is_enterprise())
            .map(describe)
            .collect();
        push(
            out,
            c,
            "ENT-02",
            Class::ControlFailing,
            "Flux Enterprise is required, but not every controller is an enterprise build".into(),
            not,
            "Switch spec.distribution.registry to ghcr.io/controlplaneio-fluxcd/<variant> with imagePullSecret.",
        );
    }
}

/// ENT-03 FIPS required.
fn ent03(facts: &Facts, out: &mut Vec<Finding>) {
    let c = facts.c;
    let p = facts.p;
    let comps = &facts.comps;
    if let Some(seen) = &facts.aio_hidden
        && (p.require_enterprise || p.require_fips)
    {
        push(
            out,
            c,
            "ENT-03",
            Class::Context,
            format!("The variant cannot be judged: {seen}"),
            vec!["flux-aio runs every controller in one Deployment; the report shows only the first container's image".into()],
            "Check the flux-aio bundle's registry for every controller, or move to the Flux Operator.",
        );
    }
    let p_fips = p.require_fips && facts.aio_hidden.is_none();
    if p_fips {
        // Revision 3: a digest the FIPS catalog lists passes whatever the registry path.
        let mut ev: Vec<String> = comps
            .iter()
            .filter(|x| !x.is_fips())
            .map(describe)
            .collect();
        let platform = c
            .report
            .spec
            .cluster
            .as_ref()
            .and_then(|k| k.platform.clone())
            .unwrap_or_default();
        // An unknown platform (a report without `spec.cluster`, a render before a merge) is
        // not a failing one.
        if !platform.is_empty() && !matches!(platform.as_str(), "linux/amd64" | "linux/arm64") {
            ev.push(format!(
                "platform {platform:?}: FIPS images exist for linux/amd64 and linux/arm64 only"
            ));
        }
        if !ev.is_empty() {
            push(
                out,
                c,
                "ENT-03",
                Class::ControlFailing,
                "FIPS is required, but not everything runs the distroless-fips build".into(),
                ev,
                "Use registry ghcr.io/controlplaneio-fluxcd/distroless-fips (variant enterprise-distroless-fips).",
            );
        }
    }
}

/// ENT-04 digest pinning.
fn ent04(facts: &Facts, out: &mut Vec<Finding>) {
    let c = facts.c;
    let p = facts.p;
    let comps = &facts.comps;
    let mut unpinned: Vec<String> = comps
        .iter()
        .filter(|x| x.digest.is_none())
        .map(|x| format!("{}: {}", x.name, x.image))
        .collect();
    if let Some(i) = c.instance() {
        let empty: Vec<String> = i
            .raw
            .status
            .components
            .iter()
            .filter(|s| s.digest.as_deref().is_none_or(str::is_empty))
            .map(|s| {
                format!(
                    "FluxInstance status.components {} has no digest",
                    s.name.clone().unwrap_or_default()
                )
            })
            .collect();
        if !empty.is_empty()
            && c.instance_distribution()
                .is_some_and(|d| d.variant.is_none())
            && comps
                .iter()
                .any(|x| x.basis == enterprise::VariantBasis::Unknown)
        {
            unpinned.push("mirror registry without spec.distribution.variant: the operator cannot pick digests".into());
        }
        unpinned.extend(empty);
    }
    if !unpinned.is_empty() {
        // Revision 2: high only where the profile asks for Enterprise or FIPS; upstream
        // bootstrap installs tags, so there it is hygiene, said with what pinning needs.
        let strict = p.require_enterprise || p.require_fips;
        push(
            out,
            c,
            "ENT-04",
            if strict {
                Class::ControlFailing
            } else {
                Class::Hygiene
            },
            "Controller images are not pinned by digest".into(),
            unpinned,
            "Pinning needs the Flux Operator (a FluxInstance pins each image by digest from its catalog); for a mirror registry also set spec.distribution.variant. flux bootstrap installs tags.",
        );
    }
}

/// ENT-05 digest provenance.
fn ent05(facts: &Facts, out: &mut Vec<Finding>) {
    let c = facts.c;
    let comps = &facts.comps;
    for x in comps {
        let Some(d) = &x.digest else { continue };
        let upstream = x.variant == Variant::UpstreamAlpine;
        let (expected, from) = match (&x.instance_digest, &x.catalog_digest) {
            (Some(i), _) => (Some(i), "FluxInstance status"),
            (None, Some(k)) => (Some(k), "bundled catalog"),
            _ => (None, ""),
        };
        match expected {
            Some(e) if e != d => push(
                out,
                c,
                "ENT-05",
                if upstream {
                    Class::ControlFailing
                } else {
                    Class::Context
                },
                format!("{} runs digest {d:.19}…, {from} says {e:.19}…", x.name),
                vec![
                    format!("{}: {}", x.name, x.image),
                    if upstream {
                        "upstream tags are immutable releases: a different digest is suspicious"
                            .into()
                    } else {
                        "enterprise digests change with CVE rebuilds: usually newer".into()
                    },
                ],
                "Compare with the release's published digest; reconcile the FluxInstance.",
            ),
            Some(_) => {}
            None if x.instance_digest.is_none() => push(
                out,
                c,
                "ENT-05",
                Class::Context,
                format!("{}: provenance of {} cannot be checked", x.name, x.tag),
                vec![format!(
                    "no FluxInstance digest, and {} {} is not in the bundled catalog ({}, {})",
                    x.tag,
                    x.variant.as_str(),
                    catalog::digests().source,
                    catalog::digests().date
                )],
                "Informational: install through the Flux Operator to compare against the digest it selected.",
            ),
            None => {}
        }
    }
}

/// ENT-06 CVE update channel.
fn ent06(facts: &Facts, out: &mut Vec<Finding>) {
    let c = facts.c;
    let comps = &facts.comps;
    match (facts.installer, c.instance()) {
        (Installer::Operator, Some(i)) => {
            let d = c.instance_distribution().cloned().unwrap_or_default();
            let paused = i.annotation("fluxcd.controlplane.io/reconcile") == Some("disabled");
            let mirror = comps
                .iter()
                .any(|x| x.basis == enterprise::VariantBasis::InstanceVariant);
            let channel = d.artifact.as_deref().is_some_and(|a| !a.is_empty())
                || (mirror && d.variant.is_some());
            if !channel || paused {
                let mut ev = vec![format!(
                    "spec.distribution.artifact: {}",
                    d.artifact.clone().unwrap_or_else(|| "(unset)".into())
                )];
                if paused {
                    ev.push("FluxInstance reconcile is disabled".into());
                }
                push(
                    out,
                    c,
                    "ENT-06",
                    Class::Degraded,
                    "CVE-patched digests will not arrive until the next operator upgrade".into(),
                    ev,
                    "Set spec.distribution.artifact: oci://ghcr.io/controlplaneio-fluxcd/flux-operator-manifests (or set variant on an air-gapped mirror).",
                );
            }
        }
        _ => push(
            out,
            c,
            "ENT-06",
            Class::Context,
            "Not managed by the Flux Operator: patching is manual".into(),
            vec![],
            "Patch controllers by hand, or adopt the Flux Operator.",
        ),
    }
}

/// ENT-07 supported minor: within the two minors before the latest.
fn ent07(facts: &Facts, out: &mut Vec<Finding>) {
    let c = facts.c;
    let Some(Releases {
        ma, mi, lma, lmi, ..
    }) = facts.version
    else {
        return;
    };
    if ma == lma && mi + 2 < lmi {
        push(
            out,
            c,
            "ENT-07",
            Class::ControlFailing,
            format!(
                "Flux {ma}.{mi} is out of support (supported: {lma}.{}–{lma}.{lmi})",
                lmi - 2
            ),
            vec![format!(
                "catalog: {} ({})",
                catalog::versions().source,
                catalog::versions().date
            )],
            "Upgrade one minor at a time, running `flux migrate` before each.",
        );
    }
}

/// ENT-08 latest patch, and a version pinned exactly.
fn ent08(facts: &Facts, out: &mut Vec<Finding>) {
    let c = facts.c;
    let Some(Releases { ma, mi, pa, .. }) = facts.version else {
        return;
    };
    // Behind the latest patch only when the report says which patch runs.
    if let (Some(info), Some(pa)) = (catalog::minor_info(ma, mi), pa) {
        let lp = Version::triple_of(&info.latest_patch);
        if lp.is_some_and(|(_, _, p)| p > pa) {
            push(
                out,
                c,
                "ENT-08",
                Class::Degraded,
                format!(
                    "Flux {ma}.{mi}.{pa} is behind the latest patch {}",
                    info.latest_patch
                ),
                vec![format!("catalog date {}", catalog::versions().date)],
                // The cluster's own minor (#46: "a range like 2.9.x" was offered to 2.7).
                &format!(
                    "Move to {}: a FluxInstance spec.distribution.version range like {ma}.{mi}.x takes each patch automatically.",
                    info.latest_patch
                ),
            );
        }
    }
    if let Some(v) = c.instance_distribution().and_then(|d| d.version.clone())
        && let Some(pin) = Version::parse(&v).filter(|pin| pin.patch.is_some())
    {
        let (pin_ma, pin_mi) = pin.minor();
        push(
            out,
            c,
            "ENT-08",
            Class::Context,
            format!("The FluxInstance pins {v} exactly: patches need a manual bump"),
            vec![],
            &format!("Use a patch range: spec.distribution.version: \"{pin_ma}.{pin_mi}.x\"."),
        );
    }
}

/// ENT-09 Kubernetes support: the cluster's minor within the range of the installed Flux minor.
fn ent09(facts: &Facts, out: &mut Vec<Finding>) {
    let c = facts.c;
    let cluster_variant = facts.cluster_variant;
    let Some(Releases { ma, mi, .. }) = facts.version else {
        return;
    };
    let server = c
        .report
        .spec
        .cluster
        .as_ref()
        .and_then(|k| k.server_version.clone())
        .and_then(|s| Version::minor_of(&s));
    if let (Some(k), Some(range)) = (
        server,
        catalog::minor_info(ma, mi).and_then(|m| m.kubernetes.clone()),
    ) {
        let (lo, hi) = (Version::minor_of(&range.0), Version::minor_of(&range.1));
        let enterprise = cluster_variant.is_some_and(Variant::is_enterprise);
        let lo = if enterprise {
            lo
        } else {
            hi.map(|(a, b)| (a, b.saturating_sub(2)))
        };
        if let (Some(lo), Some(hi)) = (lo, hi)
            && (k < lo || k > hi)
        {
            push(
                out,
                c,
                "ENT-09",
                Class::Degraded,
                format!(
                    "Kubernetes {}.{} is outside the support range {}.{}–{}.{} of Flux {ma}.{mi}",
                    k.0, k.1, lo.0, lo.1, hi.0, hi.1
                ),
                vec![if enterprise {
                    "enterprise: 6 most recent Kubernetes minors".into()
                } else {
                    "upstream: 3 most recent Kubernetes minors".into()
                }],
                "Upgrade the cluster or pick a Flux minor that supports it.",
            );
        }
    }
}

/// ENT-10 entitlement.
fn ent10(facts: &Facts, out: &mut Vec<Finding>) {
    let c = facts.c;
    let comps = &facts.comps;
    let entitlement = c
        .report
        .spec
        .distribution
        .entitlement
        .clone()
        .unwrap_or_else(|| "Unknown".into());
    let marketplace = comps.iter().any(|x| x.registry == AWS_MARKETPLACE_REGISTRY);
    if marketplace && entitlement != "Issued by controlplane-aws" {
        push(
            out,
            c,
            "ENT-10",
            Class::Degraded,
            format!("AWS Marketplace images with entitlement {entitlement:?}"),
            vec!["metering must be active: expected \"Issued by controlplane-aws\"".into()],
            "Check the operator's IAM role for AWS Marketplace metering.",
        );
    } else {
        push(
            out,
            c,
            "ENT-10",
            Class::Context,
            format!("Entitlement: {entitlement}"),
            vec![entitlement_note(&entitlement, marketplace).into()],
            "Keep the subscription evidence outside the cluster.",
        );
    }
}

/// What an entitlement value says, quoted only for the value it is (#46: the note on
/// "Issued by controlplane" was shown for "controlplane-aws" too).
fn entitlement_note(entitlement: &str, marketplace: bool) -> &'static str {
    match entitlement {
        "Issued by controlplane" => {
            "\"Issued by controlplane\" is an offline token every operator install issues itself: it is not proof of a subscription"
        }
        "Issued by controlplane-aws" if marketplace => {
            "issued by AWS Marketplace metering: the subscription is metered for these images"
        }
        "Issued by controlplane-aws" => {
            "issued by AWS Marketplace metering, though no component runs from the Marketplace registry"
        }
        "Unknown" => "the operator reports no entitlement",
        _ => "a value the catalog does not describe: check it with the vendor",
    }
}

/// ENT-11 pull secret.
fn ent11(facts: &Facts, out: &mut Vec<Finding>) {
    let c = facts.c;
    let comps = &facts.comps;
    let private = comps
        .iter()
        .any(|x| x.registry.starts_with("ghcr.io/controlplaneio-fluxcd/"));
    if private && c.instance().is_some() {
        let secret = c
            .instance_distribution()
            .and_then(|d| d.image_pull_secret.clone())
            .filter(|s| !s.is_empty());
        if secret.is_none() {
            push(
                out,
                c,
                "ENT-11",
                Class::ControlFailing,
                "Private ControlPlane images without spec.distribution.imagePullSecret".into(),
                vec!["controller pods will fail to pull on the next rollout".into()],
                "Create the flux-enterprise-auth dockerconfigjson Secret and set imagePullSecret.",
            );
        }
    }
}

/// ENT-12 signature identity advisory.
fn ent12(facts: &Facts, out: &mut Vec<Finding>) {
    let c = facts.c;
    let comps = &facts.comps;
    let owners: Vec<String> = {
        let mut o: Vec<String> = comps
            .iter()
            .map(|x| {
                if x.variant.is_enterprise() {
                    r"^https://github\.com/controlplaneio-fluxcd/.*$".to_string()
                } else {
                    r"^https://github\.com/fluxcd/.*$".to_string()
                }
            })
            .collect();
        crate::util::sort::natural(&mut o);
        o.dedup();
        o
    };
    let chart_unverified: Vec<String> = c
        .of_kind(&Kind::OciRepository)
        .filter(|o| {
            o.url().is_some_and(|u| {
                u.contains("controlplaneio-fluxcd/charts/flux-operator")
                    || u.contains("controlplaneio-fluxcd/charts/flux-instance")
            }) && o.verify().is_none()
        })
        .map(|o| o.key.to_string())
        .collect();
    if chart_unverified.is_empty() {
        push(out, c, "ENT-12", Class::Context, "Expected image signing identities (issuer https://token.actions.githubusercontent.com)".into(), owners, "Nothing in-cluster verifies controller images: verify at mirror time (flux-operator distro mirror --verify) or admission.");
    } else {
        push(
            out,
            c,
            "ENT-12",
            Class::Degraded,
            "The operator or instance chart is pulled without signature verification".into(),
            chart_unverified,
            r"Add spec.verify (cosign keyless, subject ^https://github\.com/controlplaneio-fluxcd/.*$).",
        );
    }
}

/// ENT-13 distroless feature conflict.
fn ent13(facts: &Facts, out: &mut Vec<Finding>) {
    let c = facts.c;
    let cluster_variant = facts.cluster_variant;
    if cluster_variant.is_some_and(|v| {
        matches!(
            v,
            Variant::EnterpriseDistroless | Variant::EnterpriseDistrolessFips
        )
    }) {
        let hits: Vec<String> = c
            .of_kind(&Kind::Kustomization)
            .filter_map(|k| {
                k.condition("Ready")
                    .filter(|r| r.status == "False")
                    .and_then(|r| r.message.clone())
                    .map(|m| (k, m))
            })
            .filter(|(_, m)| {
                m.contains("executable file not found")
                    && (m.contains("\"git\"") || m.contains("\"gpg\""))
                    || m.contains("openpgp")
                    || m.contains("remote base")
            })
            .map(|(k, m)| format!("{}: {m}", k.key))
            .collect();
        if !hits.is_empty() {
            push(
                out,
                c,
                "ENT-13",
                Class::Hygiene,
                "A distroless feature limit may break these Kustomizations".into(),
                hits,
                "Distroless images have no git/gpg: avoid kustomize remote bases and SOPS with PGP (use age or KMS).",
            );
        }
    }
}

/// ENT-14 operator currency.
fn ent14(facts: &Facts, out: &mut Vec<Finding>) {
    let c = facts.c;
    let p = facts.p;
    if let (Some(min), Some(have)) = (
        p.min_operator_version
            .as_deref()
            .and_then(Version::triple_of),
        c.report
            .spec
            .operator
            .as_ref()
            .and_then(|o| o.version.clone()),
    ) && Version::triple_of(&have).is_some_and(|h| h < min)
    {
        {
            // A requirement the reviewer set that the cluster fails is not context (#68: it
            // read "info: context" beside a failing control): degraded, to act on this cycle.
            push(
                out,
                c,
                "ENT-14",
                Class::Degraded,
                format!(
                    "Flux Operator {have} is older than the required {}",
                    p.min_operator_version.clone().unwrap_or_default()
                ),
                vec![],
                "Upgrade the operator (new Flux minors need a newer operator).",
            );
        }
    }
    // The operator's Normal event `OutdatedVersion` on the FluxInstance. The web API's events
    // carry no reason, so the message is what can be matched.
    if let Some(e) = c
        .instance_events
        .iter()
        .find(|e| outdated_event(&e.message))
    {
        push(
            out,
            c,
            "ENT-14",
            Class::Context,
            "The Flux Operator reports a newer Flux version than the one installed".into(),
            vec![format!(
                "{} event on {}: {}",
                e.type_, e.involved_object, e.message
            )],
            "Upgrade the operator or widen spec.distribution.version to take the newer release.",
        );
    }
}

/// Whether a FluxInstance event message is the operator's outdated-version notice.
pub(crate) fn outdated_event(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    m.contains("outdated") || (m.contains("newer") && m.contains("version"))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::analyses::findings::Severity;
    use crate::model::CrdAccess;
    use crate::wire::FluxReport;

    fn c(report: &str, objs: &[&str]) -> Cluster {
        let r: FluxReport = serde_json::from_str(report).unwrap();
        Cluster::new(
            r,
            objs.iter().map(|s| serde_json::from_str(s).unwrap()),
            CrdAccess::Unknown,
        )
    }

    /// A cluster each of these controls fires on as a registered rule (the profile the
    /// FluxInstance implies), for the rule-set test that runs every rule (`coverage.rs`); each
    /// is one of the cases below.
    pub(in crate::analyses::findings::rules) fn fail_examples() -> Vec<(&'static str, Cluster)> {
        // The FluxInstance asks for enterprise FIPS images; the cluster runs upstream ones.
        let upstream_images = c(
            r#"{"spec":{"distribution":{"version":"v2.9.4"},"components":[{"name":"source-controller","image":"ghcr.io/fluxcd/source-controller:v1.9.4@sha256:aa"}]}}"#,
            &[INST],
        );
        let old_kubernetes = c(
            r#"{"spec":{"distribution":{"version":"v2.9.4"},"cluster":{"serverVersion":"v1.28.0"},"components":[{"name":"source-controller","image":"ghcr.io/controlplaneio-fluxcd/distroless/source-controller:v1.9.4@sha256:aa"}]}}"#,
            &[],
        );
        let no_secret = c(
            FIPS,
            &[&INST.replace("\"imagePullSecret\":\"flux-enterprise-auth\",", "")],
        );
        let distroless_gpg = c(
            FIPS,
            &[
                INST,
                r#"{"kind":"Kustomization","metadata":{"name":"secrets","namespace":"a"},"status":{"conditions":[{"type":"Ready","status":"False","message":"decryption failed: exec: \"gpg\": executable file not found in $PATH"}]}}"#,
            ],
        );
        vec![
            ("ENT-02", upstream_images.clone()),
            ("ENT-03", upstream_images),
            ("ENT-09", old_kubernetes),
            ("ENT-11", no_secret),
            ("ENT-13", distroless_gpg),
        ]
    }

    fn findings_of(cl: &Cluster, rule: &str) -> Vec<Finding> {
        let mut out = Vec::new();
        evaluate(&ClusterFacts::of(cl), &Profile::default(), &mut out);
        out.into_iter().filter(|f| f.rule == rule).collect()
    }

    #[test]
    fn ent08_speaks_of_the_clusters_own_minor() {
        // #46: "a range like 2.9.x" was suggested to a 2.7 cluster.
        let report = r#"{"spec":{"distribution":{"version":"v2.7.1"},"components":[{"name":"source-controller","image":"ghcr.io/fluxcd/source-controller:v1.7.1"}]}}"#;
        let inst = r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"distribution":{"version":"2.7.1"}}}"#;
        let f = findings_of(&c(report, &[inst]), "ENT-08");
        assert_eq!(f.len(), 2, "{f:?}");
        for x in &f {
            assert!(x.remediation.contains("2.7.x"), "{}", x.remediation);
            assert!(!x.remediation.contains("2.9"), "{}", x.remediation);
        }
    }

    #[test]
    fn a_version_without_its_patch_is_the_same_release_to_the_controls() {
        // #48: `v2.5` was 2.5.0 to the fleet and nothing to ENT-07/08/09, which stayed silent.
        let report = r#"{"spec":{"distribution":{"version":"v2.5"},"components":[{"name":"source-controller","image":"ghcr.io/fluxcd/source-controller:v1.5.1"}]}}"#;
        let cl = c(report, &[]);
        assert_eq!(findings_of(&cl, "ENT-07").len(), 1, "out of support");
        // No patch written: nothing is said of the patch it runs.
        assert!(findings_of(&cl, "ENT-08").is_empty());
        // An exact pin is a pin only when it writes its patch.
        let range = r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"distribution":{"version":"2.5"}}}"#;
        assert!(findings_of(&c(report, &[range]), "ENT-08").is_empty());
    }

    #[test]
    fn ent10_quotes_the_note_of_the_value_it_is() {
        // #46: the note on "Issued by controlplane" was shown for "controlplane-aws".
        let report = |entitlement: &str| {
            format!(
                r#"{{"spec":{{"distribution":{{"version":"v2.7.1","entitlement":"{entitlement}"}},"components":[{{"name":"source-controller","image":"ghcr.io/fluxcd/source-controller:v1.7.1"}}]}}}}"#
            )
        };
        let note = |e: &str| {
            findings_of(&c(&report(e), &[]), "ENT-10")[0]
                .evidence
                .join(" ")
        };
        assert!(note("Issued by controlplane").contains("offline token"));
        let aws = note("Issued by controlplane-aws");
        assert!(!aws.contains("\"Issued by controlplane\""), "{aws}");
        assert!(aws.contains("Marketplace"), "{aws}");
        assert!(note("Unknown").contains("no entitlement"));
    }

    fn rules(cl: &Cluster, p: &Profile) -> Vec<(String, Severity)> {
        let mut out = Vec::new();
        evaluate(&ClusterFacts::of(cl), p, &mut out);
        out.into_iter().map(|f| (f.rule, f.severity)).collect()
    }

    const FIPS: &str = r#"{"metadata":{"namespace":"flux-system"},"spec":{"distribution":{"version":"v2.9.4","entitlement":"Issued by controlplane"},"cluster":{"serverVersion":"v1.34.1","platform":"linux/amd64"},"operator":{"version":"v0.33.0"},"components":[{"name":"source-controller","ready":true,"image":"ghcr.io/controlplaneio-fluxcd/distroless-fips/source-controller:v1.9.4@sha256:aa"}]}}"#;
    const INST: &str = r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"distribution":{"version":"2.9.x","registry":"ghcr.io/controlplaneio-fluxcd/distroless-fips","variant":"enterprise-distroless-fips","imagePullSecret":"flux-enterprise-auth","artifact":"oci://ghcr.io/controlplaneio-fluxcd/flux-operator-manifests"}},"status":{"components":[{"name":"source-controller","repository":"ghcr.io/controlplaneio-fluxcd/distroless-fips/source-controller","tag":"v1.9.4","digest":"sha256:aa"}]}}"#;

    #[test]
    fn an_unknown_platform_does_not_fail_fips() {
        // Regression (#26): a report without spec.cluster made ENT-03 fail a FIPS cluster.
        let no_platform = FIPS.replace(
            r#""cluster":{"serverVersion":"v1.34.1","platform":"linux/amd64"},"#,
            "",
        );
        assert_ne!(no_platform, FIPS);
        let cl = c(&no_platform, &[INST]);
        let fips = Profile {
            require_enterprise: true,
            require_fips: true,
            min_operator_version: None,
        };
        let r = rules(&cl, &fips);
        assert!(!r.iter().any(|(id, _)| id == "ENT-03"), "{r:?}");
    }

    #[test]
    fn compliant_fips_cluster_passes() {
        let cl = c(
            &FIPS.replace("\"components\"", "\"reconcilers\":[],\"components\""),
            &[INST],
        );
        let r: Vec<_> = rules(&cl, &Profile::default_for(&cl))
            .into_iter()
            .filter(|(_, s)| *s > Severity::Info)
            .collect();
        assert!(r.is_empty(), "{r:?}");
    }

    #[test]
    fn each_rule_fails_on_its_catalog_example() {
        let fips_profile = Profile {
            require_enterprise: true,
            require_fips: true,
            min_operator_version: Some("v0.40.0".into()),
        };
        let upstream = c(
            r#"{"spec":{"distribution":{"version":"v2.6.1","entitlement":"Issued by controlplane","managedBy":"flux-operator"},"cluster":{"serverVersion":"v1.28.0","platform":"linux/s390x"},"operator":{"version":"v0.33.0"},"components":[{"name":"source-controller","image":"ghcr.io/fluxcd/source-controller:v1.6.1"}]}}"#,
            &[
                r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"distribution":{"version":"2.6.1","registry":"ghcr.io/fluxcd"}}}"#,
            ],
        );
        let r = rules(&upstream, &fips_profile);
        for want in [
            ("ENT-02", Severity::High),
            ("ENT-03", Severity::High),
            ("ENT-04", Severity::High),
            ("ENT-06", Severity::Medium),
            ("ENT-07", Severity::High),
            ("ENT-08", Severity::Medium),
            ("ENT-08", Severity::Info),
            ("ENT-14", Severity::Medium),
        ] {
            assert!(
                r.iter().any(|(id, s)| id == want.0 && *s == want.1),
                "{want:?} in {r:?}"
            );
        }
        let drift = c(
            FIPS,
            &[&INST.replace("\"digest\":\"sha256:aa\"", "\"digest\":\"sha256:bb\"")],
        );
        assert!(
            rules(&drift, &Profile::default()).contains(&("ENT-05".into(), Severity::Info)),
            "enterprise mismatch is info"
        );
        let up_drift = c(
            r#"{"spec":{"distribution":{"version":"v2.9.4"},"components":[{"name":"source-controller","image":"ghcr.io/fluxcd/source-controller:v1.9.4@sha256:aa"}]}}"#,
            &[
                r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"status":{"components":[{"name":"source-controller","digest":"sha256:bb"}]}}"#,
            ],
        );
        assert!(
            rules(&up_drift, &Profile::default()).contains(&("ENT-05".into(), Severity::High)),
            "upstream mismatch is high"
        );
        let ecr = c(
            r#"{"spec":{"distribution":{"version":"v2.9.4","entitlement":"Unknown"},"components":[{"name":"source-controller","image":"709825985650.dkr.ecr.us-east-1.amazonaws.com/controlplane/fluxcd/source-controller:v1.9.4@sha256:aa"}]}}"#,
            &[],
        );
        assert!(rules(&ecr, &Profile::default()).contains(&("ENT-10".into(), Severity::Medium)));
        let no_secret = c(
            FIPS,
            &[&INST.replace("\"imagePullSecret\":\"flux-enterprise-auth\",", "")],
        );
        assert!(
            rules(&no_secret, &Profile::default()).contains(&("ENT-11".into(), Severity::High))
        );
        let distroless_gpg = c(
            FIPS,
            &[
                INST,
                r#"{"kind":"Kustomization","metadata":{"name":"secrets","namespace":"a"},"status":{"conditions":[{"type":"Ready","status":"False","message":"decryption failed: exec: \"gpg\": executable file not found in $PATH"}]}}"#,
            ],
        );
        assert!(
            rules(&distroless_gpg, &Profile::default()).contains(&("ENT-13".into(), Severity::Low))
        );
        let chart = c(
            FIPS,
            &[
                INST,
                r#"{"kind":"OCIRepository","metadata":{"name":"flux-operator","namespace":"flux-system"},"spec":{"url":"oci://ghcr.io/controlplaneio-fluxcd/charts/flux-operator"}}"#,
            ],
        );
        assert!(rules(&chart, &Profile::default()).contains(&("ENT-12".into(), Severity::Medium)));
        // Regression: the flux-instance chart is self-managed the same way.
        let instance_chart = c(
            FIPS,
            &[
                INST,
                r#"{"kind":"OCIRepository","metadata":{"name":"flux-instance","namespace":"flux-system"},"spec":{"url":"oci://ghcr.io/controlplaneio-fluxcd/charts/flux-instance"}}"#,
            ],
        );
        assert!(
            rules(&instance_chart, &Profile::default())
                .contains(&("ENT-12".into(), Severity::Medium))
        );
    }

    #[test]
    fn ent_05_checks_provenance_against_the_bundled_catalog() {
        let report = |digest: &str| {
            format!(
                r#"{{"spec":{{"distribution":{{"version":"v2.9.4"}},"components":[{{"name":"source-controller","image":"ghcr.io/fluxcd/source-controller:v1.9.4@sha256:{digest}"}}]}}}}"#
            )
        };
        // flux-operator config/data/flux-images/v2.9.4/upstream-alpine.yaml
        let release = c(
            &report("8a8ed0a57b8b86f561d5a4309a69f65e62f0cebe4de8801593c5ff35a3bc3c23"),
            &[],
        );
        assert!(
            !rules(&release, &Profile::default())
                .iter()
                .any(|(id, _)| id == "ENT-05")
        );
        let other = c(&report(&"0".repeat(64)), &[]);
        assert!(rules(&other, &Profile::default()).contains(&("ENT-05".into(), Severity::High)));
    }

    #[test]
    fn ent_14_reads_the_instance_event() {
        let mut cl = c(FIPS, &[INST]);
        assert!(
            !rules(&cl, &Profile::default())
                .iter()
                .any(|(id, _)| id == "ENT-14")
        );
        cl.instance_events = serde_json::from_str(
            r#"[{"lastTimestamp":"2026-11-29T10:00:00Z","type":"Normal","message":"Outdated version: v2.7.5 is available, running v2.7.3","involvedObject":"FluxInstance/flux","namespace":"flux-system"}]"#,
        )
        .unwrap();
        assert!(rules(&cl, &Profile::default()).contains(&("ENT-14".into(), Severity::Info)));
    }

    #[test]
    fn ent_04_is_low_under_the_upstream_profile() {
        let tags = c(
            r#"{"spec":{"distribution":{"version":"v2.7.3"},"components":[{"name":"source-controller","image":"ghcr.io/fluxcd/source-controller:v1.7.3"}]}}"#,
            &[],
        );
        assert!(rules(&tags, &Profile::default()).contains(&("ENT-04".into(), Severity::Low)));
        let strict = Profile {
            require_enterprise: true,
            ..Profile::default()
        };
        assert!(rules(&tags, &strict).contains(&("ENT-04".into(), Severity::High)));
    }

    #[test]
    fn kubernetes_window_differs_for_upstream() {
        let k = |variant_img: &str, server: &str| {
            c(
                &format!(
                    r#"{{"spec":{{"distribution":{{"version":"v2.9.4"}},"cluster":{{"serverVersion":"{server}"}},"components":[{{"name":"source-controller","image":"{variant_img}/source-controller:v1.9.4@sha256:aa"}}]}}}}"#
                ),
                &[],
            )
        };
        let ent = "ghcr.io/controlplaneio-fluxcd/distroless";
        assert!(
            !rules(&k(ent, "v1.31.0"), &Profile::default())
                .iter()
                .any(|(r, _)| r == "ENT-09")
        );
        assert!(
            rules(&k("ghcr.io/fluxcd", "v1.31.0"), &Profile::default())
                .iter()
                .any(|(r, _)| r == "ENT-09"),
            "upstream: 3 newest only"
        );
        assert!(
            rules(&k(ent, "v1.28.0"), &Profile::default())
                .iter()
                .any(|(r, _)| r == "ENT-09")
        );
    }
}
