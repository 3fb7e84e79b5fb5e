//! Layered (Sugiyama-style) layout, left to right: cycle breaking by DFS back edges,
//! longest-path layering, barycenter crossing reduction, then y coordinates that pull each
//! node towards its upstream neighbours without overlaps. Deterministic: ties break by index.

use super::build::{EdgeKind, NodeKind};
use super::view::ViewGraph;

/// Node box width in layout units (SVG px).
pub const NODE_W: f32 = 240.0;
/// Node box height.
pub const NODE_H: f32 = 44.0;
const GAP_X: f32 = 90.0;
const GAP_Y: f32 = 14.0;
const STEP_Y: f32 = NODE_H + GAP_Y;
const SWEEPS: usize = 4;
/// A layer with more nodes than this wraps into sub-columns.
const WRAP_ABOVE: usize = 30;
/// Gap between the sub-columns of a wrapped layer.
const GAP_X_WRAP: f32 = 30.0;

/// An axis-aligned rectangle in layout units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    fn intersects(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }
}

/// Positions of every view node (top-left corner) and the drawing's size.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Layout {
    pub pos: Vec<(f32, f32)>,
    pub layer: Vec<u32>,
    pub width: f32,
    pub height: f32,
    /// The columns of boxes, left to right: what an edge passes on its way (`edge_route`).
    pub columns: Vec<Column>,
}

/// A column of boxes (a layer, or one sub-column of a wrapped layer).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Column {
    /// Left side of its boxes.
    pub x: f32,
    /// Tops of its boxes, in order down the column.
    pub tops: Vec<f32>,
}

/// The columns of `pos`, left to right.
fn columns(pos: &[(f32, f32)]) -> Vec<Column> {
    let mut by_x: std::collections::BTreeMap<u32, Vec<f32>> = Default::default();
    for &(x, y) in pos {
        // Positions are non-negative, so their bits order as the numbers do.
        by_x.entry(x.to_bits()).or_default().push(y);
    }
    by_x.into_iter()
        .map(|(x, mut tops)| {
            tops.sort_by(f32::total_cmp);
            Column {
                x: f32::from_bits(x),
                tops,
            }
        })
        .collect()
}

/// Lays a view graph out: layers (cycles broken, longest path), crossing reduction,
/// coordinates, and a long chain folded into bands.
pub fn layout(v: &ViewGraph) -> Layout {
    let n = v.nodes.len();
    if n == 0 {
        return Layout::default();
    }
    let (succ, column_succ) = successors(v);
    let (layer, mut layers) = layering(n, &succ);
    let all_preds: Vec<Vec<u32>> = {
        let mut p = vec![Vec::new(); n];
        for e in &v.edges {
            p[e.to as usize].push(e.from);
        }
        p
    };
    reduce_crossings(&mut layers, &all_preds, &succ, n);
    if v.overview {
        order_shared_columns(v, &mut layers, &column_succ);
    }
    let (mut pos, layer_x, width, height) = coordinates(&layers, &layer, &all_preds);
    let (mut width, mut height) = (width, height);
    // Only a chain folds: a drawing with layers of three or more boxes has edges between
    // non-adjacent layers that, across a fold, would loop back over the bands.
    if layers.iter().all(|l| l.len() <= BAND_LAYER_MAX) {
        (width, height) = fold_into_bands(&mut pos, &layer, &layer_x, width, height);
    }
    Layout {
        columns: columns(&pos),
        pos,
        layer,
        width,
        height,
    }
}

/// Each node's successors that make columns, and (in the namespace overview) those that share
/// a column: dependsOn between namespaces does not make columns there — a chain of them (each
/// namespace waiting for the previous) would be a row many screens wide; they share a column
/// and the edge runs down it.
fn successors(v: &ViewGraph) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
    let n = v.nodes.len();
    let mut succ: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut column_succ: Vec<Vec<u32>> = vec![Vec::new(); n];
    let grouped = |i: u32| matches!(v.nodes[i as usize].kind, NodeKind::Group { .. });
    for e in &v.edges {
        if v.overview && e.kind == EdgeKind::DependsOn && grouped(e.from) && grouped(e.to) {
            column_succ[e.from as usize].push(e.to);
            continue;
        }
        succ[e.from as usize].push(e.to);
    }
    (succ, column_succ)
}

