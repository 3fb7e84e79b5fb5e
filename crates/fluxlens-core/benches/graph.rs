//! Native benchmark: graph build + view + layout at 200 / 1,000 / 5,000 objects, plus
//! model building and rule evaluation. Prints a Markdown table of medians (11 runs).
//! Run: `cargo bench -p fluxlens-core --bench graph`.

use fluxlens_core::analyses::graph::{
    Graph, GraphFilter, GraphOptions, layout, namespace_group, quality, tenant_groups, view,
    view_grouped,
};
use fluxlens_core::model::{Cluster, CrdAccess, ObjectKey};
use fluxlens_core::wire::{ApiObject, FluxReport};
use std::collections::HashSet;
use std::time::Instant;

const RUNS: usize = 11;

fn median_ms(mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..RUNS)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[RUNS / 2]
}

fn main() {
    println!(
        "| objects | decode + model (ms) | rules (ms) | graph build (ms) | view + grouping (ms) | layout (ms) | build + view + layout (ms) |"
    );
    println!("|---|---|---|---|---|---|---|");
    for n in [200, 1000, 5000] {
        let json = serde_json::to_string(&fluxlens_core::model::synthetic::objects(n)).unwrap();
        let decode = median_ms(|| {
            let objs: Vec<ApiObject> = serde_json::from_str(&json).unwrap();
            std::hint::black_box(Cluster::new(
                FluxReport::default(),
                objs,
                CrdAccess::Unknown,
            ));
        });
        let objs: Vec<ApiObject> = serde_json::from_str(&json).unwrap();
        let c = Cluster::new(FluxReport::default(), objs, CrdAccess::Unknown);
        let rules = median_ms(|| {
            std::hint::black_box(fluxlens_core::analyses::findings::evaluate_all(&c));
        });
        let build = median_ms(|| {
            std::hint::black_box(Graph::build(&c, GraphOptions::default()));
        });
        let g = Graph::build(&c, GraphOptions::default());
        let f = GraphFilter {
            group_threshold: 0,
            flat: true,
            ..Default::default()
        };
        let v_ms = median_ms(|| {
            std::hint::black_box(view(&g, &f, &HashSet::new()));
        });
        let v = view(&g, &f, &HashSet::new());
        let l_ms = median_ms(|| {
            std::hint::black_box(layout(&v));
        });
        let all = median_ms(|| {
            let g = Graph::build(&c, GraphOptions::default());
            let v = view(&g, &f, &HashSet::new());
            std::hint::black_box(layout(&v));
        });
        println!(
            "| {n} | {decode:.2} | {rules:.2} | {build:.2} | {v_ms:.2} | {l_ms:.2} | {all:.2} |"
        );
    }
    layout_quality();
    order_model();
    snapshot_sizes();
}

/// The reconcile-order model (rule catalog revision 4): the live cluster judged by itself, and
/// a change in which every object is changed (each waits for its applier), the worst case.
/// Target: under 50 ms at 5,000 objects.
fn order_model() {
    use fluxlens_core::analyses::order::{self, Input, Mode};
    println!();
    println!("#### Reconcile-order model (target: under 50 ms at 5,000 objects)");
    println!();
    println!("| objects | live (ms) | a change of every object (ms) | waves | never reconcile |");
    println!("|---|---|---|---|---|");
    for n in [200, 1000, 5000] {
        let objs: Vec<ApiObject> = serde_json::from_value(serde_json::Value::Array(
            fluxlens_core::model::synthetic::objects(n),
        ))
        .unwrap();
        let c = Cluster::new(FluxReport::default(), objs, CrdAccess::Unknown);
        let live = median_ms(|| {
            std::hint::black_box(order::live(&c));
        });
        let every: std::collections::BTreeSet<ObjectKey> =
            c.objects().iter().map(|o| o.key.clone()).collect();
        let input = Input {
            mode: Mode::Change,
            before: &c,
            after: &c,
            changed: Some(&every),
            values: None,
        };
        let change = median_ms(|| {
            std::hint::black_box(order::judge(&input));
        });
        let o = order::judge(&input);
        println!(
            "| {n} | {live:.2} | {change:.2} | {} | {} |",
            o.waves.len(),
            o.stuck.len()
        );
    }
}

/// Names the overview group of a graph node.
type Grouping<'a> = dyn Fn(usize) -> ObjectKey + 'a;

