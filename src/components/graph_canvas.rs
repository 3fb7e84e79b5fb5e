//! The graph drawing: SVG with pan (drag, arrow keys), zoom (wheel, +/-), fit (0), and only
//! the nodes inside the viewport in the DOM once the graph is large.

use crate::state::Shared;
use fluxlens_core::graph::{Layout, NODE_H, NODE_W, NodeKind, Rect, ViewGraph};
use leptos::prelude::*;
use std::collections::HashSet;

/// Below this many nodes everything is rendered; above, only what is in view.
pub const CULL_ABOVE: usize = 300;
const MARGIN: f32 = 200.0;

/// One edge as drawn.
#[derive(Debug, Clone, PartialEq)]
struct EdgeItem {
    class: String,
    d: String,
    /// Where the count of an aggregated edge goes, and the count.
    label: Option<(String, String, u32)>,
}

/// What the canvas draws: the view graph and where each of its nodes goes.
#[derive(Debug, Default)]
pub struct Scene {
    pub view: ViewGraph,
    pub layout: Layout,
}

/// The scene, shared (compared by identity in memos).
pub type Drawing = Shared<Scene>;

fn short(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(max - 1).collect::<String>())
    }
}

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
    /// The node a re-fit brings on screen (the focus, the worst object just laid out).
    #[prop(into)]
    target: Signal<Option<u32>>,
) -> impl IntoView {
    let host = NodeRef::<leptos::html::Div>::new();
    let size = RwSignal::new((1200.0f32, 700.0f32));
    let lo = min_zoom(drawing.get_untracked().view.nodes.len());
    let vp = RwSignal::new(
        initial
            .map(|(z, x, y)| (z.max(lo), x, y))
            .unwrap_or((1.0, 20.0, 20.0)),
    );
    // The scope last fitted; a viewport from the URL counts as fitted for the first one.
    let fitted = StoredValue::new(initial.map(|_| scope.get_untracked()));
    Effect::new(move |_| {
        if let Some(el) = host.get() {
            let (w, h) = (
                el.client_width().max(300) as f32,
                el.client_height().max(300) as f32,
            );
            size.set((w, h));
            let d = drawing.get();
            let now = scope.get();
            let before = fitted.get_value();
            if before != Some(now) {
                let first = initial_view(&d.layout, d.view.nodes.len(), w, h);
                // A selection (a focus opens on its object) starts on screen; after a change
                // of scope, so does what the user went in for.
                let aim = match before {
                    None => selected.get_untracked(),
                    Some(_) => target.get_untracked().or(selected.get_untracked()),
                };
                let next = aim
                    .and_then(|i| d.layout.pos.get(i as usize).copied())
                    .and_then(|at| reveal(first, at, w, h))
                    .unwrap_or(first);
                vp.set(next);
                if before.is_some() {
                    on_viewport.run(next);
                }
                fitted.set_value(Some(now));
            }
        }
    });
    let visible = Memo::new(move |_| {
        let d = drawing.get();
        let (v, l) = (&d.view, &d.layout);
        if v.nodes.len() <= CULL_ABOVE {
            return (0..v.nodes.len() as u32).collect::<Vec<_>>();
        }
        let (z, tx, ty) = vp.get();
        let (w, h) = size.get();
        l.visible(Rect {
            x: -tx / z - MARGIN,
            y: -ty / z - MARGIN,
            w: w / z + 2.0 * MARGIN,
            h: h / z + 2.0 * MARGIN,
        })
    });
    // Edges and nodes are keyed by what they show: a pan keeps every element still in view,
    // a poll that changes one object rebuilds only its node and its edges (#23).
    let edge_items = Memo::new(move |_| {
        let d = drawing.get();
        let (v, l) = (&d.view, &d.layout);
        let vis: HashSet<u32> = visible.get().into_iter().collect();
        let hl = highlight.get();
        let items: Vec<EdgeItem> = v
            .edges
            .iter()
            .zip(v.edge_counts.iter().copied().chain(std::iter::repeat(1)))
            .filter(|(e, _)| vis.contains(&e.from) || vis.contains(&e.to))
            .map(|(e, count)| {
                let dim = hl
                    .as_ref()
                    .is_some_and(|h| !(h.contains(&e.from) && h.contains(&e.to)));
                // Aggregated edges between groups say how many they stand for.
                let label = (count > 1).then(|| {
                    let (a, b) = (l.pos[e.from as usize], l.pos[e.to as usize]);
                    let (x, y) = (
                        (a.0 + NODE_W + b.0) / 2.0,
                        (a.1 + b.1) / 2.0 + NODE_H / 2.0 - 4.0,
                    );
                    (format!("{x}"), format!("{y}"), count)
                });
                EdgeItem {
                    class: format!(
                        "fl-edge fl-edge--{}{}",
                        e.kind.as_str(),
                        if dim { " fl-dim" } else { "" }
                    ),
                    d: l.edge_path(e.from, e.to),
                    label,
                }
            })
            .collect();
        super::keyed::content_keys(items)
    });
    let edges = move || {
        view! {
            <For each=move || edge_items.get() key=|(k, _)| *k let:item>
                {
                    let e = item.1;
                    let label = e.label.map(|(x, y, count)| view! { <text class="fl-edge__count" x=x y=y text-anchor="middle" data-edge-count=count>{count}</text> });
                    view! { <path class=e.class d=e.d/>{label} }
                }
            </For>
        }
    };
    // A node's key: its index (selection and highlight speak in indices) and what it shows.
    let node_keys = Memo::new(move |_| {
        let d = drawing.get();
        let (v, l) = (&d.view, &d.layout);
        visible
            .get()
            .into_iter()
            .map(|i| {
                let shown = (&v.nodes[i as usize], l.pos[i as usize]);
                (i, super::keyed::content_hash(&shown))
            })
            .collect::<Vec<_>>()
    });
    let node_view = move |i: u32| {
        let d = drawing.get_untracked();
        let (v, l) = (&d.view, &d.layout);
        let n = v.nodes[i as usize].clone();
        let (x, y) = l.pos[i as usize];
        let id = n.id.to_string();
        let (title, sub) = match n.kind {
            NodeKind::Group { count } if n.id.kind.as_str() == "Namespace" => (
                format!(
                    "{} · {}",
                    n.id.name,
                    fluxlens_core::verdict::plural(count, "object")
                ),
                // "all ready" only when it is: a suspended namespace says so.
                match n.problems {
                    0 if n.status == fluxlens_core::Status::Ready => {
                        "NAMESPACE · all ready".to_string()
                    }
                    0 => format!(
                        "NAMESPACE · {}, no problems",
                        n.status.as_str().to_lowercase()
                    ),
                    p => format!("NAMESPACE · {p} with problems"),
                },
            ),
            NodeKind::Group { count } => (
                format!("{count} × {}", n.id.name.split("-of-").next().unwrap_or("")),
                format!("group · {}", n.id.namespace),
            ),
            NodeKind::Missing => (
                n.id.name.clone(),
                format!("MISSING {} · {}", n.id.kind, n.id.namespace),
            ),
            NodeKind::NotVisible { .. } => (
                n.id.name.clone(),
                format!("NOT VISIBLE {} · {}", n.id.kind, n.id.namespace),
            ),
            NodeKind::External { .. } => (n.id.name.clone(), format!("EXTERNAL {}", n.id.kind)),
            NodeKind::Object => (
                n.id.name.clone(),
                format!("{} · {}", n.id.kind, n.id.namespace),
            ),
        };
        let group_problems = matches!(n.kind, NodeKind::Group { .. }).then_some(n.problems);
        let why = match &n.kind {
            NodeKind::NotVisible { reason } => format!(" — not visible to you: {reason}"),
            NodeKind::External { answer } => format!(" — {answer}"),
            _ => String::new(),
        };
        let tooltip = format!("{id}{why}");
        let class = move || {
            let dim = highlight.get().is_some_and(|h| !h.contains(&i));
            format!(
                "fl-node {}{}{}{}{}",
                n.status.css_class(),
                match n.kind {
                    NodeKind::Missing => " fl-node--missing",
                    NodeKind::NotVisible { .. } => " fl-node--not-visible",
                    NodeKind::External { .. } => " fl-node--external",
                    _ => "",
                },
                if n.context { " fl-node--context" } else { "" },
                if selected.get() == Some(i) {
                    " fl-node--selected"
                } else {
                    ""
                },
                if dim { " fl-dim" } else { "" },
            )
        };
        let label = format!(
            "{id}, {}{why}{}",
            n.status.as_str(),
            if n.in_cycle {
                ", in a dependsOn cycle"
            } else {
                ""
            }
        );
        view! {
            <g class=class data-node-id=id.clone() data-status=n.status.as_str() data-cycle=n.in_cycle.then_some("true")
                data-problems=group_problems
                aria-selected=move || if selected.get() == Some(i) { "true" } else { "false" }
                transform=format!("translate({x},{y})") tabindex="0" role="button" aria-label=label
                on:click=move |_| on_select.run(i)
                on:focus=move |_| {
                    let (w, h) = size.get_untracked();
                    if let Some(next) = reveal(vp.get_untracked(), (x, y), w, h) {
                        vp.set(next);
                        on_viewport.run(next);
                    }
                }
                on:keydown=move |ev: web_sys::KeyboardEvent| if ev.key() == "Enter" || ev.key() == " " { ev.prevent_default(); on_select.run(i) }>
                <title>{tooltip}</title>
                <rect width=NODE_W height=NODE_H rx="6"/>
                <text class="fl-node__sub" x="10" y="16">{short(&sub, 34)}</text>
                <text class="fl-node__name" x="10" y="34">{short(&title, 30)}</text>
            </g>
        }
    };
    let drag = StoredValue::new(None::<(f32, f32, f32, f32)>);
    let emit = move || on_viewport.run(vp.get_untracked());
    let zoom_at = move |factor: f32, px: f32, py: f32| {
        let lo = min_zoom(drawing.get_untracked().view.nodes.len());
        vp.update(|(z, tx, ty)| {
            let nz = (*z * factor).clamp(lo, 4.0);
            *tx = px - (px - *tx) * (nz / *z);
            *ty = py - (py - *ty) * (nz / *z);
            *z = nz;
        });
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let (w, h) = size.get_untracked();
        let handled = match ev.key().as_str() {
            "ArrowLeft" => {
                vp.update(|v| v.1 += 60.0);
                true
            }
            "ArrowRight" => {
                vp.update(|v| v.1 -= 60.0);
                true
            }
            "ArrowUp" => {
                vp.update(|v| v.2 += 60.0);
                true
            }
            "ArrowDown" => {
                vp.update(|v| v.2 -= 60.0);
                true
            }
            "+" | "=" => {
                zoom_at(1.25, w / 2.0, h / 2.0);
                true
            }
            "-" | "_" => {
                zoom_at(0.8, w / 2.0, h / 2.0);
                true
            }
            "0" => {
                {
                    let d = drawing.get_untracked();
                    vp.set(fit(&d.layout, d.view.nodes.len(), w, h))
                };
                true
            }
            _ => false,
        };
        if handled {
            ev.prevent_default();
            emit();
        }
    };
    view! {
        <div class="fl-canvas" node_ref=host tabindex="0" role="application"
            aria-label="Source graph. Arrow keys pan, plus and minus zoom, 0 fits; Tab moves between nodes, Enter selects."
            on:keydown=on_key>
            <div class="fl-canvas__tools">
                <button class="fl-btn" type="button" on:click=move |_| { let (w, h) = size.get_untracked(); zoom_at(1.25, w / 2.0, h / 2.0); emit(); }>"Zoom in"</button>
                <button class="fl-btn" type="button" on:click=move |_| { let (w, h) = size.get_untracked(); zoom_at(0.8, w / 2.0, h / 2.0); emit(); }>"Zoom out"</button>
                <button class="fl-btn" type="button" on:click=move |_| { let (w, h) = size.get_untracked(); { let d = drawing.get_untracked(); vp.set(fit(&d.layout, d.view.nodes.len(), w, h)) }; emit(); }>"Fit"</button>
            </div>
            <svg class="fl-svg" width="100%" height="100%"
                on:wheel=move |ev: web_sys::WheelEvent| {
                    ev.prevent_default();
                    zoom_at((-(ev.delta_y() as f32) * 0.0015).exp(), ev.offset_x() as f32, ev.offset_y() as f32);
                    emit();
                }
                on:pointerdown=move |ev: web_sys::PointerEvent| {
                    let (_, tx, ty) = vp.get_untracked();
                    drag.set_value(Some((ev.client_x() as f32, ev.client_y() as f32, tx, ty)));
                }
                on:pointermove=move |ev: web_sys::PointerEvent| {
                    if let Some((sx, sy, tx, ty)) = drag.get_value() {
                        vp.update(|v| { v.1 = tx + ev.client_x() as f32 - sx; v.2 = ty + ev.client_y() as f32 - sy; });
                    }
                }
                on:pointerup=move |_| { if drag.get_value().is_some() { drag.set_value(None); emit(); } }
                on:pointerleave=move |_| drag.set_value(None)>
                <defs>
                    <marker id="fl-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="fl-arrow"/>
                    </marker>
                </defs>
                <g transform=move || { let (z, x, y) = vp.get(); format!("translate({x},{y}) scale({z})") }>
                    <g class="fl-edges">{edges}</g>
                    <g class="fl-nodes">
                        <For each=move || node_keys.get() key=|k| *k let:k>
                            {node_view(k.0)}
                        </For>
                    </g>
                </g>
            </svg>
        </div>
    }
}
