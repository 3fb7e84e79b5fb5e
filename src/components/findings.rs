//! The findings list: severity, rule id, message, evidence, remediation.

use fluxlens_core::findings::Finding;
use leptos::prelude::*;

/// Findings as an accessible list; each item carries `data-rule` and `data-severity`.
#[component]
pub fn FindingsList(
    /// The findings to show, worst first.
    findings: Vec<Finding>,
) -> impl IntoView {
    if findings.is_empty() {
        return view! { <p class="fl-empty">"No findings."</p> }.into_any();
    }
    view! {
        <ul class="fl-findings">
            {findings.into_iter().map(|f| view! {
                <li class=format!("fl-finding fl-finding--{}", f.severity.as_str()) data-rule=f.rule.clone() data-severity=f.severity.as_str()>
                    <div class="fl-finding__head">
                        <span class="fl-sev">{f.severity.as_str()}</span>
                        <code class="fl-rule">{f.rule.clone()}</code>
                        <span class="fl-finding__msg">{f.message.clone()}</span>
                    </div>
                    <p class="fl-reason" data-reason="">{format!("{}: {}", f.severity.as_str(), f.reason)}</p>
                    {if f.members.is_empty() {
                        view! {
                            <ul class="fl-evidence">
                                {f.evidence.iter().map(|e| view! { <li>{e.clone()}</li> }).collect_view()}
                            </ul>
                        }.into_any()
                    } else {
                        view! { <MemberList count=f.members.len() lines=f.evidence.clone()/> }.into_any()
                    }}
                    <p class="fl-remedy"><strong>"Remediation: "</strong>{f.remediation.clone()}</p>
                </li>
            }).collect_view()}
        </ul>
    }
    .into_any()
}

/// The objects of an aggregated finding: collapsed, and filterable once opened.
#[component]
fn MemberList(
    /// How many objects.
    count: usize,
    /// One line per object (`Kind/ns/name — message`).
    lines: Vec<String>,
) -> impl IntoView {
    let filter = RwSignal::new(String::new());
    let shown = move || {
        let q = filter.get().to_lowercase();
        lines
            .iter()
            .filter(|l| q.is_empty() || l.to_lowercase().contains(&q))
            .map(|l| view! { <li>{l.clone()}</li> })
            .collect_view()
    };
    view! {
        <details class="fl-members" data-members=count>
            <summary>{format!("{count} objects")}</summary>
            <label>"Filter "<input type="search" class="fl-input" aria-label="Filter objects"
                on:input=move |ev| filter.set(event_target_value(&ev))/></label>
            <ul class="fl-evidence">{shown}</ul>
        </details>
    }
}
