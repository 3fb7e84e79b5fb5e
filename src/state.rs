//! App-wide state, provided once at the root.

use fluxlens_core::analyses::analysis::Analysis;
use fluxlens_core::analyses::carried::Verdicts;
use fluxlens_core::model::Cluster;
use fluxlens_core::wire::error::ApiError;
use leptos::prelude::*;
use std::sync::Arc;

/// The cluster and everything core computed from it (`Analysis`, read through this type as
/// if its own fields: `loaded.findings`), replaced whole on each refresh.
pub struct Loaded {
    pub cluster: Cluster,
    pub analysis: Analysis,
    /// A snapshot without messages: the findings its sender's page showed (shown instead of
    /// recomputing from blanked messages).
    pub verdicts: Option<Verdicts>,
}

impl Loaded {
    /// Runs the analyses once for a freshly loaded cluster.
    pub fn new(cluster: Cluster) -> Loaded {
        Loaded::opened(cluster, None)
    }

    /// Runs the analyses for a cluster, or reads them from a snapshot's carried verdicts.
    pub fn opened(cluster: Cluster, verdicts: Option<Verdicts>) -> Loaded {
        let analysis = Analysis::of(&cluster, verdicts.as_ref());
        Loaded {
            cluster,
            analysis,
            verdicts,
        }
    }
}

impl std::ops::Deref for Loaded {
    type Target = Analysis;

    fn deref(&self) -> &Analysis {
        &self.analysis
    }
}

/// Reactive handles to the loaded data and the loader's condition.
#[derive(Clone, Copy)]
pub struct AppState {
    pub data: RwSignal<Option<Arc<Loaded>>>,
    /// The report as soon as it arrives, before the objects (progressive first paint).
    pub report: RwSignal<Option<Arc<fluxlens_core::wire::FluxReport>>>,
    /// What the first load is fetching ("objects 2000 of 5100").
    pub progress: RwSignal<Option<String>>,
    /// The last error, shown until a request succeeds again.
    pub error: RwSignal<Option<ApiError>>,
    /// When the shown data stopped being refreshed (ms since epoch).
    pub stale_since: RwSignal<Option<f64>>,
    /// When the shown data was last refreshed (ms since epoch).
    pub updated_at: RwSignal<Option<f64>>,
    /// Set while the page shows the last visit's data (when it was read, ms since epoch), until
    /// its first live read lands (`api::last_visit`).
    pub last_visit: RwSignal<Option<f64>>,
    /// Set when the page shows a snapshot from a link or file (no API is contacted).
    pub snapshot: RwSignal<Option<SnapshotInfo>>,
    /// Why a snapshot link or file could not be opened.
    pub snapshot_error: RwSignal<Option<String>>,
    /// The object whose recent events a view wants (the side panel's): set by views, read
    /// by `api::object_events`, which alone asks the API.
    pub events_wanted: RwSignal<Option<fluxlens_core::ObjectKey>>,
    /// The answer for `events_wanted`, tagged with the object it is about.
    pub object_events: RwSignal<Option<(fluxlens_core::ObjectKey, ObjectEvents)>>,
    /// The reads kept in this browser as they were when this visit began (`api::visits`):
    /// what "since your last visit" compares with. `None` until read.
    pub visits: RwSignal<Option<Arc<fluxlens_core::share::visits::Visits>>>,
    /// Set while a view shows a window's changes: `api::window_events` then reads the cluster's
    /// Warning events, at most once a minute.
    pub window_events_wanted: RwSignal<bool>,
    /// The last answer for `window_events_wanted`.
    pub window_events: RwSignal<Option<WindowEvents>>,
    /// A first visit's rehearsal (#51): core's built-in sample, analysed by the loader while the
    /// real objects are on the wire, for the first view to build itself once, detached and
    /// unseen (`pages::rehearse_overview`), so that its code is compiled before the real data
    /// lands. Set for one task, then `None`; never shown.
    pub rehearsal: RwSignal<Option<Arc<Loaded>>>,
}

/// Provided inside a rehearsal's detached view: it fires no mark and fetches nothing.
#[derive(Clone, Copy)]
pub struct Rehearsing;

/// The cluster's Warning events as last read for a window, and when (ms since epoch).
#[derive(Clone)]
pub struct WindowEvents {
    pub read_at_ms: f64,
    pub result: Result<Vec<fluxlens_core::wire::events::Event>, ApiError>,
}

/// One object's recent events, or why they could not be read.
pub type ObjectEvents = Result<Vec<fluxlens_core::wire::events::Event>, ApiError>;

/// What the snapshot banner says.
#[derive(Clone, Debug, PartialEq)]
pub struct SnapshotInfo {
    pub captured_at: String,
}

impl AppState {
    /// Creates empty state.
    pub fn new() -> AppState {
        AppState {
            data: RwSignal::new(None),
            report: RwSignal::new(None),
            progress: RwSignal::new(None),
            error: RwSignal::new(None),
            stale_since: RwSignal::new(None),
            updated_at: RwSignal::new(None),
            last_visit: RwSignal::new(None),
            snapshot: RwSignal::new(None),
            snapshot_error: RwSignal::new(None),
            events_wanted: RwSignal::new(None),
            object_events: RwSignal::new(None),
            visits: RwSignal::new(None),
            window_events_wanted: RwSignal::new(false),
            window_events: RwSignal::new(None),
            rehearsal: RwSignal::new(None),
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

/// Compares by identity: cheap equality for large shared values in memos.
#[derive(Debug)]
pub struct Shared<T>(pub Arc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The fleet page's state: the hub's list and one row per cluster (`/fleet`).
#[derive(Clone, Copy)]
pub struct FleetState {
    /// The hub's list of clusters, or why it could not be read (the rows stay).
    pub list: RwSignal<Option<Result<fluxlens_core::fleet::ClusterList, ApiError>>>,
    /// One signal per cluster, in the list's order: replaced only when the list changes, so
    /// a poll moves only the rows whose facts moved.
    pub rows: RwSignal<Vec<RwSignal<fluxlens_core::fleet::Row>>>,
    /// When a fleet link is shown instead (no cluster is contacted): when it was taken.
    pub snapshot: RwSignal<Option<String>>,
    /// Why a fleet link could not be opened.
    pub link_error: RwSignal<Option<String>>,
    /// When the last round of reads ended (ms since the epoch).
    pub updated_at: RwSignal<Option<f64>>,
}

impl FleetState {
    /// Creates empty state.
    pub fn new() -> FleetState {
        FleetState {
            list: RwSignal::new(None),
            rows: RwSignal::new(Vec::new()),
            snapshot: RwSignal::new(None),
            link_error: RwSignal::new(None),
            updated_at: RwSignal::new(None),
        }
    }

    /// Every row as it stands.
    pub fn current(&self) -> Vec<fluxlens_core::fleet::Row> {
        self.rows
            .with(|rows| rows.iter().map(|r| r.get()).collect())
    }
}

impl Default for FleetState {
    fn default() -> Self {
        Self::new()
    }
}

/// Sets a signal only when the value differs: an equal set still wakes every subscriber. A
/// signal already disposed (its view gone while an answer was on its way) is left alone.
pub fn set_if_changed<T: PartialEq + Send + Sync + 'static>(signal: RwSignal<T>, value: T) {
    if signal.try_with_untracked(|v| *v != value) == Some(true) {
        signal.try_set(value);
    }
}
