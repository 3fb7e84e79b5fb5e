//! What the graph view draws: filtered nodes (plus their direct neighbours as context) and
//! collapsed groups (whole namespaces on demand, long runs of sibling leaf consumers by default).

use super::build::{Edge, EdgeKind, Graph, GroupOf, NodeKind};
use crate::model::ObjectKey;
use crate::wire::kind::Kind;
use crate::wire::status::Status;
use std::collections::{HashMap, HashSet};

/// Filters and grouping, as kept in the URL.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct GraphFilter {
    pub namespaces: Vec<String>,
    pub kinds: Vec<String>,
    pub statuses: Vec<Status>,
    /// Only objects with a non-Ready status, a finding, or in a cycle.
    pub problems_only: bool,
    /// Case-insensitive substring of `Kind/namespace/name`.
    pub query: String,
    /// Namespaces drawn as one node each.
    pub collapsed_namespaces: Vec<String>,
    /// Group ids the user expanded.
    pub expanded: Vec<String>,
    /// Runs of more than this many sibling leaf consumers are grouped (0 = never).
    pub group_threshold: usize,
    /// Focus mode: only this object's upstream chain (sources, dependsOn, the FluxInstance,
    /// owners) and everything downstream of it (consumers, transitive dependents).
    pub focus: Option<ObjectKey>,
    /// Every object as its own node, even on a large cluster (no namespace overview).
    pub flat: bool,
}

impl Default for GraphFilter {
    fn default() -> Self {
        GraphFilter {
            namespaces: vec![],
            kinds: vec![],
            statuses: vec![],
            problems_only: false,
            query: String::new(),
            collapsed_namespaces: vec![],
            expanded: vec![],
            group_threshold: 8,
            focus: None,
            flat: false,
        }
    }
}

impl GraphFilter {
    fn narrows(&self) -> bool {
        !self.namespaces.is_empty()
            || !self.kinds.is_empty()
            || !self.statuses.is_empty()
            || self.problems_only
            || !self.query.is_empty()
    }
}

/// A drawn node.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct ViewNode {
    pub id: ObjectKey,
    pub status: Status,
    pub kind: NodeKind,
    /// Graph node indices this node stands for (one, or a group's members).
    pub members: Vec<u32>,
    /// Shown only because it neighbours a match.
    pub context: bool,
    pub in_cycle: bool,
    /// Members that are not Ready (missing, not visible, failing, …) or in a cycle: a group
    /// with a problem says so at every level.
    pub problems: usize,
}

/// The drawn graph.
#[derive(Debug, Clone, Default)]
pub struct ViewGraph {
    pub nodes: Vec<ViewNode>,
    pub edges: Vec<Edge>,
    /// How many graph edges each drawn edge stands for (aggregated between groups).
    pub edge_counts: Vec<u32>,
    /// Whether the whole-cluster overview grouped the namespaces (large cluster, no filter).
    pub overview: bool,
    /// How many objects the filters and search match (the search's count; context nodes and
    /// groups are not matches).
    pub matched: usize,
}

/// Above this many drawn nodes, the default view groups every namespace into one node
/// (overview first; expanding a group lays out its members in place).
pub const OVERVIEW_ABOVE: usize = 60;

/// The id of a namespace's group node (`Namespace//<ns>`), as kept in `expand`.
pub fn namespace_group(ns: &str) -> ObjectKey {
    ObjectKey::new(Kind::Other("Namespace".into()), "", ns)
}

/// How a namespace group's id begins, as a view's `expanded` list holds it (the id of
/// [`namespace_group`]).
const GROUP_ID_PREFIX: &str = "Namespace//";

/// The namespace a namespace group's id stands for; `None` for any other id.
pub fn group_namespace(id: &str) -> Option<&str> {
    id.strip_prefix(GROUP_ID_PREFIX)
}

fn severity(s: Status) -> u8 {
    match s {
        Status::Failed => 5,
        Status::Missing => 4,
        Status::Unknown => 3,
        Status::Progressing => 2,
        Status::Suspended => 1,
        Status::Ready | Status::NotVisible => 0,
    }
}

