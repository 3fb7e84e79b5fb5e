//! The two shapes in which the real server hands out an object (`internal/web/`: the batch
//! read and the single-object GET): sanitized only for the batch read, sanitized and enriched for the
//! single-object GET. Scenario files hold objects as they are stored in the cluster
//! (ownership labels, native inventories); everything server-made is computed here.

use serde_json::{Map, Value, json};

/// Label prefixes of the Flux ownership labels (`<prefix>/name`, `<prefix>/namespace`), in
/// the order the server reads them for `managedBy` (FO internal/web/resource.go).
const OWNER_LABELS: [(&str, &str); 4] = [
    ("kustomize.toolkit.fluxcd.io", "Kustomization"),
    ("helm.toolkit.fluxcd.io", "HelmRelease"),
    ("resourceset.fluxcd.controlplane.io", "ResourceSet"),
    ("fluxcd.controlplane.io", "FluxInstance"),
];

/// Annotations the server drops (FO internal/web/sanitize.go `cleanObjectForExport`).
const DROPPED_ANNOTATIONS: [&str; 3] = [
    "kubectl.kubernetes.io/last-applied-configuration",
    "reconcile.fluxcd.io/requestedAt",
    "reconcile.fluxcd.io/forceAt",
];

/// Whether a label key is a Flux ownership label: a Flux API group prefix and a `/name` or
/// `/namespace` suffix (FO sanitize.go: `IsFluxAPI(key)` and the two suffixes).
pub fn is_flux_ownership_label(key: &str) -> bool {
    let Some((prefix, suffix)) = key.rsplit_once('/') else {
        return false;
    };
    prefix.contains("fluxcd") && (suffix == "name" || suffix == "namespace")
}

/// The batch read's shape: metadata reduced to name, namespace, labels and annotations, Flux
/// ownership labels and request annotations dropped, Secret values masked, status kept.
pub fn sanitize(stored: &Value) -> Value {
    let mut v = stored.clone();
    let Some(obj) = v.as_object_mut() else {
        return v;
    };
    if obj.get("kind").and_then(Value::as_str) == Some("Secret")
        && let Some(Value::Object(data)) = obj.get_mut("data")
    {
        for val in data.values_mut() {
            *val = json!("***redacted***");
        }
    }
    let meta = obj.get("metadata").cloned().unwrap_or_else(|| json!({}));
    let mut clean = Map::new();
    for k in ["name", "namespace"] {
        if let Some(x) = meta.get(k) {
            clean.insert(k.into(), x.clone());
        }
    }
    if let Some(Value::Object(labels)) = meta.get("labels") {
        let kept: Map<String, Value> = labels
            .iter()
            .filter(|(k, _)| !is_flux_ownership_label(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !kept.is_empty() {
            clean.insert("labels".into(), Value::Object(kept));
        }
    }
    if let Some(Value::Object(ann)) = meta.get("annotations") {
        let kept: Map<String, Value> = ann
            .iter()
            .filter(|(k, _)| !DROPPED_ANNOTATIONS.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !kept.is_empty() {
            clean.insert("annotations".into(), Value::Object(kept));
        }
    }
    obj.insert("metadata".into(), Value::Object(clean));
    v
}

/// `managedBy` as the server derives it from the stored object's ownership labels (the
/// FluxInstance only with `app.kubernetes.io/managed-by: flux-operator`), or from an
/// ExternalArtifact's `spec.sourceRef`; `""` when none.
pub fn managed_by(stored: &Value) -> String {
    let labels = &stored["metadata"]["labels"];
    let get = |k: String| labels.get(&k).and_then(Value::as_str).unwrap_or("");
    for (prefix, kind) in OWNER_LABELS {
        let (name, ns) = (
            get(format!("{prefix}/name")),
            get(format!("{prefix}/namespace")),
        );
        if name.is_empty() {
            continue;
        }
        if kind == "FluxInstance" && get("app.kubernetes.io/managed-by".into()) != "flux-operator" {
            continue;
        }
        return format!("{kind}/{ns}/{name}");
    }
    if stored["kind"] == "ExternalArtifact" {
        let r = &stored["spec"]["sourceRef"];
        if let Some(name) = r["name"].as_str() {
            let ns = r["namespace"]
                .as_str()
                .or(stored["metadata"]["namespace"].as_str())
                .unwrap_or("");
            return format!(
                "{}/{ns}/{name}",
                r["kind"].as_str().unwrap_or("ArtifactGenerator")
            );
        }
    }
    String::new()
}

/// The native `{entries: [{id, v}]}` inventory rewritten as the server's list form.
pub fn inventory_list(native: &Value) -> Option<Value> {
    let entries = native.get("entries")?.as_array()?;
    let list: Vec<Value> = entries
        .iter()
        .filter_map(|e| {
            let id = e["id"].as_str()?;
            let v = e["v"].as_str().unwrap_or("");
            let mut p = id.splitn(4, '_');
            let (ns, name, group, kind) = (p.next()?, p.next()?, p.next()?, p.next()?);
            let api = if group.is_empty() {
                v.to_string()
            } else {
                format!("{group}/{v}")
            };
            Some(json!({"name": name, "namespace": ns, "kind": kind, "apiVersion": api}))
        })
        .collect();
    (!list.is_empty()).then_some(Value::Array(list))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ownership_labels_are_recognised_by_group_and_suffix() {
        assert!(is_flux_ownership_label("kustomize.toolkit.fluxcd.io/name"));
        assert!(is_flux_ownership_label("fluxcd.controlplane.io/namespace"));
        assert!(!is_flux_ownership_label("app.kubernetes.io/managed-by"));
        assert!(!is_flux_ownership_label(
            "kustomize.toolkit.fluxcd.io/prune"
        ));
        assert!(!is_flux_ownership_label("team/name"));
    }
}
