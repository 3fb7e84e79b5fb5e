//! The timeline on real shapes: `status.history` as the Flux Operator UI's mock data carries it
//! (web/src/mock/resource.js: a FluxInstance snapshot with `metadata.flux`, HelmRelease releases
//! with chart and app versions), and the model diff: nothing between identical reads, every kind
//! of change found once.

use super::digest::VisitDigest;
use super::timeline::EventsRead;
use super::*;
use crate::analyses::analysis::Analysis;
use crate::analyses::findings::rules::testkit::cluster;
use crate::model::Cluster;
use crate::util::time::parse_rfc3339_ms;
use crate::wire::events::Event;

const NOW: &str = "2026-12-04T12:00:00Z";

fn ms(s: &str) -> i64 {
    parse_rfc3339_ms(s).unwrap()
}

fn digest(c: &Cluster, at: &str) -> VisitDigest {
    let mut c = c.clone();
    c.notes.captured_at_ms = Some(ms(at));
    VisitDigest::of(&c, &Analysis::of(&c, None))
}

const INSTANCE: &str = r#"{"apiVersion":"fluxcd.controlplane.io/v1","kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"distribution":{"version":"2.7.x","registry":"ghcr.io/fluxcd"}},"status":{"conditions":[{"type":"Ready","status":"True","reason":"ReconciliationSucceeded","lastTransitionTime":"2026-12-01T08:00:00Z"}],"history":[{"digest":"sha256:d8fc4a3a7b06f200e0565c35d694b9d36cbe43233d8418a78525adc3ca9a16dd","firstReconciled":"2026-12-04T09:31:08Z","lastReconciled":"2026-12-04T11:10:59Z","lastReconciledDuration":"1.605875375s","lastReconciledStatus":"ReconciliationSucceeded","metadata":{"flux":"v2.7.3"},"totalReconciliations":12},{"digest":"sha256:aaaa","firstReconciled":"2026-11-20T09:31:08Z","lastReconciled":"2026-12-04T09:30:00Z","lastReconciledStatus":"ReconciliationSucceeded","metadata":{"flux":"v2.7.2"},"totalReconciliations":300}]}}"#;

const RELEASE: &str = r#"{"apiVersion":"helm.toolkit.fluxcd.io/v2","kind":"HelmRelease","metadata":{"name":"tailscale-operator","namespace":"tailscale"},"spec":{"chart":{"spec":{"chart":"tailscale-operator","sourceRef":{"kind":"HelmRepository","name":"tailscale"}}}},"status":{"conditions":[{"type":"Ready","status":"False","reason":"UpgradeFailed","message":"context deadline exceeded","lastTransitionTime":"2026-12-04T11:30:00Z"}],"history":[{"appVersion":"v1.90.9","chartName":"tailscale-operator","chartVersion":"1.90.9","digest":"sha256:f00b","firstDeployed":"2026-12-04T11:29:01Z","lastDeployed":"2026-12-04T11:29:01Z","name":"tailscale-operator","namespace":"tailscale","status":"failed","version":3},{"appVersion":"v1.90.8","chartName":"tailscale-operator","chartVersion":"1.90.8","digest":"sha256:0d1e","firstDeployed":"2026-11-01T23:31:01Z","lastDeployed":"2026-11-26T19:26:23Z","name":"tailscale-operator","namespace":"tailscale","status":"superseded","version":2}]}}"#;

const REPO: &str = r#"{"apiVersion":"source.toolkit.fluxcd.io/v1","kind":"HelmRepository","metadata":{"name":"tailscale","namespace":"tailscale"},"spec":{"url":"https://pkgs.tailscale.com/helmcharts"},"status":{"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-11-01T00:00:00Z"}]}}"#;

const OLD_KS: &str = r#"{"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","metadata":{"name":"infra","namespace":"flux-system"},"spec":{"sourceRef":{"kind":"GitRepository","name":"flux-system"}},"status":{"lastAppliedRevision":"refs/heads/main@sha1:1111111111111111111111111111111111111111","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-11-30T00:00:00Z"}]}}"#;

const GIT: &str = r#"{"apiVersion":"source.toolkit.fluxcd.io/v1","kind":"GitRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"spec":{"url":"https://github.com/example-org/fleet.git"},"status":{"artifact":{"revision":"refs/heads/main@sha1:2222222222222222222222222222222222222222","lastUpdateTime":"2026-12-04T10:00:00Z"},"conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-11-30T00:00:00Z"}]}}"#;