/// Each node's layer and the layers' nodes: cycles broken (edges into a node on the DFS stack
/// are ignored), then longest-path layering in topological order (Kahn, index order for
/// determinism); a source with consumers sits just left of its nearest consumer.
fn layering(n: usize, succ: &[Vec<u32>]) -> (Vec<u32>, Vec<Vec<u32>>) {
    let dag = acyclic_edges(n, succ);
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut dsucc: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &(a, b) in &dag {
        preds[b as usize].push(a);
        dsucc[a as usize].push(b);
    }
    let mut indeg: Vec<usize> = preds.iter().map(Vec::len).collect();
    let mut queue: std::collections::VecDeque<u32> =
        (0..n as u32).filter(|&i| indeg[i as usize] == 0).collect();
    let mut layer = vec![0u32; n];
    let mut topo = Vec::with_capacity(n);
    while let Some(u) = queue.pop_front() {
        topo.push(u);
        for &w in &dsucc[u as usize] {
            layer[w as usize] = layer[w as usize].max(layer[u as usize] + 1);
            indeg[w as usize] -= 1;
            if indeg[w as usize] == 0 {
                queue.push_back(w);
            }
        }
    }
    for &u in topo.iter().rev() {
        if preds[u as usize].is_empty()
            && let Some(min) = dsucc[u as usize].iter().map(|&w| layer[w as usize]).min()
        {
            layer[u as usize] = min.saturating_sub(1);
        }
    }
    let layers_n = layer.iter().max().map_or(0, |m| *m as usize + 1);
    let mut layers: Vec<Vec<u32>> = vec![Vec::new(); layers_n];
    for i in 0..n as u32 {
        layers[layer[i as usize] as usize].push(i);
    }
    (layer, layers)
}

/// Crossing reduction: barycenter sweeps, down then up.
fn reduce_crossings(layers: &mut [Vec<u32>], preds: &[Vec<u32>], succ: &[Vec<u32>], n: usize) {
    let mut order = vec![0f32; n];
    let renumber = |layers: &[Vec<u32>], order: &mut Vec<f32>| {
        for l in layers {
            for (k, &v) in l.iter().enumerate() {
                order[v as usize] = k as f32;
            }
        }
    };
    renumber(layers, &mut order);
    let layers_n = layers.len();
    for _ in 0..SWEEPS {
        for l in 1..layers_n {
            sort_by_barycenter(&mut layers[l], preds, &order);
            renumber(layers, &mut order);
        }
        for l in (0..layers_n.saturating_sub(1)).rev() {
            sort_by_barycenter(&mut layers[l], succ, &order);
            renumber(layers, &mut order);
        }
    }
}

