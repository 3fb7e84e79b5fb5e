//! Where the canvas looks: zoom and pan, fitting, revealing a node, and the gestures and keys
//! that move it.

use super::{CULL_ABOVE, Drawing};
use fluxlens_core::analyses::graph::{Layout, NODE_H, NODE_W};
use leptos::prelude::*;

/// The smallest zoom allowed for a graph of `n` nodes. Large graphs stop at a zoom where the
/// viewport holds a few hundred nodes, which keeps the DOM bounded by the viewport.
pub fn min_zoom(n: usize) -> f32 {
    if n > CULL_ABOVE { 0.3 } else { 0.03 }
}

/// The band along the canvas's top that its zoom buttons take: a fitted or first view starts
/// below it, so no box opens under the buttons (#46).
pub const TOOLS_BAND: f32 = 48.0;

/// Zoom/pan that fits `l` (of `n` nodes) in a `w`×`h` viewport, as far as `min_zoom` allows.
pub fn fit(l: &Layout, n: usize, w: f32, h: f32) -> (f32, f32, f32) {
    if l.width <= 0.0 || l.height <= 0.0 {
        return (1.0, 20.0, TOOLS_BAND);
    }
    let z = ((w - 40.0) / l.width)
        .min((h - TOOLS_BAND - 20.0) / l.height)
        .clamp(min_zoom(n), 1.0);
    (z, ((w - l.width * z) / 2.0).max(20.0), TOOLS_BAND)
}

/// The smallest zoom at which node names (13 px) stay at least 11 px on screen: the default
/// view never starts below it (issue #16); the user may still zoom out or press Fit.
pub const LEGIBLE_ZOOM: f32 = 0.85;

/// The first view: fitted when the whole graph is legible that way, else at the legible zoom
/// from the top left, where the sources are.
pub fn initial_view(l: &Layout, n: usize, w: f32, h: f32) -> (f32, f32, f32) {
    let (z, x, y) = fit(l, n, w, h);
    if z >= LEGIBLE_ZOOM {
        return (z, x, y);
    }
    // A phone: whole columns across its width when they stay readable up close (a pinch
    // away), rather than boxes cut at the edge (#46).
    let across = (w - 40.0) / l.width.max(1.0);
    if w < NARROW && across >= PHONE_ZOOM {
        return (across.min(LEGIBLE_ZOOM), 20.0, TOOLS_BAND);
    }
    (LEGIBLE_ZOOM, 20.0, TOOLS_BAND)
}

/// A canvas narrower than this is a phone's.
const NARROW: f32 = 600.0;
/// The smallest first zoom on a phone: names at about 7 px, read by pinching in.
const PHONE_ZOOM: f32 = 0.55;

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

/// What a re-fit brings on screen: an object (the focus, the worst object of a namespace just
/// laid out), and where to show the picture from when both fit (the namespace's first box, its
/// sources, #46: it opened panned away from them).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aim {
    pub node: u32,
    pub from: Option<u32>,
}

/// The view at zoom `vp.0` that shows the picture from layout position `from` (at the top left,
/// below the tools) when `must` is then on screen too, else the one that reveals `must`;
/// `None` when `vp` shows both already.
pub fn show_from(
    vp: (f32, f32, f32),
    from: (f32, f32),
    must: (f32, f32),
    w: f32,
    h: f32,
) -> Option<(f32, f32, f32)> {
    if reveal(vp, from, w, h).is_none() && reveal(vp, must, w, h).is_none() {
        return None;
    }
    let z = vp.0;
    let there = (z, 20.0 - from.0 * z, TOOLS_BAND - from.1 * z);
    match reveal(there, must, w, h) {
        None => Some(there),
        Some(_) => reveal(vp, must, w, h),
    }
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
