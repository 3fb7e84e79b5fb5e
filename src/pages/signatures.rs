use super::with_data;
use crate::components::findings::FindingsList;
use crate::components::list_filters::{ListFilters, use_list_query};
use crate::components::status::StatusPill;
use fluxlens_core::signatures::{SourcePosture, Verifiability};
use leptos::prelude::*;

/// `/signatures`: the verification posture of every source, root first, with SIG findings.
#[component]
pub fn SignaturesPage() -> impl IntoView {
    let (query, set_query) = use_list_query();
    view! {
        <section class="fl-page" aria-labelledby="sig-title">
            <h1 id="sig-title">"Artifact signatures"</h1>
            {with_data(move |d| {
                let s = d.signatures;
                let q = query.get();
                let rows: Vec<SourcePosture> = d.postures.iter().filter(|p| {
                    (q.kinds.is_empty() || q.kinds.iter().any(|k| k == p.key.kind.as_str())) && (q.namespaces.is_empty() || q.namespaces.contains(&p.key.namespace))
                }).cloned().collect();
                let findings: Vec<_> = d.findings.iter().filter(|f| f.rule.starts_with("SIG-") && q.admits(f)).cloned().collect();
                let root = match s.root_verified { Some(true) => "yes", Some(false) => "no", None => "unknown" };
                view! {
                    <p class="fl-lead" data-summary="signatures">
                        <strong data-count="verified">{s.verified}</strong>" of "<strong data-count="verifiable">{s.verifiable}</strong>
                        " verifiable sources verified; root source verified: "<strong data-root-verified=root>{root}</strong>
                    </p>
                    <ListFilters data=d.clone() query=query set_query=set_query/>
                    <div class="fl-scroll">
                    <table class="fl-table" data-table="sources">
                        <thead><tr>
                            <th scope="col">"Source"</th><th scope="col">"Status"</th><th scope="col">"Verifiable"</th><th scope="col">"Provider"</th>
                            <th scope="col">"Identity rules"</th><th scope="col">"SourceVerified"</th><th scope="col">"Verified / artifact revision"</th>
                            <th scope="col">"Consumers"</th><th scope="col">"Blast radius"</th>
                        </tr></thead>
                        <tbody>{rows.into_iter().map(|p| posture_row(p, q.selected.clone())).collect_view()}</tbody>
                    </table>
                    </div>
                    <h2>"Signature findings"</h2>
                    <FindingsList findings=findings/>
                }
            })}
        </section>
    }
}

fn posture_row(p: SourcePosture, selected: Option<fluxlens_core::ObjectKey>) -> impl IntoView {
    let verifiable = match &p.verifiable {
        Verifiability::Yes => "yes".to_string(),
        Verifiability::No(why) => format!("no — {why}"),
        Verifiability::ProducerDefined => "producer-defined".to_string(),
    };
    let mode = match p.keyed {
        Some(true) => " (keyed)",
        Some(false) => " (keyless)",
        None => "",
    };
    let verdict = p
        .verdict
        .as_ref()
        .map(|c| {
            format!(
                "{} {}: {}",
                c.status,
                c.reason.clone().unwrap_or_default(),
                c.message.clone().unwrap_or_default()
            )
        })
        .unwrap_or_else(|| "—".into());
    let sel = selected.as_ref() == Some(&p.key);
    view! {
        <tr data-node-id=p.key.to_string() data-root=p.is_root.to_string() class:fl-row--selected=sel>
            <th scope="row"><a href=crate::base::href(&format!("/graph?sel={}", fluxlens_core::urlstate::encode(&p.key.to_string())))>{p.key.to_string()}</a>
                {p.is_root.then(|| view! { " " <span class="fl-badge">"root"</span> })}</th>
            <td><StatusPill status=p.status/></td>
            <td data-verifiable=verifiable.clone()>{verifiable.clone()}</td>
            <td>{p.provider.clone().map(|pr| format!("{pr}{mode}")).unwrap_or_else(|| "none".into())}</td>
            <td>{if p.identities.is_empty() { view! { <span>"—"</span> }.into_any() } else { view! {
                <ul class="fl-identities">{p.identities.iter().map(|i| view! { <li>"issuer "<code>{i.issuer.clone()}</code><br/>"subject "<code>{i.subject.clone()}</code></li> }).collect_view()}</ul>
            }.into_any() }}</td>
            <td>{verdict}</td>
            <td><code>{p.verified_revision.clone().unwrap_or_else(|| "—".into())}</code><br/><code>{p.artifact_revision.clone().unwrap_or_else(|| "—".into())}</code></td>
            <td data-consumers=p.consumers.to_string()>{p.consumers}</td>
            <td data-blast=p.blast_radius.to_string()>{p.blast_radius}</td>
        </tr>
    }
}
