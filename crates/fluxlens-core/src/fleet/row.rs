//! One cluster's row: its state now, and the facts of its last good read (kept, marked stale,
//! when a later read fails — never replaced by an empty, healthy-looking row).

use super::ClusterEntry;
use crate::analyses::analysis::Analysis;
use crate::analyses::migration::Migration;
use crate::analyses::verdict::failing_now;
use crate::model::Cluster;
use crate::wire::error::ApiError;
use crate::wire::kind::Kind;
use crate::wire::status::Status;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Where a cluster's read stands (`data-state`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RowState {
    Loading,
    Ok,
    Unreachable,
    Unauthorized,
}

/// Why a cluster's read failed, said for the fleet: a row is read again at the next round, by
/// the hub, so the dashboard's own wording ("retrying", "sign in to continue") would be wrong
/// there (#46: a down cluster read "web server is starting … retrying").
pub fn fleet_problem(e: &ApiError, has_ui: bool) -> String {
    match e {
        ApiError::Server { status: 503, body } if body.trim() == "server not initialized" => {
            "its Flux Operator web server answers 503 \"server not initialized\" (starting, or not yet the leader); read again next round".into()
        }
        ApiError::Server { status: 502 | 504, .. } => {
            "the hub cannot reach its Flux Operator (bad gateway); read again next round".into()
        }
        ApiError::Network(m) => format!("the hub does not answer for it: {m}"),
        ApiError::Timeout { seconds } => {
            format!("no whole read within {seconds} s; read again next round")
        }
        ApiError::Unauthorized { .. } if has_ui => {
            "needs a sign-in (401): sign in on its own UI, then the next round reads it".into()
        }
        ApiError::Unauthorized { .. } => "needs a sign-in (401) the hub cannot carry; the fleet file names no UI for it (add \"ui\" to its entry)".into(),
        other => other.to_string(),
    }
}

impl RowState {
    /// `ok`, `loading`, `unreachable`, `unauthorized`.
    pub fn as_str(self) -> &'static str {
        match self {
            RowState::Loading => "loading",
            RowState::Ok => "ok",
            RowState::Unreachable => "unreachable",
            RowState::Unauthorized => "unauthorized",
        }
    }

    /// What a failed read means for the row: a 401/403 is "unauthorized", anything else
    /// (down, timeout, an answer that is not the API, the placeholder report) "unreachable".
    pub fn of_error(e: &ApiError) -> RowState {
        match e {
            ApiError::Unauthorized { .. } | ApiError::Forbidden(_) => RowState::Unauthorized,
            _ => RowState::Unreachable,
        }
    }
}

/// Whether the root source is verified (`data-root-verified`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verified {
    Yes,
    No,
    Unknown,
}

impl Verified {
    /// `true`, `false`, `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verified::Yes => "true",
            Verified::No => "false",
            Verified::Unknown => "unknown",
        }
    }
}

/// Where one migration stands: its current stage (`M3`) and that stage's state, or not started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StageCell {
    /// The current stage's id, `None` when the migration has not started.
    pub stage: Option<String>,
    /// `done`, `in progress`, `blocked`, `not started`.
    pub state: String,
    /// How many blockers the migration names.
    pub blockers: usize,
}

impl StageCell {
    fn of(m: Option<&Migration>) -> StageCell {
        let Some(m) = m else {
            return StageCell::not_started();
        };
        if !m.started {
            return StageCell {
                blockers: m.blockers.len(),
                ..StageCell::not_started()
            };
        }
        StageCell {
            stage: m.current().map(|s| s.id.clone()),
            state: m.badge().to_string(),
            blockers: m.blockers.len(),
        }
    }

    fn not_started() -> StageCell {
        StageCell {
            stage: None,
            state: "not started".into(),
            blockers: 0,
        }
    }

    /// The stage as `data-*-stage` carries it: `M3`, or `not-started`.
    pub fn hook(&self) -> &str {
        self.stage.as_deref().unwrap_or("not-started")
    }
}

