//! The graph drawing: SVG with pan (drag, arrow keys), zoom (wheel, pinch, +/-), fit (0), and only
//! the nodes inside the viewport in the DOM once the graph is large.

mod edges;
mod gesture;
mod node;
mod viewport;

pub use viewport::{Aim, LEGIBLE_ZOOM, Viewport, fit, initial_view, min_zoom, reveal, show_from};

use crate::state::Shared;
use edges::EdgeLayer;
use fluxlens_core::analyses::graph::{Layout, Rect, ViewGraph};
use leptos::prelude::*;
use node::GraphNode;
use std::collections::HashSet;
use viewport::ZoomTools;

/// Below this many nodes everything is rendered; above, only what is in view.
pub const CULL_ABOVE: usize = 300;
const MARGIN: f32 = 200.0;

/// What the canvas draws: the view graph and where each of its nodes goes.
#[derive(Debug, Default)]
pub struct Scene {
    pub view: ViewGraph,
    pub layout: Layout,
}

/// The scene, shared (compared by identity in memos).
pub type Drawing = Shared<Scene>;

/// The canvas.
#[component]
pub fn GraphCanvas(
    /// What to draw.
    drawing: Memo<Drawing>,
    /// Selected node index in the view graph.
    #[prop(into)]
    selected: Signal<Option<u32>>,
    /// Nodes to keep bright (the selection's chains); `None` = all.
    #[prop(into)]
    highlight: Signal<Option<HashSet<u32>>>,
    /// Called with a node index when a node is activated.
    on_select: Callback<u32>,
    /// Initial zoom and pan; `None` fits.
    initial: Option<(f32, f32, f32)>,
    /// Called with (zoom, x, y) when the user finishes a pan or zoom, or the canvas re-fits.
    on_viewport: Callback<(f32, f32, f32)>,
    /// What the picture is of; a change fits the new picture (a poll keeps the viewport).
    #[prop(into)]
    scope: Signal<u64>,
    /// What a re-fit brings on screen (the focus, the worst object just laid out).
    #[prop(into)]
    target: Signal<Option<Aim>>,
    /// Drawn over the canvas (the page's counts and legend).
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    let host = NodeRef::<leptos::html::Div>::new();
    let lo = min_zoom(drawing.get_untracked().view.nodes.len());
    let viewport = Viewport {
        at: RwSignal::new(
            initial
                .map(|(z, x, y)| (z.max(lo), x, y))
                .unwrap_or((1.0, 20.0, 20.0)),
        ),
        size: RwSignal::new((1200.0, 700.0)),
    };
    fit_on_scope_change(
        host,
        drawing,
        viewport,
        initial,
        scope,
        selected,
        target,
        on_viewport,
    );
    let visible = visible_nodes(drawing, viewport);
    let node_keys = node_keys(drawing, visible);
    let gestures = gesture::Gestures::new();
    // A click that ends a pan is not a selection (a key that selects always is).
    let on_click = Callback::new(move |i: u32| {
        if !gestures.was_drag() {
            on_select.run(i);
        }
    });
    let emit = Callback::new(move |()| on_viewport.run(viewport.at.get_untracked()));
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if viewport.on_key(drawing, &ev.key()) {
            ev.prevent_default();
            emit.run(());
        }
    };
    let on_wheel = move |ev: web_sys::WheelEvent| {
        ev.prevent_default();
        let factor = (-(ev.delta_y() as f32) * 0.0015).exp();
        viewport.zoom_at(drawing, factor, ev.offset_x() as f32, ev.offset_y() as f32);
        emit.run(());
    };
    let at = move |ev: &web_sys::PointerEvent| host.get_untracked().map(|h| gesture::local(ev, &h));
    let on_pointer_down = move |ev: web_sys::PointerEvent| {
        if let Some(p) = at(&ev) {
            gestures.down(ev.pointer_id(), p);
        }
    };
    let on_pointer_move = move |ev: web_sys::PointerEvent| {
        if let Some(p) = at(&ev) {
            gestures.moved_to(ev.pointer_id(), p, viewport, drawing);
        }
    };
    let on_pointer_up = move |ev: web_sys::PointerEvent| {
        if gestures.up(ev.pointer_id()) {
            emit.run(());
        }
    };
    view! {
        <div
            class="fl-canvas"
            node_ref=host
            tabindex="0"
            role="application"
            aria-label="Source graph. Arrow keys pan, plus and minus zoom, 0 fits; Tab moves between nodes, Enter selects."
            on:keydown=on_key
        >
            <ZoomTools viewport=viewport drawing=drawing emit=emit />
            {children.map(|c| c())}
            <svg
                class="fl-svg"
                width="100%"
                height="100%"
                on:wheel=on_wheel
                on:pointerdown=on_pointer_down
                on:pointermove=on_pointer_move
                on:pointerup=on_pointer_up
                on:pointercancel=on_pointer_up
                on:pointerleave=on_pointer_up
            >
                {arrow_marker()}
                <g transform=move || {
                    let (z, x, y) = viewport.at.get();
                    format!("translate({x},{y}) scale({z})")
                }>
                    <EdgeLayer drawing=drawing visible=visible highlight=highlight />
                    <g class="fl-nodes">
                        <For each=move || node_keys.get() key=|k| *k let:k>
                            <GraphNode
                                i=k.0
                                drawing=drawing
                                selected=selected
                                highlight=highlight
                                on_select=on_select
                                on_click=on_click
                                viewport=viewport
                                on_viewport=on_viewport
                            />
                        </For>
                    </g>
                </g>
            </svg>
        </div>
    }
}

