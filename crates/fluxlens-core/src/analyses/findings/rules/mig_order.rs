//! MIG-GO-15 and MIG-GO-16 (rule catalog revision 4): what the reconcile-order model
//! ([`crate::analyses::order`]) says of a change or of the live cluster, and whether the root pulls
//! anonymously.

use super::rule;
use crate::analyses::findings::Finding;
use crate::analyses::findings::policy::{self, Class, Role, graded_as};
use crate::analyses::order::{self, Link, LinkKind, Order, Stuck};
use crate::model::{Cluster, ObjectKey};
use crate::wire::kind::Kind;
use std::collections::BTreeMap;

rule!(
    /// MIG-GO-15: an object that can never reconcile because what it waits for is created or
    /// delivered only through itself, or an applier of the delivery chain stuck behind one.
    BootstrapDeadlock, "MIG-GO-15", "bootstrap deadlock", live_deadlocks
);
rule!(
    /// MIG-GO-16: the root OCI source pulls with no credentials at all.
    RootPullsAnonymously, "MIG-GO-16", "root pulls anonymously", live_anonymous_root
);
rule!(
    /// MIG-GO-17: a change that converges only in one order of two reconciles (revision 5).
    OrderDependent, "MIG-GO-17", "order-dependent change", live_races
);

/// A race is a property of a change landing (a parent and a child both about to act on a new
/// revision): the API shows no pending spec to judge, so the live cluster never has one. The
/// pre-merge check judges it ([`races`]).
fn live_races(_: &str, _: &Cluster, _: &mut Vec<Finding>) {}

fn live_deadlocks(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    out.extend(deadlocks(id, &order::live(c), c));
}

/// The objects whose breaking stops delivery of the whole cluster: the root pair, the
/// FluxInstance and the appliers it is delivered through, top-most first.
fn delivery_set(c: &Cluster) -> Vec<ObjectKey> {
    let mut out: Vec<ObjectKey> = c.root_kustomization().into_iter().collect();
    let mut chain = policy::delivery_chain(c);
    chain.reverse();
    out.extend(chain);
    out.extend(c.instance().map(|i| i.key.clone()));
    out.extend(c.root_source());
    out
}

/// What holds a group of stuck objects: a cycle (its objects, sorted) or the one object the
/// chains end on.
fn cause(s: &Stuck) -> Vec<ObjectKey> {
    let last = s.chain.last().map(|l| l.object.clone());
    if !s.cycle {
        return last.into_iter().collect();
    }
    let objects: Vec<&ObjectKey> = std::iter::once(&s.object)
        .chain(s.chain.iter().map(|l| &l.object))
        .collect();
    let back = last
        .as_ref()
        .and_then(|k| objects.iter().position(|o| *o == k));
    let mut cycle: Vec<ObjectKey> = objects[back.unwrap_or(0)..objects.len() - 1]
        .iter()
        .map(|k| (*k).clone())
        .collect();
    crate::util::sort::natural(&mut cycle);
    cycle
}

/// MIG-GO-15 findings of a judged order: one per cause (a cycle, or what the chains end on)
/// that is a deadlock or holds an applier of the delivery chain behind a wait of its own.
pub fn deadlocks(id: &str, order: &Order, c: &Cluster) -> Vec<Finding> {
    let delivery = delivery_set(c);
    let mut groups: BTreeMap<Vec<ObjectKey>, Vec<&Stuck>> = BTreeMap::new();
    for s in &order.stuck {
        groups.entry(cause(s)).or_default().push(s);
    }
    let rank = |k: &ObjectKey| delivery.iter().position(|d| d == k);
    let mut out = Vec::new();
    for (cause, held) in groups {
        let cycle = held.iter().any(|s| s.cycle);
        let on_chain = |s: &&Stuck| rank(&s.object).is_some() && s.chain.len() >= 2;
        let waiting = |s: &&Stuck| {
            matches!(
                s.chain.first().map(|l| l.kind),
                Some(LinkKind::Source | LinkKind::DependsOn)
            )
        };
        let subject = if cycle {
            held.iter()
                .filter(|s| cause.contains(&s.object) && waiting(s))
                .min_by_key(|s| rank(&s.object).unwrap_or(usize::MAX))
                .or_else(|| held.iter().find(|s| cause.contains(&s.object)))
        } else {
            held.iter()
                .filter(|s| on_chain(s))
                .min_by_key(|s| rank(&s.object))
        };
        let Some(subject) = subject else { continue };
        let touches = held.iter().any(|s| {
            rank(&s.object).is_some() || s.chain.iter().any(|l| rank(&l.object).is_some())
        });
        out.push(finding(id, order, subject, &held, touches));
    }
    out
}

