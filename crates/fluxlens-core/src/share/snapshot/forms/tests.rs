//! The forms are the derive's: every carried type is written as serde's derive wrote it and
//! read back from it, so links made before open and older apps open the links made now.

use super::super::{PREFIX, SnapshotOptions, capture_with, decode, seal};
use super::*;
use crate::analyses::changes::digest::VisitDigest;
use crate::model::{Cluster, CrdAccess};
use crate::share::visits::Visits;
use crate::wire::FluxReport;
use crate::wire::events::Event;
use crate::wire::object::ApiObject;
use serde_json::json;

fn key(name: &str) -> ObjectKey {
    ObjectKey {
        kind: Kind::Kustomization,
        namespace: "flux-system".into(),
        name: name.into(),
    }
}

fn finding(rule: &str, members: Vec<ObjectKey>) -> Finding {
    Finding {
        rule: rule.into(),
        severity: Severity::Critical,
        subject: key("apps"),
        message: "the root source is not verified".into(),
        evidence: vec!["spec.verify: absent".into()],
        remediation: "flux get sources oci".into(),
        reason: "unverified".into(),
        members,
    }
}

/// A snapshot with every field set, every variant of every carried enum used.
fn full_snapshot() -> Snapshot {
    let objects: Vec<ApiObject> = crate::model::synthetic::objects(12)
        .into_iter()
        .map(|v| serde_json::from_value(v).unwrap())
        .collect();
    let report: FluxReport = serde_json::from_value(json!({"metadata":{"namespace":"flux-system"},"spec":{"distribution":{"version":"v2.8.3"}}})).unwrap();
    let mut cluster = Cluster::new(report, objects.clone(), CrdAccess::Forbidden);
    cluster.notes.captured_at_ms = Some(1_764_000_000_000);
    let judged = Judged {
        render: "/renders/prod.yaml".into(),
        revision: Some("main@sha1:0123456789ab".into()),
        drift: Drift {
            findings: vec![finding("DRIFT-04", vec![key("a"), key("b")])],
            compared: 12,
            in_sync: 11,
            not_compared: vec![("Kustomization/x/y".into(), "not visible".into())],
        },
        unconfirmed: 2,
    };
    let opts = SnapshotOptions {
        view: SnapshotView::Drift,
        drop_messages: false,
    };
    let mut s = capture_with(&cluster, opts, Some(&judged)).unwrap();
    s.redacted = 0;
    s.owners = vec![Some(3), None, Some(0)];
    s.crds = objects[..1].to_vec();
    s.crds_forbidden = true;
    s.incomplete_kinds = vec![("HelmRelease".into(), "forbidden".into())];
    s.partial = Some("the list was cut at 1000 rows".into());
    s.unreadable = vec![(key("u"), "answered 500".into())];
    s.confirmations = vec![
        (key("c1"), Answer::Found("read".into())),
        (key("c2"), Answer::NotFound),
        (key("c3"), Answer::Forbidden),
        (key("c4"), Answer::Error),
    ];
    s.unconfirmed = vec![(key("n"), "no answer".into())];
    s.instance_events = vec![serde_json::from_value::<Event>(json!({"lastTimestamp":null,"type":"Warning","message":"m","involvedObject":"FluxInstance/flux","namespace":"flux-system"})).unwrap()];
    s.verdicts = Some(CarriedVerdicts {
        per_object: vec![
            Carried::Same(0),
            Carried::Own(Box::new(finding("SIG-01", vec![]))),
        ],
        ent: vec![
            ("fips".into(), vec![Carried::Same(4)]),
            ("enterprise".into(), vec![]),
        ],
    });
    s
}

fn visits() -> Visits {
    let digest = VisitDigest {
        read_at_ms: 1_764_000_000_000,
        objects: vec![
            ObjectDigest {
                key: key("apps"),
                status: Status::Failed,
                revision: Some("main@sha1:abc".into()),
                verify: Some(true),
            },
            ObjectDigest {
                key: key("infra"),
                status: Status::NotVisible,
                revision: None,
                verify: None,
            },
        ],
        findings: vec![FindingDigest {
            rule: "OPS-01".into(),
            subject: key("apps"),
            severity: Severity::High,
            message: "failing now".into(),
        }],
        stages: vec![StageDigest {
            migration: "git-oci".into(),
            migration_title: "Git → signed OCI".into(),
            stage: "M2".into(),
            title: "Parallel OCI source".into(),
            state: "blocked".into(),
        }],
        incomplete_kinds: vec!["Bucket".into()],
        partial: true,
    };
    let mut v = Visits::default();
    v.record(digest, 1_764_000_000_000);
    v
}

