//! The order model on fixtures built from the rule catalog's revision 4 and the flatops #2161
//! review: a FluxInstance delivered by a HelmRelease inside `cluster-apps`, consumers flipped
//! to the OCI root in the same change as the sync switch.

use super::*;
use crate::model::CrdAccess;
use crate::wire::FluxReport;
use serde_json::{Value, json};

const NS: &str = "flux-system";

fn cluster(objects: &[Value]) -> Cluster {
    let report: FluxReport = serde_json::from_value(json!({
        "metadata": {"namespace": NS},
        "spec": {"namespaces": [NS, "apps"], "sync": {"id": "kustomization/flux-system"}}
    }))
    .unwrap();
    Cluster::new(
        report,
        objects
            .iter()
            .map(|v| serde_json::from_value(v.clone()).unwrap()),
        CrdAccess::Unknown,
    )
    .with_server_answers()
}

/// An object applied by `owner` ("Kind/name" in NS) as a render shows it: the applier's labels.
fn obj(kind: &str, ns: &str, name: &str, spec: Value, owner: Option<&str>) -> Value {
    let mut labels = serde_json::Map::new();
    match owner.and_then(|o| o.split_once('/')) {
        Some(("Kustomization", n)) => {
            labels.insert("kustomize.toolkit.fluxcd.io/name".into(), json!(n));
            labels.insert("kustomize.toolkit.fluxcd.io/namespace".into(), json!(NS));
        }
        Some(("HelmRelease", n)) => {
            labels.insert("helm.toolkit.fluxcd.io/name".into(), json!(n));
            labels.insert("helm.toolkit.fluxcd.io/namespace".into(), json!(NS));
        }
        Some(("FluxInstance", _)) => {
            labels.insert(
                "app.kubernetes.io/managed-by".into(),
                json!("flux-operator"),
            );
        }
        _ => {}
    }
    json!({"kind": kind, "metadata": {"name": name, "namespace": ns, "labels": labels}, "spec": spec})
}

fn ks(name: &str, source: (&str, &str), owner: &str) -> Value {
    obj(
        "Kustomization",
        NS,
        name,
        json!({"path": format!("./{name}"), "sourceRef": {"kind": source.0, "name": source.1}}),
        Some(owner),
    )
}

const GIT: (&str, &str) = ("GitRepository", "flux-system");
const OCI: (&str, &str) = ("OCIRepository", "flux-system");

/// The cluster of the review: the root pair the FluxInstance generates, `cluster-apps` and
/// `cluster-vap` applied by the root, `flux-instance` (a child of cluster-apps) applying the
/// HelmRelease that templates the FluxInstance, and application Kustomizations.
fn flatops(sync: (&str, &str), consumers: (&str, &str), parallel_oci: bool) -> Vec<Value> {
    let url = if sync.0 == "OCIRepository" {
        "oci://ghcr.io/example/cluster"
    } else {
        "https://github.com/example/cluster"
    };
    let mut out = vec![
        obj(
            "FluxInstance",
            NS,
            "flux",
            json!({"sync": {"kind": sync.0, "url": url, "ref": "latest", "path": "kubernetes/main"}}),
            Some("HelmRelease/flux-instance"),
        ),
        obj(
            sync.0,
            NS,
            sync.1,
            json!({"url": url}),
            Some("FluxInstance/flux"),
        ),
        ks("flux-system", sync, "FluxInstance/flux"),
        ks("cluster-apps", consumers, "Kustomization/flux-system"),
        ks("cluster-vap", consumers, "Kustomization/flux-system"),
        ks("flux-instance", consumers, "Kustomization/cluster-apps"),
        obj(
            "HelmRelease",
            NS,
            "flux-instance",
            json!({"chartRef": {"kind": "OCIRepository", "name": "flux-instance"}}),
            Some("Kustomization/flux-instance"),
        ),
        obj(
            "OCIRepository",
            NS,
            "flux-instance",
            json!({"url": "oci://ghcr.io/controlplaneio-fluxcd/charts/flux-instance"}),
            Some("Kustomization/flux-instance"),
        ),
    ];
    for app in [
        "cert-manager",
        "cilium",
        "rook-ceph",
        "monitoring",
        "media",
        "home",
    ] {
        out.push(ks(app, consumers, "Kustomization/cluster-apps"));
    }
    if parallel_oci && sync.0 != "OCIRepository" {
        let mut oci = obj(
            "OCIRepository",
            NS,
            "flux-system",
            json!({"url": "oci://ghcr.io/example/cluster", "ref": {"tag": "latest"}}),
            Some("Kustomization/flux-system"),
        );
        oci["metadata"]["annotations"] = json!({"kustomize.toolkit.fluxcd.io/prune": "disabled"});
        out.push(oci);
    }
    out
}

