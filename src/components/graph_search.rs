//! The graph's search box: filters as you type, says how many objects match, and makes one
//! history entry per search, not one per keystroke.

use fluxlens_core::share::urlstate::GraphQuery;
use leptos::prelude::*;

/// How long typing must pause before the graph is filtered again (a large graph is laid out
/// anew for each search).
const TYPING_SETTLE_MS: u32 = 150;

/// "Search" with a live count of matching objects (`data-search-count`).
#[component]
pub fn GraphSearch(
    query: Memo<GraphQuery>,
    set_query: Callback<GraphQuery>,
    /// Objects the filters and search match.
    #[prop(into)]
    matched: Signal<usize>,
) -> impl IntoView {
    let location = crate::router::use_location();
    let typed = StoredValue::new(0u32);
    // The first keystroke of a search is a history entry; the rest rewrite it, so Back
    // returns to the graph before the search.
    let session = StoredValue::new(false);
    let on_input = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        typed.update_value(|n| *n += 1);
        let mine = typed.get_value();
        leptos::task::spawn_local(async move {
            gloo_timers::future::TimeoutFuture::new(TYPING_SETTLE_MS).await;
            if typed.try_get_value() != Some(mine) {
                return;
            }
            let mut q = query.get_untracked();
            q.filter.query = v;
            if session.get_value() {
                crate::router::replace_query(location, &q.to_query());
            } else {
                session.set_value(true);
                set_query.run(q);
            }
        });
    };
    let count = move || {
        let q = query.with(|q| q.filter.query.clone());
        (!q.is_empty()).then(|| {
            let n = matched.get();
            let text = match n {
                0 => "no match".to_string(),
                1 => "1 match".to_string(),
                n => format!("{n} matches"),
            };
            view! {
                <output class="fl-search-count" data-search-count=n aria-live="polite">
                    {text}
                </output>
            }
        })
    };
    view! {
        <label>
            <span class="fl-search__label">"Search "</span>
            <input
                type="search"
                data-graph-search=""
                aria-keyshortcuts="/"
                placeholder="Kind/namespace/name"
                prop:value=move || query.get().filter.query
                on:input=on_input
                on:change=move |_| session.set_value(false)
            />
        </label>
        {count}
    }
}
