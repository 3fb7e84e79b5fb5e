//! The geometry of a drawn edge: cubic Bézier curves end to end, as the SVG draws them and as
//! the layout's quality measure reads them (sampled into a polyline).

/// A point in layout units (SVG px).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: f32,
    pub y: f32,
}

impl Point {
    pub const fn new(x: f32, y: f32) -> Self {
        Self { x, y }
    }
}

/// A cubic Bézier curve: `start`, two control points, `end`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Curve {
    pub start: Point,
    pub c1: Point,
    pub c2: Point,
    pub end: Point,
}

/// Points sampled along a curve for measuring it (16 segments: within a pixel or two of the
/// drawn curve at the graph's sizes).
const SAMPLES: usize = 16;

impl Curve {
    /// The point at `t` in 0..=1.
    pub fn at(&self, t: f32) -> Point {
        let u = 1.0 - t;
        let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
        Point::new(
            a * self.start.x + b * self.c1.x + c * self.c2.x + d * self.end.x,
            a * self.start.y + b * self.c1.y + c * self.c2.y + d * self.end.y,
        )
    }

    /// The curve as a polyline of `SAMPLES` segments (one, when it is straight).
    pub fn polyline(&self) -> Vec<Point> {
        if self.straight() {
            return vec![self.start, self.end];
        }
        (0..=SAMPLES)
            .map(|k| self.at(k as f32 / SAMPLES as f32))
            .collect()
    }

    /// Whether both control points lie on the line from start to end.
    fn straight(&self) -> bool {
        let (a, b) = (self.start, self.end);
        let off = |p: Point| ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)).abs();
        let len = (b.x - a.x).hypot(b.y - a.y);
        len > 0.0 && off(self.c1) / len < 0.01 && off(self.c2) / len < 0.01
    }

    /// A straight segment, as a curve.
    pub fn line(a: Point, b: Point) -> Self {
        let third = |k: f32| Point::new(a.x + (b.x - a.x) * k, a.y + (b.y - a.y) * k);
        Curve {
            start: a,
            c1: third(1.0 / 3.0),
            c2: third(2.0 / 3.0),
            end: b,
        }
    }

    /// An S-curve from `a` to `b` that leaves and arrives horizontally.
    pub fn s(a: Point, b: Point) -> Self {
        let mid = (a.x + b.x) / 2.0;
        Curve {
            start: a,
            c1: Point::new(mid, a.y),
            c2: Point::new(mid, b.y),
            end: b,
        }
    }
}

/// An edge as drawn: curves end to end, each starting where the last ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    pub parts: Vec<Curve>,
}

impl Route {
    /// Where a label of the edge sits clear of the boxes: halfway along the middle one of its
    /// curves between columns (its straight parts run between two boxes of a column, where a
    /// label would cover one, #46).
    pub fn label_point(&self) -> Option<Point> {
        let between: Vec<&Curve> = self.parts.iter().step_by(2).collect();
        between.get(between.len() / 2).map(|c| c.at(0.5))
    }

    /// The route as a polyline.
    pub fn polyline(&self) -> Vec<Point> {
        let mut out: Vec<Point> = Vec::new();
        for c in &self.parts {
            let line = c.polyline();
            let skip = usize::from(!out.is_empty());
            out.extend_from_slice(&line[skip..]);
        }
        out
    }

    /// A point halfway along the route (where an aggregated edge's count is written).
    pub fn middle(&self) -> Option<Point> {
        self.parts.get(self.parts.len() / 2).map(|c| c.at(0.5))
    }

    /// A box that holds the whole route.
    pub fn bounds(&self) -> super::Rect {
        let pts = self.parts.iter().flat_map(|c| [c.start, c.c1, c.c2, c.end]);
        let (x0, x1) = min_max(pts.clone().map(|p| p.x));
        let (y0, y1) = min_max(pts.map(|p| p.y));
        super::Rect {
            x: x0,
            y: y0,
            w: x1 - x0,
            h: y1 - y0,
        }
    }

    /// The SVG path data: one move, then a `C` per curve.
    pub fn svg(&self) -> String {
        let Some(first) = self.parts.first() else {
            return String::new();
        };
        let mut d = format!("M{:.0},{:.0}", first.start.x, first.start.y);
        for Curve { c1, c2, end, .. } in &self.parts {
            d.push_str(&format!(
                " C{:.0},{:.0} {:.0},{:.0} {:.0},{:.0}",
                c1.x, c1.y, c2.x, c2.y, end.x, end.y
            ));
        }
        d
    }
}

