//! Migrations as stages with checks: staged Git → signed-OCI root (§2.2), storage-version
//! migration (§2.4), distribution switch (§2.6). Each stage carries its checks, progress and
//! the objects still to move; invariant violations override the stage badge.

pub mod api_table;
mod distribution;
mod git_oci;
mod obstacle;
mod storage;

pub use distribution::distribution_switch;
pub use git_oci::git_to_oci;
pub use storage::{CRDS_READING, storage_migration};

use crate::analyses::facts::cluster::ClusterFacts;
use crate::analyses::finding::Finding;
use crate::analyses::outcome::Outcome;
use crate::model::{ObjectKey, Unsettled};

/// A stage's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StageState {
    Done,
    InProgress,
    Blocked,
    NotStarted,
}

impl StageState {
    /// Lower-case name for `data-state` and labels.
    pub fn as_str(self) -> &'static str {
        match self {
            StageState::Done => "done",
            StageState::InProgress => "in progress",
            StageState::Blocked => "blocked",
            StageState::NotStarted => "not started",
        }
    }
}

/// One exit check.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct Check {
    pub label: String,
    /// Unknown when it cannot be told from the API (never shown as pass).
    pub outcome: Outcome,
    /// Objects the check is about (to move, or failing).
    pub objects: Vec<ObjectKey>,
    pub detail: String,
}

impl Check {
    fn new(label: impl Into<String>, pass: Option<bool>, detail: impl Into<String>) -> Check {
        Check {
            label: label.into(),
            outcome: pass.into(),
            objects: vec![],
            detail: detail.into(),
        }
    }
    fn with(mut self, objects: Vec<ObjectKey>) -> Check {
        self.objects = objects;
        self
    }
    /// A pass that rests on nothing being missing holds only once the server has settled the
    /// references that look missing: until then the check is unknown and says why.
    fn unless_unsettled(mut self, unsettled: Option<&Unsettled>) -> Check {
        if let (Outcome::Pass, Some(u)) = (self.outcome, unsettled) {
            self.outcome = Outcome::Unknown;
            self.detail = match self.detail.as_str() {
                "" => u.phrase(),
                d => format!("{} ({d})", u.phrase()),
            };
        }
        self
    }
}

/// One stage.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct Stage {
    pub id: String,
    pub title: String,
    pub state: StageState,
    pub checks: Vec<Check>,
    /// `(done, total, what)`, e.g. `(32, 46, "consumers on OCIRepository/flux-system/flux-system")`.
    pub progress: Option<(usize, usize, String)>,
}

impl Stage {
    /// How the stage names its state: a stage the cluster is past whose checks fail now says
    /// so ("passed · 2 checks failing now", #46: M2 and M3 read "done" beside failing checks
    /// after the switch); the blockers say why.
    pub fn state_label(&self) -> String {
        match self.failing_now() {
            0 => self.state.as_str().into(),
            1 => "passed · 1 check failing now".into(),
            n => format!("passed · {n} checks failing now"),
        }
    }

    /// How many checks of a stage the cluster is already past fail now (0 for any other stage).
    pub fn failing_now(&self) -> usize {
        match self.state {
            StageState::Done => self
                .checks
                .iter()
                .filter(|c| c.outcome == Outcome::Fail)
                .count(),
            _ => 0,
        }
    }

    /// A stage not yet started, without progress; [`assign_states`] sets the state.
    pub fn new(id: &str, title: &str, checks: Vec<Check>) -> Stage {
        Stage {
            id: id.into(),
            title: title.into(),
            state: StageState::NotStarted,
            checks,
            progress: None,
        }
    }
}

/// A migration: its stages, where the cluster stands, what blocks it, what to run next.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct Migration {
    pub id: &'static str,
    pub title: String,
    pub stages: Vec<Stage>,
    /// Invariant violations and blocking findings (override the badge).
    pub blockers: Vec<Finding>,
    /// Commands the user would run next (shown, never run).
    pub next_commands: Vec<String>,
    /// Extra facts for the card (installer, computed webhook paths, …).
    pub notes: Vec<String>,
    /// Whether the cluster shows any sign of this migration (§0.3-7); when not, the card
    /// says "not started" and nothing is a blocker unless it touches the root or its chain.
    pub started: bool,
    /// Why whether it started cannot be told, when it cannot (the CRDs a storage migration is
    /// read from, refused or unread): then "not started" is said as unconfirmed, never folded.
    pub intent_unknown: Option<&'static str>,
}

