use crate::model::{Answer, Cluster, ObjectKey, Presence, RefKind};
use crate::wire::kind::{Kind, Role};
use crate::wire::status::Status;
use std::collections::HashMap;

/// What a node stands for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// An object that exists.
    Object,
    /// A referenced object that does not exist (§0.2: visible, complete data).
    Missing,
    /// A referenced object fluxlens cannot see; the reason is said on the node.
    NotVisible { reason: String },
    /// A non-Flux object a ResourceSet depends on, with what the server said of it.
    External { answer: String },
    /// A collapsed group of `count` objects, and what it groups.
    Group { count: usize, of: GroupOf },
}

/// What a group node stands for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum GroupOf {
    /// The drawn objects of one namespace (the overview, or a namespace the user collapsed).
    Namespace(String),
    /// What another overview grouping names (e.g. a tenant, in the benchmark).
    Named(String),
    /// A run of consumers of one kind that read the same source.
    Consumers { kind: String, source: ObjectKey },
}

/// A graph node.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub id: ObjectKey,
    pub status: Status,
    pub kind: NodeKind,
}

/// Edge types; an edge always points the way artifacts and readiness flow (upstream → downstream).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdgeKind {
    Source,
    ChartRef,
    Chart,
    DependsOn,
    Sync,
    Artifact,
    Notification,
    ManagedBy,
}

impl EdgeKind {
    /// Label used in the UI and in DOT.
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Source => "source",
            EdgeKind::ChartRef => "chartRef",
            EdgeKind::Chart => "chart",
            EdgeKind::DependsOn => "dependsOn",
            EdgeKind::Sync => "sync",
            EdgeKind::Artifact => "artifact",
            EdgeKind::Notification => "notification",
            EdgeKind::ManagedBy => "managedBy",
        }
    }
}

/// A directed edge between node indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Edge {
    pub from: u32,
    pub to: u32,
    pub kind: EdgeKind,
}

/// Optional layers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GraphOptions {
    /// Alerts, Providers and Receivers with their edges.
    pub notifications: bool,
    /// Ownership edges (`managedBy`).
    pub managed_by: bool,
}

/// The whole-cluster graph.
#[derive(Debug, Clone, Default)]
pub struct Graph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    index: HashMap<ObjectKey, u32>,
    /// dependsOn cycles (each a strongly connected set, sorted), found on build.
    pub cycles: Vec<Vec<ObjectKey>>,
}

/// The node status and kind of a referenced object that was not loaded.
fn absent_node(p: &Presence) -> (Status, NodeKind) {
    match p {
        Presence::Missing => (Status::Missing, NodeKind::Missing),
        Presence::NotVisible(why) => (
            Status::NotVisible,
            NodeKind::NotVisible {
                reason: why.clone(),
            },
        ),
        Presence::External(answer) => {
            let status = match answer {
                Some(Answer::NotFound) => Status::Missing,
                Some(Answer::Found(s)) if s == "Current" || s == "Ready" => Status::Ready,
                Some(Answer::Found(s)) if s == "Failed" => Status::Failed,
                Some(Answer::Found(_)) => Status::Unknown,
                _ => Status::NotVisible,
            };
            (
                status,
                NodeKind::External {
                    answer: p.describe(),
                },
            )
        }
        Presence::Present => (Status::Unknown, NodeKind::Object),
    }
}

fn in_graph(kind: &Kind, opts: GraphOptions) -> bool {
    match kind.role() {
        Role::Source | Role::Applier => true,
        Role::Notification => opts.notifications,
        Role::Image => *kind == Kind::ImageUpdateAutomation,
        Role::Other => false,
    }
}