/// Everything reachable from `start` along edges (`forward`) or against them, `start` included.
fn reach(g: &Graph, start: u32, forward: bool) -> HashSet<u32> {
    // Adjacency once, so a focus costs O(V + E) rather than a scan of every edge per node.
    let mut next: Vec<Vec<u32>> = vec![Vec::new(); g.nodes.len()];
    for e in &g.edges {
        let (from, to) = if forward {
            (e.from, e.to)
        } else {
            (e.to, e.from)
        };
        next[from as usize].push(to);
    }
    let mut seen = HashSet::from([start]);
    let mut stack = vec![start];
    while let Some(cur) = stack.pop() {
        for &to in &next[cur as usize] {
            if seen.insert(to) {
                stack.push(to);
            }
        }
    }
    seen
}

/// The focus on `key`: its upstream chain (itself and everything it reads from, transitively:
/// sources, dependsOn targets, owners, the FluxInstance) and its downstream (itself and
/// everything that reads from it), following edges the way artifacts and readiness flow.
/// `None` when the key is not in the graph.
fn focus_chains(g: &Graph, key: &ObjectKey) -> Option<(HashSet<u32>, HashSet<u32>)> {
    let start = g.find(key)?;
    Some((reach(g, start, false), reach(g, start, true)))
}

/// Applies a filter and grouping; `problems` are subjects of findings.
pub fn view(g: &Graph, f: &GraphFilter, problems: &HashSet<ObjectKey>) -> ViewGraph {
    view_grouped(g, f, problems, &|i| {
        namespace_group(&g.nodes[i].id.namespace)
    })
}

/// [`view`] with another overview grouping (`group(node index)` names the node's group): the
/// benchmark compares namespaces with root source → tenant ([`super::tenants::tenant_groups`]).
pub fn view_grouped(
    g: &Graph,
    f: &GraphFilter,
    problems: &HashSet<ObjectKey>,
    group: &dyn Fn(usize) -> ObjectKey,
) -> ViewGraph {
    let in_cycle: HashSet<&ObjectKey> = g.cycles.iter().flatten().collect();
    let matched = matching(g, f, problems, &in_cycle);
    let focus = f.focus.as_ref().and_then(|k| focus_chains(g, k));
    let (include, matched_count) = included(g, f, &matched, focus.as_ref());
    // Overview first: a large cluster (or a large focus: the root source's downstream is the
    // whole cluster) with no filter or explicit grouping is drawn as one node per namespace;
    // the user expands the ones to look into. A focus keeps its object and upstream chain whole.
    let keep: HashSet<u32> = focus.map(|(up, _)| up).unwrap_or_default();
    let overview = !f.flat
        && !f.narrows()
        && f.collapsed_namespaces.is_empty()
        && include.iter().filter(|&&x| x).count() > OVERVIEW_ABOVE;
    let group_of = groups_of(g, f, &include, &keep, overview, group);
    let (nodes, vindex) = drawn_nodes(g, f, &include, &matched, &in_cycle, &group_of);
    let (edges, edge_counts) = drawn_edges(g, &vindex);
    ViewGraph {
        nodes,
        edges,
        edge_counts,
        overview,
        matched: matched_count,
    }
}

/// Which graph nodes the filter matches.
fn matching(
    g: &Graph,
    f: &GraphFilter,
    problems: &HashSet<ObjectKey>,
    in_cycle: &HashSet<&ObjectKey>,
) -> Vec<bool> {
    let q = f.query.to_lowercase();
    g.nodes
        .iter()
        .map(|node| {
            let id = &node.id;
            (f.namespaces.is_empty() || f.namespaces.contains(&id.namespace))
                && (f.kinds.is_empty() || f.kinds.iter().any(|k| k == id.kind.as_str()))
                && (f.statuses.is_empty() || f.statuses.contains(&node.status))
                && (q.is_empty() || id.to_string().to_lowercase().contains(&q))
                && (!f.problems_only
                    || !matches!(node.status, Status::Ready | Status::Suspended)
                    || problems.contains(id)
                    || in_cycle.contains(id))
        })
        .collect()
}

