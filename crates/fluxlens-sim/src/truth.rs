//! The model on the real server's shapes: each scenario is loaded the way the app loads it
//! (report, summaries, sanitized batch objects, one confirming read) and the verdicts that
//! depend on ownership and visibility are checked. Native, so a wrong verdict fails fast.

use crate::faults::Mode;
use crate::store::Store;
use fluxlens_core::analyses::facts::cluster::ClusterFacts;
use fluxlens_core::analyses::findings::{self, Finding, Severity};
use fluxlens_core::analyses::migration::{self, StageState};
use fluxlens_core::load;
use fluxlens_core::model::{Cluster, CrdAccess, LoadNotes, Presence};
use fluxlens_core::wire::{
    FluxReport, InventoryObjectsRequest, InventoryObjectsResponse, ResourceList,
};
use std::path::Path;

pub(crate) fn store(name: &str) -> Store {
    Store::from_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../scenarios")
            .join(name),
    )
    .unwrap()
}

fn post(s: &Store, mode: &Mode, req: &InventoryObjectsRequest) -> InventoryObjectsResponse {
    let items: Vec<serde_json::Value> = serde_json::to_value(&req.objects)
        .unwrap()
        .as_array()
        .unwrap()
        .clone();
    serde_json::from_value(s.inventory_objects(mode, &items, req.status_only, false)).unwrap()
}

/// What the app's loader does, without the network.
pub(crate) fn load(s: &Store, mode: &Mode) -> Cluster {
    let report: FluxReport = serde_json::from_value(s.report(mode, false)).unwrap();
    let rows: ResourceList =
        serde_json::from_value(s.resources(mode, None, "", None, None)).unwrap();
    let mut objects = Vec::new();
    let mut unreadable = Vec::new();
    for b in load::object_batches(&report, &rows.resources) {
        let (o, f) = load::split_results(post(s, mode, &b).objects);
        objects.extend(o);
        unreadable.extend(f);
    }
    let incomplete = load::incomplete_kinds(&report, &rows.resources);
    let partial = load::partial_load(&report);
    let mut c = Cluster::new(report, objects, CrdAccess::Unknown);
    c.notes = LoadNotes {
        incomplete_kinds: incomplete,
        partial,
        unreadable,
        unconfirmed: vec![],
        kept_answers: vec![],
        captured_at_ms: None,
    };
    let (requests, _) = load::confirm_requests(&c);
    for req in requests {
        c.confirmations
            .extend(load::confirmations(&post(s, mode, &req).objects));
    }
    c
}

fn of<'a>(f: &'a [Finding], rule: &str) -> Vec<&'a Finding> {
    f.iter().filter(|x| x.rule == rule).collect()
}

#[test]
fn owners_come_from_inventories_on_batch_data() {
    let c = load(&store("demo"), &Mode::default());
    let owned = c
        .objects()
        .iter()
        .filter(|o| o.managed_by.is_some())
        .count();
    assert!(
        owned > 180,
        "{owned} of {} objects have a derived owner",
        c.objects().len()
    );
    let oci = c
        .get(&"OCIRepository/flux-system/flux-system".parse_key())
        .unwrap();
    assert_eq!(oci.owner_label(), "Kustomization/flux-system/flux-system");
}

#[test]
fn bootstrap_deadlock_is_critical_through_the_derived_chain() {
    let c = load(&store("broken"), &Mode::default());
    let f = findings::evaluate_all(&c);
    let deadlock = of(&f, "MIG-GO-02")
        .into_iter()
        .find(|x| x.subject.to_string() == "Kustomization/flux-system/cluster-apps")
        .expect("MIG-GO-02 on cluster-apps");
    assert_eq!(deadlock.severity, Severity::Critical);
}

#[test]
fn finished_migration_reaches_m5_with_m4_done() {
    let c = load(&store("enterprise-fips"), &Mode::default());
    let f = findings::evaluate_all(&c);
    let m = migration::git_to_oci(&ClusterFacts::of(&c), &f);
    let m4 = m.stages.iter().find(|s| s.id == "M4").unwrap();
    assert_eq!(m4.state, StageState::Done, "{:#?}", m4.checks);
    assert!(
        m.stages.iter().all(|s| s.state == StageState::Done),
        "{:#?}",
        m.stages
            .iter()
            .map(|s| (&s.id, s.state))
            .collect::<Vec<_>>()
    );
    assert!(
        !m.next_commands.iter().any(|c| c.contains("sync")),
        "no advice to patch a sync that is patched: {:?}",
        m.next_commands
    );
}

