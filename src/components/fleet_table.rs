//! The fleet table: one row per cluster, with the stable hooks tests and embedders read
//! (`data-cluster`, `data-state`, `data-flux-version`, `data-variant`, `data-root`,
//! `data-root-verified`, `data-git-oci-stage`, `data-storage-stage`,
//! `data-distribution-stage`, `data-critical`, `data-high`). Each cell reads its own memo of
//! the row, so a poll that moves one number re-renders that number.

use super::theme::ThemeState;
use crate::state::FleetState;
use fluxlens_core::fleet::table::SortKey;
use fluxlens_core::fleet::{Facts, Row, RowState, StageCell, TableQuery};
use leptos::prelude::*;

/// The hub's header: brand, the fleet's freshness, theme.
#[component]
pub fn FleetHeader() -> impl IntoView {
    let theme = expect_context::<ThemeState>();
    let fleet = expect_context::<FleetState>();
    let fresh = Memo::new(move |_| {
        fleet
            .updated_at
            .get()
            .map(|t| format!("Updated {}", crate::clock::clock(t)))
    });
    view! {
        <header class="fl-header">
            <a class="fl-brand" href="/fleet">
                "fluxlens"
            </a>
            <span class="fl-header__scope">"Fleet"</span>
            <p class="fl-freshness" role="status" hidden=move || fresh.with(Option::is_none)>
                {move || fresh.get().unwrap_or_default()}
            </p>
            <button class="fl-btn" type="button" on:click=move |_| theme.cycle()>
                {move || theme.0.get().label()}
            </button>
        </header>
    }
}

/// A ticking "now" (every ten seconds) for "updated N s ago".
pub fn use_now() -> RwSignal<f64> {
    let now = RwSignal::new(js_sys::Date::now());
    let handle = set_interval_with_handle(
        move || now.set(js_sys::Date::now()),
        std::time::Duration::from_secs(10),
    );
    on_cleanup(move || {
        if let Ok(h) = handle {
            h.clear();
        }
    });
    now
}

/// A column: its header and what it sorts by.
struct Column {
    label: &'static str,
    sort: Option<SortKey>,
}

const fn column(label: &'static str, sort: Option<SortKey>) -> Column {
    Column { label, sort }
}

/// The columns, in order.
static COLUMNS: [Column; 10] = [
    column("Cluster", Some(SortKey::Name)),
    column("State", Some(SortKey::State)),
    column("Flux", Some(SortKey::Flux)),
    column("Variant", Some(SortKey::Variant)),
    column("Root source", Some(SortKey::Root)),
    column("Git → OCI", None),
    column("Storage", None),
    column("Distribution", None),
    column("Findings", Some(SortKey::Critical)),
    column("Missing", Some(SortKey::Missing)),
];

/// The table: sortable headers, then the rows by group (one group unless `group=` is set).
#[component]
pub fn FleetTable(
    query: Memo<TableQuery>,
    set_query: Callback<TableQuery>,
    order: Memo<Vec<(String, Vec<String>)>>,
) -> impl IntoView {
    let fleet = expect_context::<FleetState>();
    let now = use_now();
    let row_of = move |name: &str| {
        fleet.rows.with_untracked(|rows| {
            rows.iter()
                .find(|r| r.with_untracked(|r| r.name == name))
                .copied()
        })
    };
    let group_label = move || query.with(|q| q.group.clone());
    view! {
        <table class="fl-table fl-fleet" data-fleet-table="">
            <thead>
                <tr>{COLUMNS.iter().map(|c| header(c, query, set_query)).collect_view()}</tr>
            </thead>
            <For
                each=move || order.get()
                key=|(value, names)| (value.clone(), names.clone())
                children=move |(value, names)| {
                    let heading = group_label()
                        .map(|label| {
                            let shown = if value.is_empty() {
                                format!("no {label}")
                            } else {
                                format!("{label}={value}")
                            };
                            view! {
                                <tr class="fl-fleet__group">
                                    <th scope="rowgroup" colspan=COLUMNS.len()>
                                        {shown}
                                    </th>
                                </tr>
                            }
                        });
                    view! {
                        <tbody data-group=value
                            .clone()>
                            {heading}
                            {names
                                .iter()
                                .filter_map(|n| row_of(n))
                                .map(|row| view! { <FleetRow row now /> })
                                .collect_view()}
                        </tbody>
                    }
                }
            />
        </table>
    }
}

