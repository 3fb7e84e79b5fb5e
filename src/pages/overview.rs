use super::{derive, when_loaded};
use crate::components::findings::FindingsList;
use crate::components::hero::Hero;
use crate::components::keyed::content_keys;
use fluxlens_core::Status;
use fluxlens_core::analyses::migration::Migration;
use fluxlens_core::analyses::summary::ClusterSummary;
use leptos::prelude::*;
use std::sync::Arc;

/// What the compliance card says.
#[derive(Clone, PartialEq)]
struct ComplianceCard {
    variant: &'static str,
    tally: fluxlens_core::analyses::compliance::Tally,
    worst: String,
}

/// `/`: objects by kind and status, missing references, findings. Each section reads its own
/// memo, so a poll that changes one object re-renders only the numbers and rows it moves.
#[component]
pub fn OverviewPage() -> impl IntoView {
    view! {
        <section class="fl-page" aria-labelledby="ov-title">
            <h1 id="ov-title">"Overview"</h1>
            {when_loaded(|| {
                let verdict = derive(|d| {
                    fluxlens_core::analyses::verdict::overview(
                        &d.findings,
                        d.summary.unsettled.as_ref(),
                    )
                });
                let summary = derive(|d| d.summary.clone());
                let findings = derive(|d| d.findings.clone());
                view! {
                    {move || verdict.get().map(|v| view! { <Hero verdict=v /> })}
                    {since_last_visit()}
                    <div class="fl-cards">
                        {count_cards(summary)} {signature_card()} {compliance_card()}
                        {findings_card(summary)}
                    </div>
                    {migration_cards()}
                    {by_kind_table(summary)}
                    <h2>"Findings"</h2>
                    <FindingsList findings=Signal::derive(move || {
                        findings.get().unwrap_or_default()
                    }) />
                }
            })}
        </section>
    }
}

/// What "since your last visit" says: when that visit read the cluster, when this one did
/// (ms since the epoch) and what differs (`None`: nothing).
#[derive(Clone, PartialEq)]
struct SinceLastVisit {
    at: i64,
    now: i64,
    phrase: Option<String>,
}

crate::chunks::in_chunk! { fluxlens_snapshot:
    /// Compares this read with the last kept visit (the visits' chunk is here once they are).
    fn since_last_visit_of(
        visits: Arc<fluxlens_core::share::visits::Visits>,
        data: Arc<crate::state::Loaded>,
    ) -> Option<SinceLastVisit> {
        use fluxlens_core::analyses::changes::{diff, digest::VisitDigest, summary};
        visits.last().map(|last| {
            let now = VisitDigest::of(&data.cluster, &data.analysis);
            SinceLastVisit {
                at: last.read_at_ms,
                now: now.read_at_ms,
                phrase: summary::phrase(&diff::between(last, &now)),
            }
        })
    }
}

/// One line on what changed since the read kept at the last visit (#49), with a link to the
/// timeline; nothing before this visit's first live read, or when no visit is kept.
fn since_last_visit() -> impl IntoView {
    let state = crate::state::AppState::expect();
    let line = RwSignal::new(None::<SinceLastVisit>);
    // Written only when it differs, as a memo would: a poll that leaves the line as it was
    // redraws nothing (and an answer that lands after the view is gone touches nothing).
    let say = move |said: Option<SinceLastVisit>| crate::state::set_if_changed(line, said);
    // The comparison runs in the snapshot codec's chunk (here once the visits are read).
    Effect::new(move |_| {
        // Only live data is compared (not the last visit's own copy shown while it loads).
        let live = state.status(crate::state::LoadStatus::is_live);
        let visits = state.visits.get().filter(|v| live && v.last().is_some());
        match (visits, state.data.get()) {
            (Some(visits), Some(data)) => leptos::task::spawn_local(async move {
                if let Ok(said) = since_last_visit_of(visits, data).await {
                    say(said);
                }
            }),
            _ => say(None),
        }
    });
    move || {
        line.get().map(|SinceLastVisit { at, now, phrase }| {
            let when = fluxlens_core::util::time::shown(at, now);
            let what = phrase.unwrap_or_else(|| "no difference between the two reads".to_string());
            view! {
                <p
                    class="fl-lead"
                    data-since-last-visit=fluxlens_core::util::time::format_rfc3339(at)
                >
                    {format!("Since your last visit ({when}): {what}. ")}
                    <a href=crate::base::href(
                        &fluxlens_core::share::urlstate::link::changes_since(
                            fluxlens_core::analyses::changes::window::Since::LastVisit,
                        ),
                    )>"What changed"</a>
                </p>
            }
        })
    }
}

