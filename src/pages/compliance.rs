use super::with_data;
use crate::components::download::download;
use crate::components::findings::FindingsList;
use fluxlens_core::compliance::{self, ComponentImage, Profile, export::Evidence};
use leptos::prelude::*;

/// `/compliance`: scorecard for a chosen profile, per-component table, findings, evidence.
#[component]
pub fn CompliancePage() -> impl IntoView {
    let location = crate::router::use_location();
    let set = Callback::new(move |(key, value): (&'static str, String)| {
        let mut pairs: Vec<(String, String)> =
            fluxlens_core::urlstate::parse_query(&location.search.get_untracked())
                .into_iter()
                .filter(|(k, _)| k != key)
                .collect();
        if !value.is_empty() {
            pairs.push((key.to_string(), value));
        }
        let q: Vec<String> = pairs
            .iter()
            .map(|(k, v)| format!("{k}={}", fluxlens_core::urlstate::encode(v)))
            .collect();
        crate::router::replace_query(location, &q.join("&"));
    });
    view! {
        <section class="fl-page" aria-labelledby="ent-title">
            <h1 id="ent-title">"Flux Enterprise compliance"</h1>
            {with_data(move |d| {
                let profile = Profile::from_query(&location.search.get(), &d.cluster);
                let comps = compliance::components(&d.cluster);
                let findings = compliance::findings(&d.cluster, &profile);
                let controls = compliance::scorecard(&d.cluster, &findings);
                let passed = controls.iter().filter(|c| c.pass == Some(true)).count();
                let variant = compliance::cluster_variant(&comps).map(|v| v.as_str()).unwrap_or("mixed");
                let evidence = {
                    let e = Evidence { cluster: &d.cluster, profile: &profile, components: &comps, controls: &controls, findings: &findings };
                    (e.to_json(), e.to_markdown(), e.to_csv())
                };
                let stamp = d.cluster.notes.captured_at_ms.map(fluxlens_core::time::format_rfc3339).unwrap_or_default().replace(':', "");
                let (json, md, csv) = evidence;
                let name = move |ext: &str| format!("fluxlens-compliance-{stamp}.{ext}");
                let (n1, n2, n3) = (name("json"), name("md"), name("csv"));
                let minop = profile.min_operator_version.clone().unwrap_or_default();
                let verdict = fluxlens_core::verdict::compliance(&controls, profile.name());
                view! {
                    <crate::components::hero::Hero verdict=verdict/>
                    <p class="fl-lead" data-summary="compliance">"Variant "<strong data-variant=variant>{variant}</strong>" · "
                        <strong data-count="controls-passed">{passed}</strong>" of "{controls.len()}" controls passed"</p>
                    <form class="fl-filters" on:submit=|ev| ev.prevent_default() aria-label="Compliance profile">
                        <label>"Profile "
                            <select name="profile" prop:value=profile.name() on:change=move |ev| set.run(("profile", event_target_value(&ev)))>
                                <option value="upstream">"upstream (no requirement)"</option>
                                <option value="enterprise">"require Flux Enterprise"</option>
                                <option value="fips">"require FIPS"</option>
                            </select>
                        </label>
                        <label>"Minimum operator version "
                            <input type="text" placeholder="v0.33.0" prop:value=minop on:change=move |ev| set.run(("minop", event_target_value(&ev)))/>
                        </label>
                    </form>
                    <div class="fl-graph-actions">
                        <button class="fl-btn" type="button" on:click=move |_| download(&n1, "application/json", &json)>"Export JSON"</button>
                        <button class="fl-btn" type="button" on:click=move |_| download(&n2, "text/markdown", &md)>"Export Markdown"</button>
                        <button class="fl-btn" type="button" on:click=move |_| download(&n3, "text/csv", &csv)>"Export CSV"</button>
                    </div>
                    <table class="fl-table" data-table="scorecard">
                        <caption>"Scorecard"</caption>
                        <thead><tr><th scope="col">"Control"</th><th scope="col">"Title"</th><th scope="col">"Result"</th></tr></thead>
                        <tbody>{controls.iter().map(|c| {
                            let r = match c.pass { Some(true) => "pass", Some(false) => "fail", None => "unknown" };
                            view! { <tr data-control=c.rule data-result=r><td><code>{c.rule}</code></td><td>{c.title}</td><td class=format!("fl-result fl-result--{r}")>{r}</td></tr> }
                        }).collect_view()}</tbody>
                    </table>
                    <div class="fl-scroll"><table class="fl-table" data-table="components">
                        <caption>"Components"</caption>
                        <thead><tr><th scope="col">"Component"</th><th scope="col">"Registry"</th><th scope="col">"Variant"</th><th scope="col">"Tag"</th><th scope="col">"Digest"</th><th scope="col">"Pinned"</th><th scope="col">"Provenance"</th></tr></thead>
                        <tbody>{comps.into_iter().map(component_row).collect_view()}</tbody>
                    </table></div>
                    <h2>"Compliance findings"</h2>
                    <FindingsList findings=findings/>
                }
            })}
        </section>
    }
}

fn component_row(x: ComponentImage) -> impl IntoView {
    view! {
        <tr data-component=x.name.clone() data-variant=x.variant.as_str()>
            <th scope="row">{x.name.clone()}</th>
            <td><code>{x.registry.clone()}</code></td>
            <td>{x.variant.as_str()}</td>
            <td><code>{x.tag.clone()}</code></td>
            <td><crate::components::digest::Digest value=x.digest.clone().unwrap_or_else(|| "—".into())/></td>
            <td>{if x.digest.is_some() { "yes" } else { "no" }}</td>
            <td>{x.provenance()}</td>
        </tr>
    }
}
