//! What a change does: the findings it adds and resolves, the dangling references and cycles
//! it adds, the sources whose verify it removes or weakens, and where each migration moves.

use crate::analysis::{Analysis, Missing, StageAt, VerifyConfig};
use fluxlens_core::analyses::finding::{Finding, Severity, aggregate};
use fluxlens_core::model::ObjectKey;
use std::collections::{BTreeMap, BTreeSet};

/// How a source's verify got worse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerifyChangeKind {
    Removed,
    Weakened,
}

impl VerifyChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            VerifyChangeKind::Removed => "removed",
            VerifyChangeKind::Weakened => "weakened",
        }
    }
}

/// A source that loses or weakens `spec.verify`: high, critical on the root source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyChange {
    pub subject: ObjectKey,
    pub change: VerifyChangeKind,
    pub before: String,
    pub after: String,
    pub severity: Severity,
}

/// Where one migration was and is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageMove {
    pub base: Option<StageAt>,
    pub head: StageAt,
}

impl StageMove {
    /// Whether the change moves it back to an earlier stage.
    pub fn backwards(&self) -> bool {
        self.base
            .as_ref()
            .is_some_and(|b| self.head.order < b.order)
    }
}

/// One thing the change adds, as the verdict weighs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weighed {
    pub severity: Severity,
    /// What it is, in one line (`SIG-01 on Kind/ns/name`).
    pub what: String,
    /// A finding's message and remediation.
    pub detail: Option<String>,
    /// The object it is about, where one is: what an annotation is placed on.
    pub object: Option<ObjectKey>,
}

/// A change, judged.
#[derive(Debug, Clone)]
pub struct Change {
    pub added: Vec<Finding>,
    pub resolved: Vec<Finding>,
    pub missing_added: Vec<Missing>,
    pub missing_resolved: Vec<ObjectKey>,
    pub cycles_added: Vec<Vec<ObjectKey>>,
    pub verify: Vec<VerifyChange>,
    pub stages: BTreeMap<&'static str, StageMove>,
    /// References the head render cannot answer for.
    pub unresolved: Vec<(ObjectKey, String)>,
    pub notes: Vec<String>,
    /// Flux objects in the base (when given) and the head.
    pub objects: (Option<usize>, usize),
    /// The change stepped in the order Flux applies it (with a base).
    pub order: Option<crate::order::Judged>,
}

/// How bad each kind of change is for the verdict: dangling references and cycles stop
/// reconciliation (high); a migration moved backwards may be a deliberate rollback (medium).
pub const MISSING_SEVERITY: Severity = Severity::High;
pub const CYCLE_SEVERITY: Severity = Severity::High;
pub const BACKWARDS_SEVERITY: Severity = Severity::Medium;

impl Change {
    /// Everything the change adds, with its severity, worst first: what the verdict weighs.
    pub fn weighed(&self) -> Vec<Weighed> {
        let mut out: Vec<Weighed> = Vec::new();
        let mut push =
            |severity, what: String, detail: Option<String>, object: Option<&ObjectKey>| {
                out.push(Weighed {
                    severity,
                    what,
                    detail,
                    object: object.cloned(),
                })
            };
        for f in &self.added {
            let detail = format!("{}\n{}", f.message, f.remediation);
            let what = format!("{} on {}", f.rule, f.subject);
            push(f.severity, what, Some(detail), Some(&f.subject));
        }
        for v in &self.verify {
            let what = format!("verify {} on {}", v.change.as_str(), v.subject);
            push(v.severity, what, None, Some(&v.subject));
        }
        for m in &self.missing_added {
            let what = format!("{} is referenced and does not exist", m.target);
            // Shown where it is named: the target is not in the render.
            push(MISSING_SEVERITY, what, None, m.from.first());
        }
        for c in &self.cycles_added {
            let what = format!("dependsOn cycle through {}", c[0]);
            push(CYCLE_SEVERITY, what, None, c.first());
        }
        for (name, s) in &self.stages {
            if s.backwards() {
                let base = s.base.as_ref().map(|b| b.stage.as_str()).unwrap_or("");
                let what = format!("{name} moves back from {base} to {}", s.head.stage);
                push(BACKWARDS_SEVERITY, what, None, None);
            }
        }
        // A deadlock heads the verdict: nothing else in the change lands while it holds.
        out.sort_by_key(|w| {
            let deadlock = w.what.starts_with(crate::order::RULE);
            (std::cmp::Reverse(w.severity), !deadlock)
        });
        out
    }

