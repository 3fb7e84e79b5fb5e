//! `/changes`: what changed in a window, newest first, across every object (#49) — revisions
//! applied, status changes, and what differs from the read kept in this browser — with what the
//! answer cannot know said beside it. The window and filters live in the URL (`ChangesQuery`).

use super::when_loaded;
use crate::components::hero::Hero;
use crate::components::keyed::content_keys;
use crate::state::{AppState, Loaded, WindowEvents};
use fluxlens_core::analyses::changes::digest::VisitDigest;
use fluxlens_core::analyses::changes::timeline::EventsRead;
use fluxlens_core::analyses::changes::window::Since;
use fluxlens_core::analyses::changes::{self, Change, ChangeKind, Reads, Timeline};
use fluxlens_core::share::urlstate::{ChangesQuery, link};
use fluxlens_core::share::visits::Visits;
use fluxlens_core::util::time::{format_rfc3339, shown};
use leptos::prelude::*;
use std::sync::Arc;

/// The changes query of the current URL and a setter that replaces it.
fn use_changes_query() -> (Memo<ChangesQuery>, Callback<ChangesQuery>) {
    let location = crate::router::use_location();
    let query = Memo::new(move |_| ChangesQuery::from_query(&location.search.get()));
    let set = Callback::new(move |q: ChangesQuery| {
        crate::router::push_query(location, &q.to_query());
    });
    (query, set)
}

/// What the page shows: the window, its timeline filtered, and when it was read.
#[derive(Clone, PartialEq)]
struct Shown {
    /// How the verdict names the window ("in the last hour", "between the snapshot read … and
    /// this read").
    label: String,
    timeline: Timeline,
    now_ms: i64,
    /// False on a snapshot's own page with nothing compared: it keeps no history to search.
    history_kept: bool,
}

/// A snapshot to compare with (its digest), or why it could not be read.
type Compared = Option<Result<Arc<VisitDigest>, String>>;

/// `/changes`.
#[component]
pub fn ChangesPage() -> impl IntoView {
    let state = AppState::expect();
    let (query, set_query) = use_changes_query();
    // The window's Warning events are read while this page is shown, and only then.
    state.window_events_wanted.set(true);
    on_cleanup(move || state.window_events_wanted.set(false));
    view! {
        <section class="fl-page" aria-labelledby="ch-title">
            <h1 id="ch-title">"Changes"</h1>
            {when_loaded(move || {
                let compared = RwSignal::new(None::<Result<Arc<VisitDigest>, String>>);
                let shown = shown_memo(state, query, compared);
                view! {
                    {move || {
                        shown
                            .with(|s| {
                                s.as_ref()
                                    .map(|s| {
                                        fluxlens_core::analyses::verdict::changes(
                                            &s.timeline.changes,
                                            &s.label,
                                            s.history_kept,
                                        )
                                    })
                            })
                            .map(|v| view! { <Hero verdict=v /> })
                    }}
                    <WindowBar query set_query />
                    <CompareWith compared />
                    <ChangeFilters query set_query />
                    <Limits shown />
                    <ChangeList shown />
                }
            })}
        </section>
    }
}

/// The timeline of the query's window (or of the comparison with a snapshot), recomputed when
/// the data, the kept visits, the events, the snapshot compared with or the query change.
fn shown_memo(
    state: AppState,
    query: Memo<ChangesQuery>,
    compared: RwSignal<Compared>,
) -> Memo<Option<Arc<Shown>>> {
    Memo::new(move |_| {
        let q = query.get();
        let visits = state.visits.get();
        let events = state.window_events.get();
        let snapshot = state.status(crate::state::LoadStatus::is_snapshot);
        let with = compared.get().and_then(Result::ok);
        state.data.with(|d| {
            let d = d.as_deref()?;
            Some(Arc::new(match &with {
                Some(other) => between(d, other, &q),
                None => compute(d, visits.as_deref(), events, snapshot, &q),
            }))
        })
    })
}