#[test]
fn a_snapshot_is_written_as_the_derive_wrote_it_and_read_back_from_it() {
    let full = full_snapshot();
    let derived = serde_json::to_value(&full).unwrap();
    assert_eq!(full.to_json(), derived);
    assert_eq!(Snapshot::from_json(&derived), Some(full));
    // And with every optional field absent (`drift` left out, the rest null or empty).
    let mut bare = full_snapshot();
    let (view, report) = (bare.view, bare.report.clone());
    bare = Snapshot {
        view,
        captured_at_ms: None,
        report,
        objects: vec![],
        owners: vec![],
        crds: vec![],
        crds_forbidden: false,
        incomplete_kinds: vec![],
        partial: None,
        unreadable: vec![],
        confirmations: vec![],
        unconfirmed: vec![],
        instance_events: vec![],
        verdicts: None,
        drift: None,
        redacted: 0,
    };
    let derived = serde_json::to_value(&bare).unwrap();
    assert_eq!(bare.to_json(), derived);
    assert!(derived.get("drift").is_none());
    assert_eq!(Snapshot::from_json(&derived), Some(bare));
}

#[test]
fn the_kept_visits_are_written_as_the_derive_wrote_them_and_read_back() {
    let v = visits();
    let derived = serde_json::to_value(&v).unwrap();
    assert_eq!(v.to_json(), derived);
    assert_eq!(Visits::from_json(&derived), Some(v));
}

#[test]
fn every_variant_of_the_carried_enums_is_named_as_the_derive_named_it() {
    use Status::*;
    for s in [
        Ready,
        Failed,
        Progressing,
        Suspended,
        Unknown,
        Missing,
        NotVisible,
    ] {
        assert_eq!(s.to_json(), serde_json::to_value(s).unwrap());
        assert_eq!(Status::from_json(&s.to_json()), Some(s));
    }
    use Severity::*;
    for s in [Info, Low, Medium, High, Critical] {
        assert_eq!(s.to_json(), serde_json::to_value(s).unwrap());
        assert_eq!(Severity::from_json(&s.to_json()), Some(s));
    }
    use SnapshotView as V;
    for s in [
        V::Graph,
        V::Signatures,
        V::Migrations,
        V::Compliance,
        V::Overview,
        V::Drift,
    ] {
        assert_eq!(s.to_json(), serde_json::to_value(s).unwrap());
        assert_eq!(SnapshotView::from_json(&s.to_json()), Some(s));
    }
}

#[test]
fn a_link_written_by_the_derive_opens() {
    // What fluxlens wrote before the forms: the derive's JSON in the same envelope.
    let full = full_snapshot();
    let old = seal(PREFIX, &serde_json::to_vec(&full).unwrap());
    assert_eq!(decode(&old).unwrap(), full);
    // And what is written now reads with the derive (an older fluxlens opening a new link).
    let now = super::to_text(&full);
    let back: Snapshot = serde_json::from_slice(&now).unwrap();
    assert_eq!(back, full);
}

#[test]
fn a_missing_required_field_or_an_item_of_another_shape_makes_the_whole_snapshot_unreadable() {
    let derived = serde_json::to_value(full_snapshot()).unwrap();
    let broken = |edit: &dyn Fn(&mut Value)| {
        let mut v = derived.clone();
        edit(&mut v);
        Snapshot::from_json(&v)
    };
    assert!(broken(&|v| v["objects"] = json!("not a list")).is_none());
    assert!(broken(&|v| v["objects"].as_array_mut().unwrap().push(json!(7))).is_none());
    assert!(
        broken(&|v| {
            v.as_object_mut().unwrap().remove("report");
        })
        .is_none()
    );
    assert!(broken(&|v| v["drift"]["drift"]["findings"][0]["severity"] = json!("Dire")).is_none());
    assert!(broken(&|v| v["verdicts"]["per_object"][0] = json!("zero")).is_none());
    assert!(broken(&|v| v["confirmations"][0][1] = json!("Maybe")).is_none());
    // Fields the derive defaulted may be absent.
    let mut v = derived.clone();
    for f in [
        "owners",
        "crds",
        "verdicts",
        "drift",
        "instance_events",
        "partial",
    ] {
        v.as_object_mut().unwrap().remove(f);
    }
    assert!(Snapshot::from_json(&v).is_some());
    // Text that is not JSON says so.
    assert!(super::from_text::<Snapshot>("{", "snapshot").is_err());
    assert!(
        super::from_text::<Snapshot>("[1]", "snapshot")
            .unwrap_err()
            .contains("not of the expected shape")
    );
}
