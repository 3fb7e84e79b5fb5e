//! Every API shape and quirk of the reference decodes, from fixtures written from it.

use fluxlens_core::model::{Cluster, CrdAccess, RefKind};
use fluxlens_core::wire::{self, EventList, FluxReport, InventoryObjectsResponse, ResourceList};
use fluxlens_core::{Kind, ObjectKey, Status};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn full_report_with_unknown_fields() {
    let r: FluxReport = serde_json::from_str(&fixture("report_full.json")).unwrap();
    assert_eq!(r.spec.distribution.version.as_deref(), Some("v2.8.3"));
    assert_eq!(
        r.spec.operator.as_ref().unwrap().version.as_deref(),
        Some("v0.58.1")
    );
    assert_eq!(
        r.spec.cluster.as_ref().unwrap().server_version.as_deref(),
        Some("v1.34.2")
    );
    assert_eq!(r.sync_kustomization(), Some("flux-system"));
    assert_eq!(r.stats_for("GitRepository").unwrap().stats.total(), 3);
    assert_eq!(r.spec.namespaces.len(), 2);
}

#[test]
fn placeholder_report_has_every_field_absent() {
    let r: FluxReport = serde_json::from_str(&fixture("report_placeholder.json")).unwrap();
    assert!(r.spec.reconcilers.is_empty() && r.spec.components.is_empty());
    assert!(r.spec.sync.is_none() && r.spec.cluster.is_none() && r.spec.user_info.is_none());
    assert_eq!(r.operator_namespace(), "flux-system");
}

#[test]
fn resources_null_and_odd_rows() {
    let l: ResourceList = serde_json::from_str(&fixture("resources_null.json")).unwrap();
    assert!(l.resources.is_empty());
    let l: ResourceList = serde_json::from_str(&fixture("resources_list.json")).unwrap();
    assert_eq!(l.resources.len(), 3);
    assert_eq!(l.resources[1].last_reconciled, None);
    assert_eq!(l.resources[2].status(), Status::Unknown);
}

#[test]
fn resource_empty_object_is_not_found() {
    assert!(
        wire::decode_resource(&fixture("resource_not_found.json"))
            .unwrap()
            .is_none()
    );
}

#[test]
fn kustomization_with_injected_fields() {
    let o = wire::decode_resource(&fixture("resource_kustomization.json"))
        .unwrap()
        .unwrap();
    assert_eq!(o.status.inventory_entries().len(), 2);
    assert_eq!(
        o.status.source_ref.as_ref().unwrap().url.as_deref(),
        Some("https://git.example.org/payments/deploy.git")
    );
    let c = Cluster::new(FluxReport::default(), [o], CrdAccess::Unknown);
    assert_eq!(c.namespaces(), vec!["team-payments".to_string()]);
    let k = &c.objects()[0];
    assert_eq!(k.status, Status::Ready);
    assert_eq!(
        k.managed_by,
        Some(ObjectKey::new(Kind::ResourceSet, "flux-system", "tenants"))
    );
    let targets: Vec<_> = k
        .refs
        .iter()
        .map(|r| (r.kind, r.target.to_string()))
        .collect();
    assert_eq!(
        targets,
        vec![
            (
                RefKind::Source,
                "GitRepository/team-payments/payments-repo".to_string()
            ),
            (
                RefKind::DependsOn,
                "Kustomization/flux-system/infra-controllers".to_string()
            ),
        ]
    );
}

#[test]
fn native_inventory_form_and_instance_sync() {
    let o = wire::decode_resource(&fixture("resource_native_inventory.json"))
        .unwrap()
        .unwrap();
    let inv = o.status.inventory_entries();
    assert_eq!(inv.len(), 2, "garbage ids are skipped");
    assert_eq!(inv[0].api_version, "apps/v1");
    assert_eq!(inv[1].kind, "Namespace");
    assert_eq!(inv[1].namespace, "");
    assert_eq!(o.spec.kustomize.as_ref().unwrap().patches.len(), 1);
    let c = Cluster::new(FluxReport::default(), [o], CrdAccess::Unknown);
    assert_eq!(
        c.root_source(),
        Some(ObjectKey::new(
            Kind::OciRepository,
            "flux-system",
            "flux-system"
        ))
    );
}

#[test]
fn helmchart_string_chart_and_bad_numbers_cost_one_field() {
    let o = wire::decode_resource(&fixture("resource_helmchart.json"))
        .unwrap()
        .unwrap();
    assert!(matches!(o.spec.chart, Some(wire::object::ChartField::Name(ref n)) if n == "podinfo"));
    assert_eq!(o.spec.verify.as_ref().unwrap().match_oidc_identity.len(), 1);
    assert_eq!(o.status.observed_generation, None);
    assert_eq!(
        o.status.artifact.as_ref().unwrap().revision.as_deref(),
        Some("6.0.3")
    );
}

#[test]
fn events_with_null_timestamps() {
    let e: EventList = serde_json::from_str(&fixture("events.json")).unwrap();
    assert_eq!(e.events.len(), 2);
    assert_eq!(e.events[1].last_timestamp, None);
}

#[test]
fn inventory_objects_success_and_error_items() {
    let r: InventoryObjectsResponse =
        serde_json::from_str(&fixture("inventory_objects.json")).unwrap();
    let (ok, failed) = fluxlens_core::load::split_results(r.objects);
    assert_eq!(ok.len(), 1);
    assert_eq!(failed[0].1, "Forbidden");
}
