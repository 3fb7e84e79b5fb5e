//! Owners derived from inventories (rule catalog §0.2, revision 2).
//!
//! The batch read (`POST /api/v1/inventory/objects`) never carries `status.reconcilerRef`, and
//! the server strips the Flux ownership labels, so "who applied this object" must be derived:
//! the applier whose native `status.inventory.entries` lists it. Fallbacks, in order: the
//! `app.kubernetes.io/managed-by: flux-operator` label (the FluxInstance; there is one), an
//! ExternalArtifact's `spec.sourceRef` (its ArtifactGenerator), and last the server's
//! `reconcilerRef.managedBy` where an object came from the single-object GET or a snapshot.
//! No derivable owner is "unknown", never "none".

use super::key::ObjectKey;
use super::object::FluxObject;
use crate::wire::kind::Kind;
use std::collections::HashMap;

/// The label the operator puts on everything it generates; it survives sanitizing.
pub const OPERATOR_MANAGED_LABEL: &str = "app.kubernetes.io/managed-by";

/// Kinds whose `status.inventory` lists what they applied.
fn keeps_inventory(kind: &Kind) -> bool {
    matches!(
        kind,
        Kind::Kustomization
            | Kind::FluxInstance
            | Kind::ResourceSet
            | Kind::HelmRelease
            | Kind::ArtifactGenerator
    )
}

/// The keys an applier's inventory lists. An ArtifactGenerator's native list names its
/// ExternalArtifacts without a kind; a HelmRelease names its generated chart in
/// `status.helmChart` (`ns/name`) rather than in its inventory.
fn inventory_keys(owner: &FluxObject) -> Vec<ObjectKey> {
    let chart = owner
        .raw
        .status
        .helm_chart
        .as_deref()
        .filter(|_| owner.key.kind == Kind::HelmRelease)
        .and_then(|c| c.split_once('/'))
        .map(|(ns, name)| ObjectKey::new(Kind::HelmChart, ns, name));
    let Some(inv) = owner.raw.status.inventory.as_ref() else {
        return chart.into_iter().collect();
    };
    inv.entries()
        .into_iter()
        .filter(|e| !e.name.is_empty())
        .map(|e| {
            let kind = if e.kind.is_empty() && owner.key.kind == Kind::ArtifactGenerator {
                Kind::ExternalArtifact
            } else {
                Kind::parse(&e.kind)
            };
            let ns = if e.namespace.is_empty() && owner.key.kind == Kind::ArtifactGenerator {
                owner.key.namespace.clone()
            } else if e.namespace.is_empty()
                && owner.key.kind == Kind::HelmRelease
                && kind.crd_name().is_some()
            {
                // Read from Helm storage, an object written without a namespace is listed
                // with "" (inventory.go `getInventory` sets it on the release instead); every
                // Flux kind is namespaced, so it lives in the release's namespace.
                release_namespace(owner)
            } else {
                e.namespace
            };
            ObjectKey::new(kind, ns, e.name)
        })
        .chain(chart)
        .collect()
}

/// The namespace the newest release installed into, else the HelmRelease's own.
fn release_namespace(owner: &FluxObject) -> String {
    owner
        .raw
        .status
        .history
        .first()
        .and_then(|h| h.namespace.clone())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| owner.key.namespace.clone())
}

/// Fills `owners` and `managed_by` of every object from the others' inventories.
pub fn derive(objects: &mut [FluxObject]) {
    let index: HashMap<ObjectKey, usize> = objects
        .iter()
        .enumerate()
        .map(|(i, o)| (o.key.clone(), i))
        .collect();
    let mut owners: Vec<Vec<ObjectKey>> = vec![Vec::new(); objects.len()];
    for owner in objects.iter().filter(|o| keeps_inventory(&o.key.kind)) {
        for child in inventory_keys(owner) {
            if let Some(&i) = index.get(&child)
                && child != owner.key
                && !owners[i].contains(&owner.key)
            {
                owners[i].push(owner.key.clone());
            }
        }
    }
    let instance = objects
        .iter()
        .find(|o| o.key.kind == Kind::FluxInstance)
        .map(|o| o.key.clone());
    for (o, mut found) in objects.iter_mut().zip(owners) {
        if found.is_empty() {
            found.extend(fallback_owner(o, instance.as_ref()));
        }
        crate::util::sort::natural(&mut found);
        o.managed_by = found.first().cloned();
        o.owners = found;
    }
}

