//! A HelmRelease's inventory on Flux ≤ 2.7, read as the real server reads it
//! (FO internal/web/inventory.go `getInventory`): no `status.inventory.entries`, so the
//! single-object GET decodes the Helm storage Secret of the newest release in
//! `status.history` and lists the objects of its manifest. Only that GET does this; the batch
//! read never does.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::Deserialize;
use serde_json::{Value, json};
use std::io::Read;

/// The inventory list, or `None` where the server skips the release (remote `kubeConfig`, no
/// history, no storage Secret, a Secret it cannot decode).
pub fn inventory(release: &Value, external: &[Value]) -> Option<Value> {
    if release["spec"].get("kubeConfig").is_some() {
        return None;
    }
    let storage_ns = release["status"]["storageNamespace"]
        .as_str()
        .filter(|s| !s.is_empty())?;
    let latest = release["status"]["history"].as_array()?.first()?;
    let secret_name = format!(
        "sh.helm.release.v1.{}.v{}",
        latest["name"].as_str()?,
        latest["version"].as_i64()?
    );
    let secret = external.iter().find(|o| {
        o["kind"] == "Secret"
            && o["metadata"]["name"].as_str() == Some(&secret_name)
            && o["metadata"]["namespace"].as_str() == Some(storage_ns)
    })?;
    let manifest = decode(secret["data"]["release"].as_str()?)?;
    let entries: Vec<Value> = documents(&manifest)
        .into_iter()
        .map(|d| {
            // The server means to default a namespaced object's namespace to the release's,
            // but sets it on the HelmRelease instead (`obj.SetNamespace`), so an object
            // written without one is listed with "" — mirrored, not corrected.
            json!({"name": d.metadata.name, "namespace": d.metadata.namespace,
                   "kind": d.kind, "apiVersion": d.api_version})
        })
        .collect();
    Some(Value::Array(entries))
}

/// `data.release` as the cluster stores it: the Secret's own base64 around Helm's base64 of
/// (usually gzipped) JSON (`decodeHelmStorage`).
fn decode(data: &str) -> Option<String> {
    let helm = STANDARD.decode(data).ok()?;
    let mut bytes = STANDARD.decode(helm).ok()?;
    if bytes.starts_with(&[0x1f, 0x8b, 0x08]) {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .read_to_end(&mut out)
            .ok()?;
        bytes = out;
    }
    let release: Value = serde_json::from_slice(&bytes).ok()?;
    release["manifest"].as_str().map(str::to_string)
}

#[derive(Deserialize, Default)]
struct Meta {
    #[serde(default)]
    name: String,
    #[serde(default)]
    namespace: String,
}

#[derive(Deserialize)]
struct Doc {
    #[serde(default)]
    kind: String,
    #[serde(default, rename = "apiVersion")]
    api_version: String,
    #[serde(default)]
    metadata: Meta,
}

/// The objects of a multi-document manifest (empty documents skipped, as ssa `ReadObjects`).
fn documents(manifest: &str) -> Vec<Doc> {
    serde_yaml_ng::Deserializer::from_str(manifest)
        .filter_map(|d| Doc::deserialize(d).ok())
        .filter(|d| !d.kind.is_empty() && !d.metadata.name.is_empty())
        .collect()
}

#[cfg(test)]
pub mod tests {
    use super::*;
    use std::io::Write;

    /// A storage Secret as the cluster holds it, for tests and scenarios.
    pub fn secret(ns: &str, release: &str, version: i64, manifest: &str) -> Value {
        let body = json!({"name": release, "manifest": manifest}).to_string();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(body.as_bytes()).unwrap();
        let helm = STANDARD.encode(gz.finish().unwrap());
        json!({"apiVersion": "v1", "kind": "Secret", "type": "helm.sh/release.v1",
               "metadata": {"name": format!("sh.helm.release.v1.{release}.v{version}"), "namespace": ns},
               "data": {"release": STANDARD.encode(helm)}})
    }

    fn release(extra_spec: Value) -> Value {
        json!({"kind": "HelmRelease", "metadata": {"name": "flux-instance", "namespace": "flux-system"},
               "spec": extra_spec,
               "status": {"storageNamespace": "flux-system",
                          "history": [{"name": "flux-instance", "version": 2, "namespace": "flux-system"},
                                      {"name": "flux-instance", "version": 1, "namespace": "flux-system"}]}})
    }

    #[test]
    fn the_newest_release_in_storage_lists_the_owned_objects() {
        let manifest = "---\n# Source: flux-instance/templates/instance.yaml\napiVersion: fluxcd.controlplane.io/v1\nkind: FluxInstance\nmetadata:\n  name: flux\n  namespace: flux-system\n---\n\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: no-namespace\n";
        let external = vec![
            secret(
                "flux-system",
                "flux-instance",
                1,
                "kind: ConfigMap\nmetadata:\n  name: old\n",
            ),
            secret("flux-system", "flux-instance", 2, manifest),
        ];
        let inv = inventory(&release(json!({})), &external).unwrap();
        assert_eq!(
            inv,
            json!([{"name": "flux", "namespace": "flux-system", "kind": "FluxInstance", "apiVersion": "fluxcd.controlplane.io/v1"},
                   {"name": "no-namespace", "namespace": "", "kind": "ConfigMap", "apiVersion": "v1"}])
        );
        // Skipped as inventory.go skips them: a remote cluster, no storage, no history.
        assert!(
            inventory(
                &release(json!({"kubeConfig": {"secretRef": {"name": "kc"}}})),
                &external
            )
            .is_none()
        );
        assert!(inventory(&release(json!({})), &[]).is_none());
        let mut no_history = release(json!({}));
        no_history["status"]["history"] = json!([]);
        assert!(inventory(&no_history, &external).is_none());
    }
}
