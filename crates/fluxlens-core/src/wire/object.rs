//! A full object as `GET /api/v1/resource` and `POST /api/v1/inventory/objects` return it
//! (§6.4): reduced metadata, untouched `spec`, native `status` plus server-injected fields.
//!
//! `spec` and `status` are unions over every Flux kind: each field is optional and decoded
//! leniently, so one kind's shape (HelmChart `spec.chart: "podinfo"`) cannot break another's
//! (HelmRelease `spec.chart: {spec: …}`).

use crate::wire::json::{FromJson, ToJson, Value};
use std::collections::BTreeMap;

crate::json_struct!(
    /// The object.
    pub struct ApiObject {
        pub api_version: Option<String> = "apiVersion",
        pub kind: Option<String> = "kind",
        pub metadata: ObjectMeta = "metadata",
        pub spec: Spec = "spec",
        pub status: ObjectStatus = "status",
    }
);

crate::json_struct!(
    /// Reduced metadata.
    pub struct ObjectMeta {
        pub name: String = "name",
        pub namespace: String = "namespace",
        pub labels: BTreeMap<String, String> = "labels",
        pub annotations: BTreeMap<String, String> = "annotations",
    }
);

crate::json_struct!(
    /// A reference to another object (`sourceRef`, `chartRef`, `dependsOn[]`, `sources[]`, …).
    pub struct CrossRef {
        pub api_version: Option<String> = "apiVersion",
        pub kind: Option<String> = "kind",
        pub name: String = "name",
        pub namespace: Option<String> = "namespace",
    }
);

crate::json_struct!(
    /// A `{name}` reference to a Secret, ConfigMap or Provider.
    pub struct LocalRef {
        pub name: String = "name",
    }
);

/// `spec.ref`: an object on Git/OCI sources, a plain string on `FluxInstance.spec.sync`.
#[derive(Debug, Clone, PartialEq, Hash)]
pub enum RefField {
    Plain(String),
    Structured(SourceRef),
}

impl FromJson for RefField {
    fn from_json(v: &Value) -> Option<Self> {
        match v {
            Value::String(s) => Some(RefField::Plain(s.clone())),
            _ => SourceRef::from_json(v).map(RefField::Structured),
        }
    }
}
impl ToJson for RefField {
    fn to_json(&self) -> Value {
        match self {
            RefField::Plain(s) => s.to_json(),
            RefField::Structured(r) => r.to_json(),
        }
    }
}

crate::json_struct!(
    /// Git (`branch`, `tag`, `semver`, `name`, `commit`) and OCI (`tag`, `semver`, `digest`) refs.
    pub struct SourceRef {
        pub branch: Option<String> = "branch",
        pub tag: Option<String> = "tag",
        pub semver: Option<String> = "semver",
        pub name: Option<String> = "name",
        pub commit: Option<String> = "commit",
        pub digest: Option<String> = "digest",
    }
);

crate::json_struct!(
    /// `spec.verify` on OCIRepository, HelmChart, GitRepository and HelmRelease chart templates.
    pub struct Verify {
        pub provider: Option<String> = "provider",
        pub mode: Option<String> = "mode",
        pub secret_ref: Option<LocalRef> = "secretRef",
        pub trusted_root_secret_ref: Option<LocalRef> = "trustedRootSecretRef",
        pub match_oidc_identity: Vec<OidcIdentity> = "matchOIDCIdentity",
    }
);

crate::json_struct!(
    /// One keyless identity matcher (issuer and subject are RE2 regexes).
    pub struct OidcIdentity {
        pub issuer: String = "issuer",
        pub subject: String = "subject",
    }
);

/// `spec.chart` of a HelmRelease (`{spec: …}`) or of a HelmChart (the chart name).
#[derive(Debug, Clone, PartialEq, Hash)]
pub enum ChartField {
    Name(String),
    Template { spec: Box<ChartTemplateSpec> },
}