/// Down a shared column, a namespace comes after those it waits for (dependsOn depth), so the
/// chain reads top to bottom; at equal depth a namespace with problems comes first (#27:
/// problems on top), then the barycenter order (the sort is stable).
fn order_shared_columns(v: &ViewGraph, layers: &mut [Vec<u32>], column_succ: &[Vec<u32>]) {
    let n = v.nodes.len();
    let mut depth = vec![0u32; n];
    let chain = acyclic_edges(n, column_succ);
    for _ in 0..n {
        let mut changed = false;
        for &(a, b) in &chain {
            if depth[b as usize] < depth[a as usize] + 1 {
                depth[b as usize] = depth[a as usize] + 1;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let calm = |i: u32| v.nodes[i as usize].problems == 0 && !v.nodes[i as usize].in_cycle;
    for l in layers.iter_mut() {
        crate::util::sort::by(l, |a, b| {
            (depth[*a as usize], calm(*a)).cmp(&(depth[*b as usize], calm(*b)))
        });
    }
}

/// Coordinates: pull towards upstream neighbours, keep order, no overlap. A layer of more than
/// WRAP_ABOVE nodes (a root source with 150 consumers) becomes a near-square block of
/// sub-columns, in order, column by column: as one column it would be thousands of px tall and
/// "fit" would shrink every label to nothing. Returns the positions, each layer's x, and the
/// drawing's width and height.
fn coordinates(
    layers: &[Vec<u32>],
    layer: &[u32],
    preds: &[Vec<u32>],
) -> (Vec<(f32, f32)>, Vec<f32>, f32, f32) {
    let mut pos = vec![(0f32, 0f32); layer.len()];
    let mut height: f32 = 0.0;
    let mut x = 0.0;
    let mut layer_x = Vec::with_capacity(layers.len());
    for (l, nodes) in layers.iter().enumerate() {
        layer_x.push(x);
        if nodes.len() > WRAP_ABOVE {
            let rows = wrap_rows(nodes.len());
            for (k, &v) in nodes.iter().enumerate() {
                let col = (k / rows) as f32;
                pos[v as usize] = (x + col * (NODE_W + GAP_X_WRAP), (k % rows) as f32 * STEP_Y);
            }
            let cols = nodes.len().div_ceil(rows) as f32;
            height = height.max(rows as f32 * STEP_Y - GAP_Y);
            x += cols * (NODE_W + GAP_X_WRAP) - GAP_X_WRAP + GAP_X;
            continue;
        }
        let mut last = f32::NEG_INFINITY;
        for &v in nodes {
            let placed: Vec<f32> = preds[v as usize]
                .iter()
                .filter(|&&u| layer[u as usize] < l as u32)
                .map(|&u| pos[u as usize].1)
                .collect();
            let want = if placed.is_empty() {
                0.0
            } else {
                placed.iter().sum::<f32>() / placed.len() as f32
            };
            let y = want.max(last + STEP_Y).max(0.0);
            pos[v as usize] = (x, y);
            last = y;
        }
        height = height.max(last + NODE_H);
        x += NODE_W + GAP_X;
    }
    (pos, layer_x, x - GAP_X, height)
}

/// Layers beyond which a long, low drawing folds into bands.
const BAND_ABOVE: usize = 6;
/// The most columns a band holds.
const BAND_COLUMNS_MAX: usize = 3;
/// The most boxes a layer may hold for the drawing to fold (a chain, and a chain with a side
/// object here and there).
const BAND_LAYER_MAX: usize = 2;
/// Vertical gap between two bands (room for the edges that return to the next band's start).
const BAND_GAP: f32 = 60.0;

/// A chain many layers long, at most two boxes a layer (a focus on a deep dependsOn chain: 13
/// objects in one row, #46) folds into bands of consecutive layers stacked downwards, about
/// twice as wide as tall in all, so it opens readable instead of a row many screens wide. An
/// edge into the next band returns under it to its start, as a line of text does. Returns the
/// new width and height.
fn fold_into_bands(
    pos: &mut [(f32, f32)],
    layer: &[u32],
    layer_x: &[f32],
    width: f32,
    height: f32,
) -> (f32, f32) {
    let layers = layer_x.len();
    let step = height + BAND_GAP;
    let bands = (width / (2.0 * step)).sqrt().floor() as usize;
    // At most three columns a band: 900 units, which a canvas beside the side panel shows whole
    // at the legible zoom, so the picture opens from the chain's start with its focus in view.
    let per_band = layers.div_ceil(bands.max(1)).clamp(3, BAND_COLUMNS_MAX);
    if layers <= BAND_ABOVE || bands < 2 || per_band >= layers {
        return (width, height);
    }
    for (p, &l) in pos.iter_mut().zip(layer) {
        let (band, first) = (l as usize / per_band, l as usize / per_band * per_band);
        *p = (p.0 - layer_x[first], p.1 + band as f32 * step);
    }
    let bands = layers.div_ceil(per_band);
    let band_width = (0..bands)
        .map(|b| {
            let last = ((b + 1) * per_band).min(layers) - 1;
            layer_x[last] - layer_x[b * per_band] + NODE_W
        })
        .fold(0.0, f32::max);
    (band_width, bands as f32 * step - BAND_GAP)
}

/// Rows of a wrapped layer of `len` nodes: about as tall as the block is wide.
fn wrap_rows(len: usize) -> usize {
    let cell_ratio = (NODE_W + GAP_X_WRAP) / STEP_Y;
    ((len as f32 * cell_ratio).sqrt().ceil() as usize).clamp(1, len)
}

fn sort_by_barycenter(nodes: &mut [u32], neighbours: &[Vec<u32>], order: &[f32]) {
    let key = |v: u32| -> f32 {
        let ns = &neighbours[v as usize];
        if ns.is_empty() {
            order[v as usize]
        } else {
            ns.iter().map(|&u| order[u as usize]).sum::<f32>() / ns.len() as f32
        }
    };
    let mut keyed: Vec<(f32, f32, u32)> = nodes
        .iter()
        .map(|&v| (key(v), order[v as usize], v))
        .collect();
    crate::util::sort::by(&mut keyed, |a, b| {
        a.0.total_cmp(&b.0)
            .then(a.1.total_cmp(&b.1))
            .then(a.2.cmp(&b.2))
    });
    for (slot, (_, _, v)) in nodes.iter_mut().zip(keyed) {
        *slot = v;
    }
}

/// The edges that remain after dropping DFS back edges (iterative DFS in index order).
fn acyclic_edges(n: usize, succ: &[Vec<u32>]) -> Vec<(u32, u32)> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Active,
        Done,
    }
    let mut mark = vec![Mark::New; n];
    let mut out = Vec::new();
    for s in 0..n as u32 {
        if mark[s as usize] != Mark::New {
            continue;
        }
        let mut stack: Vec<(u32, usize)> = vec![(s, 0)];
        mark[s as usize] = Mark::Active;
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            if let Some(&w) = succ[v as usize].get(*i) {
                *i += 1;
                match mark[w as usize] {
                    Mark::Active => {} // back edge: breaks a cycle
                    Mark::Done => out.push((v, w)),
                    Mark::New => {
                        out.push((v, w));
                        mark[w as usize] = Mark::Active;
                        stack.push((w, 0));
                    }
                }
            } else {
                mark[v as usize] = Mark::Done;
                stack.pop();
            }
        }
    }
    out
}

