//! Synthetic clusters of any size, shaped like real ones (a FluxInstance, a root source,
//! tenants with Git and OCI sources, Helm charts, dependsOn chains, a few failures and
//! dangling references). Used by the simulator's `--synthetic N` and the benchmarks.
//! Objects are stored as the cluster holds them: ownership is in the appliers' native
//! inventories and the operator's label, never in server-injected fields.

use serde_json::{Value, json};

/// Generates `n` Flux objects with a few dangling references (deterministic).
pub fn objects(n: usize) -> Vec<Value> {
    generate(n, true)
}

/// Generates `n` Flux objects where every reference resolves.
pub fn healthy(n: usize) -> Vec<Value> {
    generate(n, false)
}

fn generate(n: usize, dangling: bool) -> Vec<Value> {
    let mut out = Vec::with_capacity(n + 8);
    let ts = "2026-11-29T10:00:00Z";
    let ready = |msg: &str| json!([{"type":"Ready","status":"True","reason":"Succeeded","message":msg,"lastTransitionTime":ts,"observedGeneration":1}]);
    let failed = |reason: &str, msg: &str| json!([{"type":"Ready","status":"False","reason":reason,"message":msg,"lastTransitionTime":ts,"observedGeneration":1}]);
    out.push(json!({"apiVersion":"fluxcd.controlplane.io/v1","kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},
        "spec":{"distribution":{"version":"2.8.x","registry":"ghcr.io/fluxcd"},"sync":{"kind":"GitRepository","url":"https://git.example.org/fleet.git","ref":"refs/heads/main","path":"clusters/synthetic"}},
        "status":{"conditions":ready("Reconciliation finished"),"lastAppliedRevision":"v2.8.3@sha256:00"}}));
    out.push(json!({"apiVersion":"source.toolkit.fluxcd.io/v1","kind":"GitRepository","metadata":{"name":"flux-system","namespace":"flux-system"},
        "spec":{"url":"https://git.example.org/fleet.git","ref":{"name":"refs/heads/main"}},
        "status":{"conditions":ready("stored artifact"),"artifact":{"revision":"refs/heads/main@sha1:1111111111111111111111111111111111111111"}}}));
    out.push(json!({"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","metadata":{"name":"flux-system","namespace":"flux-system"},
        "spec":{"path":"clusters/synthetic","prune":true,"sourceRef":{"kind":"GitRepository","name":"flux-system"}},
        "status":{"conditions":ready("Applied revision")}}));
    let tenants = (n / 50).max(1);
    let mut i = 0usize;
    while out.len() < n {
        let t = i % tenants;
        let ns = format!("tenant-{t:03}");
        let j = i / tenants;
        let obj = match j % 10 {
            0 => {
                json!({"apiVersion":"source.toolkit.fluxcd.io/v1","kind":"GitRepository","metadata":{"name":format!("repo-{j}"),"namespace":ns},
                "spec":{"url":format!("https://git.example.org/{ns}/repo-{j}.git"),"ref":{"branch":"main"}},
                "status":{"conditions":ready("stored artifact"),"artifact":{"revision":"main@sha1:2222222222222222222222222222222222222222"}}})
            }
            1 => {
                json!({"apiVersion":"source.toolkit.fluxcd.io/v1","kind":"OCIRepository","metadata":{"name":format!("oci-{j}"),"namespace":ns},
                "spec":{"url":format!("oci://ghcr.io/example/{ns}/app-{j}"),"ref":{"tag":"latest"},"verify":{"provider":"cosign","matchOIDCIdentity":[{"issuer":"^https://token\\.actions\\.githubusercontent\\.com$","subject":"^https://github\\.com/example/app/\\.github/workflows/release\\.yaml@refs/heads/main$"}]}},
                "status":{"conditions":[{"type":"Ready","status":"True","reason":"Succeeded","message":"stored artifact","lastTransitionTime":ts},{"type":"SourceVerified","status":"True","reason":"Succeeded","message":"verified signature of revision latest@sha256:3333"}],
                    "artifact":{"revision":"latest@sha256:3333"}}})
            }
            2 => {
                json!({"apiVersion":"source.toolkit.fluxcd.io/v1","kind":"HelmRepository","metadata":{"name":format!("charts-{j}"),"namespace":ns},
                "spec":{"url":"https://charts.example.org","interval":"1h"},"status":{"conditions":ready("stored index")}})
            }
            3 | 4 => {
                let hr = format!("release-{j}");
                json!({"apiVersion":"helm.toolkit.fluxcd.io/v2","kind":"HelmRelease","metadata":{"name":hr,"namespace":ns},
                    "spec":{"chart":{"spec":{"chart":"app","sourceRef":{"kind":"HelmRepository","name":format!("charts-{}", j - j % 10 + 2)}}},
                        "dependsOn": if j > 10 { json!([{"name":format!("release-{}", j - 10)}]) } else { json!([]) }},
                    "status":{"conditions":ready("Helm install succeeded")}})
            }
            7 if dangling && j % 70 == 7 => {
                json!({"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","metadata":{"name":format!("app-{j}"),"namespace":ns},
                "spec":{"path":"./","sourceRef":{"kind":"OCIRepository","name":format!("missing-{j}")}},
                "status":{"conditions":failed("ArtifactFailed",&format!("ocirepositories.source.toolkit.fluxcd.io \"missing-{j}\" not found"))}})
            }
            k => {
                let src = if k % 2 == 0 {
                    json!({"kind":"GitRepository","name":format!("repo-{}", j - j % 10)})
                } else {
                    json!({"kind":"OCIRepository","name":format!("oci-{}", j - j % 10 + 1)})
                };
                let deps = if k > 5 {
                    json!([{"name":format!("app-{}", j - 1)}])
                } else {
                    json!([])
                };
                json!({"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","metadata":{"name":format!("app-{j}"),"namespace":ns},
                    "spec":{"path":"./","sourceRef":src,"dependsOn":deps},
                    "status":{"conditions":ready("Applied revision")}})
            }
        };
        out.push(obj);
        i += 1;
    }
    own(&mut out);
    out
}

