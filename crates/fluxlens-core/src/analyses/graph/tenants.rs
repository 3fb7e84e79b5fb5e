//! The other overview grouping the issue asked to measure: root source → tenant, where a tenant
//! is the top-most applier below the cluster sync that manages an object (owners derived from
//! inventories). Benchmarked against the namespace overview (benches/graph.rs).

use super::build::Graph;
use crate::model::{Cluster, ObjectKey};
use crate::wire::kind::Kind;

/// The group key of a tenant, `Tenant//<Kind/ns/name>` of its top applier.
pub fn tenant_group(top: &ObjectKey) -> ObjectKey {
    ObjectKey::new(Kind::Other("Tenant".into()), "", top.to_string())
}

/// Per graph node, its tenant group: the applier just below the top of its owner chain (the
/// cluster sync); an object outside any chain is its own tenant.
pub fn tenant_groups(c: &Cluster, g: &Graph) -> Vec<ObjectKey> {
    g.nodes
        .iter()
        .map(|node| {
            // The object and its owners up to the top (the cluster sync, or a loose applier),
            // stopping below the FluxInstance.
            let chain: Vec<ObjectKey> = std::iter::once(node.id.clone())
                .chain(
                    c.owner_chain(&node.id)
                        .into_iter()
                        .take_while(|k| k.kind != Kind::FluxInstance),
                )
                .collect();
            // The tenant is the applier just below the top; the top stands for itself.
            let top = if chain.len() >= 2 {
                &chain[chain.len() - 2]
            } else {
                &chain[0]
            };
            tenant_group(top)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::graph::GraphOptions;
    use crate::model::CrdAccess;
    use serde_json::json;

    /// A Kustomization whose native inventory lists the given Kustomizations (`ns/name`).
    fn ks(ns: &str, name: &str, applies: &[(&str, &str)]) -> serde_json::Value {
        let entries: Vec<_> = applies
            .iter()
            .map(|(cns, cname)| json!({"id": format!("{cns}_{cname}_kustomize.toolkit.fluxcd.io_Kustomization"), "v": "v1"}))
            .collect();
        json!({"apiVersion": "kustomize.toolkit.fluxcd.io/v1", "kind": "Kustomization",
               "metadata": {"name": name, "namespace": ns},
               "spec": {"sourceRef": {"kind": "GitRepository", "name": "flux-system", "namespace": "flux-system"}},
               "status": {"inventory": {"entries": entries}}})
    }

    #[test]
    fn objects_group_under_the_top_applier_below_the_cluster_sync() {
        let objs = vec![
            ks("flux-system", "flux-system", &[("flux-system", "apps")]),
            ks("flux-system", "apps", &[("team", "team-app")]),
            ks("team", "team-app", &[]),
            ks("team", "loose", &[]),
        ];
        let objs: Vec<crate::wire::ApiObject> =
            serde_json::from_value(serde_json::Value::Array(objs)).unwrap();
        let c = Cluster::new(Default::default(), objs, CrdAccess::Unknown);
        let g = Graph::build(&c, GraphOptions::default());
        let groups = tenant_groups(&c, &g);
        let of = |k: &str| {
            let i = g.nodes.iter().position(|n| n.id.to_string() == k).unwrap();
            groups[i].name.clone()
        };
        assert_eq!(
            of("Kustomization/team/team-app"),
            "Kustomization/flux-system/apps"
        );
        assert_eq!(
            of("Kustomization/flux-system/apps"),
            "Kustomization/flux-system/apps"
        );
        assert_eq!(of("Kustomization/team/loose"), "Kustomization/team/loose");
    }

    #[test]
    fn an_owner_cycle_ends_the_chain_instead_of_looping() {
        // Two inventories list each other (a corrupted or conflicting state).
        let objs = vec![ks("x", "a", &[("x", "b")]), ks("x", "b", &[("x", "a")])];
        let objs: Vec<crate::wire::ApiObject> =
            serde_json::from_value(serde_json::Value::Array(objs)).unwrap();
        let c = Cluster::new(Default::default(), objs, CrdAccess::Unknown);
        let a = ObjectKey::new(Kind::Kustomization, "x", "a");
        let b = ObjectKey::new(Kind::Kustomization, "x", "b");
        assert_eq!(c.owner_chain(&a), vec![b.clone()]);
        assert_eq!(c.owner_chain(&b), vec![a]);
    }
}
