//! The one-line verdict each view opens with ("No critical or high findings", "Root source
//! unverified — 1 medium", "M3: 50 of 154 consumers on the OCI root"), then the detail.

use crate::analyses::compliance::Control;
use crate::analyses::finding::{Finding, Severity};
use crate::analyses::migration::{Migration, StageState};
use crate::analyses::signatures::{SignatureSummary, Verification};
use crate::analyses::summary::ClusterSummary;
use crate::model::Unsettled;

/// How the verdict reads at a glance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Ok,
    Warn,
    Bad,
    Neutral,
}

impl Tone {
    /// The tone of a verdict that names `severity` as its worst: critical and high read bad,
    /// medium warns, low and info are fine. Every verdict that names a severity takes its tone
    /// from here, so a "high" never reads yellow on one view and red on another (#27).
    pub fn of(severity: Severity) -> Tone {
        match severity {
            Severity::Critical | Severity::High => Tone::Bad,
            Severity::Medium => Tone::Warn,
            Severity::Low | Severity::Info => Tone::Ok,
        }
    }

    /// For `data-verdict` and the CSS modifier.
    pub fn as_str(self) -> &'static str {
        match self {
            Tone::Ok => "ok",
            Tone::Warn => "warn",
            Tone::Bad => "bad",
            Tone::Neutral => "neutral",
        }
    }
}

/// One line and its detail.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub tone: Tone,
    pub text: String,
    pub detail: String,
}

fn count(findings: &[Finding], sev: Severity) -> usize {
    findings.iter().filter(|f| f.severity == sev).count()
}

/// "1 cycle", "2 cycles": every count the UI writes goes through this (kept in `util` so the
/// model's sentences can use it too).
pub use crate::util::words::plural;

/// The findings that say something is failing now: OPS-01, the root source that cannot fetch
/// (MIG-GO-14), an unhealthy FluxInstance (MIG-DIST-03 above info).
pub fn failing_now(findings: &[Finding]) -> Vec<&Finding> {
    findings
        .iter()
        .filter(|f| match f.rule.as_str() {
            "OPS-01" | "MIG-GO-14" => true,
            "MIG-DIST-03" => f.severity > Severity::Info,
            _ => false,
        })
        .collect()
}

/// The overview's verdict over the findings as shown (after aggregation). What is failing now
/// comes first (rule catalog revision 5, OPS-01): the on-call engineer's first question. "No
/// critical or high findings" is an absence: while references that look missing are
/// unsettled (being confirmed, or not confirmed), it is said only of what could be confirmed,
/// in a neutral tone.
pub fn overview(findings: &[Finding], unsettled: Option<&Unsettled>) -> Verdict {
    let failing = failing_now(findings);
    if let Some(first) = failing.first() {
        let objects: usize = failing.iter().map(|f| f.objects().len()).sum();
        let others = findings
            .iter()
            .filter(|f| f.severity >= Severity::High && !failing.iter().any(|x| x == f))
            .count();
        let mut detail = first.message.clone();
        if failing.len() > 1 {
            detail.push_str(&format!(" · {}", plural(failing.len() - 1, "more cause")));
        }
        if others > 0 {
            detail.push_str(&format!(
                " · also {}",
                plural(others, "other critical or high finding")
            ));
        }
        return Verdict {
            tone: Tone::Bad,
            text: format!("{} failing now", plural(objects, "object")),
            detail,
        };
    }
    let (crit, high) = (
        count(findings, Severity::Critical),
        count(findings, Severity::High),
    );
    let medium = count(findings, Severity::Medium);
    let worst = findings
        .iter()
        .find(|f| f.severity >= Severity::High)
        .map(|f| format!("{} {}: {}", f.severity.as_str(), f.rule, f.message))
        .unwrap_or_default();
    let tone = findings
        .iter()
        .map(|f| f.severity)
        .max()
        .map_or(Tone::Ok, Tone::of);
    match (crit, high) {
        (0, 0) => {
            let detail = if medium > 0 {
                format!("{} to schedule", plural(medium, "medium finding"))
            } else {
                "Posture advice only".into()
            };
            match unsettled {
                None => Verdict {
                    tone,
                    text: "No critical or high findings".into(),
                    detail,
                },
                Some(u) => Verdict {
                    tone: Tone::Neutral,
                    text: "No critical or high findings so far".into(),
                    detail: format!("{} · {detail}", u.notice()),
                },
            }
        }
        (0, h) => Verdict {
            tone,
            text: format!("{} — act this cycle", plural(h, "high finding")),
            detail: worst,
        },
        (c, h) => Verdict {
            tone,
            text: format!("{} critical, {} high — delivery or integrity at risk", c, h),
            detail: worst,
        },
    }
}

