//! What a fluxlens tab costs the Flux Operator it reads (#47 "server cost"): core's poller run
//! natively against the simulator, on the server's 20 s clocks, for an hour of polls (120 at the
//! default 30 s) on synthetic clusters of 200, 1,000 and 5,000 objects, live and with
//! `search.cached`, counting every request; then the kube-apiserver calls those requests make,
//! by the operator's own code (v0.58.1):
//! - the web server's clients cache no unstructured read. Both are controller-runtime clients
//!   built with `CacheOptions` that only name `DisableFor` (the manager's in `cmd/operator/main.go`,
//!   each impersonated user's in `internal/web/kubeclient/client.go` `newUserClient`), and
//!   controller-runtime reads `Unstructured` objects from its cache only when
//!   `CacheOptions.Unstructured` is set. Every web read of a Flux object is unstructured
//!   (resources.go `GetLiveResources`, inventory_objects.go `getInventoryObject`, resource.go
//!   `GetResource`): each reaches the API server, with or without authentication;
//! - `/report` is served from the report the server computes every 20 s whoever watches
//!   (report.go `startReportCache`); it and every list read the user's namespaces
//!   (kubeclient `ListUserNamespaces`, cached 20 s per user, so a 30 s poll misses it once). The
//!   namespace List itself is typed and comes from the manager's informer; for an impersonated
//!   user the miss costs one SelfSubjectAccessReview (`filterNamespacesByAccess`; one more per
//!   namespace for a user who is not cluster-wide); the operator's own identity needs none;
//! - the live list lists each kind of the index once (once per namespace for a restricted
//!   user); `search.cached` answers from the index (search.go `GetCachedResources`): no List;
//! - a batch read gets each object: one GET per item;
//! - `GET /resource` reads the object and Helm storage's Secret (never cached: `DisableFor`);
//!   `/events` lists through `GetAPIReader`, never cached.
//!
//! Not per tab: the report's own computation every 20 s (reporter `Compute`: a List of every
//! installed Flux kind, the CRDs and the controllers' Deployments), which the operator runs
//! whether anyone watches or not.
//!
//! `make bench` runs it (`FLUXLENS_SERVER_COST=1`, release) and writes the table into
//! BENCHMARKS.md; counts, not timings, so one run is the answer.

use crate::poller_test::poll;
use crate::store::Store;
use fluxlens_core::load::poll::{Poller, Request};

/// Polls in an hour at the default 30 s.
const HOUR: usize = 120;

/// Requests one poll (or an hour of them) sent, by endpoint.
#[derive(Default, Clone, Copy)]
struct Count {
    report: usize,
    lists: usize,
    batches: usize,
    objects: usize,
    resource: usize,
    events: usize,
    polls: usize,
}

impl Count {
    fn add(&mut self, asked: &[Request]) {
        self.polls += 1;
        for r in asked {
            match r {
                Request::Report => self.report += 1,
                Request::List { .. } => self.lists += 1,
                Request::Objects(b) => {
                    self.batches += 1;
                    self.objects += b.objects.len();
                }
                Request::Resource(_) => self.resource += 1,
                Request::Events(_) => self.events += 1,
            }
        }
    }

    fn requests(&self) -> usize {
        self.report + self.lists + self.batches + self.resource + self.events
    }

    /// API-server calls: a List per kind of the live default list and per re-list (none from
    /// the index), a GET per object read, the object and its Helm storage per `GET /resource`,
    /// a List per events read; `impersonated`: one SelfSubjectAccessReview a poll as well (the
    /// 20 s namespace cache, missed by a 30 s poll; the operator's own identity needs none).
    fn apiserver(&self, kinds: usize, cached: bool, impersonated: bool) -> usize {
        // From the index, every list is a lookup; live, the default list is a List per kind
        // and each re-list one more.
        let lists = if cached {
            0
        } else {
            self.polls * kinds + self.lists.saturating_sub(self.polls)
        };
        let reviews = if impersonated { self.polls } else { 0 };
        lists + self.objects + 2 * self.resource + self.events + reviews
    }
}

fn kinds_of(store: &Store) -> usize {
    let kinds: std::collections::BTreeSet<String> = store
        .entries
        .iter()
        .map(|e| e.json["kind"].as_str().unwrap_or("").to_string())
        .collect();
    kinds.len()
}

async fn hour(n: usize, cached: bool) -> String {
    let sim = crate::http::AppState::new(
        Store::synthetic(n, true),
        crate::faults::Faults::default(),
        None,
    );
    sim.faults.lock().unwrap().mode.search_cached = cached;
    let kinds = kinds_of(&sim.store.read().unwrap());
    let mut poller = Poller::default();
    let mut first = Count::default();
    let mut asked = Vec::new();
    poll(&sim, &mut poller, &mut asked).await.unwrap();
    first.add(&asked);
    let mut steady = Count::default();
    let mut per_poll = Vec::new();
    for _ in 0..HOUR {
        let mut asked = Vec::new();
        poll(&sim, &mut poller, &mut asked).await.unwrap();
        per_poll.push(asked.len());
        steady.add(&asked);
    }
    per_poll.sort();
    let mode = if cached { "`search.cached`" } else { "live" };
    format!(
        "| {n} | {mode} | {} ({} objects) | {} | {} | {} | {} | {} |",
        first.requests(),
        first.objects,
        per_poll[per_poll.len() / 2],
        steady.requests(),
        steady.objects,
        steady.apiserver(kinds, cached, false),
        steady.apiserver(kinds, cached, true),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn server_cost_table() {
    if std::env::var_os("FLUXLENS_SERVER_COST").is_none() {
        return;
    }
    let mut rows = Vec::new();
    for n in [200, 1000, 5000] {
        for cached in [false, true] {
            rows.push(hour(n, cached).await);
        }
    }
    println!(
        "| objects | list | first load: requests (objects read) | requests / poll, steady (median) | requests / hour | objects read / hour | API-server calls / hour, no authentication | API-server calls / hour, OIDC user |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for r in rows {
        println!("{r}");
    }
    // The operator UI's dashboard polls the cached report alone every 30 s (web/src/app.jsx
    // `fetchFluxReport`, utils/constants.js `POLL_INTERVAL_MS`): one SelfSubjectAccessReview a
    // poll under OIDC (the 20 s namespace cache), nothing otherwise.
    println!(
        "| any | the operator UI's dashboard (report only) | 1 (0 objects) | 1 | {HOUR} | 0 | 0 | {HOUR} |"
    );
}