fn header(
    column: &'static Column,
    query: Memo<TableQuery>,
    set_query: Callback<TableQuery>,
) -> impl IntoView {
    let label = column.label;
    let Some(sort) = column.sort.as_ref() else {
        return view! { <th scope="col">{label}</th> }.into_any();
    };
    let key = move || sort.clone();
    let aria = move || {
        query.with(|q| {
            let on = q.sort.clone().unwrap_or(SortKey::Name) == key();
            match (on, q.descending) {
                (false, _) => "none",
                (true, false) => "ascending",
                (true, true) => "descending",
            }
        })
    };
    let click = move |_| {
        let mut q = query.get_untracked();
        let on = q.sort.clone().unwrap_or(SortKey::Name) == key();
        q.descending = on && !q.descending;
        q.sort = Some(key());
        set_query.run(q);
    };
    view! {
        <th scope="col" aria-sort=aria data-sort=key().name()>
            <button class="fl-sort" type="button" on:click=click>
                {label}
                <span aria-hidden="true">
                    {move || match aria() {
                        "ascending" => " ▲",
                        "descending" => " ▼",
                        _ => "",
                    }}
                </span>
            </button>
        </th>
    }
    .into_any()
}

/// One cluster's row.
#[component]
fn FleetRow(row: RwSignal<Row>, now: RwSignal<f64>) -> impl IntoView {
    let name = row.with_untracked(|r| r.name.clone());
    let state = Memo::new(move |_| row.with(|r| r.state));
    let facts = Memo::new(move |_| row.with(|r| r.facts.clone()));
    let fact = move |f: fn(&Facts) -> String| {
        move || facts.with(|x| x.as_ref().map(f).unwrap_or_default())
    };
    // Never read: what the stages and the variant are is not known (counts stay empty).
    let known = move |f: fn(&Facts) -> String| {
        move || facts.with(|x| x.as_ref().map_or("unknown".into(), f))
    };
    view! {
        <tr
            data-cluster=name.clone()
            data-state=move || state.get().as_str()
            data-flux-version=fact(|f| f.flux_version.clone().unwrap_or_default())
            data-variant=known(|f| f.variant.clone())
            data-root=fact(|f| f.root.clone().unwrap_or_default())
            data-root-verified=move || {
                facts.with(|f| f.as_ref().map_or("unknown", |f| f.root_verified.as_str()))
            }
            data-git-oci-stage=known(|f| f.git_oci.hook().to_string())
            data-storage-stage=known(|f| f.storage.hook().to_string())
            data-distribution-stage=known(|f| f.distribution.hook().to_string())
            data-critical=fact(|f| f.critical().to_string())
            data-high=fact(|f| f.high().to_string())
        >
            <th scope="row">{name_cell(row)}</th>
            <td>{state_cell(row, now)}</td>
            <td>{flux_cell(facts)}</td>
            <td>{variant_cell(facts)}</td>
            <td>{root_cell(facts)}</td>
            <td>{stage_cell(facts, |f| &f.git_oci)}</td>
            <td>{stage_cell(facts, |f| &f.storage)}</td>
            <td>{stage_cell(facts, |f| &f.distribution)}</td>
            <td>{findings_cell(facts)}</td>
            <td data-count="missing">{fact(|f| f.missing_refs.to_string())}</td>
        </tr>
    }
}

fn name_cell(row: RwSignal<Row>) -> impl IntoView {
    let (name, labels) = row.with_untracked(|r| (r.name.clone(), r.labels.clone()));
    let href = format!("/clusters/{name}/");
    view! {
        <a href=href rel="external" data-dashboard=name.clone()>
            {name.clone()}
        </a>
        <span class="fl-fleet__labels">
            {labels
                .into_iter()
                .map(|(k, v)| {
                    view! {
                        <span class="fl-chip" data-label=k.clone()>
                            {format!("{k}={v}")}
                        </span>
                    }
                })
                .collect_view()}
        </span>
    }
}

/// State, "updated N s ago" or "stale since", why a read failed, and where to sign in.
fn state_cell(row: RwSignal<Row>, now: RwSignal<f64>) -> impl IntoView {
    let state = Memo::new(move |_| row.with(|r| r.state));
    let problem = Memo::new(move |_| row.with(|r| r.problem.clone()));
    let age = Memo::new(move |_| {
        let (updated, stale) = row.with(|r| (r.updated_at_ms, r.stale_since_ms));
        let now = now.get();
        match (stale, updated) {
            (Some(s), _) => Some(format!("stale since {}", crate::clock::clock(s as f64))),
            (None, Some(u)) => Some(format!("updated {}", ago(now - u as f64))),
            (None, None) => None,
        }
    });
    let sign_in = move || {
        (state.get() == RowState::Unauthorized).then(|| {
            let (name, ui) = row.with_untracked(|r| (r.name.clone(), r.ui.clone()));
            let (href, text) = match ui {
                Some(ui) => (ui, "Sign in on its own UI"),
                None => (format!("/clusters/{name}/"), "Open its dashboard"),
            };
            view! {
                <a href=href rel="external noopener" data-sign-in="">
                    {text}
                </a>
            }
        })
    };
    view! {
        <span class="fl-state" data-state-label=move || state.get().as_str()>
            {move || state.get().as_str()}
        </span>
        <span class="fl-fleet__note" data-age="">
            {move || age.get().unwrap_or_default()}
        </span>
        <span class="fl-fleet__note" data-problem="" hidden=move || problem.with(Option::is_none)>
            {move || problem.get().unwrap_or_default()}
        </span>
        {sign_in}
    }
}