impl Layout {
    /// The first box of namespace `ns` as read: the leftmost (its sources), topmost among
    /// those; groups excluded.
    pub fn first_of(&self, v: &ViewGraph, ns: &str) -> Option<u32> {
        self.first_where(|i| {
            let n = &v.nodes[i as usize];
            n.id.namespace == ns && !matches!(n.kind, NodeKind::Group { .. })
        })
    }

    /// The drawing's first box as read: the leftmost, topmost among those.
    pub fn first_box(&self) -> Option<u32> {
        self.first_where(|_| true)
    }

    fn first_where(&self, keep: impl Fn(u32) -> bool) -> Option<u32> {
        (0..self.pos.len() as u32)
            .filter(|&i| keep(i))
            .min_by(|&a, &b| {
                let (pa, pb) = (self.pos[a as usize], self.pos[b as usize]);
                pa.0.total_cmp(&pb.0).then(pa.1.total_cmp(&pb.1))
            })
    }

    /// The box of node `i`.
    pub fn rect(&self, i: u32) -> Rect {
        let (x, y) = self.pos[i as usize];
        Rect {
            x,
            y,
            w: NODE_W,
            h: NODE_H,
        }
    }

    /// Nodes whose box intersects `view` (what the DOM holds at large sizes).
    pub fn visible(&self, view: Rect) -> Vec<u32> {
        (0..self.pos.len() as u32)
            .filter(|&i| self.rect(i).intersects(&view))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::graph::{Graph, GraphFilter, GraphOptions, view};
    use crate::model::{Cluster, CrdAccess};
    use crate::wire::FluxReport;
    use std::collections::HashSet;

    fn laid(n: usize) -> (ViewGraph, Layout) {
        laid_out(crate::model::synthetic::objects(n))
    }

    /// The ungrouped view of `objs` and its layout.
    fn laid_out(objs: Vec<serde_json::Value>) -> (ViewGraph, Layout) {
        let objs: Vec<_> = objs
            .into_iter()
            .map(|v| serde_json::from_value(v).unwrap())
            .collect();
        let c = Cluster::new(FluxReport::default(), objs, CrdAccess::Unknown);
        let g = Graph::build(&c, GraphOptions::default());
        let v = view(
            &g,
            &GraphFilter {
                group_threshold: 0,
                flat: true,
                ..Default::default()
            },
            &HashSet::new(),
        );
        let l = layout(&v);
        (v, l)
    }

    #[test]
    fn edges_point_right_and_nodes_do_not_overlap() {
        let (v, l) = laid(500);
        assert_eq!(l.pos.len(), v.nodes.len());
        for e in &v.edges {
            assert!(
                l.layer[e.from as usize] < l.layer[e.to as usize],
                "acyclic synthetic graph: every edge goes right"
            );
        }
        assert_no_overlap(&l);
    }

    #[test]
    fn edge_labels_sit_between_columns_never_on_a_box() {
        let (v, l) = laid(500);
        let boxes: Vec<Rect> = (0..l.pos.len() as u32).map(|i| l.rect(i)).collect();
        let mut long = 0;
        for e in &v.edges {
            let route = l.edge_route(e.from, e.to);
            long += usize::from(route.parts.len() > 1);
            let p = route.label_point().unwrap();
            // The label (about 20 × 12 px, centred above the point) touches no box.
            let label = Rect {
                x: p.x - 10.0,
                y: p.y - 16.0,
                w: 20.0,
                h: 12.0,
            };
            assert!(
                !boxes.iter().any(|b| b.intersects(&label)),
                "label of {:?} at {p:?}",
                e
            );
        }
        assert!(long > 0, "the layout has edges across several columns");
    }

    #[test]
    fn a_deep_chain_folds_into_bands_that_open_readable() {
        // A focus on the end of a 13-deep dependsOn chain (#46: one row 4,200 px wide).
        let objs: Vec<_> = (0..13)
            .map(|i| {
                let mut k = serde_json::json!({"kind":"Kustomization","metadata":{"name":format!("k{i}"),"namespace":"apps"}});
                if i > 0 {
                    k["spec"] = serde_json::json!({"dependsOn":[{"name":format!("k{}", i - 1)}]});
                }
                k
            })
            .collect();
        let (v, l) = laid_out(objs);
        assert_eq!(l.pos.len(), 13);
        assert_no_overlap_2d(&l);
        let ratio = l.width / l.height;
        assert!((1.0..4.0).contains(&ratio), "{} × {}", l.width, l.height);
        // Fits a 1440 px canvas at full size.
        assert!(l.width <= 1400.0, "{}", l.width);
        // Read in order: left to right along a band, then the next band below.
        let order: Vec<_> = (0..13)
            .map(|i| {
                v.nodes
                    .iter()
                    .position(|n| n.id.name == format!("k{i}"))
                    .unwrap()
            })
            .collect();
        for w in order.windows(2) {
            let (a, b) = (l.pos[w[0]], l.pos[w[1]]);
            assert!(b.0 > a.0 || b.1 > a.1, "{a:?} then {b:?}");
        }
    }

    #[test]
    fn a_namespace_is_read_from_its_leftmost_box() {
        let objs = vec![
            serde_json::json!({"kind":"GitRepository","metadata":{"name":"repo","namespace":"team"}}),
            serde_json::json!({"kind":"Kustomization","metadata":{"name":"app","namespace":"team"},"spec":{"sourceRef":{"kind":"GitRepository","name":"repo"}}}),
            serde_json::json!({"kind":"Kustomization","metadata":{"name":"other","namespace":"elsewhere"}}),
        ];
        let (v, l) = laid_out(objs);
        let first = l.first_of(&v, "team").unwrap();
        assert_eq!(v.nodes[first as usize].id.name, "repo");
        assert_eq!(l.first_of(&v, "nowhere"), None);
    }

    #[test]
    fn a_wide_drawing_is_not_folded() {
        // Twelve layers of three, each depending on the first of the layer before: folding it
        // would loop edges between two bands back over them, so it stays one row.
        let objs: Vec<_> = (0..12)
            .flat_map(|l| (0..3).map(move |j| (l, j)))
            .map(|(l, j)| {
                let mut k = serde_json::json!({"kind":"Kustomization","metadata":{"name":format!("k{l}-{j}"),"namespace":"apps"}});
                if l > 0 {
                    k["spec"] = serde_json::json!({"dependsOn": [{"name": format!("k{}-0", l - 1)}]});
                }
                k
            })
            .collect();
        let (_, l) = laid_out(objs);
        assert_eq!(
            l.width,
            12.0 * (NODE_W + GAP_X) - GAP_X,
            "one row of twelve layers"
        );
    }

    /// No two boxes overlap.
    fn assert_no_overlap_2d(l: &Layout) {
        for i in 0..l.pos.len() as u32 {
            for j in i + 1..l.pos.len() as u32 {
                assert!(!l.rect(i).intersects(&l.rect(j)), "{i} and {j} overlap");
            }
        }
    }

    /// Nodes sharing a column (same x) are at least a node height apart.
    fn assert_no_overlap(l: &Layout) {
        let mut by_col: std::collections::HashMap<u32, Vec<f32>> = Default::default();
        for p in &l.pos {
            by_col.entry(p.0.to_bits()).or_default().push(p.1);
        }
        for ys in by_col.values_mut() {
            ys.sort_by(f32::total_cmp);
            assert!(ys.windows(2).all(|w| w[1] - w[0] >= NODE_H), "overlap");
        }
        // Columns never overlap sideways either.
        let mut xs: Vec<f32> = l.pos.iter().map(|p| p.0).collect();
        xs.sort_by(f32::total_cmp);
        xs.dedup();
        assert!(
            xs.windows(2).all(|w| w[1] - w[0] >= NODE_W),
            "columns overlap"
        );
    }

    #[test]
    fn a_source_with_many_consumers_wraps_into_a_near_square_block() {
        // One GitRepository consumed by 150 Kustomizations: one column would be ~8,700 px tall.
        let mut objs = vec![
            serde_json::json!({"kind":"GitRepository","metadata":{"name":"root","namespace":"flux-system"}}),
        ];
        for i in 0..150 {
            objs.push(serde_json::json!({"kind":"Kustomization","metadata":{"name":format!("app-{i}"),"namespace":"flux-system"},
                "spec":{"sourceRef":{"kind":"GitRepository","name":"root"}}}));
        }
        let (v, l) = laid_out(objs);
        assert_eq!(l.pos.len(), 151);
        assert_no_overlap(&l);
        let ratio = l.width / l.height;
        assert!((0.5..2.5).contains(&ratio), "{} × {}", l.width, l.height);
        assert!(l.height < 30.0 * STEP_Y, "height {}", l.height);
        // Every edge still runs left to right, from the root to its consumers.
        for e in &v.edges {
            assert!(l.pos[e.from as usize].0 + NODE_W <= l.pos[e.to as usize].0);
        }
    }

    #[test]
    fn deterministic_and_robust_to_cycles() {
        let (_, a) = laid(300);
        let (_, b) = laid(300);
        assert_eq!(a, b);
        let objs = ["x", "y", "z"].map(|n| {
            let dep = match n { "x" => "z", "y" => "x", _ => "y" };
            serde_json::from_str(&format!(r#"{{"kind":"Kustomization","metadata":{{"name":"{n}","namespace":"a"}},"spec":{{"dependsOn":[{{"name":"{dep}"}}]}}}}"#)).unwrap()
        });
        let c = Cluster::new(FluxReport::default(), objs, CrdAccess::Unknown);
        let g = Graph::build(&c, GraphOptions::default());
        assert_eq!(g.cycles.len(), 1);
        let flat = GraphFilter {
            flat: true,
            ..Default::default()
        };
        let l = layout(&view(&g, &flat, &HashSet::new()));
        assert_eq!(l.pos.len(), 3);
        assert!(l.width > 0.0 && l.height > 0.0);
    }

    #[test]
    fn culling_returns_only_what_is_in_view() {
        let (_, l) = laid(1000);
        let vis = l.visible(Rect {
            x: 0.0,
            y: 0.0,
            w: 1200.0,
            h: 800.0,
        });
        assert!(
            !vis.is_empty() && vis.len() < l.pos.len() / 4,
            "{} of {}",
            vis.len(),
            l.pos.len()
        );
        assert!(l.edge_path(0, 1).starts_with('M'));
    }

    #[test]
    fn quality_of_a_fan_from_one_source() {
        let objs: Vec<serde_json::Value> = (0..20)
            .map(|i| serde_json::json!({"kind":"Kustomization","metadata":{"name":format!("k{i}"),"namespace":"a"},
                "spec":{"sourceRef":{"kind":"GitRepository","name":"root"}}}))
            .chain([serde_json::json!({"kind":"GitRepository","metadata":{"name":"root","namespace":"a"}})])
            .collect();
        let (v, l) = laid_out(objs);
        let q = crate::analyses::graph::quality(&l, &v);
        assert_eq!(q.edges, 20);
        assert_eq!(
            q.crossings, 0,
            "a fan from one source does not cross itself"
        );
        assert_eq!(q.over_boxes, 0, "each edge runs straight to its own box");
        assert!(q.length > 20.0 * GAP_X as f64);
    }

    #[test]
    fn an_overview_dependson_chain_runs_down_one_column_in_order() {
        use crate::analyses::graph::{Edge, EdgeKind, NodeKind, ViewNode};
        use crate::wire::status::Status;
        // flux-system feeds four namespaces that wait for each other: d → c → b → a.
        let names = ["flux-system", "a", "b", "c", "d"];
        let nodes = names
            .iter()
            .map(|ns| ViewNode {
                id: crate::analyses::graph::namespace_group(ns),
                status: Status::Ready,
                kind: NodeKind::Group {
                    count: 3,
                    of: crate::analyses::graph::GroupOf::Named("g".into()),
                },
                members: vec![],
                context: false,
                in_cycle: false,
                problems: 0,
            })
            .collect();
        let mut edges: Vec<Edge> = (1..5)
            .map(|to| Edge {
                from: 0,
                to,
                kind: EdgeKind::Source,
            })
            .collect();
        // d also waits for a directly: that edge spans the column past c and b.
        for (from, to) in [(4, 3), (3, 2), (2, 1), (4, 1)] {
            edges.push(Edge {
                from,
                to,
                kind: EdgeKind::DependsOn,
            });
        }
        let v = ViewGraph {
            nodes,
            edge_counts: vec![1; edges.len()],
            edges,
            overview: true,
            matched: 5,
        };
        let l = layout(&v);
        // One column after flux-system, not a row five boxes wide.
        assert!((1..5).all(|i| l.layer[i] == 1), "{:?}", l.layer);
        // d first, a last: the chain reads top to bottom.
        let y = |i: usize| l.pos[i].1;
        assert!(y(4) < y(3) && y(3) < y(2) && y(2) < y(1));
        let q = crate::analyses::graph::quality(&l, &v);
        assert_eq!((q.edges, q.crossings), (8, 0));
        assert_eq!(
            q.over_boxes, 0,
            "the d → a edge passes beside c and b, not over them"
        );
    }

    #[test]
    fn the_overview_puts_namespaces_with_problems_on_top() {
        use crate::analyses::graph::{Edge, EdgeKind, NodeKind, ViewNode};
        use crate::wire::status::Status;
        // flux-system feeds a, b, c; only c has a problem; nothing waits for anything.
        let node = |ns: &str, problems: usize| ViewNode {
            id: crate::analyses::graph::namespace_group(ns),
            status: if problems > 0 {
                Status::Failed
            } else {
                Status::Ready
            },
            kind: NodeKind::Group {
                count: 3,
                of: crate::analyses::graph::GroupOf::Namespace(ns.into()),
            },
            members: vec![],
            context: false,
            in_cycle: false,
            problems,
        };
        let nodes = vec![
            node("flux-system", 0),
            node("a", 0),
            node("b", 0),
            node("c", 2),
        ];
        let edges: Vec<Edge> = (1..4)
            .map(|to| Edge {
                from: 0,
                to,
                kind: EdgeKind::Source,
            })
            .collect();
        let v = ViewGraph {
            nodes,
            edge_counts: vec![1; edges.len()],
            edges,
            overview: true,
            matched: 4,
        };
        let l = layout(&v);
        let y = |i: usize| l.pos[i].1;
        assert!(
            y(3) < y(1) && y(1) < y(2),
            "c (problems) first, then a, b: {:?}",
            l.pos
        );
        assert_eq!(crate::analyses::graph::quality(&l, &v).crossings, 0);
        // Not in the every-object view: there order follows the edges alone.
        let flat = ViewGraph {
            overview: false,
            ..v.clone()
        };
        let l = layout(&flat);
        assert!(l.pos[1].1 < l.pos[3].1);
    }
}
