//! Well-known charts whose output the order model needs: the `flux-instance` chart templates
//! the FluxInstance from `values.instance` (name `fullnameOverride`, default `flux`; namespace
//! the release's). A render of a repository holds the HelmRelease, not what Helm renders, so
//! the FluxInstance is read from its values, stamped as the HelmRelease's.

use super::tree::Tree;
use crate::model::ObjectKey;
use crate::wire::kind::Kind;
use serde_json::{Value, json};

/// Whether a HelmRelease installs the `flux-instance` chart (by name from a chart template, or
/// by the chart source's URL for a `chartRef`).
fn is_flux_instance_chart(hr: &Value, tree: &Tree, ns: &str) -> bool {
    let template = hr
        .pointer("/spec/chart/spec/chart")
        .and_then(Value::as_str)
        .is_some_and(|c| c == "flux-instance" || c.ends_with("/flux-instance"));
    let by_ref = hr.pointer("/spec/chartRef").is_some_and(|r| {
        let name = r.get("name").and_then(Value::as_str).unwrap_or_default();
        let kind = Kind::parse(r.get("kind").and_then(Value::as_str).unwrap_or_default());
        let rns = r.get("namespace").and_then(Value::as_str).unwrap_or(ns);
        tree.flux
            .get(&ObjectKey::new(kind, rns, name))
            .and_then(|(_, v)| v.pointer("/spec/url").and_then(Value::as_str))
            .is_some_and(|u| u.trim_end_matches('/').ends_with("/flux-instance"))
    });
    template || by_ref
}

/// The labels helm-controller stamps on what a release installs.
fn helm_labels(hr: &ObjectKey) -> Value {
    json!({
        "helm.toolkit.fluxcd.io/name": hr.name,
        "helm.toolkit.fluxcd.io/namespace": hr.namespace,
    })
}

/// A HelmRelease's values as helm-controller merges them, top-level key by key: each
/// `spec.valuesFrom` ConfigMap or Secret the tree holds (its `valuesKey`, default
/// `values.yaml`; a Secret's `stringData` only, its `data` being base64), then `spec.values` over
/// them (revision 5: values that arrive through a ConfigMap are part of the desired state).
fn values_of(hr: &Value, ns: &str, tree: &Tree) -> serde_json::Map<String, Value> {
    let mut out = serde_json::Map::new();
    let from = hr.pointer("/spec/valuesFrom").and_then(Value::as_array);
    for r in from.into_iter().flatten() {
        let (Some(kind), Some(name)) = (
            r.get("kind").and_then(Value::as_str),
            r.get("name").and_then(Value::as_str),
        ) else {
            continue;
        };
        let key = ObjectKey::new(Kind::parse(kind), ns, name);
        let field = r
            .get("valuesKey")
            .and_then(Value::as_str)
            .unwrap_or("values.yaml");
        let Some(source) = tree.values.get(&key) else {
            continue;
        };
        // content: [data, stringData, binaryData]; a Secret's data is base64.
        let text = [0usize, 1]
            .into_iter()
            .filter(|&i| kind == "ConfigMap" || i == 1)
            .find_map(|i| {
                source
                    .content
                    .get(i)?
                    .get(field)?
                    .as_str()
                    .map(str::to_string)
            });
        let parsed =
            text.and_then(|t| super::manifests::file(std::path::Path::new(field), &t).ok());
        for doc in parsed.into_iter().flatten() {
            if let Value::Object(m) = doc.value {
                out.extend(m);
            }
        }
    }
    if let Some(Value::Object(inline)) = hr.pointer("/spec/values") {
        out.extend(inline.clone());
    }
    out
}

/// Adds the FluxInstance a `flux-instance` HelmRelease templates when the tree holds none, and
/// names that HelmRelease as the applier of a FluxInstance the tree holds without labels.
pub fn templated_instances(tree: &mut Tree) {
    let releases: Vec<(ObjectKey, Value)> = tree
        .flux
        .iter()
        .filter(|(k, (_, v))| {
            k.kind == Kind::HelmRelease && is_flux_instance_chart(v, tree, &k.namespace)
        })
        .map(|(k, (_, v))| (k.clone(), v.clone()))
        .collect();
    for (hr, v) in releases {
        let ns = v
            .pointer("/spec/targetNamespace")
            .and_then(Value::as_str)
            .unwrap_or(&hr.namespace)
            .to_string();
        let values = values_of(&v, &hr.namespace, tree);
        let name = values
            .get("fullnameOverride")
            .and_then(Value::as_str)
            .unwrap_or("flux")
            .to_string();
        let key = ObjectKey::new(Kind::FluxInstance, ns.clone(), name.clone());
        if let Some((_, inst)) = tree.flux.get_mut(&key) {
            let labels = inst.pointer_mut("/metadata/labels");
            match labels.and_then(Value::as_object_mut) {
                Some(l) if l.keys().any(|k| k.ends_with(".fluxcd.io/name")) => {}
                Some(l) => {
                    l.extend(helm_labels(&hr).as_object().cloned().unwrap_or_default());
                }
                None => inst["metadata"]["labels"] = helm_labels(&hr),
            }
            continue;
        }
        if tree.flux.keys().any(|k| k.kind == Kind::FluxInstance) {
            continue;
        }
        let Some(spec) = values.get("instance").cloned() else {
            continue;
        };
        let origin = tree.flux[&hr].0.clone();
        let instance = json!({
            "apiVersion": "fluxcd.controlplane.io/v1",
            "kind": "FluxInstance",
            "metadata": {"name": name, "namespace": ns, "labels": helm_labels(&hr)},
            "spec": spec,
        });
        tree.notes.push(format!(
            "{key}: templated by the flux-instance chart of {hr} (read from its values.instance)"
        ));
        tree.flux.insert(key, (origin, instance));
    }
}

#[cfg(test)]
mod tests {
    use crate::model::ObjectKey;
    use crate::render::manifests::file;
    use crate::render::tree::build;
    use std::path::Path;

    #[test]
    fn the_chart_templates_the_instance_from_its_values() {
        let mut t = build(
            file(
                Path::new("t.yaml"),
                "kind: HelmRelease\nmetadata: {name: flux-instance, namespace: flux-system}\n\
                 spec:\n  chart: {spec: {chart: flux-instance, sourceRef: {kind: HelmRepository, name: cp}}}\n  \
                 values:\n    instance:\n      sync: {kind: OCIRepository, url: 'oci://ghcr.io/o/r', ref: latest}\n",
            )
            .unwrap(),
        )
        .unwrap();
        super::templated_instances(&mut t);
        let key = ObjectKey::parse("FluxInstance/flux-system/flux").unwrap();
        let (_, inst) = &t.flux[&key];
        assert_eq!(inst.pointer("/spec/sync/kind").unwrap(), "OCIRepository");
        assert_eq!(
            inst.pointer("/metadata/labels/helm.toolkit.fluxcd.io~1name")
                .unwrap(),
            "flux-instance"
        );
        assert!(
            t.notes
                .iter()
                .any(|n| n.contains("templated by the flux-instance chart"))
        );
    }
}
