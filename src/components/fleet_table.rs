//! The fleet table: one row per cluster, with the stable hooks tests and embedders read
//! (`data-cluster`, `data-state`, `data-flux-version`, `data-variant`, `data-root`,
//! `data-root-verified`, `data-git-oci-stage`, `data-storage-stage`,
//! `data-distribution-stage`, `data-critical`, `data-high`, and with renders `data-drift`,
//! `data-drift-worst`). Each cell reads its own memo of the row, so a poll that moves one
//! number re-renders that number.

use super::theme::ThemeState;
use crate::state::FleetState;
use fluxlens_core::fleet::table::SortKey;
use fluxlens_core::fleet::{DriftCell, Facts, Row, RowState, StageCell, TableQuery};
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
static COLUMNS: [Column; 11] = [
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
    column("Changed (24 h)", None),
];

/// The drift column, there when the hub names a render for any cluster.
static DRIFT_COLUMN: Column = column("Drift", Some(SortKey::Drift));

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
    // The drift column is there when the hub names a render for any cluster.
    let with_drift = Memo::new(move |_| {
        fleet.list.with(
            |l| matches!(l, Some(Ok(list)) if list.clusters.iter().any(|c| c.render.is_some())),
        )
    });
    let width = move || COLUMNS.len() + usize::from(with_drift.get());
    view! {
        <table class="fl-table fl-fleet" data-fleet-table="">
            <thead>
                <tr>
                    {COLUMNS.iter().map(|c| header(c, query, set_query)).collect_view()}
                    {move || with_drift.get().then(|| header(&DRIFT_COLUMN, query, set_query))}
                </tr>
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
                                    <th scope="rowgroup" colspan=width>
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
                                .map(|row| view! { <FleetRow row now with_drift /> })
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
    let click = Callback::new(move |()| {
        let mut q = query.get_untracked();
        let on = q.sort.clone().unwrap_or(SortKey::Name) == key();
        q.descending = on && !q.descending;
        q.sort = Some(key());
        set_query.run(q);
    });
    view! {
        <super::sort_header::SortHeader
            column=key().name()
            label
            aria=Signal::derive(aria)
            on_click=click
        />
    }
    .into_any()
}

/// One cluster's row, as it reads without its read time: polls that change nothing else leave
/// it equal, so nothing of the row is touched but its age.
type Shown = Memo<Row>;

/// A text of the shown row's facts (empty before a first read).
fn fact(shown: Shown, f: fn(&Facts) -> String) -> impl Fn() -> String + Copy {
    move || shown.with(|r| r.facts.as_ref().map(f).unwrap_or_default())
}

/// A hook of the shown row's facts, `unknown` before a first read.
fn known(shown: Shown, f: fn(&Facts) -> String) -> impl Fn() -> String + Copy {
    move || shown.with(|r| r.facts.as_ref().map_or("unknown".into(), f))
}

/// A text of the shown row.
fn of_row(shown: Shown, f: fn(&Row) -> String) -> impl Fn() -> String + Copy {
    move || shown.with(f)
}

