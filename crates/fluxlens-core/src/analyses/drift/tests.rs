//! Drift on a small cluster: its render compiled to the live state has no drift, and each
//! class planted alone is found, graded and worded right.

use super::*;
use crate::analyses::finding::Severity;
use crate::model::CrdAccess;
use crate::wire::FluxReport;
use crate::wire::kind::Kind;
use serde_json::{Value, json};

const SHA: &str = "1111111111111111111111111111111111111111";
const OTHER: &str = "2222222222222222222222222222222222222222";

fn entry(kind: &str, ns: &str, name: &str) -> Value {
    json!({ "kind": kind, "namespace": ns, "name": name, "apiVersion": "v1" })
}

fn ready(extra: Value) -> Value {
    let mut s = json!({ "conditions": [{ "type": "Ready", "status": "True", "reason": "ReconciliationSucceeded" }] });
    s.as_object_mut()
        .unwrap()
        .extend(extra.as_object().cloned().unwrap_or_default());
    s
}

/// The live objects: a Git root applying `apps`, which applies a HelmRepository and a release.
fn live_objects() -> Vec<Value> {
    let revision = format!("main@sha1:{SHA}");
    vec![
        json!({"apiVersion":"source.toolkit.fluxcd.io/v1","kind":"GitRepository","metadata":{"name":"flux-system","namespace":"flux-system"},
            "spec":{"url":"https://github.com/acme/fleet","ref":{"branch":"main"},"interval":"1m"},
            "status": ready(json!({"artifact":{"revision": revision}}))}),
        json!({"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","metadata":{"name":"flux-system","namespace":"flux-system"},
            "spec":{"sourceRef":{"kind":"GitRepository","name":"flux-system"},"path":"./clusters/prod","prune":true,"interval":"10m"},
            "status": ready(json!({"lastAppliedRevision": revision, "inventory":[entry("Kustomization","flux-system","apps")]}))}),
        json!({"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","metadata":{"name":"apps","namespace":"flux-system"},
            "spec":{"sourceRef":{"kind":"GitRepository","name":"flux-system"},"path":"./apps","prune":true,"interval":"10m0s"},
            "status": ready(json!({"lastAppliedRevision": revision, "inventory":[entry("HelmRepository","apps","podinfo"), entry("HelmRelease","apps","podinfo")]}))}),
        json!({"apiVersion":"source.toolkit.fluxcd.io/v1","kind":"HelmRepository","metadata":{"name":"podinfo","namespace":"apps"},
            "spec":{"url":"https://stefanprodan.github.io/podinfo","interval":"1h"},"status": ready(json!({}))}),
        json!({"apiVersion":"helm.toolkit.fluxcd.io/v2","kind":"HelmRelease","metadata":{"name":"podinfo","namespace":"apps"},
            "spec":{"interval":"10m","chart":{"spec":{"chart":"podinfo","version":"6.5.0","sourceRef":{"kind":"HelmRepository","name":"podinfo"}}}},
            "status": ready(json!({}))}),
    ]
}

/// The render: the live objects as the repository writes them (no status; `apps` written
/// as `apps`, not `./apps`, its interval as `10m`).
fn render_objects() -> Vec<Value> {
    live_objects()
        .into_iter()
        .map(|mut v| {
            v.as_object_mut().unwrap().remove("status");
            if v["metadata"]["name"] == "apps" {
                v["spec"]["path"] = json!("apps");
                v["spec"]["interval"] = json!("10m");
            }
            v
        })
        .collect()
}

fn report() -> FluxReport {
    serde_json::from_value(json!({"metadata":{"namespace":"flux-system"},"spec":{"sync":{"id":"kustomization/flux-system"},"distribution":{"version":"v2.7.0"}}})).unwrap()
}

fn cluster(objects: Vec<Value>) -> Cluster {
    let objects = objects
        .into_iter()
        .map(|v| serde_json::from_value(v).unwrap());
    Cluster::new(report(), objects, CrdAccess::Unknown)
}

