//! `/fleet`: every cluster of the hub, one row each; sort, filter, group and waves in the URL;
//! exports and a read-only link. Reads only the fleet loader's state.

use crate::components::fleet_link::{FleetLinkBanner, prepare};
use crate::components::fleet_table::FleetTable;
use crate::state::FleetState;
use fluxlens_core::fleet::export::{self, Context};
use fluxlens_core::fleet::table::SortKey;
use fluxlens_core::fleet::{Row, RowState, TableQuery, WaveStatus, waves};
use leptos::prelude::*;

/// The fleet page.
#[component]
pub fn FleetPage() -> impl IntoView {
    let fleet = expect_context::<FleetState>();
    let location = crate::router::use_location();
    let query =
        Memo::new(move |_| TableQuery::parse(location.search.get().trim_start_matches('?')));
    let set_query = Callback::new(move |q: TableQuery| {
        crate::router::push_query(location, &q.to_query());
    });
    let rows = Memo::new(move |_| fleet.current());
    let order = Memo::new(move |_| {
        query.with(|q| {
            rows.with(|rows| {
                q.groups(rows)
                    .into_iter()
                    .map(|(v, rs)| (v, rs.iter().map(|r| r.name.clone()).collect()))
                    .collect::<Vec<(String, Vec<String>)>>()
            })
        })
    });
    let complete = Memo::new(move |_| {
        rows.with(|r| !r.is_empty() && r.iter().all(|r| r.state != RowState::Loading))
    });
    Effect::new(move |done: Option<bool>| {
        let now = complete.get();
        if now && done != Some(true) {
            crate::perf::mark_after_paint(crate::perf::VIEW_RENDERED);
        }
        now || done == Some(true)
    });
    view! {
        <section class="fl-page" aria-labelledby="fleet-title">
            <h1 id="fleet-title">"Fleet"</h1>
            <FleetLinkBanner />
            {list_notice(fleet)}
            <FleetSummary rows />
            <FleetControls query set_query rows />
            <WavesPanel query rows />
            <FleetTable query set_query order />
        </section>
    }
}

/// Why the hub's list could not be read, and the entries it set aside.
fn list_notice(fleet: FleetState) -> impl IntoView {
    move || {
        let (class, hook, text) = fleet.list.with(|l| match l {
            Some(Err(e)) => Some((
                "fl-notice fl-notice--error",
                "error",
                format!("The list of clusters could not be read: {e}"),
            )),
            Some(Ok(list)) if !list.refused.is_empty() => {
                let text: Vec<String> = list
                    .refused
                    .iter()
                    .map(|(what, why)| format!("{what}: {why}"))
                    .collect();
                let text = format!("Entries set aside: {}", text.join("; "));
                Some(("fl-notice", "refused", text))
            }
            None => Some((
                "fl-empty",
                "reading",
                "Reading the list of clusters…".to_string(),
            )),
            _ => None,
        })?;
        Some(view! {
            <div class=class role="status" data-fleet-notice=hook>
                {text}
            </div>
        })
    }
}

/// The questions a platform team asks first, answered over every row.
#[component]
fn FleetSummary(rows: Memo<Vec<Row>>) -> impl IntoView {
    let count = move |f: fn(&Row) -> bool| move || rows.with(|r| r.iter().filter(|r| f(r)).count());
    let line = move |label: &'static str, hook: &'static str, f: fn(&Row) -> bool| {
        view! {
            <li data-summary=hook>
                <strong>{count(f)}</strong>
                {format!(" {label}")}
            </li>
        }
    };
    view! {
        <ul class="fl-fleet__summary" aria-label="Fleet summary">
            <li data-summary="clusters">
                <strong>{move || rows.with(Vec::len)}</strong>
                " clusters"
            </li>
            {line("ok", "ok", |r| r.state == RowState::Ok)}
            {line("unreachable", "unreachable", |r| r.state == RowState::Unreachable)}
            {line("unauthorized", "unauthorized", |r| r.state == RowState::Unauthorized)}
            {line("still sync from Git", "git", Row::syncs_from_git)}
            {line(
                "root not verified",
                "unverified-root",
                |r| {
                    r.facts
                        .as_ref()
                        .is_some_and(|f| f.root_verified != fluxlens_core::fleet::Verified::Yes)
                },
            )}
            {line(
                "behind the latest patch",
                "behind",
                |r| { r.facts.as_ref().and_then(|f| f.behind_patch()) == Some(true) },
            )}
            {line(
                "with critical findings",
                "critical",
                |r| r.facts.as_ref().is_some_and(|f| f.critical() > 0),
            )}
        </ul>
    }
}

