//! The overview's numbers, computed once here so no view re-derives them.

use crate::analyses::findings::{Finding, Severity};
use crate::model::{Cluster, RefKind};
use crate::wire::kind::Kind;
use crate::wire::status::Status;

/// Objects by kind and status, dangling references, findings by severity.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ClusterSummary {
    /// `(kind, counts in Status::ALL order)`, sorted by kind name.
    pub by_kind: Vec<(Kind, [usize; 7])>,
    pub total: usize,
    /// References whose target is known not to exist (§0.2: visible and complete data).
    pub missing_refs: usize,
    /// References whose target fluxlens cannot see (other namespaces, incomplete lists).
    pub not_visible_refs: usize,
    /// References that look missing and that the server has not settled (being confirmed,
    /// or not confirmed): while set, `missing_refs` is a floor, not a count.
    pub unsettled: Option<crate::model::Unsettled>,
    /// Findings per severity (after aggregation), in `[info, low, medium, high, critical]` order.
    pub findings_by_severity: [usize; 5],
    /// Distinct objects the findings above info are about.
    pub affected_objects: usize,
}

impl ClusterSummary {
    /// Summarizes a cluster and its findings.
    pub fn compute(cluster: &Cluster, findings: &[Finding]) -> ClusterSummary {
        let mut by_kind: Vec<(Kind, [usize; 7])> = Vec::new();
        for o in cluster.objects() {
            let idx = Status::ALL.iter().position(|s| *s == o.status).unwrap_or(4);
            match by_kind.iter_mut().find(|(k, _)| *k == o.key.kind) {
                Some((_, c)) => c[idx] += 1,
                None => {
                    let mut c = [0; 7];
                    c[idx] = 1;
                    by_kind.push((o.key.kind.clone(), c));
                }
            }
        }
        crate::util::sort::by(&mut by_kind, |a, b| a.0.as_str().cmp(b.0.as_str()));
        let (mut missing_refs, mut not_visible_refs) = (0, 0);
        for r in cluster
            .objects()
            .iter()
            .flat_map(|o| o.refs.iter())
            .filter(|r| r.kind != RefKind::Notification)
        {
            match cluster.presence(&r.target) {
                p if p.is_missing() => missing_refs += 1,
                crate::model::Presence::NotVisible(_) => not_visible_refs += 1,
                _ => {}
            }
        }
        let mut findings_by_severity = [0; 5];
        let mut affected = std::collections::HashSet::new();
        for f in findings {
            findings_by_severity[f.severity as usize] += 1;
            if f.severity > Severity::Info {
                affected.extend(f.objects().iter());
            }
        }
        ClusterSummary {
            by_kind,
            total: cluster.objects().len(),
            missing_refs,
            not_visible_refs,
            unsettled: cluster.unsettled(),
            findings_by_severity,
            affected_objects: affected.len(),
        }
    }

    /// The kinds present, in the summary's order (the filter bars' choices).
    pub fn kind_names(&self) -> Vec<String> {
        self.by_kind.iter().map(|(k, _)| k.to_string()).collect()
    }

    /// The worst severity present, if any finding exists.
    pub fn worst(&self) -> Option<Severity> {
        let all = [
            Severity::Info,
            Severity::Low,
            Severity::Medium,
            Severity::High,
            Severity::Critical,
        ];
        (0..5)
            .rev()
            .find(|&i| self.findings_by_severity[i] > 0)
            .map(|i| all[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CrdAccess;
    use crate::wire::FluxReport;

    #[test]
    fn counts() {
        let objs: Vec<_> = crate::model::synthetic::objects(200)
            .into_iter()
            .map(|v| serde_json::from_value(v).unwrap())
            .collect();
        let c = Cluster::new(FluxReport::default(), objs, CrdAccess::Unknown).with_server_answers();
        let f = crate::analyses::findings::evaluate_all(&c);
        let s = ClusterSummary::compute(&c, &f);
        assert_eq!(s.total, 200);
        assert_eq!(
            s.by_kind
                .iter()
                .map(|(_, c)| c.iter().sum::<usize>())
                .sum::<usize>(),
            200
        );
        assert!(s.missing_refs > 0);
        assert_eq!(s.findings_by_severity.iter().sum::<usize>(), f.len());
        assert!(s.worst().is_some());
    }
}
