//! How a laid-out graph reads, measured on the curves actually drawn: crossings between edges,
//! edges drawn over boxes they do not connect, and total edge length.

use super::curve::{Point, segment_enters, segments_meet};
use super::layout::{Layout, NODE_H, NODE_W, Rect};
use super::view::ViewGraph;
use std::collections::HashMap;

/// The measure of one drawing.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Quality {
    /// Edges drawn.
    pub edges: usize,
    /// Pairs of drawn edges that cross, among edges with no node in common (edges that share a
    /// node meet at its box by design).
    pub crossings: usize,
    /// Edges whose drawn curve runs over the inside of a box other than their own two.
    pub over_boxes: usize,
    /// Total length of the drawn curves (px).
    pub length: f64,
}

/// One drawn edge, sampled.
struct Drawn {
    from: u32,
    to: u32,
    line: Vec<Point>,
}

/// Measures `l`'s drawing of `v`.
pub fn quality(l: &Layout, v: &ViewGraph) -> Quality {
    let drawn: Vec<Drawn> = v
        .edges
        .iter()
        .map(|e| Drawn {
            from: e.from,
            to: e.to,
            line: l.edge_route(e.from, e.to).polyline(),
        })
        .collect();
    let length = drawn
        .iter()
        .flat_map(|d| d.line.windows(2))
        .map(|w| f64::from((w[1].x - w[0].x).hypot(w[1].y - w[0].y)))
        .fold(0.0, |a, b| a + b);
    Quality {
        edges: drawn.len(),
        crossings: crossings(&drawn),
        over_boxes: over_boxes(l, &drawn),
        length,
    }
}

/// Grid cell size for finding what is near a segment: a quarter of a box wide, half as tall.
const CELL_W: f32 = NODE_W / 4.0;
const CELL_H: f32 = NODE_H / 2.0;

type Cell = (i32, i32);

fn cell(p: Point) -> Cell {
    ((p.x / CELL_W).floor() as i32, (p.y / CELL_H).floor() as i32)
}

/// The cells a segment's bounds cover.
fn cells(a: Point, b: Point) -> impl Iterator<Item = Cell> {
    let (c0, c1) = (
        cell(Point::new(a.x.min(b.x), a.y.min(b.y))),
        cell(Point::new(a.x.max(b.x), a.y.max(b.y))),
    );
    (c0.0..=c1.0).flat_map(move |x| (c0.1..=c1.1).map(move |y| (x, y)))
}

/// Crossing pairs, found cell by cell: only segments that share a grid cell can meet.
fn crossings(drawn: &[Drawn]) -> usize {
    // Each cell: the segments in it, as (edge, index of the segment's first point).
    let mut grid: HashMap<Cell, Vec<(u32, u32)>> = HashMap::new();
    for (e, d) in drawn.iter().enumerate() {
        for (k, s) in d.line.windows(2).enumerate() {
            for c in cells(s[0], s[1]) {
                grid.entry(c).or_default().push((e as u32, k as u32));
            }
        }
    }
    let seg = |(e, k): (u32, u32)| {
        let line = &drawn[e as usize].line;
        (line[k as usize], line[k as usize + 1])
    };
    // Every meeting once per cell it is seen in; the pairs counted once at the end (a sort is
    // cheaper here than a set lookup per segment pair).
    let mut found: Vec<u64> = Vec::new();
    for segs in grid.values() {
        for (i, &a) in segs.iter().enumerate() {
            for &b in &segs[i + 1..] {
                if a.0 == b.0 || share_a_node(drawn, a.0, b.0) {
                    continue;
                }
                let ((a0, a1), (b0, b1)) = (seg(a), seg(b));
                if segments_meet(a0, a1, b0, b1) {
                    found.push(u64::from(a.0.min(b.0)) << 32 | u64::from(a.0.max(b.0)));
                }
            }
        }
    }
    found.sort_unstable();
    found.dedup();
    found.len()
}

fn share_a_node(drawn: &[Drawn], a: u32, b: u32) -> bool {
    let (a, b) = (&drawn[a as usize], &drawn[b as usize]);
    [b.from, b.to].iter().any(|&x| x == a.from || x == a.to)
}

/// Edges that run over a box they do not connect. Boxes are shrunk by a pixel: a curve that
/// leaves along a neighbour's border is beside it, not over it.
fn over_boxes(l: &Layout, drawn: &[Drawn]) -> usize {
    let mut grid: HashMap<Cell, Vec<u32>> = HashMap::new();
    for i in 0..l.pos.len() as u32 {
        let r = l.rect(i);
        let (a, b) = (Point::new(r.x, r.y), Point::new(r.x + r.w, r.y + r.h));
        for c in cells(a, b) {
            grid.entry(c).or_default().push(i);
        }
    }
    let over = |d: &Drawn| {
        d.line.windows(2).any(|s| {
            cells(s[0], s[1]).any(|c| {
                grid.get(&c).is_some_and(|boxes| {
                    boxes.iter().any(|&b| {
                        b != d.from && b != d.to && segment_enters(s[0], s[1], &inset(l.rect(b)))
                    })
                })
            })
        })
    };
    drawn.iter().filter(|d| over(d)).count()
}

fn inset(r: Rect) -> Rect {
    Rect {
        x: r.x + 1.0,
        y: r.y + 1.0,
        w: r.w - 2.0,
        h: r.h - 2.0,
    }
}
