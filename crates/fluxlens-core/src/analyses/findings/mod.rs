//! The findings engine: rules from the rule catalog (ids stable, listed in the README) evaluated over the
//! cluster model. Rule ids and severities are part of the product and stay stable.

pub mod policy;
pub mod reference;
pub mod rules;

use crate::analyses::facts::cluster::ClusterFacts;
pub use crate::analyses::finding::{AGGREGATE_ABOVE, Finding, Severity, aggregate, for_subject};
use crate::model::Cluster;

/// A rule of the catalog.
pub trait Rule: Sync {
    /// Catalog id (`SIG-01`, `MIG-GO-02`, `ENT-05`, …).
    fn id(&self) -> &'static str;
    /// Catalog title.
    fn title(&self) -> &'static str;
    /// Appends this rule's findings for `cluster` to `out`.
    fn evaluate(&self, cluster: &ClusterFacts, out: &mut Vec<Finding>);
}

/// Every registered rule, in catalog order (`rules/registry.rs`: each with its reference entry).
pub fn registry() -> impl ExactSizeIterator<Item = &'static dyn Rule> + Clone {
    rules::RULES.iter().copied()
}

/// Every rule's reference entry, in the registry's order.
pub fn reference_entries() -> &'static [reference::RuleDoc] {
    rules::DOCS
}

/// Runs every rule; findings sorted by severity (worst first), then rule id, then subject.
pub fn evaluate_all(cluster: &Cluster) -> Vec<Finding> {
    evaluate_with(&ClusterFacts::of(cluster))
}

/// [`evaluate_all`] over facts already computed (the dashboard's analysis computes them once).
pub fn evaluate_with(cluster: &ClusterFacts) -> Vec<Finding> {
    let mut out = Vec::new();
    for r in registry() {
        r.evaluate(cluster, &mut out);
    }
    debug_assert!(
        out.iter().all(reference::documents),
        "a finding of a class its rule's reference entry does not list: {:?}",
        out.iter()
            .find(|f| !reference::documents(f))
            .map(|f| (&f.rule, &f.reason))
    );
    let mut out = one_cause_one_finding(out);
    sort_worst_first(&mut out);
    out
}

/// The order findings are shown in: severity (worst first), then rule id, then subject.
pub fn sort_worst_first(findings: &mut [Finding]) {
    crate::util::sort::by(findings, |a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.rule.cmp(&b.rule))
            .then_with(|| a.subject.cmp(&b.subject))
    });
}

/// Revision 3: a verify patch that missed is one finding. SIG-10 on the root carries SIG-09
/// (the instance's patch), SIG-01 and SIG-11 about the same root as evidence instead of
/// standing beside them.
fn one_cause_one_finding(mut out: Vec<Finding>) -> Vec<Finding> {
    let Some(cause) = out.iter().position(|f| f.rule == "SIG-10") else {
        return out;
    };
    let root = out[cause].subject.clone();
    let absorbed = |f: &Finding| {
        (matches!(f.rule.as_str(), "SIG-01" | "SIG-11") && f.subject == root)
            || (f.rule == "SIG-09" && f.subject.kind == crate::wire::kind::Kind::FluxInstance)
    };
    let evidence: Vec<String> = out
        .iter()
        .filter(|f| absorbed(f))
        .map(|f| format!("also {} ({}): {}", f.rule, f.severity.as_str(), f.message))
        .collect();
    out[cause].evidence.extend(evidence);
    out.retain(|f| !absorbed(f));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_ids_are_unique_and_catalog_shaped() {
        let mut ids: Vec<_> = registry().map(|r| r.id()).collect();
        assert!(!ids.is_empty());
        for id in &ids {
            assert!(
                ["OPS-", "SIG-", "MIG-", "ENT-"]
                    .iter()
                    .any(|p| id.starts_with(p)),
                "{id}"
            );
        }
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), registry().len());
    }
}
