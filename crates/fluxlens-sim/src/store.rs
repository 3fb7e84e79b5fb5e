//! The simulated cluster: scenario data and the read queries the endpoints answer, with the
//! real server's semantics (caps, sorting, filters, `null` lists, `{}` for not found, the
//! user's namespaces, swallowed List errors). Each behaviour names the Go function it
//! mirrors; `conformance.rs` pins them.

use crate::computed::{Computed, IndexRow, KindStats, NsStats, Seen};
use crate::faults::Mode;
use crate::filter;
use crate::served;
use fluxlens_core::Kind;
use fluxlens_core::load::listed_by_default;
use fluxlens_core::model::{FluxObject, RefKind};
use fluxlens_core::wire::object::ApiObject;
use fluxlens_core::wire::server::lists_every_kind_at;
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

/// Results per kind in live mode (FO internal/web/resources.go `GetResourcesStatus`).
pub const RESOURCES_CAP_PER_KIND: usize = 2500;
/// Results in total when lists come from the index (FO search_index.go `SearchResources`).
pub const CACHED_CAP: usize = 2500;
/// Items processed per batch read; the rest are dropped without error (API reference §6.6).
pub const INVENTORY_CAP: usize = 2000;
/// Search results in total (FO search.go `SearchHandler`).
pub const SEARCH_CAP: usize = 10;
/// Events per kind when one kind is asked, and per kind when several are (FO events.go `GetEvents`).
pub const EVENTS_CAP_ONE_KIND: usize = 1000;
pub const EVENTS_CAP_PER_KIND: usize = 500;

/// Fields only the single-object GET adds; a scenario must never carry them (the batch read
/// would then send what the real one never does).
pub const SERVER_INJECTED: [&str; 6] = [
    "reconcilerRef",
    "sourceRef",
    "inputProviderRefs",
    "helmValues",
    "userActions",
    "inventoryError",
];

/// One stored object: the JSON as stored in the cluster, and what core derives from the
/// sanitized form the server hands out.
pub struct Entry {
    pub json: Value,
    pub obj: FluxObject,
    pub last_reconciled: Option<String>,
}

impl Entry {
    /// An object as stored, with what core derives from the sanitized form the server hands
    /// out; `None` when it does not decode or has no kind or name.
    fn from_json(json: Value) -> Option<Entry> {
        let api = serde_json::from_value::<ApiObject>(served::sanitize(&json)).ok()?;
        let last_reconciled = api
            .condition("Ready")
            .and_then(|c| c.last_transition_time.clone());
        let obj = FluxObject::from_api(api)?;
        Some(Entry {
            json,
            obj,
            last_reconciled,
        })
    }
}

/// Namespaces every Kubernetes cluster has, whether Flux objects live there or not.
pub const SYSTEM_NAMESPACES: [&str; 4] =
    ["default", "kube-node-lease", "kube-public", "kube-system"];

/// The whole simulated cluster.
pub struct Store {
    pub report: Value,
    pub entries: Vec<Entry>,
    index: HashMap<(String, String, String), usize>,
    pub events: Vec<Value>,
    pub crds: Vec<Value>,
    /// Non-Flux objects (ConfigMaps, Tailscale ProxyGroups, …) a ResourceSet may depend on.
    pub external: Vec<Value>,
    /// The Flux kinds whose CRDs the cluster has: fixed when the cluster is built (deleting a
    /// kind's last object leaves its CRD).
    installed: Vec<String>,
}

/// An answer the server gives as plain text with a status code.
#[derive(Debug, PartialEq)]
pub struct TextError(pub u16, pub String);

impl Store {
    /// Loads a scenario folder: `report.json`, `objects.json`, optional `events.json`,
    /// `crds.json`, `external.json`.
    pub fn from_dir(dir: &Path) -> Result<Store, String> {
        let read = |name: &str, required: bool| -> Result<Value, String> {
            let p = dir.join(name);
            match std::fs::read_to_string(&p) {
                Ok(s) => serde_json::from_str(&s).map_err(|e| format!("{}: {e}", p.display())),
                Err(_) if !required => Ok(json!([])),
                Err(e) => Err(format!("{}: {e}", p.display())),
            }
        };
        let list = |v: Value| v.as_array().cloned().unwrap_or_default();
        let report = read("report.json", true)?;
        let objects = read("objects.json", true)?;
        let objects = objects
            .as_array()
            .cloned()
            .ok_or("objects.json must be a list")?;
        if let Some(bad) = objects.iter().find(|o| {
            SERVER_INJECTED
                .iter()
                .any(|f| o["status"].get(*f).is_some())
        }) {
            return Err(format!(
                "{}: {}/{} carries a field only GET /api/v1/resource adds; store objects as the cluster holds them",
                dir.display(),
                bad["kind"],
                bad["metadata"]["name"]
            ));
        }
        Ok(Store::new(
            report,
            objects,
            list(read("events.json", false)?),
            list(read("crds.json", false)?),
            list(read("external.json", false)?),
        ))
    }