#[test]
fn prune_hazard_fires_on_a_parallel_source_without_opt_out() {
    let c = load(&store("staged"), &Mode::default());
    let f = findings::evaluate_all(&c);
    assert_eq!(of(&f, "MIG-GO-05").len(), 1, "{f:#?}");
}

#[test]
fn resource_set_depending_on_crd_and_cluster_scoped_object_resolves() {
    let c = load(&store("operator-mock"), &Mode::default());
    let proxy = "ProxyGroup//ingress".parse_key();
    assert_eq!(c.presence(&proxy).describe(), "exists (Current)");
    let crd = "CustomResourceDefinition//proxygroups.tailscale.com".parse_key();
    assert!(matches!(c.presence(&crd), Presence::External(Some(_))));
    let f = findings::evaluate_all(&c);
    assert!(of(&f, "MIG-GO-02").is_empty(), "{:#?}", of(&f, "MIG-GO-02"));
    let m = migration::git_to_oci(&ClusterFacts::of(&c), &f);
    assert!(m.blockers.is_empty(), "{:#?}", m.blockers);
}

#[test]
fn tenant_sees_not_visible_instead_of_missing() {
    let mode = Mode {
        namespaces: Some(vec!["team-payments".into(), "team-ledger".into()]),
        ..Mode::default()
    };
    let c = load(&store("demo"), &mode);
    let root = "OCIRepository/flux-system/flux-system".parse_key();
    assert!(matches!(c.presence(&root), Presence::NotVisible(_)));
    let f = findings::evaluate_all(&c);
    assert!(
        of(&f, "MIG-GO-02")
            .iter()
            .all(|x| x.severity == Severity::Info),
        "{:#?}",
        of(&f, "MIG-GO-02")
    );
    let g = fluxlens_core::analyses::graph::Graph::build(&c, Default::default());
    assert_eq!(g.missing().count(), 0);
    assert!(g.not_visible().count() > 0);
}

#[test]
fn failed_list_and_cached_cap_produce_no_missing() {
    let failing = Mode {
        fail_list: vec!["OCIRepository".into(), "HelmRepository".into()],
        ..Mode::default()
    };
    let c = load(&store("demo"), &failing);
    assert!(c.notes.incomplete_reason("OCIRepository").is_some());
    let f = findings::evaluate_all(&c);
    assert!(
        of(&f, "MIG-GO-02")
            .iter()
            .all(|x| x.severity == Severity::Info)
    );
    let g = fluxlens_core::analyses::graph::Graph::build(&c, Default::default());
    assert_eq!(g.missing().count(), 0);

    let cached = Mode {
        search_cached: true,
        ..Mode::default()
    };
    let c = load(&Store::synthetic(3000, true), &cached);
    assert!(
        !c.notes.incomplete_kinds.is_empty(),
        "the total cap is detected"
    );
    let g = fluxlens_core::analyses::graph::Graph::build(&c, Default::default());
    assert_eq!(g.missing().count(), 0);
}

trait ParseKey {
    fn parse_key(&self) -> fluxlens_core::ObjectKey;
}

impl ParseKey for str {
    fn parse_key(&self) -> fluxlens_core::ObjectKey {
        fluxlens_core::ObjectKey::parse(self).unwrap()
    }
}

/// §0.3-8: healthy clusters modelled on well-run public GitOps repositories stay calm.
#[test]
fn healthy_clusters_stay_calm() {
    for name in ["homelab", "multitenant", "operator-mock", "enterprise-fips"] {
        let c = load(&store(name), &Mode::default());
        let shown = findings::aggregate(&findings::evaluate_all(&c));
        let loud: Vec<String> = shown
            .iter()
            .filter(|f| f.severity >= Severity::High)
            .map(|f| format!("{} {} {}", f.severity.as_str(), f.rule, f.message))
            .collect();
        assert!(loud.is_empty(), "{name}: {loud:#?}");
        assert!(
            shown.len() <= 20,
            "{name}: {} findings after aggregation: {:#?}",
            shown.len(),
            shown
                .iter()
                .map(|f| format!("{} {} {}", f.severity.as_str(), f.rule, f.message))
                .collect::<Vec<_>>()
        );
        assert!(
            shown.iter().all(|f| !f.reason.is_empty()),
            "{name}: every finding says why"
        );
    }
}