fn finding(id: &str, order: &Order, subject: &Stuck, held: &[&Stuck], touches: bool) -> Finding {
    let role = if touches {
        Role::DeliveryChain
    } else {
        Role::Ordinary
    };
    let mut message = order::describe(&subject.object, &subject.chain);
    let others: Vec<String> = held
        .iter()
        .filter(|s| s.object != subject.object)
        .map(|s| s.object.to_string())
        .collect();
    if !others.is_empty() {
        let n = others.len();
        let objects = if n == 1 { "object" } else { "objects" };
        message.push_str(&format!("; {n} more {objects} held behind it"));
    }
    message.push_str(if touches {
        ". Delivery of the cluster freezes: the change that would release it has to come through the objects that wait."
    } else {
        ". These objects never reconcile."
    });
    let mut evidence: Vec<String> = subject.chain.iter().map(link_line).collect();
    evidence.push(match order.mode {
        order::Mode::Change => "judged by stepping the change from the base: the root applies the repository, each applier then applies its objects' new specs before they reconcile (no race is counted on)".into(),
        order::Mode::Live => "judged on the live cluster: what is Ready stays Ready, what is not steps forward".into(),
    });
    evidence.extend(others.iter().take(40).map(|k| format!("also held: {k}")));
    let mut members: Vec<ObjectKey> = vec![subject.object.clone()];
    members.extend(
        held.iter()
            .filter(|s| s.object != subject.object)
            .map(|s| s.object.clone()),
    );
    let mut f = graded_as(
        role,
        id,
        Class::Broken,
        subject.object.clone(),
        message,
        evidence,
        remediation(subject, touches),
    );
    if members.len() > 1 {
        f.members = members;
    }
    f
}

/// MIG-GO-17 (revision 5): a change that converges only if a child applies the new revision at
/// its live spec before its parent applies the child's new spec. Medium; high when nothing
/// delays the parent (the freezing order is the likely one); `dependsOn` is the fix.
pub fn races(id: &str, order: &Order) -> Vec<Finding> {
    order
        .races
        .iter()
        .map(|r| {
            let class = if r.parent_delayed {
                Class::Degraded
            } else {
                Class::Predicted
            };
            let mut evidence = vec![
                format!(
                    "the order that freezes: {} reconciles on the new revision first and applies the new spec of {}",
                    r.parent, r.child
                ),
                format!(
                    "the order that converges: {} first applies the new revision at its live spec",
                    r.child
                ),
            ];
            evidence.extend(r.chain.iter().map(link_line));
            if !r.parent_delayed {
                evidence.push(format!("nothing delays {}: it acts as soon as the revision lands", r.parent));
            }
            policy::fixed(
                id,
                class,
                r.child.clone(),
                format!(
                    "{} must apply the new revision before {} applies its new spec: in the other order {} never {} and delivery freezes",
                    r.child,
                    r.parent,
                    crate::util::words::plural(r.frozen.len(), "object"),
                    crate::util::words::agree(r.frozen.len(), "reconciles", "reconcile"),
                ),
                evidence,
                format!(
                    "Make the order certain: stage the change (apply what {} delivers first, flip its source in a later change), or give {} a dependsOn on what must be Ready first.",
                    r.child, r.parent
                ),
            )
        })
        .collect()
}

fn link_line(l: &Link) -> String {
    let what = match l.kind {
        LinkKind::Source => "waits for its source",
        LinkKind::DependsOn => "waits for (dependsOn)",
        LinkKind::CreatedBy => "is created by",
        LinkKind::DeliveredBy => "gets its new spec from",
        LinkKind::Missing => "waits for, and nothing creates,",
        LinkKind::NoApplier => "has no known applier:",
    };
    format!("{what} {}", l.object)
}

/// The safe order for what the chain holds (`touches`: the chain holds the delivery chain).
fn remediation(s: &Stuck, touches: bool) -> String {
    let created_source = s.chain.windows(2).find_map(|w| {
        (w[1].kind == LinkKind::CreatedBy && w[1].object.kind == Kind::FluxInstance)
            .then(|| w[0].object.clone())
    });
    if let Some(src) = created_source {
        return format!(
            "Land it in steps, each merged and Ready before the next: (1) publish and sign the artifact \
             (`flux push artifact` with `--revision <branch>@sha1:<sha>`, then `flux tag artifact … --tag latest`); \
             (2) switch FluxInstance.spec.sync to it on its own, or first deliver {src} from Git with \
             `kustomize.toolkit.fluxcd.io/prune: disabled`; (3) only then flip the consumers ({}) to {src}.",
            s.object
        );
    }
    // #68: a plain dependsOn cycle got "Make X exist … an applier the FluxInstance is delivered
    // through must never wait", about an object that exists and no FluxInstance involved.
    if s.cycle {
        let ring: Vec<String> = std::iter::once(s.object.to_string())
            .chain(s.chain.iter().map(|l| l.object.to_string()))
            .collect();
        return format!(
            "Break the cycle: {} wait for each other, so none ever reconciles. Remove one of these \
             dependsOn entries (the one that does not express a real order), then reconcile.",
            ring.join(" → ")
        );
    }
    let dep = s.chain.iter().find(|l| l.kind == LinkKind::DependsOn);
    let last = s.chain.last();
    if let (Some(dep), Some(last)) = (dep, last.filter(|l| l.kind == LinkKind::Missing)) {
        let chain = if touches {
            ": an applier the FluxInstance is delivered through must never wait for an object \
             that cannot become Ready, or no fix can reach the cluster through Git"
        } else {
            ""
        };
        return format!(
            "Make {} exist (or point what waits for it back at a source that exists), or drop {}'s \
             dependsOn on {}{chain}.",
            last.object, s.object, dep.object
        );
    }
    "Split the change so that every object's source and dependencies exist and are Ready before \
     the object changes: the chain above is the order to respect."
        .into()
}