/// Each visible node's key: its index (selection and highlight speak in indices) and what it
/// shows, so a pan keeps every node still in view and a poll rebuilds only a changed one (#23).
fn node_keys(drawing: Memo<Drawing>, visible: Memo<Vec<u32>>) -> Memo<Vec<(u32, u64)>> {
    Memo::new(move |_| {
        let d = drawing.get();
        let (v, l) = (&d.view, &d.layout);
        visible
            .get()
            .into_iter()
            .map(|i| {
                let (x, y) = l.pos[i as usize];
                let shown = (&v.nodes[i as usize], x.to_bits(), y.to_bits());
                (i, super::keyed::content_hash(&shown))
            })
            .collect()
    })
}

/// The arrowhead every edge ends with.
fn arrow_marker() -> impl IntoView {
    view! {
        <defs>
            <marker
                id="fl-arrow"
                viewBox="0 0 10 10"
                refX="10"
                refY="5"
                markerWidth="7"
                markerHeight="7"
                orient="auto-start-reverse"
            >
                <path d="M 0 0 L 10 5 L 0 10 z" class="fl-arrow" />
            </marker>
        </defs>
    }
}

/// Fits the picture when its scope changes (and on the first drawing without a viewport from
/// the URL), bringing the selection or the re-fit's target on screen; a poll keeps the viewport.
#[allow(clippy::too_many_arguments)]
fn fit_on_scope_change(
    host: NodeRef<leptos::html::Div>,
    drawing: Memo<Drawing>,
    viewport: Viewport,
    initial: Option<(f32, f32, f32)>,
    scope: Signal<u64>,
    selected: Signal<Option<u32>>,
    target: Signal<Option<Aim>>,
    on_viewport: Callback<(f32, f32, f32)>,
) {
    // The scope last fitted; a viewport from the URL counts as fitted for the first one.
    let fitted = StoredValue::new(initial.map(|_| scope.get_untracked()));
    Effect::new(move |_| {
        let Some(el) = host.get() else { return };
        let (w, h) = (
            el.client_width().max(300) as f32,
            el.client_height().max(300) as f32,
        );
        viewport.size.set((w, h));
        let d = drawing.get();
        let now = scope.get();
        let before = fitted.get_value();
        if before == Some(now) {
            return;
        }
        let first = initial_view(&d.layout, d.view.nodes.len(), w, h);
        // A selection (a focus opens on its object) starts on screen; after a change of
        // scope, so does what the user went in for.
        let target = target.get_untracked();
        let selection = selected
            .get_untracked()
            .map(|node| Aim { node, from: None });
        let aim = match before {
            // Opened with a selection (a shared link): it is on screen, the picture read from
            // where the target would start it (a focus's first box) when both fit.
            None => selection
                .map(|s| Aim {
                    from: target.and_then(|t| t.from),
                    ..s
                })
                .or(target),
            Some(_) => target.or(selection),
        };
        let at = |i: u32| d.layout.pos.get(i as usize).copied();
        let next = aim
            .and_then(|a| {
                let must = at(a.node)?;
                match a.from.and_then(at) {
                    Some(from) => show_from(first, from, must, w, h),
                    None => reveal(first, must, w, h),
                }
            })
            .unwrap_or(first);
        viewport.at.set(next);
        if before.is_some() {
            on_viewport.run(next);
        }
        fitted.set_value(Some(now));
    });
}

/// The nodes to put in the DOM: all of a small graph, else those in or near the viewport.
fn visible_nodes(drawing: Memo<Drawing>, viewport: Viewport) -> Memo<Vec<u32>> {
    Memo::new(move |_| {
        let d = drawing.get();
        let (v, l) = (&d.view, &d.layout);
        if v.nodes.len() <= CULL_ABOVE {
            return (0..v.nodes.len() as u32).collect::<Vec<_>>();
        }
        let (z, tx, ty) = viewport.at.get();
        let (w, h) = viewport.size.get();
        l.visible(Rect {
            x: -tx / z - MARGIN,
            y: -ty / z - MARGIN,
            w: w / z + 2.0 * MARGIN,
            h: h / z + 2.0 * MARGIN,
        })
    })
}