fn change(base: &[Value], head: &[Value], changed: &[&str]) -> Order {
    let (b, a) = (cluster(base), cluster(head));
    let mut set: BTreeSet<ObjectKey> = changed
        .iter()
        .map(|k| ObjectKey::parse(k).unwrap())
        .collect();
    for o in a.objects() {
        if b.get(&o.key).is_none_or(|x| x.raw != o.raw) {
            set.insert(o.key.clone());
        }
    }
    judge(&Input {
        mode: Mode::Change,
        before: &b,
        after: &a,
        changed: Some(&set),
        values: None,
    })
}

fn key(s: &str) -> ObjectKey {
    ObjectKey::parse(s).unwrap()
}

/// Revision 5 corrects revision 4 on flatops #2161 as first written: objects act at their live
/// spec. The child `flux-instance`, still on Git at its live spec, applies the new revision's
/// HelmRelease (the new FluxInstance values) while `cluster-apps`, whose new spec the root
/// applied first, waits for the OCI source; the FluxInstance then creates it and the change
/// converges. No order of reconciles freezes it: `cluster-apps` cannot pre-empt the child once
/// the root has applied its own new spec.
#[test]
fn the_pull_request_as_first_written_converges_through_its_live_child() {
    let base = flatops(GIT, GIT, false);
    let head = flatops(OCI, OCI, false);
    let o = change(&base, &head, &["HelmRelease/flux-system/flux-instance"]);
    assert!(o.safe(), "{:#?}", o.stuck);
    assert!(o.races.is_empty(), "{:#?}", o.races);
    let wave = |k: &str| o.waves.iter().rposition(|w| w.contains(&key(k))).unwrap();
    assert!(wave("HelmRelease/flux-system/flux-instance") < wave("FluxInstance/flux-system/flux"));
    assert!(wave("FluxInstance/flux-system/flux") < wave("Kustomization/flux-system/cluster-apps"));
    // The root ran at its current spec first.
    assert!(o.waves[0].contains(&key("Kustomization/flux-system/flux-system")));
}

/// MIG-GO-17: a parent whose spec the change leaves alone reconciles on the new revision at
/// once and applies its child's new spec (flipped to the OCI source), while the child at its
/// live spec would apply the new FluxInstance values that create that source: which runs first
/// decides. Both named, and the order that freezes.
#[test]
fn a_child_racing_its_unchanged_parent_is_order_dependent() {
    let base = flatops(GIT, GIT, false);
    let mut head = flatops(OCI, GIT, false);
    // Only the child flips with the switch; cluster-apps and the rest stay on Git.
    for o in head.iter_mut() {
        if o["metadata"]["name"] == "flux-instance" && o["kind"] == "Kustomization" {
            o["spec"]["sourceRef"] = json!({"kind": "OCIRepository", "name": "flux-system"});
        }
    }
    let o = change(&base, &head, &["HelmRelease/flux-system/flux-instance"]);
    assert!(
        o.safe(),
        "the child's live run first converges: {:#?}",
        o.stuck
    );
    assert_eq!(o.races.len(), 1, "{:#?}", o.races);
    let r = &o.races[0];
    assert_eq!(r.child, key("Kustomization/flux-system/flux-instance"));
    assert_eq!(r.parent, key("Kustomization/flux-system/cluster-apps"));
    assert!(!r.parent_delayed);
    assert!(
        r.frozen
            .contains(&key("Kustomization/flux-system/flux-instance"))
    );
    // Said as MIG-GO-17: high, nothing delays the parent; both named and the freezing order.
    let f = crate::analyses::findings::rules::mig_order::races("MIG-GO-17", &o);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, crate::analyses::finding::Severity::High);
    assert_eq!(f[0].subject, key("Kustomization/flux-system/flux-instance"));
    assert!(
        f[0].message
            .contains("before Kustomization/flux-system/cluster-apps applies its new spec"),
        "{}",
        f[0].message
    );
    assert!(crate::analyses::findings::reference::documents(&f[0]));
}

