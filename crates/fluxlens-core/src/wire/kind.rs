//! The object kinds the Flux Operator API knows (§4 of the API reference).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A Flux (or Kubernetes) object kind; unknown kinds are kept verbatim.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    FluxInstance,
    FluxReport,
    ResourceSet,
    ResourceSetInputProvider,
    Kustomization,
    HelmRelease,
    GitRepository,
    OciRepository,
    Bucket,
    HelmRepository,
    HelmChart,
    ExternalArtifact,
    ArtifactGenerator,
    Alert,
    Provider,
    Receiver,
    ImageRepository,
    ImagePolicy,
    ImageUpdateAutomation,
    /// Any other kind (Deployment, CustomResourceDefinition, …), spelled as the API spells it.
    Other(String),
}

/// What role a kind plays in the delivery graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Produces artifacts (GitRepository, OCIRepository, …, ArtifactGenerator).
    Source,
    /// Applies artifacts to the cluster (Kustomization, HelmRelease, ResourceSet, FluxInstance).
    Applier,
    /// Alert, Provider, Receiver.
    Notification,
    /// Image automation kinds.
    Image,
    /// Everything else.
    Other,
}

/// The Flux kinds fluxlens loads, in load order (sources first).
pub const FLUX_KINDS: [Kind; 18] = [
    Kind::FluxInstance,
    Kind::ResourceSet,
    Kind::ResourceSetInputProvider,
    Kind::GitRepository,
    Kind::OciRepository,
    Kind::Bucket,
    Kind::HelmRepository,
    Kind::HelmChart,
    Kind::ExternalArtifact,
    Kind::ArtifactGenerator,
    Kind::Kustomization,
    Kind::HelmRelease,
    Kind::Alert,
    Kind::Provider,
    Kind::Receiver,
    Kind::ImageRepository,
    Kind::ImagePolicy,
    Kind::ImageUpdateAutomation,
];

impl Kind {
    /// Parses the exact, case-sensitive kind name the API uses.
    pub fn parse(s: &str) -> Kind {
        match s {
            "FluxInstance" => Kind::FluxInstance,
            "FluxReport" => Kind::FluxReport,
            "ResourceSet" => Kind::ResourceSet,
            "ResourceSetInputProvider" => Kind::ResourceSetInputProvider,
            "Kustomization" => Kind::Kustomization,
            "HelmRelease" => Kind::HelmRelease,
            "GitRepository" => Kind::GitRepository,
            "OCIRepository" => Kind::OciRepository,
            "Bucket" => Kind::Bucket,
            "HelmRepository" => Kind::HelmRepository,
            "HelmChart" => Kind::HelmChart,
            "ExternalArtifact" => Kind::ExternalArtifact,
            "ArtifactGenerator" => Kind::ArtifactGenerator,
            "Alert" => Kind::Alert,
            "Provider" => Kind::Provider,
            "Receiver" => Kind::Receiver,
            "ImageRepository" => Kind::ImageRepository,
            "ImagePolicy" => Kind::ImagePolicy,
            "ImageUpdateAutomation" => Kind::ImageUpdateAutomation,
            other => Kind::Other(other.to_string()),
        }
    }

    /// The kind name as the API spells it.
    pub fn as_str(&self) -> &str {
        match self {
            Kind::FluxInstance => "FluxInstance",
            Kind::FluxReport => "FluxReport",
            Kind::ResourceSet => "ResourceSet",
            Kind::ResourceSetInputProvider => "ResourceSetInputProvider",
            Kind::Kustomization => "Kustomization",
            Kind::HelmRelease => "HelmRelease",
            Kind::GitRepository => "GitRepository",
            Kind::OciRepository => "OCIRepository",
            Kind::Bucket => "Bucket",
            Kind::HelmRepository => "HelmRepository",
            Kind::HelmChart => "HelmChart",
            Kind::ExternalArtifact => "ExternalArtifact",
            Kind::ArtifactGenerator => "ArtifactGenerator",
            Kind::Alert => "Alert",
            Kind::Provider => "Provider",
            Kind::Receiver => "Receiver",
            Kind::ImageRepository => "ImageRepository",
            Kind::ImagePolicy => "ImagePolicy",
            Kind::ImageUpdateAutomation => "ImageUpdateAutomation",
            Kind::Other(s) => s,
        }
    }