    /// A synthetic cluster of `n` objects; `healthy` leaves out the dangling references.
    pub fn synthetic(n: usize, healthy: bool) -> Store {
        let report = json!({"apiVersion":"fluxcd.controlplane.io/v1","kind":"FluxReport","metadata":{"name":"flux","namespace":"flux-system"},
            "spec":{"distribution":{"entitlement":"Issued by controlplane","status":"Installed","version":"v2.8.3","managedBy":"flux-operator"},
                "cluster":{"serverVersion":"v1.34.2","platform":"linux/amd64","nodes":12},
                "operator":{"apiVersion":"fluxcd.controlplane.io/v1","version":"v0.58.1","platform":"linux/amd64"},
                "sync":{"id":"kustomization/flux-system","path":"clusters/synthetic","ready":true,"status":"Applied revision","source":"https://git.example.org/fleet.git"}}});
        Store::new(
            report,
            if healthy {
                fluxlens_core::model::synthetic::healthy(n)
            } else {
                fluxlens_core::model::synthetic::objects(n)
            },
            vec![],
            vec![],
            vec![],
        )
    }

    fn new(
        mut report: Value,
        objects: Vec<Value>,
        events: Vec<Value>,
        crds: Vec<Value>,
        external: Vec<Value>,
    ) -> Store {
        let entries: Vec<Entry> = objects.into_iter().filter_map(Entry::from_json).collect();
        let index = entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                (
                    (
                        e.obj.key.kind.as_str().to_string(),
                        e.obj.key.namespace.clone(),
                        e.obj.key.name.clone(),
                    ),
                    i,
                )
            })
            .collect();
        if report["metadata"]["namespace"].is_null() {
            report["metadata"]["namespace"] = json!("flux-system");
        }
        let mut store = Store {
            report,
            entries,
            index,
            events,
            // Served whole, as an API server does: a schema for each that has none.
            crds: crds.into_iter().map(crate::crd_schema::filled).collect(),
            external,
            installed: Vec::new(),
        };
        store.installed = store.crd_kinds();
        store
    }

    /// Changes an object's Ready condition, as a reconcile would (`/__sim/set-ready`): the
    /// stored object, its derived status and its summary row all follow. `false` when there is
    /// no such object.
    pub fn set_ready(
        &mut self,
        kind: &str,
        ns: &str,
        name: &str,
        ready: bool,
        message: &str,
        now_ms: i64,
    ) -> bool {
        // The transition happens now, as the controller would record it.
        let when = fluxlens_core::util::time::format_rfc3339(now_ms);
        let cond = json!({"type": "Ready", "status": if ready { "True" } else { "False" },
            "reason": if ready { "Succeeded" } else { "ReconciliationFailed" },
            "message": message, "lastTransitionTime": when, "observedGeneration": 1});
        self.edit(kind, ns, name, |json| {
            let status = json
                .as_object_mut()
                .map(|o| o.entry("status").or_insert_with(|| json!({})));
            if let Some(Value::Object(status)) = status {
                let conds = status.entry("conditions").or_insert_with(|| json!([]));
                if let Value::Array(list) = conds {
                    list.retain(|c| c["type"] != "Ready");
                    list.push(cond);
                }
            }
        })
    }

    /// Removes `spec.<field>` of one object and nothing else, as an edit the controller has
    /// not reconciled yet would (the list row and the conditions stay as they were): the
    /// "verify lost at the handover" that no status shows. False when there is no such object.
    pub fn unset_spec(&mut self, kind: &str, ns: &str, name: &str, field: &str) -> bool {
        self.edit(kind, ns, name, |json| {
            if let Some(Value::Object(spec)) = json.get_mut("spec") {
                spec.remove(field);
            }
        })
    }

    /// The render a repository would hold for this cluster: every object without its status,
    /// as YAML documents.
    pub fn render(&self) -> String {
        let docs: Vec<String> = self
            .entries
            .iter()
            .map(|e| {
                let mut v = e.json.clone();
                if let Some(m) = v.as_object_mut() {
                    m.remove("status");
                }
                serde_yaml_ng::to_string(&v).unwrap_or_default()
            })
            .collect();
        docs.join("---\n")
    }

    /// Sets `spec.<field>` of one object to `value` (an edit by hand: `kubectl patch`, `flux
    /// suspend`); false when there is no such object.
    pub fn set_spec(
        &mut self,
        kind: &str,
        ns: &str,
        name: &str,
        field: &str,
        value: Value,
    ) -> bool {
        self.edit(kind, ns, name, |json| {
            if let Some(Value::Object(spec)) = json.get_mut("spec") {
                spec.insert(field.to_string(), value);
            }
        })
    }

    /// Changes one stored object's JSON and re-reads it; false when there is no such object
    /// or the result is no longer an object the store can hold.
    pub(crate) fn edit(
        &mut self,
        kind: &str,
        ns: &str,
        name: &str,
        change: impl FnOnce(&mut Value),
    ) -> bool {
        let Some(&i) = self
            .index
            .get(&(kind.to_string(), ns.to_string(), name.to_string()))
        else {
            return false;
        };
        let e = &mut self.entries[i];
        change(&mut e.json);
        match Entry::from_json(e.json.clone()) {
            Some(next) => {
                *e = next;
                true
            }
            None => false,
        }
    }

    /// Changes every stored object's JSON and re-reads each (an object that no longer decodes
    /// keeps its last good form).
    pub(crate) fn edit_all(&mut self, mut change: impl FnMut(&mut Value)) {
        for e in &mut self.entries {
            let mut json = e.json.clone();
            change(&mut json);
            if let Some(next) = Entry::from_json(json) {
                *e = next;
            }
        }
    }

    /// Creates `namespace/name` as a copy of an existing object of the same kind (`like`), as
    /// `kubectl apply` of a sibling would; its Ready condition changes at `now_ms`. False when
    /// `like` does not exist or the new object does.
    pub fn create_like(
        &mut self,
        like: (&str, &str, &str),
        ns: &str,
        name: &str,
        now_ms: i64,
    ) -> bool {
        let (kind, from_ns, from_name) = like;
        if self.get(kind, ns, name).is_some() {
            return false;
        }
        let Some(source) = self.get(kind, from_ns, from_name) else {
            return false;
        };
        let mut json = source.json.clone();
        json["metadata"]["name"] = json!(name);
        json["metadata"]["namespace"] = json!(ns);
        if let Some(conds) = json["status"]["conditions"].as_array_mut() {
            let when = fluxlens_core::util::time::format_rfc3339(now_ms);
            for c in conds.iter_mut().filter(|c| c["type"] == "Ready") {
                c["lastTransitionTime"] = json!(when);
            }
        }
        let Some(entry) = Entry::from_json(json) else {
            return false;
        };
        self.index.insert(
            (kind.to_string(), ns.to_string(), name.to_string()),
            self.entries.len(),
        );
        self.entries.push(entry);
        true
    }

    /// Deletes one object, as `kubectl delete` would; false when there is no such object.
    pub fn remove(&mut self, kind: &str, ns: &str, name: &str) -> bool {
        let key = (kind.to_string(), ns.to_string(), name.to_string());
        let Some(i) = self.index.remove(&key) else {
            return false;
        };
        self.entries.remove(i);
        for v in self.index.values_mut() {
            if *v > i {
                *v -= 1;
            }
        }
        true
    }

    /// Looks an object up by exact kind.
    pub fn get(&self, kind: &str, ns: &str, name: &str) -> Option<&Entry> {
        self.index
            .get(&(kind.to_string(), ns.to_string(), name.to_string()))
            .map(|&i| &self.entries[i])
    }

    /// `GET /api/v1/report` for this user, as of now without the server's caches.
    #[cfg(test)]
    pub fn report(&self, mode: &Mode, placeholder: bool) -> Value {
        self.report_at(&self.seen_now(mode), mode, placeholder)
    }

    /// `GET /api/v1/report` for this user (FO report.go `GetReport`): the last computation's
    /// counts filtered to the user's cached namespaces (reporter
    /// `FilterReconcilerStatsByNamespaces`: every installed kind, zero counts included),
    /// `spec.namespaces` and `userInfo` injected; the placeholder (no namespaces, no counters)
    /// while the report is not computed. A scenario whose report carries its own counts (a
    /// captured report) keeps them.
    pub fn report_at(&self, seen: &Seen, mode: &Mode, placeholder: bool) -> Value {
        if placeholder {
            return json!({"apiVersion":"fluxcd.controlplane.io/v1","kind":"FluxReport",
                "metadata":{"name":"flux","namespace":"flux-system"},
                "spec":{"distribution":{"entitlement":"Unknown","status":"Unknown"}}});
        }
        let mut r = self.report.clone();
        let spec = &mut r["spec"];
        if let Some(v) = &mode.operator_version {
            spec["operator"]["version"] = json!(v);
        }
        if spec.get("reconcilers").is_none() {
            spec["reconcilers"] = json!(counters(&seen.computed, &seen.namespaces));
        }
        spec["namespaces"] = json!(seen.namespaces);
        if spec.get("userInfo").is_none() {
            spec["userInfo"] = user_info(mode);
        }
        r
    }

    /// The operator version the report says (`--operator-version` overrides the scenario's).
    pub fn operator_version<'a>(&'a self, mode: &'a Mode) -> Option<&'a str> {
        mode.operator_version
            .as_deref()
            .or_else(|| self.report["spec"]["operator"]["version"].as_str())
    }

    /// Whether a list without `kind` (resources and events alike) holds kind `k`. From v0.53
    /// (FO resources.go `GetLiveResources`, events.go `GetEvents`): the kinds of the search
    /// index as the last report computation left it, `searchIndex.Kinds()` — every kind the
    /// cluster held objects of at that tick, so a kind's first object is listed by default
    /// only from the next tick — or while the index is empty `defaultFluxKinds()`, every
    /// operator and Flux kind but FluxReport. Before: appliers and sources, FluxInstance for a
    /// cluster-wide user.
    pub fn listed_without_kind(&self, seen: &Seen, mode: &Mode, k: &str) -> bool {
        if lists_every_kind_at(self.operator_version(mode)) {
            let indexed = &seen.computed.kinds;
            if indexed.is_empty() {
                let kind = fluxlens_core::wire::kind::Kind::parse(k);
                return fluxlens_core::wire::kind::FLUX_KINDS.contains(&kind);
            }
            return indexed.contains(k);
        }
        listed_by_default(k, mode.namespaces.is_none())
    }

    /// The namespaces the user may browse (FO kubeclient `ListUserNamespaces`): for a
    /// cluster-wide user every namespace of the cluster, empty and system ones included.
    pub fn visible_namespaces(&self, mode: &Mode) -> Vec<String> {
        if let Some(ns) = &mode.namespaces {
            let mut ns = ns.clone();
            ns.sort();
            return ns;
        }
        let mut ns: Vec<String> = self
            .entries
            .iter()
            .map(|e| e.obj.key.namespace.clone())
            .filter(|n| !n.is_empty())
            .chain(SYSTEM_NAMESPACES.iter().map(|n| n.to_string()))
            .collect();
        ns.push(
            self.report["metadata"]["namespace"]
                .as_str()
                .unwrap_or("flux-system")
                .into(),
        );
        ns.sort();
        ns.dedup();
        ns
    }

    /// A List of `kind` the user may not run: in the namespace asked, or — a restricted user's
    /// Lists going namespace by namespace through their cached namespaces, the first Forbidden
    /// ending the kind — in any of theirs (resources.go `GetLiveResources` returns from the
    /// kind's goroutine).
    fn list_forbidden(&self, seen: &Seen, mode: &Mode, kind: &str, ns: Option<&str>) -> bool {
        match (ns, &mode.namespaces) {
            (Some(ns), _) => mode.forbids(kind, ns),
            (None, Some(_)) => seen.namespaces.iter().any(|n| mode.forbids(kind, n)),
            (None, None) => false,
        }
    }

    /// Whether a list shows namespace `ns` to this user: a restricted user's Lists go through
    /// the namespaces the server holds for them (cached, [`Seen::namespaces`]).
    fn listed_ns(&self, seen: &Seen, mode: &Mode, ns: &str) -> bool {
        mode.namespaces.is_none() || seen.namespaces.iter().any(|a| a == ns)
    }

    /// Whether RBAC lets the user read namespace `ns` at all (a live check, no cache).
    fn granted(&self, mode: &Mode, ns: &str) -> bool {
        mode.namespaces
            .as_ref()
            .is_none_or(|allowed| allowed.iter().any(|a| a == ns))
    }

    /// Everything as of now, as a server without caches would answer.
    pub fn seen_now(&self, mode: &Mode) -> Seen {
        Seen {
            computed: Arc::new(self.compute()),
            namespaces: self.visible_namespaces(mode),
            seed: 0,
        }
    }

    /// What the report's computation holds now (reporter `FluxStatusReporter.Compute`, run by
    /// the ticker in `report.go` `refreshReportCache`): per installed kind, the counts per
    /// namespace (`getReconcilersStatus`: suspended by `spec.suspend`; failing when not
    /// suspended and Ready=False for a reason other than DependencyNotReady), and the index of
    /// every object (`NewResourceStatus`, names lower-cased as `buildSearchIndex` keeps them).
    pub fn compute(&self) -> Computed {
        let mut stats: BTreeMap<String, KindStats> = self
            .installed_kinds()
            .iter()
            .cloned()
            .map(|kind| {
                let stats = KindStats {
                    api_version: Kind::parse(&kind).default_api_version().to_string(),
                    kind: kind.clone(),
                    by_namespace: Default::default(),
                };
                (kind, stats)
            })
            .collect();
        let mut index = Vec::with_capacity(self.entries.len());
        for e in &self.entries {
            let kind = e.obj.key.kind.as_str().to_string();
            let k = stats.entry(kind.clone()).or_insert_with(|| KindStats {
                api_version: e.obj.key.kind.default_api_version().to_string(),
                kind: kind.clone(),
                by_namespace: Default::default(),
            });
            if let Some(api) = e.json["apiVersion"].as_str() {
                k.api_version = api.to_string();
            }
            let n = k
                .by_namespace
                .entry(e.obj.key.namespace.clone())
                .or_default();
            n.total += 1;
            if e.json["spec"]["suspend"].as_bool() == Some(true) {
                n.suspended += 1;
            } else if failing(&e.json) {
                n.failing += 1;
            }
            index.push(IndexRow {
                kind,
                namespace: e.obj.key.namespace.clone(),
                name: e.obj.key.name.to_lowercase(),
                status: e.obj.status.as_str().to_string(),
                message: e.obj.message.clone(),
                last_reconciled: e.last_reconciled.clone(),
            });
        }
        // buildSearchIndex: by kind, namespace, name.
        index.sort_by(|a, b| {
            (&a.kind, &a.namespace, &a.name).cmp(&(&b.kind, &b.namespace, &b.name))
        });
        Computed {
            stats: stats.into_values().collect(),
            kinds: index.iter().map(|r| r.kind.clone()).collect(),
            index,
        }
    }

    /// The Flux kinds whose CRDs the cluster has (reporter `listCRDs`: the CRDs labelled as
    /// Flux's).
    fn installed_kinds(&self) -> &[String] {
        &self.installed
    }

    /// The Flux kinds whose CRDs a scenario implies: the operator's own, those of each
    /// controller the report lists, those the scenario's CRDs name, and the kinds of its objects.
    fn crd_kinds(&self) -> Vec<String> {
        let mut out: Vec<String> = ["FluxInstance", "ResourceSet", "ResourceSetInputProvider"]
            .iter()
            .map(|k| k.to_string())
            .collect();
        let components = self.report["spec"]["components"].as_array();
        for c in components.into_iter().flatten() {
            let kinds = controller_kinds(c["name"].as_str().unwrap_or(""));
            out.extend(kinds.iter().map(|k| k.to_string()));
        }
        for crd in &self.crds {
            if let Some(k) = crd["spec"]["names"]["kind"].as_str()
                && fluxlens_core::wire::kind::FLUX_KINDS.contains(&Kind::parse(k))
            {
                out.push(k.to_string());
            }
        }
        out.extend(
            self.entries
                .iter()
                .map(|e| e.obj.key.kind.as_str().to_string()),
        );
        out.sort();
        out.dedup();
        out
    }

    /// `GET /api/v1/resources`, as of now without the server's caches.
    #[cfg(test)]
    pub fn resources(
        &self,
        mode: &Mode,
        kind: Option<&str>,
        name: &str,
        ns: Option<&str>,
        status: Option<&str>,
    ) -> Value {
        let query = ListQuery {
            kind,
            name,
            ns,
            status,
        };
        self.resources_at(&self.seen_now(mode), mode, &query)
    }

    /// `GET /api/v1/resources`. Live (FO resources.go `GetLiveResources`): the cluster as it
    /// is now; without `kind`, the kinds [`Store::listed_without_kind`] names; per kind, capped
    /// at 2,500; a restricted user's Lists go through their cached namespaces (none: `[]`); a
    /// kind whose List fails — in any one of those namespaces — left out whole; `null` when
    /// nothing matched and no status filter; sorted newest first with ties in no fixed order
    /// (`sort.Slice`). Cached (FO search.go `GetCachedResources`, search_index.go
    /// `SearchResources`): the index of the last tick, names lower-cased, 2,500 rows in total
    /// after sorting, always an array.
    pub fn resources_at(&self, seen: &Seen, mode: &Mode, q: &ListQuery) -> Value {
        if mode.namespaces.is_some() && seen.namespaces.is_empty() && q.ns.is_none() {
            return json!({ "resources": [] });
        }
        if mode.search_cached {
            let rows = self.indexed(seen, mode, q, CACHED_CAP);
            let out: Vec<Value> = rows.iter().map(|r| index_json(r, true)).collect();
            return json!({ "resources": out });
        }
        let mut per_kind: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
        for e in &self.entries {
            let k = e.obj.key.kind.as_str();
            let listed = q
                .kind
                .map_or_else(|| self.listed_without_kind(seen, mode, k), |want| want == k);
            if listed
                && q.ns.is_none_or(|want| want == e.obj.key.namespace)
                && q.status.is_none_or(|want| want == e.obj.status.as_str())
                && (q.ns.is_some() || self.listed_ns(seen, mode, &e.obj.key.namespace))
                && filter::name_matches(q.name, &e.obj.key.name)
            {
                per_kind.entry(k).or_default().push(e);
            }
        }
        per_kind.retain(|k, _| {
            // "Return empty array instead of error for better UX", per kind.
            !mode.fail_list.iter().any(|f| f == k) && !self.list_forbidden(seen, mode, k, q.ns)
        });
        let mut rows: Vec<&Entry> = per_kind
            .into_values()
            .flat_map(|v| v.into_iter().take(RESOURCES_CAP_PER_KIND))
            .collect();
        newest_first(&mut rows, |e| e.last_reconciled.as_deref(), seen.seed);
        if rows.is_empty() && q.status.is_none() {
            return json!({"resources": null});
        }
        json!({"resources": rows.iter().map(|e| summary(e, true)).collect::<Vec<_>>()})
    }

    /// The index rows a cached query returns (search_index.go `SearchResources`): the user's
    /// cached namespaces, the filters, newest first (ties in no fixed order), at most `cap`.
    fn indexed<'a>(
        &self,
        seen: &'a Seen,
        mode: &Mode,
        q: &ListQuery,
        cap: usize,
    ) -> Vec<&'a IndexRow> {
        let mut rows: Vec<&IndexRow> = seen
            .computed
            .index
            .iter()
            .filter(|r| mode.namespaces.is_none() || seen.namespaces.contains(&r.namespace))
            .filter(|r| q.kind.is_none_or(|k| k == r.kind))
            .filter(|r| q.ns.is_none_or(|n| n == r.namespace))
            .filter(|r| q.status.is_none_or(|s| s == r.status))
            .filter(|r| filter::name_matches(q.name, &r.name))
            .collect();
        newest_first(&mut rows, |r| r.last_reconciled.as_deref(), seen.seed);
        rows.truncate(cap);
        rows
    }

    /// `GET /api/v1/search` (FO search.go `SearchHandler`): the index of the last tick, the
    /// user's cached namespaces, a plain term as a substring, 10 rows, messages blanked.
    pub fn search_at(
        &self,
        seen: &Seen,
        mode: &Mode,
        kind: Option<&str>,
        name: &str,
        ns: Option<&str>,
    ) -> Value {
        let mut rows: Vec<&IndexRow> = seen
            .computed
            .index
            .iter()
            .filter(|r| kind.is_none_or(|k| k == r.kind))
            .filter(|r| ns.is_none_or(|n| n == r.namespace))
            .filter(|r| mode.namespaces.is_none() || seen.namespaces.contains(&r.namespace))
            .filter(|r| filter::search_matches(name, &r.name))
            .collect();
        newest_first(&mut rows, |r| r.last_reconciled.as_deref(), seen.seed);
        rows.truncate(SEARCH_CAP);
        let out: Vec<Value> = rows.iter().map(|r| index_json(r, false)).collect();
        json!({ "resources": out })
    }

    /// `GET /api/v1/resource` (FO resource.go `ResourceHandler`): enriched, `{}` when absent,
    /// 403 outside the user's namespaces.
    pub fn resource(
        &self,
        mode: &Mode,
        kind: &str,
        name: &str,
        ns: &str,
    ) -> Result<Value, TextError> {
        if !self.granted(mode, ns) || mode.forbids(&canonical_kind(kind), ns) {
            return Err(TextError(
                403,
                "You do not have access to this resource. User: sim-tenant, Groups: [tenants]"
                    .into(),
            ));
        }
        let kind = canonical_kind(kind);
        Ok(match self.get(&kind, ns, name) {
            Some(e) => self.enriched(e),
            None => json!({}),
        })
    }

    /// The single-object shape: sanitized, then `reconcilerRef`, `sourceRef` and the
    /// inventory list added.
    pub fn enriched(&self, e: &Entry) -> Value {
        let mut v = served::sanitize(&e.json);
        let Some(status) = v
            .as_object_mut()
            .map(|o| o.entry("status").or_insert_with(|| json!({})))
            .and_then(Value::as_object_mut)
        else {
            return v;
        };
        status.insert(
            "reconcilerRef".into(),
            json!({"status": e.obj.status.as_str(), "message": e.obj.message,
                   "lastReconciled": e.last_reconciled, "managedBy": served::managed_by(&e.json)}),
        );
        if let Some(list) = status.get("inventory").and_then(served::inventory_list) {
            status.insert("inventory".into(), list);
        } else if e.obj.key.kind == Kind::HelmRelease
            && let Some(list) = crate::helm_storage::inventory(&e.json, &self.external)
        {
            status.insert("inventory".into(), list);
        }
        let src = e.obj.refs.iter().find(|r| {
            matches!(
                r.kind,
                RefKind::Source | RefKind::ChartRef | RefKind::ChartTemplate
            )
        });
        if let Some(r) = src
            && e.obj.key.kind != Kind::ArtifactGenerator
            && let Some(t) = self.get(r.target.kind.as_str(), &r.target.namespace, &r.target.name)
        {
            let meta = t
                .obj
                .artifact()
                .map(|a| a.metadata.clone())
                .unwrap_or_default();
            status.insert("sourceRef".into(),
                json!({"kind": r.target.kind.as_str(), "name": r.target.name, "namespace": r.target.namespace,
                    "url": t.obj.url().map(str::to_string).unwrap_or_default(),
                    "originURL": meta.get("org.opencontainers.image.source").cloned().unwrap_or_default(),
                    "originRevision": meta.get("org.opencontainers.image.revision").cloned().unwrap_or_default(),
                    "status": t.obj.status.as_str(), "message": t.obj.message}));
        }
        v
    }

    /// `GET /api/v1/events` (FO events.go `GetEvents`): one List per kind and per namespace
    /// (one cluster-wide List for a cluster-wide user), each capped (`client.Limit`) in the API
    /// server's order — by namespace and name, so the oldest by name survive — then everything
    /// sorted newest first and only then filtered by type. Without `kind`, the default kinds
    /// (no notification or image kinds), plus FluxInstance for a cluster-wide user only.
    #[cfg(test)]
    pub fn events(
        &self,
        mode: &Mode,
        kind: Option<&str>,
        name: &str,
        ns: Option<&str>,
        type_: Option<&str>,
    ) -> Value {
        self.events_at(&self.seen_now(mode), mode, kind, name, ns, type_)
    }

    /// [`Store::events`] as one request sees the server: the default kinds from the index of
    /// the last tick, a restricted user's Lists through their cached namespaces.
    pub fn events_at(
        &self,
        seen: &Seen,
        mode: &Mode,
        kind: Option<&str>,
        name: &str,
        ns: Option<&str>,
        type_: Option<&str>,
    ) -> Value {
        let cap = if kind.is_some() {
            EVENTS_CAP_ONE_KIND
        } else {
            EVENTS_CAP_PER_KIND
        };
        let cluster_wide = mode.namespaces.is_none();
        let wanted = |k: &str| {
            kind.map_or_else(|| self.listed_without_kind(seen, mode, k), |want| want == k)
        };
        // The List each event falls in: (kind, namespace listed; "" = all namespaces).
        let mut lists: BTreeMap<(String, String), Vec<&Value>> = BTreeMap::new();
        for e in &self.events {
            let io = e["involvedObject"].as_str().unwrap_or("");
            let (k, n) = io.split_once('/').unwrap_or(("", io));
            let ens = e["namespace"].as_str().unwrap_or("");
            if wanted(k)
                && filter::name_matches(name, n)
                && ns.is_none_or(|want| want == ens)
                && self.listed_ns(seen, mode, ens)
                && !mode.forbids(k, ens)
            {
                let listed = if cluster_wide && ns.is_none() {
                    ""
                } else {
                    ens
                };
                lists
                    .entry((k.to_string(), listed.to_string()))
                    .or_default()
                    .push(e);
            }
        }
        let mut rows: Vec<&Value> = lists
            .into_values()
            .flat_map(|mut v| {
                v.sort_by_key(|e| (e["namespace"].as_str(), e["involvedObject"].as_str()));
                v.truncate(cap);
                v
            })
            .collect();
        rows.sort_by(|a, b| event_time(b).cmp(event_time(a)));
        rows.retain(|e| type_.is_none_or(|want| Some(want) == e["type"].as_str()));
        json!({ "events": rows })
    }

    /// `POST /api/v1/inventory/objects` (FO inventory_objects.go `GetInventoryObjects`): one
    /// result per item in order, sanitized only, `NotFound` / `Forbidden` / `Error` per item.
    pub fn inventory_objects(
        &self,
        mode: &Mode,
        items: &[Value],
        status_only: bool,
        crds_forbidden: bool,
    ) -> Value {
        let out: Vec<Value> = items
            .iter()
            .take(INVENTORY_CAP)
            .map(|it| {
                let s = |k: &str| it[k].as_str().unwrap_or("").to_string();
                let (api_version, kind, ns, name) =
                    (s("apiVersion"), s("kind"), s("namespace"), s("name"));
                let mut head =
                    json!({"apiVersion": api_version, "kind": kind, "namespace": ns, "name": name});
                let found = self.lookup(mode, &api_version, &kind, &ns, &name, crds_forbidden);
                match found {
                    Ok((obj, status, msg)) => {
                        head["status"] = json!(status);
                        if !msg.is_empty() {
                            head["statusMessage"] = json!(msg);
                        }
                        if !status_only {
                            head["object"] = obj;
                        }
                    }
                    Err(e) => head["error"] = json!(e),
                }
                if ns.is_empty() {
                    // `namespace,omitempty`
                    head.as_object_mut().map(|o| o.remove("namespace"));
                }
                head
            })
            .collect();
        json!({ "objects": out })
    }

    /// One GET under the user's identity at the requested version: the object sanitized, or
    /// the error class the server reports.
    fn lookup(
        &self,
        mode: &Mode,
        api_version: &str,
        kind: &str,
        ns: &str,
        name: &str,
        crds_forbidden: bool,
    ) -> Result<(Value, String, String), &'static str> {
        // An unparseable or unserved apiVersion fails the REST mapping: "Error".
        let (group, version) = match api_version.rsplit_once('/') {
            Some((g, v)) => (g, v),
            None if !api_version.is_empty() => ("", api_version),
            None => return Err("Error"),
        };
        // Tenants may read neither other namespaces nor cluster-scoped objects.
        if !self.granted(mode, ns) || mode.forbids(kind, ns) {
            return Err("Forbidden");
        }
        if kind == "CustomResourceDefinition" {
            if crds_forbidden {
                return Err("Forbidden");
            }
            return self
                .crds
                .iter()
                .find(|c| c["metadata"]["name"].as_str() == Some(name))
                .map(|c| (served::sanitize(c), "Current".into(), String::new()))
                .ok_or("NotFound");
        }
        let flux = Kind::parse(kind);
        if !matches!(flux, Kind::Other(_)) {
            let own_group = flux
                .default_api_version()
                .rsplit_once('/')
                .map_or("", |(g, _)| g);
            // A kind whose CRD the cluster lacks has no REST mapping: "no matches for kind",
            // which inventory_objects.go `inventoryObjectResult` reports as "Error", never
            // NotFound.
            let installed = self.installed_kinds().iter().any(|k| k == kind);
            if group != own_group || !installed || !self.serves(kind, version) {
                return Err("Error");
            }
            return self
                .get(kind, ns, name)
                .map(|e| {
                    (
                        served::sanitize(&e.json),
                        e.obj.status.as_str().to_string(),
                        e.obj.message.clone(),
                    )
                })
                .ok_or("NotFound");
        }
        self.external
            .iter()
            .find(|o| {
                o["kind"].as_str() == Some(kind)
                    && o["apiVersion"]
                        .as_str()
                        .is_some_and(|a| a.rsplit_once('/').map_or("", |(g, _)| g) == group)
                    && o["metadata"]["name"].as_str() == Some(name)
                    && o["metadata"]["namespace"].as_str().unwrap_or("") == ns
            })
            .map(|o| (served::sanitize(o), kstatus(o), String::new()))
            .ok_or("NotFound")
    }

    /// Whether the cluster serves `version` of a Flux kind: the version its objects are
    /// stored at, or any version the installed minor serves (§2.4 table).
    fn serves(&self, kind: &str, version: &str) -> bool {
        let stored = self.entries.iter().any(|e| {
            e.obj.key.kind.as_str() == kind
                && e.json["apiVersion"]
                    .as_str()
                    .is_some_and(|a| a.ends_with(&format!("/{version}")))
        });
        let minor = self.report["spec"]["distribution"]["version"]
            .as_str()
            .and_then(|v| v.trim_start_matches('v').split('.').nth(1))
            .and_then(|m| m.parse::<u32>().ok());
        let by_table = minor
            .and_then(|m| fluxlens_core::analyses::migration::api_table::served(kind, m, version))
            .unwrap_or(false);
        let default = Kind::parse(kind)
            .default_api_version()
            .ends_with(&format!("/{version}"));
        stored || by_table || default
    }
}