fn dist(c: &Cluster) -> (migration::Migration, Vec<Finding>) {
    let f = findings::evaluate_all(c);
    (migration::distribution_switch(&ClusterFacts::of(c), &f), f)
}

/// Issue #18: the flux-aio → Flux Operator switch accounts for every controller the
/// FluxInstance asks for.
#[test]
fn flux_aio_switch_counts_the_requested_controllers() {
    // Before: calm — classification and limited visibility only.
    let (m, f) = dist(&load(&store("flux-aio"), &Mode::default()));
    assert!(!m.started);
    assert!(
        f.iter()
            .filter(|x| x.rule.starts_with("MIG-DIST"))
            .all(|x| x.severity == Severity::Info),
        "{f:#?}"
    );
    // FluxInstance created, not applied: D2 blocked; D3 counts 0 of 4 from the operator, and
    // the four are said to be inside flux-aio, not missing.
    let (m, f) = dist(&load(&store("flux-aio-switching"), &Mode::default()));
    assert!(m.started);
    let d3 = m.stages.iter().find(|s| s.id == "D3").unwrap();
    assert_eq!(d3.progress.as_ref().unwrap().0, 0);
    assert_eq!(d3.progress.as_ref().unwrap().1, 4);
    assert_eq!(
        d3.progress.as_ref().unwrap().2,
        "controllers from the operator"
    );
    let inside = f.iter().find(|x| x.rule == "MIG-DIST-04").unwrap();
    assert_eq!(inside.severity, Severity::Info);
    assert!(
        inside
            .evidence
            .iter()
            .all(|e| e.contains("inside flux-aio"))
    );
    assert!(f.iter().any(|x| x.rule == "MIG-DIST-02"));
    // After the takeover, one controller stuck on an image pull: MIG-DIST-04 high, 3 of 4.
    let (m, f) = dist(&load(&store("flux-aio-taken-over"), &Mode::default()));
    let d3 = m.stages.iter().find(|s| s.id == "D3").unwrap();
    assert_eq!(&d3.progress.as_ref().unwrap().0, &3);
    let stuck = f.iter().find(|x| x.rule == "MIG-DIST-04").unwrap();
    assert_eq!(stuck.severity, Severity::High);
    assert!(
        stuck
            .evidence
            .iter()
            .any(|e| e.contains("helm-controller not ready"))
    );
}