    /// Whether anything added is at or above `fail_on`.
    pub fn fails(&self, fail_on: Severity) -> bool {
        self.weighed().iter().any(|w| w.severity >= fail_on)
    }
}

/// The change from `base` (none: an empty tree) to `head`.
pub fn diff(base: Option<&Analysis>, head: &Analysis) -> Change {
    let ident = |f: &Finding| (f.rule.clone(), f.subject.clone(), f.severity);
    let before: BTreeSet<_> = base
        .iter()
        .flat_map(|b| b.findings.iter().map(ident))
        .collect();
    let after: BTreeSet<_> = head.findings.iter().map(ident).collect();
    let order = base.map(|b| crate::order::judge(b, head));
    let mut added: Vec<Finding> = order.iter().flat_map(|o| o.findings.clone()).collect();
    added.extend(
        head.findings
            .iter()
            .filter(|f| !before.contains(&ident(f)))
            .cloned(),
    );
    let resolved: Vec<Finding> = base
        .iter()
        .flat_map(|b| b.findings.iter())
        .filter(|f| !after.contains(&ident(f)))
        .cloned()
        .collect();
    fluxlens_core::analyses::findings::sort_worst_first(&mut added);
    // §0.3-6, as the dashboard shows them: a rule on more than five objects is one finding.
    let added = aggregate(&added);
    let resolved = aggregate(&resolved);
    let was_missing: BTreeSet<&ObjectKey> = base
        .iter()
        .flat_map(|b| b.missing.iter().map(|m| &m.target))
        .collect();
    let is_missing: BTreeSet<&ObjectKey> = head.missing.iter().map(|m| &m.target).collect();
    let cycle_set = |c: &Vec<ObjectKey>| c.iter().cloned().collect::<BTreeSet<_>>();
    let old_cycles: Vec<BTreeSet<ObjectKey>> = base
        .iter()
        .flat_map(|b| b.cycles.iter().map(cycle_set))
        .collect();
    Change {
        added,
        resolved,
        missing_added: head
            .missing
            .iter()
            .filter(|m| !was_missing.contains(&m.target))
            .cloned()
            .collect(),
        missing_resolved: was_missing
            .difference(&is_missing)
            .map(|k| (*k).clone())
            .collect(),
        cycles_added: head
            .cycles
            .iter()
            .filter(|c| !old_cycles.contains(&cycle_set(c)))
            .cloned()
            .collect(),
        verify: base.map(|b| verify_changes(b, head)).unwrap_or_default(),
        stages: head
            .stages
            .iter()
            .map(|(name, at)| {
                let base = base.and_then(|b| b.stages.get(name)).cloned();
                (
                    *name,
                    StageMove {
                        base,
                        head: at.clone(),
                    },
                )
            })
            .collect(),
        unresolved: head.unresolved.clone(),
        notes: head.notes.clone(),
        objects: (
            base.map(|b| b.cluster.objects().len()),
            head.cluster.objects().len(),
        ),
        order,
    }
}