fn live_anonymous_root(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    out.extend(anonymous_root(id, c, false));
}

/// MIG-GO-16: the root is (or a change makes it) an OCIRepository with no `secretRef`, no
/// provider but `generic`, no `serviceAccountName`, and an empty `sync.pullSecret`: it
/// reconciles only if the artifact is public. `before_merge`: a precondition to confirm.
pub fn anonymous_root(id: &str, c: &Cluster, before_merge: bool) -> Option<Finding> {
    let root = c.root_source().filter(|k| k.kind == Kind::OciRepository)?;
    let o = c.get(&root)?;
    let spec = &o.raw.spec;
    let pull_secret = c
        .instance()
        .and_then(|i| i.sync())
        .and_then(|s| s.pull_secret.clone())
        .filter(|s| !s.is_empty());
    let provider = spec.provider.as_deref().filter(|p| *p != "generic");
    if spec.secret_ref.is_some()
        || provider.is_some()
        || spec.service_account_name.is_some()
        || pull_secret.is_some()
    {
        return None;
    }
    let url = spec.url.clone().unwrap_or_default();
    let tag = match &spec.ref_ {
        Some(crate::wire::object::RefField::Structured(r)) => {
            r.tag.clone().or(r.digest.clone()).or(r.semver.clone())
        }
        Some(crate::wire::object::RefField::Plain(s)) => Some(s.clone()),
        None => None,
    }
    .unwrap_or_else(|| "latest".into());
    let ready = o.condition("Ready").map(|r| r.status.as_str());
    let evidence = vec![
        format!("{root}: no secretRef, no provider (or generic), no serviceAccountName"),
        "FluxInstance.spec.sync.pullSecret is empty".to_string(),
        format!("artifact: {url}:{tag}"),
    ];
    let fix = "Set FluxInstance.spec.sync.pullSecret (a docker-registry Secret) or sync.provider for \
               workload identity; or confirm the package is public on purpose and verified.";
    let (class, message) = match ready {
        _ if before_merge => (
            Class::PostureGap,
            format!(
                "Before the merge, confirm {url}:{tag} is public: the root will pull it anonymously (no pullSecret, no provider), and a private package fails every fetch"
            ),
        ),
        Some("True") => (
            Class::Context,
            format!(
                "The root pulls {url} anonymously: it reconciles because the artifact is public"
            ),
        ),
        Some(_) => return None,
        None => (
            Class::PostureGap,
            format!(
                "Confirm {url}:{tag} is public: the root pulls it anonymously (no pullSecret, no provider)"
            ),
        ),
    };
    Some(graded_as(
        Role::Root,
        id,
        class,
        root,
        message,
        evidence,
        fix.into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{cluster, run};
    use crate::analyses::finding::Severity;

    const READY: &str = r#"[{"type":"Ready","status":"True","reason":"Succeeded"}]"#;

    fn ks(name: &str, source: &str, extra: &str, status: &str) -> String {
        format!(
            r#"{{"kind":"Kustomization","metadata":{{"name":"{name}","namespace":"flux-system"}},"spec":{{"sourceRef":{{"kind":"{source}","name":"flux-system"}}{extra}}},"status":{status}}}"#
        )
    }

    /// A live cluster where `cluster-apps` (it applies the HelmRelease that delivers the
    /// FluxInstance) depends on `cluster-vap`, flipped to an OCI root that does not exist.
    fn held() -> Vec<String> {
        let inv = |id: &str| format!(r#""inventory":{{"entries":[{{"id":"{id}","v":"v1"}}]}}"#);
        vec![
            format!(
                r#"{{"kind":"FluxInstance","metadata":{{"name":"flux","namespace":"flux-system"}},"spec":{{"sync":{{"kind":"GitRepository","url":"https://github.com/o/r","ref":"refs/heads/main"}}}},"status":{{"conditions":{READY}}}}}"#
            ),
            format!(
                r#"{{"kind":"GitRepository","metadata":{{"name":"flux-system","namespace":"flux-system"}},"spec":{{"url":"https://github.com/o/r"}},"status":{{"conditions":{READY}}}}}"#
            ),
            ks(
                "flux-system",
                "GitRepository",
                "",
                &format!(r#"{{"conditions":{READY}}}"#),
            ),
            ks(
                "cluster-vap",
                "OCIRepository",
                "",
                r#"{"conditions":[{"type":"Ready","status":"False","reason":"ArtifactFailed","message":"ocirepositories.source.toolkit.fluxcd.io \"flux-system\" not found"}]}"#,
            ),
            ks(
                "cluster-apps",
                "GitRepository",
                r#","dependsOn":[{"name":"cluster-vap"}]"#,
                &format!(
                    r#"{{"conditions":[{{"type":"Ready","status":"False","reason":"DependencyNotReady","message":"dependency 'flux-system/cluster-vap' is not ready"}}],{}}}"#,
                    inv("flux-system_flux-instance_helm.toolkit.fluxcd.io_HelmRelease")
                ),
            ),
            format!(
                r#"{{"kind":"HelmRelease","metadata":{{"name":"flux-instance","namespace":"flux-system"}},"spec":{{}},"status":{{"conditions":{READY},{}}}}}"#,
                inv("flux-system_flux_fluxcd.controlplane.io_FluxInstance")
            ),
        ]
    }

    #[test]
    fn mig_go_15_names_the_delivery_chain_held_behind_a_dependency() {
        let objs = held();
        let c = cluster(&objs.iter().map(String::as_str).collect::<Vec<_>>());
        let f = run(&c, "MIG-GO-15");
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].severity, Severity::Critical);
        assert_eq!(f[0].subject.name, "cluster-apps");
        assert!(f[0].message.contains("waits for Kustomization/flux-system/cluster-vap (dependsOn), which waits for OCIRepository/flux-system/flux-system, which nothing creates"), "{}", f[0].message);
        assert!(
            f[0].remediation
                .contains("dependsOn on Kustomization/flux-system/cluster-vap")
        );
        // The dangling source itself stays MIG-GO-02's; MIG-GO-15 says what it freezes.
        assert!(!run(&c, "MIG-GO-02").is_empty());
    }

    #[test]
    fn mig_go_15_is_quiet_when_the_held_object_is_not_on_the_chain() {
        let mut objs = held();
        // cluster-apps no longer applies the HelmRelease: an ordinary dependency, MIG-GO-02's.
        objs[4] = ks(
            "cluster-apps",
            "GitRepository",
            r#","dependsOn":[{"name":"cluster-vap"}]"#,
            r#"{"conditions":[{"type":"Ready","status":"False"}]}"#,
        );
        objs.pop();
        let c = cluster(&objs.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(run(&c, "MIG-GO-15").is_empty());
    }

    fn oci_root(spec: &str, status: &str) -> Vec<String> {
        vec![
            ks(
                "flux-system",
                "OCIRepository",
                "",
                &format!(r#"{{"conditions":{READY}}}"#),
            ),
            format!(
                r#"{{"kind":"OCIRepository","metadata":{{"name":"flux-system","namespace":"flux-system"}},"spec":{{"url":"oci://ghcr.io/o/cluster","ref":{{"tag":"latest"}}{spec}}},"status":{status}}}"#
            ),
        ]
    }

    #[test]
    fn mig_go_16_root_pulls_anonymously() {
        let run_on = |objs: Vec<String>| {
            let c = cluster(&objs.iter().map(String::as_str).collect::<Vec<_>>());
            run(&c, "MIG-GO-16")
        };
        // Live and Ready: the artifact is public; context.
        let f = run_on(oci_root("", &format!(r#"{{"conditions":{READY}}}"#)));
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Info);
        // No status (a render): a precondition to confirm, with the artifact.
        let f = run_on(oci_root("", "{}"));
        assert_eq!(f[0].severity, Severity::Medium);
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e == "artifact: oci://ghcr.io/o/cluster:latest")
        );
        // Credentials of any kind: quiet.
        assert!(run_on(oci_root(r#","secretRef":{"name":"ghcr"}"#, "{}")).is_empty());
        assert!(run_on(oci_root(r#","provider":"aws""#, "{}")).is_empty());
        // A failing fetch is MIG-GO-10/14's, not this rule's.
        let failing = r#"{"conditions":[{"type":"Ready","status":"False","reason":"AuthenticationFailed","message":"401 Unauthorized"}]}"#;
        assert!(run_on(oci_root("", failing)).is_empty());
    }
}
