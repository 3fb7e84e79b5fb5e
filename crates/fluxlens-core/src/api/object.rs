//! A full object as `GET /api/v1/resource` and `POST /api/v1/inventory/objects` return it
//! (§6.4): reduced metadata, untouched `spec`, native `status` plus server-injected fields.
//!
//! `spec` and `status` are unions over every Flux kind: each field is optional and decoded
//! leniently, so one kind's shape (HelmChart `spec.chart: "podinfo"`) cannot break another's
//! (HelmRelease `spec.chart: {spec: …}`).

use crate::lenient;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

macro_rules! lenient_struct {
    ($(#[$m:meta])* $name:ident { $($(#[$fm:meta])* $field:ident : $ty:ty => $json:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
        pub struct $name {
            $(
                $(#[$fm])*
                #[serde(rename = $json, default, deserialize_with = "lenient::opt", skip_serializing_if = "Option::is_none")]
                pub $field: Option<$ty>,
            )*
        }
    };
}

/// The object.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApiObject {
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub api_version: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub kind: Option<String>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub metadata: ObjectMeta,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub spec: Spec,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub status: ObjectStatus,
}

/// Reduced metadata.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct ObjectMeta {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub name: String,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub namespace: String,
    #[serde(
        default,
        deserialize_with = "lenient::string_map",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub labels: BTreeMap<String, String>,
    #[serde(
        default,
        deserialize_with = "lenient::string_map",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub annotations: BTreeMap<String, String>,
}

/// A reference to another object (`sourceRef`, `chartRef`, `dependsOn[]`, `sources[]`, …).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CrossRef {
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub api_version: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub kind: Option<String>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub name: String,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub namespace: Option<String>,
}

/// A `{name}` reference to a Secret, ConfigMap or Provider.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct LocalRef {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub name: String,
}

/// `spec.ref`: an object on Git/OCI sources, a plain string on `FluxInstance.spec.sync`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum RefField {
    Plain(String),
    Structured(SourceRef),
}

lenient_struct!(
    /// Git (`branch`, `tag`, `semver`, `name`, `commit`) and OCI (`tag`, `semver`, `digest`) refs.
    SourceRef {
        branch: String => "branch",
        tag: String => "tag",
        semver: String => "semver",
        name: String => "name",
        commit: String => "commit",
        digest: String => "digest",
    }
);

/// `spec.verify` on OCIRepository, HelmChart, GitRepository and HelmRelease chart templates.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Verify {
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub provider: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub mode: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub secret_ref: Option<LocalRef>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub trusted_root_secret_ref: Option<LocalRef>,
    #[serde(
        rename = "matchOIDCIdentity",
        default,
        deserialize_with = "lenient::vec",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub match_oidc_identity: Vec<OidcIdentity>,
}

/// One keyless identity matcher (issuer and subject are RE2 regexes).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct OidcIdentity {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub issuer: String,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub subject: String,
}

/// `spec.chart` of a HelmRelease (`{spec: …}`) or of a HelmChart (the chart name).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum ChartField {
    Name(String),
    Template { spec: Box<ChartTemplateSpec> },
}

/// `HelmRelease.spec.chart.spec`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartTemplateSpec {
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub chart: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub version: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub source_ref: Option<CrossRef>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub verify: Option<Verify>,
}

lenient_struct!(
    /// `FluxInstance.spec.distribution`.
    InstanceDistribution {
        version: String => "version",
        registry: String => "registry",
        variant: String => "variant",
        image_pull_secret: String => "imagePullSecret",
        artifact: String => "artifact",
    }
);

lenient_struct!(
    /// `FluxInstance.spec.sync`.
    InstanceSync {
        name: String => "name",
        kind: String => "kind",
        url: String => "url",
        ref_: String => "ref",
        path: String => "path",
        pull_secret: String => "pullSecret",
        provider: String => "provider",
        interval: String => "interval",
    }
);

/// `FluxInstance.spec.kustomize`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct InstanceKustomize {
    #[serde(
        default,
        deserialize_with = "lenient::vec",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub patches: Vec<KustomizePatch>,
}

/// One kustomize patch with an optional target selector.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct KustomizePatch {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub patch: String,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub target: Option<PatchTarget>,
}

lenient_struct!(
    /// Kustomize patch target; `group`…`namespace` are regexes anchored by kustomize.
    PatchTarget {
        group: String => "group",
        version: String => "version",
        kind: String => "kind",
        name: String => "name",
        namespace: String => "namespace",
        label_selector: String => "labelSelector",
        annotation_selector: String => "annotationSelector",
    }
);

/// Alert `eventSources[]` / Receiver `resources[]` entry.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventSource {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub kind: String,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub name: String,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub namespace: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::string_map",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub match_labels: BTreeMap<String, String>,
}

