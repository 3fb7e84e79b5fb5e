//! The findings list: severity, rule id, message, evidence, remediation.

use fluxlens_core::analyses::findings::Finding;
use leptos::prelude::*;

/// Findings as an accessible list; each item carries `data-rule` and `data-severity`. Keyed by
/// content: a finding that did not change keeps its element (and an opened member list).
#[component]
pub fn FindingsList(
    /// The findings to show, worst first.
    #[prop(into)]
    findings: Signal<Vec<Finding>>,
) -> impl IntoView {
    let keyed = Memo::new(move |_| super::keyed::content_keys(findings.get()));
    view! {
        <Show
            when=move || keyed.with(|k| !k.is_empty())
            fallback=|| view! { <p class="fl-empty">"No findings."</p> }
        >
            <ul class="fl-findings">
                <For each=move || keyed.get() key=|(k, _)| *k let:item>
                    {finding_item(item.1)}
                </For>
            </ul>
        </Show>
    }
}

fn finding_item(f: Finding) -> impl IntoView {
    view! {
        <li
            class=format!("fl-finding fl-finding--{}", f.severity.as_str())
            data-rule=f.rule.clone()
            data-severity=f.severity.as_str()
        >
            <div class="fl-finding__head">
                <span class="fl-sev">{f.severity.as_str()}</span>
                <a
                    class="fl-rule"
                    href=rule_href(&f.rule)
                    target="_blank"
                    rel="external"
                    title="What this rule checks, how loud it can be, its sources"
                >
                    <code>{f.rule.clone()}</code>
                </a>
                <span class="fl-finding__msg">{f.message.clone()}</span>
            </div>
            <p class="fl-reason" data-reason="">
                {format!("{}: {}", f.severity.as_str(), f.reason)}
            </p>
            {evidence(&f)}
            {chain_link(&f)}
            <p class="fl-remedy">
                <strong>"Remediation: "</strong>
                {f.remediation.clone()}
            </p>
        </li>
    }
}

/// The rule's entry in the reference shipped beside the app (generated from core's registry).
pub fn rule_href(rule: &str) -> String {
    format!(
        "{}#{}",
        crate::base::asset("rules.html"),
        fluxlens_core::analyses::findings::reference::anchor(rule)
    )
}

/// The evidence: one line each, or for an aggregated finding the collapsed member list. A
/// deadlock (MIG-GO-15) always shows its chain of waits; the objects held behind it fold.
fn evidence(f: &Finding) -> AnyView {
    let deadlock = f.rule == DEADLOCK;
    if f.members.is_empty() || deadlock {
        let chain: Vec<String> = f
            .evidence
            .iter()
            .filter(|e| !(deadlock && e.starts_with(HELD)))
            .cloned()
            .collect();
        let members = (!f.members.is_empty()).then(|| {
            let lines: Vec<String> = f.members.iter().map(|k| k.to_string()).collect();
            view! { <MemberList count=lines.len() lines=lines /> }
        });
        view! {
            <ul class="fl-evidence">
                {chain.into_iter().map(|e| view! { <li>{e}</li> }).collect_view()}
            </ul>
            {members}
        }
        .into_any()
    } else {
        view! { <MemberList count=f.members.len() lines=f.evidence.clone() /> }.into_any()
    }
}

/// The rule the reconcile-order model speaks through, and how its evidence names the objects
/// held behind a deadlock.
const DEADLOCK: &str = "MIG-GO-15";
const HELD: &str = "also held: ";

/// A deadlock's chain of waits, focused in the graph (its subject, upstream and downstream).
fn chain_link(f: &Finding) -> Option<impl IntoView + use<>> {
    (f.rule == DEADLOCK && f.severity >= fluxlens_core::analyses::findings::Severity::High).then(
        || {
            let href = crate::base::href(&fluxlens_core::share::urlstate::link::graph_focusing(
                &f.subject,
            ));
            view! {
                <p class="fl-finding__chain">
                    <a href=href data-chain-focus=f.subject.to_string()>
                        "Focus the chain of waits in the graph"
                    </a>
                </p>
            }
        },
    )
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
        // ASCII case folding: names and messages are ASCII, and Unicode's tables would cost the
        // main module 14 KB (#51).
        let q = filter.get().to_ascii_lowercase();
        lines
            .iter()
            .filter(|l| q.is_empty() || l.to_ascii_lowercase().contains(&q))
            .map(|l| view! { <li>{l.clone()}</li> })
            .collect_view()
    };
    view! {
        <details class="fl-members" data-members=count>
            <summary>{fluxlens_core::analyses::verdict::plural(count, "object")}</summary>
            <label>
                "Filter "
                <input
                    type="search"
                    class="fl-input"
                    aria-label="Filter objects"
                    on:input=move |ev| filter.set(event_target_value(&ev))
                />
            </label>
            <ul class="fl-evidence">{shown}</ul>
        </details>
    }
}
