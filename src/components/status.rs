//! Status pill.

use fluxlens_core::Status;
use leptos::prelude::*;

/// A status shown as a pill with text (colour is never the only signal).
#[component]
pub fn StatusPill(
    /// The status.
    status: Status,
) -> impl IntoView {
    view! {
        <span class=format!("fl-pill {}", status.css_class()) data-status=status.as_str()>
            {status.as_str()}
        </span>
    }
}