/// The signatures view's verdict: the root first, then the rest. "Root source verified" is
/// said only when its posture is [`Verification::Verified`] (revision 3).
pub fn signatures(
    summary: &SignatureSummary,
    root: Option<&Verification>,
    findings: &[Finding],
) -> Verdict {
    let sig: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.rule.starts_with("SIG-"))
        .collect();
    let worst = sig.iter().map(|f| f.severity).max();
    let detail = format!(
        "{} of {} verifiable sources verified",
        summary.verified, summary.verifiable
    );
    let Some(root) = root else {
        return Verdict {
            tone: Tone::Neutral,
            text: "No root source known".into(),
            detail,
        };
    };
    // SIG-10 carries SIG-01 when the verify patch missed (one cause, one finding).
    let unverified = sig
        .iter()
        .find(|f| f.rule == "SIG-01" || f.rule == "SIG-10");
    // The text names the worst severity whenever it is worse than the one it leads with, so
    // the tone (from the worst) always follows a severity the line names.
    let worse = |named: Option<Severity>| match worst {
        Some(w) if w >= Severity::Medium && Some(w) > named => {
            format!("worst finding {}", w.as_str())
        }
        _ => String::new(),
    };
    let text = match (root, unverified) {
        (Verification::Verified, _) => join("Root source verified", "; ", worse(None)),
        (_, Some(f)) => join(
            &format!("Root source unverified — {}", f.severity.as_str()),
            "; ",
            worse(Some(f.severity)),
        ),
        (other, None) => join(
            &format!("Root source {}", other.label()),
            " — ",
            worse(None),
        ),
    };
    let tone = match worst.map(Tone::of) {
        Some(t @ (Tone::Bad | Tone::Warn)) => t,
        // An unverified root is never "fine", whatever its findings say.
        _ if *root != Verification::Verified => Tone::Warn,
        _ => Tone::Ok,
    };
    Verdict { tone, text, detail }
}

/// `head`, then `sep` and `tail` when there is a tail.
fn join(head: &str, sep: &str, tail: String) -> String {
    if tail.is_empty() {
        head.to_string()
    } else {
        format!("{head}{sep}{tail}")
    }
}

/// The migrations view's verdict: the first started migration that is not done.
pub fn migrations(migrations: &[Migration]) -> Verdict {
    let active: Vec<&Migration> = migrations.iter().filter(|m| m.started).collect();
    let Some(m) = active
        .iter()
        .find(|m| m.stages.iter().any(|s| s.state != StageState::Done) || !m.blockers.is_empty())
    else {
        return Verdict {
            tone: if active.is_empty() {
                Tone::Neutral
            } else {
                Tone::Ok
            },
            text: if active.is_empty() {
                "No migration in progress".into()
            } else {
                "Every started migration is done".into()
            },
            detail: format!("{} migrations checked", migrations.len()),
        };
    };
    let cur = m.current();
    let text = match cur {
        Some(s) => match &s.progress {
            Some((done, total, what)) => {
                format!("{}: {} — {done} of {total} {what}", m.title, s.id)
            }
            None => format!("{}: {} {}", m.title, s.id, s.title),
        },
        None => m.title.clone(),
    };
    Verdict {
        tone: if m.blockers.is_empty() {
            Tone::Warn
        } else {
            Tone::Bad
        },
        text,
        detail: if m.blockers.is_empty() {
            cur.map(|s| format!("{} {}", s.title, s.state.as_str()))
                .unwrap_or_default()
        } else {
            plural(m.blockers.len(), "blocker")
        },
    }
}

