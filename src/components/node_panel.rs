//! The side panel of a selected graph node: status, conditions, revision, findings, recent
//! events, and links to the other views.

use crate::components::findings::FindingsList;
use crate::components::status::StatusPill;
use crate::state::Loaded;
use fluxlens_core::ObjectKey;
use fluxlens_core::findings::for_subject;
use leptos::prelude::*;
use std::sync::Arc;

/// What the panel of `id` shows, as a fingerprint: the panel is rebuilt only when this
/// changes (the object's events follow the object itself, `api::object_events`).
pub fn shown(data: &Loaded, id: &ObjectKey) -> u64 {
    let referrers: Vec<&ObjectKey> = data
        .cluster
        .objects()
        .iter()
        .filter(|o| o.refs.iter().any(|r| &r.target == id))
        .map(|o| &o.key)
        .collect();
    crate::components::keyed::content_hash(&(
        data.cluster.get(id),
        for_subject(&data.per_object, id).collect::<Vec<_>>(),
        data.postures.iter().find(|p| &p.key == id),
        fluxlens_core::migration::checks_about(&data.migrations, id),
        referrers,
    ))
}

/// The object's page in the Flux Operator's own UI (`/resource/<Kind>/<ns>/<name>`), where that
/// UI shares the origin: beside it under a sub-path (the launcher kit). Standalone, fluxlens
/// does not know where the operator's UI is, and links nowhere rather than to a 404.
fn operator_page(id: &ObjectKey) -> Option<String> {
    let beside = !crate::base::app_base().is_empty();
    (beside && id.kind.crd_name().is_some()).then(|| {
        let part = fluxlens_core::urlstate::encode;
        format!(
            "/resource/{}/{}/{}",
            part(id.kind.as_str()),
            part(&id.namespace),
            part(&id.name)
        )
    })
}

