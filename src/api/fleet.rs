//! Loads a fleet: the hub's `/clusters.json`, then every cluster's API under `/clusters/<name>`,
//! a few at a time. Each cluster has its reader (`loader::ClusterReader`): the first read whole,
//! as its dashboard's first load, then each round a poll, costing what a dashboard's poll
//! costs. One cluster down, slow or unauthorized never blocks or blanks the others: past the
//! deadline its row says so and its read goes on without holding a reader's turn, landing in
//! its row when it completes; a failed read keeps the last good row, stale since the first
//! failure. Polls about once a minute, paused while the tab is hidden. A cluster whose entry
//! names a render gets its drift counted after each good read (`fleet_drift`).

use super::fleet_drift::DriftKeeper;
use super::{Api, ApiError, loader};
use crate::state::FleetState;
use fluxlens_core::analyses::analysis::Analysis;
use fluxlens_core::fleet::{ClusterEntry, ClusterList, DriftCell, Facts, Row};
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::collections::{HashMap, VecDeque};
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
        let readers = Readers::default();
        let mut first = true;
        loop {
            if fleet.snapshot.with_untracked(Option::is_some) {
                return;
            }
            if !first && hidden() {
                gloo_timers::future::TimeoutFuture::new(1000).await;
                continue;
            }
            crate::perf::mark_once(crate::perf::POLL_STARTED);
            let listed = read_list().await;
            let ok = listed.is_ok();
            if let Ok(list) = &listed {
                sync_rows(fleet, list);
            }
            if fleet.list.with_untracked(|l| l.as_ref() != Some(&listed)) {
                fleet.list.set(Some(listed));
            }
            if ok {
                read_all(fleet, &readers).await;
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

/// What is kept of one cluster between rounds: its reader, and its drift against the render
/// its entry names.
struct Member {
    reader: loader::ClusterReader,
    drift: DriftKeeper,
}

/// Each cluster's member by name, kept between rounds; `None` while its read is in flight (a
/// slow read goes on past the deadline, and the next round leaves that cluster to it).
#[derive(Clone, Default)]
struct Readers(Rc<RefCell<HashMap<String, Option<Member>>>>);

impl Readers {
    /// Takes `entry`'s member (a new one the first time); `None` while its read is in flight.
    fn take(&self, entry: &ClusterEntry) -> Option<Member> {
        let mut map = self.0.borrow_mut();
        let slot = map.entry(entry.name.clone()).or_insert_with(|| {
            Some(Member {
                reader: loader::ClusterReader::new(Api::under(&entry.base())),
                drift: DriftKeeper::default(),
            })
        });
        slot.take()
    }

    fn put_back(&self, name: &str, member: Member) {
        self.0.borrow_mut().insert(name.to_string(), Some(member));
    }
}

/// Every listed cluster, at most [`IN_FLIGHT`] at once.
async fn read_all(fleet: FleetState, readers: &Readers) {
    let Some(Ok(list)) = fleet.list.get_untracked() else {
        return;
    };
    let listed: Vec<&str> = list.clusters.iter().map(|c| c.name.as_str()).collect();
    readers
        .0
        .borrow_mut()
        .retain(|name, _| listed.contains(&name.as_str()));
    let rows = fleet.rows.get_untracked();
    let queue: Queue = Rc::new(RefCell::new(list.clusters.into_iter().zip(rows).collect()));
    let worker = || {
        let queue = queue.clone();
        async move {
            loop {
                let next = queue.borrow_mut().pop_front();
                let Some((entry, row)) = next else { break };
                read_row(&entry, row, readers).await;
            }
        }
    };
    futures_util::future::join_all((0..IN_FLIGHT).map(|_| worker())).await;
}

/// One cluster's read. It runs as a task of its own: waited for up to the deadline, after which
/// the row says the read is late and the worker moves on while the read goes on, landing in the
/// row when it completes (a cluster slower than the deadline used never to get a row).
async fn read_row(entry: &ClusterEntry, row: RwSignal<Row>, readers: &Readers) {
    let Some(mut member) = readers.take(entry) else {
        return; // still reading since an earlier round
    };
    let started = js_sys::Date::now();
    let done = Rc::new(Cell::new(false));
    leptos::task::spawn_local({
        let (entry, readers, done) = (entry.clone(), readers.clone(), done.clone());
        async move {
            let read = member.reader.read().await.map(|c| c.map(Rc::new));
            if let (Ok(Some(cluster)), Some(_)) = (&read, &entry.render) {
                member.drift.changed(cluster.clone());
            }
            let took = (js_sys::Date::now() - started).max(0.0) as u32;
            let drift = match &read {
                Ok(_) => member.drift.cell(&entry).await,
                Err(_) => None,
            };
            readers.put_back(&entry.name, member);
            set_row(row, &entry, read, drift, took);
            done.set(true);
        }
    });
    let deadline_ms = f64::from(DEADLINE_SECONDS) * 1000.0;
    while !done.get() && js_sys::Date::now() - started < deadline_ms {
        gloo_timers::future::TimeoutFuture::new(100).await;
    }
    if !done.get() {
        let late = ApiError::Timeout {
            seconds: DEADLINE_SECONDS,
        };
        set_row(row, entry, Err(late), None, deadline_ms as u32);
    }
}

/// Makes a read, and its drift when its entry names a render, into its row and sets it when it
/// differs.
fn set_row(
    row: RwSignal<Row>,
    entry: &ClusterEntry,
    read: Result<Option<Rc<fluxlens_core::model::Cluster>>, ApiError>,
    drift: Option<DriftCell>,
    took: u32,
) {
    let now = js_sys::Date::now() as i64;
    let last = row.get_untracked();
    let next = match read {
        // Nothing changed since the last read: the same facts, read again now.
        Ok(None) => match last.facts.clone() {
            Some(facts) => Row::read(entry, Facts { drift, ..facts }, now, took),
            None => last.clone(),
        },
        Ok(Some(cluster)) => match fluxlens_core::load::partial_load(&cluster.report) {
            // The placeholder report after a good read is a degraded server, not an empty
            // cluster: the last row stays.
            Some(why) if last.facts.is_some() => {
                Row::failed(Some(&last), entry, &ApiError::Degraded(why), now, took)
            }
            _ => {
                let analysis = Analysis::of(&cluster, None);
                let facts = Facts {
                    drift,
                    ..Facts::of(&cluster, &analysis)
                };
                Row::read(entry, facts, now, took)
            }
        },
        Err(e) => Row::failed(Some(&last), entry, &e, now, took),
    };
    let next = last.settled(next);
    if next != last {
        row.set(next);
    }
}