/// What a good read of a cluster says, computed from its analyses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Facts {
    /// As the report gives it (`v2.7.3`).
    pub flux_version: Option<String>,
    pub operator_version: Option<String>,
    /// The latest patch of the running minor the bundled catalog knows.
    pub latest_patch: Option<String>,
    /// `upstream-alpine` … `enterprise-distroless-fips`, `mixed`, or `unknown`.
    pub variant: String,
    pub entitlement: Option<String>,
    /// ENT-07 (supported minor): `pass`, `fail` or `unknown`.
    pub support: String,
    /// `Kind/namespace/name` of the root source.
    pub root: Option<String>,
    pub root_verified: Verified,
    /// The FluxInstance's status (else the root Kustomization's).
    pub ready: Option<bool>,
    pub git_oci: StageCell,
    pub storage: StageCell,
    pub distribution: StageCell,
    /// Findings per severity, `[info, low, medium, high, critical]`.
    pub findings: [usize; 5],
    /// What is failing now (OPS-01, MIG-GO-14, MIG-DIST-03): how many objects, and the first
    /// cause's message, which the row leads with.
    #[serde(default)]
    pub failing: usize,
    #[serde(default)]
    pub failing_first: Option<String>,
    pub missing_refs: usize,
    pub not_visible_refs: usize,
    pub objects: usize,
    /// Why the read was not complete (kinds short, references unconfirmed); empty when it was.
    pub incomplete: Vec<String>,
    /// What the FluxInstance last applied, by its own history (#49).
    #[serde(default)]
    pub applied: Applied,
    /// What changed in the 24 hours before the read, in one phrase ("2 revisions applied,
    /// 1 HelmRelease failed"); `None` when nothing was found.
    #[serde(default)]
    pub changed: Option<String>,
    /// Drift against the render the fleet entry names; `None` when it names none.
    #[serde(default)]
    pub drift: Option<super::DriftCell>,
}

/// What the FluxInstance last applied and whether it is Ready at it: an upgrade has landed on a
/// cluster only when its newest history entry is the new version, that apply succeeded, and Ready
/// is True at the generation the controller observed — not a Ready left over from before.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Applied {
    /// No FluxInstance, or one that keeps no history: the apply cannot be confirmed.
    #[default]
    Unknown,
    /// The newest history entry's Flux version, and why it is not landed (empty when it is).
    Version {
        flux: String,
        not_landed: Vec<String>,
    },
}

impl Facts {
    /// "2 objects failing now: …", or nothing when nothing fails.
    pub fn failing_now(&self) -> String {
        match (&self.failing_first, self.failing) {
            (Some(first), n) if n > 0 => {
                format!(
                    "{} failing now: {first}",
                    crate::util::words::plural(n, "object")
                )
            }
            _ => String::new(),
        }
    }

    /// The facts of a loaded cluster.
    pub fn of(cluster: &Cluster, a: &Analysis) -> Facts {
        let spec = &cluster.report.spec;
        let flux_version = spec.distribution.version.clone();
        let migration = |id: &str| StageCell::of(a.migrations.iter().find(|m| m.id == id));
        let failing = failing_now(&a.findings);
        Facts {
            latest_patch: flux_version
                .as_deref()
                .and_then(super::version::latest_patch),
            flux_version,
            operator_version: spec.operator.as_ref().and_then(|o| o.version.clone()),
            variant: variant(cluster, a),
            entitlement: spec.distribution.entitlement.clone(),
            support: a
                .controls
                .iter()
                .find(|c| c.rule == "ENT-07")
                .map_or("unknown", |c| c.outcome.as_str())
                .to_string(),
            root: cluster.root_source().map(|k| k.to_string()),
            root_verified: match a.signatures.root_verified {
                Some(true) => Verified::Yes,
                Some(false) => Verified::No,
                None => Verified::Unknown,
            },
            ready: ready(cluster),
            git_oci: migration("git-oci"),
            storage: migration("storage"),
            distribution: migration("distribution"),
            findings: a.summary.findings_by_severity,
            failing: failing.iter().map(|f| f.objects().len()).sum(),
            failing_first: failing.first().map(|f| f.message.clone()),
            missing_refs: a.summary.missing_refs,
            not_visible_refs: a.summary.not_visible_refs,
            objects: a.summary.total,
            incomplete: incomplete(cluster),
            applied: applied(cluster),
            changed: changed(cluster),
            drift: None,
        }
    }

