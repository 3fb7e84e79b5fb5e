use super::{findings_with, with_data};
use crate::components::status::StatusPill;
use fluxlens_core::kind::Role;
use leptos::prelude::*;

/// `/signatures`: every source with its verify configuration and SourceVerified verdict.
#[component]
pub fn SignaturesPage() -> impl IntoView {
    view! {
        <section class="fl-page" aria-labelledby="sig-title">
            <h1 id="sig-title">"Artifact signatures"</h1>
            {with_data(|d| {
                let root = d.cluster.root_source();
                let mut sources: Vec<_> = d.cluster.objects().iter().filter(|o| o.key.kind.role() == Role::Source).collect();
                sources.sort_by_key(|o| Some(&o.key) != root.as_ref());
                view! {
                    <table class="fl-table" data-table="sources">
                        <thead><tr><th scope="col">"Source"</th><th scope="col">"Status"</th><th scope="col">"Verify provider"</th><th scope="col">"SourceVerified"</th><th scope="col">"Revision"</th></tr></thead>
                        <tbody>
                            {sources.into_iter().map(|o| {
                                let is_root = Some(&o.key) == root.as_ref();
                                let verify = o.raw.spec.verify.as_ref().map(|v| v.provider.clone().unwrap_or_else(|| "configured".into())).unwrap_or_else(|| "none".into());
                                let verdict = o.condition("SourceVerified").map(|c| format!("{} {}", c.status, c.message.clone().unwrap_or_default())).unwrap_or_else(|| "—".into());
                                view! {
                                    <tr data-node-id=o.key.to_string() data-root=is_root.to_string()>
                                        <th scope="row">{o.key.to_string()}{is_root.then_some(" (root)")}</th>
                                        <td><StatusPill status=o.status/></td>
                                        <td>{verify}</td>
                                        <td>{verdict}</td>
                                        <td><code>{o.artifact_revision().unwrap_or("—").to_string()}</code></td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                    <crate::components::findings::FindingsList findings=findings_with(&d, &["SIG-"])/>
                }
            })}
        </section>
    }
}