/// ArtifactGenerator `spec.artifacts[]` (each produces an ExternalArtifact of that name).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct GeneratedArtifact {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub name: String,
}

/// CRD `spec.versions[]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct CrdVersion {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub name: String,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub served: bool,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub storage: bool,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub deprecated: bool,
}

/// The union of every `spec` field fluxlens reads.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Spec {
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub suspend: Option<bool>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub source_ref: Option<CrossRef>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub chart_ref: Option<CrossRef>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub chart: Option<ChartField>,
    #[serde(
        default,
        deserialize_with = "lenient::vec",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub depends_on: Vec<CrossRef>,
    /// ArtifactGenerator inputs.
    #[serde(
        default,
        deserialize_with = "lenient::vec",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub sources: Vec<CrossRef>,
    /// ArtifactGenerator outputs.
    #[serde(
        default,
        deserialize_with = "lenient::vec",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub artifacts: Vec<GeneratedArtifact>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub verify: Option<Verify>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub url: Option<String>,
    #[serde(
        rename = "ref",
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub ref_: Option<RefField>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub secret_ref: Option<LocalRef>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub cert_secret_ref: Option<LocalRef>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub provider: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub service_account_name: Option<String>,
    #[serde(
        rename = "type",
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub type_: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub interval: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub path: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub prune: Option<bool>,
    // FluxInstance
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub distribution: Option<InstanceDistribution>,
    #[serde(
        default,
        deserialize_with = "lenient::vec",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub components: Vec<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub sync: Option<InstanceSync>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub kustomize: Option<InstanceKustomize>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub migrate_resources: Option<bool>,
    // Alert / Receiver
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub provider_ref: Option<LocalRef>,
    #[serde(
        default,
        deserialize_with = "lenient::vec",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub event_sources: Vec<EventSource>,
    #[serde(
        default,
        deserialize_with = "lenient::vec",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub resources: Vec<EventSource>,
    // CustomResourceDefinition
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub group: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::vec",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub versions: Vec<CrdVersion>,
}

/// One status condition.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    #[serde(rename = "type", default, deserialize_with = "lenient::or_default")]
    pub type_: String,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub status: String,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub reason: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub message: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub last_transition_time: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub observed_generation: Option<i64>,
}

/// A source's stored artifact.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Artifact {
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub revision: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub digest: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub last_update_time: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::string_map",
        skip_serializing_if = "BTreeMap::is_empty"
    )]
    pub metadata: BTreeMap<String, String>,
}

lenient_struct!(
    /// `status.reconcilerRef`, injected by the web server.
    ReconcilerRef {
        status: String => "status",
        message: String => "message",
        last_reconciled: String => "lastReconciled",
        managed_by: String => "managedBy",
    }
);

lenient_struct!(
    /// `status.sourceRef`, injected only when the referenced source could be read.
    InjectedSourceRef {
        kind: String => "kind",
        name: String => "name",
        namespace: String => "namespace",
        url: String => "url",
        origin_url: String => "originURL",
        origin_revision: String => "originRevision",
        status: String => "status",
        message: String => "message",
    }
);

/// One inventory entry, normalized from either wire form.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InventoryEntry {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub namespace: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub api_version: String,
}

/// `status.inventory`: the server's array form, or the native `{entries: [{id, v}]}` form.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum InventoryWire {
    List(Vec<InventoryEntry>),
    Entries { entries: Vec<NativeEntry> },
}

/// Native inventory entry: `id = "<ns>_<name>_<group>_<kind>"`, `v = version`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct NativeEntry {
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub v: String,
}

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

lenient_struct!(
    /// `FluxInstance.status.components[]`: the images actually deployed.
    InstanceComponent {
        name: String => "name",
        repository: String => "repository",
        tag: String => "tag",
        digest: String => "digest",
    }
);

/// The union of every `status` field fluxlens reads.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectStatus {
    #[serde(
        default,
        deserialize_with = "lenient::vec",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub conditions: Vec<Condition>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub observed_generation: Option<i64>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub artifact: Option<Artifact>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub reconciler_ref: Option<ReconcilerRef>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub source_ref: Option<InjectedSourceRef>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub inventory: Option<InventoryWire>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub inventory_error: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub last_applied_revision: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub last_attempted_revision: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub last_applied_origin_revision: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub last_artifact_revision: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::vec",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub components: Vec<InstanceComponent>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub webhook_path: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub helm_chart: Option<String>,
    #[serde(
        default,
        deserialize_with = "lenient::vec",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub stored_versions: Vec<String>,
    #[serde(
        default,
        deserialize_with = "lenient::opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub source_verification_mode: Option<String>,
}

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