fn key(kind: Kind, ns: &str, name: &str) -> ObjectKey {
    ObjectKey::new(kind, ns, name)
}

struct Case {
    declared: Vec<Value>,
    live: Vec<Value>,
    asked: BTreeMap<ObjectKey, Answer>,
    rendered: Option<Commit>,
    behind: Option<Distance>,
}

impl Case {
    fn new() -> Case {
        Case {
            declared: render_objects(),
            live: live_objects(),
            asked: BTreeMap::new(),
            rendered: Commit::parse(&format!("main@sha1:{SHA}")),
            behind: None,
        }
    }

    fn live_edit(mut self, name: &str, kind: &str, edit: impl Fn(&mut Value)) -> Case {
        for v in &mut self.live {
            if v["metadata"]["name"] == name && v["kind"] == kind {
                edit(v);
            }
        }
        self
    }

    fn judge(&self) -> Drift {
        let (declared, live) = (cluster(self.declared.clone()), cluster(self.live.clone()));
        judge(&Input {
            declared: &declared,
            live: &live,
            asked: &self.asked,
            rendered: self.rendered.as_ref(),
            behind: self.behind,
        })
    }
}

fn only(d: &Drift, rule: &str) -> Finding {
    let of: Vec<&Finding> = d.findings.iter().filter(|f| f.rule == rule).collect();
    assert_eq!(of.len(), 1, "{rule}: {:#?}", d.findings);
    of[0].clone()
}

#[test]
fn a_cluster_compiled_from_its_render_has_no_drift() {
    let d = Case::new().judge();
    assert!(d.findings.is_empty(), "{:#?}", d.findings);
    assert_eq!((d.compared, d.in_sync), (5, 5));
    assert!(d.not_compared.is_empty(), "{:?}", d.not_compared);
}

#[test]
fn a_suspend_by_hand_stops_delivery_and_is_graded_by_role() {
    let d = Case::new()
        .live_edit("apps", "Kustomization", |v| {
            v["spec"]["suspend"] = json!(true)
        })
        .judge();
    let f = only(&d, "DRIFT-03");
    assert_eq!(f.subject, key(Kind::Kustomization, "flux-system", "apps"));
    assert_eq!(f.severity, Severity::High);
    assert!(
        f.message.contains("is suspended in the cluster"),
        "{}",
        f.message
    );
    assert!(
        f.remediation
            .contains("`flux resume ks apps -n flux-system`")
    );
    // The root's own suspension is critical: nothing of the repository is applied.
    let d = Case::new()
        .live_edit("flux-system", "Kustomization", |v| {
            v["spec"]["suspend"] = json!(true)
        })
        .judge();
    assert_eq!(only(&d, "DRIFT-03").severity, Severity::Critical);
}

#[test]
fn an_edited_field_names_both_values_and_what_did_not_put_it_back() {
    let d = Case::new()
        .live_edit("podinfo", "HelmRelease", |v| {
            v["spec"]["chart"]["spec"]["version"] = json!("6.4.0")
        })
        .judge();
    let f = only(&d, "DRIFT-03");
    assert_eq!(f.severity, Severity::High);
    assert!(
        f.evidence
            .contains(&"spec.chart.spec.version: render 6.5.0, live 6.4.0".to_string()),
        "{:?}",
        f.evidence
    );
    assert!(
        f.message.contains("Kustomization/flux-system/apps"),
        "{}",
        f.message
    );
    assert_eq!(d.in_sync, 4);
}

#[test]
fn an_applier_not_yet_at_the_rendered_revision_makes_a_difference_context() {
    let d = Case::new()
        .live_edit("podinfo", "HelmRelease", |v| {
            v["spec"]["chart"]["spec"]["version"] = json!("6.4.0")
        })
        .live_edit("apps", "Kustomization", |v| {
            v["status"]["lastAppliedRevision"] = json!(format!("main@sha1:{OTHER}"))
        })
        .judge();
    let f = only(&d, "DRIFT-03");
    assert_eq!(f.severity, Severity::Info);
    assert!(f.message.contains("not yet"), "{}", f.message);
}

