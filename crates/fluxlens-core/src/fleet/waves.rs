//! Upgrade waves: clusters ordered by a label (`wave=1`, `2`, …). A wave is ready to promote only
//! when every cluster of the wave before it is reachable, Ready, its root source verified, on
//! the target version and has landed it (its FluxInstance's newest history entry is that version,
//! applied successfully, Ready at it — #49); otherwise the view names the clusters that hold it back, and why.

use super::{Row, RowState, Verified};

/// A label value ordered as a person reads it: numbers by value (`2` before `10`), then text.
pub fn natural(s: &str) -> (u8, u64, String) {
    match s.trim().parse::<u64>() {
        Ok(n) => (0, n, String::new()),
        Err(_) => (1, 0, s.to_string()),
    }
}

/// One cluster holding a wave back, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holdback {
    pub cluster: String,
    pub reasons: Vec<String>,
}

/// Whether a wave may go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WaveStatus {
    /// The first wave: nothing before it to wait for.
    First,
    /// Every cluster of the previous wave is done.
    Ready,
    /// The clusters of the previous wave that are not.
    HeldBack(Vec<Holdback>),
    /// Clusters without the label: not part of the order.
    Unordered,
}

/// One wave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wave {
    /// The label's value (`""` for clusters without it).
    pub value: String,
    pub clusters: Vec<String>,
    pub status: WaveStatus,
}

/// The target: the one asked for, else the newest version any cluster runs.
pub fn target(rows: &[Row], asked: Option<&str>) -> Option<String> {
    if let Some(t) = asked.filter(|t| super::version::parse(t).is_some()) {
        return Some(t.to_string());
    }
    rows.iter()
        .filter_map(|r| r.facts.as_ref()?.flux_version.clone())
        .filter_map(|v| Some((super::version::parse(&v)?, v)))
        .max()
        .map(|(_, v)| v)
}

/// Why one cluster is not done with its wave (empty when it is).
pub fn holds_back(row: &Row, target: Option<&str>) -> Vec<String> {
    let mut why = Vec::new();
    if row.state != RowState::Ok {
        why.push(format!("{} now", row.state.as_str()));
    }
    let Some(f) = &row.facts else {
        why.push("never read".into());
        return why;
    };
    if row.stale_since_ms.is_some() {
        why.push("its facts are stale".into());
    }
    match f.ready {
        Some(true) => {}
        Some(false) => why.push("not Ready".into()),
        None => why.push("readiness unknown".into()),
    }
    match f.root_verified {
        Verified::Yes => {}
        Verified::No => why.push("root source not verified".into()),
        Verified::Unknown => why.push("root source verification unknown".into()),
    }
    let on = f.flux_version.as_deref().unwrap_or("an unknown version");
    match target {
        Some(t) if super::version::same(on, t) => {}
        Some(t) => why.push(format!("on {on}, not {t}")),
        None => why.push("no target version".into()),
    }
    // Landed: the new version applied and Ready at it, by the FluxInstance's own history.
    match &f.applied {
        super::row::Applied::Unknown => {
            why.push("the apply is not confirmed (no FluxInstance history)".into())
        }
        super::row::Applied::Version { flux, not_landed } => {
            if let Some(t) = target.filter(|t| !super::version::same(flux, t)) {
                why.push(format!("{t} not applied yet (last applied {flux})"));
            }
            why.extend(not_landed.iter().cloned());
        }
    }
    why.extend(drift_holds_back(row));
    why
}

/// With a render named, a cluster is done only when it runs it: no drift at or above high
/// (a suspend, a verify not enforced, another branch), and a render that could be read.
fn drift_holds_back(row: &Row) -> Option<String> {
    let named = row.render.as_deref()?;
    match row.facts.as_ref().and_then(|f| f.drift.as_ref()) {
        None => Some(format!("drift against {named} not judged yet")),
        Some(super::DriftCell::Unreadable(_)) => Some(format!("its render {named} cannot be read")),
        Some(super::DriftCell::Judged(c)) => {
            let high = c.findings[3] + c.findings[4];
            (high > 0).then(|| {
                format!(
                    "drifts from its render: {} at high or critical",
                    crate::util::words::plural(high, "finding")
                )
            })
        }
    }
}

/// The waves of `rows` by `label`, in order, each with whether it may go.
pub fn waves(rows: &[Row], label: &str, target: Option<&str>) -> Vec<Wave> {
    let mut values: Vec<String> = rows
        .iter()
        .filter_map(|r| r.labels.get(label).cloned())
        .collect();
    crate::util::sort::by(&mut values, |a, b| natural(a).cmp(&natural(b)));
    values.dedup();
    let members = |v: &str| -> Vec<&Row> {
        let mut m: Vec<&Row> = rows
            .iter()
            .filter(|r| r.labels.get(label).map(String::as_str) == Some(v))
            .collect();
        crate::util::sort::by(&mut m, |a, b| a.name.cmp(&b.name));
        m
    };
    let mut out = Vec::new();
    let mut before: Vec<&Row> = Vec::new();
    for (i, v) in values.iter().enumerate() {
        let now = members(v);
        let status = if i == 0 {
            WaveStatus::First
        } else {
            let held: Vec<Holdback> = before
                .iter()
                .map(|r| Holdback {
                    cluster: r.name.clone(),
                    reasons: holds_back(r, target),
                })
                .filter(|h| !h.reasons.is_empty())
                .collect();
            if held.is_empty() {
                WaveStatus::Ready
            } else {
                WaveStatus::HeldBack(held)
            }
        };
        out.push(Wave {
            value: v.clone(),
            clusters: now.iter().map(|r| r.name.clone()).collect(),
            status,
        });
        before = now;
    }
    let mut rest: Vec<String> = rows
        .iter()
        .filter(|r| !r.labels.contains_key(label))
        .map(|r| r.name.clone())
        .collect();
    crate::util::sort::natural(&mut rest);
    if !rest.is_empty() {
        out.push(Wave {
            value: String::new(),
            clusters: rest,
            status: WaveStatus::Unordered,
        });
    }
    out
}
