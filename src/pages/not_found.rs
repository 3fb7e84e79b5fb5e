use leptos::prelude::*;

/// Shown for unknown routes.
#[component]
pub fn NotFoundPage() -> impl IntoView {
    view! {
        <section class="fl-page" aria-labelledby="nf-title">
            <h1 id="nf-title">"Page not found"</h1>
            <p>
                "This address is not a fluxlens view. "
                <a href=crate::base::href("/")>"Go to the overview"</a>"."
            </p>
        </section>
    }
}
