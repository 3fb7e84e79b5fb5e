//! Severity / kind / namespace filters of the list views, read from and written to the URL.

use crate::state::Loaded;
use fluxlens_core::analyses::findings::Severity;
use fluxlens_core::share::urlstate::ListQuery;
use leptos::prelude::*;

/// The list query of the current URL and a setter that replaces it.
pub fn use_list_query() -> (Memo<ListQuery>, Callback<ListQuery>) {
    let location = crate::router::use_location();
    let query = Memo::new(move |_| ListQuery::from_query(&location.search.get()));
    let set = Callback::new(move |q: ListQuery| {
        crate::router::push_query(location, &q.to_query());
    });
    (query, set)
}

/// The namespaces and kinds a filter can pick from.
#[derive(Clone, PartialEq, Default)]
pub struct Choices {
    pub namespaces: Vec<String>,
    pub kinds: Vec<String>,
}

/// Which list of [`Choices`].
#[derive(Clone, Copy)]
pub enum Choice {
    Namespace,
    Kind,
}

/// The choices of the loaded data; a poll that adds none leaves the filter bar as it is (its
/// open select, its focus).
pub fn use_choices() -> Memo<Choices> {
    let state = crate::state::AppState::expect();
    Memo::new(move |_| {
        state.data.with(|d| {
            d.as_deref()
                .map(|d: &Loaded| Choices {
                    namespaces: d.cluster.namespaces(),
                    kinds: d.summary.kind_names(),
                })
                .unwrap_or_default()
        })
    })
}

/// The `<option>`s of one choice list, following the data in place.
pub fn options(choices: Memo<Choices>, which: Choice) -> impl IntoView {
    move || {
        choices.with(|c| {
            let list = match which {
                Choice::Namespace => &c.namespaces,
                Choice::Kind => &c.kinds,
            };
            list.iter()
                .map(|k| view! { <option value=k.clone()>{k.clone()}</option> })
                .collect_view()
        })
    }
}

/// The filter bar.
#[component]
pub fn ListFilters(
    /// Current query.
    query: Memo<ListQuery>,
    /// Writes the query.
    set_query: Callback<ListQuery>,
) -> impl IntoView {
    let choices = use_choices();
    let set_one = move |field: &'static str, v: String| {
        let mut q = query.get_untracked();
        let list = if v.is_empty() { vec![] } else { vec![v] };
        match field {
            "sev" => q.severities = list.iter().filter_map(|s| Severity::parse(s)).collect(),
            "kind" => q.kinds = list,
            _ => q.namespaces = list,
        }
        set_query.run(q);
    };
    let first = |v: Vec<String>| v.into_iter().next().unwrap_or_default();
    view! {
        <form class="fl-filters" on:submit=|ev| ev.prevent_default() aria-label="Filters">
            <label>
                "Severity "
                <select
                    prop:value=move || {
                        query
                            .get()
                            .severities
                            .first()
                            .map(|s| s.as_str().to_string())
                            .unwrap_or_default()
                    }
                    on:change=move |ev| set_one("sev", event_target_value(&ev))
                >
                    <option value="">"all"</option>
                    {["critical", "high", "medium", "low", "info"]
                        .map(|s| view! { <option value=s>{s}</option> })
                        .collect_view()}
                </select>
            </label>
            <label>
                "Kind "
                <select
                    prop:value=move || first(query.get().kinds)
                    on:change=move |ev| set_one("kind", event_target_value(&ev))
                >
                    <option value="">"all"</option>
                    {options(choices, Choice::Kind)}
                </select>
            </label>
            <label>
                "Namespace "
                <select
                    prop:value=move || first(query.get().namespaces)
                    on:change=move |ev| set_one("ns", event_target_value(&ev))
                >
                    <option value="">"all"</option>
                    {options(choices, Choice::Namespace)}
                </select>
            </label>
        </form>
    }
}
