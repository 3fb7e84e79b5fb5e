//! Header with the cluster's identity, navigation, and the load/error notices.

use super::theme::ThemeState;
use crate::router::NavLink;
use crate::state::AppState;
use leptos::prelude::*;

/// Site header: brand, cluster identity from the report, navigation, theme toggle.
#[component]
pub fn Header() -> impl IntoView {
    let state = AppState::expect();
    let theme = expect_context::<ThemeState>();
    let identity = move || {
        let report = state
            .data
            .with(|d| {
                d.as_ref()
                    .map(|d| std::sync::Arc::new(d.cluster.report.clone()))
            })
            .or_else(|| state.report.get());
        report.map(|r| {
            let s = &r.spec;
            let or = |v: Option<&String>| v.cloned().unwrap_or_else(|| "unknown".into());
            vec![
                ("Flux", or(s.distribution.version.as_ref())),
                (
                    "Operator",
                    or(s.operator.as_ref().and_then(|o| o.version.as_ref())),
                ),
                (
                    "Kubernetes",
                    or(s.cluster.as_ref().and_then(|c| c.server_version.as_ref())),
                ),
                (
                    "Platform",
                    or(s.cluster.as_ref().and_then(|c| c.platform.as_ref())),
                ),
            ]
        })
    };
    view! {
        <header class="fl-header">
            <a class="fl-brand" href=crate::base::href("/")>
                "fluxlens"
            </a>
            {crate::base::fleet_cluster()
                .map(|name| {
                    view! {
                        <a class="fl-btn fl-header__fleet" href="/fleet" rel="external">
                            "← Fleet"
                        </a>
                        <span class="fl-header__scope" data-fleet-cluster=name.clone()>
                            {name.clone()}
                        </span>
                    }
                })}
            <dl class="fl-identity" aria-label="Cluster identity">
                {move || {
                    identity()
                        .unwrap_or_default()
                        .into_iter()
                        .map(|(k, v)| {
                            view! {
                                <div class="fl-identity__item">
                                    <dt>{k}</dt>
                                    <dd data-identity=k>{v}</dd>
                                </div>
                            }
                        })
                        .collect_view()
                }}
            </dl>
            <nav class="fl-nav" aria-label="Views">
                {crate::router::VIEWS
                    .iter()
                    .filter(|r| r.nav.is_some())
                    .map(|r| {
                        view! {
                            <NavLink to=r.path exact=r.path == "/">
                                {r.nav}
                            </NavLink>
                        }
                    })
                    .collect_view()}
            </nav>
            <Freshness />
            <super::share::ShareControls />
            <button
                class="fl-btn fl-btn--icon"
                type="button"
                aria-label=move || theme.0.get().label()
                title=move || theme.0.get().label()
                on:click=move |_| theme.cycle()
            >
                {move || theme.0.get().glyph()}
            </button>
        </header>
    }
}

/// "Updated 14:02:11 UTC" (the operator UI's "Last Updated"), or "stale since" when the last
/// refresh failed. One text that changes only when a poll lands.
#[component]
fn Freshness() -> impl IntoView {
    let state = AppState::expect();
    let text = Memo::new(move |_| {
        use crate::clock::clock;
        let (last_visit, stale_since, updated_at) =
            state.status(|s| (s.last_visit(), s.stale_since, s.updated_at));
        if let Some(t) = last_visit {
            let when = clock(t);
            return Some(("last-visit", format!("Last visit's data, read {when}")));
        }
        match (stale_since, updated_at) {
            (Some(t), _) => Some(("stale", format!("Stale since {}", clock(t)))),
            (None, Some(t)) => Some(("fresh", format!("Updated {}", clock(t)))),
            (None, None) => None,
        }
    });
    // One element whose text and state change in place: a poll does not rebuild it.
    view! {
        <p
            class="fl-freshness"
            role="status"
            hidden=move || text.with(Option::is_none)
            data-freshness=move || text.with(|t| t.as_ref().map(|t| t.0).unwrap_or(""))
        >
            {move || text.with(|t| t.as_ref().map(|t| t.1.clone()).unwrap_or_default())}
        </p>
    }
}