    /// Critical findings.
    pub fn critical(&self) -> usize {
        self.findings[4]
    }

    /// High findings.
    pub fn high(&self) -> usize {
        self.findings[3]
    }

    /// Whether the root source is an OCIRepository (the "still syncs from Git" question).
    pub fn root_kind(&self) -> Option<&str> {
        self.root.as_deref().and_then(|r| r.split('/').next())
    }

    /// Whether it runs behind the latest patch of its minor the catalog knows.
    pub fn behind_patch(&self) -> Option<bool> {
        let (now, latest) = (self.flux_version.as_deref()?, self.latest_patch.as_deref()?);
        Some(super::version::parse(now)? < super::version::parse(latest)?)
    }
}

fn variant(cluster: &Cluster, a: &Analysis) -> String {
    if let Some(v) = a.variant {
        return v.as_str().to_string();
    }
    if crate::analyses::compliance::components(cluster).is_empty() {
        "unknown".into()
    } else {
        "mixed".into()
    }
}

fn applied(cluster: &Cluster) -> Applied {
    let Some(inst) = cluster.instance() else {
        return Applied::Unknown;
    };
    let Some(newest) = inst.raw.status.history.first() else {
        return Applied::Unknown;
    };
    let Some(flux) = newest.metadata.get("flux").cloned() else {
        return Applied::Unknown;
    };
    let mut not_landed = Vec::new();
    match newest.last_reconciled_status.as_deref() {
        Some("ReconciliationSucceeded") => {}
        Some(s) => not_landed.push(format!("its last apply of {flux}: {s}")),
        None => not_landed.push(format!("the apply of {flux} has no outcome yet")),
    }
    match inst.condition("Ready") {
        Some(c) if c.status == "True" => {
            if c.observed_generation.is_some()
                && inst.observed_generation().is_some()
                && c.observed_generation != inst.observed_generation()
            {
                not_landed.push("Ready is from an earlier generation".into());
            }
        }
        _ => not_landed.push(format!("not Ready at {flux}")),
    }
    Applied::Version { flux, not_landed }
}

fn changed(cluster: &Cluster) -> Option<String> {
    use crate::analyses::changes::{summary, timeline};
    let now = cluster.notes.captured_at_ms?;
    let (found, _) = timeline::read(
        cluster,
        &[],
        &timeline::EventsRead::NotRead,
        now - 24 * 3_600_000,
        now,
    );
    summary::phrase(&found)
}

fn ready(cluster: &Cluster) -> Option<bool> {
    let key = match cluster.instance() {
        Some(i) => i.key.clone(),
        None => cluster.root_kustomization()?,
    };
    match cluster.get(&key)?.status {
        Status::Ready => Some(true),
        Status::Unknown | Status::NotVisible | Status::Missing => None,
        _ => Some(false),
    }
}

fn incomplete(cluster: &Cluster) -> Vec<String> {
    let n = &cluster.notes;
    let mut out: Vec<String> = n.partial.iter().cloned().collect();
    out.extend(
        n.incomplete_kinds
            .iter()
            .map(|(kind, why)| format!("{kind}: {why}")),
    );
    if !n.unconfirmed.is_empty() {
        out.push(format!("{} references not confirmed", n.unconfirmed.len()));
    }
    if !n.unreadable.is_empty() {
        out.push(format!("{} objects unreadable", n.unreadable.len()));
    }
    out
}

/// One cluster's row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub name: String,
    pub labels: BTreeMap<String, String>,
    /// The cluster's own UI, when the fleet file publishes it.
    #[serde(default)]
    pub ui: Option<String>,
    /// The render its fleet entry names, and the commit it was made from.
    #[serde(default)]
    pub render: Option<String>,
    #[serde(default)]
    pub revision: Option<String>,
    pub state: RowState,
    /// Why the last read failed, as the page says it.
    pub problem: Option<String>,
    /// When the facts were read (ms since the epoch).
    pub updated_at_ms: Option<i64>,
    /// Since when the facts shown are the last good ones, not the cluster's now.
    pub stale_since_ms: Option<i64>,
    /// How long the last read took, answered or failed (#46: a slow cluster read "ok" with
    /// no latency anywhere).
    #[serde(default)]
    pub read_ms: Option<u32>,
    /// `None` until a read succeeds.
    pub facts: Option<Facts>,
}

