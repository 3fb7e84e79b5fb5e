use super::*;
use crate::analyses::analysis::Analysis;
use crate::model::{Cluster, CrdAccess};
use crate::wire::error::ApiError;
use crate::wire::{ApiObject, FluxReport};
use std::collections::BTreeMap;

fn entry(name: &str, labels: &[(&str, &str)]) -> ClusterEntry {
    ClusterEntry {
        name: name.into(),
        labels: labels
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<BTreeMap<_, _>>(),
        ..Default::default()
    }
}

fn cluster(version: &str) -> Cluster {
    let objs: Vec<ApiObject> = crate::model::synthetic::objects(60)
        .into_iter()
        .map(|v| serde_json::from_value(v).unwrap())
        .collect();
    let report: FluxReport = serde_json::from_str(&format!(
        r#"{{"metadata":{{"namespace":"flux-system"}},"spec":{{"distribution":{{"version":"{version}","entitlement":"Issued by controlplane"}},"operator":{{"version":"v0.33.0"}},"namespaces":["flux-system"]}}}}"#
    ))
    .unwrap();
    Cluster::new(report, objs, CrdAccess::Forbidden)
}

fn row(name: &str, labels: &[(&str, &str)], version: &str) -> Row {
    let c = cluster(version);
    let facts = Facts::of(&c, &Analysis::of(&c, None));
    Row::read(&entry(name, labels), facts, 1_000, 300)
}

#[test]
fn a_row_carries_the_dashboards_own_numbers() {
    let c = cluster("v2.7.3");
    let a = Analysis::of(&c, None);
    let f = Facts::of(&c, &a);
    assert_eq!(f.flux_version.as_deref(), Some("v2.7.3"));
    assert_eq!(f.latest_patch.as_deref(), Some("v2.7.5"));
    assert_eq!(f.behind_patch(), Some(true));
    assert_eq!(f.findings, a.summary.findings_by_severity);
    assert_eq!(f.missing_refs, a.summary.missing_refs);
    assert_eq!(f.objects, c.objects().len());
    assert_eq!(f.entitlement.as_deref(), Some("Issued by controlplane"));
    assert_eq!(f.git_oci.hook(), "not-started");
}

#[test]
fn a_failed_read_keeps_the_last_good_facts_stale_since_the_first_failure() {
    let e = entry("a", &[]);
    let good = row("a", &[], "v2.7.3");
    let down = ApiError::Network("connection refused".into());
    let first = Row::failed(Some(&good), &e, &down, 5_000, 45_000);
    assert_eq!(first.state, RowState::Unreachable);
    assert_eq!(first.facts, good.facts);
    assert_eq!(first.updated_at_ms, Some(1_000));
    assert_eq!(first.stale_since_ms, Some(5_000));
    let second = Row::failed(Some(&first), &e, &down, 9_000, 45_000);
    assert_eq!(
        second.stale_since_ms,
        Some(5_000),
        "stale since the first failure"
    );
    let denied = Row::failed(None, &e, &ApiError::Unauthorized { login_url: None }, 1, 20);
    assert_eq!(denied.state, RowState::Unauthorized);
    assert!(denied.facts.is_none() && denied.stale_since_ms.is_none());
    assert!(
        denied.problem.is_some(),
        "a 401 row says so, never looks healthy"
    );
}

