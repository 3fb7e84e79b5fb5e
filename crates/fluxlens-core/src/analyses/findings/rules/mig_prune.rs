//! MIG-GO-05: the parallel OCI root source must survive its Kustomization's pruning.

use super::rule;
use crate::analyses::facts::cluster::prune_disabled;
use crate::analyses::findings::Finding;
use crate::analyses::findings::policy::{Class, fixed};
use crate::model::{Cluster, ObjectKey};
use crate::wire::kind::Kind;

rule!(
    /// MIG-GO-05: parallel `OCIRepository/R` managed by a Kustomization without a prune opt-out.
    ParallelSourceNotPruneSafe, "MIG-GO-05", "parallel source not prune-safe", parallel_not_prune_safe
);

fn parallel_not_prune_safe(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some(inst) = c.instance() else { return };
    let Some(sync) = inst.sync() else {
        return;
    };
    if sync.kind.as_deref() != Some("GitRepository") {
        return; // not in M2: the operator owns the root
    }
    let name = sync
        .name
        .clone()
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| inst.key.namespace.clone());
    let Some(oci) = c.get(&ObjectKey::new(
        Kind::OciRepository,
        inst.key.namespace.clone(),
        name,
    )) else {
        return;
    };
    if oci
        .managed_by
        .as_ref()
        .is_none_or(|m| m.kind != Kind::Kustomization)
    {
        return;
    }
    let value = oci.annotation("kustomize.toolkit.fluxcd.io/prune");
    if prune_disabled(value) {
        return;
    }
    out.push(fixed(id, Class::Predicted, oci.key.clone(), format!("{} is delivered by {} without a prune opt-out: removing it from Git deletes the future root source", oci.key, oci.managed_by.as_ref().map(|k| k.to_string()).unwrap_or_default()), vec![match value {
            Some(v) => format!("kustomize.toolkit.fluxcd.io/prune: \"{v}\" (only \"disabled\", any case, is honoured)"),
            None => "annotation kustomize.toolkit.fluxcd.io/prune is absent".into(),
        }], "Annotate it kustomize.toolkit.fluxcd.io/prune: disabled (Disabled is fine) before the handover.".into()));
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use crate::analyses::facts::cluster::prune_disabled;

    fn objs(annotation: &str) -> Vec<String> {
        vec![
            r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"sync":{"kind":"GitRepository"}}}"#.into(),
            format!(r#"{{"kind":"OCIRepository","metadata":{{"name":"flux-system","namespace":"flux-system"{annotation}}},"status":{{"reconcilerRef":{{"managedBy":"Kustomization/flux-system/flux-system"}}}}}}"#),
        ]
    }

    #[test]
    fn disabled_in_any_case_passes() {
        for v in ["disabled", "Disabled", "DISABLED"] {
            let o = objs(&format!(
                r#","annotations":{{"kustomize.toolkit.fluxcd.io/prune":"{v}"}}"#
            ));
            assert!(
                run(
                    &cluster(&o.iter().map(String::as_str).collect::<Vec<_>>()),
                    "MIG-GO-05"
                )
                .is_empty(),
                "{v}"
            );
        }
        for v in ["false", "off", "no", "true"] {
            assert!(!prune_disabled(Some(v)));
        }
        let missing = objs("");
        assert_eq!(
            run(
                &cluster(&missing.iter().map(String::as_str).collect::<Vec<_>>()),
                "MIG-GO-05"
            )
            .len(),
            1
        );
        let wrong = objs(r#","annotations":{"kustomize.toolkit.fluxcd.io/prune":"false"}"#);
        assert_eq!(
            run(
                &cluster(&wrong.iter().map(String::as_str).collect::<Vec<_>>()),
                "MIG-GO-05"
            )
            .len(),
            1
        );
    }
}
