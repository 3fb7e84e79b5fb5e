//! The one-line verdict each view opens with ("No critical or high findings", "Root source
//! unverified — 1 medium", "M3: 50 of 154 consumers on the OCI root"), then the detail.

use crate::compliance::Control;
use crate::finding::{Finding, Severity};
use crate::migration::{Migration, StageState};
use crate::signatures::{SignatureSummary, Verification};

/// How the verdict reads at a glance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Ok,
    Warn,
    Bad,
    Neutral,
}

impl Tone {
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

/// "1 cycle", "2 cycles": every count the UI writes goes through this.
pub fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// The overview's verdict over the findings as shown (after aggregation).
pub fn overview(findings: &[Finding]) -> Verdict {
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
    match (crit, high) {
        (0, 0) => Verdict {
            tone: if medium > 0 { Tone::Warn } else { Tone::Ok },
            text: "No critical or high findings".into(),
            detail: if medium > 0 {
                format!("{} to schedule", plural(medium, "medium finding"))
            } else {
                "Posture advice only".into()
            },
        },
        (0, h) => Verdict {
            tone: Tone::Warn,
            text: format!("{} — act this cycle", plural(h, "high finding")),
            detail: worst,
        },
        (c, h) => Verdict {
            tone: Tone::Bad,
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
    let text = match (root, unverified) {
        (Verification::Verified, _) => match worst {
            Some(s) if s >= Severity::Medium => {
                format!("Root source verified; worst finding {}", s.as_str())
            }
            _ => "Root source verified".into(),
        },
        (_, Some(f)) => format!("Root source unverified — {}", f.severity.as_str()),
        (other, None) => {
            let sev = worst.map(|s| format!(" — worst finding {}", s.as_str()));
            format!("Root source {}{}", other.label(), sev.unwrap_or_default())
        }
    };
    let tone = match worst {
        Some(Severity::Critical | Severity::High) => Tone::Bad,
        Some(Severity::Medium) => Tone::Warn,
        _ if *root != Verification::Verified => Tone::Warn,
        _ => Tone::Ok,
    };
    Verdict { tone, text, detail }
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

/// The compliance view's verdict for the chosen profile.
pub fn compliance(controls: &[Control], profile: &str) -> Verdict {
    let decided: Vec<&Control> = controls.iter().filter(|c| c.outcome.is_known()).collect();
    let failed: Vec<&str> = decided
        .iter()
        .filter(|c| c.outcome == crate::outcome::Outcome::Fail)
        .map(|c| c.rule)
        .collect();
    Verdict {
        tone: if failed.is_empty() {
            Tone::Ok
        } else {
            Tone::Warn
        },
        text: format!(
            "{} under the {profile} profile",
            crate::compliance::Tally::of(controls).text()
        ),
        detail: if failed.is_empty() {
            "Nothing fails".into()
        } else {
            format!("Failing: {}", failed.join(", "))
        },
    }
}

/// The graph view's verdict.
pub fn graph(objects: usize, missing: usize, not_visible: usize, cycles: usize) -> Verdict {
    let bad = missing > 0 || cycles > 0;
    Verdict {
        tone: if bad { Tone::Bad } else { Tone::Ok },
        text: if bad {
            format!(
                "{} and {}",
                plural(missing, "missing reference"),
                plural(cycles, "dependsOn cycle")
            )
        } else {
            "Every reference resolves; no dependsOn cycle".into()
        },
        detail: format!(
            "{} · {} not visible to you",
            plural(objects, "object"),
            not_visible
        ),
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

    #[test]
    fn verdicts_read_at_a_glance() {
        assert_eq!(overview(&[f("SIG-01", Severity::Medium)]).tone, Tone::Warn);
        assert_eq!(overview(&[]).text, "No critical or high findings");
        let bad = overview(&[f("MIG-GO-02", Severity::Critical)]);
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
        assert_eq!(graph(10, 0, 0, 0).tone, Tone::Ok);
        assert_eq!(
            graph(10, 1, 0, 0).text,
            "1 missing reference and 0 dependsOn cycles"
        );
        assert_eq!(migrations(&[]).text, "No migration in progress");
    }
}
