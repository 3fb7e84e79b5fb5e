//! Synthetic clusters of any size, shaped like real ones (a FluxInstance, a root source,
//! tenants with Git and OCI sources, Helm charts, dependsOn chains, a few failures and
//! dangling references). Used by the simulator's `--synthetic N` and the benchmarks.

use serde_json::{Value, json};

/// Generates about `n` Flux objects as the API serves them (deterministic).
pub fn objects(n: usize) -> Vec<Value> {
    let mut out = Vec::with_capacity(n + 8);
    let ts = "2026-11-29T10:00:00Z";
    let ready = |msg: &str| json!([{"type":"Ready","status":"True","reason":"Succeeded","message":msg,"lastTransitionTime":ts,"observedGeneration":1}]);
    let failed = |reason: &str, msg: &str| json!([{"type":"Ready","status":"False","reason":reason,"message":msg,"lastTransitionTime":ts,"observedGeneration":1}]);
    out.push(json!({"apiVersion":"fluxcd.controlplane.io/v1","kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},
        "spec":{"distribution":{"version":"2.8.x","registry":"ghcr.io/fluxcd"},"sync":{"kind":"GitRepository","url":"https://git.example.org/fleet.git","ref":"refs/heads/main","path":"clusters/synthetic"}},
        "status":{"conditions":ready("Reconciliation finished"),"lastAppliedRevision":"v2.8.3@sha256:00"}}));
    out.push(json!({"apiVersion":"source.toolkit.fluxcd.io/v1","kind":"GitRepository","metadata":{"name":"flux-system","namespace":"flux-system"},
        "spec":{"url":"https://git.example.org/fleet.git","ref":{"name":"refs/heads/main"}},
        "status":{"conditions":ready("stored artifact"),"artifact":{"revision":"refs/heads/main@sha1:1111111111111111111111111111111111111111"},"reconcilerRef":{"status":"Ready","managedBy":"FluxInstance/flux-system/flux"}}}));
    out.push(json!({"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","metadata":{"name":"flux-system","namespace":"flux-system"},
        "spec":{"path":"clusters/synthetic","prune":true,"sourceRef":{"kind":"GitRepository","name":"flux-system"}},
        "status":{"conditions":ready("Applied revision"),"reconcilerRef":{"status":"Ready","managedBy":"FluxInstance/flux-system/flux"}}}));
    let tenants = (n / 50).max(1);
    let mut i = 0usize;
    while out.len() < n {
        let t = i % tenants;
        let ns = format!("tenant-{t:03}");
        let j = i / tenants;
        let owner = json!({"status":"Ready","managedBy":"Kustomization/flux-system/flux-system"});
        let obj = match j % 10 {
            0 => {
                json!({"apiVersion":"source.toolkit.fluxcd.io/v1","kind":"GitRepository","metadata":{"name":format!("repo-{j}"),"namespace":ns},
                "spec":{"url":format!("https://git.example.org/{ns}/repo-{j}.git"),"ref":{"branch":"main"}},
                "status":{"conditions":ready("stored artifact"),"artifact":{"revision":"main@sha1:2222222222222222222222222222222222222222"},"reconcilerRef":owner}})
            }
            1 => {
                json!({"apiVersion":"source.toolkit.fluxcd.io/v1","kind":"OCIRepository","metadata":{"name":format!("oci-{j}"),"namespace":ns},
                "spec":{"url":format!("oci://ghcr.io/example/{ns}/app-{j}"),"ref":{"tag":"latest"},"verify":{"provider":"cosign","matchOIDCIdentity":[{"issuer":"^https://token\\.actions\\.githubusercontent\\.com$","subject":"^https://github\\.com/example/app/\\.github/workflows/release\\.yaml@refs/heads/main$"}]}},
                "status":{"conditions":[{"type":"Ready","status":"True","reason":"Succeeded","message":"stored artifact","lastTransitionTime":ts},{"type":"SourceVerified","status":"True","reason":"Succeeded","message":"verified signature of revision latest@sha256:3333"}],
                    "artifact":{"revision":"latest@sha256:3333"},"reconcilerRef":owner}})
            }
            2 => {
                json!({"apiVersion":"source.toolkit.fluxcd.io/v1","kind":"HelmRepository","metadata":{"name":format!("charts-{j}"),"namespace":ns},
                "spec":{"url":"https://charts.example.org","interval":"1h"},"status":{"conditions":ready("stored index"),"reconcilerRef":owner}})
            }
            3 | 4 => {
                let hr = format!("release-{j}");
                json!({"apiVersion":"helm.toolkit.fluxcd.io/v2","kind":"HelmRelease","metadata":{"name":hr,"namespace":ns},
                    "spec":{"chart":{"spec":{"chart":"app","sourceRef":{"kind":"HelmRepository","name":format!("charts-{}", j - j % 10 + 2)}}},
                        "dependsOn": if j > 10 { json!([{"name":format!("release-{}", j - 10)}]) } else { json!([]) }},
                    "status":{"conditions":ready("Helm install succeeded"),"reconcilerRef":owner}})
            }
            7 if j % 70 == 7 => {
                json!({"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","metadata":{"name":format!("app-{j}"),"namespace":ns},
                "spec":{"path":"./","sourceRef":{"kind":"OCIRepository","name":format!("missing-{j}")}},
                "status":{"conditions":failed("ArtifactFailed",&format!("ocirepositories.source.toolkit.fluxcd.io \"missing-{j}\" not found")),"reconcilerRef":{"status":"Failed","managedBy":"Kustomization/flux-system/flux-system"}}})
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
                    "status":{"conditions":ready("Applied revision"),"reconcilerRef":owner}})
            }
        };
        out.push(obj);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ApiObject, FluxReport};
    use crate::model::{Cluster, CrdAccess};

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
        }
    }
}
