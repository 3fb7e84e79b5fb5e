//! Every analysis of one cluster, run once: what the dashboard's views read and what a fleet
//! row is made from (the two never compute them differently).

use crate::analyses::carried::Verdicts;
use crate::analyses::compliance::{self, Control, Variant};
use crate::analyses::facts::cluster::ClusterFacts;
use crate::analyses::finding::{self, Finding};
use crate::analyses::graph::{Graph, GraphOptions};
use crate::analyses::migration::{self, Migration};
use crate::analyses::signatures::{self, SignatureSummary, SourcePosture};
use crate::analyses::summary::ClusterSummary;
use crate::model::Cluster;
use std::sync::Arc;

/// The analyses of a cluster.
pub struct Analysis {
    /// Findings as shown: a rule firing on more than five objects is one finding (§0.3-6).
    pub findings: Vec<Finding>,
    /// Every finding, one per object: what analyses, the graph and the side panel read.
    pub per_object: Vec<Finding>,
    pub summary: ClusterSummary,
    /// The graph with default layers.
    pub graph: Arc<Graph>,
    /// Signature posture of every source, the root first.
    pub postures: Vec<SourcePosture>,
    pub signatures: SignatureSummary,
    /// Git → OCI, storage, distribution: stages, checks, blockers.
    pub migrations: Vec<Migration>,
    /// The compliance scorecard under the default profile.
    pub controls: Vec<Control>,
    /// The image variant the whole cluster runs, `None` when mixed.
    pub variant: Option<Variant>,
    /// Who can read through the server, and what the page warns about it.
    pub access: crate::analyses::access::ReadAccess,
    /// The warning, when there is one (no sign-in, or one Anonymous identity for everyone).
    pub access_notice: Option<String>,
}

impl Analysis {
    /// Runs every analysis; a snapshot's carried verdicts stand in for the findings.
    pub fn of(cluster: &Cluster, verdicts: Option<&Verdicts>) -> Analysis {
        // The facts every rule and stage shares, computed once for all of them.
        let facts = ClusterFacts::of(cluster);
        let per_object = crate::analyses::carried::per_object(&facts, verdicts);
        let findings = finding::aggregate(&per_object);
        let summary = ClusterSummary::compute(cluster, &findings);
        let graph = Arc::new(Graph::build(cluster, GraphOptions::default()));
        let postures = signatures::postures(cluster, &graph, &per_object);
        let signatures = signatures::summary(&postures);
        let migrations = migration::all(&facts, &per_object);
        let ent: Vec<Finding> = findings
            .iter()
            .filter(|f| f.rule.starts_with("ENT-"))
            .cloned()
            .collect();
        let controls = compliance::scorecard(&facts, &ent);
        let variant = compliance::cluster_variant(&compliance::components(cluster));
        let access = crate::analyses::access::ReadAccess::of(&cluster.report);
        Analysis {
            findings,
            per_object,
            summary,
            graph,
            postures,
            signatures,
            migrations,
            controls,
            variant,
            access_notice: access.notice(cluster.report.spec.namespaces.len()),
            access,
        }
    }
}
