//! Pointer gestures on the canvas: one pointer (mouse or finger) pans, two fingers pinch to
//! zoom about their midpoint and pan with it (#27: the graph is used on phones).

use super::{Drawing, Viewport};
use leptos::prelude::*;

/// A pointer held down on the canvas: its id and where it last was, in canvas pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Held {
    id: i32,
    at: (f32, f32),
}

/// Pixels a pointer travels, held down, before its gesture is a drag: a click with a little
/// jitter still selects, a pan never does.
const DRAG_PX: f32 = 4.0;

/// The pointers held down on the canvas.
#[derive(Clone, Copy)]
pub struct Gestures {
    held: StoredValue<Vec<Held>>,
    /// Whether the viewport moved since the last pointer went down.
    moved: StoredValue<bool>,
    /// How far the pointers travelled since the first went down (canvas pixels).
    travel: StoredValue<f32>,
    /// Whether the last gesture was a drag (a pan or pinch, not a click).
    dragged: StoredValue<bool>,
}

impl Gestures {
    pub fn new() -> Gestures {
        Gestures {
            held: StoredValue::new(Vec::new()),
            moved: StoredValue::new(false),
            travel: StoredValue::new(0.0),
            dragged: StoredValue::new(false),
        }
    }

    /// A pointer went down at `at` (canvas pixels).
    pub fn down(self, id: i32, at: (f32, f32)) {
        if self.held.with_value(Vec::is_empty) {
            self.travel.set_value(0.0);
            self.dragged.set_value(false);
        }
        self.held.update_value(|h| {
            h.retain(|p| p.id != id);
            h.push(Held { id, at });
        });
        self.moved.set_value(false);
    }

    /// Whether the gesture that just ended was a drag: the click the browser fires after a pan
    /// that started and ended on the same node (the node moves with the pointer) must not
    /// select it (#48: panning across a large graph selected the node under the pointer).
    pub fn was_drag(self) -> bool {
        self.dragged.get_value()
    }

    /// A pointer moved to `at`: one held pans by its move; two pinch.
    pub fn moved_to(self, id: i32, at: (f32, f32), viewport: Viewport, drawing: Memo<Drawing>) {
        let before = self.held.get_value();
        let Some(k) = before.iter().position(|p| p.id == id) else {
            return;
        };
        let mut after = before.clone();
        after[k].at = at;
        let (dx, dy) = (at.0 - before[k].at.0, at.1 - before[k].at.1);
        self.travel.update_value(|t| *t += dx.abs() + dy.abs());
        if self.travel.get_value() > DRAG_PX {
            self.dragged.set_value(true);
        }
        match (before.as_slice(), after.as_slice()) {
            ([a], [b]) => viewport.at.update(|v| {
                v.1 += b.at.0 - a.at.0;
                v.2 += b.at.1 - a.at.1;
            }),
            ([a0, a1, ..], [b0, b1, ..]) => {
                viewport.pinch(drawing, [a0.at, a1.at], [b0.at, b1.at]);
            }
            _ => {}
        }
        self.held.set_value(after);
        self.moved.set_value(true);
    }

    /// A pointer went up or away; whether a pan or pinch just ended (the viewport to report).
    pub fn up(self, id: i32) -> bool {
        let mut ended = false;
        self.held.update_value(|h| {
            h.retain(|p| p.id != id);
            ended = h.is_empty() && self.moved.get_value();
        });
        if ended {
            self.moved.set_value(false);
        }
        ended
    }
}

/// Where a pointer event is, in the canvas's own pixels.
pub fn local(ev: &web_sys::PointerEvent, host: &web_sys::Element) -> (f32, f32) {
    let r = host.get_bounding_client_rect();
    (
        ev.client_x() as f32 - r.left() as f32,
        ev.client_y() as f32 - r.top() as f32,
    )
}