#[test]
fn the_same_migration_in_three_steps_is_safe_at_each_step() {
    let m0 = flatops(GIT, GIT, false);
    let m2 = flatops(GIT, GIT, true);
    let m3 = flatops(GIT, OCI, true);
    let m4 = flatops(OCI, OCI, true);
    let step = |a: &[Value], b: &[Value], extra: &[&str]| change(a, b, extra);
    let one = step(&m0, &m2, &[]);
    assert!(one.safe(), "{:?}", one.stuck);
    let two = step(&m2, &m3, &[]);
    assert!(two.safe(), "{:?}", two.stuck);
    let three = step(&m3, &m4, &["HelmRelease/flux-system/flux-instance"]);
    assert!(three.safe(), "{:?}", three.stuck);
    // The handover lands through the chain: the HelmRelease before the FluxInstance, the
    // FluxInstance before the root Kustomization's new spec.
    let wave = |k: &str| {
        three
            .waves
            .iter()
            .position(|w| w.contains(&key(k)))
            .unwrap()
    };
    assert!(wave("HelmRelease/flux-system/flux-instance") < wave("FluxInstance/flux-system/flux"));
    assert!(wave("FluxInstance/flux-system/flux") < wave("OCIRepository/flux-system/flux-system"));
}

#[test]
fn a_sync_switch_alone_is_safe_when_the_consumers_stay() {
    let o = change(
        &flatops(GIT, GIT, false),
        &{
            let mut head = flatops(OCI, GIT, false);
            // The Git source stays, delivered from Git now, so the consumers keep it.
            head.push(obj(
                "GitRepository",
                NS,
                "flux-system",
                json!({"url": "https://github.com/example/cluster"}),
                Some("Kustomization/flux-system"),
            ));
            head
        },
        &["HelmRelease/flux-system/flux-instance"],
    );
    assert!(o.safe(), "{:?}", o.stuck);
}

#[test]
fn a_flip_of_a_child_not_on_the_chain_is_not_a_cycle() {
    // Only an application flips to a source nobody creates: stuck, but held by what is
    // missing, not by itself.
    let base = flatops(GIT, GIT, false);
    let mut head = base.clone();
    let i = head
        .iter()
        .position(|v| v["metadata"]["name"] == "media")
        .unwrap();
    head[i] = ks(
        "media",
        ("OCIRepository", "media"),
        "Kustomization/cluster-apps",
    );
    let o = change(&base, &head, &[]);
    let media = o.stuck.iter().find(|s| s.object.name == "media").unwrap();
    assert!(!media.cycle);
    assert_eq!(media.chain.last().unwrap().kind, LinkKind::Missing);
    assert_eq!(o.stuck.len(), 1, "{:?}", o.stuck);
}

