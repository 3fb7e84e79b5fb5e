//! The timeline read from one model: what each object's status says happened in a window —
//! `status.history` entries, sources' artifacts, Ready transitions — and the Warning events the
//! API returned. Shaped as the Flux Operator UI's `HistoryTimeline` reads history: Helm releases
//! (`firstDeployed`, `lastDeployed`, `status`, chart and app version) for HelmReleases, reconcile
//! snapshots (`firstReconciled`, `lastReconciled`, `lastReconciledStatus`, `metadata`) for the
//! FluxInstance, ResourceSets and Kustomizations.

use super::{Change, ChangeKind, Origin, Subject};
use crate::model::{Cluster, FluxObject, ObjectKey, RefKind};
use crate::util::revision::short;
use crate::util::time::{parse_rfc3339_ms, shown_dated};
use crate::wire::events::Event;
use crate::wire::kind::Kind;
use crate::wire::object::HistoryEntry;

/// How many history entries the controllers keep (flux-operator `api/v1/history_types.go`
/// `MaxHistorySize`; helm-controller keeps as many as the release's `maxHistory`, 5 by default).
pub const HISTORY_KEPT: usize = 5;

/// What the events answer was, for the window's limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventsRead {
    /// Not asked for this window.
    NotRead,
    /// Read; `capped`: the server's per-kind cap may have cut the answer (it applies before
    /// the type filter, so the answer alone cannot tell).
    Read { capped: bool },
    /// The request failed (the message says why).
    Failed(String),
}

/// The changes in `[from_ms, to_ms]` the model and `events` show, and the window's limits.
pub fn read(
    c: &Cluster,
    events: &[Event],
    events_read: &EventsRead,
    from_ms: i64,
    to_ms: i64,
) -> (Vec<Change>, Vec<String>) {
    // The cluster records whole seconds: a change in the window's first second (recorded as
    // that second's start) is in the window.
    let from_second = from_ms - from_ms.rem_euclid(1000);
    let within = |t: i64| t >= from_second && t <= to_ms;
    let mut out = Vec::new();
    for o in c.objects() {
        history(o, &mut out);
        artifact(o, &mut out);
        ready(o, &mut out);
    }
    warnings(c, events, &mut out);
    out.retain(|ch| within(ch.at_ms));
    let limits = limits(c, events_read, from_ms, to_ms);
    (out, limits)
}

fn at(s: Option<&str>) -> Option<i64> {
    s.and_then(parse_rfc3339_ms)
}

/// One row per history entry, at the time its revision was first applied.
fn history(o: &FluxObject, out: &mut Vec<Change>) {
    // Where the revision came from: the source the applier reads.
    let from = o
        .refs
        .iter()
        .find(|r| {
            matches!(
                r.kind,
                RefKind::Source | RefKind::ChartRef | RefKind::ChartTemplate
            )
        })
        .map(|r| format!("from {}", r.target));
    for e in &o.raw.status.history {
        let row = if o.key.kind == Kind::HelmRelease {
            helm_release(&o.key, e)
        } else {
            snapshot(&o.key, e)
        };
        out.extend(row.map(|mut c| {
            if let Some(f) = &from {
                c.detail = [f.as_str(), c.detail.as_str()]
                    .into_iter()
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join(" · ");
            }
            c
        }));
    }
}

fn helm_release(key: &ObjectKey, e: &HistoryEntry) -> Option<Change> {
    let when = at(e.last_deployed.as_deref()).or(at(e.first_deployed.as_deref()))?;
    let status = e.status.as_deref().unwrap_or("unknown");
    let chart = match (e.chart_name.as_deref(), e.chart_version.as_deref()) {
        (Some(n), Some(v)) => format!("{n} {v}"),
        (None, Some(v)) => v.to_string(),
        (Some(n), None) => n.to_string(),
        (None, None) => "a chart".to_string(),
    };
    let mut detail = Vec::new();
    if let Some(app) = &e.app_version {
        detail.push(format!("app {app}"));
    }
    if let Some(v) = e.version {
        detail.push(format!("release v{v}"));
    }
    if let Some(d) = &e.oci_digest {
        detail.push(format!("chart artifact {}", short(d)));
    }
    Some(Change {
        at_ms: when,
        after_ms: None,
        subject: Subject::Object(key.clone()),
        kind: ChangeKind::Revision,
        what: format!("released {chart}: {status}"),
        detail: detail.join(" · "),
        failed: status == "failed",
        origin: Origin::History,
    })
}

