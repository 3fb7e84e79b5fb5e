//! One file per rule family. `rule!` declares a catalog rule: id, title, and the function
//! that evaluates it.

#[cfg(test)]
mod coverage;
mod dangling;
pub(crate) mod ent;
mod mig_api;
mod mig_dist;
mod mig_go;
pub mod mig_order;
mod mig_prune;
pub mod ops;
mod registry;
mod sig_anonymous;
mod sig_identity;
mod sig_instance;
mod sig_verdict;

pub use registry::{DOCS, RULES};

macro_rules! rule {
    ($(#[$m:meta])* $name:ident, $id:literal, $title:literal, $eval:path) => {
        $(#[$m])*
        pub struct $name;
        impl crate::analyses::findings::Rule for $name {
            fn id(&self) -> &'static str {
                $id
            }
            fn title(&self) -> &'static str {
                $title
            }
            fn evaluate(&self, cluster: &crate::analyses::facts::cluster::ClusterFacts, out: &mut Vec<crate::analyses::findings::Finding>) {
                $eval(self.id(), cluster, out)
            }
        }
    };
}
pub(crate) use rule;

#[cfg(test)]
pub(crate) mod testkit {
    use crate::analyses::findings::Finding;
    use crate::model::{Cluster, CrdAccess};
    use crate::wire::FluxReport;

    /// A cluster whose report names `kustomization/flux-system` as the sync object.
    pub fn cluster(objs: &[&str]) -> Cluster {
        let report: FluxReport = serde_json::from_str(
            r#"{"metadata":{"namespace":"flux-system"},"spec":{"distribution":{"version":"v2.8.3"},"sync":{"id":"kustomization/flux-system","ready":true,"source":"oci://ghcr.io/example/fleet"}}}"#,
        )
        .unwrap();
        confirmed(Cluster::new(
            report,
            objs.iter().map(|s| serde_json::from_str(s).unwrap()),
            CrdAccess::Unknown,
        ))
    }

    /// What the confirming read answers on a fixture: NotFound for every candidate (the
    /// fixture is the whole cluster), as the loader records it.
    pub fn confirmed(c: Cluster) -> Cluster {
        c.with_server_answers()
    }

    /// Findings of one rule.
    pub fn run(c: &Cluster, id: &str) -> Vec<Finding> {
        crate::analyses::findings::evaluate_all(c)
            .into_iter()
            .filter(|f| f.rule == id)
            .collect()
    }

    /// The root Kustomization reading `kind/flux-system`.
    pub fn root_ks(kind: &str) -> String {
        format!(
            r#"{{"kind":"Kustomization","metadata":{{"name":"flux-system","namespace":"flux-system"}},"spec":{{"sourceRef":{{"kind":"{kind}","name":"flux-system"}}}}}}"#
        )
    }
}
