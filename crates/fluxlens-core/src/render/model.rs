//! The cluster model of a rendered tree: the same [`Cluster`] the dashboard builds from the
//! API, with what the cluster would add — the FluxInstance's generated root pair (§1.5 of the
//! rule catalog: no verify unless an instance patch reaches it), the ExternalArtifacts an
//! ArtifactGenerator makes — and what only the tree can answer for a reference: a namespace
//! the render holds is complete, anything else is "not in this render", never missing.

use super::tree::Tree;
use crate::analyses::facts::instance::{self, PatchVerdict};
use crate::model::{Answer, Cluster, CrdAccess, NOT_IN_RENDER, ObjectKey};
use crate::wire::FluxReport;
use crate::wire::json::FromJson;
use crate::wire::kind::Kind;
use crate::wire::object::ApiObject;
use crate::wire::report::{Component, SyncStatus};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// What the model may take for granted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Assume {
    /// Nothing: objects carry no status, so whatever needs one is unknown (the findings).
    Nothing,
    /// The change reconciles: every object Ready at its generation and every configured verify
    /// passing. Only where a migration stands is read from this model, and said so.
    Reconciled,
}

/// The model of `tree`; `deleted`: what the base held and this tree no longer does (a
/// reference to it is missing, whatever namespaces the tree holds: revision 5).
pub fn model(tree: &Tree, assume: Assume, deleted: &BTreeSet<ObjectKey>) -> Cluster {
    let mut values: Vec<Value> = tree.flux.values().map(|(_, v)| v.clone()).collect();
    let instance = values
        .iter()
        .find(|v| kind_of(v) == "FluxInstance")
        .cloned();
    if let Some(inst) = &instance {
        generate_root_pair(&mut values, inst);
    }
    values.extend(external_artifacts(&values));
    if assume == Assume::Reconciled {
        values.iter_mut().for_each(reconciled);
    }
    let mut report = report(tree, instance.as_ref(), &values, assume);
    if assume == Assume::Reconciled {
        report.spec.components = running(tree, instance.as_ref());
    }
    let objects = values.iter().filter_map(ApiObject::from_json);
    let mut cluster = Cluster::new(report, objects, CrdAccess::Unknown);
    answer_for_absent(&mut cluster, tree, deleted);
    cluster
}

fn kind_of(v: &Value) -> &str {
    v.get("kind").and_then(Value::as_str).unwrap_or_default()
}

fn key_of(v: &Value) -> Option<ObjectKey> {
    let meta = v.get("metadata")?;
    Some(ObjectKey::new(
        Kind::parse(kind_of(v)),
        meta.get("namespace")
            .and_then(Value::as_str)
            .unwrap_or_default(),
        meta.get("name").and_then(Value::as_str)?,
    ))
}

/// The source and Kustomization the operator generates for `spec.sync` (FO:internal/builder
/// templates.go `syncTmpl`). They replace a Git-delivered copy of the same key: the operator's
/// server-side apply takes the fields over, and `spec.verify` only survives through a patch.
fn generate_root_pair(values: &mut Vec<Value>, inst: &Value) {
    let Some(sync) = inst.pointer("/spec/sync") else {
        return;
    };
    let Some(obj) = ApiObject::from_json(inst) else {
        return;
    };
    let Some(inst_obj) = crate::FluxObject::from_api(obj) else {
        return;
    };
    // The generated source's apiVersion follows the Flux minor the instance asks for
    // (`v1beta2` before 2.6): read from a report carrying that version.
    let mut asked = FluxReport::default();
    asked.spec.distribution.version = inst
        .pointer("/spec/distribution/version")
        .and_then(Value::as_str)
        .map(str::to_string);
    let versioned = Cluster::new(asked, [], CrdAccess::Unknown);
    let Some(g) = instance::generated_source(&inst_obj, &versioned) else {
        return;
    };
    let s = |k: &str| sync.get(k).and_then(Value::as_str).unwrap_or_default();
    let mut spec = json!({ "interval": "1m", "url": s("url") });
    let reference = match g.kind.as_str() {
        "GitRepository" => json!({ "name": s("ref") }),
        "OCIRepository" => json!({ "tag": s("ref") }),
        _ => Value::Null,
    };
    if !reference.is_null() && !s("ref").is_empty() {
        spec["ref"] = reference;
    }
    if g.kind == "Bucket" {
        spec["bucketName"] = json!(s("ref"));
    }
    if !s("pullSecret").is_empty() {
        spec["secretRef"] = json!({ "name": s("pullSecret") });
    }
    if !s("provider").is_empty() {
        spec["provider"] = json!(s("provider"));
    }
    let patches = instance::patches(&inst_obj);
    if let PatchVerdict::Reaches(i) = instance::evaluate(patches, &g) {
        spec["verify"] = patched_verify(&patches[i].patch).unwrap_or_else(|| json!({}));
    }
    let labels = json!({
        "app.kubernetes.io/managed-by": "flux-operator",
        "app.kubernetes.io/part-of": "flux",
        "app.kubernetes.io/instance": g.namespace,
    });
    let meta = json!({ "name": g.name, "namespace": g.namespace, "labels": labels });
    let source = json!({
        "apiVersion": format!("{}/{}", g.group, g.version),
        "kind": g.kind, "metadata": meta, "spec": spec,
    });
    let ks = json!({
        "apiVersion": "kustomize.toolkit.fluxcd.io/v1",
        "kind": "Kustomization", "metadata": meta,
        "spec": {
            "interval": "10m", "prune": true,
            "path": sync.get("path").cloned().unwrap_or(json!("./")),
            "sourceRef": { "kind": g.kind, "name": g.name },
        },
    });
    for generated in [source, ks] {
        let key = key_of(&generated);
        values.retain(|v| key_of(v) != key);
        values.push(generated);
    }
}

