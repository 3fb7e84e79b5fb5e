use crate::components::findings::FindingsList;
use crate::components::graph_canvas::{Aim, Drawing, GraphCanvas, Scene};
use crate::components::node_panel::NodePanel;
use crate::state::{AppState, Shared};
use fluxlens_core::analyses::graph::{
    Graph, GraphOptions, GroupOf, NodeKind, layout, to_dot, to_svg, view,
};
use fluxlens_core::share::urlstate::GraphQuery;
use fluxlens_core::{ObjectKey, Status};
use leptos::prelude::*;
use std::collections::HashSet;
use std::sync::Arc;

/// How long a pan or zoom must rest before the viewport is written to the URL.
const VIEWPORT_SETTLE_MS: u32 = 400;

/// Objects with at least one finding (the graph marks them and points at them first).
fn problem_subjects(state: AppState) -> HashSet<ObjectKey> {
    state.data.with_untracked(|d| {
        d.as_ref()
            .map(|d| fluxlens_core::analyses::finding::problem_subjects(&d.per_object))
            .unwrap_or_default()
    })
}

/// `/graph`: every source and what consumes it; filters, selection and zoom in the URL.
#[component]
pub fn GraphPage() -> impl IntoView {
    let state = AppState::expect();
    let location = crate::router::use_location();
    let query = Memo::new(move |_| GraphQuery::from_query(&location.search.get()));
    // Each deliberate change is one history entry; the viewport only rewrites the current one.
    let set_query = Callback::new(move |q: GraphQuery| {
        crate::router::push_query(location, &q.to_query());
    });
    let options = Memo::new(move |_| query.get().graph_options());
    let graph = Memo::new(move |_| {
        let d = state.data.get()?;
        let opts = options.get();
        Some(Shared(if opts == GraphOptions::default() {
            d.graph.clone()
        } else {
            Arc::new(Graph::build(&d.cluster, opts))
        }))
    });
    let filter = Memo::new(move |_| query.get().filter);
    let drawing: Memo<Drawing> = Memo::new(move |_| {
        let Some(g) = graph.get() else {
            return Shared(Arc::new(Default::default()));
        };
        let problems = problem_subjects(state);
        let v = view(&g, &filter.get(), &problems);
        let l = layout(&v);
        Shared(Arc::new(Scene { view: v, layout: l }))
    });
    Effect::new(move |_| {
        if !drawing.get().view.nodes.is_empty() {
            request_animation_frame(|| crate::perf::mark(crate::perf::GRAPH_LAID_OUT));
        }
    });
    let selected = Memo::new(move |_| {
        query
            .get()
            .selected
            .and_then(|k| drawing.get().view.find(&k))
    });
    let highlight = Memo::new(move |_| {
        let i = selected.get()?;
        let d = drawing.get();
        let mut set = d.view.chain(i, true);
        set.extend(d.view.chain(i, false));
        // What the search matches stays lit beside the selection's chain (#46: it was greyed).
        if !filter.with(|f| f.query.is_empty()) {
            set.extend(d.view.matches());
        }
        Some(set)
    });
    let on_select = select_handler(query, set_query, drawing);
    let on_viewport = viewport_writer(query, location);
    let panel = Memo::new(move |_| {
        let id = query.get().selected?;
        let shown = state.data.with(|d| {
            d.as_deref()
                .map(|d| crate::components::node_panel::shown(d, &id))
        })?;
        Some((id, shown))
    });
    graph_keys(query, set_query);
    let initial = query.get_untracked().viewport;
    // What the picture is of: when it changes (a focus, a namespace laid out, a filter) the
    // canvas fits it anew; a poll or a pan does not.
    let scope = Memo::new(move |_| crate::components::keyed::content_hash(&filter.get()));
    let target = fit_target(state, filter, drawing);
    let verdict = graph_verdict(state);
    let close = Callback::new(move |_| {
        let mut q = query.get_untracked();
        q.selected = None;
        set_query.run(q);
    });
    // The page is a toolbar and the canvas below it, which takes the rest of the screen
    // (#27); what is read once (the cycles, the findings) follows the canvas.
    view! {
        <section class="fl-page fl-page--graph" aria-labelledby="gr-title">
            <div class="fl-toolbar">
                <h1 id="gr-title" class="fl-toolbar__title">
                    "Source graph"
                </h1>
                {move || {
                    verdict
                        .get()
                        .map(|v| view! { <crate::components::hero::Hero verdict=v compact=true /> })
                }}
                {crate::pages::when_loaded(move || {
                    view! {
                        <GraphFilters
                            query=query
                            set_query=set_query
                            matched=Signal::derive(move || drawing.with(|d| d.view.matched))
                        />
                        <GraphActions query=query set_query=set_query drawing=drawing />
                    }
                })}
            </div>
            <Show when=move || { state.data.with(Option::is_some) }>
                <FocusBar query=query set_query=set_query />
                <div class="fl-graph-layout">
                    <GraphCanvas
                        drawing=drawing
                        selected=selected
                        highlight=highlight
                        on_select=on_select
                        initial=initial
                        on_viewport=on_viewport
                        scope=scope
                        target=target
                    >
                        <div class="fl-canvas__caption">
                            <GraphCounts graph=graph drawing=drawing />
                            <OverviewCaption drawing=drawing query=query />
                            <GraphLegend />
                        </div>
                    </GraphCanvas>
                    {move || {
                        let id = panel.get()?.0;
                        let d = state.data.get_untracked()?;
                        Some(
                            // Rebuilt for a new selection or when what it shows changed, not for
                            // every poll that changed something elsewhere.
                            view! { <NodePanel data=d id=id on_close=close /> },
                        )
                    }}
                </div>
                <Cycles graph=graph />
                <h2>"Reference findings"</h2>
                <FindingsList findings=super::findings_where(|r| r == "MIG-GO-02", None) />
            </Show>
        </section>
    }
}

