use super::{findings_with, with_data};
use leptos::prelude::*;

/// `/migrations`: where the cluster stands (distribution, installer, root sync) and findings.
#[component]
pub fn MigrationsPage() -> impl IntoView {
    view! {
        <section class="fl-page" aria-labelledby="mig-title">
            <h1 id="mig-title">"Migrations"</h1>
            {with_data(|d| {
                let dist = d.cluster.report.spec.distribution.clone();
                let sync = d.cluster.report.spec.sync.clone();
                view! {
                    <dl class="fl-facts">
                        <dt>"Installed by"</dt><dd data-fact="managed-by">{dist.managed_by.unwrap_or_else(|| "unknown".into())}</dd>
                        <dt>"Root sync"</dt><dd data-fact="root-kustomization">{d.cluster.root_kustomization().map(|k| k.to_string()).unwrap_or_else(|| "none".into())}</dd>
                        <dt>"Root source"</dt><dd data-fact="root-source">{d.cluster.root_source().map(|k| k.to_string()).unwrap_or_else(|| "unknown".into())}</dd>
                        <dt>"Sync source URL"</dt><dd>{sync.and_then(|s| s.source).unwrap_or_else(|| "—".into())}</dd>
                    </dl>
                    <crate::components::findings::FindingsList findings=findings_with(&d, &["MIG-"])/>
                }
            })}
        </section>
    }
}