/// Sources that had verify in the base and lose it, or keep a weaker one; and a root that
/// moves from a verified source to one without verify.
fn verify_changes(base: &Analysis, head: &Analysis) -> Vec<VerifyChange> {
    let is_root = |k: &ObjectKey| head.root.as_ref() == Some(k) || base.root.as_ref() == Some(k);
    let severity = |k: &ObjectKey| {
        if is_root(k) {
            Severity::Critical
        } else {
            Severity::High
        }
    };
    let mut out = Vec::new();
    for (key, was) in &base.verify {
        let Some(was) = was else { continue };
        let (key, now) = match head.verify.get(key) {
            Some(now) => (key.clone(), now),
            // #69: a source renamed (the same kind and URL under a new name) keeps its verify
            // or loses it like one edited in place: "verify lost", not only SIG-11 low.
            None => match renamed(base, head, key) {
                Some((to, now)) => (to, now),
                None => continue,
            },
        };
        let key = &key;
        let change = match now {
            None => Some((VerifyChangeKind::Removed, "no spec.verify".to_string())),
            Some(now) => {
                weakened(was, now, key, base, head).map(|why| (VerifyChangeKind::Weakened, why))
            }
        };
        if let Some((change, after)) = change {
            let before = match base.verify.contains_key(key) {
                true => was.describe(),
                false => format!(
                    "{}, renamed: {}",
                    renamed_from(base, head, key),
                    was.describe()
                ),
            };
            out.push(VerifyChange {
                subject: key.clone(),
                change,
                before,
                after,
                severity: severity(key),
            });
        }
    }
    // The root moves to another source (Git → OCI): verify configured on the old root does
    // not travel with it.
    if let (Some(old), Some(new)) = (&base.root, &head.root)
        && old != new
        && let Some(Some(was)) = base.verify.get(old)
        && let Some(None) = head.verify.get(new)
    {
        out.push(VerifyChange {
            subject: new.clone(),
            change: VerifyChangeKind::Removed,
            before: format!("root {old}: {}", was.describe()),
            after: format!("root {new}: no spec.verify"),
            severity: Severity::Critical,
        });
    }
    out
}

/// The head's source that `old` became: a source the base did not hold, of the same kind and
/// URL, when `old` is gone; with its verify.
fn renamed<'a>(
    base: &Analysis,
    head: &'a Analysis,
    old: &ObjectKey,
) -> Option<(ObjectKey, &'a Option<VerifyConfig>)> {
    let url = base.cluster.get(old)?.url()?;
    head.verify.iter().find_map(|(k, v)| {
        (k.kind == old.kind
            && !base.verify.contains_key(k)
            && head.cluster.get(k).and_then(|o| o.url()) == Some(url))
        .then(|| (k.clone(), v))
    })
}

/// The base's source that `new` was renamed from (the inverse of [`renamed`]).
fn renamed_from(base: &Analysis, head: &Analysis, new: &ObjectKey) -> String {
    base.verify
        .keys()
        .find(|k| renamed(base, head, k).is_some_and(|(to, _)| &to == new))
        .map(ToString::to_string)
        .unwrap_or_default()
}

/// Why `now` admits more than `was`, if it does: another provider, a key given up for keyless,
/// or identity rules that the rules now call too broad.
fn weakened(
    was: &VerifyConfig,
    now: &VerifyConfig,
    key: &ObjectKey,
    base: &Analysis,
    head: &Analysis,
) -> Option<String> {
    if now.provider != was.provider {
        return Some(format!(
            "provider {} instead of {}",
            now.provider, was.provider
        ));
    }
    if was.keyed && !now.keyed {
        return Some(format!("{} instead of a key", now.describe()));
    }
    let breadth = |a: &Analysis| -> BTreeSet<String> {
        a.findings
            .iter()
            .filter(|f| {
                &f.subject == key && matches!(f.rule.as_str(), "SIG-05" | "SIG-06" | "SIG-07")
            })
            .map(|f| f.rule.clone())
            .collect()
    };
    let new: Vec<String> = breadth(head).difference(&breadth(base)).cloned().collect();
    (!new.is_empty()).then(|| format!("identity rules now too broad ({})", new.join(", ")))
}