#[test]
fn an_absence_is_drift_only_on_the_servers_not_found() {
    let mut case = Case::new();
    case.live.retain(|v| v["kind"] != "HelmRelease");
    let hr = key(Kind::HelmRelease, "apps", "podinfo");
    let d = case.judge();
    assert!(d.findings.is_empty(), "no answer, no finding");
    assert_eq!(d.not_compared[0].0, hr.to_string());
    case.asked.insert(hr.clone(), Answer::Forbidden);
    let d = case.judge();
    assert!(d.findings.is_empty());
    assert!(d.not_compared[0].1.starts_with("not visible"));
    case.asked.insert(hr.clone(), Answer::NotFound);
    let f = only(&case.judge(), "DRIFT-01");
    // No label names its applier: the root is assumed, and said.
    assert_eq!(f.severity, Severity::High);
    assert!(
        f.message.contains("yet the object is not there"),
        "{}",
        f.message
    );
    assert!(f.evidence.iter().any(|e| e.starts_with("applier assumed")));
}

#[test]
fn an_absence_under_a_suspended_applier_says_so_once_for_all_its_objects() {
    let mut case = Case::new().live_edit("apps", "Kustomization", |v| {
        v["spec"]["suspend"] = json!(true)
    });
    case.live.retain(|v| v["metadata"]["namespace"] != "apps");
    for v in &mut case.declared {
        if v["metadata"]["namespace"] == "apps" {
            v["metadata"]["labels"] = json!({
                "kustomize.toolkit.fluxcd.io/name": "apps",
                "kustomize.toolkit.fluxcd.io/namespace": "flux-system",
            });
        }
    }
    for (kind, name) in [
        (Kind::HelmRelease, "podinfo"),
        (Kind::HelmRepository, "podinfo"),
    ] {
        case.asked.insert(key(kind, "apps", name), Answer::NotFound);
    }
    let d = case.judge();
    let f = only(&d, "DRIFT-01");
    assert_eq!(f.members.len(), 2);
    assert!(
        f.message
            .starts_with("2 objects declared in the render are absent")
    );
    assert!(
        f.message
            .contains("its applier Kustomization/flux-system/apps is suspended"),
        "{}",
        f.message
    );
    assert_eq!(f.severity, Severity::High);
}

#[test]
fn orphans_are_graded_by_what_applies_them() {
    let mut case = Case::new();
    case.declared.retain(|v| v["kind"] != "HelmRepository");
    let orphan = |d: &Drift| only(d, "DRIFT-02");
    // Applied by `apps`, which prunes and applied this revision.
    let f = orphan(&case.judge());
    assert_eq!(f.severity, Severity::Medium);
    assert!(f.message.contains("does not declare it"), "{}", f.message);
    // A HelmChart helm-controller builds for a declared HelmRelease is in no render by design.
    let mut chart = Case::new().live_edit("podinfo", "HelmRelease", |v| {
        v["status"]["helmChart"] = json!("apps/apps-podinfo")
    });
    chart.live.push(json!({"kind":"HelmChart","metadata":{"name":"apps-podinfo","namespace":"apps"},"spec":{"chart":"podinfo"},"status":ready(json!({}))}));
    let d = chart.judge();
    assert!(d.findings.is_empty(), "{:#?}", d.findings);
    assert_eq!(
        d.not_compared,
        vec![(
            "generated objects".to_string(),
            "made by declared HelmReleases (1 object), so in no render by design".to_string()
        )]
    );
    // Made by hand: no inventory lists it.
    let mut hand = Case::new();
    hand.live.push(json!({"kind":"GitRepository","metadata":{"name":"debug","namespace":"apps"},"spec":{"url":"https://github.com/someone/else"},"status":ready(json!({}))}));
    let f = orphan(&hand.judge());
    assert_eq!(f.severity, Severity::Medium);
    assert!(f.message.contains("made by hand"), "{}", f.message);
    // A partial live view judges no orphan at all.
    let (declared, mut live) = (cluster(hand.declared.clone()), cluster(hand.live.clone()));
    live.notes.partial = Some("a List failed".into());
    let d = judge(&Input {
        declared: &declared,
        live: &live,
        asked: &BTreeMap::new(),
        rendered: None,
        behind: None,
    });
    assert!(d.findings.iter().all(|f| f.rule != "DRIFT-02"));
    assert!(d.not_compared.iter().any(|(k, _)| k == "orphans"));
}

