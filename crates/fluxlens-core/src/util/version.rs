//! Versions as Flux, the operator, Kubernetes and their images write them: one parser, so
//! `v2.8` means the same release to every rule and view (#48: the fleet read it as 2.8.0 and
//! ENT-08 as nothing).

/// A release: `v2.8.3`, `2.8`, `2.8.x`; a pre-release, build metadata or an image digest after
/// it (`-rc.1`, `+k3s1`, `@sha256:…`) is ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
    /// `None` when not written (`2.8`) or a wildcard (`2.8.x`).
    pub patch: Option<u32>,
}

impl Version {
    /// Parses a version; `None` for anything else (`latest`, `>=2.6`, `2.8.3.1`).
    pub fn parse(s: &str) -> Option<Version> {
        let core = s
            .trim()
            .trim_start_matches('v')
            .split(['-', '+', '@'])
            .next()?;
        let mut parts = core.split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        let patch = match parts.next() {
            None | Some("x" | "X" | "*") => None,
            Some(p) => Some(p.parse().ok()?),
        };
        parts.next().is_none().then_some(Version {
            major,
            minor,
            patch,
        })
    }

    /// `(major, minor)`.
    pub fn minor(&self) -> (u32, u32) {
        (self.major, self.minor)
    }

    /// `(major, minor, patch)`, an unwritten patch as 0 (`2.8` sorts as `2.8.0`).
    pub fn triple(&self) -> (u32, u32, u32) {
        (self.major, self.minor, self.patch.unwrap_or(0))
    }

    /// `(major, minor, patch)` of `s` (see [`Version::triple`]).
    pub fn triple_of(s: &str) -> Option<(u32, u32, u32)> {
        Version::parse(s).map(|v| v.triple())
    }

    /// `(major, minor)` of `s`.
    pub fn minor_of(s: &str) -> Option<(u32, u32)> {
        Version::parse(s).map(|v| v.minor())
    }
}

#[cfg(test)]
mod tests {
    use super::Version;

    #[test]
    fn one_parser_reads_every_way_a_version_is_written() {
        let v = |s| Version::parse(s);
        assert_eq!(Version::triple_of("v0.58.1"), Some((0, 58, 1)));
        assert_eq!(Version::triple_of("1.0.0-rc.1"), Some((1, 0, 0)));
        assert_eq!(Version::triple_of("v1.9.4@sha256:aa"), Some((1, 9, 4)));
        assert_eq!(Version::triple_of("v1.31.2+k3s1"), Some((1, 31, 2)));
        // `v2.8` is 2.8 to everyone: no patch written, sorted as 2.8.0.
        assert_eq!(v("v2.8").map(|v| v.patch), Some(None));
        assert_eq!(Version::triple_of("v2.8"), Some((2, 8, 0)));
        assert_eq!(Version::minor_of("2.9.x"), Some((2, 9)));
        assert_eq!(v("2.9.x").and_then(|v| v.patch), None);
        assert!(Version::triple_of("v2.10.1") > Version::triple_of("v2.9.9"));
        for not in ["dev", "latest", ">=2.6", "2", "2.8.3.1", "2.8.y", ""] {
            assert_eq!(v(not), None, "{not}");
        }
    }
}