impl Migration {
    /// Applies intent before progress: a migration with no sign of starting shows every
    /// stage "not started" and keeps only critical blockers (root or delivery chain).
    /// A migration whose every check passes is complete (or was never needed), never "not
    /// started" above a column of ticks (#68: the distribution switch and the storage migration
    /// read "not started" over all-green stages).
    fn with_intent(mut self, started: bool) -> Migration {
        let complete = self.blockers.is_empty()
            && self
                .stages
                .iter()
                .all(|s| s.checks.iter().all(|c| c.outcome == Outcome::Pass));
        let started = started || complete;
        self.started = started;
        if !started {
            for s in &mut self.stages {
                s.state = StageState::NotStarted;
            }
            self.blockers
                .retain(|f| f.severity == crate::analyses::finding::Severity::Critical);
            self.next_commands.clear();
        }
        self
    }

    /// The state shown on the card: "not started" when there is no sign of the migration.
    pub fn badge(&self) -> &'static str {
        if !self.started {
            // "not started" only when that can be told (#68: it read over unreadable CRDs).
            return match self.intent_unknown {
                Some(_) => "unknown",
                None => StageState::NotStarted.as_str(),
            };
        }
        self.current().map(|s| s.state.as_str()).unwrap_or("")
    }

    /// The card's "current stage" line. A migration with no sign of starting says so, and
    /// says when what could not be read leaves that unconfirmed (CRDs refused, say).
    pub fn current_label(&self) -> String {
        if self.started {
            return self
                .current()
                .map(|s| format!("{} {} — {}", s.id, s.title, s.state.as_str()))
                .unwrap_or_default();
        }
        match self.intent_unknown {
            None => "not started — the cluster shows no sign of this migration".into(),
            Some(_) => self.sign_line(),
        }
    }

    /// What the overview's card says of a migration that shows no sign of starting: that, or
    /// why it cannot be told ("cannot be told: the Flux CRDs could not be read …").
    pub fn sign_line(&self) -> String {
        match self.intent_unknown {
            None => "no sign of this migration".into(),
            Some(why) => {
                let why = why.strip_prefix("unknown: ").unwrap_or(why);
                let why = why.strip_prefix("unknown ").unwrap_or(why);
                format!("cannot be told: {why}")
            }
        }
    }

    /// Whether the card may fold its stages: not started, and that is known (what could not be
    /// read is said where it can be seen).
    pub fn folds_stages(&self) -> bool {
        !self.started && self.intent_unknown.is_none()
    }

    /// The first stage not done (the current one), or the last.
    pub fn current(&self) -> Option<&Stage> {
        self.stages
            .iter()
            .find(|s| s.state != StageState::Done)
            .or(self.stages.last())
    }
}

/// Assigns states: stages before the first open one are done; that one is in progress
/// (blocked when there are blockers); the rest not started, unless work on them shows (#68:
/// "M3 Consumer flip (not started)" read above "44 of 75 consumers on OCIRepository"), which
/// makes them in progress too. A stage is open when a check
/// fails, or when nothing about it can be known (all checks unknown). The first `passed`
/// stages are done whatever their checks say: the cluster is already past them (#46: a root
/// already synced from OCI was told to push its first artifact).
fn assign_states(stages: &mut [Stage], passed: usize, blocked: bool) {
    let first_open = stages
        .iter()
        .enumerate()
        .skip(passed)
        .position(|(_, s)| {
            s.checks.iter().any(|c| c.outcome == Outcome::Fail)
                || s.checks.iter().all(|c| c.outcome == Outcome::Unknown)
        })
        .map(|i| i + passed.min(stages.len()));
    for (i, s) in stages.iter_mut().enumerate() {
        s.state = match first_open {
            Some(f) if i < f => StageState::Done,
            Some(f) if i == f => {
                if blocked {
                    StageState::Blocked
                } else {
                    StageState::InProgress
                }
            }
            Some(_) if s.progress.as_ref().is_some_and(|(done, _, _)| *done > 0) => {
                StageState::InProgress
            }
            Some(_) => StageState::NotStarted,
            None => StageState::Done,
        };
    }
}

/// The exit checks that name `key` among their objects, across every started migration:
/// `(migration title, stage id, check)`.
pub fn checks_about<'a>(
    migrations: &'a [Migration],
    key: &'a ObjectKey,
) -> Vec<(&'a str, &'a str, &'a Check)> {
    migrations
        .iter()
        .filter(|m| m.started)
        .flat_map(|m| {
            m.stages.iter().flat_map(move |s| {
                s.checks
                    .iter()
                    .filter(|c| c.objects.contains(key))
                    .map(move |c| (m.title.as_str(), s.id.as_str(), c))
            })
        })
        .collect()
}

/// Every migration of the cluster, with the findings that block them: the started ones first
/// (#68: an unstarted Git → OCI migration led `flux-aio-switching`, whose switch is under way).
pub fn all(cluster: &ClusterFacts, findings: &[Finding]) -> Vec<Migration> {
    let mut all = vec![
        git_to_oci(cluster, findings),
        storage_migration(cluster, findings),
        distribution_switch(cluster, findings),
    ];
    all.sort_by_key(|m| !m.started);
    all
}