impl FromJson for ChartField {
    fn from_json(v: &Value) -> Option<Self> {
        match v {
            Value::String(s) => Some(ChartField::Name(s.clone())),
            _ => Some(ChartField::Template {
                spec: Box::from_json(v.get("spec")?)?,
            }),
        }
    }
}
impl ToJson for ChartField {
    fn to_json(&self) -> Value {
        match self {
            ChartField::Name(s) => s.to_json(),
            ChartField::Template { spec } => crate::wire::json::single("spec", spec.to_json()),
        }
    }
}

crate::json_struct!(
    /// `HelmRelease.spec.chart.spec`.
    pub struct ChartTemplateSpec {
        pub chart: Option<String> = "chart",
        pub version: Option<String> = "version",
        pub source_ref: Option<CrossRef> = "sourceRef",
        pub verify: Option<Verify> = "verify",
    }
);

crate::json_struct!(
    /// `FluxInstance.spec.distribution`.
    pub struct InstanceDistribution {
        pub version: Option<String> = "version",
        pub registry: Option<String> = "registry",
        pub variant: Option<String> = "variant",
        pub image_pull_secret: Option<String> = "imagePullSecret",
        pub artifact: Option<String> = "artifact",
    }
);

crate::json_struct!(
    /// `FluxInstance.spec.sync`.
    pub struct InstanceSync {
        pub name: Option<String> = "name",
        pub kind: Option<String> = "kind",
        pub url: Option<String> = "url",
        pub ref_: Option<String> = "ref",
        pub path: Option<String> = "path",
        pub pull_secret: Option<String> = "pullSecret",
        pub provider: Option<String> = "provider",
        pub interval: Option<String> = "interval",
    }
);

crate::json_struct!(
    /// `FluxInstance.spec.kustomize`.
    pub struct InstanceKustomize {
        pub patches: Vec<KustomizePatch> = "patches",
    }
);

crate::json_struct!(
    /// One kustomize patch with an optional target selector.
    pub struct KustomizePatch {
        pub patch: String = "patch",
        pub target: Option<PatchTarget> = "target",
    }
);

crate::json_struct!(
    /// Kustomize patch target; `group`…`namespace` are regexes anchored by kustomize.
    pub struct PatchTarget {
        pub group: Option<String> = "group",
        pub version: Option<String> = "version",
        pub kind: Option<String> = "kind",
        pub name: Option<String> = "name",
        pub namespace: Option<String> = "namespace",
        pub label_selector: Option<String> = "labelSelector",
        pub annotation_selector: Option<String> = "annotationSelector",
    }
);

crate::json_struct!(
    /// Alert `eventSources[]` / Receiver `resources[]` entry.
    pub struct EventSource {
        pub kind: String = "kind",
        pub name: String = "name",
        pub namespace: Option<String> = "namespace",
        pub match_labels: BTreeMap<String, String> = "matchLabels",
    }
);

crate::json_struct!(
    /// ArtifactGenerator `spec.artifacts[]` (each produces an ExternalArtifact of that name).
    pub struct GeneratedArtifact {
        pub name: String = "name",
    }
);

crate::json_struct!(
    /// CRD `spec.versions[]`.
    pub struct CrdVersion {
        pub name: String = "name",
        pub served: bool = "served",
        pub storage: bool = "storage",
        pub deprecated: bool = "deprecated",
    }
);