fn min_max(xs: impl Iterator<Item = f32>) -> (f32, f32) {
    xs.fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    })
}

/// Whether segments `a0-a1` and `b0-b1` cross or touch.
pub fn segments_meet(a0: Point, a1: Point, b0: Point, b1: Point) -> bool {
    let side = |p: Point, q: Point, r: Point| (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
    let (d1, d2) = (side(b0, b1, a0), side(b0, b1, a1));
    let (d3, d4) = (side(a0, a1, b0), side(a0, a1, b1));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    // Collinear or touching: an end lies on the other segment.
    let on = |p: Point, q: Point, r: Point, d: f32| {
        d.abs() < 1e-3
            && r.x >= p.x.min(q.x)
            && r.x <= p.x.max(q.x)
            && r.y >= p.y.min(q.y)
            && r.y <= p.y.max(q.y)
    };
    on(b0, b1, a0, d1) || on(b0, b1, a1, d2) || on(a0, a1, b0, d3) || on(a0, a1, b1, d4)
}

/// Whether segment `a-b` passes through the inside of `r` (Liang–Barsky clipping).
pub fn segment_enters(a: Point, b: Point, r: &super::Rect) -> bool {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (p, q) in [
        (-dx, a.x - r.x),
        (dx, r.x + r.w - a.x),
        (-dy, a.y - r.y),
        (dy, r.y + r.h - a.y),
    ] {
        if p == 0.0 {
            if q <= 0.0 {
                return false;
            }
            continue;
        }
        let t = q / p;
        if p < 0.0 {
            t0 = t0.max(t);
        } else {
            t1 = t1.min(t);
        }
        if t0 >= t1 {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::graph::Rect;

    const fn p(x: f32, y: f32) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn a_curve_runs_from_start_to_end_inside_its_bounds() {
        let c = Curve {
            start: p(0.0, 0.0),
            c1: p(50.0, 0.0),
            c2: p(50.0, 100.0),
            end: p(100.0, 100.0),
        };
        let line = c.polyline();
        assert_eq!(line[0], c.start);
        assert_eq!(*line.last().unwrap(), c.end);
        let r = Route { parts: vec![c] };
        let b = r.bounds();
        assert!(
            line.iter()
                .all(|q| q.x >= b.x && q.x <= b.x + b.w && q.y >= b.y && q.y <= b.y + b.h)
        );
        assert_eq!(r.svg(), "M0,0 C50,0 50,100 100,100");
        let two = Route {
            parts: vec![c, Curve::line(c.end, p(200.0, 100.0))],
        };
        assert_eq!(
            two.polyline().len(),
            SAMPLES + 2,
            "shared ends once; a line is one segment"
        );
        assert_eq!(two.middle(), Some(p(150.0, 100.0)));
        assert_eq!(Route { parts: vec![] }.middle(), None);
        assert_eq!(
            two.svg(),
            "M0,0 C50,0 50,100 100,100 C133,100 167,100 200,100"
        );
    }

    #[test]
    fn segments_meet_when_they_cross_or_touch_and_not_when_apart() {
        assert!(segments_meet(
            p(0.0, 0.0),
            p(10.0, 10.0),
            p(0.0, 10.0),
            p(10.0, 0.0)
        ));
        assert!(!segments_meet(
            p(0.0, 0.0),
            p(10.0, 0.0),
            p(0.0, 5.0),
            p(10.0, 5.0)
        ));
        assert!(segments_meet(
            p(0.0, 0.0),
            p(10.0, 10.0),
            p(10.0, 10.0),
            p(20.0, 0.0)
        ));
        assert!(!segments_meet(
            p(0.0, 0.0),
            p(1.0, 1.0),
            p(5.0, 5.0),
            p(6.0, 0.0)
        ));
    }

    #[test]
    fn a_segment_enters_a_box_only_through_its_inside() {
        let r = Rect {
            x: 10.0,
            y: 10.0,
            w: 20.0,
            h: 10.0,
        };
        assert!(segment_enters(p(0.0, 15.0), p(40.0, 15.0), &r), "through");
        assert!(segment_enters(p(15.0, 12.0), p(16.0, 13.0), &r), "inside");
        assert!(!segment_enters(p(0.0, 0.0), p(40.0, 0.0), &r), "above");
        assert!(
            !segment_enters(p(0.0, 10.0), p(40.0, 10.0), &r),
            "along the top edge"
        );
        assert!(
            !segment_enters(p(30.0, 0.0), p(30.0, 40.0), &r),
            "along the right edge"
        );
        assert!(!segment_enters(p(0.0, 0.0), p(9.0, 40.0), &r), "beside");
    }
}