/// Layout quality of the default view before (every object, wrapped layers) and after (the
/// namespace overview) on the demo, a real-sized homelab and synthetic clusters.
fn layout_quality() {
    println!("#### Layout quality of the default graph view");
    println!(
        "| cluster | view | nodes drawn | edges drawn | crossing pairs | edges over a box they do not connect | total edge length (px) | view + layout (ms) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let scenario = |name: &str| -> Vec<ApiObject> {
        let p = format!(
            "{}/../../scenarios/{name}/objects.json",
            env!("CARGO_MANIFEST_DIR")
        );
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    let synthetic = |n: usize| -> Vec<ApiObject> {
        serde_json::from_value(serde_json::Value::Array(
            fluxlens_core::model::synthetic::objects(n),
        ))
        .unwrap()
    };
    for (label, objs) in [
        ("demo (190)", scenario("demo")),
        ("homelab (210)", scenario("homelab")),
        ("synthetic 1,000", synthetic(1000)),
        ("synthetic 5,000", synthetic(5000)),
    ] {
        let c = Cluster::new(FluxReport::default(), objs, CrdAccess::Unknown);
        let g = Graph::build(&c, GraphOptions::default());
        let tenants = tenant_groups(&c, &g);
        let by_namespace = |i: usize| namespace_group(&g.nodes[i].id.namespace);
        let by_tenant = |i: usize| tenants[i].clone();
        let flat = GraphFilter {
            flat: true,
            ..Default::default()
        };
        let overview = GraphFilter::default();
        let rows: [(&str, &GraphFilter, &Grouping); 3] = [
            ("every object (before)", &flat, &by_namespace),
            ("namespace overview (default now)", &overview, &by_namespace),
            ("root source → tenant overview", &overview, &by_tenant),
        ];
        for (name, f, group) in rows {
            let v = view_grouped(&g, f, &HashSet::new(), group);
            let l = layout(&v);
            let q = quality(&l, &v);
            let ms = median_ms(|| {
                let v = view_grouped(&g, f, &HashSet::new(), group);
                std::hint::black_box(layout(&v));
            });
            println!(
                "| {label} | {name} | {} | {} | {} | {} | {:.0} | {ms:.2} |",
                v.nodes.len(),
                q.edges,
                q.crossings,
                q.over_boxes,
                q.length
            );
        }
    }
}

/// Snapshot link sizes (#46: the README promises a 200-object cluster in under 8 KB). Bytes of
/// the whole link fragment (`fl1.` + base64url), with and without messages. The scenarios'
/// digests repeat; a real cluster's are unique, so a row gives every sha256 its own value.
fn snapshot_sizes() {
    use fluxlens_core::share::snapshot::{self, SnapshotOptions, SnapshotView};
    println!(
        "#### Snapshot link size (bytes of the link's fragment; the promise: under 8,192 at 200 objects)"
    );
    println!("| cluster | objects | link | link, messages dropped |");
    println!("|---|---|---|---|");
    let read = |name: &str, file: &str| -> String {
        let p = format!(
            "{}/../../scenarios/{name}/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(p).unwrap()
    };
    // Each object's digests its own (a source's revision and the message quoting it agree).
    let unique_digests = |json: String| -> String {
        let objects: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap();
        let objects: Vec<serde_json::Value> = objects
            .into_iter()
            .enumerate()
            .map(|(i, o)| serde_json::from_str(&per_object_digests(&o.to_string(), i)).unwrap())
            .collect();
        serde_json::to_string(&objects).unwrap()
    };
    let rows: [(&str, &str, bool); 4] = [
        ("demo", "demo", false),
        ("homelab", "homelab", false),
        ("homelab, every digest unique", "homelab", true),
        ("multitenant", "multitenant", false),
    ];
    for (label, name, unique) in rows {
        let objects = read(name, "objects.json");
        let objects = if unique {
            unique_digests(objects)
        } else {
            objects
        };
        let objs: Vec<ApiObject> = serde_json::from_str(&objects).unwrap();
        let report: FluxReport = serde_json::from_str(&read(name, "report.json")).unwrap();
        let c = Cluster::new(report, objs, CrdAccess::Unknown);
        let size = |drop_messages| {
            let opts = SnapshotOptions {
                view: SnapshotView::Overview,
                drop_messages,
            };
            snapshot::encode(&snapshot::capture(&c, opts).unwrap()).len()
        };
        println!(
            "| {label} | {} | {} | {} |",
            c.objects().len(),
            size(false),
            size(true)
        );
    }
}

/// `text` with every sha256 digest replaced by one derived from it and `salt`.
fn per_object_digests(text: &str, salt: usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("sha256:") {
        out.push_str(&rest[..i + 7]);
        let after = &rest[i + 7..];
        let hex = after
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(after.len());
        let mut x = after[..hex]
            .bytes()
            .fold(salt as u64 + 1, |h, b| {
                h.wrapping_mul(31).wrapping_add(b as u64)
            })
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            | 1;
        for _ in 0..hex {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            out.push(char::from_digit((x % 16) as u32, 16).unwrap());
        }
        rest = &after[hex..];
    }
    out.push_str(rest);
    out
}