/// Issue #19: no string of a snapshot or an export of the credentials scenario carries any of
/// the planted credentials.
#[test]
fn shared_links_and_exports_never_carry_credentials() {
    use fluxlens_core::share::snapshot::{self, SnapshotOptions, SnapshotView};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/credentials");
    let secrets: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("secrets.json")).unwrap()).unwrap();
    assert_eq!(secrets.len(), 5);
    let c = load(&store("credentials"), &Mode::default());
    let leaks = |what: &str, text: &str| {
        for s in &secrets {
            assert!(!text.contains(s.as_str()), "{what} carries {s}");
        }
    };
    // The data really holds them: redaction is what keeps them out.
    let raw = serde_json::to_string(&c.objects().iter().map(|o| &o.raw).collect::<Vec<_>>())
        .unwrap()
        + &serde_json::to_string(&c.report).unwrap();
    assert!(secrets.iter().all(|s| raw.contains(s.as_str())));
    for view in [
        SnapshotView::Overview,
        SnapshotView::Graph,
        SnapshotView::Signatures,
        SnapshotView::Migrations,
        SnapshotView::Compliance,
    ] {
        for drop_messages in [false, true] {
            let snap = snapshot::capture(
                &c,
                SnapshotOptions {
                    view,
                    drop_messages,
                },
            )
            .unwrap();
            assert!(snap.redacted >= 1, "{view:?}: says what it removed");
            let link = snapshot::encode(&snap);
            let back = snapshot::decode(&link).unwrap();
            leaks(
                &format!("{view:?} snapshot"),
                &serde_json::to_string(&back).unwrap(),
            );
            // What the receiving page computes from it is clean too.
            let f = findings::evaluate_all(&back.into_cluster());
            leaks(
                &format!("{view:?} findings"),
                &serde_json::to_string(&f).unwrap(),
            );
        }
    }
    let f = findings::evaluate_all(&c);
    let comps = fluxlens_core::analyses::compliance::components(&c);
    let ent: Vec<Finding> = f
        .iter()
        .filter(|x| x.rule.starts_with("ENT-"))
        .cloned()
        .collect();
    let controls = fluxlens_core::analyses::compliance::scorecard(&ClusterFacts::of(&c), &ent);
    let profile = fluxlens_core::analyses::compliance::Profile::default_for(&c);
    let evidence = fluxlens_core::analyses::compliance::export::Evidence {
        source: fluxlens_core::analyses::compliance::export::DataSource::Snapshot,
        cluster: &c,
        profile: &profile,
        components: &comps,
        controls: &controls,
        findings: &f,
    };
    leaks("JSON evidence", &evidence.to_json());
    leaks("Markdown evidence", &evidence.to_markdown());
    leaks("CSV evidence", &evidence.to_csv());
    let g = fluxlens_core::analyses::graph::Graph::build(&c, Default::default());
    let v = fluxlens_core::analyses::graph::view(&g, &Default::default(), &Default::default());
    let l = fluxlens_core::analyses::graph::layout(&v);
    leaks("SVG", &fluxlens_core::analyses::graph::to_svg(&v, &l));
    leaks("DOT", &fluxlens_core::analyses::graph::to_dot(&v));
}

/// Revision 4: the reconcile-order model on every scenario as served. It holds nothing up on a
/// cluster that reconciles; on `broken` it names the dependsOn cycle; on `frozen` the
/// delivery chain held behind a dependency on a missing root (the live report).
#[test]
fn the_order_model_calls_no_healthy_scenario_deadlocked() {
    for name in crate::snapshot_truth::SCENARIOS {
        let c = load(&store(name), &Mode::default());
        let order = fluxlens_core::analyses::order::live(&c);
        let deadlocks: Vec<String> = of(&findings::evaluate_all(&c), "MIG-GO-15")
            .iter()
            .map(|f| format!("{} {} {}", f.severity.as_str(), f.subject, f.message))
            .collect();
        match name {
            "broken" => {
                assert_eq!(deadlocks.len(), 1, "{deadlocks:#?}");
                assert!(deadlocks[0].starts_with("high Kustomization/apps/backend Kustomization/apps/backend waits for Kustomization/apps/frontend (dependsOn)"), "{deadlocks:#?}");
            }
            "frozen" => {
                assert_eq!(deadlocks.len(), 1, "{deadlocks:#?}");
                assert!(deadlocks[0].starts_with(
                    "critical Kustomization/flux-system/cluster-apps Kustomization/flux-system/cluster-apps waits for \
                     Kustomization/flux-system/cluster-vap (dependsOn), which waits for OCIRepository/flux-system/flux-system, which nothing creates"
                ), "{deadlocks:#?}");
            }
            "hostile" => assert!(deadlocks.is_empty(), "{deadlocks:#?}"),
            _ => {
                assert!(order.safe(), "{name}: {:#?}", order.stuck);
                assert!(deadlocks.is_empty(), "{name}: {deadlocks:#?}");
            }
        }
    }
}