/// A number of the summary, updated in place.
fn number(
    summary: Memo<Option<ClusterSummary>>,
    f: fn(&ClusterSummary) -> usize,
) -> impl Fn() -> usize + Send + Sync + Copy + 'static {
    move || summary.with(|s| s.as_ref().map(f).unwrap_or(0))
}

fn count_cards(summary: Memo<Option<ClusterSummary>>) -> impl IntoView {
    let cycles = derive(|d| d.graph.cycles.len());
    view! {
        <article class="fl-card" data-card="objects">
            <h2>"Objects"</h2>
            <p class="fl-big" data-count="objects">
                {number(summary, |s| s.total)}
            </p>
            <p>
                <a href=crate::base::href("/graph")>"Open the source graph"</a>
            </p>
        </article>
        <article class="fl-card" data-card="missing">
            <h2>"Missing references"</h2>
            <p class="fl-big" data-count="missing">
                {number(summary, |s| s.missing_refs)}
            </p>
            {move || {
                summary
                    .with(|s| s.as_ref().and_then(|s| s.unsettled.as_ref().map(|u| u.tally())))
                    .map(|tally| view! { <p data-unsettled="">{tally}</p> })
            }}
            <p>
                <a href=crate::base::href("/graph?status=Missing")>"Show missing in the graph"</a>
            </p>
        </article>
        <article class="fl-card" data-card="cycles">
            <h2>"dependsOn cycles"</h2>
            <p class="fl-big" data-count="cycles">
                {move || cycles.get().unwrap_or(0)}
            </p>
            <p>
                <a href=crate::base::href("/graph?problems=1")>"Show problems in the graph"</a>
            </p>
        </article>
    }
}

fn signature_card() -> impl IntoView {
    let sig = derive(|d| {
        (
            d.signatures.verified,
            d.signatures.verifiable,
            d.signatures.root_label().to_string(),
        )
    });
    let part = move |f: fn(&(usize, usize, String)) -> String| {
        move || sig.with(|s| s.as_ref().map(f).unwrap_or_default())
    };
    view! {
        <article class="fl-card" data-card="signatures">
            <h2>"Signatures"</h2>
            <p class="fl-big">
                <span data-count="verified">{part(|s| s.0.to_string())}</span>
                " / "
                <span data-count="verifiable">{part(|s| s.1.to_string())}</span>
            </p>
            <p>
                "verifiable sources verified; root source verified: "
                <strong data-root-verified="">{part(|s| s.2.clone())}</strong>
            </p>
            <p>
                <a href=crate::base::href("/signatures")>"Open signatures"</a>
            </p>
        </article>
    }
}

fn compliance_card() -> impl IntoView {
    let card = derive(|d| ComplianceCard {
        variant: d.variant.map(|v| v.as_str()).unwrap_or("mixed"),
        tally: fluxlens_core::analyses::compliance::Tally::of(&d.controls),
        worst: d
            .findings
            .iter()
            .filter(|f| f.rule.starts_with("ENT-"))
            .filter(|f| f.severity > fluxlens_core::analyses::findings::Severity::Info)
            .map(|f| format!("{} {} {}", f.severity.as_str(), f.rule, f.message))
            .next()
            .unwrap_or_else(|| "none".into()),
    });
    move || {
        card.get().map(|c| {
            view! {
                <article class="fl-card" data-card="compliance">
                    <h2>"Compliance"</h2>
                    <p>
                        <strong data-variant="">{c.variant}</strong>
                    </p>
                    <p data-count="controls">{c.tally.text()}</p>
                    <p>"Worst: "{c.worst}</p>
                    <p>
                        <a href=crate::base::href("/compliance")>"Open compliance"</a>
                    </p>
                </article>
            }
        })
    }
}

