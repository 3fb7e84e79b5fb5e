//! API model decoding, then the whole pipeline: any bytes must decode or fail cleanly, and
//! whatever decodes must build a model, findings, a graph and a layout without panicking.
#![no_main]
use fluxlens_core::wire::{ApiObject, FluxReport, InventoryObjectsResponse, ResourceList};
use fluxlens_core::analyses::graph::{Graph, GraphFilter, GraphOptions, layout, view};
use fluxlens_core::model::{Cluster, CrdAccess};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = fluxlens_core::wire::decode_resource(text);
    let _ = serde_json::from_str::<ResourceList>(text);
    let _ = serde_json::from_str::<InventoryObjectsResponse>(text);
    let report = serde_json::from_str::<FluxReport>(text).unwrap_or_default();
    if let Ok(objects) = serde_json::from_str::<Vec<ApiObject>>(text) {
        let c = Cluster::new(report, objects, CrdAccess::Unknown);
        let f = fluxlens_core::analyses::findings::evaluate_all(&c);
        let _ = fluxlens_core::analyses::migration::all(&fluxlens_core::analyses::facts::cluster::ClusterFacts::of(&c), &f);
        let g = Graph::build(&c, GraphOptions { notifications: true, managed_by: true });
        let v = view(&g, &GraphFilter::default(), &Default::default());
        let _ = layout(&v);
    }
});
