//! #30: a snapshot is the evidence that leaves the cluster, so it may never be less true than
//! the page. Every scenario is loaded the way the app loads it (report, list, batches, CRDs,
//! confirming read, the FluxInstance's events), a snapshot is taken from each view, with and
//! without messages, and every view opened from it must show what the live views show.

use crate::faults::Mode;
use crate::store::Store;
use fluxlens_core::analyses::carried::{self, Verdicts};
use fluxlens_core::analyses::compliance::{self, Profile};
use fluxlens_core::analyses::facts::cluster::ClusterFacts;
use fluxlens_core::analyses::findings::{self, Severity};
use fluxlens_core::analyses::graph::{EdgeKind, Graph, GraphOptions};
use fluxlens_core::analyses::signatures;
use fluxlens_core::load;
use fluxlens_core::model::{Cluster, ObjectKey};
use fluxlens_core::share::snapshot::Opened;
use fluxlens_core::share::snapshot::{self, SnapshotOptions, SnapshotView};
use fluxlens_core::wire::InventoryObjectsResponse;
use fluxlens_core::wire::status::Status;
use std::path::Path;

pub(crate) const SCENARIOS: [&str; 17] = [
    "broken",
    "credentials",
    "demo",
    "enterprise-fips",
    "flux-aio",
    "flux-aio-switching",
    "flux-aio-taken-over",
    "frozen",
    "handover",
    "helm-storage",
    "homelab",
    "homelab-large",
    "hostile",
    "multitenant",
    "operator-mock",
    "staged",
    "upstream-bootstrap",
];

const VIEWS: [SnapshotView; 5] = [
    SnapshotView::Overview,
    SnapshotView::Graph,
    SnapshotView::Signatures,
    SnapshotView::Migrations,
    SnapshotView::Compliance,
];

/// The live load, as `truth::load` plus what it leaves out: CRDs and the instance's events.
pub(crate) fn live(name: &str) -> Cluster {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(name);
    let s = Store::from_dir(&dir).unwrap();
    let mode = Mode::default();
    let mut c = crate::truth::load(&s, &mode);
    if let Some(req) = load::crd_request(&c.report) {
        let items = serde_json::to_value(&req.objects).unwrap();
        let r: InventoryObjectsResponse = serde_json::from_value(s.inventory_objects(
            &mode,
            items.as_array().unwrap(),
            req.status_only,
            false,
        ))
        .unwrap();
        c.crds = load::crd_access(r.objects);
    }
    let instance = c
        .objects()
        .iter()
        .find(|o| o.key.kind.as_str() == "FluxInstance")
        .map(|o| o.key.clone());
    if let Some(k) = instance {
        let e = s.events(
            &mode,
            Some("FluxInstance"),
            &k.name,
            Some(k.namespace.as_str()),
            None,
        );
        c.instance_events = serde_json::from_value(e["events"].clone()).unwrap_or_default();
    }
    c
}

