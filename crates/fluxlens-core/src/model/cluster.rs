use super::key::ObjectKey;
use super::object::FluxObject;
use super::refs::RefKind;
use crate::wire::kind::Kind;
use crate::wire::object::ApiObject;
use crate::wire::report::FluxReport;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;

/// What is known of the Flux CRDs (storage versions need read access to CRDs).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub enum CrdAccess {
    /// Not asked, or the request failed.
    #[default]
    Unknown,
    /// The API answered `Forbidden`: shown as "unknown (no access)", never pass or fail.
    Forbidden,
    /// Being read: the first load shows its view before the CRDs, whose schemas make them the
    /// largest read of all (hundreds of KB on a real cluster, #51); said so until they come.
    Reading,
    /// The CRDs that could be read.
    Known(Vec<ApiObject>),
}

/// Honest notes on how complete the loaded data is (never truncate silently).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LoadNotes {
    /// Kinds whose list came back shorter than the report counts, with the reason (a cap, a
    /// List the server swallowed, truncation). Absence findings for them are withheld.
    #[serde(default)]
    pub incomplete_kinds: Vec<(String, String)>,
    /// Set when nothing can be said of absence at all (the report is not initialised: no
    /// namespaces, no counts).
    #[serde(default)]
    pub partial: Option<String>,
    /// Objects listed in summaries that could not be fetched (`Forbidden`, `Error`).
    pub unreadable: Vec<(ObjectKey, String)>,
    /// References that look missing and that the confirming read did not answer for (it
    /// failed, timed out, or they were beyond its cap), with why: "not confirmed", never
    /// missing.
    #[serde(default)]
    pub unconfirmed: Vec<(ObjectKey, String)>,
    /// References whose last renewal could not be confirmed, with why: the server's answer
    /// from before it stands (said so), rather than being taken back by a failed read.
    #[serde(default)]
    pub kept_answers: Vec<(ObjectKey, String)>,
    /// When the data was captured (Unix ms).
    pub captured_at_ms: Option<i64>,
}

impl LoadNotes {
    /// The notice for answers kept over a failed renewal: "The last check of 1 reference
    /// failed (the confirming read failed (HTTP 504)): the server's earlier answer for it stands."
    pub fn kept_notice(&self) -> Option<String> {
        let (_, why) = self.kept_answers.first()?;
        let n = self.kept_answers.len();
        Some(format!(
            "The last check of {} failed ({why}): the server's earlier answer for {} stands.",
            crate::util::words::plural(n, "reference"),
            crate::util::words::agree(n, "it", "them")
        ))
    }

    /// Why a kind's list cannot be trusted to be complete, if it cannot.
    pub fn incomplete_reason(&self, kind: &str) -> Option<&str> {
        self.partial.as_deref().or_else(|| {
            self.incomplete_kinds
                .iter()
                .find(|(k, _)| k == kind)
                .map(|(_, why)| why.as_str())
        })
    }
}

/// The whole cluster as fluxlens sees it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Cluster {
    pub report: FluxReport,
    /// Objects sorted by key.
    objects: Vec<FluxObject>,
    #[serde(skip)]
    index: HashMap<ObjectKey, usize>,
    pub crds: CrdAccess,
    pub notes: LoadNotes,
    /// The server's answers for keys that looked missing or are not Flux objects (§0.2).
    #[serde(skip)]
    pub confirmations: std::collections::BTreeMap<ObjectKey, crate::model::Answer>,
    /// Recent events of the FluxInstance (one request; ENT-14 reads `OutdatedVersion`).
    #[serde(default)]
    pub instance_events: Vec<crate::wire::events::Event>,
}

impl Cluster {
    /// Whether two loads say the same thing (everything but the capture time): a poll that
    /// changes nothing must change nothing on screen (#23).
    pub fn same_data(&self, other: &Cluster) -> bool {
        let notes = |n: &LoadNotes| LoadNotes {
            captured_at_ms: None,
            ..n.clone()
        };
        self.report == other.report
            && self.objects == other.objects
            && self.crds == other.crds
            && self.confirmations == other.confirmations
            && self.instance_events == other.instance_events
            && notes(&self.notes) == notes(&other.notes)
    }

    /// Builds the model from the report and full objects (duplicates: last one wins).
    pub fn new(
        report: FluxReport,
        objects: impl IntoIterator<Item = ApiObject>,
        crds: CrdAccess,
    ) -> Cluster {
        Cluster::from_shared(report, objects.into_iter().map(Arc::new), crds)
    }

    /// [`Cluster::new`] over objects shared with their reader (the poller keeps them between
    /// polls): each model object holds its API object without copying it.
    pub fn from_shared(
        report: FluxReport,
        objects: impl IntoIterator<Item = Arc<ApiObject>>,
        crds: CrdAccess,
    ) -> Cluster {
        let mut map: HashMap<ObjectKey, FluxObject> = HashMap::new();
        for o in objects.into_iter().filter_map(FluxObject::from_api) {
            map.insert(o.key.clone(), o);
        }
        let mut objects: Vec<FluxObject> = map.into_values().collect();
        crate::util::sort::by(&mut objects, |a, b| a.key.cmp(&b.key));
        super::owners::derive(&mut objects);
        let mut c = Cluster {
            report,
            objects,
            index: HashMap::new(),
            crds,
            notes: LoadNotes::default(),
            confirmations: Default::default(),
            instance_events: Vec::new(),
        };
        c.reindex();
        c
    }

