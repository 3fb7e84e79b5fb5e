use super::{derive, when_loaded};
use crate::components::findings::FindingsList;
use crate::components::hero::Hero;
use crate::components::keyed::content_keys;
use crate::components::list_filters::{ListFilters, use_list_query};
use fluxlens_core::analyses::migration::{Migration, Stage, StageState};
use fluxlens_core::analyses::verdict::migrations as migrations_verdict;
use fluxlens_core::share::urlstate::link;
use leptos::prelude::*;

/// `/migrations`: one stepper per migration, blockers first, the commands to run next. Each
/// migration card is keyed by its content: a poll that moves one migration rebuilds that card.
#[component]
pub fn MigrationsPage() -> impl IntoView {
    let (query, set_query) = use_list_query();
    view! {
        <section class="fl-page" aria-labelledby="mig-title">
            <h1 id="mig-title">"Migrations"</h1>
            {when_loaded(move || {
                let verdict = derive(|d| migrations_verdict(&d.migrations));
                let migrations = derive(|d| content_keys(d.migrations.clone()));
                let findings = super::findings_where(|r| r.starts_with("MIG-"), Some(query));
                view! {
                    {move || verdict.get().map(|v| view! { <Hero verdict=v /> })}
                    <For each=move || migrations.get().unwrap_or_default() key=|(k, _)| *k let:item>
                        <MigrationCard migration=item.1 />
                    </For>
                    <h2>"Migration findings"</h2>
                    <ListFilters query=query set_query=set_query />
                    <FindingsList findings=findings />
                }
            })}
        </section>
    }
}

/// One migration as a stepper.
#[component]
pub fn MigrationCard(
    /// The migration.
    migration: Migration,
) -> impl IntoView {
    let current = migration.current_label();
    let folded = migration.folds_stages();
    let badge = migration.badge();
    view! {
        <article
            class="fl-migration"
            data-migration=migration.id
            data-badge=badge
            aria-labelledby=format!("mig-{}", migration.id)
        >
            <h2 id=format!("mig-{}", migration.id)>{migration.title.clone()}</h2>
            <p class="fl-lead">"Current stage: "<strong data-current-stage="">{current}</strong></p>
            {(!migration.blockers.is_empty())
                .then(|| {
                    view! {
                        <div class="fl-blockers" role="alert">
                            <h3>"Blockers"</h3>
                            <FindingsList findings=migration.blockers.clone() />
                        </div>
                    }
                })}
            {stepper(folded, migration.stages)}
            {(!migration.notes.is_empty())
                .then(|| {
                    view! {
                        <ul class="fl-notes">
                            {migration
                                .notes
                                .into_iter()
                                .map(|n| {
                                    view! {
                                        <li>
                                            <code>{n}</code>
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    }
                })}
            {(!migration.next_commands.is_empty())
                .then(|| {
                    view! {
                        <h3>"Next commands (shown, never run)"</h3>
                        <pre class="fl-commands" data-commands="">
                            <code>{migration.next_commands.join("\n")}</code>
                        </pre>
                    }
                })}
        </article>
    }
}

/// The stages: open for a started migration; folded for one the cluster shows no sign of (and
/// nothing unknown in it), its unmet checks the road ahead rather than failures (#68: an unstarted Git → OCI migration led
/// `flux-aio-switching` with a red list).
fn stepper(folded: bool, stages: Vec<Stage>) -> impl IntoView {
    let list =
        view! { <ol class="fl-stepper">{stages.into_iter().map(stage_view).collect_view()}</ol> };
    if !folded {
        list.into_any()
    } else {
        view! {
            <details class="fl-stages-ahead">
                <summary>"The stages it would go through"</summary>
                {list}
            </details>
        }
        .into_any()
    }
}

fn stage_view(s: Stage) -> impl IntoView {
    let state = s.state;
    let label = s.state_label();
    let failing_now = s.failing_now() > 0;
    let class = format!(
        "fl-step fl-step--{}{}",
        state.as_str().replace(' ', "-"),
        if failing_now {
            " fl-step--failing-now"
        } else {
            ""
        },
    );
    let icon = match state {
        StageState::Done => "✓",
        StageState::InProgress => "●",
        StageState::Blocked => "!",
        StageState::NotStarted => "○",
    };
    view! {
        <li
            class=class
            data-stage=s.id.clone()
            data-state=state.as_str()
            aria-current=(matches!(state, StageState::InProgress | StageState::Blocked))
                .then_some("step")
        >
            <div class="fl-step__head">
                <span class="fl-step__icon" aria-hidden="true">
                    {icon}
                </span>
                <strong>{s.id.clone()}" "{s.title.clone()}</strong>
                " "
                <span class="fl-step__state" data-failing-now=failing_now.then_some("")>
                    "("
                    {label}
                    ")"
                </span>
            </div>
            {s
                .progress
                .map(|(done, total, what)| {
                    let pct = if total == 0 { 100.0 } else { done as f64 * 100.0 / total as f64 };
                    view! {
                        <div
                            class="fl-progress"
                            role="progressbar"
                            aria-valuemin="0"
                            aria-valuemax=total
                            aria-valuenow=done
                            aria-label=what.clone()
                        >
                            <div class="fl-progress__bar" style=format!("width:{pct:.0}%")></div>
                        </div>
                        <p class="fl-progress__text" data-progress-text="">
                            {format!("{done} of {total} {what}")}
                        </p>
                    }
                })}
            <ul class="fl-checks">
                {s
                    .checks
                    .into_iter()
                    .map(|c| {
                        let (mark, st) = (c.outcome.mark(), c.outcome.as_str());
                        view! {
                            <li class=format!("fl-check fl-check--{st}") data-check=st>
                                <span aria-hidden="true">{mark}</span>
                                " "
                                <span class="fl-sr">{st}": "</span>
                                {c.label}
                                {(!c.detail.is_empty())
                                    .then(|| {
                                        view! {
                                            <span class="fl-check__detail">" — "{c.detail}</span>
                                        }
                                    })}
                                {(!c.objects.is_empty())
                                    .then(|| {
                                        let more = c.objects.len().saturating_sub(12);
                                        view! {
                                            <ul class="fl-objects">
                                                {c
                                                    .objects
                                                    .into_iter()
                                                    .take(12)
                                                    .map(|k| {
                                                        let id = k.to_string();
                                                        view! {
                                                            <li>
                                                                <a href=crate::base::href(
                                                                    &link::graph_selecting(&k),
                                                                )>{id.clone()}</a>
                                                                " · "
                                                                <a href=crate::base::href(
                                                                    &link::signatures_selecting(&k),
                                                                )>"signatures"</a>
                                                            </li>
                                                        }
                                                    })
                                                    .collect_view()}
                                                {(more > 0)
                                                    .then(|| {
                                                        view! { <li>{format!("… and {more} more")}</li> }
                                                    })}
                                            </ul>
                                        }
                                    })}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </li>
    }
}
