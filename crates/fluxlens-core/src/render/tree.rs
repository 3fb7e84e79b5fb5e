//! A rendered tree as the check reads it: the Flux objects (without status), the Flux
//! controllers' Deployments, the namespaces it holds, what ResourceSets may generate, and
//! notes on everything passed over.

use super::manifests::{InputError, Manifest, Origin};
use crate::analyses::verdict::plural;
use crate::model::ObjectKey;
use crate::wire::kind::{FLUX_KINDS, Kind};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Deployments that run Flux controllers (flux-aio's is `flux`).
pub const CONTROLLERS: [&str; 8] = [
    "source-controller",
    "kustomize-controller",
    "helm-controller",
    "notification-controller",
    "image-reflector-controller",
    "image-automation-controller",
    "source-watcher",
    "flux",
];

/// A Flux controller Deployment in the tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Controller {
    pub name: String,
    pub namespace: String,
    /// Its first container's image, as written.
    pub image: String,
    /// `app.kubernetes.io/version` (bootstrap writes the Flux version there).
    pub version: Option<String>,
}

/// An object a ResourceSet template may produce: its kind, and its name when it is literal.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    pub resource_set: ObjectKey,
    pub kind: String,
    /// `None` when the name is templated (`<< inputs.name >>`).
    pub name: Option<String>,
}

/// A ConfigMap or Secret a HelmRelease (`valuesFrom`) or a Kustomization
/// (`postBuild.substituteFrom`) may read: part of those objects' desired state (revision 5).
#[derive(Debug, Clone, PartialEq)]
pub struct ValueSource {
    /// Its `data`, `stringData` and `binaryData` as written.
    pub content: Value,
    /// Who applies it, from the applier labels a render carries; `None`: not said.
    pub applier: Option<ObjectKey>,
}

/// What the check reads of one rendered tree.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tree {
    /// ConfigMaps and Secrets by key (kind `ConfigMap`/`Secret`), for the values they carry.
    pub values: BTreeMap<ObjectKey, ValueSource>,
    /// Flux objects by key, each with where it came from.
    pub flux: BTreeMap<ObjectKey, (Origin, Value)>,
    pub controllers: Vec<Controller>,
    /// Namespaces the tree holds anything in, or declares.
    pub namespaces: BTreeSet<String>,
    pub templates: Vec<Template>,
    /// What was passed over or adjusted, said once each.
    pub notes: Vec<String>,
}

/// Reads the manifests of one tree. A document without kind or name, or one object written
/// twice with different content, is an input error (which copy would the cluster hold?).
pub fn build(manifests: Vec<Manifest>) -> Result<Tree, InputError> {
    let mut t = Tree::default();
    let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
    let (mut defaulted, mut stripped, mut twins) = (0usize, 0usize, 0usize);
    for Manifest { origin, mut value } in manifests {
        let fail = |reason: String| InputError {
            file: origin.file.clone(),
            document: Some(origin.document),
            reason: match origin.item {
                Some(i) => format!("item {i}: {reason}"),
                None => reason,
            },
        };
        let kind = str_at(&value, &["kind"]).ok_or_else(|| fail("has no kind".into()))?;
        let name = str_at(&value, &["metadata", "name"])
            .ok_or_else(|| fail(format!("{kind} has no metadata.name")))?;
        let ns = str_at(&value, &["metadata", "namespace"]).unwrap_or_default();
        if kind == "Namespace" {
            t.namespaces.insert(name);
            continue;
        }
        if !ns.is_empty() {
            t.namespaces.insert(ns.clone());
        }
        let k = Kind::parse(&kind);
        if !FLUX_KINDS.contains(&k) {
            if kind == "Deployment" && CONTROLLERS.contains(&name.as_str()) {
                t.controllers.push(controller(&value, name, ns));
            } else if kind == "ConfigMap" || kind == "Secret" {
                t.values
                    .insert(ObjectKey::new(k, ns, name), value_source(&value));
                *skipped.entry(kind).or_default() += 1;
            } else {
                *skipped.entry(kind).or_default() += 1;
            }
            continue;
        }
        // Every Flux kind is namespaced: without one, kubectl applies it to `default`.
        let ns = if ns.is_empty() {
            defaulted += 1;
            set_namespace(&mut value, "default");
            t.namespaces.insert("default".into());
            "default".to_string()
        } else {
            ns
        };
        // A manifest's status is never applied: judging it would judge a stale copy.
        if value
            .as_object_mut()
            .and_then(|m| m.remove("status"))
            .is_some()
        {
            stripped += 1;
        }
        let key = ObjectKey::new(k, ns, name);
        if key.kind == Kind::ResourceSet {
            t.templates.extend(templates(&key, &value));
        }
        match t.flux.get(&key) {
            Some((_, v)) if *v == value => twins += 1,
            Some((first, _)) => {
                return Err(fail(format!(
                    "{key} is also written at {first}, with other content: which one the cluster would hold cannot be told"
                )));
            }
            None => {
                t.flux.insert(key, (origin, value));
            }
        }
    }
    t.notes = notes(&skipped, defaulted, stripped, twins);
    Ok(t)
}

