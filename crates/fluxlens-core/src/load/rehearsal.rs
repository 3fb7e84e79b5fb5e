//! A first load's work done once on a small built-in cluster while the real objects are still
//! on the wire (#51). A browser compiles each wasm function the first time it runs: on the
//! demo's first visit ≈ 1,000 functions, ≈ 15 ms, came after the objects' answer, between the
//! data and the view. Run here first, on fifteen objects of every common kind, they are compiled
//! while the page waits on the network anyway. The result is thrown away: it is never shown,
//! kept or compared with anything.

use super::split_results;
use crate::model::{Cluster, CrdAccess};
use crate::wire::error::decode;
use crate::wire::inventory::InventoryObjectsResponse;
use crate::wire::object::ApiObject;
use crate::wire::report::FluxReport;

/// The objects: the batch read's answer for a few objects of the demo scenario's cluster
/// (a source of each kind, its consumers, a keyless-verified root, the FluxInstance and the
/// notification kinds), histories and conditions cut to one entry.
const OBJECTS: &str = include_str!("rehearsal.json");

/// The built-in answer decoded, as the first load decodes the real one (the rehearsal's first
/// step); `None` only if the sample no longer decodes (a test keeps it decoding).
pub fn objects() -> Option<Vec<ApiObject>> {
    let answer: InventoryObjectsResponse = decode(OBJECTS).ok()?;
    Some(split_results(answer.objects).0)
}

/// The model of `objects` under `report`, built as the first load builds the real one (the
/// second step). The app passes the cluster's own report, read by then, so that the analyses
/// that read it (the components' images, the versions) run as they will on the real objects.
pub fn model(report: FluxReport, objects: Vec<ApiObject>) -> Cluster {
    Cluster::new(report, objects, CrdAccess::Unknown)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::analysis::Analysis;
    use crate::wire::kind::Kind;

    #[test]
    fn the_sample_decodes_whole_into_every_common_kind_with_its_references_in_place() {
        let answer: InventoryObjectsResponse = decode(OBJECTS).unwrap();
        let asked = answer.objects.len();
        let (objects, failed) = split_results(answer.objects);
        assert!(failed.is_empty(), "{failed:?}");
        assert_eq!(objects.len(), asked);
        let cluster = model(FluxReport::default(), super::objects().unwrap());
        assert_eq!(
            cluster.objects().len(),
            asked,
            "every item became a model object"
        );
        let kinds: std::collections::BTreeSet<Kind> = cluster
            .objects()
            .iter()
            .map(|o| o.key.kind.clone())
            .collect();
        for kind in [
            Kind::GitRepository,
            Kind::OciRepository,
            Kind::HelmRepository,
            Kind::HelmChart,
            Kind::ExternalArtifact,
            Kind::ArtifactGenerator,
            Kind::Kustomization,
            Kind::HelmRelease,
            Kind::FluxInstance,
        ] {
            assert!(kinds.contains(&kind), "{kind:?} missing from the sample");
        }
        // The per-reference code runs on references that resolve, as on a healthy cluster.
        let refs: Vec<_> = cluster.objects().iter().flat_map(|o| &o.refs).collect();
        assert!(refs.len() >= 10, "{} references", refs.len());
        let dangling: Vec<_> = refs
            .iter()
            .filter(|r| {
                !matches!(r.target.kind, Kind::Other(_)) && cluster.get(&r.target).is_none()
            })
            .collect();
        assert!(dangling.is_empty(), "{dangling:?}");
        // The analyses run on it as on a real cluster (the root source is keyless-verified).
        let analysis = Analysis::of(&cluster, None);
        assert!(!analysis.findings.is_empty());
    }
}
