//! The fleet snapshot link: the rows as shown, redacted, in the URL fragment (`#fleet=`). It opens
//! read-only and reaches no cluster, not even the hub's list.

use crate::state::FleetState;
use fluxlens_core::fleet::link::{self, FleetSnapshot};
use fluxlens_core::fleet::{ClusterEntry, ClusterList};
use leptos::prelude::*;

/// The fragment key that carries a fleet link.
pub const FRAGMENT_KEY: &str = "fleet=";

/// The fleet link in the page's fragment, if any.
pub fn fragment_link() -> Option<String> {
    let hash = web_sys::window()?.location().hash().ok()?;
    hash.trim_start_matches('#')
        .strip_prefix(FRAGMENT_KEY)
        .map(str::to_string)
}

/// Shows a fleet link's rows; a damaged link says why and shows no rows.
pub fn open_link(fleet: FleetState, text: &str) {
    fleet.snapshot.set(Some(crate::clock::dated(0)));
    match link::decode(text) {
        Ok(snap) => {
            let clusters = snap
                .rows
                .iter()
                .map(|r| ClusterEntry {
                    name: r.name.clone(),
                    labels: r.labels.clone(),
                    ui: r.ui.clone(),
                    render: r.render.clone(),
                    revision: r.revision.clone(),
                })
                .collect();
            fleet.list.set(Some(Ok(ClusterList {
                clusters,
                refused: vec![],
            })));
            fleet
                .rows
                .set(snap.rows.into_iter().map(RwSignal::new).collect());
            fleet
                .snapshot
                .set(Some(crate::clock::dated(snap.captured_at_ms)));
            crate::perf::mark(crate::perf::DATA_READY);
        }
        Err(e) => fleet.link_error.set(Some(e.to_string())),
    }
}

/// The link of the rows as they stand, with the view's query, and how many values were
/// redacted; `Err` with why when redaction could not complete (nothing is shared then).
pub fn prepare(fleet: FleetState, query: &str) -> Result<(String, usize), String> {
    let snap = FleetSnapshot {
        captured_at_ms: js_sys::Date::now() as i64,
        query: query.to_string(),
        rows: fleet.current(),
        redacted: 0,
    };
    let (encoded, redacted) = link::encode(&snap).map_err(|e| e.to_string())?;
    let origin = web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    let sep = if query.is_empty() { "" } else { "?" };
    Ok((
        format!("{origin}/fleet{sep}{query}#{FRAGMENT_KEY}{encoded}"),
        redacted,
    ))
}

/// The banner over a fleet link, or why it could not be opened.
#[component]
pub fn FleetLinkBanner() -> impl IntoView {
    let fleet = expect_context::<FleetState>();
    move || {
        let err = fleet.link_error.get().map(|e| {
            view! {
                <div class="fl-notice fl-notice--error" role="alert" data-snapshot-error="">
                    {e}
                    " "
                    <a href="/fleet" rel="external">
                        "Open the live fleet"
                    </a>
                </div>
            }
        });
        let banner = fleet
            .snapshot
            .get()
            .filter(|_| fleet.link_error.with(Option::is_none))
            .map(|at| {
                view! {
                    <div class="fl-notice fl-notice--snapshot" role="status" data-snapshot="">
                        <strong>"Fleet snapshot — not live. "</strong>
                        {format!("Taken at {at} · read-only · no cluster is contacted")}
                        " "
                        <a href="/fleet" rel="external">
                            "Open the live fleet"
                        </a>
                    </div>
                }
            });
        (err, banner)
    }
}
