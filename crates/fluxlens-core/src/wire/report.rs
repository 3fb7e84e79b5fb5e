//! `GET /api/v1/report` — the FluxReport (§6.1). Every `spec` field may be absent.

crate::json_struct!(
    /// The cluster report.
    pub struct FluxReport {
        pub metadata: ReportMeta = "metadata",
        pub spec: ReportSpec = "spec",
    }
);

crate::json_struct!(
    /// Report metadata; `namespace` is the operator namespace.
    pub struct ReportMeta {
        pub name: Option<String> = "name",
        pub namespace: Option<String> = "namespace",
    }
);

crate::json_struct!(
    /// The report body.
    pub struct ReportSpec {
        pub distribution: Distribution = "distribution",
        pub cluster: Option<ClusterInfo> = "cluster",
        pub operator: Option<OperatorInfo> = "operator",
        pub components: Vec<Component> = "components",
        pub reconcilers: Vec<ReconcilerStats> = "reconcilers",
        pub sync: Option<SyncStatus> = "sync",
        pub namespaces: Vec<String> = "namespaces",
        pub user_info: Option<UserInfo> = "userInfo",
    }
);

crate::json_struct!(
    /// `spec.distribution`.
    pub struct Distribution {
        pub entitlement: Option<String> = "entitlement",
        pub status: Option<String> = "status",
        pub version: Option<String> = "version",
        pub managed_by: Option<String> = "managedBy",
    }
);

crate::json_struct!(
    /// `spec.cluster`.
    pub struct ClusterInfo {
        pub server_version: Option<String> = "serverVersion",
        pub platform: Option<String> = "platform",
        pub nodes: Option<u64> = "nodes",
    }
);

crate::json_struct!(
    /// `spec.operator`.
    pub struct OperatorInfo {
        pub version: Option<String> = "version",
        pub platform: Option<String> = "platform",
    }
);

crate::json_struct!(
    /// One controller Deployment (`spec.components[]`).
    pub struct Component {
        pub name: String = "name",
        pub ready: Option<bool> = "ready",
        pub status: Option<String> = "status",
        pub image: Option<String> = "image",
    }
);

crate::json_struct!(
    /// Per-kind counters (`spec.reconcilers[]`).
    pub struct ReconcilerStats {
        pub api_version: String = "apiVersion",
        pub kind: String = "kind",
        pub stats: Stats = "stats",
    }
);

crate::json_struct!(
    /// The counters of one kind.
    pub struct Stats {
        pub running: u64 = "running",
        pub failing: u64 = "failing",
        pub suspended: u64 = "suspended",
        pub total_size: Option<String> = "totalSize",
    }
);

impl Stats {
    /// Objects of this kind visible to the user (running + suspended).
    pub fn total(&self) -> u64 {
        self.running + self.suspended
    }
}

crate::json_struct!(
    /// `spec.sync` — the cluster-sync Kustomization.
    pub struct SyncStatus {
        pub id: String = "id",
        pub path: Option<String> = "path",
        pub ready: bool = "ready",
        pub status: Option<String> = "status",
        pub source: Option<String> = "source",
    }
);

crate::json_struct!(
    /// `spec.userInfo` (injected by the web server, FO report.go `GetReport`): the username
    /// always; `impersonation` only when the server has an `authentication` block (a session);
    /// `provider` (the ID token's claims) and `sessionStart` only under OAuth2.
    pub struct UserInfo {
        pub username: Option<String> = "username",
        pub impersonation: Option<Impersonation> = "impersonation",
        /// The provider's string claims (the presence is what tells OAuth2 apart).
        pub provider: Option<std::collections::BTreeMap<String, String>> = "provider",
        pub session_start: Option<String> = "sessionStart",
    }
);

crate::json_struct!(
    /// Who the server impersonates for this user.
    pub struct Impersonation {
        pub username: Option<String> = "username",
        pub groups: Vec<String> = "groups",
    }
);

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
