//! A fleet row's drift: the render its fleet entry names, fetched from the hub's origin each
//! round (a merge changes it), judged against the cluster's read by core's drift rules, the
//! declared objects the lists lack read by key through that cluster's API first (only its
//! NotFound makes an absence). Judged again only when the cluster or the render changed.

use super::{Api, drift};
use fluxlens_core::fleet::{ClusterEntry, DriftCell, drift as fleet_drift};
use fluxlens_core::model::Cluster;
use std::rc::Rc;

/// One cluster's drift between rounds: the cluster last read (kept only for a cluster whose
/// entry names a render, to judge a new render against), and the last judgement with the
/// render's text it was made from.
#[derive(Default)]
pub struct DriftKeeper {
    live: Option<Rc<Cluster>>,
    judged: Option<(Rc<str>, DriftCell)>,
}

impl DriftKeeper {
    /// Keeps the cluster a read found changed: the judgement is made again.
    pub fn changed(&mut self, live: Rc<Cluster>) {
        self.live = Some(live);
        self.judged = None;
    }

    /// The row's drift after a good read, or `None` when the entry names no render.
    pub async fn cell(&mut self, entry: &ClusterEntry) -> Option<DriftCell> {
        let path = entry.render.as_deref()?;
        let live = self.live.clone()?;
        let text: Rc<str> = match drift::fetch_render(path).await {
            Ok(text) => text.into(),
            Err(why) => return Some(DriftCell::Unreadable(why)),
        };
        if let Some((seen, cell)) = &self.judged
            && **seen == *text
        {
            return Some(cell.clone());
        }
        let (cell, settled) = match fleet_drift::declared(path, &text) {
            Err(why) => (DriftCell::Unreadable(why), true),
            Ok(declared) => {
                let keys = fluxlens_core::analyses::drift::unlisted(&declared, &live);
                let api = Api::under(&entry.base());
                let answers = drift::ask(&api, &live.report, &keys).await;
                let revision = entry.revision.as_deref();
                let cell = fleet_drift::judge(&declared, &live, &answers.said, revision);
                // What the server did not answer is asked again next round.
                (cell, answers.error.is_none())
            }
        };
        if settled {
            self.judged = Some((text, cell.clone()));
        }
        Some(cell)
    }
}
