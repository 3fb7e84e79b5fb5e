//! What a rule found, and its severity: the one type every analysis reads and writes
//! (findings, signatures, migration, compliance, verdicts), kept apart from the rules so that
//! none of them depends on another through it.

use crate::model::ObjectKey;
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Hash)]
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

/// Findings about one object.
pub fn for_subject<'a>(
    findings: &'a [Finding],
    key: &'a ObjectKey,
) -> impl Iterator<Item = &'a Finding> + 'a {
    findings
        .iter()
        .filter(move |f| &f.subject == key || f.members.contains(key))
}

/// The objects with a problem by their findings: a finding of medium or above (something to act
/// on this cycle). Hygiene (low) and context (info) are not problems: "Problems only" with them
/// kept 71 of a healthy homelab's 210 objects (#46).
pub fn problem_subjects(findings: &[Finding]) -> std::collections::HashSet<ObjectKey> {
    findings
        .iter()
        .filter(|f| f.severity >= Severity::Medium)
        .flat_map(|f| f.objects().iter().cloned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severity_order_and_names() {
        assert!(Severity::Critical > Severity::High && Severity::Low > Severity::Info);
        assert_eq!(Severity::parse("medium"), Some(Severity::Medium));
        assert_eq!(Severity::High.raised(), Severity::Critical);
    }

    #[test]
    fn problems_are_findings_to_act_on() {
        let key = |n: &str| ObjectKey::new(crate::wire::kind::Kind::OciRepository, "ns", n);
        let f = |n: &str, severity: Severity| Finding {
            rule: "SIG-11".into(),
            severity,
            subject: key(n),
            message: String::new(),
            evidence: vec![],
            remediation: String::new(),
            reason: String::new(),
            members: vec![],
        };
        let p = problem_subjects(&[
            f("a", Severity::Low),
            f("b", Severity::Info),
            f("c", Severity::Medium),
        ]);
        assert_eq!(p, std::collections::HashSet::from([key("c")]));
    }
}
