//! App-wide state, provided once at the root.

use fluxlens_core::error::ApiError;
use fluxlens_core::findings::{self, Finding};
use fluxlens_core::model::Cluster;
use fluxlens_core::summary::ClusterSummary;
use leptos::prelude::*;
use std::sync::Arc;

/// The cluster and everything core computed from it, replaced whole on each refresh.
pub struct Loaded {
    pub cluster: Cluster,
    pub findings: Vec<Finding>,
    pub summary: ClusterSummary,
}

impl Loaded {
    /// Runs the analyses once for a freshly loaded cluster.
    pub fn new(cluster: Cluster) -> Loaded {
        let findings = findings::evaluate_all(&cluster);
        let summary = ClusterSummary::compute(&cluster, &findings);
        Loaded {
            cluster,
            findings,
            summary,
        }
    }
}

/// Reactive handles to the loaded data and the loader's condition.
#[derive(Clone, Copy)]
pub struct AppState {
    pub data: RwSignal<Option<Arc<Loaded>>>,
    /// What the first load is fetching ("objects 2000 of 5100").
    pub progress: RwSignal<Option<String>>,
    /// The last error, shown until a request succeeds again.
    pub error: RwSignal<Option<ApiError>>,
    /// When the shown data stopped being refreshed (ms since epoch).
    pub stale_since: RwSignal<Option<f64>>,
}

impl AppState {
    /// Creates empty state.
    pub fn new() -> AppState {
        AppState {
            data: RwSignal::new(None),
            progress: RwSignal::new(None),
            error: RwSignal::new(None),
            stale_since: RwSignal::new(None),
        }
    }

    /// The state provided by the root.
    pub fn expect() -> AppState {
        expect_context::<AppState>()
    }
}

impl Default for AppState {
    fn default() -> Self {
        Self::new()
    }
}