/// The labels an applier stamps on what it applies. The API strips them, so they only speak
/// in a render (`flux build`, a pre-merge check): there they are how the order model knows
/// which Kustomization or HelmRelease delivers an object.
const APPLIER_LABELS: [(Kind, &str); 2] = [
    (Kind::Kustomization, "kustomize.toolkit.fluxcd.io"),
    (Kind::HelmRelease, "helm.toolkit.fluxcd.io"),
];

fn applier_label(o: &FluxObject) -> Option<ObjectKey> {
    let labels = &o.raw.metadata.labels;
    APPLIER_LABELS.iter().find_map(|(kind, prefix)| {
        let name = labels
            .get(&format!("{prefix}/name"))
            .filter(|n| !n.is_empty())?;
        let ns = labels
            .get(&format!("{prefix}/namespace"))
            .cloned()
            .unwrap_or_else(|| o.key.namespace.clone());
        Some(ObjectKey::new(kind.clone(), ns, name.clone())).filter(|k| k != &o.key)
    })
}

fn fallback_owner(o: &FluxObject, instance: Option<&ObjectKey>) -> Option<ObjectKey> {
    let operator_label = o
        .raw
        .metadata
        .labels
        .get(OPERATOR_MANAGED_LABEL)
        .is_some_and(|v| v == "flux-operator");
    if operator_label && o.key.kind != Kind::FluxInstance {
        return instance.cloned();
    }
    if let Some(applier) = applier_label(o) {
        return Some(applier);
    }
    if o.key.kind == Kind::ExternalArtifact
        && let Some(r) = o
            .raw
            .spec
            .source_ref
            .as_ref()
            .filter(|r| !r.name.is_empty())
    {
        let kind = r
            .kind
            .as_deref()
            .map(Kind::parse)
            .unwrap_or(Kind::ArtifactGenerator);
        let ns = r
            .namespace
            .clone()
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| o.key.namespace.clone());
        return Some(ObjectKey::new(kind, ns, r.name.clone()));
    }
    o.raw
        .status
        .reconciler_ref
        .as_ref()
        .and_then(|r| r.managed_by.as_deref())
        .and_then(ObjectKey::parse)
}

#[cfg(test)]
mod tests {
    use crate::model::{Cluster, CrdAccess, ObjectKey};
    use crate::wire::FluxReport;

    fn cluster(objs: &[&str]) -> Cluster {
        Cluster::new(
            FluxReport::default(),
            objs.iter().map(|s| serde_json::from_str(s).unwrap()),
            CrdAccess::Unknown,
        )
    }

    fn owners(c: &Cluster, key: &str) -> Vec<String> {
        let k = ObjectKey::parse(key).unwrap();
        c.get(&k)
            .unwrap()
            .owners
            .iter()
            .map(|o| o.to_string())
            .collect()
    }

