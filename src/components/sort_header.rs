//! A sortable column header: the `<th>` with its `aria-sort`, a button, and the arrow. The
//! pages say which way it sorts and what a click does (signatures, fleet).

use leptos::prelude::*;

/// `aria-sort` of the column (`none`, `ascending`, `descending`) and what a click does.
#[component]
pub fn SortHeader(
    /// `data-sort`: the column's name in the URL.
    column: String,
    label: &'static str,
    aria: Signal<&'static str>,
    on_click: Callback<()>,
) -> impl IntoView {
    view! {
        <th scope="col" aria-sort=aria data-sort=column>
            <button class="fl-sort" type="button" on:click=move |_| on_click.run(())>
                {label}
                <span aria-hidden="true">
                    {move || match aria.get() {
                        "ascending" => " ▲",
                        "descending" => " ▼",
                        _ => "",
                    }}
                </span>
            </button>
        </th>
    }
}