/// Activating a node selects it; activating a group expands it (a namespace group also
/// un-collapses its namespace).
fn select_handler(
    query: Memo<GraphQuery>,
    set_query: Callback<GraphQuery>,
    drawing: Memo<Drawing>,
) -> Callback<u32> {
    Callback::new(move |i: u32| {
        let d = drawing.get_untracked();
        let node = &d.view.nodes[i as usize];
        let mut q = query.get_untracked();
        match &node.kind {
            NodeKind::Group {
                of: GroupOf::Namespace(ns),
                ..
            } => {
                q.filter.collapsed_namespaces.retain(|n| n != ns);
                q.filter.expanded.push(node.id.to_string());
            }
            NodeKind::Group { .. } => q.filter.expanded.push(node.id.to_string()),
            _ => q.selected = Some(node.id.clone()),
        }
        set_query.run(q);
    })
}

/// Writes the viewport to the URL once a gesture has settled: a URL write per wheel tick would
/// wake everything that reads the query (#23).
fn viewport_writer(
    query: Memo<GraphQuery>,
    location: crate::router::Location,
) -> Callback<(f32, f32, f32)> {
    let writes = StoredValue::new(0u32);
    Callback::new(move |vp: (f32, f32, f32)| {
        writes.update_value(|n| *n += 1);
        let mine = writes.get_value();
        leptos::task::spawn_local(async move {
            gloo_timers::future::TimeoutFuture::new(VIEWPORT_SETTLE_MS).await;
            if writes.try_get_value() == Some(mine) {
                let mut q = query.get_untracked();
                q.viewport = Some(vp);
                crate::router::replace_query(location, &q.to_query());
            }
        });
    })
}

/// Escape closes the side panel; "/" goes to the search, as in the operator's own UI.
fn graph_keys(query: Memo<GraphQuery>, set_query: Callback<GraphQuery>) {
    let on_key = window_event_listener(leptos::ev::keydown, move |ev| {
        let typing = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(t).ok())
            .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
        match ev.key().as_str() {
            "Escape" if query.with_untracked(|q| q.selected.is_some()) => {
                let mut q = query.get_untracked();
                q.selected = None;
                set_query.run(q);
            }
            "/" if !typing => {
                if let Some(input) = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.query_selector("[data-graph-search]").ok().flatten())
                    .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok())
                {
                    ev.prevent_default();
                    let _ = input.focus();
                }
            }
            _ => {}
        }
    });
    on_cleanup(move || on_key.remove());
}