/// What is drawn: the matches, within a focus its chains, else with their neighbours as
/// context; and how many matches are drawn.
fn included(
    g: &Graph,
    f: &GraphFilter,
    matched: &[bool],
    focus: Option<&(HashSet<u32>, HashSet<u32>)>,
) -> (Vec<bool>, usize) {
    let n = g.nodes.len();
    let mut include = matched.to_vec();
    let matched_count = (0..n)
        .filter(|&i| {
            let at = i as u32;
            matched[i] && focus.is_none_or(|(up, down)| up.contains(&at) || down.contains(&at))
        })
        .count();
    if let Some((up, down)) = focus {
        // The chain is the view: filters still narrow it, no neighbours are added as context.
        for (i, inc) in include.iter_mut().enumerate() {
            let i = i as u32;
            *inc = *inc && (up.contains(&i) || down.contains(&i));
        }
    } else if f.narrows() {
        // "Problems only" adds what a problem reads (its sources, dependencies, owner: where the
        // cause may be), not everything that reads it: a failing source's consumers are
        // problems of their own when they fail, and otherwise dozens of dimmed boxes (#46).
        let downstream = !f.problems_only;
        for e in &g.edges {
            let (a, b) = (e.from as usize, e.to as usize);
            if matched[a] && downstream {
                include[b] = true;
            }
            if matched[b] {
                include[a] = true;
            }
        }
    }
    (include, matched_count)
}

/// Group assignment, graph node → group: the overview's (or a collapsed namespace's) groups,
/// then runs of sibling consumers of one source beyond the filter's threshold.
fn groups_of(
    g: &Graph,
    f: &GraphFilter,
    include: &[bool],
    keep: &HashSet<u32>,
    overview: bool,
    group: &dyn Fn(usize) -> ObjectKey,
) -> Vec<Option<(ObjectKey, GroupOf)>> {
    let n = g.nodes.len();
    // Group assignment: graph node → group key.
    let mut group_of: Vec<Option<(ObjectKey, GroupOf)>> = vec![None; n];
    for i in 0..n {
        let id = &g.nodes[i].id;
        let group = group(i);
        let of = if group == namespace_group(&id.namespace) {
            GroupOf::Namespace(id.namespace.clone())
        } else {
            GroupOf::Named(group.name.clone())
        };
        let expanded = f.expanded.iter().any(|e| *e == group.to_string());
        if include[i]
            && !expanded
            && !keep.contains(&(i as u32))
            && (overview || f.collapsed_namespaces.contains(&id.namespace))
        {
            group_of[i] = Some((group, of));
        }
    }
    if f.group_threshold > 0 {
        let mut has_out = vec![false; n];
        for e in &g.edges {
            has_out[e.from as usize] = true;
        }
        let mut runs: HashMap<(u32, &str, &str), Vec<u32>> = HashMap::new();
        for e in g.edges.iter().filter(|e| {
            matches!(
                e.kind,
                EdgeKind::Source | EdgeKind::ChartRef | EdgeKind::Chart
            )
        }) {
            let c = e.to as usize;
            if include[c] && !has_out[c] && group_of[c].is_none() {
                let id = &g.nodes[c].id;
                runs.entry((e.from, id.kind.as_str(), id.namespace.as_str()))
                    .or_default()
                    .push(e.to);
            }
        }
        let mut runs: Vec<_> = runs
            .into_iter()
            .filter(|(_, v)| v.len() > f.group_threshold)
            .collect();
        crate::util::sort::natural(&mut runs);
        for ((src, kind, ns), members) in runs {
            let s = &g.nodes[src as usize].id;
            let of = GroupOf::Consumers {
                kind: kind.to_string(),
                source: s.clone(),
            };
            let key = ObjectKey::new(
                Kind::Other("Group".into()),
                ns,
                format!("{kind}s-of-{}-{}-{}", s.kind, s.namespace, s.name),
            );
            if f.expanded.iter().any(|e| *e == key.to_string()) {
                continue;
            }
            for m in members {
                if group_of[m as usize].is_none() {
                    group_of[m as usize] = Some((key.clone(), of.clone()));
                }
            }
        }
    }
    group_of
}

