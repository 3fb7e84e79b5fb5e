//! Flux Enterprise facts: the distribution variant of each component image (upstream,
//! enterprise, distroless, FIPS) from its registry and name, the catalog of published digests,
//! and the profile a reviewer requires. The ENT rules and the compliance report read them.

pub mod catalog;

use crate::model::Cluster;

/// The four distribution variants, plus what the image names cannot tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    UpstreamAlpine,
    EnterpriseAlpine,
    EnterpriseDistroless,
    EnterpriseDistrolessFips,
    Unknown,
}

impl Variant {
    /// The `spec.distribution.variant` spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Variant::UpstreamAlpine => "upstream-alpine",
            Variant::EnterpriseAlpine => "enterprise-alpine",
            Variant::EnterpriseDistroless => "enterprise-distroless",
            Variant::EnterpriseDistrolessFips => "enterprise-distroless-fips",
            Variant::Unknown => "unknown",
        }
    }

    /// Parses the `spec.distribution.variant` spelling.
    pub fn parse(s: &str) -> Variant {
        match s {
            "upstream-alpine" => Variant::UpstreamAlpine,
            "enterprise-alpine" => Variant::EnterpriseAlpine,
            "enterprise-distroless" => Variant::EnterpriseDistroless,
            "enterprise-distroless-fips" => Variant::EnterpriseDistrolessFips,
            _ => Variant::Unknown,
        }
    }

    /// Whether this is a Flux Enterprise build.
    pub fn is_enterprise(self) -> bool {
        matches!(
            self,
            Variant::EnterpriseAlpine
                | Variant::EnterpriseDistroless
                | Variant::EnterpriseDistrolessFips
        )
    }
}

/// The AWS Marketplace ECR registry of Flux Enterprise.
pub const AWS_MARKETPLACE_REGISTRY: &str =
    "709825985650.dkr.ecr.us-east-1.amazonaws.com/controlplane/fluxcd";

/// How a component's variant was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VariantBasis {
    /// A known registry path.
    Registry,
    /// A mirror: taken from `FluxInstance.spec.distribution.variant`.
    InstanceVariant,
    Unknown,
}

/// Classifies a registry prefix (image without `/<component>:tag@digest`).
pub fn classify_registry(registry: &str) -> Option<Variant> {
    let r = registry
        .trim_start_matches("docker.io/")
        .trim_start_matches("index.docker.io/");
    Some(match r {
        "ghcr.io/fluxcd" | "fluxcd" => Variant::UpstreamAlpine,
        "ghcr.io/controlplaneio-fluxcd/alpine" => Variant::EnterpriseAlpine,
        "ghcr.io/controlplaneio-fluxcd/distroless" | AWS_MARKETPLACE_REGISTRY => {
            Variant::EnterpriseDistroless
        }
        "ghcr.io/controlplaneio-fluxcd/distroless-fips" => Variant::EnterpriseDistrolessFips,
        _ => return None,
    })
}

/// One controller image, taken apart.
#[derive(Debug, Clone, PartialEq)]
pub struct ComponentImage {
    pub name: String,
    pub image: String,
    pub registry: String,
    pub tag: String,
    pub digest: Option<String>,
    pub variant: Variant,
    pub basis: VariantBasis,
    pub ready: Option<bool>,
    /// The digest the FluxInstance selected for this component, if it says.
    pub instance_digest: Option<String>,
    /// Catalog digest for (version, variant, component), if the catalog has it.
    pub catalog_digest: Option<String>,
    /// The variant whose catalog lists this exact digest, whatever the registry path
    /// (revision 3: the AWS Marketplace registry serves FIPS builds too).
    pub catalog_variant: Option<Variant>,
}

impl ComponentImage {
    /// Whether this is a FIPS build: from the distroless-fips path, or a digest the bundled
    /// catalog lists as enterprise-distroless-fips.
    pub fn is_fips(&self) -> bool {
        self.variant == Variant::EnterpriseDistrolessFips
            || self.catalog_variant == Some(Variant::EnterpriseDistrolessFips)
    }
}