/// Where a fit of the picture looks: the focused object, or the worst object of the namespace
/// laid out last, so what the user went in for is on screen.
fn fit_target(
    state: AppState,
    filter: Memo<fluxlens_core::analyses::graph::GraphFilter>,
    drawing: Memo<Drawing>,
) -> Memo<Option<Aim>> {
    Memo::new(move |_| {
        let f = filter.get();
        let d = drawing.get();
        let v = &d.view;
        // A focus is read from its first box (the chain's start) whenever the focused object
        // is then on screen too.
        if let Some(k) = &f.focus {
            return v.find(k).map(|node| Aim {
                node,
                from: d.layout.first_box(),
            });
        }
        let ns = fluxlens_core::analyses::graph::group_namespace(f.expanded.last()?)?.to_string();
        let problems = problem_subjects(state);
        let node = v.worst_in(&ns, &problems)?;
        Some(Aim {
            node,
            from: d.layout.first_of(v, &ns),
        })
    })
}

/// The page's one-line verdict (core's `verdict::graph`).
fn graph_verdict(state: AppState) -> Memo<Option<fluxlens_core::analyses::verdict::Verdict>> {
    Memo::new(move |_| {
        state.data.with(|x| {
            x.as_ref().map(|x| {
                fluxlens_core::analyses::verdict::graph(
                    &x.summary,
                    x.graph.cycles.len(),
                    &x.findings,
                )
            })
        })
    })
}

/// "12 boxes · 0 missing · 0 cycles" (the verdict beside it says which references and cycles).
#[component]
fn GraphCounts(graph: Memo<Option<Shared<Graph>>>, drawing: Memo<Drawing>) -> impl IntoView {
    let nodes = Memo::new(move |_| drawing.with(|d| d.view.nodes.len()));
    let missing =
        Memo::new(move |_| graph.with(|g| g.as_ref().map(|g| g.missing().count()).unwrap_or(0)));
    let cycles =
        Memo::new(move |_| graph.with(|g| g.as_ref().map(|g| g.cycles.len()).unwrap_or(0)));
    let word = |n: usize, one: &'static str, many: &'static str| if n == 1 { one } else { many };
    view! {
        <p class="fl-graph-summary" role="status">
            <span data-count="nodes">{nodes}</span>
            {move || word(nodes.get(), " box · ", " boxes · ")}
            <span data-count="missing">{missing}</span>
            " missing · "
            <span data-count="cycles">{cycles}</span>
            {move || word(cycles.get(), " cycle", " cycles")}
        </p>
    }
}

/// What a box's colour and outline mean: one swatch per status, and the dimmed context.
#[component]
fn GraphLegend() -> impl IntoView {
    use fluxlens_core::wire::status::Status;
    view! {
        <ul class="fl-legend" aria-label="Legend">
            {Status::ALL
                .iter()
                .map(|st| {
                    view! {
                        <li class=st.css_class() data-legend=st.as_str()>
                            <span class="fl-legend__swatch" aria-hidden="true"></span>
                            {st.as_str()}
                        </li>
                    }
                })
                .collect_view()}
            <li class="fl-legend__context" data-legend="context">
                <span class="fl-legend__swatch" aria-hidden="true"></span>
                "context (shown for a match)"
            </li>
        </ul>
    }
}

/// The dependsOn cycles, one line each (under the canvas: read once, not watched).
#[component]
fn Cycles(graph: Memo<Option<Shared<Graph>>>) -> impl IntoView {
    move || {
        let cycles = graph.with(|g| g.as_ref().map(|g| g.cycles.clone()).unwrap_or_default());
        (!cycles.is_empty()).then(|| {
            view! {
                <ul class="fl-cycles" aria-label="dependsOn cycles">
                    {cycles
                        .into_iter()
                        .map(|c| {
                            view! {
                                <li data-cycle="">
                                    {c
                                        .iter()
                                        .map(|k| k.to_string())
                                        .collect::<Vec<_>>()
                                        .join(" → ")}
                                </li>
                            }
                        })
                        .collect_view()}
                </ul>
            }
        })
    }
}

/// What the overview's boxes are (beside the counts, over the canvas's lower left corner).
#[component]
fn OverviewCaption(drawing: Memo<Drawing>, query: Memo<GraphQuery>) -> impl IntoView {
    let shown = Memo::new(move |_| drawing.with(|d| d.view.overview));
    let focused = Memo::new(move |_| query.with(|q| q.filter.focus.is_some()));
    move || {
        shown.get().then(|| {
            let text = if focused.get() {
                "A large focus: the object and its upstream chain, its downstream one box per namespace. Activate a box to lay out its objects."
            } else {
                "One box per namespace, in delivery order from the root source; dashed: dependsOn. Activate a box to lay out its objects."
            };
            view! {
                <p class="fl-canvas__lead" data-overview="">
                    {text}
                </p>
            }
        })
    }
}