fn window_of(c: &Cluster, events: &[Event], read: EventsRead, from: &str) -> Timeline {
    let now = digest(c, NOW);
    timeline(
        &Reads {
            cluster: c,
            now: &now,
            earlier: None,
            events,
            events_read: &read,
        },
        ms(from),
        ms(NOW),
    )
}

#[test]
fn history_artifacts_and_transitions_in_the_window_newest_first() {
    let c = cluster(&[INSTANCE, RELEASE, REPO, GIT, OLD_KS]);
    let t = window_of(&c, &[], EventsRead::NotRead, "2026-12-04T00:00:00Z");
    let rows: Vec<(String, &str, &str)> = t
        .changes
        .iter()
        .map(|ch| (ch.subject.hook(), ch.kind.as_str(), ch.what.as_str()))
        .collect();
    assert_eq!(
        rows,
        vec![
            (
                "HelmRelease/tailscale/tailscale-operator".into(),
                "status",
                "Ready → False: UpgradeFailed"
            ),
            (
                "HelmRelease/tailscale/tailscale-operator".into(),
                "revision",
                "released tailscale-operator 1.90.9: failed"
            ),
            (
                "GitRepository/flux-system/flux-system".into(),
                "revision",
                "fetched refs/heads/main@sha1:222222222222…"
            ),
            (
                "FluxInstance/flux-system/flux".into(),
                "revision",
                "applied Flux v2.7.3"
            ),
        ],
        "{:#?}",
        t.changes
    );
    let release = &t.changes[1];
    assert!(release.failed);
    assert_eq!(
        release.detail,
        "from HelmRepository/tailscale/tailscale · app v1.90.9 · release v3"
    );
    assert!(
        t.changes[3]
            .detail
            .starts_with("12 reconciliations, the last 2026-12-04 11:10:59 UTC")
    );
    // Older than the window: the superseded release, the v2.7.2 snapshot, old transitions.
    assert!(
        !t.changes
            .iter()
            .any(|c| c.what.contains("1.90.8") || c.what.contains("v2.7.2"))
    );
}

#[test]
fn the_window_says_what_it_cannot_know() {
    let c = cluster(&[INSTANCE, OLD_KS]);
    let t = window_of(&c, &[], EventsRead::NotRead, "2026-11-27T00:00:00Z");
    let all = t.limits.join("\n");
    assert!(all.contains("1 Kustomization keep no history"), "{all}");
    assert!(all.contains("Events were not read"), "{all}");
    assert!(all.contains("No earlier read is kept"), "{all}");
    let read = window_of(
        &c,
        &[],
        EventsRead::Read { capped: true },
        "2026-11-27T00:00:00Z",
    );
    let all = read.limits.join("\n");
    assert!(all.contains("about an hour"), "{all}");
    assert!(all.contains("at most 500 events per kind"), "{all}");
    // An hour's window: events cover it, nothing said of their expiry.
    let hour = window_of(
        &c,
        &[],
        EventsRead::Read { capped: false },
        "2026-12-04T11:00:00Z",
    );
    assert!(!hour.limits.join("\n").contains("about an hour"));
}

#[test]
fn warning_events_about_known_objects_are_status_rows() {
    let c = cluster(&[RELEASE, REPO]);
    let events: Vec<Event> = serde_json::from_str(
        r#"[{"lastTimestamp":"2026-12-04T11:45:00Z","type":"Warning","message":"Helm upgrade failed: timed out","involvedObject":"HelmRelease/tailscale-operator","namespace":"tailscale"},
            {"lastTimestamp":"2026-12-04T11:46:00Z","type":"Normal","message":"Reconciliation finished","involvedObject":"HelmRelease/tailscale-operator","namespace":"tailscale"},
            {"lastTimestamp":"2026-12-04T11:47:00Z","type":"Warning","message":"elsewhere","involvedObject":"HelmRelease/other","namespace":"tailscale"}]"#,
    )
    .unwrap();
    let t = window_of(
        &c,
        &events,
        EventsRead::Read { capped: false },
        "2026-12-04T11:40:00Z",
    );
    let events: Vec<&Change> = t
        .changes
        .iter()
        .filter(|c| c.origin == Origin::Event)
        .collect();
    assert_eq!(events.len(), 1, "{events:#?}");
    assert_eq!(events[0].detail, "Helm upgrade failed: timed out");
    assert_eq!(events[0].kind, ChangeKind::Status);
}

#[test]
fn identical_reads_differ_in_nothing() {
    let c = cluster(&[INSTANCE, RELEASE, REPO, GIT, OLD_KS]);
    let (a, b) = (digest(&c, "2026-12-04T09:00:00Z"), digest(&c, NOW));
    assert_eq!(diff::between(&a, &b), vec![]);
}