/// The live report: `cluster-vap` flipped to a root source that does not exist, and
/// `cluster-apps` (which delivers the FluxInstance) depends on it.
fn live_dependency_deadlock() -> Cluster {
    let ready = json!([{"type": "Ready", "status": "True", "reason": "ReconciliationSucceeded", "observedGeneration": 1}]);
    let inv = |ids: &[&str]| json!({"entries": ids.iter().map(|i| json!({"id": i, "v": "v1"})).collect::<Vec<_>>()});
    let with = |mut v: Value, status: Value| {
        v["status"] = status;
        v
    };
    let mut objects = vec![
        with(
            obj(
                "FluxInstance",
                NS,
                "flux",
                json!({"sync": {"kind": "GitRepository", "url": "https://github.com/example/cluster", "ref": "refs/heads/main", "path": "kubernetes/main"}}),
                None,
            ),
            json!({"conditions": ready, "observedGeneration": 1, "inventory": inv(&["flux-system_flux-system_source.toolkit.fluxcd.io_GitRepository", "flux-system_flux-system_kustomize.toolkit.fluxcd.io_Kustomization"])}),
        ),
        with(
            obj(
                "GitRepository",
                NS,
                "flux-system",
                json!({"url": "https://github.com/example/cluster"}),
                None,
            ),
            json!({"conditions": ready, "observedGeneration": 1, "artifact": {"revision": "refs/heads/main@sha1:4c1d9e0b7a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d"}}),
        ),
        with(
            ks("flux-system", GIT, ""),
            json!({"conditions": ready, "observedGeneration": 1,
            "inventory": inv(&["flux-system_cluster-apps_kustomize.toolkit.fluxcd.io_Kustomization", "flux-system_cluster-vap_kustomize.toolkit.fluxcd.io_Kustomization"])}),
        ),
        with(
            ks("cluster-vap", OCI, ""),
            json!({"observedGeneration": 2, "conditions": [{"type": "Ready", "status": "False", "reason": "ArtifactFailed",
            "message": "ocirepositories.source.toolkit.fluxcd.io \"flux-system\" not found", "observedGeneration": 2}]}),
        ),
        with(
            ks("flux-instance", GIT, ""),
            json!({"conditions": ready, "observedGeneration": 1,
            "inventory": inv(&["flux-system_flux-instance_helm.toolkit.fluxcd.io_HelmRelease"])}),
        ),
        with(
            obj(
                "HelmRelease",
                NS,
                "flux-instance",
                json!({"chart": {"spec": {"chart": "flux-instance", "sourceRef": {"kind": "HelmRepository", "name": "controlplane"}}}}),
                None,
            ),
            json!({"conditions": ready, "observedGeneration": 1, "inventory": inv(&["flux-system_flux_fluxcd.controlplane.io_FluxInstance"])}),
        ),
        with(
            obj(
                "HelmRepository",
                NS,
                "controlplane",
                json!({"url": "oci://ghcr.io/controlplaneio-fluxcd/charts", "type": "oci"}),
                None,
            ),
            json!({"conditions": ready, "observedGeneration": 1}),
        ),
    ];
    let mut apps = ks("cluster-apps", GIT, "");
    apps["spec"]["dependsOn"] = json!([{"name": "cluster-vap"}]);
    objects.push(with(apps, json!({"observedGeneration": 3, "conditions": [{"type": "Ready", "status": "False", "reason": "DependencyNotReady",
        "message": "dependency 'flux-system/cluster-vap' is not ready", "observedGeneration": 3}],
        "inventory": inv(&["flux-system_flux-instance_kustomize.toolkit.fluxcd.io_Kustomization"])})));
    cluster(&objects)
}

#[test]
fn live_a_delivery_chain_kustomization_behind_a_missing_source() {
    let c = live_dependency_deadlock();
    let o = live(&c);
    let apps = o
        .stuck
        .iter()
        .find(|s| s.object.name == "cluster-apps")
        .expect("cluster-apps is held");
    assert_eq!(
        describe(&apps.object, &apps.chain),
        "Kustomization/flux-system/cluster-apps waits for Kustomization/flux-system/cluster-vap (dependsOn), \
         which waits for OCIRepository/flux-system/flux-system, which nothing creates"
    );
    let f = crate::analyses::findings::rules::mig_order::deadlocks("MIG-GO-15", &o, &c);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].subject, key("Kustomization/flux-system/cluster-apps"));
    assert_eq!(f[0].severity, crate::analyses::finding::Severity::Critical);
    assert!(
        f[0].members
            .contains(&key("Kustomization/flux-system/cluster-vap"))
    );
}

#[test]
fn live_a_healthy_cluster_has_nothing_stuck() {
    let mut c = live_dependency_deadlock();
    // cluster-vap back on the Git root: nothing waits on anything missing.
    let fixed: Vec<Value> = c
        .objects()
        .iter()
        .map(|o| {
            let mut v = serde_json::to_value(crate::wire::json::ToJson::to_json(&o.raw)).unwrap();
            if o.key.name == "cluster-vap" {
                v["spec"]["sourceRef"] = json!({"kind": "GitRepository", "name": "flux-system"});
            }
            v
        })
        .collect();
    c = cluster(&fixed);
    let o = live(&c);
    assert!(o.safe(), "{:?}", o.stuck);
    assert!(crate::analyses::findings::rules::mig_order::deadlocks("MIG-GO-15", &o, &c).is_empty());
}