#[test]
fn a_rows_problem_and_latency_are_said_for_the_fleet() {
    // #46: a down cluster read "web server is starting … retrying"; a slow one "ok" with no
    // latency anywhere.
    let e = entry("a", &[]);
    let starting = ApiError::Server {
        status: 503,
        body: "server not initialized".into(),
    };
    let problem = Row::failed(None, &e, &starting, 1, 40).problem.unwrap();
    assert!(
        !problem.contains("retrying") && problem.contains("next round"),
        "{problem}"
    );
    let gateway = ApiError::Server {
        status: 502,
        body: "Bad Gateway".into(),
    };
    let problem = Row::failed(None, &e, &gateway, 1, 40).problem.unwrap();
    assert!(problem.contains("cannot reach"), "{problem}");
    let denied = ApiError::Unauthorized { login_url: None };
    let problem = Row::failed(None, &e, &denied, 1, 40).problem.unwrap();
    assert!(problem.contains("names no UI"), "{problem}");
    let fast = row("a", &[], "v2.7.3");
    assert_eq!(fast.latency(), "read in under 1 s");
    let mut slower = fast.clone();
    slower.read_ms = Some(420);
    assert_eq!(
        fast.settled(slower.clone()),
        fast,
        "the same on screen: unchanged"
    );
    slower.read_ms = Some(12_300);
    assert_eq!(slower.latency(), "slow: read in 12 s");
    assert_eq!(fast.settled(slower.clone()).read_ms, Some(12_300));
}

#[test]
fn a_wave_waits_for_every_cluster_of_the_one_before() {
    let mut rows = vec![
        row("canary", &[("wave", "1")], "v2.7.3"),
        row("eu-1", &[("wave", "2")], "v2.7.3"),
        row("eu-2", &[("wave", "2")], "v2.6.4"),
        row("us-1", &[("wave", "10")], "v2.6.4"),
        row("lab", &[], "v2.6.4"),
    ];
    // The synthetic clusters are not Ready nor verified: make canary done.
    let f = rows[0].facts.as_mut().unwrap();
    f.ready = Some(true);
    f.root_verified = Verified::Yes;
    f.applied = Applied::Version {
        flux: "v2.7.3".into(),
        not_landed: vec![],
    };
    let target = waves::target(&rows, None);
    assert_eq!(
        target.as_deref(),
        Some("v2.7.3"),
        "the newest version running"
    );
    let w = waves::waves(&rows, "wave", target.as_deref());
    let values: Vec<&str> = w.iter().map(|w| w.value.as_str()).collect();
    assert_eq!(values, ["1", "2", "10", ""], "2 before 10; unlabelled last");
    assert_eq!(w[0].status, WaveStatus::First);
    assert_eq!(w[1].status, WaveStatus::Ready);
    let WaveStatus::HeldBack(held) = &w[2].status else {
        panic!("wave 10 waits for wave 2: {:?}", w[2].status)
    };
    let names: Vec<&str> = held.iter().map(|h| h.cluster.as_str()).collect();
    assert_eq!(names, ["eu-1", "eu-2"]);
    assert!(
        held[1]
            .reasons
            .contains(&"on v2.6.4, not v2.7.3".to_string())
    );
    assert_eq!(w[3].status, WaveStatus::Unordered);
    // One cluster of the wave down holds it back, even with its last facts kept.
    rows[0] = Row::failed(
        Some(&rows[0]),
        &entry("canary", &[("wave", "1")]),
        &ApiError::Timeout { seconds: 30 },
        2_000,
        30_000,
    );
    let w = waves::waves(&rows, "wave", Some("v2.7.3"));
    assert!(
        matches!(&w[1].status, WaveStatus::HeldBack(h) if h[0].reasons[0] == "unreachable now")
    );
}

#[test]
fn the_table_query_round_trips_and_filters_sorts_groups() {
    let q = TableQuery::parse(
        "sort=label:wave&dir=desc&label.env=prod&group=region&waves=wave&target=v2.7.3&q=eu",
    );
    assert_eq!(TableQuery::parse(&q.to_query()), q);
    assert_eq!(q.sort, Some(table::SortKey::Label("wave".into())));
    let rows = vec![
        row(
            "eu-1",
            &[("env", "prod"), ("region", "eu"), ("wave", "2")],
            "v2.7.3",
        ),
        row(
            "eu-2",
            &[("env", "prod"), ("region", "eu"), ("wave", "10")],
            "v2.7.3",
        ),
        row("eu-dev", &[("env", "dev"), ("region", "eu")], "v2.7.3"),
        row("us-1", &[("env", "prod"), ("region", "us")], "v2.7.3"),
    ];
    let shown: Vec<&str> = q.apply(&rows).iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        shown,
        ["eu-2", "eu-1"],
        "label filter, text filter, wave 10 > 2 descending"
    );
    let all = TableQuery::parse("group=region");
    let groups: Vec<(String, usize)> = all
        .groups(&rows)
        .into_iter()
        .map(|(v, r)| (v, r.len()))
        .collect();
    assert_eq!(groups, [("eu".to_string(), 3), ("us".to_string(), 1)]);
    assert_eq!(
        TableQuery::parse("sort=nonsense&zzz=1"),
        TableQuery::default()
    );
}