/// One profile's scorecard: each control's rule and pass/fail/unknown.
type Scorecard = (String, Vec<(String, &'static str)>);

/// What a person reads on each view, compared as data.
#[derive(Debug, PartialEq)]
struct Shown {
    findings: Vec<(String, Severity, ObjectKey)>,
    postures: Vec<(ObjectKey, String, String)>,
    signatures: String,
    migrations: Vec<(String, Vec<String>, Vec<String>)>,
    /// The scorecard under each profile the compliance view offers.
    controls: Vec<Scorecard>,
    nodes: Vec<(ObjectKey, Status)>,
    edges: Vec<(ObjectKey, ObjectKey, EdgeKind)>,
}

fn shown(c: &Cluster, v: Option<&Verdicts>) -> Shown {
    let per_object = carried::per_object(&ClusterFacts::of(c), v);
    let aggregated = findings::aggregate(&per_object);
    let graph = Graph::build(c, GraphOptions::default());
    let postures = signatures::postures(c, &graph, &per_object);
    let controls = ["upstream", "enterprise", "fips"]
        .into_iter()
        .map(|p| {
            let profile = Profile::from_query(&format!("profile={p}"), c);
            let f = carried::compliance_findings(c, &profile, v);
            let card = compliance::scorecard(&ClusterFacts::of(c), &f);
            let card = card
                .iter()
                .map(|x| (x.rule.to_string(), x.outcome.as_str()))
                .collect();
            (p.to_string(), card)
        })
        .collect();
    Shown {
        findings: aggregated
            .iter()
            .map(|f| (f.rule.clone(), f.severity, f.subject.clone()))
            .collect(),
        signatures: format!("{:?}", signatures::summary(&postures)),
        postures: postures
            .iter()
            .map(|p| {
                let verification = format!("{:?}", p.verification);
                (p.key.clone(), format!("{:?}", p.verifiable), verification)
            })
            .collect(),
        migrations: fluxlens_core::analyses::migration::all(&ClusterFacts::of(c), &per_object)
            .iter()
            .map(|m| {
                let stages = m
                    .stages
                    .iter()
                    .map(|s| format!("{} {:?} {:?}", s.id, s.state, s.progress))
                    .collect();
                let blockers = m.blockers.iter().map(|b| b.rule.clone()).collect();
                (m.id.to_string(), stages, blockers)
            })
            .collect(),
        controls,
        nodes: graph
            .nodes
            .iter()
            .map(|n| (n.id.clone(), n.status))
            .collect(),
        edges: graph
            .edges
            .iter()
            .map(|e| {
                let id = |i: u32| graph.nodes[i as usize].id.clone();
                (id(e.from), id(e.to), e.kind)
            })
            .collect(),
    }
}

fn reopened(c: &Cluster, view: SnapshotView, drop_messages: bool) -> Opened {
    let opts = SnapshotOptions {
        view,
        drop_messages,
    };
    let link = snapshot::encode(&snapshot::capture(c, opts).unwrap());
    snapshot::decode(&link).unwrap().open()
}

#[test]
fn every_view_of_every_snapshot_shows_what_the_live_views_show() {
    let mut wrong = Vec::new();
    for name in SCENARIOS {
        let c = live(name);
        let want = shown(&c, None);
        for view in VIEWS {
            for drop_messages in [false, true] {
                let o = reopened(&c, view, drop_messages);
                let got = shown(&o.cluster, o.verdicts.as_ref());
                let at = format!("{name}, snapshot from {view:?}, drop messages {drop_messages}");
                let differs = [
                    ("findings", got.findings != want.findings),
                    ("signatures", got.postures != want.postures),
                    ("summary", got.signatures != want.signatures),
                    ("migrations", got.migrations != want.migrations),
                    ("compliance", got.controls != want.controls),
                    ("graph nodes", got.nodes != want.nodes),
                    ("graph edges", got.edges != want.edges),
                ];
                for (what, _) in differs.iter().filter(|(_, d)| *d) {
                    wrong.push(format!("{at}: {what}"));
                }
                if got != want && std::env::var("SNAPSHOT_TRUTH_DIFF").is_ok() {
                    eprintln!("{at}\n got {got:?}\nwant {want:?}");
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} differences:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn the_scenario_list_is_every_scenario() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut on_disk: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        // A fleet (`fleet.json`) is made of the clusters listed here, not a cluster itself.
        .filter(|e| !e.path().join("fleet.json").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    assert_eq!(on_disk, SCENARIOS);
    // And the README names every one a newcomer can run (#30: it omitted four).
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    let start = readme.find("Other scenarios:").unwrap();
    let list = &readme[start..start + readme[start..].find("\n\n").unwrap()];
    for s in SCENARIOS.iter().filter(|s| **s != "demo") {
        assert!(
            list.contains(&format!("`{s}`")) || list.contains(&format!("={s} ")),
            "README omits {s}"
        );
    }
}

/// "Drop messages" keeps its promise although the carried findings quote messages: no
/// condition, reconciler or event message of the live load is anywhere in the snapshot.
#[test]
fn dropped_messages_are_nowhere_in_the_snapshot() {
    for name in SCENARIOS {
        let c = live(name);
        let opts = SnapshotOptions {
            view: SnapshotView::Overview,
            drop_messages: true,
        };
        let snap = snapshot::capture(&c, opts).unwrap();
        let text = serde_json::to_string(&snap).unwrap();
        let conditions = c.objects().iter().flat_map(|o| {
            let st = &o.raw.status;
            let rr = st.reconciler_ref.iter().filter_map(|r| r.message.clone());
            st.conditions
                .iter()
                .filter_map(|x| x.message.clone())
                .chain(rr)
        });
        let events = c.instance_events.iter().map(|e| e.message.clone());
        let sync = c.report.spec.sync.iter().filter_map(|s| s.status.clone());
        let events = events.chain(sync);
        // Short ones ("ok", "Ready") are also words of fluxlens' own text.
        for m in conditions.chain(events).filter(|m| m.len() >= 24) {
            assert!(
                !text.contains(&m),
                "{name}: the snapshot still carries {m:?}"
            );
        }
        assert!(
            snap.verdicts.is_some(),
            "{name}: carries the sender's findings"
        );
    }
}

/// #30: "blank reasons on compliance findings". Every finding on every scenario — each view's
/// and each compliance profile's — says why it has its severity and what to do.
#[test]
fn every_finding_says_why_and_what_to_do() {
    for name in SCENARIOS {
        let c = live(name);
        let mut all = findings::evaluate_all(&c);
        for p in ["upstream", "enterprise", "fips"] {
            let profile = Profile::from_query(&format!("profile={p}&minop=v9.0.0"), &c);
            all.extend(compliance::findings(&ClusterFacts::of(&c), &profile));
        }
        for f in all {
            let at = format!("{name}: {} on {}", f.rule, f.subject);
            assert!(!f.reason.trim().is_empty(), "{at}: no reason");
            assert!(!f.message.trim().is_empty(), "{at}: no message");
            assert!(!f.remediation.trim().is_empty(), "{at}: no remediation");
        }
    }
}

/// #46: the README promises a ~200-object cluster's link in under 8 KB, and dropping messages
/// must not make it larger (it carried every finding whole). `make bench` has the table.
#[test]
fn links_of_about_200_objects_fit_in_8_kb_with_or_without_messages() {
    for name in ["demo", "homelab"] {
        let c = live(name);
        assert!(c.objects().len() >= 180, "{name}: {}", c.objects().len());
        let size = |drop_messages| {
            let opts = SnapshotOptions {
                view: SnapshotView::Overview,
                drop_messages,
            };
            snapshot::encode(&snapshot::capture(&c, opts).unwrap()).len()
        };
        let (plain, dropped) = (size(false), size(true));
        assert!(plain < 8192, "{name}: {plain} bytes");
        assert!(dropped < 8192, "{name} without messages: {dropped} bytes");
        assert!(
            dropped * 10 <= plain * 11,
            "{name}: {dropped} without messages, {plain} with"
        );
    }
}
