//! CRDs as large as a cluster's (#51). An API server returns a CustomResourceDefinition whole,
//! its `openAPIV3Schema` included, and the operator's batch read passes it on (its
//! `internal/web/inventory_objects.go` `GetInventoryObjects` → `sanitize.go`
//! `cleanObjectForExport`, which reduces metadata only). The scenarios write CRDs without
//! schemas, the way people read them, so without this the simulator's CRDs would weigh a
//! fraction of what a reader of a real cluster downloads. A scenario CRD with no schema gets a
//! generated one of the size the same CRD has in Flux v2.9.4 (and the operator's own CRDs):
//! deterministic, made of schema-like property trees and description sentences, compressing
//! about as well as the real ones (≈ 8× with brotli), and never read by fluxlens.

use serde_json::{Map, Value, json};

/// Bytes of JSON each Flux CRD has on a cluster running Flux v2.9.4 and the Flux Operator,
/// measured from their published manifests; other CRDs get [`OTHER_BYTES`].
const REAL_BYTES: &[(&str, usize)] = &[
    ("helmreleases.helm.toolkit.fluxcd.io", 48_000),
    ("kustomizations.kustomize.toolkit.fluxcd.io", 26_700),
    ("fluxinstances.fluxcd.controlplane.io", 19_800),
    ("resourcesetinputproviders.fluxcd.controlplane.io", 17_500),
    ("resourcesets.fluxcd.controlplane.io", 16_200),
    ("gitrepositories.source.toolkit.fluxcd.io", 15_000),
    ("imageupdateautomations.image.toolkit.fluxcd.io", 13_800),
    ("ocirepositories.source.toolkit.fluxcd.io", 13_300),
    ("buckets.source.toolkit.fluxcd.io", 12_300),
    ("receivers.notification.toolkit.fluxcd.io", 12_100),
    ("artifactgenerators.source.extensions.fluxcd.io", 11_100),
    ("helmcharts.source.toolkit.fluxcd.io", 11_000),
    ("helmrepositories.source.toolkit.fluxcd.io", 10_600),
    ("imagerepositories.image.toolkit.fluxcd.io", 9_700),
    ("imagepolicies.image.toolkit.fluxcd.io", 9_000),
    ("fluxreports.fluxcd.controlplane.io", 8_500),
    ("providers.notification.toolkit.fluxcd.io", 6_500),
    ("externalartifacts.source.toolkit.fluxcd.io", 6_300),
    ("alerts.notification.toolkit.fluxcd.io", 4_800),
];
const OTHER_BYTES: usize = 12_000;

const WORDS: &[&str] = &[
    "the",
    "of",
    "a",
    "to",
    "is",
    "for",
    "and",
    "in",
    "be",
    "when",
    "that",
    "this",
    "it",
    "with",
    "name",
    "namespace",
    "object",
    "resource",
    "reference",
    "source",
    "secret",
    "key",
    "value",
    "interval",
    "timeout",
    "default",
    "field",
    "specified",
    "referent",
    "status",
    "condition",
    "revision",
    "artifact",
    "version",
    "controller",
    "Kubernetes",
    "API",
    "optional",
    "must",
    "can",
    "used",
    "defines",
    "contains",
    "holds",
    "set",
    "list",
    "map",
    "string",
    "labels",
    "annotations",
    "selector",
    "reconciliation",
    "reconcile",
    "applied",
    "last",
    "observed",
    "generation",
    "cluster",
    "service",
    "account",
    "token",
    "provider",
    "certificate",
    "TLS",
    "URL",
    "path",
    "patch",
    "target",
    "suspend",
    "retry",
    "dependencies",
    "inventory",
    "entries",
    "More",
    "info",
    "https://kubernetes.io/docs/concepts/overview/working-with-objects/names",
    "Defaults",
    "to",
    "not",
    "are",
    "will",
    "which",
    "on",
    "from",
    "by",
    "or",
    "an",
    "if",
    "should",
    "its",
    "each",
    "all",
    "only",
    "other",
    "as",
    "at",
    "same",
    "new",
    "whether",
];
const FIELDS: &[&str] = &[
    "apiVersion",
    "kind",
    "name",
    "namespace",
    "interval",
    "timeout",
    "suspend",
    "sourceRef",
    "secretRef",
    "serviceAccountName",
    "dependsOn",
    "path",
    "prune",
    "patches",
    "target",
    "retryInterval",
    "decryption",
    "postBuild",
    "substitute",
    "healthChecks",
    "wait",
    "force",
    "conditions",
    "lastTransitionTime",
    "message",
    "reason",
    "type",
    "observedGeneration",
    "artifact",
    "digest",
    "revision",
    "url",
    "size",
    "metadata",
    "labels",
    "annotations",
    "inventory",
    "entries",
    "verify",
    "provider",
    "matchOIDCIdentity",
    "issuer",
    "subject",
    "certSecretRef",
    "proxySecretRef",
    "insecure",
    "ref",
    "branch",
    "tag",
    "semver",
    "commit",
];

