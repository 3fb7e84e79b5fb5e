//! A repository's render as a cluster model: one file's text read into located manifests
//! ([`manifests`], [`yaml`]), the Flux objects and what they read ([`tree`]), the FluxInstance
//! chart templated ([`chart`]), and the same [`Cluster`](crate::model::Cluster) the dashboard
//! builds from the API, with what the cluster would generate ([`model`]). The check reads a
//! directory of renders into it; the dashboard's drift view a file picked or fetched.

pub mod chart;
pub mod manifests;
pub mod model;
pub mod tree;
pub mod yaml;

/// Reads one tree of manifests into the model's input, the FluxInstance chart templated.
pub fn tree_of(manifests: Vec<manifests::Manifest>) -> Result<tree::Tree, manifests::InputError> {
    let mut t = tree::build(manifests)?;
    chart::templated_instances(&mut t);
    Ok(t)
}