impl ComponentImage {
    /// `matches instance`, `matches catalog`, `differs from instance`, `differs from catalog`, `unknown`.
    pub fn provenance(&self) -> &'static str {
        match (&self.digest, &self.instance_digest, &self.catalog_digest) {
            (None, _, _) => "not pinned",
            (Some(d), Some(i), _) if d == i => "matches FluxInstance",
            (Some(_), Some(_), _) => "differs from FluxInstance",
            (Some(d), None, Some(c)) if d == c => "matches catalog",
            (Some(_), None, Some(_)) => "differs from catalog",
            _ => "unknown (not in catalog)",
        }
    }
}

/// Splits `registry/component:tag@sha256:…`.
pub fn split_image(image: &str) -> (String, String, String, Option<String>) {
    let (no_digest, digest) = match image.split_once('@') {
        Some((a, d)) => (a, Some(d.to_string())),
        None => (image, None),
    };
    let slash = no_digest.rfind('/');
    let (registry, name_tag) = match slash {
        Some(i) => (&no_digest[..i], &no_digest[i + 1..]),
        None => ("", no_digest),
    };
    let (component, tag) = name_tag.split_once(':').unwrap_or((name_tag, ""));
    (
        registry.to_string(),
        component.to_string(),
        tag.to_string(),
        digest,
    )
}

/// The variant the FluxInstance asks for (`spec.distribution.variant`), if it names one.
pub fn instance_variant(c: &Cluster) -> Option<Variant> {
    c.instance_distribution()
        .and_then(|d| d.variant.as_deref())
        .map(Variant::parse)
}

/// Every component of the report, classified.
pub fn components(c: &Cluster) -> Vec<ComponentImage> {
    let inst = c.instance();
    let inst_variant = instance_variant(c);
    let version = c
        .report
        .spec
        .distribution
        .version
        .clone()
        .unwrap_or_default();
    c.report
        .spec
        .components
        .iter()
        .map(|comp| {
            let image = comp.image.clone().unwrap_or_default();
            let (registry, component, tag, digest) = split_image(&image);
            let (variant, basis) = match (classify_registry(&registry), inst_variant) {
                (Some(v), _) => (v, VariantBasis::Registry),
                (None, Some(v)) if v != Variant::Unknown => (v, VariantBasis::InstanceVariant),
                _ => (Variant::Unknown, VariantBasis::Unknown),
            };
            let instance_digest = inst
                .and_then(|i| {
                    i.raw
                        .status
                        .components
                        .iter()
                        .find(|s| s.name.as_deref() == Some(comp.name.as_str()))
                })
                .and_then(|s| s.digest.clone())
                .filter(|d| !d.is_empty());
            let catalog_digest = catalog::digests()
                .entries
                .iter()
                .find(|e| {
                    e.version.trim_start_matches('v') == version.trim_start_matches('v')
                        && e.variant == variant.as_str()
                        && e.component == component
                        && e.tag == tag
                })
                .map(|e| e.digest.clone());
            let catalog_variant = digest.as_deref().and_then(|d| {
                catalog::digests()
                    .entries
                    .iter()
                    .find(|e| e.digest == d && e.component == component)
                    .map(|e| Variant::parse(&e.variant))
            });
            ComponentImage {
                name: comp.name.clone(),
                image,
                registry,
                tag,
                digest,
                variant,
                basis,
                ready: comp.ready,
                instance_digest,
                catalog_digest,
                catalog_variant,
            }
        })
        .collect()
}

/// The cluster's variant: unanimous over components, else `None` (mixed or none).
pub fn cluster_variant(components: &[ComponentImage]) -> Option<Variant> {
    let first = components.first()?.variant;
    components
        .iter()
        .all(|c| c.variant == first)
        .then_some(first)
}

/// What the reviewer requires; chosen in the UI, defaulting from the FluxInstance variant.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Profile {
    pub require_enterprise: bool,
    pub require_fips: bool,
    /// E.g. `v0.33.0`.
    pub min_operator_version: Option<String>,
}