/// A select's value: empty is "none".
fn some(v: String) -> Option<String> {
    Some(v).filter(|v| !v.is_empty())
}

/// What the table sorts by: `(sort= value, label)`, the columns, then every label.
fn sort_choices(labels: &[String]) -> Vec<(String, String)> {
    let columns = [
        (SortKey::Name, "name"),
        (SortKey::State, "state"),
        (SortKey::Flux, "Flux version"),
        (SortKey::Variant, "variant"),
        (SortKey::Root, "root source"),
        (SortKey::Critical, "critical findings"),
        (SortKey::High, "high findings"),
        (SortKey::Missing, "missing references"),
        (SortKey::Updated, "last read"),
        (SortKey::Drift, "drift against the render"),
    ];
    let mut out: Vec<(String, String)> = columns
        .into_iter()
        .map(|(k, label)| (k.name(), label.to_string()))
        .collect();
    out.extend(
        labels
            .iter()
            .map(|k| (SortKey::Label(k.clone()).name(), format!("label {k}"))),
    );
    out
}

/// Every label key of the fleet, and every `key=value` pair.
/// The rows' label keys, and their `key=value` pairs.
type LabelChoices = (Vec<String>, Vec<(String, String)>);

fn label_choices(rows: &[Row]) -> LabelChoices {
    let mut pairs: Vec<(String, String)> = rows
        .iter()
        .flat_map(|r| r.labels.iter().map(|(k, v)| (k.clone(), v.clone())))
        .collect();
    fluxlens_core::util::sort::natural(&mut pairs);
    pairs.dedup();
    let mut keys: Vec<String> = pairs.iter().map(|(k, _)| k.clone()).collect();
    keys.dedup();
    (keys, pairs)
}

/// Filters, grouping, waves, exports and the fleet link.
#[component]
fn FleetControls(
    query: Memo<TableQuery>,
    set_query: Callback<TableQuery>,
    rows: Memo<Vec<Row>>,
) -> impl IntoView {
    let choices = Memo::new(move |_| rows.with(|r| label_choices(r)));
    let edit = move |f: fn(&mut TableQuery, String)| {
        move |ev: leptos::ev::Event| {
            let mut q = query.get_untracked();
            f(&mut q, event_target_value(&ev));
            set_query.run(q);
        }
    };
    let key_options = move |current: fn(&TableQuery) -> Option<String>| {
        move || {
            let chosen = query.with(current);
            choices.with(|(keys, _)| chosen_options(keys, chosen.as_deref()))
        }
    };
    view! {
        <div class="fl-filters" role="group" aria-label="Fleet filters">
            <label>
                "Search "
                <input
                    type="search"
                    prop:value=move || query.with(|q| q.text.clone())
                    on:change=edit(|q, v| q.text = v)
                    data-filter="text"
                />
            </label>
            <label>
                "State "
                <select
                    on:change=edit(|q, v| q.state = some(v))
                    prop:value=move || query.with(|q| q.state.clone().unwrap_or_default())
                    data-filter="state"
                >
                    <option value="">"any"</option>
                    {["ok", "loading", "unreachable", "unauthorized"]
                        .map(|s| view! { <option value=s>{s}</option> })
                        .collect_view()}
                </select>
            </label>
            <LabelFilter query set_query choices />
            <SortSelect query set_query choices />
            <label>
                "Group by "
                <select
                    on:change=edit(|q, v| q.group = some(v))
                    prop:value=move || query.with(|q| q.group.clone().unwrap_or_default())
                    data-filter="group"
                >
                    <option value="">"none"</option>
                    {key_options(|q| q.group.clone())}
                </select>
            </label>
            <label>
                "Waves by "
                <select
                    on:change=edit(|q, v| q.waves = some(v))
                    prop:value=move || query.with(|q| q.waves.clone().unwrap_or_default())
                    data-filter="waves"
                >
                    <option value="">"none"</option>
                    {key_options(|q| q.waves.clone())}
                </select>
            </label>
            <TargetSelect query set_query rows />
        </div>
        <FleetExports query rows />
    }
}

