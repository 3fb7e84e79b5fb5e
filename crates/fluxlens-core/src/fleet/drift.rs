//! A cluster's drift as its fleet row counts it: the render its fleet entry names judged
//! against the cluster's read by the same rules as the cluster's own `/drift`
//! (`crate::analyses::drift`), kept as counts, never the objects.

use crate::analyses::drift::{self, Commit, Drift};
use crate::model::{Answer, Cluster, ObjectKey};
use crate::util::words::plural;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the fleet row shows of drift.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DriftCell {
    /// The render could not be fetched or read: why.
    Unreadable(String),
    Judged(DriftCount),
}

/// A judgement in numbers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriftCount {
    /// Findings per severity, `[info, low, medium, high, critical]`.
    pub findings: [usize; 5],
    /// Declared objects found live and compared.
    pub compared: usize,
    pub in_sync: usize,
    /// Objects or kinds not compared (not visible, not confirmed), never counted as drift.
    pub not_compared: usize,
}

impl DriftCount {
    /// The counts of a judgement.
    pub fn of(d: &Drift) -> DriftCount {
        let mut findings = [0; 5];
        for f in &d.findings {
            findings[f.severity as usize] += 1;
        }
        DriftCount {
            findings,
            compared: d.compared,
            in_sync: d.in_sync,
            not_compared: d.not_compared.len(),
        }
    }

    /// All findings.
    pub fn total(&self) -> usize {
        self.findings.iter().sum()
    }

    /// The worst severity found (`data-drift-worst`), `None` without findings.
    pub fn worst(&self) -> Option<crate::analyses::finding::Severity> {
        use crate::analyses::finding::Severity::*;
        [Critical, High, Medium, Low, Info]
            .into_iter()
            .find(|s| self.findings[*s as usize] > 0)
    }

    /// "in sync: 190 objects compared", or "3 findings: 1 critical, 2 high (190 compared)".
    pub fn phrase(&self) -> String {
        use crate::analyses::finding::Severity::*;
        let compared = plural(self.compared, "object");
        if self.total() == 0 {
            return format!("in sync: {compared} compared");
        }
        let by: Vec<String> = [Critical, High, Medium, Low, Info]
            .into_iter()
            .filter(|s| self.findings[*s as usize] > 0)
            .map(|s| format!("{} {}", self.findings[s as usize], s.as_str()))
            .collect();
        format!(
            "{}: {} ({compared} compared)",
            plural(self.total(), "finding"),
            by.join(", ")
        )
    }
}

impl DriftCell {
    /// `data-drift`: the number of findings, or `unreadable`.
    pub fn hook(&self) -> String {
        match self {
            DriftCell::Unreadable(_) => "unreadable".into(),
            DriftCell::Judged(c) => c.total().to_string(),
        }
    }

    /// What the row says.
    pub fn phrase(&self) -> String {
        match self {
            DriftCell::Unreadable(why) => format!("render unreadable: {why}"),
            DriftCell::Judged(c) => c.phrase(),
        }
    }
}

/// A render's text, read as the drift view reads it: its model, or why it cannot be read.
pub fn declared(path: &str, text: &str) -> Result<Cluster, String> {
    let name = path.rsplit('/').next().unwrap_or("render.yaml");
    let name = name.split(['?', '#']).next().unwrap_or(name);
    crate::render::declared(&[(name.to_string(), text.to_string())]).map_err(|e| e.to_string())
}