impl Profile {
    /// The default profile: what the FluxInstance asks for.
    pub fn default_for(c: &Cluster) -> Profile {
        let v = instance_variant(c).unwrap_or(Variant::Unknown);
        Profile {
            require_enterprise: v.is_enterprise(),
            require_fips: v == Variant::EnterpriseDistrolessFips,
            min_operator_version: None,
        }
    }

    /// Reads `profile=upstream|enterprise|fips` and `minop=` from a URL query; absent → what
    /// the FluxInstance implies ([`ComplianceQuery`]).
    pub fn from_query(q: &str, c: &Cluster) -> Profile {
        ComplianceQuery::from_query(q).profile(c)
    }

    /// Which of the named profiles this is (its requirements; the minimum operator version
    /// aside).
    pub fn name(&self) -> ProfileName {
        match (self.require_enterprise, self.require_fips) {
            (_, true) => ProfileName::Fips,
            (true, false) => ProfileName::Enterprise,
            _ => ProfileName::Upstream,
        }
    }
}

/// The compliance profiles a user picks (`profile=` in the URL), in the picker's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfileName {
    Upstream,
    Enterprise,
    Fips,
}

impl ProfileName {
    pub const ALL: [ProfileName; 3] = [
        ProfileName::Upstream,
        ProfileName::Enterprise,
        ProfileName::Fips,
    ];

    /// The `profile=` value.
    pub fn as_str(self) -> &'static str {
        match self {
            ProfileName::Upstream => "upstream",
            ProfileName::Enterprise => "enterprise",
            ProfileName::Fips => "fips",
        }
    }

    /// Reads a `profile=` value.
    pub fn parse(s: &str) -> Option<ProfileName> {
        ProfileName::ALL.into_iter().find(|p| p.as_str() == s)
    }

    /// What the compliance view's picker says.
    pub fn label(self) -> &'static str {
        match self {
            ProfileName::Upstream => "upstream (no requirement)",
            ProfileName::Enterprise => "require Flux Enterprise",
            ProfileName::Fips => "require FIPS",
        }
    }

    /// Its requirements.
    pub fn profile(self) -> Profile {
        Profile {
            require_enterprise: self != ProfileName::Upstream,
            require_fips: self == ProfileName::Fips,
            min_operator_version: None,
        }
    }
}

/// The compliance view's URL state: `profile=` (absent: what the FluxInstance implies) and
/// `minop=`, the minimum operator version.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ComplianceQuery {
    pub profile: Option<ProfileName>,
    pub min_operator: Option<String>,
}

impl ComplianceQuery {
    /// Reads a URL query (`?` optional); a value that does not parse is absent.
    pub fn from_query(q: &str) -> ComplianceQuery {
        let mut out = ComplianceQuery::default();
        for (k, v) in crate::util::query::parse_query(q) {
            match k.as_str() {
                "profile" => out.profile = ProfileName::parse(&v),
                "minop" => out.set_min_operator(v),
                _ => {}
            }
        }
        out
    }

    /// Sets the minimum operator version; empty or longer than a version clears it.
    pub fn set_min_operator(&mut self, v: String) {
        self.min_operator = Some(v).filter(|v| !v.is_empty() && v.len() < 32);
    }

    /// The URL query, without `?`.
    pub fn to_query(&self) -> String {
        let pairs = [
            (
                "profile",
                self.profile.map(ProfileName::as_str).unwrap_or(""),
            ),
            ("minop", self.min_operator.as_deref().unwrap_or("")),
        ];
        pairs
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| format!("{k}={}", crate::util::query::encode(v)))
            .collect::<Vec<_>>()
            .join("&")
    }

    /// The profile the controls are judged under on cluster `c`.
    pub fn profile(&self, c: &Cluster) -> Profile {
        let mut p = self
            .profile
            .map_or_else(|| Profile::default_for(c), ProfileName::profile);
        p.min_operator_version = self.min_operator.clone();
        p
    }
}

impl std::fmt::Display for ProfileName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