/// The drawn nodes: each included object, or the group it falls in (its status the worst of
/// its members'); and each graph node's index among them (`u32::MAX`: not drawn).
fn drawn_nodes(
    g: &Graph,
    f: &GraphFilter,
    include: &[bool],
    matched: &[bool],
    in_cycle: &HashSet<&ObjectKey>,
    group_of: &[Option<(ObjectKey, GroupOf)>],
) -> (Vec<ViewNode>, Vec<u32>) {
    let n = g.nodes.len();
    let mut out = ViewGraph::default();
    let mut vindex: Vec<u32> = vec![u32::MAX; n];
    let mut groups: HashMap<ObjectKey, u32> = HashMap::new();
    for i in 0..n {
        if !include[i] {
            continue;
        }
        let node = &g.nodes[i];
        let v = match &group_of[i] {
            Some((key, of)) => *groups.entry(key.clone()).or_insert_with(|| {
                out.nodes.push(ViewNode {
                    id: key.clone(),
                    status: Status::Ready,
                    kind: NodeKind::Group {
                        count: 0,
                        of: of.clone(),
                    },
                    members: vec![],
                    context: true,
                    in_cycle: false,
                    problems: 0,
                });
                (out.nodes.len() - 1) as u32
            }),
            None => {
                out.nodes.push(ViewNode {
                    id: node.id.clone(),
                    status: node.status,
                    kind: node.kind.clone(),
                    members: vec![],
                    context: f.narrows() && !matched[i],
                    in_cycle: in_cycle.contains(&node.id),
                    problems: 0,
                });
                (out.nodes.len() - 1) as u32
            }
        };
        let vn = &mut out.nodes[v as usize];
        vn.members.push(i as u32);
        if !matches!(node.status, Status::Ready | Status::Suspended) || in_cycle.contains(&node.id)
        {
            vn.problems += 1;
        }
        if let NodeKind::Group { count, .. } = &mut vn.kind {
            *count += 1;
            if severity(node.status) > severity(vn.status) || vn.members.len() == 1 {
                vn.status = node.status;
            }
            vn.context &= f.narrows() && !matched[i];
            vn.in_cycle |= in_cycle.contains(&node.id);
        }
        vindex[i] = v;
    }
    (out.nodes, vindex)
}

/// The edges between drawn nodes; those between the same two become one, with how many it
/// stands for.
fn drawn_edges(g: &Graph, vindex: &[u32]) -> (Vec<Edge>, Vec<u32>) {
    let mut edges: Vec<Edge> = g
        .edges
        .iter()
        .filter_map(|e| {
            let (a, b) = (vindex[e.from as usize], vindex[e.to as usize]);
            (a != u32::MAX && b != u32::MAX && a != b).then_some(Edge {
                from: a,
                to: b,
                kind: e.kind,
            })
        })
        .collect();
    crate::util::sort::natural(&mut edges);
    // Edges between the same two drawn nodes become one, labelled with how many it stands for.
    let mut counts: Vec<u32> = Vec::with_capacity(edges.len());
    let mut merged: Vec<Edge> = Vec::with_capacity(edges.len());
    for e in edges {
        match merged.last() {
            Some(last) if last.from == e.from && last.to == e.to => {
                if let Some(c) = counts.last_mut() {
                    *c += 1;
                }
            }
            _ => {
                merged.push(e);
                counts.push(1);
            }
        }
    }
    (merged, counts)
}