/// kstatus of a non-Flux object, reduced to what the scenarios need.
fn kstatus(o: &Value) -> String {
    let ready = o["status"]["conditions"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["type"] == "Ready"));
    match ready.and_then(|c| c["status"].as_str()) {
        Some("False") => "InProgress".into(),
        _ => "Current".into(),
    }
}

fn event_time(e: &Value) -> &str {
    e["lastTimestamp"].as_str().unwrap_or("")
}

/// One `/api/v1/resources` query's filters.
#[derive(Debug, Default, Clone, Copy)]
pub struct ListQuery<'a> {
    pub kind: Option<&'a str>,
    pub name: &'a str,
    pub ns: Option<&'a str>,
    pub status: Option<&'a str>,
}

/// Sorts newest first by `lastReconciled` as the server does: `sort.Slice` is not stable, and
/// the rows come from per-kind goroutines in no fixed order, so rows with the same time are
/// ordered by `seed` (a request's own), never kept in one order.
fn newest_first<T: Copy>(rows: &mut [T], time: impl Fn(&T) -> Option<&str>, seed: u64) {
    let shuffle = |i: usize| {
        (i as u64 ^ seed)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(17)
    };
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| {
        time(&rows[b])
            .cmp(&time(&rows[a]))
            .then(shuffle(a).cmp(&shuffle(b)))
    });
    let sorted: Vec<T> = order.into_iter().map(|i| rows[i]).collect();
    rows.copy_from_slice(&sorted);
}