/// The compliance view's verdict for the chosen profile: its tone follows the worst finding of
/// a failing control; with none failing, unknown controls make it neutral (never a tick over
/// what could not be checked).
pub fn compliance(
    controls: &[Control],
    profile: crate::analyses::enterprise::ProfileName,
) -> Verdict {
    use crate::analyses::outcome::Outcome;
    let failing: Vec<&Control> = controls
        .iter()
        .filter(|c| c.outcome == Outcome::Fail)
        .collect();
    let tally = crate::analyses::compliance::Tally::of(controls);
    let worst = failing.iter().filter_map(|c| c.worst).max();
    let tone = match worst {
        // A failing control is never fine, even when only a low finding speaks to it.
        Some(s) => match Tone::of(s) {
            Tone::Ok => Tone::Warn,
            t => t,
        },
        None if tally.unknown > 0 => Tone::Neutral,
        None => Tone::Ok,
    };
    let names: Vec<&str> = failing.iter().map(|c| c.rule).collect();
    Verdict {
        tone,
        text: format!("{} under the {profile} profile", tally.text()),
        detail: match worst {
            None if names.is_empty() && tally.unknown > 0 => {
                "Nothing fails; what is unknown is not confirmed".into()
            }
            None if names.is_empty() => "Nothing fails".into(),
            Some(s) => format!("Failing: {} (worst {})", names.join(", "), s.as_str()),
            None => format!("Failing: {}", names.join(", ")),
        },
    }
}

/// The graph view's verdict: the references first, and never a tick beside what the
/// overview calls high (#46: /graph was green while the overview said "2 high findings").
/// "Every reference resolves" is an absence: not said while references are unsettled.
pub fn graph(summary: &ClusterSummary, cycles: usize, findings: &[Finding]) -> Verdict {
    let missing = summary.missing_refs;
    let detail = format!(
        "{} · {} not visible to you",
        plural(summary.total, "object"),
        summary.not_visible_refs
    );
    if missing > 0 || cycles > 0 {
        return Verdict {
            tone: Tone::Bad,
            text: format!(
                "{} and {}",
                plural(missing, "missing reference"),
                plural(cycles, "dependsOn cycle")
            ),
            detail,
        };
    }
    let overview = overview(findings, summary.unsettled.as_ref());
    let (crit, high) = (
        count(findings, Severity::Critical),
        count(findings, Severity::High),
    );
    let (resolves, detail) = match &summary.unsettled {
        None => ("Every reference resolves", detail),
        Some(u) => (
            "No missing reference so far",
            format!("{} · {detail}", u.notice()),
        ),
    };
    let text = match (crit, high) {
        (0, 0) if summary.unsettled.is_none() => format!("{resolves}; no dependsOn cycle"),
        (0, 0) => resolves.to_string(),
        (0, h) => format!("{resolves}; {} on the overview", plural(h, "high finding")),
        (c, h) => format!("{resolves}; {c} critical, {h} high on the overview"),
    };
    Verdict {
        tone: overview.tone,
        text,
        detail,
    }
}