/// What the appliers write: the FluxInstance lists its sync objects (and labels them), the
/// root Kustomization lists every tenant object in its native inventory.
fn own(out: &mut [Value]) {
    let id = |o: &Value| {
        let api = o["apiVersion"].as_str().unwrap_or("");
        let (group, version) = api.rsplit_once('/').unwrap_or(("", api));
        json!({"id": format!("{}_{}_{group}_{}", o["metadata"]["namespace"].as_str().unwrap_or(""),
            o["metadata"]["name"].as_str().unwrap_or(""), o["kind"].as_str().unwrap_or("")), "v": version})
    };
    let instance_entries: Vec<Value> = out[1..3].iter().map(id).collect();
    let root_entries: Vec<Value> = out[3..].iter().map(id).collect();
    out[0]["status"]["inventory"] = json!({"entries": instance_entries});
    out[2]["status"]["inventory"] = json!({"entries": root_entries});
    for o in &mut out[1..3] {
        o["metadata"]["labels"] = json!({"app.kubernetes.io/managed-by": "flux-operator"});
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Cluster, CrdAccess};
    use crate::wire::{ApiObject, FluxReport};

    #[test]
    fn sizes_and_shape() {
        for n in [10, 200, 1000] {
            let objs = objects(n);
            assert_eq!(objs.len(), n);
            let api: Vec<ApiObject> = objs
                .into_iter()
                .map(|v| serde_json::from_value(v).unwrap())
                .collect();
            let c = Cluster::new(FluxReport::default(), api, CrdAccess::Unknown);
            assert_eq!(c.objects().len(), n, "keys are unique");
            assert!(
                c.objects()
                    .iter()
                    .all(|o| o.key.kind == crate::Kind::FluxInstance || o.managed_by.is_some()),
                "every object but the instance has a derived owner"
            );
        }
    }
}