/// The shown read compared with a snapshot: only what comparing finds, filtered.
fn between(d: &Loaded, other: &VisitDigest, q: &ChangesQuery) -> Shown {
    let now = VisitDigest::of(&d.cluster, &d.analysis);
    let mut timeline = changes::between_reads(other, &now);
    filter(d, q, &mut timeline);
    Shown {
        label: format!(
            "between {} and this read",
            timeline.compared_with.as_deref().unwrap_or("the snapshot")
        ),
        now_ms: timeline.to_ms,
        timeline,
        history_kept: true,
    }
}

/// Keeps the rows the query's filters admit.
fn filter(d: &Loaded, q: &ChangesQuery, timeline: &mut Timeline) {
    timeline.changes.retain(|c| {
        let owners = c
            .subject
            .object()
            .map(|k| d.cluster.owner_chain(k))
            .unwrap_or_default();
        q.admits(c, &owners)
    });
}

/// Resolves the window, picks the read to compare with, reads the timeline and filters it —
/// every step a core function.
fn compute(
    d: &Loaded,
    visits: Option<&Visits>,
    events: Option<WindowEvents>,
    snapshot: bool,
    q: &ChangesQuery,
) -> Shown {
    let now_ms = d
        .cluster
        .notes
        .captured_at_ms
        .unwrap_or_else(|| js_sys::Date::now() as i64);
    let last = visits.and_then(Visits::last);
    let since = q.since.unwrap_or(Since::default_for(last.is_some()));
    let start = since.start(now_ms, last.map(|v| v.read_at_ms));
    let earlier = match since {
        Since::LastVisit => last,
        _ => visits.and_then(|v| v.baseline(start.from_ms)),
    };
    let (list, read) = events_of(events, snapshot);
    let now = VisitDigest::of(&d.cluster, &d.analysis);
    let mut timeline = changes::timeline(
        &Reads {
            cluster: &d.cluster,
            now: &now,
            earlier,
            events: &list,
            events_read: &read,
        },
        start.from_ms,
        now_ms,
    );
    if let Some(why) = start.fallback {
        timeline.limits.insert(0, why);
    }
    if snapshot {
        timeline.limits.insert(
            0,
            "This is a snapshot: it carries no history, transition times or events, so no \
             change can be dated from it."
                .into(),
        );
    }
    filter(d, q, &mut timeline);
    Shown {
        label: since.label(),
        history_kept: !snapshot || !timeline.changes.is_empty(),
        timeline,
        now_ms,
    }
}

/// The events answer as the timeline takes it.
fn events_of(
    events: Option<WindowEvents>,
    snapshot: bool,
) -> (Vec<fluxlens_core::wire::events::Event>, EventsRead) {
    match events {
        _ if snapshot => (
            vec![],
            EventsRead::Failed("a snapshot carries no events".into()),
        ),
        None => (vec![], EventsRead::NotRead),
        // Several kinds in one read: the server's per-kind cap applies before the type filter.
        Some(WindowEvents { result: Ok(e), .. }) => (e, EventsRead::Read { capped: true }),
        Some(WindowEvents { result: Err(e), .. }) => (vec![], EventsRead::Failed(e.to_string())),
    }
}

/// The window's choices, as links that keep the filters.
#[component]
fn WindowBar(query: Memo<ChangesQuery>, set_query: Callback<ChangesQuery>) -> impl IntoView {
    let choose = move |s: Since| {
        let mut q = query.get_untracked();
        q.since = Some(s);
        set_query.run(q);
    };
    view! {
        <nav class="fl-window" aria-label="Window">
            {Since::CHOICES
                .into_iter()
                .map(|s| {
                    let current = move || query.with(|q| q.since == Some(s)).then_some("true");
                    view! {
                        <button
                            class="fl-btn"
                            type="button"
                            data-since=s.as_param()
                            aria-pressed=current
                            on:click=move |_| choose(s)
                        >
                            {s.label()}
                        </button>
                    }
                })
                .collect_view()}
        </nav>
    }
}