impl Row {
    /// A row whose first read has not answered yet.
    pub fn loading(entry: &ClusterEntry) -> Row {
        Row {
            name: entry.name.clone(),
            labels: entry.labels.clone(),
            ui: entry.ui.clone(),
            render: entry.render.clone(),
            revision: entry.revision.clone(),
            state: RowState::Loading,
            problem: None,
            updated_at_ms: None,
            stale_since_ms: None,
            read_ms: None,
            facts: None,
        }
    }

    /// A read that took longer than this is said to be slow.
    pub const SLOW_MS: u32 = 5_000;

    /// "read in under 1 s", "read in 3 s", "slow: read in 12 s", or nothing before a read:
    /// whole seconds, so a poll that takes a few milliseconds more moves nothing on screen.
    pub fn latency(&self) -> String {
        let secs = |ms: u32| (ms + 500) / 1000;
        match self.read_ms {
            None => String::new(),
            Some(ms) if ms < 1000 => "read in under 1 s".into(),
            Some(ms) if ms >= Self::SLOW_MS => format!("slow: read in {} s", secs(ms)),
            Some(ms) => format!("read in {} s", secs(ms)),
        }
    }

    /// The row to show after `self`: `next`, keeping this row's read time while it reads the
    /// same on screen (an unchanged poll changes nothing).
    pub fn settled(&self, mut next: Row) -> Row {
        if next.latency() == self.latency() {
            next.read_ms = self.read_ms;
        }
        next
    }

    /// The row after a good read that took `read_ms`.
    pub fn read(entry: &ClusterEntry, facts: Facts, now_ms: i64, read_ms: u32) -> Row {
        Row {
            state: RowState::Ok,
            updated_at_ms: Some(now_ms),
            read_ms: Some(read_ms),
            facts: Some(facts),
            ..Row::loading(entry)
        }
    }

    /// The row after a failed read: the last good facts kept, stale since the first failure.
    pub fn failed(
        last: Option<&Row>,
        entry: &ClusterEntry,
        e: &ApiError,
        now_ms: i64,
        read_ms: u32,
    ) -> Row {
        let kept = last.and_then(|r| r.facts.as_ref().map(|f| (r, f)));
        Row {
            state: RowState::of_error(e),
            problem: Some(fleet_problem(e, entry.ui.is_some())),
            read_ms: Some(read_ms),
            updated_at_ms: kept.and_then(|(r, _)| r.updated_at_ms),
            stale_since_ms: kept.map(|(r, _)| r.stale_since_ms.unwrap_or(now_ms)),
            facts: kept.map(|(_, f)| f.clone()),
            ..Row::loading(entry)
        }
    }

    /// The root source's key, as `data-root` carries it.
    pub fn root(&self) -> &str {
        self.facts
            .as_ref()
            .and_then(|f| f.root.as_deref())
            .unwrap_or("")
    }

    /// The row's dashboard (`/clusters/<name>/`).
    pub fn dashboard(&self) -> String {
        format!("/clusters/{}/", self.name)
    }

    /// Its drift view on its dashboard, judging the render its entry names.
    pub fn drift_href(&self) -> Option<String> {
        let enc = crate::util::query::encode;
        let render = self.render.as_deref()?;
        let revision = self
            .revision
            .as_deref()
            .map(|r| format!("&revision={}", enc(r)))
            .unwrap_or_default();
        Some(format!(
            "{}drift?render={}{revision}",
            self.dashboard(),
            enc(render)
        ))
    }

    /// Whether its root source is a GitRepository (still syncing from Git).
    pub fn syncs_from_git(&self) -> bool {
        self.facts
            .as_ref()
            .and_then(Facts::root_kind)
            .is_some_and(|k| k == Kind::GitRepository.as_str())
    }
}