/// "12 s ago", "3 min ago", "2 h ago".
fn ago(ms: f64) -> String {
    let s = (ms / 1000.0).max(0.0) as u64;
    match s {
        0..60 => format!("{s} s ago"),
        60..3600 => format!("{} min ago", s / 60),
        _ => format!("{} h ago", s / 3600),
    }
}

type FactsMemo = Memo<Option<Facts>>;

fn text(facts: FactsMemo, f: fn(&Facts) -> String) -> impl Fn() -> String + Copy {
    move || facts.with(|x| x.as_ref().map(f).unwrap_or_default())
}

fn flux_cell(facts: FactsMemo) -> impl IntoView {
    let behind = Memo::new(move |_| {
        facts.with(|f| {
            f.as_ref()
                .filter(|f| f.behind_patch() == Some(true))
                .and_then(|f| f.latest_patch.clone())
        })
    });
    view! {
        <span data-flux="">
            {text(facts, |f| f.flux_version.clone().unwrap_or_else(|| "unknown".into()))}
        </span>
        <span class="fl-fleet__note">
            {text(
                facts,
                |f| format!("operator {}", f.operator_version.as_deref().unwrap_or("unknown")),
            )}
        </span>
        <span
            class="fl-fleet__note fl-fleet__warn"
            data-latest-patch=""
            hidden=move || behind.with(Option::is_none)
        >
            {move || behind.get().map(|v| format!("latest patch {v}")).unwrap_or_default()}
        </span>
    }
}

fn variant_cell(facts: FactsMemo) -> impl IntoView {
    view! {
        <span>{text(facts, |f| f.variant.clone())}</span>
        <span class="fl-fleet__note">
            {text(
                facts,
                |f| match &f.entitlement {
                    Some(e) => format!("entitlement: {e}"),
                    None => "no entitlement".into(),
                },
            )}
        </span>
        <span class="fl-fleet__note" data-support="">
            {text(facts, |f| format!("support window (ENT-07): {}", f.support))}
        </span>
    }
}

fn root_cell(facts: FactsMemo) -> impl IntoView {
    view! {
        <code class="fl-fleet__root">{text(facts, |f| f.root.clone().unwrap_or_default())}</code>
        <span class="fl-fleet__note" data-verified="">
            {text(
                facts,
                |f| match f.root_verified {
                    fluxlens_core::fleet::Verified::Yes => "verified".into(),
                    fluxlens_core::fleet::Verified::No => "not verified".into(),
                    fluxlens_core::fleet::Verified::Unknown => "verification unknown".into(),
                },
            )}
        </span>
    }
}

fn stage_cell(facts: FactsMemo, pick: fn(&Facts) -> &StageCell) -> impl IntoView {
    let cell = Memo::new(move |_| facts.with(|f| f.as_ref().map(|f| pick(f).clone())));
    move || {
        cell.get().map(|c| {
            let stage = c.stage.clone().unwrap_or_else(|| "—".into());
            let blockers = (c.blockers > 0).then(|| {
                view! {
                    <span class="fl-fleet__note fl-fleet__warn">
                        {fluxlens_core::verdict::plural(c.blockers, "blocker")}
                    </span>
                }
            });
            view! {
                <span>{stage}</span>
                <span class="fl-fleet__note">{c.state.clone()}</span>
                {blockers}
            }
        })
    }
}

fn findings_cell(facts: FactsMemo) -> impl IntoView {
    view! {
        <span class="fl-sev fl-fleet__critical" data-count="critical">
            {text(facts, |f| format!("{} critical", f.critical()))}
        </span>
        <span class="fl-sev fl-fleet__high" data-count="high">
            {text(facts, |f| format!("{} high", f.high()))}
        </span>
        <span
            class="fl-fleet__note"
            hidden=move || facts.with(|f| f.as_ref().is_none_or(|f| f.incomplete.is_empty()))
        >
            {text(facts, |f| format!("incomplete: {}", f.incomplete.join("; ")))}
        </span>
    }
}
