//! The default graph view (the namespace overview) draws no edge over a box it does not connect,
//! on every scenario the simulator serves (#24): measured on the curves drawn.

use fluxlens_core::analyses::graph::{Graph, GraphFilter, GraphOptions, layout, quality, view};
use fluxlens_core::model::{Cluster, CrdAccess};
use fluxlens_core::wire::{ApiObject, FluxReport};
use std::collections::HashSet;
use std::path::Path;

#[test]
fn the_overview_of_every_scenario_draws_no_edge_over_a_box() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut edges = 0;
    let mut scenarios = 0;
    for dir in std::fs::read_dir(&root).unwrap() {
        let file = dir.unwrap().path().join("objects.json");
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let objs: Vec<ApiObject> = serde_json::from_str(&text).unwrap();
        let c = Cluster::new(FluxReport::default(), objs, CrdAccess::Unknown);
        let g = Graph::build(&c, GraphOptions::default());
        let v = view(&g, &GraphFilter::default(), &HashSet::new());
        let q = quality(&layout(&v), &v);
        assert_eq!(q.over_boxes, 0, "{}: {q:?}", file.display());
        edges += q.edges;
        scenarios += 1;
    }
    // The check has something to check: scenarios were read and their overviews have edges.
    assert!(
        scenarios >= 10 && edges >= 30,
        "{scenarios} scenarios, {edges} edges"
    );
}
