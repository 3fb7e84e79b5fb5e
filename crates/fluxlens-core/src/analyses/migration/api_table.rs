//! API versions per Flux minor (§2.4 of the catalog: CRDs embedded in the operator for Flux
//! 2.6–2.9). `S` = storage; served-deprecated versions listed; absent = not served.

/// `(kind, [(minor, storage, served-but-deprecated…)])`.
type Row = (
    &'static str,
    &'static [(u32, &'static str, &'static [&'static str])],
);

const TABLE: &[Row] = &[
    (
        "GitRepository",
        &[
            (6, "v1", &["v1beta2", "v1beta1"]),
            (7, "v1", &["v1beta2"]),
            (8, "v1", &[]),
            (9, "v1", &[]),
        ],
    ),
    (
        "Bucket",
        &[
            (6, "v1", &["v1beta2", "v1beta1"]),
            (7, "v1", &["v1beta2"]),
            (8, "v1", &[]),
            (9, "v1", &[]),
        ],
    ),
    (
        "HelmChart",
        &[
            (6, "v1", &["v1beta2", "v1beta1"]),
            (7, "v1", &["v1beta2"]),
            (8, "v1", &[]),
            (9, "v1", &[]),
        ],
    ),
    (
        "HelmRepository",
        &[
            (6, "v1", &["v1beta2", "v1beta1"]),
            (7, "v1", &["v1beta2"]),
            (8, "v1", &[]),
            (9, "v1", &[]),
        ],
    ),
    (
        "OCIRepository",
        &[
            (6, "v1", &["v1beta2"]),
            (7, "v1", &["v1beta2"]),
            (8, "v1", &[]),
            (9, "v1", &[]),
        ],
    ),
    (
        "ExternalArtifact",
        &[
            (6, "v1", &[]),
            (7, "v1", &[]),
            (8, "v1", &[]),
            (9, "v1", &[]),
        ],
    ),
    (
        "Kustomization",
        &[
            (6, "v1", &["v1beta2", "v1beta1"]),
            (7, "v1", &["v1beta2"]),
            (8, "v1", &[]),
            (9, "v1", &[]),
        ],
    ),
    (
        "HelmRelease",
        &[
            (6, "v2", &["v2beta2", "v2beta1"]),
            (7, "v2", &["v2beta2"]),
            (8, "v2", &[]),
            (9, "v2", &[]),
        ],
    ),
    (
        "ImageRepository",
        &[
            (6, "v1beta2", &["v1beta1"]),
            (7, "v1", &["v1beta2"]),
            (8, "v1", &["v1beta2"]),
            (9, "v1", &[]),
        ],
    ),
    (
        "ImagePolicy",
        &[
            (6, "v1beta2", &["v1beta1"]),
            (7, "v1", &["v1beta2"]),
            (8, "v1", &["v1beta2"]),
            (9, "v1", &[]),
        ],
    ),
    (
        "ImageUpdateAutomation",
        &[
            (6, "v1beta2", &["v1beta1"]),
            (7, "v1", &["v1beta2"]),
            (8, "v1", &["v1beta2"]),
            (9, "v1", &[]),
        ],
    ),
    (
        "Receiver",
        &[
            (6, "v1", &["v1beta2", "v1beta1"]),
            (7, "v1", &["v1beta2"]),
            (8, "v1", &["v1beta2"]),
            (9, "v1", &[]),
        ],
    ),
    (
        "Alert",
        &[
            (6, "v1beta3", &["v1beta2", "v1beta1"]),
            (7, "v1beta3", &["v1beta2"]),
            (8, "v1beta3", &["v1beta2"]),
            (9, "v1beta3", &[]),
        ],
    ),
    (
        "Provider",
        &[
            (6, "v1beta3", &["v1beta2", "v1beta1"]),
            (7, "v1beta3", &["v1beta2"]),
            (8, "v1beta3", &["v1beta2"]),
            (9, "v1beta3", &[]),
        ],
    ),
    (
        "ArtifactGenerator",
        &[
            (7, "v1beta1", &[]),
            (8, "v1beta1", &[]),
            (9, "v1beta1", &[]),
        ],
    ),
];

/// Minors the table covers.
pub const MINORS: [u32; 4] = [6, 7, 8, 9];

/// The storage version of `kind` at Flux 2.`minor`.
pub fn storage_version(kind: &str, minor: u32) -> Option<&'static str> {
    TABLE
        .iter()
        .find(|(k, _)| *k == kind)?
        .1
        .iter()
        .find(|(m, _, _)| *m == minor)
        .map(|(_, s, _)| *s)
}

/// Whether `version` is served (storage or deprecated) for `kind` at 2.`minor`.
pub fn served(kind: &str, minor: u32, version: &str) -> Option<bool> {
    let (_, s, d) = TABLE
        .iter()
        .find(|(k, _)| *k == kind)?
        .1
        .iter()
        .find(|(m, _, _)| *m == minor)?;
    Some(*s == version || d.contains(&version))
}

/// Versions of `kind` served at 2.`from` but no longer at 2.`to`.
pub fn removed_between(kind: &str, from: u32, to: u32) -> Vec<&'static str> {
    let Some((_, rows)) = TABLE.iter().find(|(k, _)| *k == kind) else {
        return vec![];
    };
    let Some((_, s, d)) = rows.iter().find(|(m, _, _)| *m == from) else {
        return vec![];
    };
    std::iter::once(*s)
        .chain(d.iter().copied())
        .filter(|v| served(kind, to, v) == Some(false))
        .collect()
}

/// Kinds in the table.
pub fn kinds() -> impl Iterator<Item = &'static str> {
    TABLE.iter().map(|(k, _)| *k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_facts() {
        assert_eq!(storage_version("ImagePolicy", 6), Some("v1beta2"));
        assert_eq!(storage_version("ImagePolicy", 7), Some("v1"));
        assert_eq!(removed_between("HelmRelease", 6, 7), vec!["v2beta1"]);
        assert_eq!(removed_between("Kustomization", 7, 8), vec!["v1beta2"]);
        assert_eq!(removed_between("Alert", 8, 9), vec!["v1beta2"]);
        assert_eq!(removed_between("ImageRepository", 8, 9), vec!["v1beta2"]);
        assert_eq!(served("OCIRepository", 8, "v1beta2"), Some(false));
        assert_eq!(storage_version("ArtifactGenerator", 6), None);
        assert_eq!(storage_version("Alert", 9), Some("v1beta3"));
    }
}