/// One cluster's row.
#[component]
fn FleetRow(row: RwSignal<Row>, now: RwSignal<f64>, with_drift: Memo<bool>) -> impl IntoView {
    let name = row.with_untracked(|r| r.name.clone());
    let shown: Shown = Memo::new(move |_| {
        row.with(|r| Row {
            updated_at_ms: None,
            ..r.clone()
        })
    });
    view! {
        <tr
            data-cluster=name.clone()
            data-state=of_row(shown, |r| r.state.as_str().into())
            data-flux-version=fact(shown, |f| f.flux_version.clone().unwrap_or_default())
            data-variant=known(shown, |f| f.variant.clone())
            data-root=fact(shown, |f| f.root.clone().unwrap_or_default())
            data-root-verified=known(shown, |f| f.root_verified.as_str().into())
            data-git-oci-stage=known(shown, |f| f.git_oci.hook().to_string())
            data-storage-stage=known(shown, |f| f.storage.hook().to_string())
            data-distribution-stage=known(shown, |f| f.distribution.hook().to_string())
            data-critical=fact(shown, |f| f.critical().to_string())
            data-high=fact(shown, |f| f.high().to_string())
            data-failing=fact(shown, |f| f.failing.to_string())
            data-drift=fact(shown, |f| f.drift.as_ref().map(|d| d.hook()).unwrap_or_default())
            data-drift-worst=fact(shown, drift_worst)
        >
            <th scope="row">{name_cell(row)}</th>
            <td>
                {state_cell(row, shown, now)}
                // What fails now leads the row (OPS-01), before versions and stages.
                <span class="fl-fleet__note fl-fleet__warn" data-failing-now="">
                    {fact(shown, |f| f.failing_now())}
                </span>
            </td>
            <td>
                <span data-flux="">
                    {known(shown, |f| f.flux_version.clone().unwrap_or_else(|| "unknown".into()))}
                </span>
                <span class="fl-fleet__note">
                    {fact(
                        shown,
                        |f| {
                            format!(
                                "operator {}",
                                f.operator_version.as_deref().unwrap_or("unknown"),
                            )
                        },
                    )}
                </span>
                <span class="fl-fleet__note fl-fleet__warn" data-latest-patch="">
                    {fact(
                        shown,
                        |f| match (f.behind_patch(), &f.latest_patch) {
                            (Some(true), Some(v)) => format!("latest patch {v}"),
                            _ => String::new(),
                        },
                    )}
                </span>
            </td>
            <td>
                <span>{fact(shown, |f| f.variant.clone())}</span>
                <span class="fl-fleet__note">
                    {fact(
                        shown,
                        |f| match &f.entitlement {
                            Some(e) => format!("entitlement: {e}"),
                            None => "no entitlement".into(),
                        },
                    )}
                </span>
                <span class="fl-fleet__note" data-support="">
                    {fact(shown, |f| format!("support window (ENT-07): {}", f.support))}
                </span>
            </td>
            <td>
                <code class="fl-fleet__root">
                    {fact(shown, |f| f.root.clone().unwrap_or_default())}
                </code>
                <span class="fl-fleet__note" data-verified="">
                    {fact(
                        shown,
                        |f| match f.root_verified {
                            fluxlens_core::fleet::Verified::Yes => "verified".into(),
                            fluxlens_core::fleet::Verified::No => "not verified".into(),
                            fluxlens_core::fleet::Verified::Unknown => "verification unknown".into(),
                        },
                    )}
                </span>
            </td>
            <td>{stage_cell(shown, |f| &f.git_oci)}</td>
            <td>{stage_cell(shown, |f| &f.storage)}</td>
            <td>{stage_cell(shown, |f| &f.distribution)}</td>
            <td>
                // A zero is not an alarm: coloured only when there is something (#46).
                <span
                    class="fl-sev fl-fleet__critical"
                    data-count="critical"
                    data-zero=fact(shown, |f| (f.critical() == 0).to_string())
                >
                    {fact(shown, |f| format!("{} critical", f.critical()))}
                </span>
                <span
                    class="fl-sev fl-fleet__high"
                    data-count="high"
                    data-zero=fact(shown, |f| (f.high() == 0).to_string())
                >
                    {fact(shown, |f| format!("{} high", f.high()))}
                </span>
                <span class="fl-fleet__note">
                    {fact(
                        shown,
                        |f| {
                            if f.incomplete.is_empty() {
                                String::new()
                            } else {
                                format!("incomplete: {}", f.incomplete.join("; "))
                            }
                        },
                    )}
                </span>
            </td>
            <td data-count="missing">{fact(shown, |f| f.missing_refs.to_string())}</td>
            <td data-changed=fact(shown, |f| f.changed.clone().unwrap_or_default())>
                <a href=changes_href(
                    row,
                )>
                    {of_row(
                        shown,
                        |r| match &r.facts {
                            Some(f) => f.changed.clone().unwrap_or_else(|| "no change found".into()),
                            None => "not read yet".into(),
                        },
                    )}
                </a>
            </td>
            {move || with_drift.get().then(|| drift_cell(shown))}
        </tr>
    }
}