/// Progress of the first load, errors, "stale since", and honest notes on completeness.
#[component]
pub fn Notices() -> impl IntoView {
    let state = AppState::expect();
    // Each notice wakes only for its own part of the loader's status.
    let error_now = Memo::new(move |_| state.status(|s| s.error.clone()));
    let stale_since = Memo::new(move |_| state.status(|s| s.stale_since));
    let progress = Memo::new(move |_| state.status(|s| s.progress.clone()));
    let last_visit_at = Memo::new(move |_| state.status(|s| s.last_visit()));
    let error = move || {
        error_now.get().map(|e| {
            let login = match &e {
                fluxlens_core::wire::error::ApiError::Unauthorized { login_url: Some(u) } => {
                    let here = web_sys::window().map(|w| w.location());
                    let part = |f: fn(&web_sys::Location) -> Result<String, _>| {
                        here.as_ref().and_then(|l| f(l).ok()).unwrap_or_default()
                    };
                    let (path, query, fragment) = (
                        part(web_sys::Location::pathname),
                        part(web_sys::Location::search),
                        part(web_sys::Location::hash),
                    );
                    Some(fluxlens_core::wire::auth::sign_in_url(
                        u, &path, &query, &fragment,
                    ))
                }
                _ => None,
            };
            let stale = stale_since.get().map(|t| {
                format!(
                    "Showing the last good data — stale since {}",
                    crate::clock::clock(t)
                )
            });
            view! {
                <div class="fl-notice fl-notice--error" role="alert" data-error=e.kind()>
                    <p>{e.to_string()}</p>
                    {stale.map(|s| view! { <p class="fl-stale">{s}</p> })}
                    {login
                        .map(|u| {
                            view! {
                                <p>
                                    <a class="fl-btn" href=u rel="external">
                                        "Sign in"
                                    </a>
                                </p>
                            }
                        })}
                </div>
            }
        })
    };
    let notes = move || {
        state.data.get().map(|d| {
            let n = &d.cluster.notes;
            let mut lines = Vec::new();
            if let Some(p) = &n.partial {
                lines.push((String::new(), format!("Incomplete data: {p}.")));
            }
            for (kind, why) in &n.incomplete_kinds {
                lines.push((
                    kind.clone(),
                    format!("Incomplete: {kind} — {why}. Nothing of this kind is called missing."),
                ));
            }
            if let Some(u) = d.summary.unsettled.as_ref() {
                lines.push((String::new(), u.notice()));
            }
            if let Some(kept) = n.kept_notice() {
                lines.push((String::new(), kept));
            }
            if !n.unreadable.is_empty() {
                lines.push((
                    String::new(),
                    format!(
                        "{} could not be read (for example {} — {})",
                        fluxlens_core::analyses::verdict::plural(
                            n.unreadable.len(),
                            "listed object",
                        ),
                        n.unreadable[0].0,
                        n.unreadable[0].1
                    ),
                ));
            }
            lines
                .into_iter()
                .map(|(kind, l)| view! {
                    <p class="fl-notice fl-notice--warn" role="status" data-incomplete-kind=kind>
                        {l}
                    </p>
                })
                .collect_view()
        })
    };
    // The last visit's data, until the first live read lands (an error says it instead).
    let last_visit = move || {
        let t = last_visit_at
            .get()
            .filter(|_| error_now.with(Option::is_none))?;
        let text = format!(
            "Showing your last visit's data, read {} — not live. Reading the cluster…",
            crate::clock::clock(t)
        );
        Some(view! {
            <p class="fl-notice fl-notice--warn" role="status" data-notice="last-visit">
                {text}
            </p>
        })
    };
    view! {
        {last_visit}
        {move || {
            progress
                .get()
                .map(|p| {
                    view! {
                        <p
                            class="fl-notice fl-notice--progress"
                            role="status"
                            aria-live="polite"
                            data-progress=""
                        >
                            "Loading "
                            {p}
                            "…"
                        </p>
                    }
                })
        }}
        {error}
        {notes}
    }
}

/// Who can read through this server, when the page should say it: no sign-in (the operator's
/// service account, cluster-wide, for anyone who reaches the address), or one Anonymous
/// identity for everyone. A memo: a poll that does not change it does not touch the page.
#[component]
pub fn AccessNotice() -> impl IntoView {
    let state = AppState::expect();
    let notice = Memo::new(move |_| {
        state.data.with(|d| {
            let d = d.as_ref()?;
            let text = d.access_notice.clone()?;
            Some((d.access.as_str(), text))
        })
    });
    move || {
        notice.get().map(|(access, text)| {
            view! {
                <p class="fl-notice fl-notice--access" role="note" data-access=access>
                    {text}
                </p>
            }
        })
    }
}
