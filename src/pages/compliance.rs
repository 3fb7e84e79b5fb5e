use super::when_loaded;
use crate::components::download::download;
use crate::components::findings::FindingsList;
use fluxlens_core::analyses::compliance::{
    self, ComplianceQuery, ComponentImage, Profile, ProfileName,
    export::{DataSource, Evidence},
};
use fluxlens_core::analyses::facts::cluster::ClusterFacts;
use leptos::prelude::*;

/// `/compliance`: scorecard for a chosen profile, per-component table, findings, evidence.
#[component]
pub fn CompliancePage() -> impl IntoView {
    let location = crate::router::use_location();
    let set = Callback::new(move |change: QueryChange| {
        let mut q = ComplianceQuery::from_query(&location.search.get_untracked());
        change(&mut q);
        crate::router::push_query(location, &q.to_query());
    });
    let state = crate::state::AppState::expect();
    // Everything the page shows for the data and the chosen profile, as one value: a poll that
    // changes nothing here re-renders nothing, and the profile form is never rebuilt.
    let page = Memo::new(move |_| {
        let search = location.search.get();
        let source = data_source(state);
        state
            .data
            .with(|d| d.as_deref().map(|d| ComplianceView::of(d, &search, source)))
    });
    let profile = Memo::new(move |_| {
        page.with(|p| {
            p.as_ref()
                .map(|p| (p.profile.clone(), p.min_operator.clone()))
                .unwrap_or_default()
        })
    });
    view! {
        <section class="fl-page" aria-labelledby="ent-title">
            <h1 id="ent-title">"Flux Enterprise compliance"</h1>
            {when_loaded(move || {
                view! {
                    {move || page.with(|p| p.as_ref().map(summary))}
                    <ProfileForm profile set />
                    <div class="fl-graph-actions">
                        {export_button(page, "json", "application/json", "Export JSON")}
                        {export_button(page, "md", "text/markdown", "Export Markdown")}
                        {export_button(page, "csv", "text/csv", "Export CSV")}
                    </div>
                    {move || page.with(|p| p.as_ref().map(tables))}
                    <h2>"Compliance findings"</h2>
                    <FindingsList findings=Signal::derive(move || {
                        page.with(|p| p.as_ref().map(|p| p.findings.clone()).unwrap_or_default())
                    }) />
                }
            })}
        </section>
    }
}

/// The verdict and the line under it: the variant and how many controls pass.
fn summary(p: &ComplianceView) -> impl IntoView + use<> {
    view! {
        <crate::components::hero::Hero verdict=p.verdict.clone() />
        <p class="fl-lead" data-summary="compliance">
            "Variant "
            <strong data-variant=p.variant>{p.variant}</strong>
            " · "
            <strong data-count="controls-passed">{p.tally.passed}</strong>
            {format!(" {}", p.tally.after_passed())}
        </p>
    }
}

/// One change to the page's URL query.
type QueryChange = Box<dyn FnOnce(&mut ComplianceQuery)>;

/// The profile the controls are judged under, and the minimum operator version.
#[component]
fn ProfileForm(
    /// The chosen profile's name and minimum operator version.
    profile: Memo<(String, String)>,
    /// Changes the query.
    set: Callback<QueryChange>,
) -> impl IntoView {
    view! {
        <form
            class="fl-filters"
            on:submit=|ev| ev.prevent_default()
            aria-label="Compliance profile"
        >
            <label>
                "Profile "
                <select
                    name="profile"
                    prop:value=move || profile.get().0
                    on:change=move |ev| {
                        let v = ProfileName::parse(&event_target_value(&ev));
                        set.run(Box::new(move |q| q.profile = v))
                    }
                >
                    {ProfileName::ALL
                        .map(|p| view! { <option value=p.as_str()>{p.label()}</option> })
                        .collect_view()}
                </select>
            </label>
            <label>
                "Minimum operator version "
                <input
                    type="text"
                    placeholder="v0.33.0"
                    prop:value=move || profile.get().1
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        set.run(Box::new(move |q| q.set_min_operator(v)))
                    }
                />
            </label>
        </form>
    }
}