fn drift_worst(f: &Facts) -> String {
    match &f.drift {
        Some(DriftCell::Judged(c)) => c.worst().map_or("none", |s| s.as_str()).into(),
        _ => String::new(),
    }
}

/// The drift against the render its entry names, linked to its dashboard's drift view.
fn drift_cell(shown: Shown) -> impl IntoView {
    let text = move || {
        shown.with(
            |r| match (&r.render, r.facts.as_ref().and_then(|f| f.drift.as_ref())) {
                (None, _) => "no render named".to_string(),
                (Some(_), None) if r.facts.is_none() => String::new(),
                (Some(_), None) => "not judged yet".to_string(),
                (Some(_), Some(d)) => d.phrase(),
            },
        )
    };
    let href = move || shown.with(Row::drift_href);
    let not_compared = fact(shown, |f| match &f.drift {
        Some(DriftCell::Judged(c)) if c.not_compared > 0 => {
            format!("{} not compared", c.not_compared)
        }
        _ => String::new(),
    });
    view! {
        <td data-count="drift">
            {move || match href() {
                Some(href) => {
                    view! {
                        <a href=href rel="external">
                            {text}
                        </a>
                    }
                        .into_any()
                }
                None => view! { <span class="fl-fleet__note">{text}</span> }.into_any(),
            }} <span class="fl-fleet__note">{not_compared}</span>
        </td>
    }
}

/// The cluster's own timeline of the same 24 hours, on its dashboard.
fn changes_href(row: RwSignal<Row>) -> String {
    let name = row.with_untracked(|r| r.name.clone());
    format!("/clusters/{name}/changes?since=24h")
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
fn state_cell(row: RwSignal<Row>, shown: Shown, now: RwSignal<f64>) -> impl IntoView {
    let age = move || {
        let (updated, stale) = row.with(|r| (r.updated_at_ms, r.stale_since_ms));
        match (stale, updated) {
            (Some(s), _) => format!("stale since {}", crate::clock::clock(s as f64)),
            (None, Some(u)) => format!("updated {}", ago(now.get() - u as f64)),
            (None, None) => String::new(),
        }
    };
    let sign_in = move || {
        shown.with(|r| {
            // Only its own UI can sign in: the dashboard through the hub led back to the hub
            // (#46); without a published UI the problem text says what to add.
            let ui = r.ui.clone().filter(|_| r.state == RowState::Unauthorized);
            ui.map(|href| {
                view! {
                    <a href=href rel="external noopener" data-sign-in="">
                        "Sign in on its own UI"
                    </a>
                }
            })
        })
    };
    view! {
        <span class="fl-state">{of_row(shown, |r| r.state.as_str().into())}</span>
        <span class="fl-fleet__note" data-age="">
            {age}
        </span>
        <span
            class="fl-fleet__note"
            data-latency=move || shown.with(|r| r.read_ms.map(|ms| ms.to_string()))
            data-slow=move || shown.with(|r| r.read_ms.is_some_and(|ms| ms >= Row::SLOW_MS))
        >
            {of_row(shown, Row::latency)}
        </span>
        <span class="fl-fleet__note" data-problem="">
            {of_row(shown, |r| r.problem.clone().unwrap_or_default())}
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

fn stage_cell(shown: Shown, pick: fn(&Facts) -> &StageCell) -> impl IntoView {
    move || {
        shown.with(|r| {
            r.facts.as_ref().map(|f| {
                let c = pick(f);
                let stage = c.stage.clone().unwrap_or_else(|| "—".into());
                let blockers = match c.blockers {
                    0 => String::new(),
                    n => fluxlens_core::analyses::verdict::plural(n, "blocker"),
                };
                view! {
                    <span>{stage}</span>
                    <span class="fl-fleet__note">{c.state.clone()}</span>
                    <span class="fl-fleet__note fl-fleet__warn">{blockers}</span>
                }
            })
        })
    }
}