    /// The API group/version current Flux (2.7–2.9) serves this kind at.
    pub fn default_api_version(&self) -> &'static str {
        match self {
            Kind::FluxInstance
            | Kind::FluxReport
            | Kind::ResourceSet
            | Kind::ResourceSetInputProvider => "fluxcd.controlplane.io/v1",
            Kind::Kustomization => "kustomize.toolkit.fluxcd.io/v1",
            Kind::HelmRelease => "helm.toolkit.fluxcd.io/v2",
            Kind::GitRepository
            | Kind::OciRepository
            | Kind::Bucket
            | Kind::HelmRepository
            | Kind::HelmChart
            | Kind::ExternalArtifact => "source.toolkit.fluxcd.io/v1",
            Kind::ArtifactGenerator => "source.extensions.fluxcd.io/v1beta1",
            Kind::Alert | Kind::Provider => "notification.toolkit.fluxcd.io/v1beta3",
            Kind::Receiver => "notification.toolkit.fluxcd.io/v1",
            Kind::ImageRepository | Kind::ImagePolicy | Kind::ImageUpdateAutomation => {
                "image.toolkit.fluxcd.io/v1"
            }
            Kind::Other(_) => "v1",
        }
    }

    /// The kind's role in the delivery graph.
    pub fn role(&self) -> Role {
        match self {
            Kind::GitRepository
            | Kind::OciRepository
            | Kind::Bucket
            | Kind::HelmRepository
            | Kind::HelmChart
            | Kind::ExternalArtifact
            | Kind::ArtifactGenerator => Role::Source,
            Kind::Kustomization | Kind::HelmRelease | Kind::ResourceSet | Kind::FluxInstance => {
                Role::Applier
            }
            Kind::Alert | Kind::Provider | Kind::Receiver => Role::Notification,
            Kind::ImageRepository | Kind::ImagePolicy | Kind::ImageUpdateAutomation => Role::Image,
            _ => Role::Other,
        }
    }

    /// The CRD name (`<plural>.<group>`) that defines this Flux kind, if it is one.
    pub fn crd_name(&self) -> Option<String> {
        let plural = match self {
            Kind::Other(_) => return None,
            Kind::OciRepository => "ocirepositories".to_string(),
            Kind::ImagePolicy => "imagepolicies".to_string(),
            Kind::GitRepository | Kind::HelmRepository | Kind::ImageRepository => {
                format!(
                    "{}ies",
                    self.as_str().to_ascii_lowercase().trim_end_matches('y')
                )
            }
            // Kinds are ASCII: no Unicode case tables in the main module (#51).
            k => format!("{}s", k.as_str().to_ascii_lowercase()),
        };
        let group = self.default_api_version().split('/').next()?;
        Some(format!("{plural}.{group}"))
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Kind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Kind::parse(&String::deserialize(d)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_kinds_survive() {
        for k in FLUX_KINDS.iter().chain([Kind::FluxReport].iter()) {
            assert_eq!(&Kind::parse(k.as_str()), k);
        }
        assert_eq!(Kind::parse("Deployment"), Kind::Other("Deployment".into()));
        // Kind names are case-sensitive in the API.
        assert_eq!(
            Kind::parse("ocirepository"),
            Kind::Other("ocirepository".into())
        );
    }

    #[test]
    fn crd_names() {
        assert_eq!(
            Kind::OciRepository.crd_name().unwrap(),
            "ocirepositories.source.toolkit.fluxcd.io"
        );
        assert_eq!(
            Kind::GitRepository.crd_name().unwrap(),
            "gitrepositories.source.toolkit.fluxcd.io"
        );
        assert_eq!(
            Kind::ImagePolicy.crd_name().unwrap(),
            "imagepolicies.image.toolkit.fluxcd.io"
        );
        assert_eq!(
            Kind::HelmRelease.crd_name().unwrap(),
            "helmreleases.helm.toolkit.fluxcd.io"
        );
        assert_eq!(
            Kind::ArtifactGenerator.crd_name().unwrap(),
            "artifactgenerators.source.extensions.fluxcd.io"
        );
        assert_eq!(Kind::Other("Deployment".into()).crd_name(), None);
    }
}