impl Graph {
    /// Builds the graph of a cluster.
    pub fn build(cluster: &Cluster, opts: GraphOptions) -> Graph {
        let mut g = Graph::default();
        for o in cluster
            .objects()
            .iter()
            .filter(|o| in_graph(&o.key.kind, opts))
        {
            g.add(o.key.clone(), o.status, NodeKind::Object);
        }
        let mut edges = Vec::new();
        for o in cluster
            .objects()
            .iter()
            .filter(|o| in_graph(&o.key.kind, opts))
        {
            for r in &o.refs {
                if r.kind == RefKind::Notification && !opts.notifications {
                    continue;
                }
                let target = match g.index.get(&r.target) {
                    Some(&t) => t,
                    None => match cluster.presence(&r.target) {
                        Presence::Present => continue, // exists but not drawn (layer off)
                        p => {
                            let (status, kind) = absent_node(&p);
                            g.add(r.target.clone(), status, kind)
                        }
                    },
                };
                let me = g.index[&o.key];
                let (from, to, kind) = match r.kind {
                    RefKind::Source => (target, me, EdgeKind::Source),
                    RefKind::ChartRef => (target, me, EdgeKind::ChartRef),
                    RefKind::ChartTemplate => (target, me, EdgeKind::Chart),
                    RefKind::DependsOn => (target, me, EdgeKind::DependsOn),
                    RefKind::Sync => (me, target, EdgeKind::Sync),
                    RefKind::Artifact => (me, target, EdgeKind::Artifact),
                    // Events flow from the source object to the Alert; the Alert to its Provider;
                    // a Receiver triggers its resources.
                    RefKind::Notification
                        if o.key.kind == Kind::Alert && r.target.kind != Kind::Provider =>
                    {
                        (target, me, EdgeKind::Notification)
                    }
                    RefKind::Notification => (me, target, EdgeKind::Notification),
                };
                edges.push(Edge { from, to, kind });
            }
            if opts.managed_by
                && let Some(owner) = o.managed_by.as_ref().and_then(|k| g.index.get(k))
            {
                edges.push(Edge {
                    from: *owner,
                    to: g.index[&o.key],
                    kind: EdgeKind::ManagedBy,
                });
            }
        }
        crate::util::sort::natural(&mut edges);
        edges.dedup();
        g.edges = edges;
        g.cycles = g.depends_on_cycles();
        g
    }

    /// Every dependsOn cycle, as sorted member lists, sorted.
    fn depends_on_cycles(&self) -> Vec<Vec<ObjectKey>> {
        let depends = self
            .edges
            .iter()
            .filter(|e| e.kind == EdgeKind::DependsOn)
            .map(|e| (e.from, e.to));
        let mut out: Vec<Vec<ObjectKey>> = super::cycles::cycles(self.nodes.len(), depends)
            .into_iter()
            .map(|comp| {
                let mut keys: Vec<ObjectKey> = comp
                    .iter()
                    .map(|&i| self.nodes[i as usize].id.clone())
                    .collect();
                crate::util::sort::natural(&mut keys);
                keys
            })
            .collect();
        crate::util::sort::natural(&mut out);
        out
    }

    /// Nodes that stand for references fluxlens cannot see.
    pub fn not_visible(&self) -> impl Iterator<Item = &Node> {
        self.nodes
            .iter()
            .filter(|n| matches!(n.kind, NodeKind::NotVisible { .. }))
    }

    fn add(&mut self, id: ObjectKey, status: Status, kind: NodeKind) -> u32 {
        let i = self.nodes.len() as u32;
        self.index.insert(id.clone(), i);
        self.nodes.push(Node { id, status, kind });
        i
    }

    /// The index of a node.
    pub fn find(&self, id: &ObjectKey) -> Option<u32> {
        self.index.get(id).copied()
    }

    /// Nodes that stand for missing references.
    pub fn missing(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter().filter(|n| n.kind == NodeKind::Missing)
    }

