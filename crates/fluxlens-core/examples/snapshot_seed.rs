//! Prints a valid snapshot link body for a small synthetic cluster (a fuzzing seed).

use fluxlens_core::model::{Cluster, CrdAccess};
use fluxlens_core::share::snapshot::{SnapshotOptions, SnapshotView, capture, encode};
use fluxlens_core::wire::{ApiObject, FluxReport};

fn main() {
    let objs: Vec<ApiObject> = fluxlens_core::model::synthetic::objects(20)
        .into_iter()
        .filter_map(|v| serde_json::from_value(v).ok())
        .collect();
    let c = Cluster::new(FluxReport::default(), objs, CrdAccess::Unknown);
    println!(
        "{}",
        encode(
            &capture(
                &c,
                SnapshotOptions {
                    view: SnapshotView::Graph,
                    drop_messages: false
                }
            )
            .expect("redaction completes")
        )
    );
}
