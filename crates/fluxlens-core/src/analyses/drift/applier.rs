//! What applies an object, in its live state: why a declared object is absent, and whether a
//! difference is a hand edit that stays or a revision not applied yet.

use super::Input;
use super::revision::commit_of;
use crate::analyses::order::{self, Order};
use crate::model::{FluxObject, ObjectKey, RefKind};
use crate::wire::kind::Kind;
use crate::wire::status::Status;

/// An applier as the live cluster shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum State {
    /// The cluster does not hold it; `declared`: the render declares it (its own absence is
    /// reported too).
    Missing {
        declared: bool,
    },
    Suspended,
    Failing(String),
    /// It waits on a chain that never releases, as the live order model steps it.
    Waiting(String),
    /// It has not applied the rendered revision yet: what it applied, and what it would.
    Behind(String),
    /// At the rendered revision, or nothing to compare with: what it applied.
    Applied(Option<String>),
}

impl State {
    /// Whether delivery through this applier is stopped.
    pub fn stops_delivery(&self) -> bool {
        matches!(
            self,
            State::Missing { .. } | State::Suspended | State::Failing(_) | State::Waiting(_)
        )
    }

    /// The clause a finding says of `applier` in this state.
    pub fn clause(&self, applier: &ObjectKey) -> String {
        match self {
            State::Missing { declared: true } => {
                format!("its applier {applier} is itself declared and absent")
            }
            State::Missing { declared: false } => {
                format!("its applier {applier} is not in the cluster")
            }
            State::Suspended => format!("its applier {applier} is suspended"),
            State::Failing(m) if m.is_empty() => format!("its applier {applier} is failing"),
            State::Failing(m) => format!("its applier {applier} is failing: {m}"),
            State::Waiting(chain) => format!("its applier never reconciles: {chain}"),
            State::Behind(what) => format!("its applier {applier} {what}"),
            State::Applied(Some(rev)) => format!("its applier {applier} applied {rev}"),
            State::Applied(None) => format!("its applier {applier} is Ready"),
        }
    }
}

/// The appliers' states, with the live order model stepped once.
pub(super) struct States<'a> {
    input: &'a Input<'a>,
    order: Order,
}

impl<'a> States<'a> {
    pub fn new(input: &'a Input<'a>) -> States<'a> {
        States {
            input,
            order: order::live(input.live),
        }
    }

    /// The state of `applier`.
    pub fn of(&self, applier: &ObjectKey) -> State {
        let live = self.input.live;
        let Some(a) = live.get(applier) else {
            return State::Missing {
                declared: self.input.declared.contains(applier),
            };
        };
        if a.suspended() || a.status == Status::Suspended {
            return State::Suspended;
        }
        if let Some(stuck) = self.order.stuck.iter().find(|s| &s.object == applier) {
            return State::Waiting(order::describe(&stuck.object, &stuck.chain));
        }
        if a.status == Status::Failed {
            return State::Failing(a.message.clone());
        }
        self.revision_state(a)
    }

    /// A Kustomization's applied revision against what its source serves and what was
    /// rendered (when its source is the root's); any other applier is taken at its word.
    fn revision_state(&self, a: &FluxObject) -> State {
        let applied = a.last_applied_revision().map(str::to_string);
        if a.key.kind != Kind::Kustomization {
            return State::Applied(applied);
        }
        let live = self.input.live;
        let source = a
            .refs
            .iter()
            .find(|r| r.kind == RefKind::Source)
            .and_then(|r| live.get(&r.target));
        let Some(source) = source else {
            return State::Applied(applied);
        };
        let served = source.artifact_revision();
        if let (Some(s), Some(l)) = (served, applied.as_deref())
            && s != l
        {
            return State::Behind(format!(
                "has applied {l} and not yet the {s} its source {} serves",
                source.key
            ));
        }
        let is_root = live.root_source().as_ref() == Some(&source.key);
        if let (true, Some(rendered), Some(serves)) =
            (is_root, self.input.rendered, commit_of(source))
            && !serves.same_commit(rendered)
        {
            return State::Behind(format!(
                "has applied commit {}, not yet the rendered {}",
                serves.short(),
                rendered.short()
            ));
        }
        State::Applied(applied)
    }

    /// The applier of a live object: the one its inventory or labels name.
    pub fn live_applier(&self, o: &FluxObject) -> Option<ObjectKey> {
        o.managed_by.clone()
    }
}
