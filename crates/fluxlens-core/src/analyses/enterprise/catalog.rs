//! The bundled version and digest catalogs (`crates/fluxlens-core/data/*.json`, each with
//! its source and date).

use serde::Deserialize;
use std::sync::OnceLock;

/// One Flux minor.
#[derive(Debug, Clone, Deserialize)]
pub struct MinorInfo {
    pub minor: String,
    pub latest_patch: String,
    pub kubernetes: Option<(String, String)>,
    pub openshift: Option<(String, String)>,
}

/// `flux-versions.json`.
#[derive(Debug, Clone, Deserialize)]
pub struct VersionCatalog {
    pub source: String,
    pub date: String,
    pub latest_minor: String,
    pub minors: Vec<MinorInfo>,
}

/// One digest entry of `flux-digests.json`.
#[derive(Debug, Clone, Deserialize)]
pub struct DigestEntry {
    pub version: String,
    pub variant: String,
    pub component: String,
    pub tag: String,
    pub digest: String,
    /// The catalog file it came from and that file's commit.
    #[serde(default)]
    pub source_path: String,
    #[serde(default)]
    pub source_commit: String,
}

/// `flux-digests.json`.
#[derive(Debug, Clone, Deserialize)]
pub struct DigestCatalog {
    pub source: String,
    pub date: String,
    pub entries: Vec<DigestEntry>,
}

/// The version catalog.
pub fn versions() -> &'static VersionCatalog {
    static V: OnceLock<VersionCatalog> = OnceLock::new();
    V.get_or_init(|| {
        serde_json::from_str(include_str!("../../../data/flux-versions.json"))
            .expect("bundled flux-versions.json is valid")
    })
}

/// The digest catalog.
pub fn digests() -> &'static DigestCatalog {
    static D: OnceLock<DigestCatalog> = OnceLock::new();
    D.get_or_init(|| {
        serde_json::from_str(include_str!("../../../data/flux-digests.json"))
            .expect("bundled flux-digests.json is valid")
    })
}

/// Catalog info for a minor.
pub fn minor_info(major: u32, minor: u32) -> Option<&'static MinorInfo> {
    versions()
        .minors
        .iter()
        .find(|m| crate::util::version::Version::minor_of(&m.minor) == Some((major, minor)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogs_load_and_carry_their_source() {
        assert_eq!(versions().latest_minor, "2.9");
        assert!(!versions().source.is_empty() && !versions().date.is_empty());
        assert_eq!(minor_info(2, 8).unwrap().latest_patch, "2.8.8");
        assert_eq!(
            minor_info(2, 9).unwrap().kubernetes.as_ref().unwrap().1,
            "1.36"
        );
        assert!(!digests().source.is_empty());
        // Every variant of the three newest minors, each entry with its source file and commit.
        for version in ["2.7.5", "2.8.8", "2.9.4"] {
            for variant in [
                "upstream-alpine",
                "enterprise-alpine",
                "enterprise-distroless",
                "enterprise-distroless-fips",
            ] {
                let n = digests()
                    .entries
                    .iter()
                    .filter(|e| e.version == version && e.variant == variant)
                    .count();
                assert_eq!(n, 7, "{version} {variant}");
            }
        }
        assert!(digests().entries.iter().all(|e| {
            e.digest.len() == 71 && e.source_commit.len() == 40 && e.source_path.ends_with(".yaml")
        }));
    }
}