/// A tiny deterministic generator (no dependency): the model must end on any input.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

fn random_cluster(rng: &mut Lcg, n: usize) -> Vec<Value> {
    let kinds = [
        "Kustomization",
        "HelmRelease",
        "OCIRepository",
        "GitRepository",
        "FluxInstance",
        "ResourceSet",
    ];
    let name = |i: usize| format!("o{i}");
    (0..n)
        .map(|i| {
            let kind = kinds[rng.next(kinds.len())];
            let mut spec = json!({});
            if rng.next(3) > 0 {
                let src = ["OCIRepository", "GitRepository", "ExternalArtifact"][rng.next(3)];
                spec["sourceRef"] = json!({"kind": src, "name": name(rng.next(n + 3))});
            }
            let deps: Vec<Value> = (0..rng.next(3)).map(|_| json!({"name": name(rng.next(n + 3))})).collect();
            spec["dependsOn"] = json!(deps);
            if kind == "FluxInstance" {
                spec["sync"] = json!({"kind": "OCIRepository", "url": "oci://x/y", "name": name(rng.next(n + 3))});
            }
            let owner = format!("Kustomization/{}", name(rng.next(n)));
            obj(kind, NS, &name(i), spec, (rng.next(4) > 0).then_some(owner.as_str()))
        })
        .collect()
}

#[test]
fn it_ends_on_any_input_cycles_included() {
    let mut rng = Lcg(7);
    for round in 0..300 {
        let n = 1 + rng.next(40);
        let base = random_cluster(&mut rng, n);
        let head = random_cluster(&mut rng, n);
        let o = change(&base, &head, &[]);
        let total: usize = o.waves.iter().map(Vec::len).sum();
        assert!(
            total <= 4 * n + 4,
            "round {round}: {total} reconciles for {n} objects"
        );
        for s in &o.stuck {
            assert!(!s.chain.is_empty(), "round {round}: {s:?}");
            assert!(s.chain.len() <= 2 * n + 8, "round {round}");
        }
        let l = live(&cluster(&head));
        assert!(l.waves.len() <= 2 * n + 8);
    }
}

#[test]
fn live_while_the_source_is_being_confirmed_nothing_says_delivery_is_safe() {
    // Regression (CI, stop 64): the first view, drawn while its confirming read was under way,
    // ticked "no dangling references" and "the flip does not freeze delivery" on M3 for the
    // cluster that read froze a moment later.
    let mut c = live_dependency_deadlock();
    c.confirmations.clear();
    c.notes.unconfirmed = c
        .candidate_missing()
        .into_iter()
        .map(|(k, _)| (k, crate::model::CONFIRMING.to_string()))
        .collect();
    let check = |a: &crate::analyses::analysis::Analysis, label: &str| {
        let m3 = a.migrations[0]
            .stages
            .iter()
            .find(|s| s.id == "M3")
            .unwrap();
        m3.checks
            .iter()
            .find(|c| c.label.starts_with(label))
            .map(|c| (c.outcome, c.detail.clone()))
            .unwrap()
    };
    let a = crate::analyses::analysis::Analysis::of(&c, None);
    assert!(a.findings.iter().all(|f| f.rule != "MIG-GO-15"));
    for label in [
        "no dangling references",
        "the flip does not freeze delivery",
    ] {
        let (outcome, detail) = check(&a, label);
        assert_eq!(
            outcome,
            crate::analyses::outcome::Outcome::Unknown,
            "{label}"
        );
        assert!(
            detail.starts_with("confirming 1 reference that looks missing with the server…"),
            "{detail}"
        );
    }
    // The server answers NotFound: the check fails, naming who never reconciles.
    let c = c.with_server_answers();
    let a = crate::analyses::analysis::Analysis::of(&c, None);
    let (outcome, detail) = check(&a, "the flip does not freeze delivery");
    assert_eq!(outcome, crate::analyses::outcome::Outcome::Fail);
    assert_eq!(
        detail,
        "2 objects never reconcile: this step is unsafe before OCIRepository/flux-system/flux-system exists"
    );
}
