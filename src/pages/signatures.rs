use super::{derive, when_loaded};
use crate::components::digest::Digest;
use crate::components::findings::FindingsList;
use crate::components::hero::Hero;
use crate::components::keyed::content_keys;
use crate::components::list_filters::{ListFilters, use_list_query};
use crate::components::status::StatusPill;
use fluxlens_core::analyses::signatures::{SourcePosture, Verifiability, order};
use leptos::prelude::*;

/// The lead line's facts.
#[derive(Clone, PartialEq)]
struct Lead {
    verified: usize,
    verifiable: usize,
    root: String,
}

/// `/signatures`: the verification posture of every source, root first, with SIG findings.
/// Rows are keyed by content: a poll that changes one source rebuilds its row alone.
#[component]
pub fn SignaturesPage() -> impl IntoView {
    let (query, set_query) = use_list_query();
    view! {
        <section class="fl-page" aria-labelledby="sig-title">
            <h1 id="sig-title">"Artifact signatures"</h1>
            {when_loaded(move || {
                let verdict = derive(|d| {
                    let root = d.postures.iter().find(|p| p.is_root).map(|p| &p.verification);
                    fluxlens_core::analyses::verdict::signatures(&d.signatures, root, &d.findings)
                });
                let lead = derive(|d| Lead {
                    verified: d.signatures.verified,
                    verifiable: d.signatures.verifiable,
                    root: d.signatures.root_label().to_string(),
                });
                let state = crate::state::AppState::expect();
                let rows = Memo::new(move |_| {
                    let q = query.get();
                    state
                        .data
                        .with(|d| {
                            let Some(d) = d else { return vec![] };
                            let mut rows: Vec<SourcePosture> = d
                                .postures
                                .iter()
                                .filter(|p| {
                                    (q.kinds.is_empty()
                                        || q.kinds.iter().any(|k| k == p.key.kind.as_str()))
                                        && (q.namespaces.is_empty()
                                            || q.namespaces.contains(&p.key.namespace))
                                })
                                .cloned()
                                .collect();
                            order::sort(&mut rows, &q.sort);
                            let sel = q.selected.clone();
                            content_keys(
                                rows
                                    .into_iter()
                                    .map(|p| {
                                        let s = sel.as_ref() == Some(&p.key);
                                        (p, s)
                                    })
                                    .collect(),
                            )
                        })
                });
                let findings = super::findings_where(|r| r.starts_with("SIG-"), Some(query));
                let header = move |col: &'static str, label: &'static str| {
                    let aria = move || {
                        let sort = query.get().sort;
                        let (cur, desc) = order::parse(&sort);
                        if cur == col {
                            if desc { "descending" } else { "ascending" }
                        } else {
                            "none"
                        }
                    };
                    let click = Callback::new(move |()| {
                        let mut q = query.get_untracked();
                        q.sort = order::next(&q.sort, col);
                        set_query.run(q);
                    });
                    view! {
                        <crate::components::sort_header::SortHeader
                            column=col.to_string()
                            label
                            aria=Signal::derive(aria)
                            on_click=click
                        />
                    }
                };
                let fact = move |f: fn(&Lead) -> String| move || {
                    lead.with(|l| l.as_ref().map(f).unwrap_or_default())
                };
                view! {
                    {move || verdict.get().map(|v| view! { <Hero verdict=v /> })}
                    <p class="fl-lead" data-summary="signatures">
                        <strong data-count="verified">{fact(|l| l.verified.to_string())}</strong>
                        " of "
                        <strong data-count="verifiable">
                            {fact(|l| l.verifiable.to_string())}
                        </strong>
                        " verifiable sources verified; root source verified: "
                        <strong data-root-verified=fact(|l| {
                            l.root.clone()
                        })>{fact(|l| l.root.clone())}</strong>
                    </p>
                    <ListFilters query=query set_query=set_query />
                    <div class="fl-scroll" tabindex="0" role="region" aria-label="Sources">
                        <table class="fl-table" data-table="sources">
                            <thead>
                                <tr>
                                    {header("source", "Source")}{header("status", "Status")}
                                    {header("verifiable", "Verifiable")}
                                    {header("provider", "Provider")}
                                    <th scope="col">"SourceVerified"</th>
                                    <th scope="col">"Verified / artifact revision"</th>
                                    {header("consumers", "Consumers")}
                                    {header("blast", "Blast radius")}
                                </tr>
                            </thead>
                            <tbody>
                                <For each=move || rows.get() key=|(k, _)| *k let:item>
                                    {posture_row(item.1.0, item.1.1)}
                                </For>
                            </tbody>
                        </table>
                    </div>
                    <h2>"Signature findings"</h2>
                    <FindingsList findings=findings />
                }
            })}
        </section>
    }
}