    /// Rebuilds the key index (after deserialisation).
    pub fn reindex(&mut self) {
        self.index = self
            .objects
            .iter()
            .enumerate()
            .map(|(i, o)| (o.key.clone(), i))
            .collect();
    }

    /// All objects, sorted by key.
    pub fn objects(&self) -> &[FluxObject] {
        &self.objects
    }

    /// Looks an object up by key.
    pub fn get(&self, key: &ObjectKey) -> Option<&FluxObject> {
        self.index.get(key).map(|&i| &self.objects[i])
    }

    /// Whether an object exists.
    pub fn contains(&self, key: &ObjectKey) -> bool {
        self.index.contains_key(key)
    }

    /// Objects of one kind.
    pub fn of_kind<'a>(&'a self, kind: &'a Kind) -> impl Iterator<Item = &'a FluxObject> + 'a {
        self.objects.iter().filter(move |o| &o.key.kind == kind)
    }

    /// The operator namespace.
    pub fn operator_namespace(&self) -> &str {
        self.report.operator_namespace()
    }

    /// The FluxInstance (the operator allows one, named `flux`, in its namespace).
    pub fn instance(&self) -> Option<&FluxObject> {
        let ns = self.operator_namespace();
        self.of_kind(&Kind::FluxInstance)
            .find(|o| o.key.namespace == ns)
            .or_else(|| self.of_kind(&Kind::FluxInstance).next())
    }

    /// What the FluxInstance asks for in `spec.distribution` (version range, registry,
    /// variant, pull secret, artifact) — not what runs: that is the report's distribution.
    pub fn instance_distribution(&self) -> Option<&crate::wire::object::InstanceDistribution> {
        self.instance()?.raw.spec.distribution.as_ref()
    }

    /// The cluster-sync Kustomization key: the report's `sync.id`, else the FluxInstance sync.
    pub fn root_kustomization(&self) -> Option<ObjectKey> {
        let ns = self.operator_namespace();
        if let Some(name) = self.report.sync_kustomization() {
            return Some(ObjectKey::new(Kind::Kustomization, ns, name));
        }
        let inst = self.instance()?;
        let sync = inst.raw.spec.sync.as_ref()?;
        let name = sync
            .name
            .clone()
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| inst.key.namespace.clone());
        Some(ObjectKey::new(
            Kind::Kustomization,
            inst.key.namespace.clone(),
            name,
        ))
    }

    /// The root source: what the cluster-sync Kustomization reads (§1.5 of the rule catalog).
    /// Falls back to the FluxInstance sync kind/name when the Kustomization is not readable.
    pub fn root_source(&self) -> Option<ObjectKey> {
        let ks = self.root_kustomization()?;
        if let Some(obj) = self.get(&ks)
            && let Some(r) = obj.refs.iter().find(|r| r.kind == RefKind::Source)
        {
            return Some(r.target.clone());
        }
        let inst = self.instance()?;
        inst.refs
            .iter()
            .find(|r| r.kind == RefKind::Sync && r.target.kind != Kind::Kustomization)
            .map(|r| r.target.clone())
    }

    /// The owners of `key` upwards along `managedBy`: its applier, that one's applier, and so
    /// on to the top. Bounded (64) and stopping at a repeat, as a corrupted chain must not loop.
    pub fn owner_chain(&self, key: &ObjectKey) -> Vec<ObjectKey> {
        let mut chain: Vec<ObjectKey> = Vec::new();
        let mut cur = self.get(key).and_then(|o| o.managed_by.clone());
        while let Some(k) = cur {
            if chain.len() >= 64 || chain.contains(&k) || &k == key {
                break;
            }
            cur = self.get(&k).and_then(|o| o.managed_by.clone());
            chain.push(k);
        }
        chain
    }

    /// The namespaces that hold objects, sorted and unique.
    pub fn namespaces(&self) -> Vec<String> {
        let mut ns: Vec<String> = self
            .objects
            .iter()
            .map(|o| o.key.namespace.clone())
            .collect();
        crate::util::sort::natural(&mut ns);
        ns.dedup();
        ns
    }

    /// Counts objects by kind (sorted by kind name).
    pub fn count_by_kind(&self) -> Vec<(Kind, usize)> {
        let mut m: std::collections::BTreeMap<String, (Kind, usize)> = Default::default();
        for o in &self.objects {
            m.entry(o.key.kind.as_str().to_string())
                .or_insert((o.key.kind.clone(), 0))
                .1 += 1;
        }
        m.into_values().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_and_its_copies_share_each_object_with_its_reader() {
        // The poller keeps what it read between polls; building the model and copying it for
        // the first load's preview must not copy the decoded objects (#51).
        let read: Arc<ApiObject> = Arc::new(
            serde_json::from_str(
                r#"{"kind":"GitRepository","metadata":{"name":"a","namespace":"x"},"spec":{"url":"https://e.com/r.git"}}"#,
            )
            .unwrap(),
        );
        let model = Cluster::from_shared(FluxReport::default(), [read.clone()], CrdAccess::Unknown);
        let copy = model.clone();
        let key = ObjectKey::new(Kind::GitRepository, "x", "a");
        assert!(Arc::ptr_eq(&model.get(&key).unwrap().raw, &read));
        assert!(Arc::ptr_eq(&copy.get(&key).unwrap().raw, &read));
        assert!(copy.same_data(&model));
    }
}