impl ViewGraph {
    /// The nodes the filters and search matched (not the neighbours drawn as context).
    pub fn matches(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.nodes.len() as u32).filter(|&i| !self.nodes[i as usize].context)
    }

    /// The node to bring on screen when a namespace is laid out: its worst object (status,
    /// then a cycle), else its first, so the reason to expand it is in view.
    pub fn worst_in(&self, namespace: &str, problems: &HashSet<ObjectKey>) -> Option<u32> {
        let rank = |n: &ViewNode| (severity(n.status), n.in_cycle || problems.contains(&n.id));
        let mut best: Option<(u32, (u8, bool))> = None;
        for (i, n) in self.nodes.iter().enumerate() {
            if n.id.namespace != namespace || matches!(n.kind, NodeKind::Group { .. }) {
                continue;
            }
            let r = rank(n);
            if best.is_none_or(|(_, b)| r > b) {
                best = Some((i as u32, r));
            }
        }
        best.map(|(i, _)| i)
    }

    /// Nodes reachable upstream (`up`) or downstream from `start`, including it.
    pub fn chain(&self, start: u32, up: bool) -> HashSet<u32> {
        let mut seen = HashSet::from([start]);
        let mut todo = vec![start];
        while let Some(v) = todo.pop() {
            for e in &self.edges {
                let (from, to) = if up { (e.to, e.from) } else { (e.from, e.to) };
                if from == v && seen.insert(to) {
                    todo.push(to);
                }
            }
        }
        seen
    }

    /// The index of a node by id.
    pub fn find(&self, id: &ObjectKey) -> Option<u32> {
        self.nodes
            .iter()
            .position(|n| &n.id == id)
            .map(|i| i as u32)
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_group_id_names_its_namespace() {
        let id = namespace_group("team-a").to_string();
        assert_eq!(group_namespace(&id), Some("team-a"));
        assert_eq!(group_namespace("Kustomization/team-a/app"), None);
    }

    use super::*;
    use crate::analyses::graph::GraphOptions;
    use crate::model::{Cluster, CrdAccess};
    use crate::wire::FluxReport;

    fn demo(n_apps: usize) -> Graph {
        let mut objs = vec![r#"{"kind":"GitRepository","metadata":{"name":"repo","namespace":"flux-system"},"status":{"conditions":[{"type":"Ready","status":"True"}]}}"#.to_string()];
        for i in 0..n_apps {
            objs.push(format!(r#"{{"kind":"Kustomization","metadata":{{"name":"app-{i}","namespace":"team"}},"spec":{{"sourceRef":{{"kind":"GitRepository","name":"repo","namespace":"flux-system"}}}},"status":{{"conditions":[{{"type":"Ready","status":"{}"}}]}}}}"#, if i == 3 { "False" } else { "True" }));
        }
        objs.push(r#"{"kind":"Kustomization","metadata":{"name":"lonely","namespace":"other"},"spec":{"sourceRef":{"kind":"GitRepository","name":"gone"}}}"#.into());
        let c = Cluster::new(
            FluxReport::default(),
            objs.iter().map(|s| serde_json::from_str(s).unwrap()),
            CrdAccess::Unknown,
        );
        Graph::build(&c, GraphOptions::default())
    }

    #[test]
    fn sibling_runs_group_and_expand() {
        let g = demo(20);
        let v = view(&g, &GraphFilter::default(), &HashSet::new());
        let group = v
            .nodes
            .iter()
            .find(|n| matches!(n.kind, NodeKind::Group { .. }))
            .unwrap();
        assert!(
            matches!(&group.kind, NodeKind::Group { count: 20, of: GroupOf::Consumers { kind, .. } } if kind == "Kustomization"),
            "{:?}",
            group.kind
        );
        assert_eq!(
            group.status,
            Status::Failed,
            "a group shows its worst member"
        );
        assert_eq!(v.nodes.len(), 4); // repo, group, lonely, missing
        let f = GraphFilter {
            expanded: vec![group.id.to_string()],
            ..Default::default()
        };
        assert_eq!(view(&g, &f, &HashSet::new()).nodes.len(), 23);
        let small = view(&demo(5), &GraphFilter::default(), &HashSet::new());
        assert!(
            small
                .nodes
                .iter()
                .all(|n| !matches!(n.kind, NodeKind::Group { .. }))
        );
    }

    #[test]
    fn expanding_a_namespace_points_at_its_worst_object() {
        let node = |ns: &str, name: &str, status: Status, kind: NodeKind| ViewNode {
            id: ObjectKey::new(Kind::Kustomization, ns, name),
            status,
            kind,
            members: vec![],
            context: false,
            in_cycle: false,
            problems: 0,
        };
        let v = ViewGraph {
            nodes: vec![
                node("team", "a", Status::Ready, NodeKind::Object),
                node("team", "b", Status::Ready, NodeKind::Object),
                node("other", "x", Status::Failed, NodeKind::Object),
                node(
                    "team",
                    "g",
                    Status::Failed,
                    NodeKind::Group {
                        count: 3,
                        of: GroupOf::Named("team".into()),
                    },
                ),
            ],
            ..Default::default()
        };
        let none = HashSet::new();
        assert_eq!(v.worst_in("team", &none), Some(0), "all ready: the first");
        let flagged = HashSet::from([v.nodes[1].id.clone()]);
        assert_eq!(v.worst_in("team", &flagged), Some(1), "a finding decides");
        let mut failing = v.clone();
        failing.nodes[0].status = Status::Progressing;
        failing.nodes[1].status = Status::Missing;
        assert_eq!(
            failing.worst_in("team", &flagged),
            Some(1),
            "the worst status"
        );
        assert_eq!(v.worst_in("nowhere", &none), None);
    }

    #[test]
    fn filters_keep_neighbours_as_context() {
        let g = demo(5);
        let f = GraphFilter {
            problems_only: true,
            ..Default::default()
        };
        let v = view(&g, &f, &HashSet::new());
        let names: Vec<_> = v
            .nodes
            .iter()
            .map(|n| (n.id.name.clone(), n.context))
            .collect();
        assert!(names.contains(&("app-3".into(), false)));
        assert!(names.contains(&("repo".into(), true)), "{names:?}");
        assert!(
            names.contains(&("gone".into(), false)),
            "missing nodes are problems"
        );
        assert!(!names.iter().any(|(n, _)| n == "app-1"));
        // A problem's consumers are not its context (#46: 11 boxes became 81 dimmed ones):
        // with a finding on the source, its Ready consumers stay out.
        let repo = g
            .nodes
            .iter()
            .find(|x| x.id.name == "repo")
            .unwrap()
            .id
            .clone();
        let v = view(&g, &f, &HashSet::from([repo]));
        assert!(
            !v.nodes.iter().any(|n| n.id.name == "app-1"),
            "a Ready consumer of a problem"
        );
        for n in &v.nodes {
            if n.context {
                let i = g.nodes.iter().position(|x| x.id == n.id).unwrap() as u32;
                let reads_a_problem = g.edges.iter().any(|e| {
                    e.from == i
                        && v.nodes
                            .iter()
                            .any(|m| !m.context && g.nodes[e.to as usize].id == m.id)
                });
                assert!(
                    reads_a_problem,
                    "{} is context without being read by a problem",
                    n.id
                );
            }
        }
        let q = view(
            &g,
            &GraphFilter {
                query: "LONELY".into(),
                ..Default::default()
            },
            &HashSet::new(),
        );
        assert_eq!(q.nodes.len(), 2);
        assert_eq!(q.matched, 1, "the search counts matches, not their context");
        let app = |s: &str| {
            view(
                &g,
                &GraphFilter {
                    query: s.into(),
                    ..Default::default()
                },
                &HashSet::new(),
            )
            .matched
        };
        assert_eq!((app("app-"), app("APP-3"), app("nothing")), (5, 1, 0));
        let ns = view(
            &g,
            &GraphFilter {
                collapsed_namespaces: vec!["team".into()],
                ..Default::default()
            },
            &HashSet::new(),
        );
        assert!(
            ns.nodes
                .iter()
                .any(|n| n.id.to_string() == "Namespace//team"
                    && n.kind
                        == NodeKind::Group {
                            count: 5,
                            of: GroupOf::Namespace("team".into()),
                        })
        );
    }

    #[test]
    fn chains() {
        let g = demo(3);
        let v = view(&g, &GraphFilter::default(), &HashSet::new());
        let repo = v
            .find(&ObjectKey::new(Kind::GitRepository, "flux-system", "repo"))
            .unwrap();
        assert_eq!(v.chain(repo, false).len(), 4);
        assert_eq!(v.chain(repo, true).len(), 1);
    }

    #[test]
    fn focus_keeps_the_chain_up_and_down_only() {
        let g = demo(3);
        let app = ObjectKey::new(Kind::Kustomization, "team", "app-1");
        let f = GraphFilter {
            focus: Some(app.clone()),
            group_threshold: 0,
            ..GraphFilter::default()
        };
        let v = view(&g, &f, &HashSet::new());
        let ids: Vec<String> = v.nodes.iter().map(|n| n.id.to_string()).collect();
        assert_eq!(ids.len(), 2, "{ids:?}");
        assert!(ids.contains(&app.to_string()));
        assert!(ids.contains(&"GitRepository/flux-system/repo".to_string()));
        // From the source: everything downstream.
        let src = GraphFilter {
            focus: Some(ObjectKey::new(Kind::GitRepository, "flux-system", "repo")),
            group_threshold: 0,
            ..GraphFilter::default()
        };
        assert_eq!(view(&g, &src, &HashSet::new()).nodes.len(), 4);
    }

    #[test]
    fn large_clusters_open_as_a_namespace_overview() {
        let g = demo(80);
        let v = view(&g, &GraphFilter::default(), &HashSet::new());
        assert!(v.overview);
        let ids: Vec<String> = v.nodes.iter().map(|n| n.id.to_string()).collect();
        assert_eq!(ids.len(), 3, "{ids:?}");
        let team = v.find(&namespace_group("team")).unwrap() as usize;
        assert_eq!(
            v.nodes[team].kind,
            NodeKind::Group {
                count: 80,
                of: GroupOf::Namespace("team".into()),
            }
        );
        assert_eq!(
            v.nodes[team].problems, 1,
            "app-3 is failing: the group says so"
        );
        assert_eq!(v.nodes[team].status, Status::Failed);
        // The missing source of `lonely` stays visible as a problem of its namespace group.
        let other = v.find(&namespace_group("other")).unwrap() as usize;
        assert!(v.nodes[other].problems >= 1);
        // 80 source edges between the two groups are one edge labelled 80.
        let i = v.edges.iter().position(|e| e.to == team as u32).unwrap();
        assert_eq!(v.edge_counts[i], 80);
        // Expanding a namespace lays out its members in place; `flat` turns the overview off.
        let expanded = GraphFilter {
            expanded: vec![namespace_group("team").to_string()],
            group_threshold: 0,
            ..GraphFilter::default()
        };
        assert_eq!(view(&g, &expanded, &HashSet::new()).nodes.len(), 82);
        let flat = GraphFilter {
            flat: true,
            group_threshold: 0,
            ..GraphFilter::default()
        };
        assert!(!view(&g, &flat, &HashSet::new()).overview);
    }

    #[test]
    fn a_large_focus_groups_its_downstream_and_keeps_its_chain_whole() {
        let g = demo(80);
        let src = ObjectKey::new(Kind::GitRepository, "flux-system", "repo");
        let f = GraphFilter {
            focus: Some(src.clone()),
            ..GraphFilter::default()
        };
        let v = view(&g, &f, &HashSet::new());
        let mut ids: Vec<String> = v.nodes.iter().map(|n| n.id.to_string()).collect();
        ids.sort();
        assert_eq!(ids, [src.to_string(), namespace_group("team").to_string()]);
        // A small focus is never grouped.
        let app = GraphFilter {
            focus: Some(ObjectKey::new(Kind::Kustomization, "team", "app-1")),
            ..GraphFilter::default()
        };
        assert!(!view(&g, &app, &HashSet::new()).overview);
    }
}