/// Whether the reporter counts an object as failing (reconcilers.go `getReconcilersStatus`):
/// Ready=False for any reason but DependencyNotReady.
fn failing(json: &Value) -> bool {
    json["status"]["conditions"]
        .as_array()
        .is_some_and(|conds| {
            conds.iter().any(|c| {
                c["type"] == "Ready"
                    && c["status"] == "False"
                    && c["reason"] != "DependencyNotReady"
            })
        })
}

/// The kinds whose CRDs a controller of the distribution installs.
fn controller_kinds(component: &str) -> &'static [&'static str] {
    match component {
        "source-controller" => &[
            "GitRepository",
            "OCIRepository",
            "HelmRepository",
            "HelmChart",
            "Bucket",
            "ExternalArtifact",
        ],
        "kustomize-controller" => &["Kustomization"],
        "helm-controller" => &["HelmRelease"],
        "notification-controller" => &["Alert", "Provider", "Receiver"],
        "image-reflector-controller" => &["ImageRepository", "ImagePolicy"],
        "image-automation-controller" => &["ImageUpdateAutomation"],
        "source-watcher" => &["ArtifactGenerator"],
        _ => &[],
    }
}

/// The report's counts for a user (reporter `FilterReconcilerStatsByNamespaces`): every
/// installed kind, summed over the user's namespaces, sorted by apiVersion and kind.
fn counters(computed: &Computed, namespaces: &[String]) -> Vec<Value> {
    let mut out: Vec<Value> = computed
        .stats
        .iter()
        .map(|k| {
            let mut sum = NsStats::default();
            for (ns, n) in &k.by_namespace {
                if namespaces.contains(ns) {
                    sum.total += n.total;
                    sum.suspended += n.suspended;
                    sum.failing += n.failing;
                }
            }
            json!({"apiVersion": k.api_version, "kind": k.kind, "stats": {
                "running": sum.total - sum.suspended, "failing": sum.failing,
                "suspended": sum.suspended}})
        })
        .collect();
    out.sort_by(|a, b| {
        let key = |v: &Value| {
            format!(
                "{}{}",
                v["apiVersion"].as_str().unwrap_or(""),
                v["kind"].as_str().unwrap_or("")
            )
        };
        key(a).cmp(&key(b))
    });
    out
}