#[test]
fn every_kind_of_change_is_found_once() {
    let verified = GIT.replace(
        r#""spec":{"url""#,
        r#""spec":{"verify":{"provider":"cosign"},"url""#,
    );
    let before = cluster(&[INSTANCE, REPO, &verified, OLD_KS]);
    // Later: the Git source moved on and lost verify, the Kustomization failed, the
    // HelmRepository is gone, a HelmRelease appeared.
    let moved = GIT.replace(
        "2222222222222222222222222222222222222222",
        "3333333333333333333333333333333333333333",
    );
    let failed = OLD_KS.replace(
        r#""status":"True""#,
        r#""status":"False","reason":"BuildFailed""#,
    );
    let after = cluster(&[INSTANCE, &moved, &failed, RELEASE]);
    let found = diff::between(
        &digest(&before, "2026-12-04T09:00:00Z"),
        &digest(&after, NOW),
    );
    let count = |k: ChangeKind, subject: &str| {
        found
            .iter()
            .filter(|c| c.kind == k && c.subject.hook() == subject)
            .count()
    };
    assert_eq!(
        count(
            ChangeKind::Revision,
            "GitRepository/flux-system/flux-system"
        ),
        1
    );
    assert_eq!(
        count(ChangeKind::Verify, "GitRepository/flux-system/flux-system"),
        1
    );
    assert_eq!(
        count(ChangeKind::Status, "Kustomization/flux-system/infra"),
        1
    );
    assert_eq!(
        count(ChangeKind::Removed, "HelmRepository/tailscale/tailscale"),
        1
    );
    assert_eq!(
        count(
            ChangeKind::Added,
            "HelmRelease/tailscale/tailscale-operator"
        ),
        1
    );
    assert!(
        found.iter().any(|c| c.kind == ChangeKind::FindingAdded),
        "{found:#?}"
    );
    for c in &found {
        assert_eq!(
            (c.at_ms, c.after_ms),
            (ms(NOW), Some(ms("2026-12-04T09:00:00Z")))
        );
        assert_eq!(c.origin, Origin::Compared);
    }
    let lost = found.iter().find(|c| c.kind == ChangeKind::Verify).unwrap();
    assert!(lost.failed && lost.what == "lost spec.verify");
    // And back: verify is gained, the HelmRepository is added, the HelmRelease removed — and
    // its finding is not "resolved": the object is gone, its own row says so.
    let back = diff::between(
        &digest(&after, NOW),
        &digest(&before, "2026-12-04T13:00:00Z"),
    );
    assert!(
        back.iter()
            .any(|c| c.kind == ChangeKind::Verify && c.what == "gained spec.verify")
    );
    assert!(
        back.iter().any(|c| c.kind == ChangeKind::Added
            && c.subject.hook() == "HelmRepository/tailscale/tailscale")
    );
    assert!(back.iter().any(|c| c.kind == ChangeKind::Removed
        && c.subject.hook() == "HelmRelease/tailscale/tailscale-operator"));
    assert!(
        !back.iter().any(|c| c.kind == ChangeKind::FindingResolved
            && c.subject.hook() == "HelmRelease/tailscale/tailscale-operator"),
        "{back:#?}"
    );
    // What is resolved is what recovered: the Kustomization failing in the later read (OPS-01).
    assert!(back.iter().any(|c| c.kind == ChangeKind::FindingResolved
        && c.subject.hook() == "Kustomization/flux-system/infra"
        && c.what == "OPS-01 resolved"));
}

#[test]
fn a_finding_gone_from_an_object_still_there_is_resolved_once() {
    let c = cluster(&[RELEASE]);
    let before = digest(&c, "2026-12-04T09:00:00Z");
    assert!(
        !before.findings.is_empty(),
        "the release's chart source is missing"
    );
    let mut after = before.clone();
    after.read_at_ms = ms(NOW);
    after.findings.clear();
    let found = diff::between(&before, &after);
    assert_eq!(found.len(), before.findings.len(), "{found:#?}");
    assert!(
        found
            .iter()
            .all(|c| c.kind == ChangeKind::FindingResolved && !c.failed)
    );
}

#[test]
fn an_object_absent_from_an_incomplete_list_is_not_removed() {
    let before = cluster(&[REPO, GIT]);
    let mut after = cluster(&[GIT]);
    after.notes.incomplete_kinds = vec![("HelmRepository".into(), "the list was capped".into())];
    let found = diff::between(
        &digest(&before, "2026-12-04T09:00:00Z"),
        &digest(&after, NOW),
    );
    assert!(
        !found.iter().any(|c| c.kind == ChangeKind::Removed),
        "{found:#?}"
    );
}

