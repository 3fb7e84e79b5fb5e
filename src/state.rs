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
    /// The loader's condition, one value: what it is reading, where the shown data comes from
    /// and how fresh it is. Written through [`AppState::update_status`].
    pub status: RwSignal<LoadStatus>,
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
    /// What the drift view wants of the API door (`api::drift`): a render from the page's
    /// origin, and the declared objects the lists lack, each read by key.
    pub drift_wanted: RwSignal<DriftWanted>,
    /// What came back for `drift_wanted`.
    pub drift_read: RwSignal<DriftRead>,
}

/// What the drift view asks for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DriftWanted {
    /// A render's address on the page's origin (`/renders/prod.yaml`).
    pub render_url: Option<String>,
    /// Declared objects the live lists do not hold.
    pub keys: Vec<fluxlens_core::ObjectKey>,
}

/// The answers to [`DriftWanted`], each tagged with what it answers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DriftRead {
    /// The render's text fetched from `render_url`, or why not.
    pub render: Option<(String, Result<String, String>)>,
    /// The server's answer for each key asked; an error leaves them unanswered.
    pub answers: Option<DriftAnswers>,
    /// The judgement the drift view shows while it is open: what a snapshot taken now carries.
    pub shown: Option<fluxlens_core::analyses::drift::Judged>,
    /// The judgement an opened snapshot carried (the sender's, as it stood).
    pub carried: Option<fluxlens_core::analyses::drift::Judged>,
}

/// The server's answers for a set of keys read by key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DriftAnswers {
    pub keys: Vec<fluxlens_core::ObjectKey>,
    pub said: std::collections::BTreeMap<fluxlens_core::ObjectKey, fluxlens_core::model::Answer>,
    /// Why the read failed, when it did.
    pub error: Option<String>,
}

/// Where the shown data comes from.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Source {
    /// The API, on this visit (or nothing shown yet).
    #[default]
    Live,
    /// The last visit's copy, read then (ms since epoch), until this visit's first live read
    /// lands (`api::last_visit`).
    LastVisit { read_at: f64 },
    /// A snapshot from a link or file: no API is contacted.
    Snapshot(SnapshotInfo),
}

/// The loader's condition.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct LoadStatus {
    pub source: Source,
    /// What the first load is fetching ("objects 2000 of 5100").
    pub progress: Option<String>,
    /// The last error, shown until a request succeeds again.
    pub error: Option<ApiError>,
    /// When the shown data stopped being refreshed (ms since epoch).
    pub stale_since: Option<f64>,
    /// When the shown data was last refreshed (ms since epoch).
    pub updated_at: Option<f64>,
    /// Why a snapshot link or file could not be opened.
    pub snapshot_error: Option<String>,
}

impl LoadStatus {
    /// When the last visit's copy shown was read, while it is shown.
    pub fn last_visit(&self) -> Option<f64> {
        match self.source {
            Source::LastVisit { read_at } => Some(read_at),
            _ => None,
        }
    }

    /// The snapshot shown, if one is.
    pub fn snapshot(&self) -> Option<&SnapshotInfo> {
        match &self.source {
            Source::Snapshot(info) => Some(info),
            _ => None,
        }
    }

    /// Whether a snapshot is shown (the API is not contacted).
    pub fn is_snapshot(&self) -> bool {
        self.snapshot().is_some()
    }

    /// Whether the shown data is this visit's own read (not the last visit's, not a snapshot).
    pub fn is_live(&self) -> bool {
        self.source == Source::Live
    }
}

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
            status: RwSignal::new(LoadStatus::default()),
            events_wanted: RwSignal::new(None),
            object_events: RwSignal::new(None),
            visits: RwSignal::new(None),
            window_events_wanted: RwSignal::new(false),
            window_events: RwSignal::new(None),
            drift_wanted: RwSignal::new(DriftWanted::default()),
            drift_read: RwSignal::new(DriftRead::default()),
        }
    }

    /// The state provided by the root.
    pub fn expect() -> AppState {
        expect_context::<AppState>()
    }

    /// Changes the loader's status; subscribers wake only when it differs.
    pub fn update_status(&self, change: impl FnOnce(&mut LoadStatus)) {
        let Some(mut next) = self.status.try_get_untracked() else {
            return;
        };
        change(&mut next);
        set_if_changed(self.status, next);
    }

    /// Reads the loader's status (tracked).
    pub fn status<T>(&self, read: impl FnOnce(&LoadStatus) -> T) -> T {
        self.status.with(read)
    }

    /// Reads the loader's status (untracked).
    pub fn status_untracked<T>(&self, read: impl FnOnce(&LoadStatus) -> T) -> T {
        self.status.with_untracked(read)
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
