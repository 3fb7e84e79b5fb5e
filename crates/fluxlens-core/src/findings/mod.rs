//! The findings engine: rules from the catalog (`shared/domain-rules.md`) evaluated over the
//! cluster model. Rule ids and severities are part of the product and stay stable.

pub mod rules;

use crate::model::{Cluster, ObjectKey};
use serde::{Deserialize, Serialize};

/// The catalog's severity scale, ordered from least to most severe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Severity {
    Info,
    Low,
    Medium,
    High,
    Critical,
}

impl Severity {
    /// Lower-case name, as used in `data-severity` and URLs.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
            Severity::Critical => "critical",
        }
    }

    /// Parses the lower-case name.
    pub fn parse(s: &str) -> Option<Severity> {
        [
            Severity::Info,
            Severity::Low,
            Severity::Medium,
            Severity::High,
            Severity::Critical,
        ]
        .into_iter()
        .find(|v| v.as_str() == s)
    }

    /// One level up (capped at critical).
    pub fn raised(self) -> Severity {
        match self {
            Severity::Info => Severity::Low,
            Severity::Low => Severity::Medium,
            Severity::Medium => Severity::High,
            _ => Severity::Critical,
        }
    }
}

/// One thing a rule found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// Catalog id, e.g. `MIG-GO-02`.
    pub rule: String,
    pub severity: Severity,
    /// The object the finding is about.
    pub subject: ObjectKey,
    pub message: String,
    /// Facts that support the finding, each quoting what was read.
    pub evidence: Vec<String>,
    /// What to do about it.
    pub remediation: String,
}

/// A rule of the catalog.
pub trait Rule: Sync {
    /// Catalog id (`SIG-01`, `MIG-GO-02`, `ENT-05`, …).
    fn id(&self) -> &'static str;
    /// Catalog title.
    fn title(&self) -> &'static str;
    /// Appends this rule's findings for `cluster` to `out`.
    fn evaluate(&self, cluster: &Cluster, out: &mut Vec<Finding>);
}

/// Every registered rule, in catalog order.
pub fn registry() -> &'static [&'static dyn Rule] {
    rules::ALL
}

/// Runs every rule; findings sorted by severity (worst first), then rule id, then subject.
pub fn evaluate_all(cluster: &Cluster) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in registry() {
        r.evaluate(cluster, &mut out);
    }
    crate::sort::by(&mut out, |a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.rule.cmp(&b.rule))
            .then_with(|| a.subject.cmp(&b.subject))
    });
    out
}

/// Findings about one object.
pub fn for_subject<'a>(
    findings: &'a [Finding],
    key: &'a ObjectKey,
) -> impl Iterator<Item = &'a Finding> + 'a {
    findings.iter().filter(move |f| &f.subject == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_ids_are_unique_and_catalog_shaped() {
        let mut ids: Vec<_> = registry().iter().map(|r| r.id()).collect();
        assert!(!ids.is_empty());
        for id in &ids {
            assert!(
                id.starts_with("SIG-") || id.starts_with("MIG-") || id.starts_with("ENT-"),
                "{id}"
            );
        }
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), registry().len());
    }

    #[test]
    fn severity_order_and_names() {
        assert!(Severity::Critical > Severity::High && Severity::Low > Severity::Info);
        assert_eq!(Severity::parse("medium"), Some(Severity::Medium));
        assert_eq!(Severity::High.raised(), Severity::Critical);
    }
}
