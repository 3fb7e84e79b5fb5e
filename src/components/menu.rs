//! A compact menu: a button that opens a panel of actions or filters (`<details>`, so it works
//! with the keyboard and without script), closed again by Escape or a click outside it.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// `label` as a button; `children` in the panel it opens. `badge` (e.g. the number of active
/// filters) is shown beside the label when it is not empty.
#[component]
pub fn Menu(
    /// The button's text.
    label: &'static str,
    /// What `data-menu` says (tests and embedders open a menu by it).
    id: &'static str,
    /// A short count beside the label, empty for none.
    #[prop(optional, into)]
    badge: Signal<String>,
    /// Where the panel opens: `true` to the left edge of the button, else to its right edge.
    #[prop(optional)]
    start: bool,
    children: Children,
) -> impl IntoView {
    view! {
        <details class="fl-menu" data-menu=id>
            <summary class="fl-btn">
                {label}
                <span class="fl-badge" hidden=move || badge.with(String::is_empty)>
                    {move || badge.get()}
                </span>
            </summary>
            <div class="fl-menu__panel" class:fl-menu__panel--start=start>
                {children()}
            </div>
        </details>
    }
}

/// Closes open menus on Escape and on a click outside them (installed once by the app).
pub fn close_on_outside() {
    let close = |keep: Option<web_sys::Element>| {
        let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Ok(open) = doc.query_selector_all("details.fl-menu[open]") else {
            return;
        };
        for i in 0..open.length() {
            let Some(el) = open
                .get(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            else {
                continue;
            };
            let inside = keep
                .as_ref()
                .is_some_and(|t| el.contains(Some(t.unchecked_ref())));
            if !inside {
                let _ = el.remove_attribute("open");
            }
        }
    };
    let click = window_event_listener(leptos::ev::click, move |ev| {
        close(
            ev.target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok()),
        );
    });
    let key = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.key() == "Escape" {
            close(None);
        }
    });
    // The app's lifetime: both listeners stay.
    std::mem::forget((click, key));
}