/// The row's judgement of `declared` against the cluster read; `asked` holds the server's
/// answers by key for the declared objects the lists lack (an unanswered one is not compared,
/// never absent).
pub fn judge(
    declared: &Cluster,
    live: &Cluster,
    asked: &BTreeMap<ObjectKey, Answer>,
    revision: Option<&str>,
) -> DriftCell {
    let rendered = revision.and_then(Commit::parse);
    let d = drift::judge(&drift::Input {
        declared,
        live,
        asked,
        rendered: rendered.as_ref(),
        behind: None,
    });
    DriftCell::Judged(DriftCount::of(&d))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::finding::Severity;
    use crate::model::CrdAccess;
    use crate::wire::FluxReport;
    use serde_json::json;

    const RENDER: &str = "\
apiVersion: source.toolkit.fluxcd.io/v1
kind: GitRepository
metadata: {name: flux-system, namespace: flux-system}
spec: {url: 'https://github.com/acme/fleet', ref: {branch: main}, interval: 1m}
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: flux-system, namespace: flux-system}
spec: {sourceRef: {kind: GitRepository, name: flux-system}, path: ./clusters/prod, prune: true, interval: 10m}
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: apps, namespace: flux-system}
spec: {sourceRef: {kind: GitRepository, name: flux-system}, path: ./apps, prune: true, interval: 10m}
";

    /// The render as the controllers made it, `apps` suspended by hand when asked, and
    /// without `apps` when `deleted`.
    fn live(suspended: bool, deleted: bool) -> Cluster {
        let ready = |extra: serde_json::Value| {
            let mut s = json!({"conditions":[{"type":"Ready","status":"True","reason":"ReconciliationSucceeded"}],
                "lastAppliedRevision":"main@sha1:1111111111111111111111111111111111111111"});
            s.as_object_mut()
                .unwrap()
                .extend(extra.as_object().cloned().unwrap());
            s
        };
        let mut objects = vec![
            json!({"apiVersion":"source.toolkit.fluxcd.io/v1","kind":"GitRepository","metadata":{"name":"flux-system","namespace":"flux-system"},
                "spec":{"url":"https://github.com/acme/fleet","ref":{"branch":"main"},"interval":"1m"},
                "status":ready(json!({"artifact":{"revision":"main@sha1:1111111111111111111111111111111111111111"}}))}),
            json!({"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","metadata":{"name":"flux-system","namespace":"flux-system"},
                "spec":{"sourceRef":{"kind":"GitRepository","name":"flux-system"},"path":"./clusters/prod","prune":true,"interval":"10m"},
                "status":ready(json!({"inventory":[{"kind":"Kustomization","namespace":"flux-system","name":"apps","apiVersion":"v1"}]}))}),
        ];
        if !deleted {
            objects.push(json!({"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","metadata":{"name":"apps","namespace":"flux-system"},
                "spec":{"sourceRef":{"kind":"GitRepository","name":"flux-system"},"path":"./apps","prune":true,"interval":"10m","suspend":suspended},
                "status":ready(json!({}))}));
        }
        let report: FluxReport = serde_json::from_value(json!({"metadata":{"namespace":"flux-system"},
            "spec":{"sync":{"id":"kustomization/flux-system"},"distribution":{"version":"v2.7.0"}}}))
        .unwrap();
        let objects = objects
            .into_iter()
            .map(|v| serde_json::from_value(v).unwrap());
        Cluster::new(report, objects, CrdAccess::Unknown)
    }

    fn count(cell: &DriftCell) -> &DriftCount {
        match cell {
            DriftCell::Judged(c) => c,
            other => panic!("not judged: {other:?}"),
        }
    }

    #[test]
    fn a_row_counts_what_the_clusters_own_drift_view_finds() {
        let declared = declared("/renders/prod.yaml", RENDER).unwrap();
        let none = BTreeMap::new();
        let same = judge(&declared, &live(false, false), &none, None);
        assert_eq!(same.hook(), "0");
        assert_eq!(same.phrase(), "in sync: 3 objects compared");
        assert_eq!(count(&same).worst(), None);

        let suspended = judge(&declared, &live(true, false), &none, None);
        assert_eq!(suspended.hook(), "1");
        assert_eq!(count(&suspended).worst(), Some(Severity::High));
        assert_eq!(suspended.phrase(), "1 finding: 1 high (3 objects compared)");
    }

    #[test]
    fn an_absence_counts_only_on_the_servers_not_found() {
        let declared = declared("/renders/prod.yaml", RENDER).unwrap();
        let gone = live(false, true);
        let keys = crate::analyses::drift::unlisted(&declared, &gone);
        assert_eq!(keys.len(), 1);
        let unasked = judge(&declared, &gone, &BTreeMap::new(), None);
        assert_eq!(unasked.hook(), "0", "not asked: not compared, never absent");
        assert_eq!(count(&unasked).not_compared, 1);
        let said: BTreeMap<_, _> = keys.into_iter().map(|k| (k, Answer::NotFound)).collect();
        let absent = judge(&declared, &gone, &said, None);
        assert_eq!(absent.hook(), "1");
        assert_eq!(count(&absent).not_compared, 0);
    }

    #[test]
    fn the_rendered_commit_is_judged_and_a_broken_render_says_why() {
        let declared = declared("/renders/prod.yaml", RENDER).unwrap();
        let other = "main@sha1:2222222222222222222222222222222222222222";
        let behind = judge(
            &declared,
            &live(false, false),
            &BTreeMap::new(),
            Some(other),
        );
        assert_eq!(
            behind.hook(),
            "1",
            "DRIFT-05: the root applied another commit"
        );
        let same = "main@sha1:1111111111111111111111111111111111111111";
        let at = judge(&declared, &live(false, false), &BTreeMap::new(), Some(same));
        assert_eq!(at.hook(), "0");
        let broken = declared_err("kind: [");
        assert!(!broken.is_empty());
        assert_eq!(
            DriftCell::Unreadable(broken.clone()).phrase(),
            format!("render unreadable: {broken}")
        );
    }

    fn declared_err(text: &str) -> String {
        declared("/renders/x.yaml?v=2", text).unwrap_err()
    }
}