/// Compares the shown read (live, or an opened snapshot) with a snapshot given as its link or
/// file; read-only, nothing leaves the page.
#[component]
fn CompareWith(compared: RwSignal<Compared>) -> impl IntoView {
    use fluxlens_core::share::snapshot::{digest_of, token_in};
    // The snapshot compared with lives in the fragment (`compare=`): the comparison is shared
    // by its link, and no server receives it (#68).
    let remember = move |token: Option<String>| {
        let mut f = crate::router::fragment();
        f.compare = token;
        crate::router::replace_fragment(&f.to_hash());
    };
    let read = move |text: &str| {
        let digest = digest_of(text).map(Arc::new).map_err(|e| e.to_string());
        remember(digest.is_ok().then(|| token_in(text)).flatten());
        compared.set(Some(digest));
    };
    if let Some(token) = crate::router::fragment().compare {
        read(&token);
    }
    let stop = move |_| {
        remember(None);
        compared.set(None);
    };
    let open_file = move |ev: web_sys::Event| {
        use wasm_bindgen::JsCast;
        let file = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .and_then(|i| i.files())
            .and_then(|f| f.get(0));
        let Some(file) = file else {
            return;
        };
        if file.size() > fluxlens_core::share::snapshot::MAX_ENCODED as f64 {
            compared.set(Some(
                Err("the file is larger than a snapshot can be".into()),
            ));
            return;
        }
        leptos::task::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
            match text.ok().and_then(|t| t.as_string()) {
                Some(t) => read(&t),
                None => compared.set(Some(Err("the file could not be read".into()))),
            }
        });
    };
    view! {
        <form class="fl-filters" on:submit=|ev| ev.prevent_default() aria-label="Compare">
            <label>
                "Compare with a snapshot "
                <input
                    type="text"
                    placeholder="paste a snapshot link"
                    data-compare-link=""
                    on:change=move |ev| read(&event_target_value(&ev))
                />
            </label>
            <label class="fl-btn">
                "or its file…"
                <input
                    class="fl-sr"
                    type="file"
                    accept=".fluxlens,text/plain"
                    on:change=open_file
                />
            </label>
            {move || match compared.get() {
                None => ().into_any(),
                Some(Ok(d)) => {
                    view! {
                        <span data-compared-with=format_rfc3339(
                            d.read_at_ms,
                        )>
                            {format!(
                                "Compared with the snapshot read {}",
                                fluxlens_core::util::time::shown_dated(d.read_at_ms),
                            )}
                        </span>
                        <button class="fl-btn" type="button" on:click=stop>
                            "Stop comparing"
                        </button>
                    }
                        .into_any()
                }
                Some(Err(e)) => {
                    view! {
                        <span class="fl-compare__error" role="alert">
                            {format!("Not a snapshot: {e}")}
                        </span>
                    }
                        .into_any()
                }
            }}
        </form>
    }
}

/// Namespace, kind, owner and kind-of-change filters.
#[component]
fn ChangeFilters(query: Memo<ChangesQuery>, set_query: Callback<ChangesQuery>) -> impl IntoView {
    use crate::components::list_filters::{Choice, options, use_choices};
    let choices = use_choices();
    let owners = super::derive(appliers);
    let set = move |edit: &dyn Fn(&mut ChangesQuery, String), v: String| {
        let mut q = query.get_untracked();
        edit(&mut q, v);
        set_query.run(q);
    };
    let one = |v: String| if v.is_empty() { vec![] } else { vec![v] };
    let first = |v: Vec<String>| v.into_iter().next().unwrap_or_default();
    view! {
        <form class="fl-filters" on:submit=|ev| ev.prevent_default() aria-label="Filters">
            <label>
                "Namespace "
                <select
                    prop:value=move || first(query.get().namespaces)
                    on:change=move |ev| set(&|q, v| q.namespaces = one(v), event_target_value(&ev))
                >
                    <option value="">"all"</option>
                    {options(choices, Choice::Namespace)}
                </select>
            </label>
            <label>
                "Kind "
                <select
                    prop:value=move || first(query.get().kinds)
                    on:change=move |ev| set(&|q, v| q.kinds = one(v), event_target_value(&ev))
                >
                    <option value="">"all"</option>
                    {options(choices, Choice::Kind)}
                </select>
            </label>
            <label>
                "Applied by "
                <select
                    prop:value=move || {
                        query.get().owner.map(|o| o.to_string()).unwrap_or_default()
                    }
                    on:change=move |ev| {
                        set(
                            &|q, v| q.owner = fluxlens_core::ObjectKey::parse(&v),
                            event_target_value(&ev),
                        )
                    }
                >
                    <option value="">"anyone"</option>
                    {move || {
                        owners
                            .get()
                            .unwrap_or_default()
                            .into_iter()
                            .map(|o| view! { <option value=o.clone()>{o.clone()}</option> })
                            .collect_view()
                    }}
                </select>
            </label>
            <label>
                "Type of change "
                <select
                    prop:value=move || {
                        query
                            .get()
                            .changes
                            .first()
                            .map(|c| c.as_str().to_string())
                            .unwrap_or_default()
                    }
                    on:change=move |ev| {
                        set(
                            &|q, v| q.changes = ChangeKind::parse(&v).into_iter().collect(),
                            event_target_value(&ev),
                        )
                    }
                >
                    <option value="">"all"</option>
                    {ChangeKind::ALL
                        .map(|k| view! { <option value=k.as_str()>{k.as_str()}</option> })
                        .collect_view()}
                </select>
            </label>
        </form>
    }
}

