//! Long revisions and digests shortened for tables, with the full value kept one click away.

use leptos::prelude::*;

/// A revision or digest: short in place, the full value as `title`, a button that copies it.
#[component]
pub fn Digest(
    /// The full value.
    value: String,
) -> impl IntoView {
    let shown = fluxlens_core::util::revision::short(&value);
    let full = value.clone();
    let (copied, set_copied) = signal(false);
    let copy = move |_| {
        if let Some(w) = web_sys::window() {
            // Writing to the clipboard is asynchronous; the promise is not awaited on purpose.
            let _ = w.navigator().clipboard().write_text(&full);
            set_copied.set(true);
        }
    };
    // Cut by CSS past 18rem (about 32 characters), so a long value keeps its copy button too.
    let shortened = shown != value || value.chars().count() > 32;
    view! {
        <span class="fl-digest" data-digest=value.clone()>
            <code title=value.clone()>{shown}</code>
            {shortened
                .then(|| {
                    view! {
                        <button
                            class="fl-copy"
                            type="button"
                            on:click=copy
                            aria-label=format!("Copy {value}")
                        >
                            {move || if copied.get() { "copied" } else { "copy" }}
                        </button>
                    }
                })}
        </span>
    }
}