/// Adds a label filter (`key=value` from the rows' labels) and shows each one set as a chip
/// that removes it.
#[component]
fn LabelFilter(
    query: Memo<TableQuery>,
    set_query: Callback<TableQuery>,
    choices: Memo<LabelChoices>,
) -> impl IntoView {
    view! {
        <label>
            "Label "
            <select
                on:change=move |ev| {
                    let v = event_target_value(&ev);
                    if let Some((k, val)) = v.split_once('=') {
                        let mut q = query.get_untracked();
                        q.labels.retain(|(key, _)| key != k);
                        q.labels.push((k.to_string(), val.to_string()));
                        set_query.run(q);
                    }
                }
                prop:value=""
                data-filter="label"
            >
                <option value="">"add a label filter"</option>
                {move || {
                    choices
                        .with(|(_, pairs)| {
                            pairs
                                .iter()
                                .map(|(k, v)| {
                                    let pair = format!("{k}={v}");
                                    view! { <option value=pair.clone()>{pair.clone()}</option> }
                                })
                                .collect_view()
                        })
                }}
            </select>
        </label>
        {move || {
            query
                .with(|q| q.labels.clone())
                .into_iter()
                .map(|(k, v)| {
                    let key = k.clone();
                    view! {
                        <button
                            class="fl-btn fl-chip"
                            type="button"
                            data-active-label=format!("{k}={v}")
                            on:click=move |_| {
                                let mut q = query.get_untracked();
                                q.labels.retain(|(kk, _)| *kk != key);
                                set_query.run(q);
                            }
                        >
                            {format!("{k}={v} ✕")}
                        </button>
                    }
                })
                .collect_view()
        }}
    }
}

/// The sort: by name, state, a column, or a label key.
#[component]
fn SortSelect(
    query: Memo<TableQuery>,
    set_query: Callback<TableQuery>,
    choices: Memo<LabelChoices>,
) -> impl IntoView {
    view! {
        <label>
            "Sort by "
            <select
                on:change=move |ev| {
                    let mut q = query.get_untracked();
                    q.sort = SortKey::parse(&event_target_value(&ev));
                    set_query.run(q);
                }
                data-filter="sort"
            >
                {move || {
                    let chosen = query.with(|q| q.sort.clone().unwrap_or(SortKey::Name).name());
                    sort_choices(&choices.with(|(keys, _)| keys.clone()))
                        .into_iter()
                        .map(|(value, label)| {
                            let on = value == chosen;
                            view! {
                                <option value=value selected=on>
                                    {label}
                                </option>
                            }
                        })
                        .collect_view()
                }}
            </select>
        </label>
    }
}

/// The version a wave must reach: the newest running, or one the rows run.
#[component]
fn TargetSelect(
    query: Memo<TableQuery>,
    set_query: Callback<TableQuery>,
    rows: Memo<Vec<Row>>,
) -> impl IntoView {
    let versions = Memo::new(move |_| {
        let mut v: Vec<String> = rows.with(|r| {
            r.iter()
                .filter_map(|r| r.facts.as_ref()?.flux_version.clone())
                .collect()
        });
        let parse = fluxlens_core::fleet::version::parse;
        fluxlens_core::util::sort::by(&mut v, |a, b| parse(b).cmp(&parse(a)));
        v.dedup();
        v
    });
    let edit = move |ev: leptos::ev::Event| {
        let mut q = query.get_untracked();
        q.target = some(event_target_value(&ev));
        set_query.run(q);
    };
    view! {
        <label>
            "Target "
            <select
                on:change=edit
                prop:value=move || query.with(|q| q.target.clone().unwrap_or_default())
                data-filter="target"
            >
                <option value="">"newest running"</option>
                {move || {
                    let chosen = query.with(|q| q.target.clone());
                    versions.with(|v| chosen_options(v, chosen.as_deref()))
                }}
            </select>
        </label>
    }
}

/// One option per value, each saying whether it is the one chosen: the list arrives after its
/// select, so the select's value alone would not find it.
fn chosen_options(values: &[String], chosen: Option<&str>) -> impl IntoView + use<> {
    values
        .iter()
        .map(|v| {
            let on = chosen == Some(v.as_str());
            view! {
                <option value=v.clone() selected=on>
                    {v.clone()}
                </option>
            }
        })
        .collect_view()
}

