use super::{findings_with, with_data};
use leptos::prelude::*;

/// `/compliance`: the components as the report lists them, and compliance findings.
#[component]
pub fn CompliancePage() -> impl IntoView {
    view! {
        <section class="fl-page" aria-labelledby="ent-title">
            <h1 id="ent-title">"Flux Enterprise compliance"</h1>
            {with_data(|d| {
                let spec = d.cluster.report.spec.clone();
                view! {
                    <p>"Entitlement: " <span data-fact="entitlement">{spec.distribution.entitlement.unwrap_or_else(|| "Unknown".into())}</span></p>
                    <table class="fl-table" data-table="components">
                        <thead><tr><th scope="col">"Component"</th><th scope="col">"Ready"</th><th scope="col">"Image"</th></tr></thead>
                        <tbody>
                            {spec.components.into_iter().map(|c| view! {
                                <tr><th scope="row">{c.name}</th><td>{if c.ready == Some(true) { "yes" } else { "no" }}</td><td><code>{c.image.unwrap_or_default()}</code></td></tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                    <crate::components::findings::FindingsList findings=findings_with(&d, &["ENT-"])/>
                }
            })}
        </section>
    }
}
