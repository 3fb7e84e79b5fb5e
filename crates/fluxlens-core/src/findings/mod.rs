//! The findings engine: rules from the catalog (`shared/domain-rules.md`) evaluated over the
//! cluster model. Rule ids and severities are part of the product and stay stable.

pub mod policy;
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
    /// Why it has its severity, in one line ("root source · posture gap").
    #[serde(default)]
    pub reason: String,
    /// When one rule fired on many objects (§0.3-6): every object it covers, the subject
    /// first. Empty for a finding about one object.
    #[serde(default)]
    pub members: Vec<ObjectKey>,
}

impl Finding {
    /// The objects this finding is about: its members, or its subject.
    pub fn objects(&self) -> &[ObjectKey] {
        if self.members.is_empty() {
            std::slice::from_ref(&self.subject)
        } else {
            &self.members
        }
    }
}

/// Findings of one rule at one severity beyond this many are shown as one (§0.3-6).
pub const AGGREGATE_ABOVE: usize = 5;

/// Folds the findings of a rule that fired on more than [`AGGREGATE_ABOVE`] objects at the
/// same severity into one finding with the count and the list; the order is kept.
pub fn aggregate(findings: &[Finding]) -> Vec<Finding> {
    let mut groups: Vec<((String, Severity), Vec<&Finding>)> = Vec::new();
    for f in findings {
        let key = (f.rule.clone(), f.severity);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(f),
            None => groups.push((key, vec![f])),
        }
    }
    let mut out = Vec::new();
    for (_, members) in groups {
        if members.len() <= AGGREGATE_ABOVE {
            out.extend(members.into_iter().cloned());
            continue;
        }
        let first = members[0];
        out.push(Finding {
            rule: first.rule.clone(),
            severity: first.severity,
            subject: first.subject.clone(),
            message: format!("{} objects: {}", members.len(), first.message),
            evidence: members
                .iter()
                .map(|f| format!("{} — {}", f.subject, f.message))
                .collect(),
            remediation: first.remediation.clone(),
            reason: first.reason.clone(),
            members: members.iter().map(|f| f.subject.clone()).collect(),
        });
    }
    out
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
    let mut out = one_cause_one_finding(out);
    crate::sort::by(&mut out, |a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.rule.cmp(&b.rule))
            .then_with(|| a.subject.cmp(&b.subject))
    });
    out
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
            || (f.rule == "SIG-09" && f.subject.kind == crate::kind::Kind::FluxInstance)
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

/// Findings about one object.
pub fn for_subject<'a>(
    findings: &'a [Finding],
    key: &'a ObjectKey,
) -> impl Iterator<Item = &'a Finding> + 'a {
    findings
        .iter()
        .filter(move |f| &f.subject == key || f.members.contains(key))
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
