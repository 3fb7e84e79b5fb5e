//! The edge layer: one path per edge touching a visible node, keyed by what it shows, with the
//! count of an aggregated edge beside it.

use super::Drawing;
use leptos::prelude::*;
use std::collections::HashSet;

/// One edge as drawn.
#[derive(Debug, Clone, PartialEq, Hash)]
struct EdgeItem {
    class: String,
    d: String,
    /// Where the count of an aggregated edge goes, and the count.
    label: Option<(String, String, u32)>,
}

/// The edges between the visible nodes; those outside `highlight` are dimmed.
#[component]
pub fn EdgeLayer(
    drawing: Memo<Drawing>,
    visible: Memo<Vec<u32>>,
    highlight: Signal<Option<HashSet<u32>>>,
) -> impl IntoView {
    // Keyed by what they show: a pan keeps every edge still in view, a poll that changes one
    // object rebuilds only its edges (#23).
    let items = Memo::new(move |_| {
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
                let route = l.edge_route(e.from, e.to);
                // Aggregated edges between groups say how many they stand for, between two
                // columns (just above the line), never over a box.
                let label = route
                    .label_point()
                    .filter(|_| count > 1)
                    .map(|m| (format!("{}", m.x), format!("{}", m.y - 4.0), count));
                EdgeItem {
                    class: format!(
                        "fl-edge fl-edge--{}{}",
                        e.kind.as_str(),
                        if dim { " fl-dim" } else { "" }
                    ),
                    d: route.svg(),
                    label,
                }
            })
            .collect();
        crate::components::keyed::content_keys(items)
    });
    view! {
        <g class="fl-edges">
            <For each=move || items.get() key=|(k, _)| *k let:item>
                {
                    let e = item.1;
                    let label = e
                        .label
                        .map(|(x, y, count)| {
                            view! {
                                <text
                                    class="fl-edge__count"
                                    x=x
                                    y=y
                                    text-anchor="middle"
                                    data-edge-count=count
                                >
                                    {count}
                                </text>
                            }
                        });
                    view! {
                        <path class=e.class d=e.d />
                        {label}
                    }
                }
            </For>
        </g>
    }
}
