//! Load planning, pure so it is tested natively: which requests assemble the whole cluster
//! in `3 + ⌈N/2000⌉` calls (report, summaries, object batches, CRDs), how to detect a kind
//! the server truncated, and which objects a poll must refetch.

use crate::api::inventory::{InventoryObjectsRequest, MAX_BATCH, ObjectRef, ObjectResult};
use crate::api::object::ApiObject;
use crate::api::report::FluxReport;
use crate::api::resources::ResourceSummary;
use crate::kind::Kind;
use crate::model::{CrdAccess, ObjectKey};
use std::collections::{BTreeMap, HashMap};

/// The server returns at most this many summary rows per kind.
pub const SUMMARY_CAP_PER_KIND: usize = 2500;

/// Kinds whose summary list looks truncated: fewer rows than the report counts, and at the cap.
pub fn truncated_kinds(report: &FluxReport, summaries: &[ResourceSummary]) -> Vec<String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for s in summaries {
        *counts.entry(s.kind.as_str()).or_default() += 1;
    }
    counts
        .into_iter()
        .filter(|(kind, n)| {
            *n >= SUMMARY_CAP_PER_KIND
                && report
                    .stats_for(kind)
                    .is_none_or(|r| (r.stats.total() as usize) > *n)
        })
        .map(|(k, _)| k.to_string())
        .collect()
}

/// The apiVersion to request a kind at: the report's (the CRD's stored version), else the default.
pub fn api_version_for(report: &FluxReport, kind: &str) -> String {
    report
        .stats_for(kind)
        .map(|r| r.api_version.clone())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| Kind::parse(kind).default_api_version().to_string())
}

/// Splits summaries into `POST /api/v1/inventory/objects` bodies of at most 2000 items.
pub fn object_batches(
    report: &FluxReport,
    summaries: &[ResourceSummary],
) -> Vec<InventoryObjectsRequest> {
    let mut seen = std::collections::HashSet::new();
    let refs: Vec<ObjectRef> = summaries
        .iter()
        .filter(|s| !s.name.is_empty() && !s.kind.is_empty())
        .filter(|s| seen.insert((s.kind.clone(), s.namespace.clone(), s.name.clone())))
        .map(|s| ObjectRef {
            api_version: api_version_for(report, &s.kind),
            kind: s.kind.clone(),
            namespace: s.namespace.clone(),
            name: s.name.clone(),
        })
        .collect();
    refs.chunks(MAX_BATCH)
        .map(|c| InventoryObjectsRequest {
            objects: c.to_vec(),
            status_only: false,
        })
        .collect()
}

/// The request for the Flux CRDs of the kinds the report lists (storage versions).
pub fn crd_request(report: &FluxReport) -> Option<InventoryObjectsRequest> {
    let objects: Vec<ObjectRef> = report
        .spec
        .reconcilers
        .iter()
        .filter_map(|r| Kind::parse(&r.kind).crd_name())
        .map(|name| ObjectRef {
            api_version: "apiextensions.k8s.io/v1".into(),
            kind: "CustomResourceDefinition".into(),
            namespace: String::new(),
            name,
        })
        .collect();
    (!objects.is_empty()).then_some(InventoryObjectsRequest {
        objects,
        status_only: false,
    })
}

/// Separates fetched objects from the ones the server could not return.
pub fn split_results(results: Vec<ObjectResult>) -> (Vec<ApiObject>, Vec<(ObjectKey, String)>) {
    let mut objects = Vec::with_capacity(results.len());
    let mut failed = Vec::new();
    for r in results {
        match (r.object, r.error) {
            (Some(mut o), None) => {
                // The item header is authoritative for identity when the manifest lacks it.
                if o.kind.as_deref().is_none_or(str::is_empty) {
                    o.kind = Some(r.kind.clone());
                }
                if o.metadata.name.is_empty() {
                    o.metadata.name = r.name.clone();
                    o.metadata.namespace = r.namespace.clone();
                }
                objects.push(o);
            }
            (_, err) => failed.push((
                ObjectKey::new(Kind::parse(&r.kind), r.namespace, r.name),
                err.unwrap_or_else(|| "no object returned".into()),
            )),
        }
    }
    (objects, failed)
}

/// Interprets the CRD answer: all `Forbidden` → no access; any object → known.
pub fn crd_access(results: Vec<ObjectResult>) -> CrdAccess {
    if results.is_empty() {
        return CrdAccess::Unknown;
    }
    let forbidden = results
        .iter()
        .all(|r| r.error.as_deref() == Some("Forbidden"));
    let (objects, _) = split_results(results);
    match (objects.is_empty(), forbidden) {
        (_, true) => CrdAccess::Forbidden,
        (true, false) => CrdAccess::Unknown,
        (false, false) => CrdAccess::Known(objects),
    }
}

