//! One node of the canvas: its box, its two lines of text, its state for tests and assistive
//! technology, and the pointer and keys that select it.

use super::Drawing;
use super::viewport::{Viewport, reveal};
use fluxlens_core::analyses::graph::{GroupOf, NODE_H, NODE_W, NodeKind, ViewNode};
use leptos::prelude::*;
use std::collections::HashSet;

fn short(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(max - 1).collect::<String>())
    }
}

/// The node's name line and its kind line.
fn lines(n: &ViewNode) -> (String, String) {
    match &n.kind {
        NodeKind::Group {
            count,
            of: GroupOf::Namespace(ns),
        } => (
            format!(
                "{ns} · {}",
                fluxlens_core::analyses::verdict::plural(*count, "object")
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
        NodeKind::Group {
            count,
            of: GroupOf::Consumers { kind, .. },
        } => (
            format!("{count} × {kind}s"),
            format!("group · {}", n.id.namespace),
        ),
        NodeKind::Group {
            count,
            of: GroupOf::Named(name),
        } => (
            format!(
                "{name} · {}",
                fluxlens_core::analyses::verdict::plural(*count, "object")
            ),
            "group".to_string(),
        ),
        NodeKind::Missing => (
            n.id.name.clone(),
            format!("MISSING {} · {}", n.id.kind, n.id.namespace),
        ),
        NodeKind::NotVisible { reason } if reason == fluxlens_core::model::CONFIRMING => (
            n.id.name.clone(),
            format!("CONFIRMING… {} · {}", n.id.kind, n.id.namespace),
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
    }
}

/// Node `i` of the drawing.
#[component]
pub fn GraphNode(
    i: u32,
    drawing: Memo<Drawing>,
    selected: Signal<Option<u32>>,
    highlight: Signal<Option<HashSet<u32>>>,
    on_select: Callback<u32>,
    /// Selects it from a click (not one that ends a pan).
    on_click: Callback<u32>,
    viewport: Viewport,
    on_viewport: Callback<(f32, f32, f32)>,
) -> impl IntoView {
    let d = drawing.get_untracked();
    let n = d.view.nodes[i as usize].clone();
    let (x, y) = d.layout.pos[i as usize];
    let id = n.id.to_string();
    let (title, sub) = lines(&n);
    let group_problems = matches!(n.kind, NodeKind::Group { .. }).then_some(n.problems);
    let why = match &n.kind {
        NodeKind::NotVisible { reason } if reason == fluxlens_core::model::CONFIRMING => {
            " — confirming with the server…".to_string()
        }
        NodeKind::NotVisible { reason } => format!(" — not visible to you: {reason}"),
        NodeKind::External { answer } => format!(" — {answer}"),
        _ => String::new(),
    };
    let tooltip = format!("{id}{why}");
    // The accessible name begins with the text the node shows (#27: a name that did not contain
    // its visible text failed axe's label-content-name-mismatch), then the rest.
    let (shown_sub, shown_title) = (short(&sub, 34), short(&title, 30));
    let label = format!(
        "{shown_sub} {shown_title}, {}{why}{} ({id})",
        n.status.as_str(),
        if n.in_cycle {
            ", in a dependsOn cycle"
        } else {
            ""
        }
    );
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
    let on_focus = move |_| {
        let (w, h) = viewport.size.get_untracked();
        if let Some(next) = reveal(viewport.at.get_untracked(), (x, y), w, h) {
            viewport.at.set(next);
            on_viewport.run(next);
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Enter" || ev.key() == " " {
            ev.prevent_default();
            on_select.run(i)
        }
    };
    view! {
        <g
            class=class
            data-node-id=id.clone()
            data-status=n.status.as_str()
            data-cycle=n.in_cycle.then_some("true")
            data-problems=group_problems
            aria-pressed=move || if selected.get() == Some(i) { "true" } else { "false" }
            transform=format!("translate({x},{y})")
            tabindex="0"
            role="button"
            aria-label=label
            on:click=move |_| on_click.run(i)
            on:focus=on_focus
            on:keydown=on_key
        >
            <title>{tooltip}</title>
            <rect width=NODE_W height=NODE_H rx="6" />
            <text class="fl-node__sub" x="10" y="16">
                {shown_sub}
            </text>
            // The leading space is not drawn (SVG drops it) but separates the two lines in the
            // node's text, which axe reads joined: the name then contains the text as shown.
            <text class="fl-node__name" x="10" y="34">
                {format!(" {shown_title}")}
            </text>
        </g>
    }
}
