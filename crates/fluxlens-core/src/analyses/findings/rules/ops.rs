//! OPS-01: what is failing now (rule catalog revision 5). An object whose last reconcile failed
//! at its current generation is a finding with the condition's message, since when, and what
//! consumes or waits on it; a failure that follows from another (a consumer of a failing source,
//! an applier that depends on a failing one) is listed under its cause, not as a second finding.

use super::rule;
use crate::analyses::facts::cluster::ClusterFacts;
use crate::analyses::findings::Finding;
use crate::analyses::findings::policy::{Class, graded};
use crate::model::{Cluster, FluxObject, ObjectKey, RefKind};
use crate::wire::kind::Kind;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

rule!(
    /// OPS-01: an object failing now, with its blast radius.
    FailingNow, "OPS-01", "failing now", failing_now
);

/// Ready=False reasons that are not failures: waiting on a dependency (MIG-GO-15 says when the
/// wait never ends) or still working.
const NOT_FAILURES: [&str; 3] = ["DependencyNotReady", "Progressing", "Reconciling"];

/// How many consumers the evidence names before it counts the rest.
const NAMED: usize = 8;

/// Why an object is failing: the condition that says so.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    pub key: ObjectKey,
    /// `Ready=False`, `Stalled=True`, `Released=False`, …
    pub condition: String,
    pub reason: String,
    pub message: String,
    /// The condition's lastTransitionTime: failing since.
    pub since: Option<String>,
}

/// Whether `o` is failing now: its last reconcile failed at its current generation (a
/// condition of an older generation speaks of a spec the controller has not reconciled yet).
/// Suspended objects are not failing; a failed signature check alone is SIG-03's.
pub fn failure(o: &FluxObject) -> Option<Failure> {
    if o.suspended() {
        return None;
    }
    let current = |c: &&crate::wire::object::Condition| match (
        c.observed_generation,
        o.observed_generation(),
    ) {
        (Some(seen), Some(now)) => seen >= now,
        _ => true,
    };
    let is = |t: &str, status: &str| {
        o.condition(t)
            .filter(|c| c.status == status)
            .filter(current)
    };
    let ready = is("Ready", "False").filter(|c| {
        let reason = c.reason.as_deref().unwrap_or("");
        !NOT_FAILURES.contains(&reason) && reason != "VerificationError"
    });
    let cause = is("Stalled", "True")
        .or(ready)
        .or(is("FetchFailed", "True"))
        .or(is("Released", "False"))
        .or(is("TestSuccess", "False"))?;
    Some(Failure {
        key: o.key.clone(),
        condition: format!("{}={}", cause.type_, cause.status),
        reason: cause.reason.clone().unwrap_or_default(),
        message: cause.message.clone().unwrap_or_default(),
        since: cause.last_transition_time.clone(),
    })
}

/// Objects another rule already reports as failing: the root source (MIG-GO-14, `root`) and the
/// FluxInstance (MIG-DIST-03).
fn reported_elsewhere(root: Option<&ObjectKey>, key: &ObjectKey) -> bool {
    key.kind == Kind::FluxInstance || root == Some(key)
}

/// What `o` waits on or reads: a failure there is a cause of a failure here.
fn upstream(o: &FluxObject) -> impl Iterator<Item = &ObjectKey> {
    o.refs
        .iter()
        .filter(|r| {
            matches!(
                r.kind,
                RefKind::Source | RefKind::ChartRef | RefKind::ChartTemplate | RefKind::DependsOn
            )
        })
        .map(|r| &r.target)
}

/// What reads or waits on each object, directly: built once per evaluation, walked once per cause.
struct Downstream<'a>(BTreeMap<&'a ObjectKey, Vec<&'a ObjectKey>>);

impl<'a> Downstream<'a> {
    fn of(c: &'a Cluster) -> Self {
        let mut down: BTreeMap<&ObjectKey, Vec<&ObjectKey>> = BTreeMap::new();
        for o in c.objects() {
            for t in upstream(o) {
                down.entry(t).or_default().push(&o.key);
            }
        }
        Downstream(down)
    }
}

/// Everything that reads or waits on `key`, directly or through others (breadth first).
fn blast_radius(down: &Downstream, key: &ObjectKey) -> Vec<ObjectKey> {
    let down = &down.0;
    let mut seen: BTreeSet<&ObjectKey> = BTreeSet::from([key]);
    let mut queue = VecDeque::from([key]);
    let mut out = Vec::new();
    while let Some(k) = queue.pop_front() {
        for d in down.get(k).into_iter().flatten() {
            if seen.insert(d) {
                out.push((*d).clone());
                queue.push_back(d);
            }
        }
    }
    out
}

