//! The side panel of a selected graph node: status, conditions, revision, findings, recent
//! events, and links to the other views.

use crate::components::findings::FindingsList;
use crate::components::status::StatusPill;
use crate::state::Loaded;
use fluxlens_core::ObjectKey;
use fluxlens_core::analyses::findings::for_subject;
use fluxlens_core::share::urlstate::link;
use fluxlens_core::util::revision::short_in;
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
        fluxlens_core::analyses::migration::checks_about(&data.migrations, id),
        referrers,
    ))
}

/// The object's page in the Flux Operator's own UI (`/resource/<Kind>/<ns>/<name>`), where that
/// UI shares the origin: beside it under a sub-path (the launcher kit). Standalone, fluxlens
/// does not know where the operator's UI is, and links nowhere rather than to a 404.
fn operator_page(id: &ObjectKey) -> Option<String> {
    let beside = !crate::base::app_base().is_empty();
    (beside && id.kind.crd_name().is_some()).then(|| {
        let part = fluxlens_core::util::query::encode;
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
    let findings: Vec<_> = for_subject(&data.per_object, &id).cloned().collect();
    let posture = data.postures.iter().find(|p| p.key == id).cloned();
    let checks: Vec<CheckAbout> =
        fluxlens_core::analyses::migration::checks_about(&data.migrations, &id)
            .into_iter()
            .map(|(m, stage, c)| CheckAbout {
                migration: m.to_string(),
                stage: stage.to_string(),
                label: c.label.clone(),
                outcome: c.outcome.as_str(),
            })
            .collect();
    let referrers: Vec<String> = data
        .cluster
        .objects()
        .iter()
        .filter(|o| o.refs.iter().any(|r| r.target == id))
        .map(|o| o.key.to_string())
        .collect();
    view! {
        <aside class="fl-panel" aria-labelledby="panel-title" data-panel=id.to_string()>
            <div class="fl-panel__head">
                <h2 id="panel-title">{id.to_string()}</h2>
                <button class="fl-btn" type="button" on:click=move |_| on_close.run(())>
                    "Close"
                </button>
            </div>
            {object_facts(&data, &id)}
            {posture.map(signature_facts)}
            {(!checks.is_empty()).then(|| checks_about(checks))}
            <h3>"Referenced by"</h3>
            <ul class="fl-refs">
                {referrers.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}
            </ul>
            <h3>"Findings"</h3>
            <FindingsList findings=findings />
            <h3>"Recent events"</h3>
            <RecentEvents id=id.clone() />
            {panel_links(&id)}
        </aside>
    }
}

/// The object's status, revision, owner and conditions; or what is known of a reference to an
/// object that is not there.
fn object_facts(data: &Loaded, id: &ObjectKey) -> AnyView {
    let Some(o) = data.cluster.get(id) else {
        let presence = data.cluster.presence(id);
        let status = if presence.is_missing() {
            fluxlens_core::Status::Missing
        } else {
            fluxlens_core::Status::NotVisible
        };
        return view! {
            <p data-presence=presence.describe()>
                <StatusPill status=status />
                " This object "
                {presence.describe()}
                "."
            </p>
        }
        .into_any();
    };
    let conditions = o.raw.status.conditions.clone();
    view! {
        <p>
            <StatusPill status=o.status />
            " "
            <span title=o.message.clone()>{short_in(&o.message)}</span>
        </p>
        <dl class="fl-facts">
            <dt>"Revision"</dt>
            <dd>
                <crate::components::digest::Digest value=o
                    .artifact_revision()
                    .or(o.last_applied_revision())
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
                        let shown = short_in(&message);
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

/// A source's signature posture: how it is verified, what was verified, what depends on it.
fn signature_facts(p: fluxlens_core::analyses::signatures::SourcePosture) -> impl IntoView {
    let verification = match (&p.provider, &p.verdict) {
        (None, _) => p.verification.label(),
        (Some(pr), Some(v)) => {
            format!(
                "{} — {pr}: SourceVerified={}",
                p.verification.label(),
                v.status
            )
        }
        (Some(pr), None) => format!("{} — {pr}", p.verification.label()),
    };
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
                {verification}
            </dd>
            <dt>"Verified revision"</dt>
            <dd>
                <crate::components::digest::Digest value=p
                    .verified_revision
                    .clone()
                    .unwrap_or_else(|| "—".into()) />
            </dd>
            <dt>"Blast radius"</dt>
            <dd>{format!("{} consumers, {} objects downstream", p.consumers, p.blast_radius)}</dd>
        </dl>
    }
}

/// One migration check that names the object.
struct CheckAbout {
    migration: String,
    stage: String,
    label: String,
    outcome: &'static str,
}

fn checks_about(checks: Vec<CheckAbout>) -> impl IntoView {
    view! {
        <h3>"Migration checks about it"</h3>
        <ul class="fl-checks" data-checks-about="">
            {checks
                .into_iter()
                .map(|c| {
                    view! {
                        <li data-check=c
                            .outcome>
                            {format!(
                                "{} · {}: {} — {}",
                                c.migration,
                                c.stage,
                                c.label,
                                c.outcome,
                            )}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}

/// The object's recent events: asked once per selection, through `api::object_events` (the one
/// HTTP door), which answers in the state tagged with the object so a stale answer is never
/// shown.
#[component]
fn RecentEvents(id: ObjectKey) -> impl IntoView {
    let state = crate::state::AppState::expect();
    // Only a new selection asks: the panel is rebuilt when what it shows changes (`shown`),
    // which a poll can do with the same object selected, and an equal set would still wake
    // the fetch (#23: 13 requests while panning, before the panel was keyed by `shown`).
    if state
        .events_wanted
        .with_untracked(|w| w.as_ref() != Some(&id))
    {
        state.events_wanted.set(Some(id.clone()));
    }
    let events = Memo::new(move |_| {
        state
            .object_events
            .with(|a| a.as_ref().filter(|(k, _)| *k == id).map(|(_, r)| r.clone()))
    });
    move || match events.get() {
        None => view! { <p class="fl-empty">"Loading events…"</p> }.into_any(),
        Some(Ok(ev)) if ev.is_empty() => view! { <p class="fl-empty">"No events."</p> }.into_any(),
        Some(Ok(ev)) => view! {
            <ul class="fl-events">
                {ev
                    .into_iter()
                    .take(20)
                    .map(|e| {
                        view! {
                            <li
                                class=format!("fl-event fl-event--{}", e.type_.to_lowercase())
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
        .into_any(),
        Some(Err(e)) => {
            view! { <p class="fl-empty">{format!("Events unavailable: {e}")}</p> }.into_any()
        }
    }
}

/// Where else the object is shown: its signature, the migrations, the operator's own page.
fn panel_links(id: &ObjectKey) -> impl IntoView + use<> {
    view! {
        <p class="fl-links">
            <a href=crate::base::href(&link::signatures_selecting(id))>"Signatures"</a>
            " · "
            <a href=crate::base::href("/migrations")>"Migrations"</a>
            {operator_page(id)
                .map(|href| {
                    view! {
                        " · "
                        <a href=href target="_top" data-operator-link="">
                            "Open in the Flux Operator UI"
                        </a>
                    }
                })}
        </p>
    }
}
