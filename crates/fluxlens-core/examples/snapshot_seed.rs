//! Prints a valid snapshot link body for a small synthetic cluster (a fuzzing seed).

use fluxlens_core::api::{ApiObject, FluxReport};
use fluxlens_core::model::{Cluster, CrdAccess};
use fluxlens_core::snapshot::{SnapshotOptions, SnapshotView, capture, encode};

fn main() {
    let objs: Vec<ApiObject> = fluxlens_core::synthetic::objects(20)
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