fn snapshot(key: &ObjectKey, e: &HistoryEntry) -> Option<Change> {
    let first = at(e.first_reconciled.as_deref())?;
    let status = e.last_reconciled_status.as_deref().unwrap_or("");
    // What the controller says was applied: a Kustomization's source revision, the Flux
    // version of a FluxInstance, the count of a ResourceSet's resources; else the digest.
    let applied = e
        .metadata
        .get("revision")
        .map(|r| format!("applied {}", short(r)))
        .or_else(|| e.metadata.get("flux").map(|v| format!("applied Flux {v}")))
        .or_else(|| {
            e.metadata
                .get("resources")
                .map(|n| format!("applied {n} resources"))
        })
        .or_else(|| e.digest.as_deref().map(|d| format!("applied {}", short(d))))
        .unwrap_or_else(|| "applied".into());
    let mut detail = Vec::new();
    if let Some(last) = at(e.last_reconciled.as_deref()).filter(|&l| l != first) {
        let n = e.total_reconciliations.unwrap_or(0);
        detail.push(format!(
            "{n} reconciliations, the last {}",
            shown_dated(last)
        ));
    }
    if !status.is_empty() {
        detail.push(format!("last: {status}"));
    }
    Some(Change {
        at_ms: first,
        after_ms: None,
        subject: Subject::Object(key.clone()),
        kind: ChangeKind::Revision,
        what: applied,
        detail: detail.join(" · "),
        failed: status.contains("Failed"),
        origin: Origin::History,
    })
}

/// A source's stored artifact, at the time it was stored.
fn artifact(o: &FluxObject, out: &mut Vec<Change>) {
    let Some(a) = o.artifact() else {
        return;
    };
    let (Some(when), Some(rev)) = (at(a.last_update_time.as_deref()), a.revision.as_deref()) else {
        return;
    };
    let origin = o.url().map(|u| format!("from {u}")).unwrap_or_default();
    out.push(Change {
        at_ms: when,
        after_ms: None,
        subject: Subject::Object(o.key.clone()),
        kind: ChangeKind::Revision,
        what: format!("fetched {}", short(rev)),
        detail: origin,
        failed: false,
        origin: Origin::Artifact,
    });
}

/// The Ready condition's last transition: a failure or a recovery.
fn ready(o: &FluxObject, out: &mut Vec<Change>) {
    let Some(c) = o.condition("Ready") else {
        return;
    };
    let Some(when) = at(c.last_transition_time.as_deref()) else {
        return;
    };
    let reason = c.reason.as_deref().unwrap_or("");
    let what = match reason {
        "" => format!("Ready → {}", c.status),
        r => format!("Ready → {}: {r}", c.status),
    };
    out.push(Change {
        at_ms: when,
        after_ms: None,
        subject: Subject::Object(o.key.clone()),
        kind: ChangeKind::Status,
        what,
        detail: crate::util::revision::short_in(c.message.as_deref().unwrap_or_default()),
        failed: c.status == "False",
        origin: Origin::Condition,
    });
}

/// Warning events about objects of the model (Normal events repeat every interval and say
/// what the history already says).
fn warnings(c: &Cluster, events: &[Event], out: &mut Vec<Change>) {
    for e in events.iter().filter(|e| e.type_ == "Warning") {
        let Some((kind, name)) = e.involved_object.split_once('/') else {
            continue;
        };
        let key = ObjectKey::new(Kind::parse(kind), e.namespace.clone(), name);
        let Some(when) = at(e.last_timestamp.as_deref()) else {
            continue;
        };
        if !c.contains(&key) {
            continue;
        }
        out.push(Change {
            at_ms: when,
            after_ms: None,
            subject: Subject::Object(key),
            kind: ChangeKind::Status,
            what: "Warning event".into(),
            detail: e.message.clone(),
            failed: true,
            origin: Origin::Event,
        });
    }
}

/// What this window's answer cannot know, each said once.
fn limits(c: &Cluster, events: &EventsRead, from_ms: i64, to_ms: i64) -> Vec<String> {
    let mut out = Vec::new();
    let no_history: Vec<&FluxObject> = c
        .of_kind(&Kind::Kustomization)
        .filter(|k| k.raw.status.history.is_empty())
        .collect();
    if !no_history.is_empty() {
        out.push(format!(
            "{} Kustomization{} keep no history (kustomize-controller before Flux 2.7): \
             their applies show only as their last applied revision and Ready transition.",
            no_history.len(),
            if no_history.len() == 1 { "" } else { "s" }
        ));
    }
    let full = c.objects().iter().any(|o| {
        o.raw.status.history.len() >= HISTORY_KEPT
            && o.raw
                .status
                .history
                .last()
                .and_then(|e| at(e.first_reconciled.as_deref()).or(at(e.first_deployed.as_deref())))
                .is_some_and(|oldest| oldest > from_ms)
    });
    if full {
        out.push(format!(
            "History keeps the last {HISTORY_KEPT} revisions of each object: earlier applies in \
             this window are not listed for the objects that had more."
        ));
    }
    out.push(
        "A condition keeps only its last transition: an object that failed and recovered in \
         this window shows the recovery only."
            .into(),
    );
    match events {
        EventsRead::NotRead => out.push("Events were not read for this window.".into()),
        EventsRead::Failed(why) => out.push(format!("Events could not be read: {why}.")),
        EventsRead::Read { capped } => {
            if to_ms - from_ms > 3_600_000 {
                out.push(
                    "Kubernetes keeps events for about an hour by default: older Warning \
                     events are gone."
                        .into(),
                );
            }
            if *capped {
                out.push(
                    "The server reads at most 500 events per kind before keeping the Warnings \
                     (events.go GetEvents): on a busy cluster older Warnings may be missing."
                        .into(),
                );
            }
        }
    }
    out
}
