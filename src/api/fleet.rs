//! Loads a fleet: the hub's `/clusters.json`, then every cluster's API under `/clusters/<name>`,
//! a few at a time, each within a deadline, each read whole (as its dashboard's first load) and
//! kept only as its row. One cluster down, slow or unauthorized never blocks or blanks the
//! others; a failed read keeps the last good row, stale since the first failure. Polls about
//! once a minute, paused while the tab is hidden.

use super::{Api, ApiError, loader};
use crate::state::FleetState;
use fluxlens_core::analysis::Analysis;
use fluxlens_core::fleet::{ClusterEntry, ClusterList, Facts, Row};
use leptos::prelude::*;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

/// Default seconds between two rounds of reads.
pub const POLL_SECONDS: u32 = 60;
/// Clusters read at once.
pub const IN_FLIGHT: usize = 4;
/// Longest a cluster's whole read may take before its row says "unreachable".
pub const DEADLINE_SECONDS: u32 = 45;

/// Starts the fleet's reads and its poll.
pub fn start(fleet: FleetState, poll_seconds: u32) {
    leptos::task::spawn_local(async move {
        let mut first = true;
        loop {
            if fleet.snapshot.with_untracked(Option::is_some) {
                return;
            }
            if !first && hidden() {
                gloo_timers::future::TimeoutFuture::new(1000).await;
                continue;
            }
            let listed = read_list().await;
            let ok = listed.is_ok();
            if let Ok(list) = &listed {
                sync_rows(fleet, list);
            }
            if fleet.list.with_untracked(|l| l.as_ref() != Some(&listed)) {
                fleet.list.set(Some(listed));
            }
            if ok {
                read_all(fleet).await;
                fleet.updated_at.set(Some(js_sys::Date::now()));
                if first {
                    crate::perf::mark(crate::perf::DATA_READY);
                }
                first = false;
            }
            let wait = if ok {
                poll_seconds
            } else {
                poll_seconds.min(5)
            };
            gloo_timers::future::TimeoutFuture::new(wait * 1000).await;
        }
    });
}

fn hidden() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.hidden())
}

async fn read_list() -> Result<ClusterList, ApiError> {
    let body = super::get_text("", "/clusters.json", &[]).await?;
    fluxlens_core::fleet::clusters::parse(&body.text()).map_err(ApiError::Decode)
}

/// Keeps each listed cluster's signal (its last row), adds rows for new clusters and drops
/// the ones no longer listed; the list of signals is replaced only when it changes.
fn sync_rows(fleet: FleetState, list: &ClusterList) {
    let now = fleet.rows.get_untracked();
    let same = now.len() == list.clusters.len()
        && now
            .iter()
            .zip(&list.clusters)
            .all(|(r, e)| r.with_untracked(|r| r.name == e.name));
    if same {
        return;
    }
    let rows = list
        .clusters
        .iter()
        .map(|e| {
            now.iter()
                .find(|r| r.with_untracked(|r| r.name == e.name))
                .copied()
                .unwrap_or_else(|| RwSignal::new(Row::loading(e)))
        })
        .collect();
    fleet.rows.set(rows);
}

/// The clusters still to read in this round, shared by the readers.
type Queue = Rc<RefCell<VecDeque<(ClusterEntry, RwSignal<Row>)>>>;

/// Every listed cluster, at most [`IN_FLIGHT`] at once.
async fn read_all(fleet: FleetState) {
    let Some(Ok(list)) = fleet.list.get_untracked() else {
        return;
    };
    let rows = fleet.rows.get_untracked();
    let queue: Queue = Rc::new(RefCell::new(list.clusters.into_iter().zip(rows).collect()));
    let worker = || {
        let queue = queue.clone();
        async move {
            loop {
                let next = queue.borrow_mut().pop_front();
                let Some((entry, row)) = next else { break };
                read_row(&entry, row).await;
            }
        }
    };
    futures_util::future::join_all((0..IN_FLIGHT).map(|_| worker())).await;
}

/// One cluster's read, within the deadline, made into its row and set when it differs.
async fn read_row(entry: &ClusterEntry, row: RwSignal<Row>) {
    let started = js_sys::Date::now();
    let read = loader::read_once(Api::under(&entry.base()));
    let deadline = gloo_timers::future::TimeoutFuture::new(DEADLINE_SECONDS * 1000);
    let read = match futures_util::future::select(Box::pin(read), deadline).await {
        futures_util::future::Either::Left((r, _)) => r,
        futures_util::future::Either::Right(_) => Err(ApiError::Timeout {
            seconds: DEADLINE_SECONDS,
        }),
    };
    let now = js_sys::Date::now() as i64;
    let took = (now as f64 - started).max(0.0) as u32;
    let last = row.get_untracked();
    let next = match read {
        Ok(cluster) => match fluxlens_core::load::partial_load(&cluster.report) {
            // The placeholder report after a good read is a degraded server, not an empty
            // cluster: the last row stays.
            Some(why) if last.facts.is_some() => {
                Row::failed(Some(&last), entry, &ApiError::Degraded(why), now, took)
            }
            _ => {
                let analysis = Analysis::of(&cluster, None);
                Row::read(entry, Facts::of(&cluster, &analysis), now, took)
            }
        },
        Err(e) => Row::failed(Some(&last), entry, &e, now, took),
    };
    let next = last.settled(next);
    if next != last {
        row.set(next);
    }
}