/// The changes view's verdict (`window`: "in the last hour"): how many changes the window holds and how many are failures;
/// never "nothing changed" (the answer has limits, listed beside it).
pub fn changes(
    changes: &[crate::analyses::changes::Change],
    window: &str,
    history_kept: bool,
) -> Verdict {
    let failed = changes.iter().filter(|c| c.failed).count();
    let objects: std::collections::BTreeSet<String> =
        changes.iter().map(|c| c.subject.hook()).collect();
    match changes.len() {
        // #68: a snapshot's /changes was headed "No change found in the last 24 hours", of a
        // read that carries no history to find one in.
        0 if !history_kept => Verdict {
            tone: Tone::Neutral,
            text: "A snapshot keeps no history of changes".into(),
            detail: "Compare it with another snapshot to see what changed between the two".into(),
        },
        0 => Verdict {
            tone: Tone::Neutral,
            text: format!("No change found {window}"),
            detail: "What this view cannot see is listed below".into(),
        },
        n => Verdict {
            tone: if failed > 0 { Tone::Warn } else { Tone::Ok },
            text: format!(
                "{} {window}, {}",
                plural(n, "change"),
                // #68: "8 a failure" read as nonsense.
                match failed {
                    0 => "no failure".to_string(),
                    f => plural(f, "failure"),
                }
            ),
            detail: format!("across {}", plural(objects.len(), "subject")),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ObjectKey;

    fn f(rule: &str, sev: Severity) -> Finding {
        Finding {
            rule: rule.into(),
            severity: sev,
            subject: ObjectKey::parse("GitRepository/flux-system/flux-system").unwrap(),
            message: "m".into(),
            evidence: vec![],
            remediation: String::new(),
            reason: String::new(),
            members: vec![],
        }
    }

    fn overview_of(findings: &[Finding]) -> Verdict {
        overview(findings, None)
    }

    /// A summary of `total` objects with `missing` missing references.
    fn counts(total: usize, missing: usize) -> ClusterSummary {
        ClusterSummary {
            total,
            missing_refs: missing,
            ..Default::default()
        }
    }

    #[test]
    fn what_fails_now_leads_the_overview() {
        // #68: a HelmRelease and a Kustomization failed, and the overview led with "No critical
        // or high findings — 5 medium findings to schedule" in yellow.
        let mut failing = f("OPS-01", Severity::High);
        failing.message = "HelmRelease/apps/web is failing since 03:00: Helm upgrade failed".into();
        let other = f("OPS-01", Severity::High);
        let findings = [
            failing.clone(),
            other,
            f("SIG-01", Severity::Medium),
            f("MIG-GO-15", Severity::Critical),
        ];
        let v = overview_of(&findings);
        assert_eq!(v.tone, Tone::Bad);
        assert_eq!(v.text, "2 objects failing now");
        assert_eq!(
            v.detail,
            "HelmRelease/apps/web is failing since 03:00: Helm upgrade failed · 1 more cause · also 1 other critical or high finding"
        );
        // Calm stays calm.
        let calm = overview_of(&[f("SIG-01", Severity::Medium)]);
        assert_eq!(calm.text, "No critical or high findings");
        assert_eq!(calm.tone, Tone::Warn);
    }

    #[test]
    fn no_absence_is_claimed_while_references_are_unsettled() {
        // Regression (CI, stop 64): while the first view's confirming read was under way, the
        // overview said "No critical or high findings" in green and /graph "Every reference
        // resolves" over a cluster the next answer froze with a critical MIG-GO-15.
        let pending = Unsettled::Confirming(1);
        let v = overview(&[f("SIG-01", Severity::Medium)], Some(&pending));
        assert_eq!(v.tone, Tone::Neutral);
        assert_eq!(v.text, "No critical or high findings so far");
        assert_eq!(
            v.detail,
            "Confirming 1 reference that looks missing with the server… · 1 medium finding to \
             schedule"
        );
        let mut s = counts(12, 0);
        s.unsettled = Some(pending);
        let g = graph(&s, 0, &[]);
        assert_eq!(g.tone, Tone::Neutral);
        assert_eq!(g.text, "No missing reference so far");
        assert!(
            g.detail
                .starts_with("Confirming 1 reference that looks missing")
        );
        // What is already known stays said: a high is high before the answer too.
        let high = overview(&[f("SIG-02", Severity::High)], s.unsettled.as_ref());
        assert_eq!(high.tone, Tone::Bad);
        assert!(
            graph(&s, 0, &[f("SIG-02", Severity::High)])
                .text
                .ends_with("; 1 high finding on the overview")
        );
    }

    #[test]
    fn the_graph_is_never_green_beside_high_findings() {
        let fine = graph(&counts(10, 0), 0, &[]);
        assert_eq!(fine.tone, Tone::Ok);
        let high = graph(
            &counts(10, 0),
            0,
            &[f("SIG-02", Severity::High), f("ENT-01", Severity::Info)],
        );
        assert_eq!(high.tone, Tone::of(Severity::High));
        assert_eq!(
            high.text,
            "Every reference resolves; 1 high finding on the overview"
        );
        assert_eq!(graph(&counts(10, 1), 0, &[]).tone, Tone::Bad);
    }

    #[test]
    fn verdicts_read_at_a_glance() {
        assert_eq!(
            overview_of(&[f("SIG-01", Severity::Medium)]).tone,
            Tone::Warn
        );
        assert_eq!(overview_of(&[]).text, "No critical or high findings");
        let bad = overview_of(&[f("MIG-GO-02", Severity::Critical)]);
        assert_eq!(bad.tone, Tone::Bad);
        assert!(bad.detail.starts_with("critical MIG-GO-02"));
        let s = SignatureSummary {
            verifiable: 3,
            verified: 1,
            root_verified: Some(false),
        };
        let unverified = Verification::Unverified;
        assert_eq!(
            signatures(&s, Some(&unverified), &[f("SIG-01", Severity::Medium)]).text,
            "Root source unverified — medium"
        );
        // Regression (#29): a failing OCI root read "Root source verified" under a critical
        // SIG-03, because only SIG-01 was consulted.
        let failing = Verification::NotVerified("verification failing".into());
        let v = signatures(&s, Some(&failing), &[f("SIG-03", Severity::Critical)]);
        assert_eq!(
            v.text,
            "Root source not verified (verification failing) — worst finding critical"
        );
        assert_eq!(v.tone, Tone::Bad);
        let v = signatures(&s, Some(&Verification::StaleCondition), &[]);
        assert_eq!(v.text, "Root source not verified (stale condition)");
        assert_eq!(v.tone, Tone::Warn);
        let ok = signatures(
            &s,
            Some(&Verification::Verified),
            &[f("SIG-08", Severity::Low)],
        );
        assert_eq!(
            (ok.text.as_str(), ok.tone),
            ("Root source verified", Tone::Ok)
        );
        assert_eq!(graph(&counts(10, 0), 0, &[]).tone, Tone::Ok);
        assert_eq!(
            graph(&counts(10, 1), 0, &[]).text,
            "1 missing reference and 0 dependsOn cycles"
        );
        assert_eq!(migrations(&[]).text, "No migration in progress");
    }

    #[test]
    fn the_tone_follows_the_severity_the_line_names() {
        // #27: "1 high finding — act this cycle" read yellow on the overview while a high read
        // red on the signatures view; "unverified — medium" was red under another SIG high.
        let high = overview_of(&[f("MIG-GO-02", Severity::High)]);
        assert_eq!(
            (high.tone, high.text.as_str()),
            (Tone::Bad, "1 high finding — act this cycle")
        );
        let s = SignatureSummary {
            verifiable: 2,
            verified: 0,
            root_verified: Some(false),
        };
        let v = signatures(
            &s,
            Some(&Verification::Unverified),
            &[f("SIG-01", Severity::Medium), f("SIG-05", Severity::High)],
        );
        assert_eq!(
            v.text,
            "Root source unverified — medium; worst finding high"
        );
        assert_eq!(v.tone, Tone::Bad);
        let verified = signatures(
            &s,
            Some(&Verification::Verified),
            &[f("SIG-05", Severity::Medium)],
        );
        assert_eq!(
            (verified.text.as_str(), verified.tone),
            ("Root source verified; worst finding medium", Tone::Warn)
        );
        // Compliance: a failing control's worst finding sets the tone; unknowns with nothing
        // failing are neutral, not a tick.
        use crate::analyses::outcome::Outcome;
        let control = |outcome, worst| Control {
            rule: "ENT-02",
            title: "t",
            outcome,
            worst,
        };
        let failing = compliance(
            &[
                control(Outcome::Pass, None),
                control(Outcome::Fail, Some(Severity::High)),
            ],
            crate::analyses::enterprise::ProfileName::Fips,
        );
        assert_eq!(failing.tone, Tone::Bad);
        assert_eq!(failing.detail, "Failing: ENT-02 (worst high)");
        let low = compliance(
            &[control(Outcome::Fail, Some(Severity::Low))],
            crate::analyses::enterprise::ProfileName::Fips,
        );
        assert_eq!(low.tone, Tone::Warn, "a failing control is never fine");
        let unknown = compliance(
            &[control(Outcome::Unknown, None)],
            crate::analyses::enterprise::ProfileName::Fips,
        );
        assert_eq!(unknown.tone, Tone::Neutral);
        assert_eq!(
            compliance(
                &[control(Outcome::Pass, None)],
                crate::analyses::enterprise::ProfileName::Fips
            )
            .tone,
            Tone::Ok
        );
        for sev in [Severity::Critical, Severity::High, Severity::Medium] {
            let v = overview_of(&[f("SIG-01", sev)]);
            assert_eq!(v.tone, Tone::of(sev), "{sev:?}");
        }
    }

    #[test]
    fn the_changes_verdict_never_says_nothing_changed() {
        let v = changes(&[], "in the last hour", true);
        assert_eq!(v.text, "No change found in the last hour");
        let failing = |failed: bool| crate::analyses::changes::Change {
            at_ms: 0,
            after_ms: None,
            subject: crate::analyses::changes::Subject::Object(
                ObjectKey::parse("Kustomization/apps/web").unwrap(),
            ),
            kind: crate::analyses::changes::ChangeKind::Status,
            what: "Ready → False".into(),
            detail: String::new(),
            failed,
            origin: crate::analyses::changes::Origin::Condition,
        };
        let eight: Vec<_> = (0..8).map(|_| failing(true)).collect();
        assert_eq!(
            changes(&eight, "in the last hour", true).text,
            "8 changes in the last hour, 8 failures"
        );
        assert_eq!(
            changes(&[failing(false)], "in the last hour", true).text,
            "1 change in the last hour, no failure"
        );
        assert_eq!(v.tone, Tone::Neutral);
        // #68: a snapshot's page never claims to have searched a window it has no history of.
        let snap = changes(&[], "in the last 24 hours", false);
        assert_eq!(snap.text, "A snapshot keeps no history of changes");
        assert_eq!(snap.tone, Tone::Neutral);
    }
}
