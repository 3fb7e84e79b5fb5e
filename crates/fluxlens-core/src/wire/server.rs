//! What the Flux Operator's web server does, by its version (the report's
//! `spec.operator.version`): the loader plans its reads for the server it talks to.

use crate::util::version::Version;
use crate::wire::FluxReport;

/// Since v0.53 a list without `kind` holds every kind in the server's search index (and, while
/// the index is still empty at start, every operator and Flux kind but FluxReport):
/// flux-operator commit 7552694, `internal/web/resources.go` `GetLiveResources` asking
/// `searchIndex.Kinds()`, else `defaultFluxKinds()`. Before, appliers and sources only.
pub const DEFAULT_LIST_EVERY_KIND_SINCE: (u32, u32, u32) = (0, 53, 0);

/// `(major, minor, patch)` of the operator, when the report says it in a form that parses.
pub fn operator_version(report: &FluxReport) -> Option<(u32, u32, u32)> {
    Version::triple_of(report.spec.operator.as_ref()?.version.as_deref()?)
}

/// Whether the default list holds every kind the server knows. A version that does not parse
/// (or none) is taken as today's server: a kind it then leaves out comes back short against
/// the report's count and is listed by kind, so nothing is lost either way.
pub fn default_list_has_every_kind(report: &FluxReport) -> bool {
    lists_every_kind_at(
        report
            .spec
            .operator
            .as_ref()
            .and_then(|o| o.version.as_deref()),
    )
}

/// [`default_list_has_every_kind`] for an operator version as written.
pub fn lists_every_kind_at(version: Option<&str>) -> bool {
    version
        .and_then(Version::triple_of)
        .is_none_or(|v| v >= DEFAULT_LIST_EVERY_KIND_SINCE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(version: &str) -> FluxReport {
        serde_json::from_str(&format!(
            r#"{{"spec":{{"operator":{{"version":"{version}"}}}}}}"#
        ))
        .unwrap()
    }

    #[test]
    fn the_default_list_holds_every_kind_since_v0_53() {
        assert!(!default_list_has_every_kind(&report("v0.33.0")));
        assert!(!default_list_has_every_kind(&report("v0.52.9")));
        assert!(default_list_has_every_kind(&report("v0.53.0")));
        assert!(default_list_has_every_kind(&report("v0.58.1")));
        assert!(default_list_has_every_kind(&report("1.0.0-rc.1")));
        assert!(
            default_list_has_every_kind(&report("dev")),
            "unknown: today's"
        );
        assert!(default_list_has_every_kind(&FluxReport::default()));
        assert_eq!(operator_version(&report("v0.58.1")), Some((0, 58, 1)));
    }
}