/// The cause each failing object is listed under: the first failing object upstream of it
/// that has no failing cause itself (itself, when nothing it reads or waits on fails).
fn causes(c: &Cluster, failing: &BTreeMap<ObjectKey, Failure>) -> BTreeMap<ObjectKey, ObjectKey> {
    let failing_upstream = |k: &ObjectKey| -> Vec<ObjectKey> {
        c.get(k)
            .map(|o| {
                upstream(o)
                    .filter(|t| failing.contains_key(*t) && *t != k)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut out = BTreeMap::new();
    for k in failing.keys() {
        // Walk up to a failure with no failing cause; a cycle of failures stops where it began.
        let mut at = k.clone();
        let mut path = BTreeSet::from([at.clone()]);
        while let Some(next) = failing_upstream(&at)
            .into_iter()
            .find(|t| !path.contains(t))
        {
            path.insert(next.clone());
            at = next;
        }
        out.insert(k.clone(), at);
    }
    out
}

fn failing_now(id: &str, c: &ClusterFacts, out: &mut Vec<Finding>) {
    let failing: BTreeMap<ObjectKey, Failure> = c
        .objects()
        .iter()
        .filter_map(failure)
        .map(|f| (f.key.clone(), f))
        .collect();
    let mut under: BTreeMap<ObjectKey, Vec<ObjectKey>> = BTreeMap::new();
    for (k, cause) in causes(c, &failing) {
        under.entry(cause).or_default().push(k);
    }
    if under.is_empty() {
        return;
    }
    let root = c.root_source();
    let down = Downstream::of(c);
    for (cause, mut members) in under {
        // A cause another rule reports carries its consequences there (the root source's
        // failure stops the whole cluster: MIG-GO-14 says so).
        if reported_elsewhere(root.as_ref(), &cause) {
            continue;
        }
        members.sort_by_key(|k| k != &cause);
        out.push(finding(id, c, &down, &failing[&cause], members));
    }
}

fn finding(
    id: &str,
    c: &Cluster,
    down: &Downstream,
    f: &Failure,
    members: Vec<ObjectKey>,
) -> Finding {
    let key = &f.key;
    let since = f
        .since
        .as_deref()
        .map(|t| format!(" since {t}"))
        .unwrap_or_default();
    let mut evidence = vec![format!(
        "{} {}{since}: {}",
        f.condition, f.reason, f.message
    )];
    let caused: Vec<&ObjectKey> = members.iter().filter(|m| *m != key).collect();
    if !caused.is_empty() {
        let names: Vec<String> = caused.iter().map(|k| k.to_string()).collect();
        evidence.push(format!("failing because of it: {}", names.join(", ")));
    }
    let radius = blast_radius(down, key);
    if !radius.is_empty() {
        let named: Vec<String> = radius.iter().take(NAMED).map(|k| k.to_string()).collect();
        let more = radius.len().saturating_sub(NAMED);
        let rest = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        evidence.push(format!(
            "blast radius: {} read or wait on it: {}{rest}",
            crate::util::words::plural(radius.len(), "object"),
            named.join(", ")
        ));
    }
    let also = match caused.len() {
        0 => String::new(),
        n => format!(" ({n} more failing because of it)"),
    };
    let message = format!("{key} is failing{since}: {}{also}", first_line(&f.message));
    let mut finding = graded(
        c,
        id,
        Class::Broken,
        key.clone(),
        message,
        evidence,
        remedy(f),
    );
    if !caused.is_empty() {
        finding.members = members;
    }
    finding
}

/// The message's first line (controllers write multi-line messages).
fn first_line(message: &str) -> &str {
    message.lines().next().unwrap_or("").trim()
}

/// The command to look closer, and what to fix, for the failing object.
fn remedy(f: &Failure) -> String {
    let k = &f.key;
    let kind = k.kind.as_str();
    let look = format!("`flux events --for {kind}/{} -n {}`", k.name, k.namespace);
    let fix = match k.kind {
        Kind::GitRepository | Kind::OciRepository | Kind::Bucket | Kind::HelmRepository => {
            "fix what the condition names (credentials, URL, ref, TLS), then `flux reconcile source`"
        }
        Kind::HelmRelease => {
            "fix the chart or its values (`flux debug hr` shows the values it applies), then `flux reconcile helmrelease`"
        }
        Kind::Kustomization => {
            "fix the manifests or the source (`flux debug ks` shows the applied spec), then `flux reconcile kustomization`"
        }
        _ => "fix what the condition names, then reconcile it",
    };
    format!("Look closer: {look}; {fix}. Everything in its blast radius waits until it recovers.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CrdAccess;
    use crate::wire::FluxReport;
    use serde_json::json;

    fn obj(
        kind: &str,
        ns: &str,
        name: &str,
        spec: serde_json::Value,
        ready: &[(&str, &str, &str)],
    ) -> serde_json::Value {
        let conditions: Vec<_> = ready
            .iter()
            .map(|(t, s, r)| {
                json!({"type": t, "status": s, "reason": r, "message": format!("{r} happened"),
                "lastTransitionTime": "2026-12-06T03:00:00Z"})
            })
            .collect();
        json!({"apiVersion": Kind::parse(kind).default_api_version(), "kind": kind,
            "metadata": {"name": name, "namespace": ns}, "spec": spec,
            "status": {"conditions": conditions}})
    }

    fn cluster(objs: Vec<serde_json::Value>) -> Cluster {
        Cluster::new(
            FluxReport::default(),
            objs.into_iter().map(|v| serde_json::from_value(v).unwrap()),
            CrdAccess::Unknown,
        )
    }

    fn findings(c: &Cluster) -> Vec<Finding> {
        let mut out = Vec::new();
        failing_now("OPS-01", &ClusterFacts::of(c), &mut out);
        out
    }

    #[test]
    fn a_failing_source_is_one_finding_with_its_failing_consumers_under_it() {
        let src = json!({"sourceRef": {"kind": "GitRepository", "name": "app"}});
        let c = cluster(vec![
            obj(
                "GitRepository",
                "apps",
                "app",
                json!({}),
                &[("Ready", "False", "GitOperationFailed")],
            ),
            obj(
                "Kustomization",
                "apps",
                "web",
                src.clone(),
                &[("Ready", "False", "ArtifactFailed")],
            ),
            obj(
                "Kustomization",
                "apps",
                "api",
                src,
                &[("Ready", "True", "Succeeded")],
            ),
            obj(
                "Kustomization",
                "apps",
                "late",
                json!({"sourceRef": {"kind": "GitRepository", "name": "other"}, "dependsOn": [{"name": "web"}]}),
                &[("Ready", "False", "DependencyNotReady")],
            ),
        ]);
        let f = findings(&c);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].subject.to_string(), "GitRepository/apps/app");
        assert_eq!(f[0].severity, crate::analyses::findings::Severity::High);
        assert!(f[0].message.contains("since 2026-12-06T03:00:00Z"));
        assert!(
            f[0].message.contains("1 more failing because of it"),
            "{}",
            f[0].message
        );
        assert_eq!(f[0].members.len(), 2);
        let radius = f[0]
            .evidence
            .iter()
            .find(|e| e.starts_with("blast radius"))
            .unwrap();
        assert!(
            radius.contains("3 objects") && radius.contains("Kustomization/apps/late"),
            "{radius}"
        );
        assert!(
            f[0].remediation
                .contains("flux events --for GitRepository/app -n apps")
        );
    }

    #[test]
    fn waiting_progressing_suspended_and_older_generations_are_not_failing() {
        let c = cluster(vec![
            obj(
                "Kustomization",
                "a",
                "waits",
                json!({}),
                &[("Ready", "False", "DependencyNotReady")],
            ),
            obj(
                "Kustomization",
                "a",
                "works",
                json!({}),
                &[("Ready", "False", "Progressing")],
            ),
            obj(
                "Kustomization",
                "a",
                "paused",
                json!({"suspend": true}),
                &[("Ready", "False", "BuildFailed")],
            ),
            obj(
                "OCIRepository",
                "a",
                "unsigned",
                json!({}),
                &[("Ready", "False", "VerificationError")],
            ),
        ]);
        assert!(findings(&c).is_empty());
        let mut stale = obj(
            "Kustomization",
            "a",
            "edited",
            json!({}),
            &[("Ready", "False", "BuildFailed")],
        );
        stale["status"]["observedGeneration"] = json!(3);
        stale["status"]["conditions"][0]["observedGeneration"] = json!(2);
        assert!(
            findings(&cluster(vec![stale])).is_empty(),
            "failed at an older spec"
        );
    }

    #[test]
    fn stalled_and_failed_helm_actions_are_failing() {
        let c = cluster(vec![
            obj(
                "HelmRelease",
                "a",
                "db",
                json!({}),
                &[
                    ("Ready", "Unknown", "Progressing"),
                    ("Stalled", "True", "RetriesExceeded"),
                ],
            ),
            obj(
                "HelmRelease",
                "a",
                "web",
                json!({}),
                &[
                    ("Ready", "True", "Succeeded"),
                    ("TestSuccess", "False", "TestFailed"),
                ],
            ),
        ]);
        let f = findings(&c);
        assert_eq!(f.len(), 2, "{f:?}");
        assert!(
            f.iter()
                .any(|f| f.evidence[0].starts_with("Stalled=True RetriesExceeded"))
        );
        assert!(
            f.iter()
                .any(|f| f.evidence[0].starts_with("TestSuccess=False TestFailed"))
        );
    }

    #[test]
    fn a_cycle_of_failures_is_still_said() {
        let c = cluster(vec![
            obj(
                "Kustomization",
                "a",
                "x",
                json!({"dependsOn": [{"name": "y"}]}),
                &[("Ready", "False", "BuildFailed")],
            ),
            obj(
                "Kustomization",
                "a",
                "y",
                json!({"dependsOn": [{"name": "x"}]}),
                &[("Ready", "False", "BuildFailed")],
            ),
        ]);
        let f = findings(&c);
        let said: BTreeSet<ObjectKey> = f.iter().flat_map(|f| f.objects().to_vec()).collect();
        assert_eq!(said.len(), 2, "{f:?}");
    }
}