#[test]
fn exports_are_redacted_and_cells_cannot_break_them() {
    let mut r = row("a", &[("owner", "x|y\n<script>")], "v2.7.3");
    r.problem = Some("https://user:hunter2@example.org/x?token=abc".into());
    let rows = vec![&r];
    let cx = export::Context {
        generated_at_ms: 1_764_000_000_000,
        target: Some("v2.7.3"),
    };
    for text in [
        export::to_csv(&rows),
        export::to_json(&rows, &cx),
        export::to_markdown(&rows, &cx),
    ] {
        assert!(
            !text.contains("hunter2") && !text.contains("token=abc"),
            "{text}"
        );
    }
    let md = export::to_markdown(&rows, &cx);
    let table_line = md.lines().find(|l| l.starts_with("| a |")).unwrap();
    assert_eq!(table_line.matches(" | ").count(), export::COLUMNS.len() - 1);
    assert!(!md.contains("<script>"));
    let json: serde_json::Value = serde_json::from_str(&export::to_json(&rows, &cx)).unwrap();
    // #46: typed, not every value a string.
    let c = &json["clusters"][0];
    assert_eq!(c["root_verified"], false);
    assert_eq!(c["flux_version"], "v2.7.3");
    assert!(c["critical"].is_u64() && c["missing_refs"].is_u64(), "{c}");
    assert!(c["syncs_from_git"].is_boolean(), "{c}");
    assert_eq!(c["read_ms"], 300);
    assert!(export::to_csv(&rows).contains(",\"300\","));
    let csv = export::to_csv(&rows);
    assert!(csv.starts_with("cluster,labels,state,"));
}

#[test]
fn a_fleet_link_round_trips_redacted_and_refuses_damage() {
    let mut r = row("a", &[("env", "prod")], "v2.7.3");
    r.problem = Some("Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123".into());
    let snap = link::FleetSnapshot {
        captured_at_ms: 7,
        query: "waves=wave".into(),
        rows: vec![r.clone()],
        redacted: 0,
    };
    let (text, n) = link::encode(&snap).unwrap();
    assert!(text.starts_with("flf1."));
    assert!(n >= 1);
    let back = link::decode(&text).unwrap();
    assert_eq!(back.rows[0].facts, r.facts);
    assert!(
        !back.rows[0]
            .problem
            .as_deref()
            .unwrap()
            .contains("abcdefghijklmnop")
    );
    assert!(back.redacted >= 1);
    let mut broken = text.clone();
    broken.replace_range(10..12, "zz");
    assert!(link::decode(&broken).is_err());
    assert!(matches!(
        link::decode(&"flf1.".repeat(200_000)),
        Err(crate::share::snapshot::SnapshotError::TooLarge(_))
    ));
    assert!(matches!(
        link::decode("fl1.AAAA"),
        Err(crate::share::snapshot::SnapshotError::NotASnapshot)
    ));
}