#[test]
fn a_stage_that_moved_is_one_row_about_its_migration() {
    let mut a = digest(&cluster(&[INSTANCE]), "2026-12-04T09:00:00Z");
    let mut b = a.clone();
    b.read_at_ms = ms(NOW);
    a.stages = vec![digest::StageDigest {
        migration: "git-oci".into(),
        migration_title: "Git → signed OCI root".into(),
        stage: "M2".into(),
        title: "Parallel OCI source".into(),
        state: "in progress".into(),
    }];
    b.stages = vec![digest::StageDigest {
        state: "done".into(),
        ..a.stages[0].clone()
    }];
    let found = diff::between(&a, &b);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].subject.hook(), "Migration/git-oci");
    assert_eq!(found[0].what, "M2 Parallel OCI source: in progress → done");
}

#[test]
fn the_overview_line_counts_what_changed() {
    let before = cluster(&[INSTANCE, REPO, GIT, OLD_KS]);
    let moved = GIT.replace(
        "2222222222222222222222222222222222222222",
        "3333333333333333333333333333333333333333",
    );
    let after = cluster(&[INSTANCE, &moved, OLD_KS, RELEASE]);
    let found = diff::between(
        &digest(&before, "2026-12-04T09:00:00Z"),
        &digest(&after, NOW),
    );
    let line = summary::phrase(&found).unwrap();
    assert!(line.starts_with("1 source revision fetched"), "{line}");
    assert!(line.contains("1 object removed"), "{line}");
    assert!(line.contains("1 added"), "{line}");
    assert_eq!(summary::phrase(&[]), None);
}

#[test]
fn two_reads_compare_in_time_order_whichever_comes_first() {
    let moved = GIT.replace(
        "2222222222222222222222222222222222222222",
        "3333333333333333333333333333333333333333",
    );
    let (old, new) = (
        digest(&cluster(&[GIT]), "2026-12-04T09:00:00Z"),
        digest(&cluster(&[&moved]), NOW),
    );
    let t = between_reads(&new, &old);
    assert_eq!((t.from_ms, t.to_ms), (ms("2026-12-04T09:00:00Z"), ms(NOW)));
    assert_eq!(t.changes.len(), 1);
    assert_eq!(
        t.changes[0].what,
        "now at refs/heads/main@sha1:333333333333…"
    );
    let reversed = between_reads(&old, &new);
    assert_eq!(
        (reversed.changes, reversed.from_ms),
        (t.changes.clone(), t.from_ms)
    );
    assert!(t.limits[0].starts_with("Two reads compared"));
    // #68: each row names the snapshot it was compared with, not "the earlier read".
    let with = t.origin_label(&t.changes[0]);
    assert!(
        with.starts_with("compared with the snapshot read "),
        "{with}"
    );
    assert!(
        with.ends_with(&crate::util::time::shown_dated(new.read_at_ms)),
        "{with}"
    );
}

#[test]
fn a_snapshot_link_or_file_reads_as_a_digest_to_compare_with() {
    use crate::share::snapshot::{self, SnapshotOptions, SnapshotView};
    let mut c = cluster(&[INSTANCE, RELEASE, REPO, GIT, OLD_KS]);
    c.notes.captured_at_ms = Some(ms("2026-12-04T09:00:00Z"));
    let opts = SnapshotOptions {
        view: SnapshotView::Overview,
        drop_messages: true,
    };
    let text = snapshot::encode(&snapshot::capture(&c, opts).unwrap());
    let link = format!("https://fluxlens.example/changes?poll=5#snap={text}");
    let d = snapshot::digest_of(&link).unwrap();
    assert_eq!(d.read_at_ms, ms("2026-12-04T09:00:00Z"));
    assert_eq!(d.objects.len(), c.objects().len());
    // The live read it was taken from differs from it in nothing.
    assert_eq!(diff::between(&d, &digest(&c, NOW)), vec![]);
    assert_eq!(snapshot::digest_of(&format!("  {text}\n")).unwrap(), d);
    assert!(snapshot::digest_of("https://fluxlens.example/").is_err());
    assert!(snapshot::digest_of("fl1.AAAA").is_err());
}

#[test]
fn a_change_in_the_windows_first_second_is_in_it() {
    // Recorded 11:29:01 (whole seconds); the window starts at 11:29:01.400.
    let c = cluster(&[RELEASE]);
    let t = window_of(&c, &[], EventsRead::NotRead, "2026-12-04T11:29:01.400Z");
    assert!(
        t.changes.iter().any(|c| c.what.contains("1.90.9")),
        "{:#?}",
        t.changes
    );
}