/// The objects that apply others (Kustomizations, HelmReleases, ResourceSets, the FluxInstance).
fn appliers(d: &Loaded) -> Vec<String> {
    let mut out: Vec<String> = d
        .cluster
        .objects()
        .iter()
        .filter_map(|o| o.managed_by.as_ref().map(|k| k.to_string()))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// What the answer cannot know, each said once.
#[component]
fn Limits(shown: Memo<Option<Arc<Shown>>>) -> impl IntoView {
    let limits = Memo::new(move |_| {
        shown.with(|s| {
            s.as_ref()
                .map(|s| s.timeline.limits.clone())
                .unwrap_or_default()
        })
    });
    view! {
        <aside class="fl-notes" aria-label="What this cannot know" data-limits="">
            <ul>
                {move || {
                    limits
                        .get()
                        .into_iter()
                        .map(|l| view! { <li data-limit="">{l}</li> })
                        .collect_view()
                }}
            </ul>
        </aside>
    }
}

/// The rows, newest first; each keyed by its content, so a poll that adds one adds one row.
#[component]
fn ChangeList(shown: Memo<Option<Arc<Shown>>>) -> impl IntoView {
    let rows = Memo::new(move |_| {
        shown.with(|s| {
            s.as_ref()
                .map(|s| {
                    let now = s.now_ms;
                    content_keys(
                        s.timeline
                            .changes
                            .iter()
                            .map(|c| (c.clone(), now, s.timeline.origin_label(c)))
                            .collect(),
                    )
                })
                .unwrap_or_default()
        })
    });
    view! {
        <ol class="fl-timeline" aria-label="Changes, newest first">
            <For each=move || rows.get() key=|(k, _)| *k let:item>
                {change_row(item.1.0, item.1.1, item.1.2)}
            </For>
        </ol>
    }
}

fn change_row(c: Change, now_ms: i64, origin: String) -> impl IntoView {
    let when = match c.after_ms {
        Some(after) => format!(
            "between {} and {}",
            shown(after, now_ms),
            shown(c.at_ms, now_ms)
        ),
        None => shown(c.at_ms, now_ms),
    };
    let href = c
        .subject
        .object()
        .map(|k| crate::base::href(&link::graph_focusing(k)));
    let subject = c.subject.label();
    view! {
        <li
            class="fl-change"
            class:fl-change--failed=c.failed
            data-change=""
            data-subject=c.subject.hook()
            data-change-kind=c.kind.as_str()
            data-at=format_rfc3339(c.at_ms)
        >
            <time datetime=format_rfc3339(c.at_ms)>{when}</time>
            " "
            {match href {
                Some(h) => view! { <a href=h>{subject}</a> }.into_any(),
                None => view! { <strong>{subject}</strong> }.into_any(),
            }}
            " "
            <span class="fl-change__what">{c.what}</span>
            {(!c.detail.is_empty()).then(|| view! { <span class="fl-change__detail">" — "{c.detail}</span> })}
            <span class="fl-change__origin">{format!(" ({origin})")}</span>
        </li>
    }
}