#[test]
fn what_a_tenant_applies_from_its_own_repository_is_context() {
    let mut case = Case::new();
    case.live.push(json!({"kind":"GitRepository","metadata":{"name":"tenant","namespace":"apps"},"spec":{"url":"https://github.com/acme/tenant"},"status":ready(json!({"artifact":{"revision":"main@sha1:3333333"}}))}));
    case.live.push(json!({"kind":"Kustomization","metadata":{"name":"tenant","namespace":"apps"},"spec":{"sourceRef":{"kind":"GitRepository","name":"tenant"},"path":"./","prune":true},
        "status":ready(json!({"inventory":[entry("Kustomization","apps","tenant-apps")]}))}));
    case.live.push(json!({"kind":"Kustomization","metadata":{"name":"tenant-apps","namespace":"apps"},"spec":{"sourceRef":{"kind":"GitRepository","name":"tenant"},"path":"./apps","prune":true},"status":ready(json!({}))}));
    for v in case.live.clone() {
        if v["metadata"]["name"] == "tenant" {
            let mut d = v.clone();
            d.as_object_mut().unwrap().remove("status");
            case.declared.push(d);
        }
    }
    let f = only(&case.judge(), "DRIFT-02");
    assert_eq!(f.subject, key(Kind::Kustomization, "apps", "tenant-apps"));
    assert_eq!(f.severity, Severity::Info);
    assert!(
        f.message.contains("which this render does not hold"),
        "{}",
        f.message
    );
}

#[test]
fn a_verify_declared_and_absent_live_is_fail_open_and_critical_on_the_root() {
    let mut case = Case::new();
    for v in &mut case.declared {
        if v["kind"] == "GitRepository" {
            v["spec"]["verify"] = json!({"mode":"HEAD","secretRef":{"name":"pgp"}});
        }
    }
    let f = only(&case.judge(), "DRIFT-04");
    assert_eq!(f.severity, Severity::Critical);
    assert!(f.message.contains("verifies nothing live"), "{}", f.message);
    assert!(f.evidence[0].contains("key in Secret pgp"));
}

#[test]
fn the_roots_commit_is_compared_with_the_rendered_one() {
    let mut case = Case::new();
    case.rendered = Commit::parse(OTHER);
    let f = only(&case.judge(), "DRIFT-05");
    assert_eq!(f.severity, Severity::Medium);
    assert!(
        f.message.contains("how far apart is not known"),
        "{}",
        f.message
    );
    case.behind = Some(Distance::Behind(3));
    let f = only(&case.judge(), "DRIFT-05");
    assert!(f.message.contains("3 commits behind"), "{}", f.message);
    case.rendered = Commit::parse(&format!("release@sha1:{OTHER}"));
    let f = only(&case.judge(), "DRIFT-05");
    assert_eq!(f.severity, Severity::High);
    assert!(f.message.contains("follows main"), "{}", f.message);
    // Fetched and not applied: the root Kustomization is still at the old commit.
    let fetched = Case::new().live_edit("flux-system", "Kustomization", |v| {
        v["status"]["lastAppliedRevision"] = json!(format!("main@sha1:{OTHER}"))
    });
    let f = only(&fetched.judge(), "DRIFT-05");
    assert_eq!(
        f.subject,
        key(Kind::Kustomization, "flux-system", "flux-system")
    );
    assert!(f.message.contains("has not applied it"), "{}", f.message);
}
