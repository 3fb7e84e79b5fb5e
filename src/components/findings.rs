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
                    <ul class="fl-evidence">
                        {f.evidence.iter().map(|e| view! { <li>{e.clone()}</li> }).collect_view()}
                    </ul>
                    <p class="fl-remedy"><strong>"Remediation: "</strong>{f.remediation.clone()}</p>
                </li>
            }).collect_view()}
        </ul>
    }
    .into_any()
}
