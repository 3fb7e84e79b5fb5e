//! Flux versions as the report gives them (`v2.7.3`), compared by number.

/// `(major, minor, patch)` of `v2.7.3` / `2.7.3` / `2.7` (as 2.7.0): the one parser,
/// `util::version::Version`.
pub fn parse(s: &str) -> Option<(u32, u32, u32)> {
    crate::util::version::Version::triple_of(s)
}

/// The latest patch of `version`'s minor the bundled catalog knows, as `v2.7.5`.
pub fn latest_patch(version: &str) -> Option<String> {
    let (major, minor, _) = parse(version)?;
    crate::analyses::enterprise::catalog::minor_info(major, minor)
        .map(|m| format!("v{}", m.latest_patch))
}

/// Whether `version` is the same release as `target` (`v2.7.3` = `2.7.3`).
pub fn same(version: &str, target: &str) -> bool {
    matches!((parse(version), parse(target)), (Some(a), Some(b)) if a == b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_by_number() {
        assert_eq!(parse("v2.10.1"), Some((2, 10, 1)));
        assert!(parse("v2.10.1") > parse("v2.9.9"));
        assert_eq!(parse("2.7"), Some((2, 7, 0)));
        assert_eq!(parse("v2.7.3-rc.1"), Some((2, 7, 3)));
        assert_eq!(parse("latest"), None);
        assert!(same("v2.7.3", "2.7.3") && !same("v2.7.3", "v2.7.4"));
        assert_eq!(latest_patch("v2.8.1").as_deref(), Some("v2.8.8"));
        assert_eq!(latest_patch("v1.0.0"), None);
    }
}