crate::json_struct!(
    /// The union of every `spec` field fluxlens reads.
    pub struct Spec {
        pub suspend: Option<bool> = "suspend",
        pub source_ref: Option<CrossRef> = "sourceRef",
        pub chart_ref: Option<CrossRef> = "chartRef",
        pub chart: Option<ChartField> = "chart",
        pub depends_on: Vec<CrossRef> = "dependsOn",
        /// ArtifactGenerator inputs.
        pub sources: Vec<CrossRef> = "sources",
        /// ArtifactGenerator outputs.
        pub artifacts: Vec<GeneratedArtifact> = "artifacts",
        pub verify: Option<Verify> = "verify",
        pub url: Option<String> = "url",
        pub ref_: Option<RefField> = "ref",
        pub secret_ref: Option<LocalRef> = "secretRef",
        pub cert_secret_ref: Option<LocalRef> = "certSecretRef",
        pub provider: Option<String> = "provider",
        pub service_account_name: Option<String> = "serviceAccountName",
        pub type_: Option<String> = "type",
        pub interval: Option<String> = "interval",
        pub path: Option<String> = "path",
        pub prune: Option<bool> = "prune",
        pub target_namespace: Option<String> = "targetNamespace",
        // FluxInstance
        pub distribution: Option<InstanceDistribution> = "distribution",
        pub components: Vec<String> = "components",
        pub sync: Option<InstanceSync> = "sync",
        pub kustomize: Option<InstanceKustomize> = "kustomize",
        pub migrate_resources: Option<bool> = "migrateResources",
        // Alert / Receiver
        pub provider_ref: Option<LocalRef> = "providerRef",
        pub event_sources: Vec<EventSource> = "eventSources",
        pub resources: Vec<EventSource> = "resources",
        // HelmRelease: a release for a remote cluster has no inventory the server can read.
        pub kube_config: Option<KubeConfigRef> = "kubeConfig",
        // CustomResourceDefinition
        pub group: Option<String> = "group",
        pub versions: Vec<CrdVersion> = "versions",
    }
);

crate::json_struct!(
    /// One status condition.
    pub struct Condition {
        pub type_: String = "type",
        pub status: String = "status",
        pub reason: Option<String> = "reason",
        pub message: Option<String> = "message",
        pub last_transition_time: Option<String> = "lastTransitionTime",
        pub observed_generation: Option<i64> = "observedGeneration",
    }
);

crate::json_struct!(
    /// A source's stored artifact.
    pub struct Artifact {
        pub revision: Option<String> = "revision",
        pub digest: Option<String> = "digest",
        pub last_update_time: Option<String> = "lastUpdateTime",
        pub metadata: BTreeMap<String, String> = "metadata",
    }
);

crate::json_struct!(
    /// `status.reconcilerRef`, injected by the web server.
    pub struct ReconcilerRef {
        pub status: Option<String> = "status",
        pub message: Option<String> = "message",
        pub last_reconciled: Option<String> = "lastReconciled",
        pub managed_by: Option<String> = "managedBy",
    }
);

crate::json_struct!(
    /// `status.sourceRef`, injected only when the referenced source could be read.
    pub struct InjectedSourceRef {
        pub kind: Option<String> = "kind",
        pub name: Option<String> = "name",
        pub namespace: Option<String> = "namespace",
        pub url: Option<String> = "url",
        pub origin_url: Option<String> = "originURL",
        pub origin_revision: Option<String> = "originRevision",
        pub status: Option<String> = "status",
        pub message: Option<String> = "message",
    }
);

crate::json_struct!(
    /// One inventory entry, normalized from either wire form.
    #[derive(Eq)]
    pub struct InventoryEntry {
        pub name: String = "name",
        pub namespace: String = "namespace",
        pub kind: String = "kind",
        pub api_version: String = "apiVersion",
    }
);

/// `status.inventory`: the server's array form, or the native `{entries: [{id, v}]}` form.
#[derive(Debug, Clone, PartialEq, Hash)]
pub enum InventoryWire {
    List(Vec<InventoryEntry>),
    Entries { entries: Vec<NativeEntry> },
}

impl FromJson for InventoryWire {
    fn from_json(v: &Value) -> Option<Self> {
        match v {
            Value::Array(_) => Vec::from_json(v).map(InventoryWire::List),
            _ => Some(InventoryWire::Entries {
                entries: Vec::from_json(v.get("entries")?)?,
            }),
        }
    }
}
impl ToJson for InventoryWire {
    fn to_json(&self) -> Value {
        match self {
            InventoryWire::List(l) => l.to_json(),
            InventoryWire::Entries { entries } => {
                crate::wire::json::single("entries", entries.to_json())
            }
        }
    }
}

