//! The simulated cluster: scenario data and the read queries the endpoints answer, with
//! the real server's semantics (caps, sorting, filters, `null` lists, `{}` for not found).

use crate::filter;
use fluxlens_core::api::object::ApiObject;
use fluxlens_core::model::{FluxObject, RefKind};
use fluxlens_core::{Kind, Status};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// Results per kind in live mode (§6.2).
pub const RESOURCES_CAP_PER_KIND: usize = 2500;
/// Search results in total (§6.3).
pub const SEARCH_CAP: usize = 10;
/// Items processed per inventory request (§6.6).
pub const INVENTORY_CAP: usize = 2000;

/// One stored object: the JSON as served, and what core derives from it.
pub struct Entry {
    pub json: Value,
    pub obj: FluxObject,
    pub last_reconciled: Option<String>,
}

/// The whole simulated cluster.
pub struct Store {
    pub report: Value,
    pub entries: Vec<Entry>,
    index: HashMap<(String, String, String), usize>,
    pub events: Vec<Value>,
    pub crds: Vec<Value>,
}

impl Store {
    /// Loads a scenario folder: `report.json`, `objects.json`, optional `events.json`, `crds.json`.
    pub fn from_dir(dir: &Path) -> Result<Store, String> {
        let read = |name: &str, required: bool| -> Result<Value, String> {
            let p = dir.join(name);
            match std::fs::read_to_string(&p) {
                Ok(s) => serde_json::from_str(&s).map_err(|e| format!("{}: {e}", p.display())),
                Err(_) if !required => Ok(json!([])),
                Err(e) => Err(format!("{}: {e}", p.display())),
            }
        };
        let report = read("report.json", true)?;
        let objects = read("objects.json", true)?;
        let objects = objects
            .as_array()
            .cloned()
            .ok_or("objects.json must be a list")?;
        let events = read("events.json", false)?
            .as_array()
            .cloned()
            .unwrap_or_default();
        let crds = read("crds.json", false)?
            .as_array()
            .cloned()
            .unwrap_or_default();
        Ok(Store::new(report, objects, events, crds))
    }

    /// A synthetic cluster of `n` objects.
    pub fn synthetic(n: usize) -> Store {
        let report = json!({"apiVersion":"fluxcd.controlplane.io/v1","kind":"FluxReport","metadata":{"name":"flux","namespace":"flux-system"},
            "spec":{"distribution":{"entitlement":"Issued by controlplane","status":"Installed","version":"v2.8.3","managedBy":"flux-operator"},
                "cluster":{"serverVersion":"v1.34.2","platform":"linux/amd64","nodes":12},
                "operator":{"apiVersion":"fluxcd.controlplane.io/v1","version":"v0.58.1","platform":"linux/amd64"},
                "sync":{"id":"kustomization/flux-system","path":"clusters/synthetic","ready":true,"status":"Applied revision","source":"https://git.example.org/fleet.git"}}});
        Store::new(report, fluxlens_core::synthetic::objects(n), vec![], vec![])
    }

    fn new(mut report: Value, objects: Vec<Value>, events: Vec<Value>, crds: Vec<Value>) -> Store {
        let mut entries = Vec::with_capacity(objects.len());
        for json in objects {
            let Ok(api) = serde_json::from_value::<ApiObject>(json.clone()) else {
                continue;
            };
            let last_reconciled = api
                .condition("Ready")
                .and_then(|c| c.last_transition_time.clone())
                .or_else(|| {
                    api.status
                        .reconciler_ref
                        .as_ref()
                        .and_then(|r| r.last_reconciled.clone())
                });
            if let Some(obj) = FluxObject::from_api(api) {
                entries.push(Entry {
                    json,
                    obj,
                    last_reconciled,
                });
            }
        }
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
        fill_report(&mut report, &entries);
        Store {
            report,
            entries,
            index,
            events,
            crds,
        }
    }

    /// Looks an object up by exact kind.
    pub fn get(&self, kind: &str, ns: &str, name: &str) -> Option<&Entry> {
        self.index
            .get(&(kind.to_string(), ns.to_string(), name.to_string()))
            .map(|&i| &self.entries[i])
    }

    /// `GET /api/v1/resources`.
    pub fn resources(
        &self,
        kind: Option<&str>,
        name: &str,
        ns: Option<&str>,
        status: Option<&str>,
    ) -> Value {
        let mut per_kind: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
        for e in &self.entries {
            let k = e.obj.key.kind.as_str();
            if kind.is_some_and(|want| want != k)
                || ns.is_some_and(|want| want != e.obj.key.namespace)
                || status.is_some_and(|want| want != e.obj.status.as_str())
                || !filter::name_matches(name, &e.obj.key.name)
            {
                continue;
            }
            per_kind.entry(k).or_default().push(e);
        }
        let mut rows: Vec<&Entry> = per_kind
            .into_values()
            .flat_map(|v| v.into_iter().take(RESOURCES_CAP_PER_KIND))
            .collect();
        rows.sort_by(|a, b| b.last_reconciled.cmp(&a.last_reconciled));
        if rows.is_empty() && status.is_none() {
            // Live mode answers null when nothing matched and no status filter was given.
            return json!({"resources": null});
        }
        json!({"resources": rows.iter().map(|e| summary(e, true)).collect::<Vec<_>>()})
    }

