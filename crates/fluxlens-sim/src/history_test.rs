//! Truth over any history (#67): core's poller driven through random histories on a server that
//! keeps the Flux Operator's clocks (`clocks.rs`: the report, its counts and the search index on
//! a 20 s ticker, each user's namespaces cached 20 s, the lists live). Objects are created,
//! deleted, fail and recover, sources move to new revisions, a kind's List fails, the server
//! restarts, answers 401 and 5xx, all between polls at intervals a dashboard uses.
//!
//! Two properties, each checked on every history:
//! - **never kept**: a poll that the server answered whole shows no object deleted before it
//!   began;
//! - **settles to the truth**: once the server stops changing, within [`QUIET_POLLS`] polls the
//!   model holds exactly the server's objects, each as the server holds it now, with no note
//!   that anything is incomplete, unreadable or stale.
//!
//! It lives beside the simulator because core cannot depend on it; the poller under test is
//! core's, untouched.

use crate::http::AppState;
use crate::poller_test::{BASE_MS, at, poll_at, state};
use fluxlens_core::load::poll::Poller;
use fluxlens_core::model::{Cluster, ObjectKey};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Polls after the server's last change within which the model must hold the truth: one report
/// tick (20 s) at the slowest interval drawn, plus the rolling re-read's cycle of 10 polls.
const QUIET_POLLS: i64 = 14;
/// Histories tried, and steps in each.
const HISTORIES: u64 = 24;
const STEPS: usize = 30;

/// xorshift64*: a history is a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// What happens to the cluster or the server between two polls.
#[derive(Debug, Clone)]
enum Event {
    Create(ObjectKey, ObjectKey),
    Delete(ObjectKey),
    Fail(ObjectKey),
    Recover(ObjectKey),
    NewRevision(ObjectKey),
    ListFails(String),
    ListsWork,
    Restart,
    Unauthorized,
    ServerErrors,
    Healthy,
}

fn keys(state: &AppState) -> Vec<ObjectKey> {
    let store = state.store.read().unwrap();
    store.entries.iter().map(|e| e.obj.key.clone()).collect()
}

fn draw(rng: &mut Rng, state: &AppState, n: usize) -> Event {
    let all = keys(state);
    let pick = |rng: &mut Rng| all[rng.below(all.len())].clone();
    match rng.below(20) {
        0..=3 => {
            let like = pick(rng);
            let ns = if rng.below(3) == 0 {
                format!("new-{}", rng.below(3))
            } else {
                like.namespace.clone()
            };
            let new = ObjectKey::new(like.kind.clone(), ns, format!("{}-copy-{n}", like.name));
            Event::Create(like, new)
        }
        4..=7 => Event::Delete(pick(rng)),
        8..=9 => Event::Fail(pick(rng)),
        10..=11 => Event::Recover(pick(rng)),
        12..=13 => Event::NewRevision(pick(rng)),
        14 => Event::ListFails(pick(rng).kind.as_str().to_string()),
        15 => Event::ListsWork,
        16 => Event::Restart,
        17 => Event::Unauthorized,
        18 => Event::ServerErrors,
        _ => Event::Healthy,
    }
}