    /// Whether a node is part of a dependsOn cycle.
    pub fn in_cycle(&self, id: &ObjectKey) -> bool {
        self.cycles.iter().any(|c| c.contains(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CrdAccess;
    use crate::wire::FluxReport;

    fn cluster(objs: &[&str]) -> Cluster {
        Cluster::new(
            FluxReport::default(),
            objs.iter().map(|s| serde_json::from_str(s).unwrap()),
            CrdAccess::Unknown,
        )
        .with_server_answers()
    }

    fn edges(g: &Graph) -> Vec<String> {
        g.edges
            .iter()
            .map(|e| {
                format!(
                    "{} -{}-> {}",
                    g.nodes[e.from as usize].id,
                    e.kind.as_str(),
                    g.nodes[e.to as usize].id
                )
            })
            .collect()
    }

    #[test]
    fn typed_edges_and_missing_nodes() {
        let c = cluster(&[
            r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"sync":{"kind":"OCIRepository"}}}"#,
            r#"{"kind":"Kustomization","metadata":{"name":"flux-system","namespace":"flux-system"},"spec":{"sourceRef":{"kind":"OCIRepository","name":"flux-system"}}}"#,
            r#"{"kind":"HelmRelease","metadata":{"name":"web","namespace":"apps"},"spec":{"chartRef":{"kind":"OCIRepository","name":"chart"}}}"#,
            r#"{"kind":"HelmRelease","metadata":{"name":"db","namespace":"apps"},"spec":{"chart":{"spec":{"chart":"pg","sourceRef":{"kind":"HelmRepository","name":"charts","namespace":"flux-system"}}},"dependsOn":[{"name":"web"}]}}"#,
            r#"{"kind":"ArtifactGenerator","metadata":{"name":"gen","namespace":"apps"},"spec":{"sources":[{"kind":"GitRepository","name":"repo"}],"artifacts":[{"name":"slice"}]}}"#,
            r#"{"kind":"GitRepository","metadata":{"name":"repo","namespace":"apps"}}"#,
            r#"{"kind":"ExternalArtifact","metadata":{"name":"slice","namespace":"apps"}}"#,
        ]);
        let g = Graph::build(&c, GraphOptions::default());
        let e = edges(&g);
        for want in [
            "FluxInstance/flux-system/flux -sync-> OCIRepository/flux-system/flux-system",
            "FluxInstance/flux-system/flux -sync-> Kustomization/flux-system/flux-system",
            "OCIRepository/flux-system/flux-system -source-> Kustomization/flux-system/flux-system",
            "OCIRepository/apps/chart -chartRef-> HelmRelease/apps/web",
            "HelmRepository/flux-system/charts -chart-> HelmRelease/apps/db",
            "HelmRelease/apps/web -dependsOn-> HelmRelease/apps/db",
            "GitRepository/apps/repo -source-> ArtifactGenerator/apps/gen",
            "ArtifactGenerator/apps/gen -artifact-> ExternalArtifact/apps/slice",
        ] {
            assert!(e.iter().any(|x| x == want), "missing edge {want}\n{e:#?}");
        }
        let missing: Vec<_> = g.missing().map(|n| n.id.to_string()).collect();
        assert_eq!(missing.len(), 3, "{missing:?}"); // OCI root, chart OCI, HelmRepository
        assert!(g.missing().all(|n| n.status == Status::Missing));
        assert!(g.cycles.is_empty());
    }

    #[test]
    fn notification_layer_is_optional() {
        let c = cluster(&[
            r#"{"kind":"Alert","metadata":{"name":"a","namespace":"ops"},"spec":{"providerRef":{"name":"p"},"eventSources":[{"kind":"GitRepository","name":"gone"}]}}"#,
            r#"{"kind":"Provider","metadata":{"name":"p","namespace":"ops"}}"#,
        ]);
        assert!(Graph::build(&c, GraphOptions::default()).nodes.is_empty());
        let g = Graph::build(
            &c,
            GraphOptions {
                notifications: true,
                managed_by: false,
            },
        );
        assert_eq!(g.nodes.len(), 3);
        assert!(
            edges(&g).contains(&"GitRepository/ops/gone -notification-> Alert/ops/a".to_string())
        );
    }
}