crate::json_struct!(
    /// Native inventory entry: `id = "<ns>_<name>_<group>_<kind>"`, `v = version`.
    pub struct NativeEntry {
        pub id: String = "id",
        pub v: String = "v",
    }
);

impl InventoryWire {
    /// The entries in one shape, whichever form came over the wire.
    pub fn entries(&self) -> Vec<InventoryEntry> {
        match self {
            InventoryWire::List(l) => l.clone(),
            InventoryWire::Entries { entries } => {
                entries.iter().filter_map(NativeEntry::parse).collect()
            }
        }
    }
}

impl NativeEntry {
    /// Parses `<ns>_<name>_<group>_<kind>`; names cannot contain `_`, groups may be empty.
    pub fn parse(&self) -> Option<InventoryEntry> {
        let mut parts = self.id.splitn(4, '_');
        let namespace = parts.next()?.to_string();
        let name = parts.next()?.to_string();
        let group = parts.next()?;
        let kind = parts.next()?.to_string();
        if name.is_empty() || kind.is_empty() {
            return None;
        }
        let api_version = if group.is_empty() {
            self.v.clone()
        } else {
            format!("{group}/{}", self.v)
        };
        Some(InventoryEntry {
            name,
            namespace,
            kind,
            api_version,
        })
    }
}

crate::json_struct!(
    /// `FluxInstance.status.components[]`: the images actually deployed.
    pub struct InstanceComponent {
        pub name: Option<String> = "name",
        pub repository: Option<String> = "repository",
        pub tag: Option<String> = "tag",
        pub digest: Option<String> = "digest",
    }
);

crate::json_struct!(
    /// The union of every `status` field fluxlens reads.
    pub struct ObjectStatus {
        pub conditions: Vec<Condition> = "conditions",
        pub observed_generation: Option<i64> = "observedGeneration",
        pub artifact: Option<Artifact> = "artifact",
        pub reconciler_ref: Option<ReconcilerRef> = "reconcilerRef",
        pub source_ref: Option<InjectedSourceRef> = "sourceRef",
        pub inventory: Option<InventoryWire> = "inventory",
        pub inventory_error: Option<String> = "inventoryError",
        pub last_applied_revision: Option<String> = "lastAppliedRevision",
        pub last_attempted_revision: Option<String> = "lastAttemptedRevision",
        pub last_applied_origin_revision: Option<String> = "lastAppliedOriginRevision",
        pub last_artifact_revision: Option<String> = "lastArtifactRevision",
        pub components: Vec<InstanceComponent> = "components",
        pub webhook_path: Option<String> = "webhookPath",
        pub helm_chart: Option<String> = "helmChart",
        pub stored_versions: Vec<String> = "storedVersions",
        pub source_verification_mode: Option<String> = "sourceVerificationMode",
        // HelmRelease (Flux ≤ 2.7 keeps its inventory in Helm storage, found through these);
        // `history` is every history-keeping kind's (see `HistoryEntry`).
        pub storage_namespace: Option<String> = "storageNamespace",
        pub history: Vec<HistoryEntry> = "history",
    }
);

crate::json_struct!(
    /// `HelmRelease.spec.kubeConfig`: present means the release targets another cluster.
    pub struct KubeConfigRef {
        pub secret_ref: Option<LocalRef> = "secretRef",
    }
);