/// Identity of a summary row.
pub fn summary_key(s: &ResourceSummary) -> ObjectKey {
    ObjectKey::new(Kind::parse(&s.kind), s.namespace.clone(), s.name.clone())
}

/// What a poll must do: summaries that are new or changed (refetch), and keys that vanished.
pub fn diff_summaries(
    old: &[ResourceSummary],
    new: &[ResourceSummary],
) -> (Vec<ResourceSummary>, Vec<ObjectKey>) {
    let before: HashMap<ObjectKey, &ResourceSummary> =
        old.iter().map(|s| (summary_key(s), s)).collect();
    let after: HashMap<ObjectKey, &ResourceSummary> =
        new.iter().map(|s| (summary_key(s), s)).collect();
    let changed = new
        .iter()
        .filter(|s| before.get(&summary_key(s)).is_none_or(|b| *b != *s))
        .cloned()
        .collect();
    let mut gone: Vec<ObjectKey> = before
        .keys()
        .filter(|k| !after.contains_key(*k))
        .cloned()
        .collect();
    crate::sort::natural(&mut gone);
    (changed, gone)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::inventory::InventoryObjectsResponse;

    fn summary(kind: &str, ns: &str, name: &str) -> ResourceSummary {
        ResourceSummary {
            kind: kind.into(),
            namespace: ns.into(),
            name: name.into(),
            status: "Ready".into(),
            ..Default::default()
        }
    }

    fn report() -> FluxReport {
        serde_json::from_str(
            r#"{"spec":{"reconcilers":[
            {"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","stats":{"running":3000,"failing":0,"suspended":10}},
            {"apiVersion":"source.toolkit.fluxcd.io/v1beta2","kind":"GitRepository","stats":{"running":2,"failing":0,"suspended":0}}]}}"#,
        )
        .unwrap()
    }

    #[test]
    fn batches_respect_the_server_cap_and_use_stored_versions() {
        let rows: Vec<_> = (0..4500)
            .map(|i| summary("Kustomization", "ns", &format!("k{i}")))
            .collect();
        let b = object_batches(&report(), &rows);
        assert_eq!(
            b.iter().map(|r| r.objects.len()).collect::<Vec<_>>(),
            vec![2000, 2000, 500]
        );
        let g = object_batches(
            &report(),
            &[
                summary("GitRepository", "a", "b"),
                summary("GitRepository", "a", "b"),
            ],
        );
        assert_eq!(g[0].objects.len(), 1, "duplicates are requested once");
        assert_eq!(
            g[0].objects[0].api_version,
            "source.toolkit.fluxcd.io/v1beta2"
        );
        let body = serde_json::to_string(&g[0]).unwrap();
        assert!(body.contains(r#""statusOnly":false"#) && body.contains(r#""apiVersion""#));
    }

    #[test]
    fn detects_truncated_kinds() {
        let rows: Vec<_> = (0..2500)
            .map(|i| summary("Kustomization", "ns", &format!("k{i}")))
            .collect();
        assert_eq!(
            truncated_kinds(&report(), &rows),
            vec!["Kustomization".to_string()]
        );
        let few: Vec<_> = (0..2)
            .map(|i| summary("GitRepository", "ns", &format!("g{i}")))
            .collect();
        assert!(truncated_kinds(&report(), &few).is_empty());
    }

    #[test]
    fn crd_access_interprets_forbidden_as_unknown_access() {
        let forbidden: InventoryObjectsResponse = serde_json::from_str(
            r#"{"objects":[{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","name":"x","error":"Forbidden"}]}"#,
        )
        .unwrap();
        assert_eq!(crd_access(forbidden.objects), CrdAccess::Forbidden);
        let ok: InventoryObjectsResponse = serde_json::from_str(
            r#"{"objects":[{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","name":"x","status":"Current","object":{"kind":"CustomResourceDefinition","metadata":{"name":"x"},"status":{"storedVersions":["v1beta2","v1"]}}}]}"#,
        )
        .unwrap();
        match crd_access(ok.objects) {
            CrdAccess::Known(v) => assert_eq!(v[0].status.stored_versions, vec!["v1beta2", "v1"]),
            other => panic!("{other:?}"),
        }
        assert_eq!(crd_request(&report()).unwrap().objects.len(), 2);
    }

    #[test]
    fn diff_finds_changed_and_gone() {
        let a = vec![
            summary("Kustomization", "a", "x"),
            summary("Kustomization", "a", "y"),
        ];
        let mut b = vec![
            summary("Kustomization", "a", "x"),
            summary("Kustomization", "a", "z"),
        ];
        b[0].status = "Failed".into();
        let (changed, gone) = diff_summaries(&a, &b);
        assert_eq!(changed.len(), 2);
        assert_eq!(gone, vec![ObjectKey::new(Kind::Kustomization, "a", "y")]);
    }
}