    #[test]
    fn native_inventory_entries_name_the_owner() {
        let c = cluster(&[
            r#"{"kind":"Kustomization","metadata":{"name":"apps","namespace":"flux-system"},
               "status":{"inventory":{"entries":[
                 {"id":"team_web_helm.toolkit.fluxcd.io_HelmRelease","v":"v2"},
                 {"id":"_team__Namespace","v":"v1"}]}}}"#,
            r#"{"kind":"HelmRelease","metadata":{"name":"web","namespace":"team"}}"#,
            r#"{"kind":"GitRepository","metadata":{"name":"orphan","namespace":"team"}}"#,
            r#"{"kind":"HelmRelease","metadata":{"name":"db","namespace":"team"},"status":{"helmChart":"team/team-db"}}"#,
            r#"{"kind":"HelmChart","metadata":{"name":"team-db","namespace":"team"}}"#,
        ]);
        assert_eq!(
            owners(&c, "HelmChart/team/team-db"),
            vec!["HelmRelease/team/db"]
        );
        assert_eq!(
            owners(&c, "HelmRelease/team/web"),
            vec!["Kustomization/flux-system/apps"]
        );
        let orphan = c
            .get(&ObjectKey::parse("GitRepository/team/orphan").unwrap())
            .unwrap();
        assert!(orphan.owners.is_empty() && orphan.managed_by.is_none());
    }

    #[test]
    fn a_helm_storage_entry_without_namespace_is_in_the_releases_namespace() {
        // The server lists a manifest object written without a namespace with "" (#22 item 6).
        let c = cluster(&[
            r#"{"kind":"HelmRelease","metadata":{"name":"flux-instance","namespace":"ops"},
               "status":{"history":[{"name":"flux-instance","version":2,"namespace":"flux-system"}],
                 "inventory":[{"name":"flux","namespace":"","kind":"FluxInstance","apiVersion":"fluxcd.controlplane.io/v1"},
                              {"name":"cm","namespace":"","kind":"ConfigMap","apiVersion":"v1"}]}}"#,
            r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"}}"#,
        ]);
        assert_eq!(
            owners(&c, "FluxInstance/flux-system/flux"),
            vec!["HelmRelease/ops/flux-instance"]
        );
    }

    #[test]
    fn two_inventories_are_a_conflict_not_a_choice() {
        let c = cluster(&[
            r#"{"kind":"Kustomization","metadata":{"name":"a","namespace":"x"},"status":{"inventory":{"entries":[{"id":"x_repo_source.toolkit.fluxcd.io_GitRepository","v":"v1"}]}}}"#,
            r#"{"kind":"Kustomization","metadata":{"name":"b","namespace":"x"},"status":{"inventory":{"entries":[{"id":"x_repo_source.toolkit.fluxcd.io_GitRepository","v":"v1"}]}}}"#,
            r#"{"kind":"GitRepository","metadata":{"name":"repo","namespace":"x"}}"#,
        ]);
        assert_eq!(
            owners(&c, "GitRepository/x/repo"),
            vec!["Kustomization/x/a", "Kustomization/x/b"]
        );
    }

    #[test]
    fn fallbacks_operator_label_generator_and_server_field() {
        let c = cluster(&[
            r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"}}"#,
            r#"{"kind":"OCIRepository","metadata":{"name":"flux-system","namespace":"flux-system","labels":{"app.kubernetes.io/managed-by":"flux-operator"}}}"#,
            r#"{"kind":"ExternalArtifact","metadata":{"name":"slice","namespace":"flux-system"},"spec":{"sourceRef":{"kind":"ArtifactGenerator","name":"gen"}}}"#,
            r#"{"kind":"ArtifactGenerator","metadata":{"name":"gen","namespace":"flux-system"},"status":{"inventory":[{"name":"other","namespace":"flux-system"}]}}"#,
            r#"{"kind":"ExternalArtifact","metadata":{"name":"other","namespace":"flux-system"}}"#,
            r#"{"kind":"Kustomization","metadata":{"name":"k","namespace":"a"},"status":{"reconcilerRef":{"managedBy":"ResourceSet/a/rs"}}}"#,
        ]);
        assert_eq!(
            owners(&c, "OCIRepository/flux-system/flux-system"),
            vec!["FluxInstance/flux-system/flux"]
        );
        assert_eq!(
            owners(&c, "ExternalArtifact/flux-system/slice"),
            vec!["ArtifactGenerator/flux-system/gen"]
        );
        assert_eq!(
            owners(&c, "ExternalArtifact/flux-system/other"),
            vec!["ArtifactGenerator/flux-system/gen"]
        );
        assert_eq!(owners(&c, "Kustomization/a/k"), vec!["ResourceSet/a/rs"]);
    }
}