/// CSV, JSON and Markdown of the rows shown, and the fleet link.
#[component]
fn FleetExports(query: Memo<TableQuery>, rows: Memo<Vec<Row>>) -> impl IntoView {
    let fleet = expect_context::<FleetState>();
    let prepared = RwSignal::new(None::<Result<(String, usize), String>>);
    let save = move |format: &'static str| {
        move |_| {
            let q = query.get_untracked();
            let all = rows.get_untracked();
            let shown = q.apply(&all);
            let target = waves::target(&all, q.target.as_deref());
            let cx = Context {
                generated_at_ms: js_sys::Date::now() as i64,
                target: target.as_deref(),
            };
            let (name, mime, text) = match format {
                "csv" => ("fluxlens-fleet.csv", "text/csv", export::to_csv(&shown)),
                "json" => (
                    "fluxlens-fleet.json",
                    "application/json",
                    export::to_json(&shown, &cx),
                ),
                _ => (
                    "fluxlens-fleet.md",
                    "text/markdown",
                    export::to_markdown(&shown, &cx),
                ),
            };
            crate::components::download::download(name, mime, &text);
        }
    };
    view! {
        <div class="fl-share" role="group" aria-label="Export and share">
            <button class="fl-btn" type="button" data-export="csv" on:click=save("csv")>
                "CSV"
            </button>
            <button class="fl-btn" type="button" data-export="json" on:click=save("json")>
                "JSON"
            </button>
            <button class="fl-btn" type="button" data-export="markdown" on:click=save("md")>
                "Markdown"
            </button>
            <Show when=move || fleet.snapshot.with(Option::is_none)>
                <button
                    class="fl-btn"
                    type="button"
                    data-fleet-link-make=""
                    on:click=move |_| {
                        prepared.set(Some(prepare(fleet, &query.get_untracked().to_query())));
                    }
                >
                    "Share fleet snapshot"
                </button>
            </Show>
            {move || {
                prepared
                    .get()
                    .map(|p| match p {
                        Ok((link, n)) => {
                            view! {
                                <label class="fl-share__link">
                                    "Fleet snapshot link "
                                    <input
                                        type="text"
                                        readonly
                                        prop:value=link.clone()
                                        data-fleet-link=""
                                        size="40"
                                    />
                                </label>
                                <span class="fl-share__redacted" data-redacted=n>
                                    {format!("{n} values redacted")}
                                </span>
                            }
                                .into_any()
                        }
                        Err(e) => {
                            view! {
                                <span class="fl-notice fl-notice--error" role="alert">
                                    {e}
                                </span>
                            }
                                .into_any()
                        }
                    })
            }}
        </div>
    }
}

/// The waves by the chosen label, each ready to promote or held back by named clusters.
#[component]
fn WavesPanel(query: Memo<TableQuery>, rows: Memo<Vec<Row>>) -> impl IntoView {
    let plan = Memo::new(move |_| {
        let q = query.get();
        let label = q.waves.clone()?;
        rows.with(|rows| {
            let target = waves::target(rows, q.target.as_deref());
            let w = waves::waves(rows, &label, target.as_deref());
            Some((label, target, w))
        })
    });
    move || {
        plan.get().map(|(label, target, list)| {
            let target_text = target.clone().unwrap_or_else(|| "unknown".into());
            view! {
                <section
                    class="fl-card fl-waves"
                    aria-labelledby="waves-title"
                    data-waves=label.clone()
                >
                    <h2 id="waves-title">{format!("Waves by {label} → {target_text}")}</h2>
                    <ol>
                        {list
                            .into_iter()
                            .map(|w| {
                                let (status, text) = wave_text(&w.status);
                                let title = if w.value.is_empty() {
                                    format!("no {label}")
                                } else {
                                    format!("{label}={}", w.value)
                                };
                                view! {
                                    <li data-wave=w.value.clone() data-wave-status=status>
                                        <strong>{title}</strong>
                                        {format!(" ({}): ", w.clusters.join(", "))}
                                        {text}
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ol>
                </section>
            }
        })
    }
}

fn wave_text(s: &WaveStatus) -> (&'static str, String) {
    match s {
        WaveStatus::First => ("first", "first wave — promote when ready".into()),
        WaveStatus::Ready => ("ready", "ready to promote".into()),
        WaveStatus::Unordered => ("unordered", "not in the wave order".into()),
        WaveStatus::HeldBack(held) => {
            let who: Vec<String> = held
                .iter()
                .map(|h| format!("{} ({})", h.cluster, h.reasons.join(", ")))
                .collect();
            ("held", format!("held back by {}", who.join("; ")))
        }
    }
}