fn notes(
    skipped: &BTreeMap<String, usize>,
    defaulted: usize,
    stripped: usize,
    twins: usize,
) -> Vec<String> {
    let mut notes = Vec::new();
    if !skipped.is_empty() {
        let total: usize = skipped.values().sum();
        let mut kinds: Vec<(&String, &usize)> = skipped.iter().collect();
        kinds.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let list: Vec<String> = kinds
            .iter()
            .take(8)
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        let more = if kinds.len() > 8 { ", …" } else { "" };
        notes.push(format!(
            "skipped: {} of {} the rules do not read ({}{more})",
            plural(total, "object"),
            plural(kinds.len(), "kind"),
            list.join(", ")
        ));
    }
    if defaulted > 0 {
        notes.push(format!(
            "{defaulted} Flux objects without metadata.namespace were read in namespace default, where kubectl would apply them"
        ));
    }
    if stripped > 0 {
        notes.push(format!(
            "{stripped} objects carried a status; it was ignored (a manifest's status is never applied)"
        ));
    }
    if twins > 0 {
        notes.push(format!(
            "{twins} objects were written twice, identically; read once"
        ));
    }
    notes
}

fn controller(v: &Value, name: String, namespace: String) -> Controller {
    let image = v
        .pointer("/spec/template/spec/containers/0/image")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let version = str_at(v, &["metadata", "labels", "app.kubernetes.io/version"]);
    Controller {
        name,
        namespace,
        image,
        version,
    }
}

/// The kinds and literal names a ResourceSet's `spec.resources` may produce.
fn templates(rs: &ObjectKey, v: &Value) -> Vec<Template> {
    let items = v.pointer("/spec/resources").and_then(Value::as_array);
    items
        .into_iter()
        .flatten()
        .filter_map(|r| {
            let kind = str_at(r, &["kind"])?;
            let name = str_at(r, &["metadata", "name"]).filter(|n| !n.contains("<<"));
            Some(Template {
                resource_set: rs.clone(),
                kind,
                name,
            })
        })
        .collect()
}

/// The values a ConfigMap or Secret carries, and who applies it (the labels kustomize- and
/// helm-controller stamp on what they apply).
fn value_source(v: &Value) -> ValueSource {
    let content = ["data", "stringData", "binaryData"]
        .iter()
        .map(|f| v.get(*f).cloned().unwrap_or(Value::Null))
        .collect();
    let label = |key: &str| str_at(v, &["metadata", "labels", key]);
    let applier = [
        (Kind::Kustomization, "kustomize.toolkit.fluxcd.io"),
        (Kind::HelmRelease, "helm.toolkit.fluxcd.io"),
    ]
    .into_iter()
    .find_map(|(kind, prefix)| {
        let name = label(&format!("{prefix}/name"))?;
        let ns = label(&format!("{prefix}/namespace"))
            .or_else(|| str_at(v, &["metadata", "namespace"]))
            .unwrap_or_default();
        Some(ObjectKey::new(kind, ns, name))
    });
    ValueSource {
        content: Value::Array(content),
        applier,
    }
}

fn str_at(v: &Value, path: &[&str]) -> Option<String> {
    let mut cur = v;
    for p in path {
        cur = cur.get(p)?;
    }
    cur.as_str().filter(|s| !s.is_empty()).map(str::to_string)
}

fn set_namespace(v: &mut Value, ns: &str) {
    if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.insert("namespace".into(), Value::String(ns.into()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::manifests::file;
    use std::path::Path;

    fn tree(text: &str) -> Result<Tree, InputError> {
        build(file(Path::new("t.yaml"), text).unwrap())
    }

    #[test]
    fn kinds_namespaces_and_notes() {
        let t = tree(
            "apiVersion: v1\nkind: Namespace\nmetadata: {name: apps}\n---\n\
             kind: Kustomization\nmetadata: {name: a}\nstatus: {x: 1}\n---\n\
             kind: ConfigMap\nmetadata: {name: c, namespace: apps}\n---\n\
             kind: Deployment\nmetadata: {name: source-controller, namespace: flux-system, labels: {app.kubernetes.io/version: v2.7.3}}\n\
             spec: {template: {spec: {containers: [{image: ghcr.io/fluxcd/source-controller:v1.7.3}]}}}\n",
        )
        .unwrap();
        let key = ObjectKey::parse("Kustomization/default/a").unwrap();
        assert!(t.flux[&key].1.get("status").is_none());
        assert_eq!(t.controllers[0].version.as_deref(), Some("v2.7.3"));
        assert!(t.namespaces.contains("apps") && t.namespaces.contains("default"));
        assert_eq!(t.notes.len(), 3, "{:?}", t.notes);
        assert!(
            t.notes[0].starts_with("skipped: 1 object of 1 kind "),
            "{:?}",
            t.notes
        );
    }

    #[test]
    fn input_errors_name_the_document() {
        let e = tree("kind: A\nmetadata: {name: a}\n---\nmetadata: {name: b}\n").unwrap_err();
        assert_eq!(e.to_string(), "t.yaml, document 1: has no kind");
        let twice = "kind: GitRepository\nmetadata: {name: r, namespace: x}\nspec: {url: a}\n---\n\
                     kind: GitRepository\nmetadata: {name: r, namespace: x}\nspec: {url: b}\n";
        let e = tree(twice).unwrap_err();
        assert!(
            e.to_string().contains("also written at t.yaml, document 0"),
            "{e}"
        );
        let same = "kind: GitRepository\nmetadata: {name: r, namespace: x}\n---\n\
                    kind: GitRepository\nmetadata: {name: r, namespace: x}\n";
        assert_eq!(tree(same).unwrap().flux.len(), 1);
    }
}