/// An index row as the cached endpoints answer it.
fn index_json(r: &IndexRow, with_message: bool) -> Value {
    json!({"name": r.name, "kind": r.kind, "namespace": r.namespace, "status": r.status,
        "message": if with_message { r.message.as_str() } else { "" },
        "lastReconciled": r.last_reconciled})
}

fn summary(e: &Entry, with_message: bool) -> Value {
    json!({"name": e.obj.key.name, "kind": e.obj.key.kind.as_str(), "namespace": e.obj.key.namespace,
        "status": e.obj.status.as_str(), "message": if with_message { e.obj.message.as_str() } else { "" },
        "lastReconciled": e.last_reconciled})
}

/// Accepts a kind name case-insensitively or a short name (§4).
pub fn canonical_kind(k: &str) -> String {
    const SHORT: [(&str, &str); 19] = [
        ("instance", "FluxInstance"),
        ("report", "FluxReport"),
        ("rset", "ResourceSet"),
        ("rsip", "ResourceSetInputProvider"),
        ("ks", "Kustomization"),
        ("hr", "HelmRelease"),
        ("gitrepo", "GitRepository"),
        ("ocirepo", "OCIRepository"),
        ("bucket", "Bucket"),
        ("helmrepo", "HelmRepository"),
        ("hc", "HelmChart"),
        ("ea", "ExternalArtifact"),
        ("ag", "ArtifactGenerator"),
        ("alert", "Alert"),
        ("provider", "Provider"),
        ("receiver", "Receiver"),
        ("imgrepo", "ImageRepository"),
        ("imgpol", "ImagePolicy"),
        ("imgauto", "ImageUpdateAutomation"),
    ];
    let lower = k.to_lowercase();
    SHORT
        .iter()
        .find(|(s, full)| *s == lower || full.to_lowercase() == lower)
        .map(|(_, full)| full.to_string())
        .unwrap_or_else(|| k.to_string())
}

/// `spec.userInfo` as report.go `GetReport` injects it: always the username (the pod's
/// hostname without authentication), `impersonation` only when a session exists (Anonymous or
/// OAuth2), `provider` and `sessionStart` only for OAuth2 (user.go `Permissions`, `Provider`,
/// `SessionStart`).
fn user_info(mode: &Mode) -> Value {
    use crate::faults::Auth;
    match mode.authentication() {
        Auth::None => json!({"username": "flux-operator-7d9f8b6c4-x2k5q"}),
        Auth::Anonymous => json!({
            "username": "flux-web-viewer",
            "impersonation": {"username": "flux-web-viewer", "groups": ["flux-web-viewers"]},
        }),
        Auth::Oidc => json!({
            "username": "Ada Example",
            "impersonation": {"username": "ada@example.org", "groups": ["platform-readers"]},
            "provider": {"iss": "https://dex.example.org", "sub": "ada", "email": "ada@example.org"},
            "sessionStart": "2026-12-01T08:00:00Z",
        }),
    }
}