/// "Whole graph › focus on …" while a focus is set.
#[component]
fn FocusBar(query: Memo<GraphQuery>, set_query: Callback<GraphQuery>) -> impl IntoView {
    move || {
        query.get().filter.focus.map(|k| {
            let whole = move |_| {
                let mut q = query.get_untracked();
                q.filter.focus = None;
                set_query.run(q);
            };
            view! {
                <nav class="fl-breadcrumb" aria-label="Focus" data-focus=k.to_string()>
                    <button class="fl-btn" type="button" on:click=whole>
                        "Whole graph"
                    </button>
                    " › focus on "
                    <strong>{k.to_string()}</strong>
                    ": its upstream chain and everything downstream"
                </nav>
            }
        })
    }
}

/// Focus on the selection, and the exports (in a menu).
#[component]
fn GraphActions(
    query: Memo<GraphQuery>,
    set_query: Callback<GraphQuery>,
    drawing: Memo<Drawing>,
) -> impl IntoView {
    use crate::components::menu::Menu;
    let export = move |dot: bool| {
        let d = drawing.get_untracked();
        let (v, l) = (&d.view, &d.layout);
        if dot {
            crate::components::download::download(
                "fluxlens-graph.dot",
                "text/vnd.graphviz",
                &to_dot(v),
            );
        } else {
            crate::components::download::download(
                "fluxlens-graph.svg",
                "image/svg+xml",
                &to_svg(v, l),
            );
        }
    };
    let focusable = Memo::new(move |_| {
        query.with(|q| {
            q.selected
                .clone()
                .filter(|s| q.filter.focus.as_ref() != Some(s))
        })
    });
    view! {
        {move || {
            focusable
                .get()
                .map(|sel| {
                    let focus = move |_| {
                        let mut q = query.get_untracked();
                        q.filter.focus = Some(sel.clone());
                        set_query.run(q);
                    };
                    view! {
                        <button class="fl-btn" type="button" on:click=focus>
                            "Focus on the selection"
                        </button>
                    }
                })
        }}
        <Menu label="Export" id="export">
            <button class="fl-btn" type="button" on:click=move |_| export(false)>
                "Export SVG"
            </button>
            <button class="fl-btn" type="button" on:click=move |_| export(true)>
                "Export DOT"
            </button>
        </Menu>
    }
}

/// The filter bar; every control writes the URL. Built once: the choices follow the data in
/// place, so a poll never takes away a half-typed search or an open select.
#[component]
fn GraphFilters(
    query: Memo<GraphQuery>,
    set_query: Callback<GraphQuery>,
    #[prop(into)] matched: Signal<usize>,
) -> impl IntoView {
    use crate::components::graph_search::GraphSearch;
    use crate::components::list_filters::{Choice, options, use_choices};
    use crate::components::menu::Menu;
    let choices = use_choices();
    let active = Signal::derive(move || match query.with(active_filters) {
        0 => String::new(),
        n => n.to_string(),
    });
    let laid_out = move || {
        query.with(|q| {
            q.filter
                .expanded
                .iter()
                .any(|e| fluxlens_core::analyses::graph::group_namespace(e).is_some())
        })
    };
    let back = move |_| {
        update(query, set_query, |q| {
            q.filter
                .expanded
                .retain(|e| fluxlens_core::analyses::graph::group_namespace(e).is_none())
        })
    };
    let toggle = move |label, get, set| toggle(query, set_query, label, get, set);
    view! {
        <GraphSearch query=query set_query=set_query matched=matched />
        <Show when=laid_out>
            <button class="fl-btn" type="button" on:click=back>
                "Back to the overview"
            </button>
        </Show>
        <Menu label="Filters" id="filters" badge=active start=true>
            <form class="fl-filters" on:submit=|ev| ev.prevent_default() aria-label="Graph filters">
                {one_of(
                    query,
                    set_query,
                    "Namespace ",
                    options(choices, Choice::Namespace),
                    |q| &mut q.filter.namespaces,
                )}
                {one_of(
                    query,
                    set_query,
                    "Kind ",
                    options(choices, Choice::Kind),
                    |q| &mut q.filter.kinds,
                )}
                <StatusFilter query=query set_query=set_query />
                {toggle(
                    "Problems only",
                    |q| q.filter.problems_only,
                    |q, c| q.filter.problems_only = c,
                )}
                <label>
                    "Collapse "
                    <select
                        prop:value=""
                        on:change=move |ev| {
                            let v = event_target_value(&ev);
                            if !v.is_empty() {
                                update(
                                    query,
                                    set_query,
                                    move |q| {
                                        if !q.filter.collapsed_namespaces.contains(&v) {
                                            q.filter.collapsed_namespaces.push(v)
                                        }
                                    },
                                )
                            }
                        }
                    >
                        <option value="">"a namespace…"</option>
                        {options(choices, Choice::Namespace)}
                    </select>
                </label>
                {toggle("Notifications", |q| q.notifications, |q, c| q.notifications = c)}
                {toggle("Ownership", |q| q.managed_by, |q, c| q.managed_by = c)}
                {toggle("Every object", |q| q.filter.flat, |q, c| q.filter.flat = c)}
                {toggle(
                    "Group siblings",
                    |q| q.filter.group_threshold != 0,
                    |q, c| q.filter.group_threshold = if c { 8 } else { 0 },
                )}
            </form>
        </Menu>
    }
}