#[test]
fn a_row_from_a_partial_read_calls_nothing_missing_and_says_it_is_incomplete() {
    // The synthetic cluster has dangling references, confirmed absent: missing on complete data.
    let confirmed = |mut c: Cluster| {
        let (requests, _) = crate::load::confirm_requests(&c);
        for k in requests.iter().flat_map(crate::load::requested_keys) {
            c.confirmations.insert(k, crate::model::Answer::NotFound);
        }
        c
    };
    let complete = confirmed(cluster("v2.7.3"));
    let f = Facts::of(&complete, &Analysis::of(&complete, None));
    assert!(f.missing_refs > 0, "the fixture has dangling references");
    assert!(f.incomplete.is_empty());
    // The same objects behind the server's placeholder report: absence is not a finding.
    let mut partial = confirmed(cluster("v2.7.3"));
    partial.notes.partial = crate::load::partial_load(&FluxReport::default());
    let f = Facts::of(&partial, &Analysis::of(&partial, None));
    assert_eq!(f.missing_refs, 0);
    assert!(
        f.incomplete[0].contains("not initialised"),
        "{:?}",
        f.incomplete
    );
}

/// #49 (Kargo learnt it early: akuity/kargo#41): an upgrade has landed on a cluster only when its
/// FluxInstance's newest history entry is the new version, applied successfully, Ready at it —
/// not a Ready left over from before, nor a version the report shows before the apply is done.
#[test]
fn a_wave_lands_only_when_its_fluxinstance_applied_the_version_and_is_ready_at_it() {
    let instance = |flux: &str, status: &str, ready: &str, gens: (i64, i64)| {
        format!(
            r#"{{"apiVersion":"fluxcd.controlplane.io/v1","kind":"FluxInstance","metadata":{{"name":"flux","namespace":"flux-system"}},"spec":{{"distribution":{{"version":"2.7.x"}}}},"status":{{"observedGeneration":{},"conditions":[{{"type":"Ready","status":"{ready}","observedGeneration":{},"lastTransitionTime":"2026-12-01T00:00:00Z"}}],"history":[{{"digest":"sha256:1","firstReconciled":"2026-12-04T09:00:00Z","lastReconciled":"2026-12-04T09:00:00Z","lastReconciledStatus":"{status}","metadata":{{"flux":"{flux}"}},"totalReconciliations":1}}]}}}}"#,
            gens.0, gens.1
        )
    };
    let facts = |obj: Option<String>| {
        let report: FluxReport =
            serde_json::from_str(r#"{"spec":{"distribution":{"version":"v2.7.5"}}}"#).unwrap();
        let objs = obj.iter().map(|o| serde_json::from_str(o).unwrap());
        let c = Cluster::new(report, objs, CrdAccess::Forbidden);
        Facts::of(&c, &Analysis::of(&c, None)).applied
    };
    let landed = facts(Some(instance(
        "v2.7.5",
        "ReconciliationSucceeded",
        "True",
        (2, 2),
    )));
    assert_eq!(
        landed,
        Applied::Version {
            flux: "v2.7.5".into(),
            not_landed: vec![]
        }
    );
    let Applied::Version { not_landed, .. } = facts(Some(instance(
        "v2.7.5",
        "ReconciliationFailed",
        "True",
        (2, 2),
    ))) else {
        panic!()
    };
    assert_eq!(
        not_landed,
        ["its last apply of v2.7.5: ReconciliationFailed"]
    );
    let Applied::Version { not_landed, .. } = facts(Some(instance(
        "v2.7.5",
        "ReconciliationSucceeded",
        "True",
        (3, 2),
    ))) else {
        panic!()
    };
    assert_eq!(not_landed, ["Ready is from an earlier generation"]);
    assert_eq!(facts(None), Applied::Unknown);
    // In a wave: the report already says v2.7.5, the FluxInstance last applied v2.7.3.
    let mut canary = row("canary", &[("wave", "1")], "v2.7.5");
    let f = canary.facts.as_mut().unwrap();
    f.ready = Some(true);
    f.root_verified = Verified::Yes;
    f.applied = Applied::Version {
        flux: "v2.7.3".into(),
        not_landed: vec![],
    };
    let rows = vec![canary, row("eu-1", &[("wave", "2")], "v2.7.5")];
    let w = waves::waves(&rows, "wave", Some("v2.7.5"));
    let WaveStatus::HeldBack(held) = &w[1].status else {
        panic!("{:?}", w[1].status)
    };
    assert_eq!(
        held[0].reasons,
        ["v2.7.5 not applied yet (last applied v2.7.3)"]
    );
}

/// #68: the fleet row leads with what fails now (OPS-01), as the overview does.
#[test]
fn a_row_leads_with_what_fails_now() {
    let healthy = crate::model::synthetic::healthy(60)
        .into_iter()
        .map(|v| serde_json::from_value::<ApiObject>(v).unwrap());
    let calm = Cluster::new(cluster("v2.7.3").report, healthy, CrdAccess::Forbidden);
    let f = Facts::of(&calm, &Analysis::of(&calm, None));
    assert_eq!((f.failing, f.failing_now()), (0, String::new()));
    let failed: ApiObject = serde_json::from_value(serde_json::json!({
        "apiVersion": "helm.toolkit.fluxcd.io/v2", "kind": "HelmRelease",
        "metadata": {"name": "web", "namespace": "apps"}, "spec": {},
        "status": {"conditions": [{"type": "Ready", "status": "False", "reason": "UpgradeFailed",
            "message": "Helm upgrade failed: timed out", "lastTransitionTime": "2026-12-06T03:00:00Z"}]}
    }))
    .unwrap();
    let objs = calm
        .objects()
        .iter()
        .map(|o| (*o.raw).clone())
        .chain([failed]);
    let c = Cluster::new(calm.report.clone(), objs, CrdAccess::Forbidden);
    let f = Facts::of(&c, &Analysis::of(&c, None));
    assert_eq!(f.failing, 1);
    assert!(
        f.failing_now()
            .starts_with("1 object failing now: HelmRelease/apps/web is failing since"),
        "{}",
        f.failing_now()
    );
}

/// #70: with a render named, a cluster holds its wave back until it runs that render — no drift
/// at or above high, a render that could be read, a judgement made; without one, drift is never
/// a reason.
#[test]
fn a_cluster_given_a_render_holds_its_wave_back_while_it_drifts_from_it() {
    let drifting = |cell: Option<DriftCell>| {
        let mut r = row("canary", &[("wave", "1")], "v2.7.5");
        r.render = Some("/renders/canary.yaml".into());
        r.facts.as_mut().unwrap().drift = cell;
        waves::holds_back(&r, Some("v2.7.5"))
            .into_iter()
            .filter(|w| w.contains("render"))
            .collect::<Vec<_>>()
    };
    let counted = |findings: [usize; 5]| {
        Some(DriftCell::Judged(DriftCount {
            findings,
            compared: 40,
            in_sync: 38,
            not_compared: 0,
        }))
    };
    assert_eq!(drifting(counted([2, 0, 1, 0, 0])), Vec::<String>::new());
    assert_eq!(
        drifting(counted([0, 0, 0, 1, 1])),
        ["drifts from its render: 2 findings at high or critical"]
    );
    assert_eq!(
        drifting(Some(DriftCell::Unreadable("404".into()))),
        ["its render /renders/canary.yaml cannot be read"]
    );
    assert_eq!(
        drifting(None),
        ["drift against /renders/canary.yaml not judged yet"]
    );
    // Sorted by drift, descending: the critical first, then the high, then none.
    let with = |name: &str, cell: Option<DriftCell>| {
        let mut r = row(name, &[], "v2.7.5");
        r.facts.as_mut().unwrap().drift = cell;
        r
    };
    let rows = [
        with("none", None),
        with("high", counted([0, 0, 0, 3, 0])),
        with("critical", counted([0, 0, 0, 0, 1])),
    ];
    let q = TableQuery::parse("sort=drift&dir=desc");
    let order: Vec<&str> = q.apply(&rows).iter().map(|r| r.name.as_str()).collect();
    assert_eq!(order, ["critical", "high", "none"]);
    let plain = row("canary", &[("wave", "1")], "v2.7.5");
    let reasons = waves::holds_back(&plain, Some("v2.7.5"));
    assert!(reasons.iter().all(|w| !w.contains("render")), "{reasons:?}");
}
