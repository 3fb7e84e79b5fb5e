//! The server's clocks. The Flux Operator's web server does not answer every read from one
//! instant (FO v0.58.1 `internal/web/server.go`: `reportInterval` and `namespaceCacheDuration`,
//! both 20 s):
//! - the report is computed in the background, once at start and then on a ticker
//!   (`report.go` `startReportCache`, `refreshReportCache`); the search index is updated from
//!   the same computation (`h.searchIndex.Update(computeResult.Resources)`), so the per-kind
//!   counts, the cached lists and search (`search_index.go` `SearchResources`) and the kinds the
//!   default live list asks for (`searchIndex.Kinds()` in `resources.go` `GetLiveResources`)
//!   all move on that clock;
//! - each user's namespaces are kept 20 s from when they were fetched, cache-aside
//!   (`kubeclient/client.go` `ListUserNamespaces`): the report's `spec.namespaces`, its counts'
//!   filter and a restricted user's live Lists all read them;
//! - live lists and object reads see the cluster at the request.
//!
//! [`Clocks`] keeps both caches over the simulator's store. `--one-instant` turns them off for a
//! test that needs every answer from the same instant.

use crate::computed::{Computed, Seen};
use crate::faults::Mode;
use crate::store::Store;
use std::collections::HashMap;
use std::sync::Arc;

/// The report's ticker (FO server.go `reportInterval`).
pub const REPORT_INTERVAL_MS: i64 = 20_000;
/// How long a user's namespaces are kept (FO server.go `namespaceCacheDuration`).
pub const NAMESPACE_CACHE_MS: i64 = 20_000;

/// The simulator's time and the server's two caches over it.
#[derive(Debug)]
pub struct Clocks {
    /// Every answer from one instant: no cache is kept.
    pub one_instant: bool,
    /// The report's ticker is held (a test's `/__sim/clock?hold=1`): no refresh until released.
    pub held: bool,
    /// A fixed time (tests); else the wall clock plus `offset_ms`.
    manual_ms: Option<i64>,
    offset_ms: i64,
    started_ms: i64,
    /// The ticker's next tick.
    next_tick_ms: i64,
    computed: Arc<Computed>,
    computed_at_ms: i64,
    /// Per user (the server keys by session): the namespaces and when they were fetched.
    namespaces: HashMap<String, (Vec<String>, i64)>,
}

impl Clocks {
    /// The clocks of a server started now over `store`: the first report is built at start,
    /// synchronously (report.go `startReportCache`).
    pub fn start(store: &Store, one_instant: bool) -> Clocks {
        let mut c = Clocks {
            one_instant,
            held: false,
            manual_ms: None,
            offset_ms: 0,
            started_ms: 0,
            next_tick_ms: 0,
            computed: Arc::default(),
            computed_at_ms: 0,
            namespaces: HashMap::new(),
        };
        c.restart(store);
        c
    }

    /// A server restart: caches dropped, the report built again at once, the ticker anew.
    pub fn restart(&mut self, store: &Store) {
        let now = self.now_ms();
        self.started_ms = now;
        self.next_tick_ms = now + REPORT_INTERVAL_MS;
        self.namespaces.clear();
        self.refresh(store, now);
    }

    /// The simulator's time (ms since the epoch).
    pub fn now_ms(&self) -> i64 {
        self.manual_ms
            .unwrap_or_else(|| crate::replay::now_ms() + self.offset_ms)
    }

    /// Sets a fixed time (tests drive the clocks through time this way).
    #[cfg(test)]
    pub fn set_manual(&mut self, now_ms: i64) {
        self.manual_ms = Some(now_ms);
    }

    /// Moves time forward by `ms` (a test's `/__sim/clock?advance=MS`).
    pub fn advance(&mut self, ms: i64) {
        match &mut self.manual_ms {
            Some(t) => *t += ms,
            None => self.offset_ms += ms,
        }
    }

    /// When the report was last computed.
    pub fn computed_at_ms(&self) -> i64 {
        self.computed_at_ms
    }

    /// Runs the ticks that are due, on the store as it is now. Called before every read and
    /// before every change to the store, so a tick that fell before a change computes the
    /// state before it: what the server's ticker would have seen at that instant.
    pub fn catch_up(&mut self, store: &Store) {
        let now = self.now_ms();
        if self.held || self.one_instant || now < self.next_tick_ms {
            return;
        }
        let ticks = (now - self.started_ms) / REPORT_INTERVAL_MS;
        let last_tick = self.started_ms + ticks * REPORT_INTERVAL_MS;
        self.next_tick_ms = last_tick + REPORT_INTERVAL_MS;
        self.refresh(store, last_tick);
    }

    /// Computes the report now, as a tick would (`/__sim/clock?refresh=1`).
    pub fn refresh_now(&mut self, store: &Store) {
        let now = self.now_ms();
        self.refresh(store, now);
    }

    fn refresh(&mut self, store: &Store, at_ms: i64) {
        self.computed = Arc::new(store.compute());
        self.computed_at_ms = at_ms;
    }