/// The `spec.verify` a patch body sets: a JSON6902 `add`/`replace` of `/spec/verify`, or a
/// strategic merge's `spec.verify`.
pub fn patched_verify(body: &str) -> Option<Value> {
    let docs = super::yaml::documents(body).ok()?;
    let v = docs.into_iter().next()?.value;
    match v {
        Value::Array(ops) => ops.into_iter().find_map(|op| {
            let path = op.get("path").and_then(Value::as_str)?;
            let verb = op.get("op").and_then(Value::as_str)?;
            (path == "/spec/verify" && matches!(verb, "add" | "replace"))
                .then(|| op.get("value").cloned())
                .flatten()
        }),
        v => v.pointer("/spec/verify").cloned(),
    }
}

/// The ExternalArtifacts ArtifactGenerators make (`spec.artifacts[].name`, same namespace).
fn external_artifacts(values: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for g in values.iter().filter(|v| kind_of(v) == "ArtifactGenerator") {
        let Some(key) = key_of(g) else { continue };
        let artifacts = g.pointer("/spec/artifacts").and_then(Value::as_array);
        for a in artifacts.into_iter().flatten() {
            let Some(name) = a.get("name").and_then(Value::as_str) else {
                continue;
            };
            let exists = values.iter().any(|v| {
                key_of(v).is_some_and(|k| {
                    k.kind == Kind::ExternalArtifact
                        && k.namespace == key.namespace
                        && k.name == name
                })
            });
            if !exists {
                out.push(json!({
                    "apiVersion": "source.toolkit.fluxcd.io/v1",
                    "kind": "ExternalArtifact",
                    "metadata": { "name": name, "namespace": key.namespace },
                    "spec": { "sourceRef": {
                        "apiVersion": "source.extensions.fluxcd.io/v1beta1",
                        "kind": "ArtifactGenerator", "name": key.name,
                    } },
                }));
            }
        }
    }
    out
}

/// As if reconciled: Ready at the object's generation, and a configured verify passing.
fn reconciled(v: &mut Value) {
    let generation = v
        .pointer("/metadata/generation")
        .cloned()
        .unwrap_or(json!(1));
    if v.pointer("/metadata/generation").is_none()
        && let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut)
    {
        m.insert("generation".into(), generation.clone());
    }
    let cond = |t: &str| {
        json!({ "type": t, "status": "True", "reason": "AssumedPreMerge",
                "message": "assumed by the pre-merge check", "observedGeneration": generation })
    };
    let mut conditions = vec![cond("Ready")];
    if v.pointer("/spec/verify").is_some() {
        conditions.push(cond("SourceVerified"));
    }
    let mut status = json!({ "observedGeneration": generation, "conditions": conditions });
    match kind_of(v) {
        "FluxInstance" => {
            let version = v
                .pointer("/spec/distribution/version")
                .and_then(Value::as_str)
                .unwrap_or("2.x");
            let applied = format!("{version}@assumed");
            status["lastAppliedRevision"] = json!(applied);
            status["lastAttemptedRevision"] = json!(applied);
        }
        "Receiver" => {
            if let Some(k) = key_of(v) {
                let path = crate::analyses::facts::cluster::generic_oidc_webhook_path(
                    &k.name,
                    &k.namespace,
                );
                status["webhookPath"] = json!(path);
            }
        }
        _ => {}
    }
    v["status"] = status;
}

