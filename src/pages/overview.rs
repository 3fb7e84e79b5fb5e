use super::with_data;
use crate::components::findings::FindingsList;
use crate::components::hero::Hero;
use fluxlens_core::Status;
use leptos::prelude::*;

/// `/`: objects by kind and status, missing references, findings.
#[component]
pub fn OverviewPage() -> impl IntoView {
    view! {
        <section class="fl-page" aria-labelledby="ov-title">
            <h1 id="ov-title">"Overview"</h1>
            {with_data(|d| {
                let s = d.summary.clone();
                let sev = s.findings_by_severity;
                let verdict = fluxlens_core::verdict::overview(&d.findings);
                view! {
                    <Hero verdict=verdict/>
                    <div class="fl-cards">
                        <article class="fl-card" data-card="objects">
                            <h2>"Objects"</h2>
                            <p class="fl-big" data-count="objects">{s.total}</p>
                            <p><a href=crate::base::href("/graph")>"Open the source graph"</a></p>
                        </article>
                        <article class="fl-card" data-card="missing">
                            <h2>"Missing references"</h2>
                            <p class="fl-big" data-count="missing">{s.missing_refs}</p>
                            <p><a href=crate::base::href("/graph?status=Missing")>"Show missing in the graph"</a></p>
                        </article>
                        <article class="fl-card" data-card="cycles">
                            <h2>"dependsOn cycles"</h2>
                            <p class="fl-big" data-count="cycles">{d.graph.cycles.len()}</p>
                            <p><a href=crate::base::href("/graph?problems=1")>"Show problems in the graph"</a></p>
                        </article>
                        <article class="fl-card" data-card="signatures">
                            <h2>"Signatures"</h2>
                            <p class="fl-big"><span data-count="verified">{d.signatures.verified}</span>" / "<span data-count="verifiable">{d.signatures.verifiable}</span></p>
                            <p>"verifiable sources verified; root source verified: "
                                <strong data-root-verified="">{d.signatures.root_label()}</strong></p>
                            <p><a href=crate::base::href("/signatures")>"Open signatures"</a></p>
                        </article>
                        {
                            let controls = &d.controls;
                            let passed = controls.iter().filter(|c| c.pass == Some(true)).count();
                            let worst = d.findings.iter().filter(|f| f.rule.starts_with("ENT-")).filter(|f| f.severity > fluxlens_core::findings::Severity::Info).map(|f| format!("{} {} {}", f.severity.as_str(), f.rule, f.message)).next().unwrap_or_else(|| "none".into());
                            view! {
                                <article class="fl-card" data-card="compliance">
                                    <h2>"Compliance"</h2>
                                    <p><strong data-variant="">{d.variant.map(|v| v.as_str()).unwrap_or("mixed")}</strong></p>
                                    <p>{format!("{passed} of {} controls passed", controls.len())}</p>
                                    <p>"Worst: "{worst}</p>
                                    <p><a href=crate::base::href("/compliance")>"Open compliance"</a></p>
                                </article>
                            }
                        }
                        <article class="fl-card" data-card="findings">
                            <h2>"Findings"</h2>
                            <p class="fl-big" data-count="findings">{sev.iter().sum::<usize>()}</p>
                            <p>
                                <span data-count="critical">{sev[4]}</span>" critical · "
                                <span data-count="high">{sev[3]}</span>" high · "
                                <span data-count="medium">{sev[2]}</span>" medium · "
                                <span data-count="low">{sev[1]}</span>" low · "
                                <span data-count="info">{sev[0]}</span>" info"
                            </p>
                            <p>"affecting "<span data-count="affected">{s.affected_objects}</span>" objects"</p>
                        </article>
                    </div>
                    <div class="fl-cards">
                        {d.migrations.iter().map(|m| {
                            let cur = if m.started {
                                m.current().map(|s| (format!("{} {}", s.id, s.title), s.state.as_str(), s.progress.clone())).unwrap_or_default()
                            } else {
                                ("no sign of this migration".to_string(), m.badge(), None)
                            };
                            view! {
                                <article class="fl-card" data-card=format!("migration-{}", m.id) data-badge=m.badge()>
                                    <h2>{m.title.clone()}</h2>
                                    <p><strong data-current-stage="">{cur.0}</strong>" ("{cur.1}")"</p>
                                    {cur.2.map(|(d, t, w)| view! { <p>{format!("{d} of {t} {w}")}</p> })}
                                    {(!m.blockers.is_empty()).then(|| view! { <p class="fl-blocked">{format!("{} blockers", m.blockers.len())}</p> })}
                                    <p><a href=crate::base::href("/migrations")>"Open migrations"</a></p>
                                </article>
                            }
                        }).collect_view()}
                    </div>
                    <table class="fl-table" data-table="by-kind">
                        <caption>"Objects by kind and status"</caption>
                        <thead><tr><th scope="col">"Kind"</th>
                            {Status::ALL.iter().map(|st| view! { <th scope="col">{st.as_str()}</th> }).collect_view()}
                        </tr></thead>
                        <tbody>
                            {s.by_kind.iter().map(|(k, c)| view! {
                                <tr data-kind=k.as_str().to_string()><th scope="row"><a href=crate::base::href(&format!("/graph?kind={}", k.as_str()))>{k.as_str().to_string()}</a></th>
                                    {c.iter().zip(Status::ALL).map(|(n, st)| view! { <td>{(*n > 0).then(|| view! { <a href=crate::base::href(&format!("/graph?kind={}&status={}", k.as_str(), st.as_str()))>{*n}</a> })}{(*n == 0).then_some("0")}</td> }).collect_view()}
                                </tr>
                            }).collect_view()}
                        </tbody>
                    </table>
                    <h2>"Findings"</h2>
                    <FindingsList findings=d.findings.clone()/>
                }
            })}
        </section>
    }
}
