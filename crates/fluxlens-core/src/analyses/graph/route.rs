//! How an edge is drawn between two laid-out boxes: never over a box it does not connect.

use super::curve::{Curve, Point, Route};
use super::layout::{Column, Layout, NODE_H, NODE_W};

/// Room kept between a line passing a column and the boxes beside it (px).
const CLEAR: f32 = 4.0;
/// How far a same-column edge bows out at most. Its reach is ¾ of that, 27 px: inside even a
/// wrapped layer's 30 px gap between sub-columns.
const BOW_MAX: f32 = 36.0;

impl Layout {
    /// The route an edge is drawn along.
    pub fn edge_route(&self, from: u32, to: u32) -> Route {
        let (a, b) = (self.rect(from), self.rect(to));
        let start = Point::new(a.x + a.w, a.y + a.h / 2.0);
        if (a.x - b.x).abs() < 1.0 {
            return Route {
                parts: vec![same_column(start, b.y + b.h / 2.0)],
            };
        }
        let end = Point::new(b.x, b.y + b.h / 2.0);
        if end.x > start.x {
            return Route {
                parts: self.forward(start, end),
            };
        }
        // Back edge (cycle): loop around below.
        let dip = start.y.max(end.y) + NODE_H;
        Route {
            parts: vec![Curve {
                start,
                c1: Point::new(start.x + 60.0, dip),
                c2: Point::new(end.x - 60.0, dip),
                end,
            }],
        }
    }

    /// SVG path of an edge (`edge_route`).
    pub fn edge_path(&self, from: u32, to: u32) -> String {
        self.edge_route(from, to).svg()
    }

    /// Left to right: through a free gap of every column between the two boxes (the way a
    /// layered drawing threads a long edge), S-curves between columns.
    fn forward(&self, start: Point, end: Point) -> Vec<Curve> {
        let between = self
            .columns
            .iter()
            .filter(|c| c.x >= start.x && c.x + NODE_W <= end.x);
        let mut parts = Vec::new();
        let mut at = start;
        for c in between {
            // Where the straight line would cross this column, moved into its nearest gap.
            let mid = c.x + NODE_W / 2.0;
            let want = start.y + (end.y - start.y) * (mid - start.x) / (end.x - start.x);
            let y = free_y(c, want);
            let (enter, leave) = (Point::new(c.x, y), Point::new(c.x + NODE_W, y));
            parts.push(Curve::s(at, enter));
            parts.push(Curve::line(enter, leave));
            at = leave;
        }
        parts.push(Curve::s(at, end));
        parts
    }
}

/// Two boxes down one column (a dependsOn chain down the overview): out of one box's right side
/// and into the other's, bowed into the gap beside the column, never over the boxes between;
/// longer spans bow further, so nested spans stay apart.
fn same_column(start: Point, end_y: f32) -> Curve {
    let bow = (12.0 + (end_y - start.y).abs() / 8.0).min(BOW_MAX);
    Curve {
        start,
        c1: Point::new(start.x + bow, start.y),
        c2: Point::new(start.x + bow, end_y),
        end: Point::new(start.x, end_y),
    }
}

/// The y nearest to `want` where a line passes column `c` clear of its boxes: above its first
/// box, in a gap between two, or below its last.
fn free_y(c: &Column, want: f32) -> f32 {
    let tops = &c.tops;
    let (Some(first), Some(last)) = (tops.first(), tops.last()) else {
        return want;
    };
    // Gap k runs from the bottom of box k-1 to the top of box k; gap 0 is above the column and
    // gap len below it. The nearest free y lies in a gap next to the box `want` falls on.
    let gap = |k: usize| -> (f32, f32) {
        let lo = if k == 0 {
            f32::NEG_INFINITY
        } else {
            tops[k - 1] + NODE_H + CLEAR
        };
        let hi = tops.get(k).map_or(f32::INFINITY, |t| t - CLEAR);
        (lo, hi)
    };
    let k = tops.partition_point(|&t| t < want);
    let mut best = (f32::INFINITY, first - CLEAR);
    for g in k.saturating_sub(2)..=(k + 1).min(tops.len()) {
        let (lo, hi) = gap(g);
        if lo <= hi {
            let y = want.clamp(lo, hi);
            if (y - want).abs() < best.0 {
                best = ((y - want).abs(), y);
            }
        }
    }
    if best.0.is_finite() {
        best.1
    } else {
        // Boxes packed tighter than a line's clearance: pass above or below the column.
        let below = last + NODE_H + CLEAR;
        let above = first - CLEAR;
        if want - above < below - want {
            above
        } else {
            below
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(tops: &[f32]) -> Column {
        Column {
            x: 0.0,
            tops: tops.to_vec(),
        }
    }

    #[test]
    fn a_line_passes_a_column_in_its_nearest_gap() {
        let c = column(&[0.0, 58.0, 116.0]);
        assert_eq!(
            free_y(&c, 25.0),
            44.0 + CLEAR,
            "low on the first box: the gap below it"
        );
        assert_eq!(free_y(&c, 50.0), 50.0, "already in the gap");
        assert_eq!(free_y(&c, -30.0), -30.0, "above the column");
        assert_eq!(free_y(&c, 150.0), 160.0 + CLEAR, "below the last box");
        assert_eq!(free_y(&column(&[]), 7.0), 7.0);
        // Boxes touching: no gap between them, so over the top or under the bottom.
        let packed = column(&[0.0, 44.0, 88.0]);
        assert_eq!(free_y(&packed, 60.0), -CLEAR);
        assert_eq!(free_y(&packed, 100.0), 132.0 + CLEAR);
    }
}