/// The controllers a healthy cluster runs: the render's Deployments, else the FluxInstance's
/// components from its registry (no tag, no digest: those the operator picks at apply time).
fn running(tree: &Tree, inst: Option<&Value>) -> Vec<Component> {
    let ready = |name: &str, image: String| Component {
        name: name.to_string(),
        ready: Some(true),
        status: Some("Current".into()),
        image: Some(image),
    };
    if !tree.controllers.is_empty() {
        return tree
            .controllers
            .iter()
            .map(|c| ready(&c.name, c.image.clone()))
            .collect();
    }
    let Some(inst) = inst else { return Vec::new() };
    let registry = inst
        .pointer("/spec/distribution/registry")
        .and_then(Value::as_str)
        .unwrap_or("ghcr.io/fluxcd");
    let listed: Vec<String> = inst
        .pointer("/spec/components")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|c| c.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let names = if listed.is_empty() {
        crate::analyses::facts::cluster::DEFAULT_CONTROLLERS
            .iter()
            .map(|s| s.to_string())
            .collect()
    } else {
        listed
    };
    names
        .iter()
        .map(|n| ready(n, format!("{registry}/{n}")))
        .collect()
}

/// The report the operator would write, from what the tree declares.
fn report(tree: &Tree, inst: Option<&Value>, values: &[Value], assume: Assume) -> FluxReport {
    let mut r = FluxReport::default();
    let ns = inst
        .and_then(key_of)
        .map(|k| k.namespace)
        .or_else(|| tree.controllers.first().map(|c| c.namespace.clone()))
        .unwrap_or_else(|| "flux-system".into());
    r.metadata.namespace = Some(ns.clone());
    r.spec.namespaces = tree.namespaces.iter().cloned().collect();
    let exact = |s: &str| {
        let t = s.trim_start_matches('v');
        (t.split('.').count() == 3 && t.split('.').all(|p| p.parse::<u32>().is_ok()))
            .then(|| format!("v{t}"))
    };
    r.spec.distribution.version = inst
        .and_then(|i| i.pointer("/spec/distribution/version"))
        .and_then(Value::as_str)
        .and_then(exact)
        .or_else(|| {
            tree.controllers
                .iter()
                .find_map(|c| c.version.as_deref().and_then(exact))
        });
    r.spec.distribution.managed_by = if inst.is_some() {
        Some("flux-operator".into())
    } else if tree.controllers.iter().any(|c| c.name == "flux") {
        Some("timoni".into())
    } else if !tree.controllers.is_empty() {
        Some("flux bootstrap".into())
    } else {
        None
    };
    r.spec.components = tree
        .controllers
        .iter()
        .map(|c| Component {
            name: c.name.clone(),
            ready: None,
            status: None,
            image: Some(c.image.clone()),
        })
        .collect();
    // Without an instance, the report's sync is the Kustomization named like the operator
    // namespace (FO:internal/reporter/sync.go), when the tree has it.
    let root_ks = ObjectKey::new(Kind::Kustomization, ns.clone(), ns.clone());
    if inst.is_none() && values.iter().any(|v| key_of(v).as_ref() == Some(&root_ks)) {
        r.spec.sync = Some(SyncStatus {
            id: format!("kustomization/{ns}"),
            ..Default::default()
        });
    }
    if assume == Assume::Reconciled
        && let Some(sync) = sync_status(&r, inst, values)
    {
        r.spec.sync = Some(sync);
    }
    r
}

