//! `/drift`: a repository's render judged against the live cluster (core's drift rules), each
//! row beside the object's live status and linkable.

use super::drift_source::{RenderPicker, Texts};
use crate::components::findings::rule_href;
use crate::state::{AppState, DriftAnswers};
use fluxlens_core::analyses::drift::{self, Drift};
use fluxlens_core::analyses::findings::Finding;
use fluxlens_core::model::{Cluster, ObjectKey};
use leptos::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The render's model; compared by identity (a new read is a new render).
#[derive(Clone)]
struct Declared(Arc<Cluster>);

impl PartialEq for Declared {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// What the page shows.
#[derive(Clone, PartialEq)]
enum Shown {
    /// No render given yet.
    Nothing,
    Waiting(String),
    Failed(String),
    Judged {
        label: String,
        /// Set when it is the judgement a snapshot carried: when that snapshot was taken.
        carried_at: Option<String>,
        /// The query a row's link starts with (`render=…&revision=…`), for a render with an
        /// address.
        link: Option<String>,
        drift: Drift,
        /// Declared objects the lists lack, not yet answered by the server.
        confirming: usize,
        /// The live status of each finding's subject (`absent` when the cluster lacks it).
        live: BTreeMap<ObjectKey, String>,
    },
}

/// The page's query.
#[derive(Clone, PartialEq)]
struct Params {
    /// A render on the page's origin.
    render: Option<String>,
    /// The row to show (`Kind/ns/name`).
    object: Option<String>,
    /// The commit the render was made from (`main@sha1:…`): DRIFT-05 judges the root's.
    revision: Option<String>,
}

fn query(search: &str) -> Params {
    let pairs = fluxlens_core::util::query::parse_query(search.trim_start_matches('?'));
    let get = |k: &str| {
        pairs
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .filter(|v| !v.is_empty())
    };
    Params {
        render: get("render"),
        object: get("object"),
        revision: get("revision"),
    }
}

/// `/drift`: does the cluster run what the repository says? A render read from files picked
/// or dropped (in the browser, sent nowhere) or from a URL on the page's origin, judged
/// against the live cluster by core's drift rules.
#[component]
pub fn DriftPage() -> impl IntoView {
    let state = AppState::expect();
    crate::api::drift::serve(state);
    let location = crate::router::use_location();
    let params = Memo::new(move |_| query(&location.search.get()));
    let picked: RwSignal<Option<Result<Texts, String>>> = RwSignal::new(None);
    // An opened snapshot's judgement, shown until a render is picked here.
    let carried = Memo::new(move |_| match picked.with(Option::is_none) {
        true => state.drift_read.with(|r| r.carried.clone()),
        false => None,
    });
    Effect::new(move |_| {
        // A snapshot's carried judgement needs no render: none is fetched for it.
        let url = match carried.with(Option::is_none) {
            true => params.with(|p| p.render.clone()),
            false => None,
        };
        if state.drift_wanted.with_untracked(|w| w.render_url != url) {
            state.drift_wanted.update(|w| w.render_url = url);
        }
    });
    let texts = Memo::new(move |_| {
        picked
            .get()
            .or_else(|| match carried.with(Option::is_none) {
                true => from_url(state, params),
                false => None,
            })
    });
    let declared = Memo::new(move |_| {
        texts.get().map(|t| {
            t.and_then(|t| {
                fluxlens_core::render::declared(&t.files)
                    .map(|c| (t, Declared(Arc::new(c))))
                    .map_err(|e| e.to_string())
            })
        })
    });
    ask_unlisted(state, declared);
    let shown = Memo::new(move |_| match carried.get() {
        Some(judged) => carried_shown(state, judged),
        None => shown(state, declared, params.with(|p| p.revision.clone())),
    });
    keep_shown(state, shown, params);
    Effect::new(move |_| {
        if shown.with(|s| {
            matches!(
                s,
                Shown::Nothing | Shown::Judged { confirming: 0, .. } | Shown::Failed(_)
            )
        }) {
            crate::perf::mark_after_paint(crate::perf::VIEW_RENDERED);
        }
    });
    view! {
        <section class="fl-page" aria-labelledby="drift-title">
            <h1 id="drift-title">"Drift"</h1>
            <p class="fl-lead">
                "Does the cluster run what the repository says? Open a render (what "
                <code>"flux build"</code> ", " <code>"kustomize build"</code> " or "
                <code>"flate build"</code> " writes): it is read in this browser and sent nowhere."
            </p>
            <RenderPicker picked=picked />
            {move || body(shown.get(), params.with(|p| p.object.clone()))}
        </section>
    }
}

/// The render fetched for the `render` parameter, once it has arrived.
fn from_url(state: AppState, params: Memo<Params>) -> Option<Result<Texts, String>> {
    let url = params.with(|p| p.render.clone())?;
    state.drift_read.with(|r| match &r.render {
        Some((u, text)) if *u == url => Some(text.clone().map(|text| {
            let name = url.rsplit('/').next().unwrap_or("render.yaml");
            let name = name.split(['?', '#']).next().unwrap_or(name).to_string();
            Texts {
                label: url.clone(),
                url: Some(url.clone()),
                files: vec![(name, text)],
            }
        })),
        _ => None,
    })
}

type DeclaredMemo = Memo<Option<Result<(Texts, Declared), String>>>;

/// Asks the server for the declared objects the live lists lack: only the server's NotFound
/// makes an absence.
fn ask_unlisted(state: AppState, declared: DeclaredMemo) {
    Effect::new(move |_| {
        let keys = declared.with(|d| match d {
            Some(Ok((_, Declared(c)))) => state.data.with(|live| {
                live.as_ref()
                    .map(|l| drift::unlisted(c, &l.cluster))
                    .unwrap_or_default()
            }),
            _ => Vec::new(),
        });
        if state.drift_wanted.with_untracked(|w| w.keys != keys) {
            state.drift_wanted.update(|w| w.keys = keys);
        }
    });
}

fn shown(state: AppState, declared: DeclaredMemo, revision: Option<String>) -> Shown {
    let Some(declared) = declared.get() else {
        return match state.drift_wanted.with(|w| w.render_url.clone()) {
            Some(url) => Shown::Waiting(format!("Reading {url}…")),
            None => Shown::Nothing,
        };
    };
    let (texts, Declared(c)) = match declared {
        Ok(d) => d,
        Err(e) => return Shown::Failed(e),
    };
    let keys = state.drift_wanted.with(|w| w.keys.clone());
    let answers = state.drift_read.with(|r| r.answers.clone());
    let asked = match answers {
        Some(DriftAnswers { keys: k, said, .. }) if k == keys => said,
        _ => BTreeMap::new(),
    };
    let confirming = keys.iter().filter(|k| !asked.contains_key(*k)).count();
    state.data.with(|d| {
        let Some(d) = d else {
            return Shown::Waiting("Waiting for cluster data…".into());
        };
        let rendered = revision.as_deref().and_then(drift::Commit::parse);
        let carried_at = None;
        let mut drift = drift::judge(&drift::Input {
            declared: &c,
            live: &d.cluster,
            asked: &asked,
            rendered: rendered.as_ref(),
            behind: None,
        });
        if let Some(r) = revision.as_deref().filter(|_| rendered.is_none()) {
            let why =
                "names no Git commit (a SHA, or BRANCH@sha1:SHA): the root's commit is not judged";
            drift
                .not_compared
                .push((format!("revision={r}"), why.into()));
        }
        let live = live_status(&drift, &d.cluster);
        let enc = fluxlens_core::util::query::encode;
        let link = texts.url.map(|u| match &revision {
            Some(r) => format!("render={}&revision={}", enc(&u), enc(r)),
            None => format!("render={}", enc(&u)),
        });
        Shown::Judged {
            label: texts.label,
            carried_at,
            link,
            drift,
            confirming,
            live,
        }
    })
}

/// The live status of each finding's subject (`absent` when the cluster lacks it).
fn live_status(drift: &Drift, cluster: &Cluster) -> BTreeMap<ObjectKey, String> {
    drift
        .findings
        .iter()
        .map(|f| {
            let status = cluster
                .get(&f.subject)
                .map_or("absent", |o| o.status.as_str());
            (f.subject.clone(), status.to_string())
        })
        .collect()
}

/// A snapshot's carried judgement, beside the snapshot's own statuses; its rows link nowhere
/// (a link would leave the snapshot for the live cluster).
fn carried_shown(state: AppState, judged: drift::Judged) -> Shown {
    let taken = state.data.with(|d| {
        d.as_ref().map(|d| {
            (
                d.cluster.notes.captured_at_ms,
                live_status(&judged.drift, &d.cluster),
            )
        })
    });
    let (at, live) = taken.unwrap_or_default();
    let label = match &judged.revision {
        Some(r) => format!("{} (made from {r})", judged.render),
        None => judged.render,
    };
    Shown::Judged {
        label,
        carried_at: Some(at.map_or("unknown time".into(), crate::clock::dated)),
        link: None,
        drift: judged.drift,
        confirming: 0,
        live,
    }
}

/// Publishes what the view shows, so that a snapshot taken now carries it; nothing once the
/// view closes.
fn keep_shown(state: AppState, shown: Memo<Shown>, params: Memo<Params>) {
    Effect::new(move |_| {
        let judged = shown.with(|s| match s {
            Shown::Judged {
                label,
                carried_at,
                drift,
                confirming,
                ..
            } => Some(drift::Judged {
                render: label.clone(),
                revision: match carried_at {
                    Some(_) => None,
                    None => params.with(|p| p.revision.clone()),
                },
                drift: drift.clone(),
                unconfirmed: *confirming,
            }),
            _ => None,
        });
        if state.drift_read.with_untracked(|r| r.shown != judged) {
            state.drift_read.update(|r| r.shown = judged);
        }
    });
    on_cleanup(move || state.drift_read.update(|r| r.shown = None));
}

fn body(shown: Shown, selected: Option<String>) -> AnyView {
    match shown {
        Shown::Nothing => view! {
            <p class="fl-empty" data-drift="none">
                "No render opened yet."
            </p>
        }
        .into_any(),
        Shown::Waiting(what) => view! {
            <p class="fl-empty" aria-busy="true">
                {what}
            </p>
        }
        .into_any(),
        Shown::Failed(why) => view! {
            <p class="fl-error" role="alert" data-notice="render-unreadable">
                {format!("The render cannot be read: {why}")}
            </p>
        }
        .into_any(),
        Shown::Judged {
            label,
            carried_at,
            link,
            drift,
            confirming,
            live,
        } => {
            let carried = carried_at.map(|at| {
                view! {
                    <p class="fl-notice" data-notice="drift-carried">
                        {format!(
                            "As judged when this snapshot was taken ({at}): the render itself is not in the snapshot; the Live column shows the snapshot's statuses.",
                        )}
                    </p>
                }
            });
            view! {
                {carried}
                {judged(&label, link, &drift, confirming, &live, selected)}
            }
            .into_any()
        }
    }
}

fn judged(
    label: &str,
    link: Option<String>,
    d: &Drift,
    confirming: usize,
    live: &BTreeMap<ObjectKey, String>,
    selected: Option<String>,
) -> impl IntoView {
    let summary = match d.findings.first() {
        None => format!(
            "No drift: {} compared, all in sync.",
            fluxlens_core::analyses::verdict::plural(d.compared, "object")
        ),
        Some(worst) => format!(
            "{}, the worst {}: {} compared, {} in sync.",
            fluxlens_core::analyses::verdict::plural(d.findings.len(), "finding"),
            worst.severity.as_str(),
            fluxlens_core::analyses::verdict::plural(d.compared, "object"),
            d.in_sync
        ),
    };
    let confirming = (confirming > 0).then(|| {
        view! {
            <p class="fl-notice" aria-busy="true" data-notice="drift-confirming">
                {format!(
                    "Confirming {} with the server: not in the live lists, asked by key before any is called absent…",
                    fluxlens_core::analyses::verdict::plural(confirming, "declared object"),
                )}
            </p>
        }
    });
    let rows: Vec<_> = d
        .findings
        .iter()
        .map(|f| row(f, live, link.as_deref(), selected.as_deref()))
        .collect();
    let not_compared = (!d.not_compared.is_empty()).then(|| {
        let items: Vec<_> = d
            .not_compared
            .iter()
            .map(|(what, why)| {
                view! {
                    <li>
                        <code>{what.clone()}</code>
                        ": "
                        {why.clone()}
                    </li>
                }
            })
            .collect();
        view! {
            <details class="fl-details" data-drift="not-compared">
                <summary>
                    {format!("Not compared ({}), never counted as drift", items.len())}
                </summary>
                <ul>{items}</ul>
            </details>
        }
    });
    view! {
        <p class="fl-lead" data-summary="drift" data-findings=d.findings.len()>
            <strong>{summary}</strong>
            " Render: "
            <code>{label.to_string()}</code>
        </p>
        {confirming}
        {(!d.findings.is_empty())
            .then(|| {
                view! {
                    <div class="fl-scroll" tabindex="0" role="region" aria-label="What drifts">
                        <table class="fl-table" data-table="drift">
                            <thead>
                                <tr>
                                    <th scope="col">"Severity"</th>
                                    <th scope="col">"Rule"</th>
                                    <th scope="col">"Object"</th>
                                    <th scope="col">"Live"</th>
                                    <th scope="col">"What differs"</th>
                                </tr>
                            </thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                }
            })}
        {not_compared}
        <p class="fl-note">
            "Values the API does not return (Secrets, fields the render leaves to their defaults) are not compared. The same judgement on the command line: "
            <code>"flux lens drift --live URL RENDER"</code>
        </p>
    }
}

fn row(
    f: &Finding,
    live: &BTreeMap<ObjectKey, String>,
    link: Option<&str>,
    selected: Option<&str>,
) -> AnyView {
    let key = f.subject.to_string();
    let status = live
        .get(&f.subject)
        .cloned()
        .unwrap_or_else(|| "absent".into());
    let status_attr = status.clone();
    let is_selected = selected == Some(key.as_str());
    let link = link.map(|q| {
        let object = fluxlens_core::util::query::encode(&key);
        crate::base::href(&format!("/drift?{q}&object={object}"))
    });
    let object = match link {
        Some(href) => view! {
            <a href=href>
                <code>{key.clone()}</code>
            </a>
        }
        .into_any(),
        None => view! { <code>{key.clone()}</code> }.into_any(),
    };
    let evidence: Vec<_> = f
        .evidence
        .iter()
        .map(|e| view! { <li>{e.clone()}</li> })
        .collect();
    view! {
        <tr
            data-node-id=key.clone()
            data-rule=f.rule.clone()
            data-severity=f.severity.as_str()
            data-status=status_attr
            aria-current=is_selected.then_some("true")
            class=if is_selected { "fl-row--selected" } else { "" }
        >
            <td>
                <span class=format!(
                    "fl-sev fl-finding--{}",
                    f.severity.as_str(),
                )>{f.severity.as_str()}</span>
            </td>
            <td>
                <a class="fl-rule" href=rule_href(&f.rule) target="_blank" rel="external">
                    <code>{f.rule.clone()}</code>
                </a>
            </td>
            <td>{object}</td>
            <td>{status}</td>
            <td>
                {f.message.clone()} <details class="fl-details">
                    <summary>"Evidence and what to do"</summary>
                    <ul class="fl-evidence">{evidence}</ul>
                    <p class="fl-remedy">
                        <strong>"Remediation: "</strong>
                        {f.remediation.clone()}
                    </p>
                </details>
            </td>
        </tr>
    }
    .into_any()
}