/// Applies an event; returns the key deleted, if any.
fn apply(state: &AppState, event: &Event) -> Option<ObjectKey> {
    let key_parts = |k: &ObjectKey| {
        (
            k.kind.as_str().to_string(),
            k.namespace.clone(),
            k.name.clone(),
        )
    };
    match event {
        Event::Create(like, new) => {
            let (kind, ns, name) = key_parts(like);
            state.change_store(|s, now| {
                s.create_like((&kind, &ns, &name), &new.namespace, &new.name, now)
            });
        }
        Event::Delete(k) => {
            let (kind, ns, name) = key_parts(k);
            if state.change_store(|s, _| s.remove(&kind, &ns, &name)) {
                return Some(k.clone());
            }
        }
        Event::Fail(k) | Event::Recover(k) => {
            let (kind, ns, name) = key_parts(k);
            let ready = matches!(event, Event::Recover(_));
            state.change_store(|s, now| {
                s.set_ready(&kind, &ns, &name, ready, "from the history", now)
            });
        }
        Event::NewRevision(k) => {
            let (kind, ns, name) = key_parts(k);
            state.change_store(|s, now| {
                crate::replay::apply_revision(s, (&kind, &ns, &name), "main@sha1:0123abcd", now)
            });
        }
        Event::ListFails(kind) => state.faults.lock().unwrap().mode.fail_list = vec![kind.clone()],
        Event::ListsWork => state.faults.lock().unwrap().mode.fail_list.clear(),
        Event::Restart => {
            state.faults.lock().unwrap().down = false;
            state
                .clocks
                .lock()
                .unwrap()
                .restart(&state.store.read().unwrap());
        }
        Event::Unauthorized => state.faults.lock().unwrap().oidc = true,
        Event::ServerErrors => state.faults.lock().unwrap().error_rate = 0.5,
        Event::Healthy => {
            let mut f = state.faults.lock().unwrap();
            f.oidc = false;
            f.error_rate = 0.0;
        }
    }
    None
}

/// Whether the server answers whole now: no fault that can cut an answer short.
fn answers_whole(state: &AppState) -> bool {
    let f = state.faults.lock().unwrap();
    !f.oidc && f.error_rate == 0.0 && !f.down && f.mode.fail_list.is_empty()
}

/// What the model says of each object, and what the server holds.
fn shown(model: &Cluster) -> BTreeMap<ObjectKey, (String, String)> {
    model
        .objects()
        .iter()
        .map(|o| {
            (
                o.key.clone(),
                (o.status.as_str().to_string(), o.message.clone()),
            )
        })
        .collect()
}

fn held(state: &AppState) -> BTreeMap<ObjectKey, (String, String)> {
    let store = state.store.read().unwrap();
    store
        .entries
        .iter()
        .map(|e| {
            let o = &e.obj;
            (
                o.key.clone(),
                (o.status.as_str().to_string(), o.message.clone()),
            )
        })
        .collect()
}

async fn one_history(seed: u64, scenario: &str) {
    let state: Arc<AppState> = state(scenario);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut poller = Poller::default();
    let mut now = BASE_MS;
    let mut model = poll_at(&state, &mut poller, &mut Vec::new(), now)
        .await
        .unwrap()
        .expect("first load");
    let mut deleted: Vec<ObjectKey> = Vec::new();
    for n in 0..STEPS {
        let event = draw(&mut rng, &state, n);
        // Between the last poll and this event, and between the event and the next poll.
        now += 500 + rng.below(20_000) as i64;
        at(&state, now);
        deleted.extend(apply(&state, &event));
        now += [2_000, 5_000, 30_000][rng.below(3)];
        let whole = answers_whole(&state);
        if let Ok(Some(m)) = poll_at(&state, &mut poller, &mut Vec::new(), now).await {
            model = m;
        }
        if whole {
            let live = held(&state);
            let kept: Vec<&ObjectKey> = deleted
                .iter()
                .filter(|k| !live.contains_key(k) && shown(&model).contains_key(k))
                .collect();
            assert!(
                kept.is_empty(),
                "seed {seed}, step {n} ({event:?}): deleted before this poll, still shown: {kept:?}"
            );
        }
    }
    // The server stops changing and answers whole again.
    {
        let mut f = state.faults.lock().unwrap();
        f.oidc = false;
        f.error_rate = 0.0;
        f.down = false;
        f.mode.fail_list.clear();
    }
    for _ in 0..QUIET_POLLS {
        now += 2_000 + rng.below(3_000) as i64;
        if let Some(m) = poll_at(&state, &mut poller, &mut Vec::new(), now)
            .await
            .unwrap_or_else(|e| panic!("seed {seed}: a quiet server's poll failed: {e}"))
        {
            model = m;
        }
    }
    let (want, got) = (held(&state), shown(&model));
    let extra: Vec<_> = got.keys().filter(|k| !want.contains_key(*k)).collect();
    let missing: Vec<_> = want.keys().filter(|k| !got.contains_key(*k)).collect();
    assert!(
        extra.is_empty() && missing.is_empty(),
        "seed {seed}: shown but gone {extra:?}; there but not shown {missing:?}"
    );
    let differ: Vec<_> = want
        .iter()
        .filter(|(k, v)| got.get(*k) != Some(*v))
        .map(|(k, v)| (k, v, got.get(k)))
        .collect();
    assert!(
        differ.is_empty(),
        "seed {seed}: not as the server holds it: {differ:?}"
    );
    let notes = &model.notes;
    assert!(
        notes.incomplete_kinds.is_empty() && notes.unreadable.is_empty(),
        "seed {seed}: {:?} {:?}",
        notes.incomplete_kinds,
        notes.unreadable
    );
}

