//! The bundled version and digest catalogs (`crates/fluxlens-core/data/*.json`, each with
//! its source and date).

use std::sync::OnceLock;

crate::json_struct!(
    /// One Flux minor.
    pub struct MinorInfo {
        pub minor: String = "minor",
        pub latest_patch: String = "latest_patch",
        pub kubernetes: Option<(String, String)> = "kubernetes",
        pub openshift: Option<(String, String)> = "openshift",
    }
);

crate::json_struct!(
    /// `flux-versions.json`.
    pub struct VersionCatalog {
        pub source: String = "source",
        pub date: String = "date",
        pub latest_minor: String = "latest_minor",
        pub minors: Vec<MinorInfo> = "minors",
    }
);

crate::json_struct!(
    /// One digest entry of `flux-digests.json`.
    pub struct DigestEntry {
        pub version: String = "version",
        pub variant: String = "variant",
        pub component: String = "component",
        pub tag: String = "tag",
        pub digest: String = "digest",
        /// The catalog file it came from and that file's commit.
        pub source_path: String = "source_path",
        pub source_commit: String = "source_commit",
    }
);

crate::json_struct!(
    /// `flux-digests.json`.
    pub struct DigestCatalog {
        pub source: String = "source",
        pub date: String = "date",
        pub entries: Vec<DigestEntry> = "entries",
    }
);

// The catalogs are `json_struct!` models: `serde_json::from_str` reads them with the one JSON
// walk every API model uses (no serde visitor of their own in the wasm, #51).

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