/// Details of one object (or of a missing reference).
#[component]
pub fn NodePanel(
    /// Loaded data.
    data: Arc<Loaded>,
    /// The selected node's id.
    id: ObjectKey,
    /// Closes the panel.
    on_close: Callback<()>,
) -> impl IntoView {
    let obj = data.cluster.get(&id).cloned();
    let findings: Vec<_> = for_subject(&data.per_object, &id).cloned().collect();
    let posture = data.postures.iter().find(|p| p.key == id).cloned();
    let checks: Vec<(String, String, String, &'static str)> =
        fluxlens_core::migration::checks_about(&data.migrations, &id)
            .into_iter()
            .map(|(m, stage, c)| {
                let pass = c.outcome.as_str();
                (m.to_string(), stage.to_string(), c.label.clone(), pass)
            })
            .collect();
    let referrers: Vec<String> = data
        .cluster
        .objects()
        .iter()
        .filter(|o| o.refs.iter().any(|r| r.target == id))
        .map(|o| o.key.to_string())
        .collect();
    // The panel names the object; `api::object_events` fetches (the one HTTP door) and
    // answers in the state, tagged with the object so a stale answer is never shown.
    let state = crate::state::AppState::expect();
    // Only a new selection asks: the panel is rebuilt by pans and polls, and an equal set
    // would still wake the fetch (#23: 13 requests while panning).
    if state
        .events_wanted
        .with_untracked(|w| w.as_ref() != Some(&id))
    {
        state.events_wanted.set(Some(id.clone()));
    }
    let events = {
        let id = id.clone();
        Memo::new(move |_| {
            state
                .object_events
                .with(|a| a.as_ref().filter(|(k, _)| *k == id).map(|(_, r)| r.clone()))
        })
    };
    let body = match obj {
        None => {
            let presence = data.cluster.presence(&id);
            let status = if presence.is_missing() {
                fluxlens_core::Status::Missing
            } else {
                fluxlens_core::Status::NotVisible
            };
            view! {
                <p data-presence=presence.describe()>
                    <StatusPill status=status />
                    " This object "
                    {presence.describe()}
                    "."
                </p>
            }
            .into_any()
        }
        Some(o) => {
            let conditions = o.raw.status.conditions.clone();
            view! {
                <p>
                    <StatusPill status=o.status />
                    " "
                    <span title=o
                        .message
                        .clone()>{fluxlens_core::revision::short_in(&o.message)}</span>
                </p>
                <dl class="fl-facts">
                    <dt>"Revision"</dt>
                    <dd>
                        <crate::components::digest::Digest value=o
                            .artifact_revision()
                            .or(o.raw.status.last_applied_revision.as_deref())
                            .unwrap_or("—")
                            .to_string() />
                    </dd>
                    <dt>"Managed by"</dt>
                    <dd data-owner="">{o.owner_label()}</dd>
                </dl>
                <table class="fl-table">
                    <caption>"Conditions"</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Type"</th>
                            <th scope="col">"Status"</th>
                            <th scope="col">"Reason"</th>
                            <th scope="col">"Message"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {conditions
                            .into_iter()
                            .map(|c| {
                                let message = c.message.unwrap_or_default();
                                let shown = fluxlens_core::revision::short_in(&message);
                                view! {
                                    <tr>
                                        <td>{c.type_}</td>
                                        <td>{c.status}</td>
                                        <td>{c.reason.unwrap_or_default()}</td>
                                        <td title=message>{shown}</td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            }
            .into_any()
        }
    };
    view! {
        <aside class="fl-panel" aria-labelledby="panel-title" data-panel=id.to_string()>
            <div class="fl-panel__head">
                <h2 id="panel-title">{id.to_string()}</h2>
                <button class="fl-btn" type="button" on:click=move |_| on_close.run(())>
                    "Close"
                </button>
            </div>
            {body}
            {posture
                .map(|p| {
                    view! {
                        <h3>"Signature"</h3>
                        <dl class="fl-facts" data-posture="">
                            <dt>"Verification"</dt>
                            <dd
                                data-verified=p
                                    .verdict
                                    .as_ref()
                                    .map(|v| v.status.clone())
                                    .unwrap_or_else(|| "none".into())
                                data-verification=p.verification.as_str()
                            >
                                {match (&p.provider, &p.verdict) {
                                    (None, _) => p.verification.label(),
                                    (Some(pr), Some(v)) => {
                                        format!(
                                            "{} — {pr}: SourceVerified={}",
                                            p.verification.label(),
                                            v.status,
                                        )
                                    }
                                    (Some(pr), None) => {
                                        format!("{} — {pr}", p.verification.label())
                                    }
                                }}
                            </dd>
                            <dt>"Verified revision"</dt>
                            <dd>
                                <crate::components::digest::Digest value=p
                                    .verified_revision
                                    .clone()
                                    .unwrap_or_else(|| "—".into()) />
                            </dd>
                            <dt>"Blast radius"</dt>
                            <dd>
                                {format!(
                                    "{} consumers, {} objects downstream",
                                    p.consumers,
                                    p.blast_radius,
                                )}
                            </dd>
                        </dl>
                    }
                })}
            {(!checks.is_empty())
                .then(|| {
                    view! {
                        <h3>"Migration checks about it"</h3>
                        <ul class="fl-checks" data-checks-about="">
                            {checks
                                .into_iter()
                                .map(|(m, stage, label, pass)| {
                                    view! {
                                        <li data-check=pass>
                                            {format!("{m} · {stage}: {label} — {pass}")}
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                })}
            <h3>"Referenced by"</h3>
            <ul class="fl-refs">
                {referrers.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}
            </ul>
            <h3>"Findings"</h3>
            <FindingsList findings=findings />
            <h3>"Recent events"</h3>
            {move || {
                match events.get() {
                    None => view! { <p class="fl-empty">"Loading events…"</p> }.into_any(),
                    Some(Ok(ev)) if ev.is_empty() => {
                        view! { <p class="fl-empty">"No events."</p> }.into_any()
                    }
                    Some(Ok(ev)) => {
                        view! {
                            <ul class="fl-events">
                                {ev
                                    .into_iter()
                                    .take(20)
                                    .map(|e| {
                                        view! {
                                            <li
                                                class=format!(
                                                    "fl-event fl-event--{}",
                                                    e.type_.to_lowercase(),
                                                )
                                                data-event-type=e.type_.clone()
                                            >
                                                <time>{e.last_timestamp.unwrap_or_default()}</time>
                                                " "
                                                <strong>{e.type_.clone()}</strong>
                                                " "
                                                {e.message}
                                            </li>
                                        }
                                    })
                                    .collect_view()}
                            </ul>
                        }
                            .into_any()
                    }
                    Some(Err(e)) => {
                        view! { <p class="fl-empty">{format!("Events unavailable: {e}")}</p> }
                            .into_any()
                    }
                }
            }}
            <p class="fl-links">
                <a href=crate::base::href(
                    &format!("/signatures?sel={}", fluxlens_core::urlstate::encode(&id.to_string())),
                )>"Signatures"</a>
                " · "
                <a href=crate::base::href("/migrations")>"Migrations"</a>
                {operator_page(&id)
                    .map(|href| {
                        view! {
                            " · "
                            <a href=href target="_top" data-operator-link="">
                                "Open in the Flux Operator UI"
                            </a>
                        }
                    })}
            </p>
        </aside>
    }
}