#[tokio::test]
async fn over_any_history_the_model_settles_to_the_servers_objects() {
    for seed in 0..HISTORIES {
        let scenario = ["homelab", "demo", "multitenant"][(seed % 3) as usize];
        one_history(seed, scenario).await;
    }
}

/// The cap crossed and back (resources.go `GetLiveResources`: at most 2,500 rows per kind, in
/// the default list and in a list by kind alike): past it the poller completes the kind by its
/// namespaces (never by kind again); once the server stops changing the model holds every
/// object; below the cap again, the deleted ones go.
#[tokio::test]
async fn a_kind_crossing_the_per_kind_cap_and_back_settles_to_the_servers_objects() {
    let state = state("homelab");
    let like = keys(&state)
        .into_iter()
        .find(|k| k.kind.as_str() == "Kustomization")
        .unwrap();
    let (kind, ns, name) = (
        like.kind.as_str().to_string(),
        like.namespace.clone(),
        like.name.clone(),
    );
    let mut poller = Poller::default();
    let mut now = BASE_MS;
    let mut model = poll_at(&state, &mut poller, &mut Vec::new(), now)
        .await
        .unwrap()
        .unwrap();
    let settle = |model: &Cluster, state: &AppState| {
        let (want, got) = (held(state), shown(model));
        assert_eq!(got.len(), want.len());
        assert!(want.keys().all(|k| got.contains_key(k)));
    };
    // 2,600 more, across 13 namespaces, in four steps.
    for step in 0..4 {
        for i in 0..650 {
            let n = step * 650 + i;
            let target = format!("cap-{}", n % 13);
            state.change_store(|s, at| {
                s.create_like((&kind, &ns, &name), &target, &format!("k{n}"), at)
            });
        }
        now += 30_000;
        if let Some(m) = poll_at(&state, &mut poller, &mut Vec::new(), now)
            .await
            .unwrap()
        {
            model = m;
        }
    }
    let mut asked = Vec::new();
    for _ in 0..QUIET_POLLS {
        now += 30_000;
        if let Some(m) = poll_at(&state, &mut poller, &mut asked, now).await.unwrap() {
            model = m;
        }
    }
    settle(&model, &state);
    let by_kind_alone = asked.iter().filter(|r| {
        matches!(r, fluxlens_core::load::poll::Request::List { kind, namespace } if !kind.is_empty() && namespace.is_empty())
    });
    assert_eq!(
        by_kind_alone.count(),
        0,
        "a list by kind repeats the cap's cut"
    );
    // Back below the cap.
    for n in 0..2_600 {
        let target = format!("cap-{}", n % 13);
        state.change_store(|s, _| s.remove(&kind, &target, &format!("k{n}")));
    }
    for _ in 0..QUIET_POLLS {
        now += 30_000;
        if let Some(m) = poll_at(&state, &mut poller, &mut Vec::new(), now)
            .await
            .unwrap()
        {
            model = m;
        }
    }
    settle(&model, &state);
    assert!(
        model.notes.incomplete_kinds.is_empty(),
        "{:?}",
        model.notes.incomplete_kinds
    );
}
