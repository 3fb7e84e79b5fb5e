//! One object's recent events, on demand: a view names the object in
//! `AppState::events_wanted`, this module asks the API and answers in `object_events`, and asks
//! again when a poll changes that object.

use crate::state::AppState;
use leptos::prelude::*;

/// Watches `events_wanted` for the rest of the page's life. A snapshot never contacts the
/// API, so in snapshot mode (and for an object the cluster does not hold) the answer is empty.
pub fn serve(state: AppState) {
    // The wanted object as the last poll read it: when a poll changes it, its events are
    // asked again — at most once per poll, and never for a poll that changed other objects.
    let wanted_object = Memo::new(move |_| {
        let key = state.events_wanted.get()?;
        state
            .data
            .with(|d| d.as_ref().and_then(|d| d.cluster.get(&key).cloned()))
    });
    Effect::new(move |_| {
        let Some(key) = state.events_wanted.get() else {
            return;
        };
        wanted_object.track();
        let known = state
            .data
            .with_untracked(|d| d.as_ref().is_some_and(|d| d.cluster.get(&key).is_some()));
        if state.status_untracked(crate::state::LoadStatus::is_snapshot) || !known {
            state.object_events.set(Some((key, Ok(vec![]))));
            return;
        }
        leptos::task::spawn_local(async move {
            let (kind, name, ns) = (
                key.kind.to_string(),
                key.name.clone(),
                key.namespace.clone(),
            );
            let result = super::Api::page()
                .events(&kind, &name, &ns)
                .await
                .map(|e| e.events);
            // Only the latest wish is answered: a slower reply for an earlier object is dropped.
            if state.events_wanted.get_untracked().as_ref() == Some(&key) {
                state.object_events.set(Some((key, result)));
            }
        });
    });
}