fn findings_card(summary: Memo<Option<ClusterSummary>>) -> impl IntoView {
    let sev = move |i: usize| {
        move || summary.with(|s| s.as_ref().map(|s| s.findings_by_severity[i]).unwrap_or(0))
    };
    view! {
        <article class="fl-card" data-card="findings">
            <h2>"Findings"</h2>
            <p class="fl-big" data-count="findings">
                {number(summary, |s| s.findings_by_severity.iter().sum())}
            </p>
            <p>
                <span data-count="critical">{sev(4)}</span>
                " critical · "
                <span data-count="high">{sev(3)}</span>
                " high · "
                <span data-count="medium">{sev(2)}</span>
                " medium · "
                <span data-count="low">{sev(1)}</span>
                " low · "
                <span data-count="info">{sev(0)}</span>
                " info"
            </p>
            <p>
                "affecting "
                <span data-count="affected">{number(summary, |s| s.affected_objects)}</span>
                {move || {
                    if number(summary, |s| s.affected_objects)() == 1 {
                        " object"
                    } else {
                        " objects"
                    }
                }}
            </p>
        </article>
    }
}

fn migration_cards() -> impl IntoView {
    let migrations = derive(|d| content_keys(d.migrations.clone()));
    view! {
        <div class="fl-cards">
            <For each=move || migrations.get().unwrap_or_default() key=|(k, _)| *k let:item>
                {migration_card(item.1)}
            </For>
        </div>
    }
}

fn migration_card(m: Migration) -> impl IntoView {
    let cur = if m.started {
        m.current()
            .map(|s| {
                (
                    format!("{} {}", s.id, s.title),
                    s.state.as_str(),
                    s.progress.clone(),
                )
            })
            .unwrap_or_default()
    } else {
        (m.sign_line(), m.badge(), None)
    };
    view! {
        <article class="fl-card" data-card=format!("migration-{}", m.id) data-badge=m.badge()>
            <h2>{m.title.clone()}</h2>
            <p>
                <strong data-current-stage="">{cur.0}</strong>
                " ("
                {cur.1}
                ")"
            </p>
            {cur.2.map(|(d, t, w)| view! { <p>{format!("{d} of {t} {w}")}</p> })}
            {(!m.blockers.is_empty())
                .then(|| {
                    view! {
                        <p class="fl-blocked">
                            {fluxlens_core::analyses::verdict::plural(m.blockers.len(), "blocker")}
                        </p>
                    }
                })}
            <p>
                <a href=crate::base::href("/migrations")>"Open migrations"</a>
            </p>
        </article>
    }
}

fn by_kind_table(summary: Memo<Option<ClusterSummary>>) -> impl IntoView {
    let rows = Memo::new(move |_| {
        summary.with(|s| {
            s.as_ref()
                .map(|s| content_keys(s.by_kind.clone()))
                .unwrap_or_default()
        })
    });
    view! {
        <table class="fl-table" data-table="by-kind">
            <caption>"Objects by kind and status"</caption>
            <thead>
                <tr>
                    <th scope="col">"Kind"</th>
                    {Status::ALL
                        .iter()
                        .map(|st| view! { <th scope="col">{st.as_str()}</th> })
                        .collect_view()}
                </tr>
            </thead>
            <tbody>
                <For each=move || rows.get() key=|(k, _)| *k let:item>
                    {
                        let (k, c) = item.1;
                        view! {
                            <tr data-kind=k.as_str().to_string()>
                                <th scope="row">
                                    <a href=crate::base::href(
                                        &fluxlens_core::share::urlstate::link::graph_of_kind(
                                            k.as_str(),
                                        ),
                                    )>{k.as_str().to_string()}</a>
                                </th>
                                {c
                                    .iter()
                                    .zip(Status::ALL)
                                    .map(|(n, st)| {
                                        view! {
                                            <td>
                                                {(*n > 0)
                                                    .then(|| {
                                                        view! {
                                                            <a href=crate::base::href(
                                                                &format!(
                                                                    "/graph?kind={}&status={}",
                                                                    k.as_str(),
                                                                    st.as_str(),
                                                                ),
                                                            )>{*n}</a>
                                                        }
                                                    })}{(*n == 0).then_some("0")}
                                            </td>
                                        }
                                    })
                                    .collect_view()}
                            </tr>
                        }
                    }
                </For>
            </tbody>
        </table>
    }
}
