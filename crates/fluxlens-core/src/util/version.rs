//! Versions as Flux, the operator and their images write them.

/// `(major, minor, patch)` of `v2.8.3` (a leading `v`, and anything after the patch — a
/// pre-release, build metadata or an image digest — ignored), when it parses.
pub fn triple(s: &str) -> Option<(u32, u32, u32)> {
    let mut it = s.trim().trim_start_matches('v').split(['.', '-', '+', '@']);
    Some((
        it.next()?.parse().ok()?,
        it.next()?.parse().ok()?,
        it.next()?.parse().ok()?,
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn versions_parse_with_or_without_their_tail() {
        assert_eq!(super::triple("v0.58.1"), Some((0, 58, 1)));
        assert_eq!(super::triple("1.0.0-rc.1"), Some((1, 0, 0)));
        assert_eq!(super::triple("v1.9.4@sha256:aa"), Some((1, 9, 4)));
        assert_eq!(super::triple("2.9.x"), None);
        assert_eq!(super::triple("dev"), None);
    }
}