/// The scorecard and the components it was judged from.
fn tables(p: &ComplianceView) -> impl IntoView + use<> {
    view! {
        <table class="fl-table" data-table="scorecard">
            <caption>"Scorecard"</caption>
            <thead>
                <tr>
                    <th scope="col">"Control"</th>
                    <th scope="col">"Title"</th>
                    <th scope="col">"Result"</th>
                </tr>
            </thead>
            <tbody>
                {p
                    .controls
                    .iter()
                    .map(|c| {
                        let r = c.outcome.as_str();
                        view! {
                            <tr data-control=c.rule data-result=r>
                                <td>
                                    <a
                                        href=crate::components::findings::rule_href(c.rule)
                                        target="_blank"
                                        rel="external"
                                    >
                                        <code>{c.rule}</code>
                                    </a>
                                </td>
                                <td>{c.title}</td>
                                <td class=format!("fl-result fl-result--{r}")>{r}</td>
                            </tr>
                        }
                    })
                    .collect_view()}
            </tbody>
        </table>
        // Focusable: on a phone it scrolls sideways, and a keyboard must be able to scroll it too.
        <div class="fl-scroll" tabindex="0" role="region" aria-label="Components">
            <table class="fl-table" data-table="components">
                <caption>"Components"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Component"</th>
                        <th scope="col">"Registry"</th>
                        <th scope="col">"Variant"</th>
                        <th scope="col">"Tag"</th>
                        <th scope="col">"Digest"</th>
                        <th scope="col">"Pinned"</th>
                        <th scope="col">"Provenance"</th>
                    </tr>
                </thead>
                <tbody>{p.components.iter().cloned().map(component_row).collect_view()}</tbody>
            </table>
        </div>
    }
}

/// Where the shown data came from, as the evidence states it.
fn data_source(state: crate::state::AppState) -> DataSource {
    state.status(|s| match s.source {
        crate::state::Source::Snapshot(_) => DataSource::Snapshot,
        crate::state::Source::LastVisit { .. } => DataSource::LastVisit,
        crate::state::Source::Live => DataSource::Live {
            stale_since_ms: s.stale_since.map(|t| t as i64),
        },
    })
}

/// The compliance page for one load and one profile.
#[derive(Clone, PartialEq)]
struct ComplianceView {
    profile: String,
    min_operator: String,
    verdict: fluxlens_core::analyses::verdict::Verdict,
    variant: &'static str,
    tally: compliance::Tally,
    controls: Vec<compliance::Control>,
    components: Vec<ComponentImage>,
    findings: Vec<fluxlens_core::analyses::findings::Finding>,
    /// JSON, Markdown, CSV.
    evidence: [String; 3],
    stamp: String,
}

impl ComplianceView {
    fn of(d: &crate::state::Loaded, search: &str, source: DataSource) -> ComplianceView {
        let profile = Profile::from_query(search, &d.cluster);
        let comps = compliance::components(&d.cluster);
        let findings = fluxlens_core::analyses::carried::compliance_findings(
            &d.cluster,
            &profile,
            d.verdicts.as_ref(),
        );
        let controls = compliance::scorecard(&ClusterFacts::of(&d.cluster), &findings);
        let e = Evidence {
            source,
            cluster: &d.cluster,
            profile: &profile,
            components: &comps,
            controls: &controls,
            findings: &findings,
        };
        let evidence = [e.to_json(), e.to_markdown(), e.to_csv()];
        ComplianceView {
            profile: profile.name().to_string(),
            min_operator: profile.min_operator_version.clone().unwrap_or_default(),
            verdict: fluxlens_core::analyses::verdict::compliance(&controls, profile.name()),
            variant: compliance::cluster_variant(&comps)
                .map(|v| v.as_str())
                .unwrap_or("mixed"),
            tally: compliance::Tally::of(&controls),
            stamp: d
                .cluster
                .notes
                .captured_at_ms
                .map(fluxlens_core::util::time::format_rfc3339)
                .unwrap_or_default()
                .replace(':', ""),
            controls,
            components: comps,
            findings,
            evidence,
        }
    }
}

fn export_button(
    page: Memo<Option<ComplianceView>>,
    ext: &'static str,
    mime: &'static str,
    label: &'static str,
) -> impl IntoView {
    let index = match ext {
        "json" => 0,
        "md" => 1,
        _ => 2,
    };
    let click = move |_| {
        page.with_untracked(|p| {
            if let Some(p) = p {
                download(
                    &format!("fluxlens-compliance-{}.{ext}", p.stamp),
                    mime,
                    &p.evidence[index],
                );
            }
        })
    };
    view! {
        <button class="fl-btn" type="button" on:click=click>
            {label}
        </button>
    }
}

fn component_row(x: ComponentImage) -> impl IntoView {
    view! {
        <tr data-component=x.name.clone() data-variant=x.variant.as_str()>
            <th scope="row">{x.name.clone()}</th>
            <td>
                <code>{x.registry.clone()}</code>
            </td>
            <td>{x.variant.as_str()}</td>
            <td>
                <code>{x.tag.clone()}</code>
            </td>
            <td>
                <crate::components::digest::Digest value=x
                    .digest
                    .clone()
                    .unwrap_or_else(|| "—".into()) />
            </td>
            <td>{if x.digest.is_some() { "yes" } else { "no" }}</td>
            <td>{x.provenance()}</td>
        </tr>
    }
}