/// The report's sync as a reconciled cluster would show it: ready, with the root's URL.
fn sync_status(r: &FluxReport, inst: Option<&Value>, values: &[Value]) -> Option<SyncStatus> {
    let ns = r.operator_namespace().to_string();
    let name = inst
        .and_then(|i| i.pointer("/spec/sync/name"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| r.sync_kustomization().map(str::to_string))
        .unwrap_or_else(|| ns.clone());
    let ks = ObjectKey::new(Kind::Kustomization, ns.clone(), name.clone());
    let ks = values.iter().find(|v| key_of(v).as_ref() == Some(&ks))?;
    let src_kind = ks.pointer("/spec/sourceRef/kind").and_then(Value::as_str)?;
    let src_name = ks.pointer("/spec/sourceRef/name").and_then(Value::as_str)?;
    let src = ObjectKey::new(Kind::parse(src_kind), ns.clone(), src_name);
    let url = values
        .iter()
        .find(|v| key_of(v).as_ref() == Some(&src))
        .and_then(|v| v.pointer("/spec/url"))
        .and_then(Value::as_str)
        .map(str::to_string);
    Some(SyncStatus {
        id: format!("kustomization/{name}"),
        ready: true,
        source: url,
        ..Default::default()
    })
}

/// What the tree answers for references to objects it does not hold: NotFound where the
/// render holds the namespace; otherwise "not in this render" (a ResourceSet may generate it,
/// or the namespace is another render's), which the model shows as not confirmed.
fn answer_for_absent(cluster: &mut Cluster, tree: &Tree, deleted: &BTreeSet<ObjectKey>) {
    for (key, _) in cluster.candidate_missing() {
        if deleted.contains(&key) {
            cluster.confirmations.insert(key, Answer::NotFound);
            continue;
        }
        if matches!(key.kind, Kind::Other(_)) {
            continue;
        }
        let generator = tree.templates.iter().find(|t| {
            t.kind == key.kind.as_str() && t.name.as_ref().is_none_or(|n| *n == key.name)
        });
        let why = if let Some(t) = generator {
            Some(format!(
                "{NOT_IN_RENDER}: {} may generate it",
                t.resource_set
            ))
        } else if !tree.namespaces.contains(&key.namespace) {
            Some(format!(
                "{NOT_IN_RENDER}: it holds nothing in namespace {}",
                key.namespace
            ))
        } else {
            None
        };
        match why {
            Some(why) => cluster.notes.unconfirmed.push((key, why)),
            None => {
                cluster.confirmations.insert(key, Answer::NotFound);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::manifests::file;
    use std::path::Path;

    fn cluster(text: &str) -> Cluster {
        let t = crate::render::tree::build(file(Path::new("t.yaml"), text).unwrap()).unwrap();
        model(&t, Assume::Nothing, &BTreeSet::new())
    }

    const INSTANCE: &str = "kind: FluxInstance\nmetadata: {name: flux, namespace: flux-system}\nspec:\n  distribution: {version: VERSION}\n  sync: {kind: OCIRepository, url: 'oci://r/x', ref: latest, pullSecret: s}\n";

    #[test]
    fn the_generated_root_follows_the_operator_template() {
        let c = cluster(&INSTANCE.replace("VERSION", "'2.5.x'"));
        let key = ObjectKey::parse("OCIRepository/flux-system/flux-system").unwrap();
        let src = c.get(&key).expect("generated source");
        assert_eq!(
            src.raw.api_version.as_deref(),
            Some("source.toolkit.fluxcd.io/v1beta2")
        );
        assert!(src.verify().is_none(), "no verify is ever generated");
        assert_eq!(
            src.raw.spec.secret_ref.as_ref().map(|r| r.name.as_str()),
            Some("s")
        );
        let newer = cluster(&INSTANCE.replace("VERSION", "'2.7.x'"));
        assert_eq!(
            newer.get(&key).unwrap().raw.api_version.as_deref(),
            Some("source.toolkit.fluxcd.io/v1")
        );
        assert_eq!(c.root_source(), Some(key));
    }

    #[test]
    fn a_patch_that_reaches_the_root_carries_its_verify() {
        let patched = format!(
            "{}  kustomize:\n    patches:\n      - target: {{kind: OCIRepository}}\n        patch: |\n          - op: add\n            path: /spec/verify\n            value: {{provider: cosign}}\n",
            INSTANCE.replace("VERSION", "'2.7.x'")
        );
        let c = cluster(&patched);
        let key = ObjectKey::parse("OCIRepository/flux-system/flux-system").unwrap();
        let v = c
            .get(&key)
            .unwrap()
            .raw
            .spec
            .verify
            .clone()
            .expect("verify from the patch");
        assert_eq!(v.provider.as_deref(), Some("cosign"));
        assert_eq!(
            patched_verify("spec:\n  verify: {provider: notation}\n"),
            Some(json!({"provider": "notation"}))
        );
    }
}
