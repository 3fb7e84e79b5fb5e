//! Where the canvas looks: zoom and pan, fitting, revealing a node, and the gestures and keys
//! that move it.

use super::{CULL_ABOVE, Drawing};
use fluxlens_core::graph::{Layout, NODE_H, NODE_W};
use leptos::prelude::*;

/// The smallest zoom allowed for a graph of `n` nodes. Large graphs stop at a zoom where the
/// viewport holds a few hundred nodes, which keeps the DOM bounded by the viewport.
pub fn min_zoom(n: usize) -> f32 {
    if n > CULL_ABOVE { 0.3 } else { 0.03 }
}

/// Zoom/pan that fits `l` (of `n` nodes) in a `w`×`h` viewport, as far as `min_zoom` allows.
pub fn fit(l: &Layout, n: usize, w: f32, h: f32) -> (f32, f32, f32) {
    if l.width <= 0.0 || l.height <= 0.0 {
        return (1.0, 20.0, 20.0);
    }
    let z = ((w - 40.0) / l.width)
        .min((h - 40.0) / l.height)
        .clamp(min_zoom(n), 1.0);
    (z, ((w - l.width * z) / 2.0).max(20.0), 20.0)
}

/// The smallest zoom at which node names (13 px) stay at least 11 px on screen: the default
/// view never starts below it (issue #16); the user may still zoom out or press Fit.
pub const LEGIBLE_ZOOM: f32 = 0.85;

/// The first view: fitted when the whole graph is legible that way, else at the legible zoom
/// from the top left, where the sources are.
pub fn initial_view(l: &Layout, n: usize, w: f32, h: f32) -> (f32, f32, f32) {
    let (z, x, y) = fit(l, n, w, h);
    if z >= LEGIBLE_ZOOM {
        (z, x, y)
    } else {
        (LEGIBLE_ZOOM, 20.0, 20.0)
    }
}

/// The pan that brings a node at layout position `at` fully into a `w`×`h` viewport, or
/// `None` when it is already there (keyboard focus must never land off screen).
pub fn reveal(vp: (f32, f32, f32), at: (f32, f32), w: f32, h: f32) -> Option<(f32, f32, f32)> {
    let (z, tx, ty) = vp;
    let (left, top) = (at.0 * z + tx, at.1 * z + ty);
    let (right, bottom) = (left + NODE_W * z, top + NODE_H * z);
    if left >= 0.0 && top >= 0.0 && right <= w && bottom <= h {
        return None;
    }
    // Centre it across, so the chain it is read with comes into view; down no further than
    // 200 px, as a tall canvas may be cropped by its page or the plugin's frame.
    Some((
        z,
        w / 2.0 - (at.0 + NODE_W / 2.0) * z,
        (h / 2.0).min(200.0) - (at.1 + NODE_H / 2.0) * z,
    ))
}

/// The canvas's zoom and pan `(zoom, x, y)` and its size on screen.
#[derive(Clone, Copy)]
pub struct Viewport {
    pub at: RwSignal<(f32, f32, f32)>,
    pub size: RwSignal<(f32, f32)>,
}

impl Viewport {
    /// Zooms by `factor` about the screen point (`px`, `py`), within the graph's limits.
    pub fn zoom_at(self, drawing: Memo<Drawing>, factor: f32, px: f32, py: f32) {
        let lo = min_zoom(drawing.get_untracked().view.nodes.len());
        self.at.update(|(z, tx, ty)| {
            let nz = (*z * factor).clamp(lo, 4.0);
            *tx = px - (px - *tx) * (nz / *z);
            *ty = py - (py - *ty) * (nz / *z);
            *z = nz;
        });
    }

    /// Two fingers moved from `old` to `new` (canvas pixels): the picture follows their
    /// midpoint and zooms by how much their distance changed, about that midpoint.
    pub fn pinch(self, drawing: Memo<Drawing>, old: [(f32, f32); 2], new: [(f32, f32); 2]) {
        let mid = |p: [(f32, f32); 2]| ((p[0].0 + p[1].0) / 2.0, (p[0].1 + p[1].1) / 2.0);
        let dist = |p: [(f32, f32); 2]| (p[0].0 - p[1].0).hypot(p[0].1 - p[1].1);
        let (from, to) = (mid(old), mid(new));
        self.at.update(|v| {
            v.1 += to.0 - from.0;
            v.2 += to.1 - from.1;
        });
        // Fingers closer than a few pixels give no usable ratio.
        if dist(old) > 4.0 {
            self.zoom_at(drawing, dist(new) / dist(old), to.0, to.1);
        }
    }

    /// Zooms about the centre of the canvas.
    pub fn zoom(self, drawing: Memo<Drawing>, factor: f32) {
        let (w, h) = self.size.get_untracked();
        self.zoom_at(drawing, factor, w / 2.0, h / 2.0);
    }

    /// Fits the whole drawing.
    pub fn fit_all(self, drawing: Memo<Drawing>) {
        let (w, h) = self.size.get_untracked();
        let d = drawing.get_untracked();
        self.at.set(fit(&d.layout, d.view.nodes.len(), w, h));
    }

    /// Arrow keys pan, plus and minus zoom, 0 fits; whether the key was one of them.
    pub fn on_key(self, drawing: Memo<Drawing>, key: &str) -> bool {
        match key {
            "ArrowLeft" => self.at.update(|v| v.1 += 60.0),
            "ArrowRight" => self.at.update(|v| v.1 -= 60.0),
            "ArrowUp" => self.at.update(|v| v.2 += 60.0),
            "ArrowDown" => self.at.update(|v| v.2 -= 60.0),
            "+" | "=" => self.zoom(drawing, 1.25),
            "-" | "_" => self.zoom(drawing, 0.8),
            "0" => self.fit_all(drawing),
            _ => return false,
        }
        true
    }
}

/// The zoom buttons; `emit` reports the new viewport.
#[component]
pub fn ZoomTools(viewport: Viewport, drawing: Memo<Drawing>, emit: Callback<()>) -> impl IntoView {
    view! {
        <div class="fl-canvas__tools">
            <button
                class="fl-btn fl-btn--icon"
                type="button"
                aria-label="Zoom in"
                title="Zoom in"
                on:click=move |_| {
                    viewport.zoom(drawing, 1.25);
                    emit.run(());
                }
            >
                "+"
            </button>
            <button
                class="fl-btn fl-btn--icon"
                type="button"
                aria-label="Zoom out"
                title="Zoom out"
                on:click=move |_| {
                    viewport.zoom(drawing, 0.8);
                    emit.run(());
                }
            >
                "−"
            </button>
            <button
                class="fl-btn"
                type="button"
                on:click=move |_| {
                    viewport.fit_all(drawing);
                    emit.run(());
                }
            >
                "Fit"
            </button>
        </div>
    }
}