/// #46: migration guidance computed from the state, read as the engineer who acts on it: no
/// command for a step the cluster has passed, no placeholder for a value the cluster holds,
/// the command that fixes the failing stage, one verdict where findings disagree.
#[test]
fn migration_guidance_follows_the_state_of_every_scenario() {
    let migrations = |name: &str| {
        let c = crate::snapshot_truth::live(name);
        let f = findings::evaluate_all(&c);
        (migration::all(&ClusterFacts::of(&c), &f), f)
    };
    let by_id =
        |m: &[migration::Migration], id: &str| m.iter().find(|x| x.id == id).unwrap().clone();
    // broken: the sync already reads OCI and the Git root is gone.
    let (m, _) = migrations("broken");
    let git_oci = by_id(&m, "git-oci");
    assert_eq!(
        git_oci.current().unwrap().id,
        "M4",
        "{:?}",
        git_oci.current()
    );
    assert!(
        git_oci.stages[0].checks[0]
            .label
            .contains("was GitRepository"),
        "{:?}",
        git_oci.stages[0].checks[0].label
    );
    assert!(
        git_oci
            .next_commands
            .iter()
            .all(|c| !c.contains("flux push artifact")),
        "{:?}",
        git_oci.next_commands
    );
    // A stage the cluster is past never reads plain "done" beside a failing check.
    for s in &git_oci.stages {
        let failing = s
            .checks
            .iter()
            .any(|c| c.outcome == fluxlens_core::analyses::outcome::Outcome::Fail);
        if s.state == migration::StageState::Done && failing {
            assert!(
                s.state_label().contains("failing now"),
                "{}: {}",
                s.id,
                s.state_label()
            );
        }
    }
    assert!(
        git_oci
            .stages
            .iter()
            .any(|s| s.state_label().contains("failing now")),
        "broken: the OCI root fails its pull after the switch, so a passed stage's check fails"
    );
    // handover: the OCI URL is known.
    let (m, _) = migrations("handover");
    let cmds = by_id(&m, "git-oci").next_commands.join("\n");
    assert!(
        !cmds.contains("<registry>") && cmds.contains("oci://"),
        "{cmds}"
    );
    // demo: objects stored at an old version are re-stored in the cluster, not by a Git rewrite.
    let (m, _) = migrations("demo");
    let storage = by_id(&m, "storage");
    assert_eq!(storage.current().unwrap().id, "S2");
    assert!(
        storage
            .next_commands
            .iter()
            .all(|c| !c.starts_with("flux migrate -f")),
        "{:?}",
        storage.next_commands
    );
    // flux-aio-switching: a takeover in progress is one verdict (wait), not high beside "nothing to do".
    let (m, f) = migrations("flux-aio-switching");
    let dist02: Vec<&Finding> = f.iter().filter(|x| x.rule == "MIG-DIST-02").collect();
    assert!(
        dist02.iter().all(|x| x.severity == Severity::Info),
        "{dist02:?}"
    );
    assert!(by_id(&m, "distribution").blockers.is_empty());
    // A distribution already on the operator with every stage done is done, not "not started".
    for name in ["handover", "demo"] {
        let (m, _) = migrations(name);
        let d = by_id(&m, "distribution");
        if d.stages.iter().all(|s| {
            s.checks
                .iter()
                .all(|c| c.outcome == fluxlens_core::analyses::outcome::Outcome::Pass)
        }) {
            assert_eq!(d.badge(), "done", "{name}");
        }
    }
}

/// #68: every remedy follows its finding's own evidence. On `broken`, MIG-GO-15's remedy for a
/// plain dependsOn cycle said "Make Kustomization/flux-system/apps exist … an applier the
/// FluxInstance is delivered through must never wait" of an object that exists.
#[test]
fn a_cycles_remedy_breaks_the_cycle_and_never_asks_to_create_what_exists() {
    let s = store("broken");
    let c = load(&s, &Mode::default());
    let findings = fluxlens_core::analyses::findings::evaluate_all(&c);
    let held = of(&findings, "MIG-GO-15");
    assert!(!held.is_empty());
    for f in held {
        if let Some(what) = f.remediation.strip_prefix("Make ") {
            let named = what.split(' ').next().unwrap_or("");
            let key = fluxlens_core::model::ObjectKey::parse(named).unwrap();
            assert!(
                c.get(&key).is_none(),
                "asks to create {named}, which exists: {f:?}"
            );
        }
        if f.message.contains("waits for") && f.evidence.iter().any(|e| e.contains("dependsOn")) {
            let cycle = f
                .evidence
                .iter()
                .filter(|e| e.contains(&f.subject.to_string()))
                .count()
                > 0;
            if cycle {
                assert!(
                    f.remediation.starts_with("Break the cycle"),
                    "{}",
                    f.remediation
                );
            }
        }
    }
}