    /// What a request of this user sees now (after [`Clocks::catch_up`]).
    pub fn seen(&mut self, store: &Store, mode: &Mode, seed: u64) -> Seen {
        if self.one_instant {
            return Seen {
                seed,
                ..store.seen_now(mode)
            };
        }
        Seen {
            computed: self.computed.clone(),
            namespaces: self.user_namespaces(store, mode),
            seed,
        }
    }

    /// The user's namespaces: kept for 20 s from the fetch, fetched again on the first request
    /// after that (kubeclient `ListUserNamespaces`).
    fn user_namespaces(&mut self, store: &Store, mode: &Mode) -> Vec<String> {
        let now = self.now_ms();
        let key = user_key(mode);
        match self.namespaces.get(&key) {
            Some((ns, at)) if now - at < NAMESPACE_CACHE_MS => ns.clone(),
            _ => {
                let ns = store.visible_namespaces(mode);
                self.namespaces.insert(key, (ns.clone(), now));
                ns
            }
        }
    }
}

/// The cache key of a user: who the server impersonates (one identity per authentication mode
/// here). Not the grant: a user whose RBAC changes keeps the cached list until it expires.
fn user_key(mode: &Mode) -> String {
    format!("{:?}", mode.authentication())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn demo() -> Store {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/demo");
        Store::from_dir(&dir).unwrap()
    }

    /// `kubectl delete` of one Kustomization.
    fn delete_a_kustomization(store: &mut Store) {
        let k = store
            .entries
            .iter()
            .find(|e| e.obj.key.kind.as_str() == "Kustomization")
            .map(|e| e.obj.key.clone())
            .unwrap();
        assert!(store.remove("Kustomization", &k.namespace, &k.name));
    }

    fn total(c: &Computed, kind: &str) -> u64 {
        c.stats
            .iter()
            .filter(|s| s.kind == kind)
            .flat_map(|s| s.by_namespace.values())
            .map(|n| n.total)
            .sum()
    }

    /// report.go `startReportCache`, `refreshReportCache`: the report is the computation of the
    /// last tick; a change after a tick shows at the next one, not before.
    #[test]
    fn the_report_moves_on_its_twenty_second_ticker() {
        let mut store = demo();
        let mut clocks = Clocks::start(&store, false);
        clocks.set_manual(1_000_000);
        clocks.restart(&store);
        let before = total(&clocks.computed, "Kustomization");
        clocks.advance(5_000);
        clocks.catch_up(&store);
        delete_a_kustomization(&mut store);
        clocks.advance(14_999);
        clocks.catch_up(&store);
        assert_eq!(total(&clocks.computed, "Kustomization"), before, "19.999 s");
        clocks.advance(1);
        clocks.catch_up(&store);
        assert_eq!(total(&clocks.computed, "Kustomization"), before - 1, "20 s");
        assert_eq!(clocks.computed_at_ms(), 1_020_000);
        // Ticks fall on the ticker's grid, however late a request comes.
        clocks.advance(45_000);
        clocks.catch_up(&store);
        assert_eq!(clocks.computed_at_ms(), 1_060_000);
    }

    /// A tick that fell before a change computed the state before it: the store is caught up
    /// before it changes (http.rs `control`).
    #[test]
    fn a_tick_before_a_change_counts_the_state_before_it() {
        let mut store = demo();
        let mut clocks = Clocks::start(&store, false);
        clocks.set_manual(0);
        clocks.restart(&store);
        let before = total(&clocks.computed, "Kustomization");
        clocks.advance(25_000);
        clocks.catch_up(&store); // what every control does before it edits
        delete_a_kustomization(&mut store);
        clocks.catch_up(&store);
        assert_eq!(total(&clocks.computed, "Kustomization"), before);
        clocks.advance(15_000);
        clocks.catch_up(&store);
        assert_eq!(total(&clocks.computed, "Kustomization"), before - 1);
    }

    /// kubeclient `ListUserNamespaces`: cache-aside, 20 s from the fetch.
    #[test]
    fn a_users_namespaces_are_kept_twenty_seconds_from_their_fetch() {
        let store = demo();
        let mut clocks = Clocks::start(&store, false);
        clocks.set_manual(0);
        let mut mode = Mode {
            namespaces: Some(vec!["flux-system".into()]),
            ..Default::default()
        };
        assert_eq!(clocks.seen(&store, &mode, 0).namespaces, ["flux-system"]);
        // A new grant for the same user shows once the cached list expires, not before.
        mode.namespaces = Some(vec!["flux-system".into(), "apps".into()]);
        clocks.advance(19_999);
        assert_eq!(clocks.seen(&store, &mode, 0).namespaces, ["flux-system"]);
        clocks.advance(1);
        assert_eq!(
            clocks.seen(&store, &mode, 0).namespaces,
            ["apps", "flux-system"]
        );
    }

    /// `--one-instant`: every answer computed at the request.
    #[test]
    fn one_instant_answers_from_the_store_as_it_is() {
        let mut store = demo();
        let mut clocks = Clocks::start(&store, true);
        let before = total(
            &clocks.seen(&store, &Mode::default(), 0).computed,
            "Kustomization",
        );
        delete_a_kustomization(&mut store);
        let after = total(
            &clocks.seen(&store, &Mode::default(), 0).computed,
            "Kustomization",
        );
        assert_eq!(after, before - 1);
    }
}