/// The CRD with a generated schema in each version that has none.
pub fn filled(mut crd: Value) -> Value {
    let name = crd["metadata"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let Some(versions) = crd["spec"]["versions"].as_array_mut() else {
        return crd;
    };
    let bare: Vec<&mut Value> = versions
        .iter_mut()
        .filter(|v| v.get("schema").is_none())
        .collect();
    if bare.is_empty() {
        return crd;
    }
    let want = REAL_BYTES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(OTHER_BYTES, |(_, b)| *b)
        / bare.len();
    for (i, version) in bare.into_iter().enumerate() {
        let mut rng = Gen::seeded(&format!("{name}/{i}"));
        version["schema"] = json!({ "openAPIV3Schema": schema_of(&mut rng, want) });
    }
    crd
}

/// An object schema of about `bytes` of JSON.
fn schema_of(rng: &mut Gen, bytes: usize) -> Value {
    let mut properties = Map::new();
    let mut size = 0;
    while size < bytes {
        let (name, prop) = property(rng, 0);
        let len = name.len() + prop.to_string().len() + 4;
        // Within a leaf's size of the target (a leaf is at most a few hundred bytes).
        if size + len > bytes + 500 {
            continue;
        }
        size += len;
        properties.insert(format!("{name}{}", properties.len()), prop);
    }
    json!({ "description": sentence(rng), "properties": properties, "type": "object" })
}

fn property(rng: &mut Gen, depth: usize) -> (&'static str, Value) {
    let name = FIELDS[rng.below(FIELDS.len())];
    let nested = depth < 3 && rng.below(4) == 0;
    let value = if nested {
        let props: Map<String, Value> = (0..2 + rng.below(4))
            .map(|_| property(rng, depth + 1))
            .map(|(n, v)| (n.to_string(), v))
            .collect();
        json!({ "description": sentence(rng), "properties": props, "type": "object" })
    } else {
        let ty = ["string", "string", "boolean", "integer", "array"][rng.below(5)];
        json!({ "description": sentence(rng), "type": ty })
    };
    (name, value)
}

/// A description: most are said again across a CRD's fields (object references, conditions,
/// intervals), as in real schemas, which is what makes them compress as the real ones do.
fn sentence(rng: &mut Gen) -> String {
    if !rng.said.is_empty() && rng.below(10) < REPEATED_IN_10 {
        let i = rng.below(rng.said.len());
        return rng.said[i].clone();
    }
    let n = 6 + rng.below(22);
    let words: Vec<&str> = (0..n).map(|_| WORDS[rng.below(WORDS.len())]).collect();
    format!("{}.", words.join(" "))
}

/// Descriptions in 10 that repeat one said before, and how many there are to repeat.
const REPEATED_IN_10: usize = 9;
const SAID: usize = 48;

/// A small deterministic generator (the same schema on every start) and the descriptions it
/// repeats.
struct Gen {
    state: u64,
    said: Vec<String>,
}

impl Gen {
    fn seeded(seed: &str) -> Gen {
        let state = seed.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        let mut g = Gen {
            state,
            said: Vec::new(),
        };
        g.said = (0..SAID).map(|_| sentence(&mut g)).collect();
        g
    }

    fn below(&mut self, n: usize) -> usize {
        self.state = self
            .state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.state >> 33) % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bare(name: &str) -> Value {
        json!({ "metadata": { "name": name }, "spec": { "versions": [
            { "name": "v1beta2", "served": true, "storage": false },
            { "name": "v1", "served": true, "storage": true },
        ] }, "status": { "storedVersions": ["v1"] } })
    }

    #[test]
    fn a_crd_without_schemas_weighs_what_the_real_one_does_and_keeps_what_fluxlens_reads() {
        let crd = filled(bare("helmreleases.helm.toolkit.fluxcd.io"));
        let bytes = crd.to_string().len();
        assert!((47_000..50_000).contains(&bytes), "{bytes}");
        assert_eq!(crd["spec"]["versions"][1]["storage"], json!(true));
        assert_eq!(crd["status"]["storedVersions"], json!(["v1"]));
        assert_eq!(
            filled(bare("helmreleases.helm.toolkit.fluxcd.io")),
            crd,
            "deterministic"
        );
        // A CRD that has a schema is served as written.
        let mut written = bare("x.example.com");
        written["spec"]["versions"][0]["schema"] =
            json!({ "openAPIV3Schema": { "type": "object" } });
        written["spec"]["versions"][1]["schema"] =
            json!({ "openAPIV3Schema": { "type": "object" } });
        assert_eq!(filled(written.clone()), written);
    }
}
