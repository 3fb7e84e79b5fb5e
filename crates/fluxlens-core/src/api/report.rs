//! `GET /api/v1/report` — the FluxReport (§6.1). Every `spec` field may be absent.

use crate::lenient;
use serde::{Deserialize, Serialize};

/// The cluster report.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FluxReport {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub metadata: ReportMeta,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub spec: ReportSpec,
}

/// Report metadata; `namespace` is the operator namespace.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct ReportMeta {
    #[serde(default, deserialize_with = "lenient::opt")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub namespace: Option<String>,
}

/// The report body.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportSpec {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub distribution: Distribution,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub cluster: Option<ClusterInfo>,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub operator: Option<OperatorInfo>,
    #[serde(default, deserialize_with = "lenient::vec")]
    pub components: Vec<Component>,
    #[serde(default, deserialize_with = "lenient::vec")]
    pub reconcilers: Vec<ReconcilerStats>,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub sync: Option<SyncStatus>,
    #[serde(default, deserialize_with = "lenient::vec")]
    pub namespaces: Vec<String>,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub user_info: Option<UserInfo>,
}

/// `spec.distribution`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Distribution {
    #[serde(default, deserialize_with = "lenient::opt")]
    pub entitlement: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub status: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub version: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub managed_by: Option<String>,
}

/// `spec.cluster`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterInfo {
    #[serde(default, deserialize_with = "lenient::opt")]
    pub server_version: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub platform: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub nodes: Option<u64>,
}

/// `spec.operator`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OperatorInfo {
    #[serde(default, deserialize_with = "lenient::opt")]
    pub version: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub platform: Option<String>,
}

/// One controller Deployment (`spec.components[]`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct Component {
    #[serde(default)]
    pub name: String,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub ready: Option<bool>,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub status: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub image: Option<String>,
}

/// Per-kind counters (`spec.reconcilers[]`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReconcilerStats {
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub stats: Stats,
}

/// The counters of one kind.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub running: u64,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub failing: u64,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub suspended: u64,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub total_size: Option<String>,
}

impl Stats {
    /// Objects of this kind visible to the user (running + suspended).
    pub fn total(&self) -> u64 {
        self.running + self.suspended
    }
}

/// `spec.sync` — the cluster-sync Kustomization.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct SyncStatus {
    #[serde(default)]
    pub id: String,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub path: Option<String>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub ready: bool,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub status: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub source: Option<String>,
}

/// `spec.userInfo` (injected by the web server).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct UserInfo {
    #[serde(default, deserialize_with = "lenient::opt")]
    pub username: Option<String>,
}

impl FluxReport {
    /// The operator namespace (`metadata.namespace`), `flux-system` when absent.
    pub fn operator_namespace(&self) -> &str {
        self.metadata.namespace.as_deref().unwrap_or("flux-system")
    }

    /// The counters reported for a kind, if the kind is installed.
    pub fn stats_for(&self, kind: &str) -> Option<&ReconcilerStats> {
        self.spec.reconcilers.iter().find(|r| r.kind == kind)
    }

    /// The name of the cluster-sync Kustomization from `spec.sync.id` (`kustomization/<name>`).
    pub fn sync_kustomization(&self) -> Option<&str> {
        let id = &self.spec.sync.as_ref()?.id;
        let (kind, name) = id.split_once('/')?;
        (kind.eq_ignore_ascii_case("kustomization") && !name.is_empty()).then_some(name)
    }
}