    /// `GET /api/v1/search`.
    pub fn search(&self, kind: Option<&str>, name: &str, ns: Option<&str>) -> Value {
        let mut rows: Vec<&Entry> = self
            .entries
            .iter()
            .filter(|e| kind.is_none_or(|k| k == e.obj.key.kind.as_str()))
            .filter(|e| ns.is_none_or(|n| n == e.obj.key.namespace))
            .filter(|e| filter::search_matches(name, &e.obj.key.name))
            .collect();
        rows.sort_by(|a, b| b.last_reconciled.cmp(&a.last_reconciled));
        rows.truncate(SEARCH_CAP);
        json!({"resources": rows.iter().map(|e| summary(e, false)).collect::<Vec<_>>()})
    }

    /// `GET /api/v1/resource`: the object with server-injected fields, `{}` when absent.
    pub fn resource(&self, kind: &str, name: &str, ns: &str) -> Value {
        let kind = canonical_kind(kind);
        match self.get(&kind, ns, name) {
            Some(e) => self.served(e),
            None => json!({}),
        }
    }

    /// The object as the server serves it: `reconcilerRef` and `sourceRef` injected.
    pub fn served(&self, e: &Entry) -> Value {
        let mut v = e.json.clone();
        let Some(obj) = v.as_object_mut() else {
            return v;
        };
        let status = obj.entry("status").or_insert_with(|| json!({}));
        let Some(status) = status.as_object_mut() else {
            return v;
        };
        status.entry("reconcilerRef").or_insert_with(|| {
            json!({"status": e.obj.status.as_str(), "message": e.obj.message, "lastReconciled": e.last_reconciled, "managedBy": ""})
        });
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
                .raw
                .status
                .artifact
                .as_ref()
                .map(|a| a.metadata.clone())
                .unwrap_or_default();
            status.entry("sourceRef").or_insert_with(|| {
                json!({"kind": r.target.kind.as_str(), "name": r.target.name, "namespace": r.target.namespace,
                    "url": t.obj.raw.spec.url.clone().unwrap_or_default(),
                    "originURL": meta.get("org.opencontainers.image.source").cloned().unwrap_or_default(),
                    "originRevision": meta.get("org.opencontainers.image.revision").cloned().unwrap_or_default(),
                    "status": t.obj.status.as_str(), "message": t.obj.message})
            });
        }
        v
    }

    /// `GET /api/v1/events`.
    pub fn events(
        &self,
        kind: Option<&str>,
        name: &str,
        ns: Option<&str>,
        type_: Option<&str>,
    ) -> Value {
        let rows: Vec<&Value> = self
            .events
            .iter()
            .filter(|e| {
                let io = e["involvedObject"].as_str().unwrap_or("");
                let (k, n) = io.split_once('/').unwrap_or(("", io));
                kind.is_none_or(|want| want == k)
                    && filter::name_matches(name, n)
                    && ns.is_none_or(|want| Some(want) == e["namespace"].as_str())
                    && type_.is_none_or(|want| Some(want) == e["type"].as_str())
            })
            .collect();
        json!({"events": rows})
    }

    /// `POST /api/v1/inventory/objects`: one result per item (at most 2000), in order.
    pub fn inventory_objects(
        &self,
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
                let found = if kind == "CustomResourceDefinition" {
                    if crds_forbidden {
                        head["error"] = json!("Forbidden");
                        return head;
                    }
                    self.crds
                        .iter()
                        .find(|c| c["metadata"]["name"].as_str() == Some(name.as_str()))
                        .map(|c| (c.clone(), "Current", ""))
                } else {
                    self.get(&kind, &ns, &name).map(|e| {
                        (
                            self.served(e),
                            e.obj.status.as_str(),
                            e.obj.message.as_str(),
                        )
                    })
                };
                match found {
                    Some((obj, status, msg)) => {
                        head["status"] = json!(status);
                        if !msg.is_empty() {
                            head["statusMessage"] = json!(msg);
                        }
                        if !status_only {
                            head["object"] = obj;
                        }
                    }
                    None => head["error"] = json!("NotFound"),
                }
                head
            })
            .collect();
        json!({"objects": out})
    }
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