/// Columns of the sources table (the details row spans them all).
const COLUMNS: &str = "8";

/// A source's row, then its details row: identity rules and the controller's message in full
/// width, so long patterns show whole instead of one character per line (#27).
fn posture_row(p: SourcePosture, sel: bool) -> impl IntoView {
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
    let rules = match p.identities.len() {
        0 => String::new(),
        1 => "1 identity rule".to_string(),
        n => format!("{n} identity rules"),
    };
    // Revision 3: the verdict cell says whether the source is verified, all things
    // considered, then the condition's status and reason; its message is in the details row.
    let condition = p
        .verdict
        .as_ref()
        .map(|c| format!("{} {}", c.status, c.reason.clone().unwrap_or_default()))
        .unwrap_or_else(|| "—".into());
    let message = p
        .verdict
        .as_ref()
        .and_then(|c| c.message.clone())
        .filter(|m| !m.is_empty());
    let verification = p.verification.clone();
    let key = p.key.to_string();
    let details = (!p.identities.is_empty() || message.is_some()).then(|| {
        view! {
            <tr class="fl-row-more" data-more-for=key.clone() class:fl-row--selected=sel>
                <td colspan=COLUMNS>
                    {(!p.identities.is_empty()).then(|| identity_list(&p.identities))}
                    {message.map(|m| view! {
                        <p class="fl-row-more__message" title=m.clone()>
                            "SourceVerified: " {fluxlens_core::util::revision::short_in(&m)}
                        </p>
                    })}
                </td>
            </tr>
        }
    });
    view! {
        <tr data-node-id=key.clone() data-root=p.is_root.to_string() class:fl-row--selected=sel class:fl-row--has-more=details.is_some()>
            <th scope="row"><a href=crate::base::href(&fluxlens_core::share::urlstate::link::graph_selecting(&p.key))>{key.clone()}</a>
                {p.is_root.then(|| view! { " " <span class="fl-badge">"root"</span> })}</th>
            <td><StatusPill status=p.status/></td>
            <td data-verifiable=verifiable.clone()>{verifiable.clone()}</td>
            <td>{p.provider.clone().map(|pr| format!("{pr}{mode}")).unwrap_or_else(|| "none".into())}
                {(!rules.is_empty()).then(|| view! { <span class="fl-fleet__note" data-identity-rules=p.identities.len()>{rules}</span> })}</td>
            <td data-verification=verification.as_str()><strong>{verification.label()}</strong><br/>{condition}</td>
            <td>{revision(p.verified_revision.clone())}<br/>{revision(p.artifact_revision.clone())}</td>
            <td data-consumers=p.consumers.to_string()>{p.consumers}</td>
            <td data-blast=p.blast_radius.to_string()>{p.blast_radius}</td>
        </tr>
        {details}
    }
}

/// Each keyless identity rule, issuer and subject as whole code blocks.
fn identity_list(ids: &[fluxlens_core::wire::object::OidcIdentity]) -> impl IntoView + use<> {
    view! {
        <ul class="fl-identities" aria-label="Identity rules">
            {ids
                .iter()
                .map(|i| {
                    view! {
                        <li>
                            <span class="fl-identities__what">"issuer"</span>
                            <code>{i.issuer.clone()}</code>
                            <span class="fl-identities__what">"subject"</span>
                            <code>{i.subject.clone()}</code>
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}

fn revision(r: Option<String>) -> AnyView {
    match r {
        Some(v) => view! { <Digest value=v /> }.into_any(),
        None => view! { <code>"—"</code> }.into_any(),
    }
}
