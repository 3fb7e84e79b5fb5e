use super::with_data;
use crate::components::digest::Digest;
use crate::components::findings::FindingsList;
use crate::components::hero::Hero;
use crate::components::list_filters::{ListFilters, use_list_query};
use crate::components::status::StatusPill;
use fluxlens_core::signatures::{SourcePosture, Verifiability, order};
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
                let root_posture = d.postures.iter().find(|p| p.is_root).map(|p| &p.verification);
                let verdict = fluxlens_core::verdict::signatures(&s, root_posture, &d.findings);
                let mut rows: Vec<SourcePosture> = d.postures.iter().filter(|p| {
                    (q.kinds.is_empty() || q.kinds.iter().any(|k| k == p.key.kind.as_str())) && (q.namespaces.is_empty() || q.namespaces.contains(&p.key.namespace))
                }).cloned().collect();
                order::sort(&mut rows, &q.sort);
                let findings: Vec<_> = d.findings.iter().filter(|f| f.rule.starts_with("SIG-") && q.admits(f)).cloned().collect();
                let root = s.root_label();
                let sort = q.sort.clone();
                let header = |col: &'static str, label: &'static str| {
                    let (cur, desc) = order::parse(&sort);
                    let aria = if cur == col { if desc { "descending" } else { "ascending" } } else { "none" };
                    let click = move |_| {
                        let mut q = query.get_untracked();
                        q.sort = order::next(&q.sort, col);
                        set_query.run(q);
                    };
                    view! {
                        <th scope="col" aria-sort=aria data-sort=col>
                            <button class="fl-sort" type="button" on:click=click>{label}
                                <span aria-hidden="true">{match aria { "ascending" => " ▲", "descending" => " ▼", _ => "" }}</span>
                            </button>
                        </th>
                    }
                };
                view! {
                    <Hero verdict=verdict/>
                    <p class="fl-lead" data-summary="signatures">
                        <strong data-count="verified">{s.verified}</strong>" of "<strong data-count="verifiable">{s.verifiable}</strong>
                        " verifiable sources verified; root source verified: "<strong data-root-verified=root>{root}</strong>
                    </p>
                    <ListFilters data=d.clone() query=query set_query=set_query/>
                    <div class="fl-scroll">
                    <table class="fl-table" data-table="sources">
                        <thead><tr>
                            {header("source", "Source")}{header("status", "Status")}{header("verifiable", "Verifiable")}{header("provider", "Provider")}
                            <th scope="col">"Identity rules"</th><th scope="col">"SourceVerified"</th><th scope="col">"Verified / artifact revision"</th>
                            {header("consumers", "Consumers")}{header("blast", "Blast radius")}
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
    // Revision 3: the verdict cell says whether the source is verified, all things
    // considered, then what the controller wrote.
    let condition = p
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
    let verification = p.verification.clone();
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
            <td data-verification=verification.as_str()><strong>{verification.label()}</strong><br/>{condition}</td>
            <td>{revision(p.verified_revision.clone())}<br/>{revision(p.artifact_revision.clone())}</td>
            <td data-consumers=p.consumers.to_string()>{p.consumers}</td>
            <td data-blast=p.blast_radius.to_string()>{p.blast_radius}</td>
        </tr>
    }
}

fn revision(r: Option<String>) -> AnyView {
    match r {
        Some(v) => view! { <Digest value=v/> }.into_any(),
        None => view! { <code>"—"</code> }.into_any(),
    }
}