/// One change to the query, as one history entry.
fn update(
    query: Memo<GraphQuery>,
    set_query: Callback<GraphQuery>,
    f: impl FnOnce(&mut GraphQuery),
) {
    let mut q = query.get_untracked();
    f(&mut q);
    set_query.run(q);
}

/// A checkbox bound to one switch of the query.
fn toggle(
    query: Memo<GraphQuery>,
    set_query: Callback<GraphQuery>,
    label: &'static str,
    get: fn(&GraphQuery) -> bool,
    set: fn(&mut GraphQuery, bool),
) -> impl IntoView {
    view! {
        <label>
            <input
                type="checkbox"
                prop:checked=move || query.with(get)
                on:change=move |ev| {
                    let c = event_target_checked(&ev);
                    update(query, set_query, move |q| set(q, c))
                }
            />
            " "
            {label}
        </label>
    }
}

/// A select of one value or "all" for a list the query filters by (namespaces, kinds).
fn one_of(
    query: Memo<GraphQuery>,
    set_query: Callback<GraphQuery>,
    label: &'static str,
    choices: impl IntoView + 'static,
    list: fn(&mut GraphQuery) -> &mut Vec<String>,
) -> impl IntoView {
    view! {
        <label>
            {label}
            <select
                prop:value=move || {
                    let mut q = query.get();
                    list(&mut q).first().cloned().unwrap_or_default()
                }
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    update(
                        query,
                        set_query,
                        move |q| *list(q) = if v.is_empty() { vec![] } else { vec![v] },
                    )
                }
            >
                <option value="">"all"</option>
                {choices}
            </select>
        </label>
    }
}

/// The status select: one status or "all".
#[component]
fn StatusFilter(query: Memo<GraphQuery>, set_query: Callback<GraphQuery>) -> impl IntoView {
    view! {
        <label>
            "Status "
            <select
                prop:value=move || {
                    query
                        .with(|q| q.filter.statuses.first().map(|s| s.as_str().to_string()))
                        .unwrap_or_default()
                }
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    update(
                        query,
                        set_query,
                        move |q| {
                            q.filter.statuses = if v.is_empty() {
                                vec![]
                            } else {
                                vec![Status::parse(&v)]
                            };
                        },
                    )
                }
            >
                <option value="">"all"</option>
                {Status::ALL
                    .iter()
                    .map(|s| view! { <option value=s.as_str()>{s.as_str()}</option> })
                    .collect_view()}
            </select>
        </label>
    }
}

/// How many filters narrow or change the picture (the number on the Filters button).
fn active_filters(q: &GraphQuery) -> usize {
    let f = &q.filter;
    [
        !f.namespaces.is_empty(),
        !f.kinds.is_empty(),
        !f.statuses.is_empty(),
        f.problems_only,
        !f.collapsed_namespaces.is_empty(),
        q.notifications,
        q.managed_by,
        f.flat,
        f.group_threshold != fluxlens_core::analyses::graph::GraphFilter::default().group_threshold,
    ]
    .into_iter()
    .filter(|on| *on)
    .count()
}