/// Fills what the real server computes: per-kind counters and visible namespaces.
fn fill_report(report: &mut Value, entries: &[Entry]) {
    let mut stats: BTreeMap<String, (String, u64, u64, u64)> = BTreeMap::new();
    let mut namespaces: Vec<String> = Vec::new();
    for e in entries {
        let kind = e.obj.key.kind.as_str().to_string();
        let api = e.json["apiVersion"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| e.obj.key.kind.default_api_version().into());
        let s = stats.entry(kind).or_insert((api, 0, 0, 0));
        match e.obj.status {
            Status::Suspended => s.3 += 1,
            st => {
                s.1 += 1;
                if st == Status::Failed {
                    s.2 += 1;
                }
            }
        }
        namespaces.push(e.obj.key.namespace.clone());
    }
    namespaces.sort();
    namespaces.dedup();
    let mut reconcilers: Vec<Value> = stats
        .into_iter()
        .map(|(kind, (api, running, failing, suspended))| {
            json!({"apiVersion": api, "kind": kind, "stats": {"running": running, "failing": failing, "suspended": suspended}})
        })
        .collect();
    reconcilers.sort_by(|a, b| {
        (a["apiVersion"].as_str(), a["kind"].as_str())
            .cmp(&(b["apiVersion"].as_str(), b["kind"].as_str()))
    });
    let spec = &mut report["spec"];
    if spec.get("reconcilers").is_none() {
        spec["reconcilers"] = json!(reconcilers);
    }
    if spec.get("namespaces").is_none() {
        spec["namespaces"] = json!(namespaces);
    }
    if spec.get("userInfo").is_none() {
        spec["userInfo"] = json!({"username": "fluxlens-sim"});
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn demo() -> Store {
        Store::from_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/demo"))
            .unwrap()
    }

    #[test]
    fn resources_semantics() {
        let s = demo();
        assert_eq!(
            s.resources(Some("Nope"), "", None, None),
            json!({"resources": null})
        );
        assert_eq!(
            s.resources(Some("Nope"), "", None, Some("Ready")),
            json!({"resources": []})
        );
        let all = s.resources(None, "", None, None)["resources"]
            .as_array()
            .unwrap()
            .len();
        assert_eq!(all, s.entries.len());
        let neg = s.resources(Some("Kustomization"), "!team-*", None, None)["resources"]
            .as_array()
            .unwrap()
            .clone();
        assert!(
            !neg.is_empty()
                && neg
                    .iter()
                    .all(|r| !r["name"].as_str().unwrap().starts_with("team-"))
        );
        let rows = s.resources(None, "", None, None);
        let times: Vec<_> = rows["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["lastReconciled"].as_str().unwrap_or("").to_string())
            .collect();
        assert!(times.windows(2).all(|w| w[0] >= w[1]), "newest first");
    }

    #[test]
    fn caps_per_kind_and_search() {
        let s = Store::synthetic(6000);
        let ks = s.resources(Some("Kustomization"), "", None, None)["resources"]
            .as_array()
            .unwrap()
            .len();
        assert_eq!(ks, RESOURCES_CAP_PER_KIND);
        let hits = s.search(None, "app", None)["resources"]
            .as_array()
            .unwrap()
            .clone();
        assert_eq!(hits.len(), SEARCH_CAP);
        assert!(hits.iter().all(|h| h["message"] == ""));
    }

    #[test]
    fn resource_not_found_is_empty_object_and_short_names_work() {
        let s = demo();
        assert_eq!(
            s.resource("Kustomization", "nope", "flux-system"),
            json!({})
        );
        let o = s.resource("ks", "tenants", "flux-system");
        assert_eq!(o["kind"], "Kustomization");
        assert_eq!(o["status"]["sourceRef"]["kind"], "OCIRepository");
        assert_eq!(o["status"]["reconcilerRef"]["status"], "Ready");
    }

    #[test]
    fn inventory_objects_order_cap_and_errors() {
        let s = demo();
        let mut items = vec![
            json!({"apiVersion":"v1","kind":"Kustomization","namespace":"flux-system","name":"nope"}),
        ];
        items.extend((0..2100).map(|_| json!({"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","namespace":"flux-system","name":"tenants"})));
        let r = s.inventory_objects(&items, true, false);
        let objs = r["objects"].as_array().unwrap();
        assert_eq!(objs.len(), INVENTORY_CAP);
        assert_eq!(objs[0]["error"], "NotFound");
        assert!(objs[1].get("object").is_none(), "statusOnly omits object");
        let crd = s.inventory_objects(&[json!({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","name":"helmreleases.helm.toolkit.fluxcd.io"})], false, true);
        assert_eq!(crd["objects"][0]["error"], "Forbidden");
    }

    #[test]
    fn report_counters_match_objects() {
        let s = demo();
        let total: u64 = s.report["spec"]["reconcilers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r["stats"]["running"].as_u64().unwrap() + r["stats"]["suspended"].as_u64().unwrap()
            })
            .sum();
        assert_eq!(total as usize, s.entries.len());
    }

    #[test]
    fn every_scenario_loads() {
        for name in ["demo", "broken", "enterprise-fips", "upstream-bootstrap"] {
            let s = Store::from_dir(
                &Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../../scenarios")
                    .join(name),
            )
            .unwrap();
            assert!(!s.entries.is_empty(), "{name}");
        }
    }
}
