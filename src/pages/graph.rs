use super::{findings_with, with_data};
use crate::components::status::StatusPill;
use fluxlens_core::{ObjectKey, Status};
use leptos::prelude::*;

/// `/graph`: sources and what consumes them. (The laid-out SVG graph lands with its issue;
/// until then this is the reference list the graph is built from.)
#[component]
pub fn GraphPage() -> impl IntoView {
    view! {
        <section class="fl-page" aria-labelledby="gr-title">
            <h1 id="gr-title">"Source graph"</h1>
            {with_data(|d| {
                let rows: Vec<_> = d.cluster.objects().iter().flat_map(|o| o.refs.iter().map(move |r| (o.key.clone(), o.status, r.clone()))).collect();
                let status_of = |k: &ObjectKey| d.cluster.get(k).map(|o| o.status).unwrap_or(Status::Missing);
                view! {
                    <table class="fl-table" data-table="edges">
                        <caption>"References (consumer → target)"</caption>
                        <thead><tr><th scope="col">"Consumer"</th><th scope="col">"Reference"</th><th scope="col">"Target"</th><th scope="col">"Target status"</th></tr></thead>
                        <tbody>
                            {rows.into_iter().map(|(from, st, r)| {
                                let ts = status_of(&r.target);
                                view! {
                                    <tr>
                                        <td data-node-id=from.to_string() data-status=st.as_str()>{from.to_string()}</td>
                                        <td>{r.kind.as_str()}</td>
                                        <td data-node-id=r.target.to_string() data-status=ts.as_str()>{r.target.to_string()}</td>
                                        <td><StatusPill status=ts/></td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                    <h2>"Reference findings"</h2>
                    <crate::components::findings::FindingsList findings=findings_with(&d, &["MIG-GO-02"])/>
                }
            })}
        </section>
    }
}