crate::json_struct!(
    /// One `status.history[]` entry, the newest first. A HelmRelease's are Helm releases
    /// (helm-controller: `firstDeployed`, `lastDeployed`, `status`, chart and app version); the
    /// FluxInstance's, a ResourceSet's and a Kustomization's (Flux 2.7+) are reconcile snapshots
    /// (flux-operator `api/v1/history_types.go` `Snapshot`: `firstReconciled`, `lastReconciled`,
    /// `lastReconciledStatus`, `metadata`), as the operator UI's `HistoryTimeline` reads them.
    pub struct HistoryEntry {
        pub digest: Option<String> = "digest",
        // Helm releases.
        pub name: Option<String> = "name",
        pub namespace: Option<String> = "namespace",
        pub version: Option<i64> = "version",
        pub chart_name: Option<String> = "chartName",
        pub chart_version: Option<String> = "chartVersion",
        pub app_version: Option<String> = "appVersion",
        pub oci_digest: Option<String> = "ociDigest",
        pub first_deployed: Option<String> = "firstDeployed",
        pub last_deployed: Option<String> = "lastDeployed",
        pub status: Option<String> = "status",
        // Reconcile snapshots.
        pub first_reconciled: Option<String> = "firstReconciled",
        pub last_reconciled: Option<String> = "lastReconciled",
        pub last_reconciled_duration: Option<String> = "lastReconciledDuration",
        pub last_reconciled_status: Option<String> = "lastReconciledStatus",
        pub total_reconciliations: Option<i64> = "totalReconciliations",
        pub metadata: BTreeMap<String, String> = "metadata",
    }
);

impl ApiObject {
    /// The condition of the given type, if present.
    pub fn condition(&self, type_: &str) -> Option<&Condition> {
        self.status.conditions.iter().find(|c| c.type_ == type_)
    }
}

impl ObjectStatus {
    /// The inventory entries in one shape (empty when absent).
    pub fn inventory_entries(&self) -> Vec<InventoryEntry> {
        self.inventory
            .as_ref()
            .map(InventoryWire::entries)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> ApiObject {
        let o: ApiObject = serde_json::from_str(text).unwrap();
        let again: ApiObject = serde_json::from_str(&serde_json::to_string(&o).unwrap()).unwrap();
        assert_eq!(o, again, "{text}");
        o
    }

    #[test]
    fn unions_decode_by_shape_and_survive_a_round_trip() {
        // spec.ref: a string on FluxInstance sync, an object on sources; a number is dropped.
        let o = round_trip(r#"{"spec":{"ref":"refs/heads/main"}}"#);
        assert_eq!(o.spec.ref_, Some(RefField::Plain("refs/heads/main".into())));
        let o = round_trip(r#"{"spec":{"ref":{"tag":"v1","branch":7}}}"#);
        let Some(RefField::Structured(r)) = o.spec.ref_ else {
            panic!()
        };
        assert_eq!((r.tag.as_deref(), r.branch), (Some("v1"), None));
        assert_eq!(round_trip(r#"{"spec":{"ref":3}}"#).spec.ref_, None);
        // spec.chart: a name (HelmChart) or {spec: …} (HelmRelease); an object without spec is dropped.
        let o = round_trip(r#"{"spec":{"chart":"podinfo"}}"#);
        assert_eq!(o.spec.chart, Some(ChartField::Name("podinfo".into())));
        let o = round_trip(r#"{"spec":{"chart":{"spec":{"chart":"podinfo","version":"6.x"}}}}"#);
        let Some(ChartField::Template { spec }) = o.spec.chart else {
            panic!()
        };
        assert_eq!(spec.version.as_deref(), Some("6.x"));
        assert_eq!(
            round_trip(r#"{"spec":{"chart":{"name":"x"}}}"#).spec.chart,
            None
        );
        // status.inventory: the server's list, or the native {entries: [{id, v}]}.
        let o = round_trip(r#"{"status":{"inventory":[{"name":"a","kind":"ConfigMap"}]}}"#);
        assert_eq!(o.status.inventory_entries()[0].name, "a");
        let o = round_trip(
            r#"{"status":{"inventory":{"entries":[{"id":"ns_a_apps_Deployment","v":"v1"}]}}}"#,
        );
        assert_eq!(o.status.inventory_entries()[0].api_version, "apps/v1");
        assert_eq!(
            round_trip(r#"{"status":{"inventory":{"x":1}}}"#)
                .status
                .inventory,
            None
        );
    }
}
