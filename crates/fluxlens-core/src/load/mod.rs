//! Load planning, pure so it is tested natively: which requests assemble the whole cluster
//! in `3 + ⌈N/BATCH_SIZE⌉` calls (report, summaries, object batches, CRDs) plus one read that
//! confirms candidate-missing keys, how to tell a kind whose list is incomplete, and which
//! objects a poll must refetch.

pub mod answers;
pub mod poll;
pub mod prefetched;

use crate::model::{Answer, Cluster, CrdAccess, ObjectKey};
use crate::wire::inventory::{InventoryObjectsRequest, ObjectRef, ObjectResult};
use crate::wire::kind::Kind;
use crate::wire::object::ApiObject;
use crate::wire::report::FluxReport;
use crate::wire::resources::ResourceSummary;
use std::collections::{BTreeMap, HashMap};

/// The server returns at most this many summary rows: per kind when it lists live, in total
/// when `search.cached` serves the list from its index (FO internal/web/search_index.go).
pub const LIST_CAP: usize = 2500;

/// Objects per batch read. The server works through a batch with 4 workers inside a 60 s
/// write timeout; 500 items leave a wide margin even at ~100 ms per impersonated GET
/// (500 / 4 × 0.1 s = 12.5 s), where the server's own cap of 2,000 would not.
pub const BATCH_SIZE: usize = 500;

/// Object batches in flight at once, the app's and the page script's alike: the server writes
/// each answer within its write timeout, so batches go a few at a time, not all at once.
pub const BATCHES_IN_FLIGHT: usize = 2;

/// How long any one read may take before it is given up (the app's and the page script's).
pub const REQUEST_TIMEOUT_SECONDS: u32 = 30;

/// The verdicts' roots (every FluxInstance and the root source) are read again in full once in
/// this many polls, whatever the cluster's size; so is everything else on a cluster of up to
/// `REREAD_POLLS × REREAD_MAX` objects.
pub const REREAD_POLLS: u32 = 10;

/// At most this many objects besides the roots and those whose row changed are read again a
/// poll: a large cluster's cycle is longer instead of each poll heavier (#23: at 5,000 objects
/// the browser's own work receiving 400 full objects a poll was most of the page's budget).
/// A change made through Git does not wait for the cycle: the objects of an applier whose row
/// changed are read again at once ([`applied_by`]).
pub const REREAD_MAX: usize = 100;

/// The rows a poll reads again in full although their summary did not change (indices into
/// the rows), in two groups whose make-up repeats with their cycles, so an unchanged answer to
/// the same request can be recognised.
#[derive(Debug, Default, PartialEq)]
pub struct Reread {
    /// FluxInstances and the root sources: every [`REREAD_POLLS`] polls.
    pub roots: Vec<usize>,
    /// The rest: on a cycle long enough to stay within [`REREAD_MAX`] a poll.
    pub rest: Vec<usize>,
}

/// Which rows poll `poll` reads again (see [`Reread`]); `roots`: the root sources as the last
/// cluster named them.
pub fn rolling_reread(rows: &[ResourceSummary], poll: u32, roots: &[ObjectKey]) -> Reread {
    let is_root = |r: &ResourceSummary| {
        r.kind == "FluxInstance"
            || roots.iter().any(|k| {
                k.kind.as_str() == r.kind && k.namespace == r.namespace && k.name == r.name
            })
    };
    let rest = rows.iter().filter(|r| !is_root(r)).count();
    let rest_cycle = (REREAD_POLLS as usize).max(rest.div_ceil(REREAD_MAX)) as u32;
    let (mut nth_root, mut nth_rest) = (0u32, 0u32);
    let mut out = Reread::default();
    // Positions in the objects' own order, not the list's: the server orders rows by their last
    // reconcile, which moves every poll, so a cycle by list position skipped some rows and read
    // others twice (#47).
    // Compared borrowed: this runs every poll over every row, so no key is built.
    fn ident(r: &ResourceSummary) -> (&str, &str, &str) {
        (&r.kind, &r.namespace, &r.name)
    }
    let mut order: Vec<usize> = (0..rows.len()).collect();
    crate::util::sort::by(&mut order, |&a, &b| ident(&rows[a]).cmp(&ident(&rows[b])));
    for i in order {
        let r = &rows[i];
        if is_root(r) {
            nth_root += 1;
            if (nth_root - 1) % REREAD_POLLS == poll % REREAD_POLLS {
                out.roots.push(i);
            }
        } else {
            nth_rest += 1;
            if (nth_rest - 1) % rest_cycle == poll % rest_cycle {
                out.rest.push(i);
            }
        }
    }
    out
}

/// The objects applied by any of `appliers`, read from what is kept: by the server's
/// `reconcilerRef.managedBy` and by each applier's inventory. A GitOps change moves its
/// applier's row (a new revision applied), while the objects it changed may keep theirs (a
/// `spec.verify` removed leaves a source's message as it was), so these are read again with it.
pub fn applied_by(
    objects: &HashMap<ObjectKey, std::sync::Arc<ApiObject>>,
    appliers: &[ObjectKey],
) -> Vec<ObjectKey> {
    if appliers.is_empty() {
        return Vec::new();
    }
    let wanted: std::collections::HashSet<String> =
        appliers.iter().map(ObjectKey::to_string).collect();
    let mut out: std::collections::BTreeSet<ObjectKey> = objects
        .iter()
        .filter(|(_, o)| {
            o.status
                .reconciler_ref
                .as_ref()
                .and_then(|r| r.managed_by.as_ref())
                .is_some_and(|m| wanted.contains(m))
        })
        .map(|(k, _)| k.clone())
        .collect();
    for applier in appliers {
        let Some(o) = objects.get(applier) else {
            continue;
        };
        for e in o.status.inventory_entries() {
            let key = ObjectKey::new(Kind::parse(&e.kind), e.namespace, e.name);
            if objects.contains_key(&key) {
                out.insert(key);
            }
        }
    }
    out.into_iter().collect()
}

/// The kinds `GET /api/v1/resources` and `GET /api/v1/events` list when no `kind` is given
/// (resources.go `GetResourcesStatus`, events.go `GetEvents`: appliers and sources), to which
/// both add FluxInstance for a cluster-wide user.
pub const LISTED_BY_DEFAULT: [&str; 10] = [
    "ResourceSet",
    "Kustomization",
    "HelmRelease",
    "GitRepository",
    "OCIRepository",
    "HelmChart",
    "HelmRepository",
    "Bucket",
    "ArtifactGenerator",
    "ResourceSetInputProvider",
];

/// The constants the page's prefetch script (`src/api/prefetch.js`) plans the first load with,
/// as the one line of JavaScript that declares them: written into the script by `make generate`
/// (a test fails when the script's line is not this one), never copied by hand.
pub fn script_constants() -> String {
    let mut listed: Vec<&str> = LISTED_BY_DEFAULT.to_vec();
    listed.extend(["FluxInstance", "FluxReport"]);
    let (a, b, c) = crate::wire::server::DEFAULT_LIST_EVERY_KIND_SINCE;
    let v = serde_json::json!({
        "listed": listed,
        "batchSize": BATCH_SIZE,
        "inFlight": BATCHES_IN_FLIGHT,
        "timeoutMs": REQUEST_TIMEOUT_SECONDS * 1000,
        "everyKindSince": [a, b, c],
    });
    format!("  var CORE = {v};")
}

/// Whether a list without `kind` includes `kind` (see [`LISTED_BY_DEFAULT`]).
pub fn listed_by_default(kind: &str, cluster_wide: bool) -> bool {
    LISTED_BY_DEFAULT.contains(&kind) || (cluster_wide && kind == "FluxInstance")
}

/// Kinds the report counts that the default list does not return, listed by kind: none from
/// an operator of v0.53 or later (its default list holds every kind, [`crate::wire::server`]); from
/// an older one Alerts, Providers, Receivers, image kinds and ExternalArtifacts.
pub fn kinds_listed_alone(report: &FluxReport) -> Vec<String> {
    if crate::wire::server::default_list_has_every_kind(report) {
        return Vec::new();
    }
    report
        .spec
        .reconcilers
        .iter()
        .filter(|r| r.stats.total() > 0)
        .map(|r| r.kind.clone())
        // FluxInstance is counted as listed: for a user who is not cluster-wide its short
        // count goes the way of any incomplete kind.
        .filter(|k| !listed_by_default(k, true) && k != "FluxReport")
        .collect()
}

/// The rows of the default list and of the lists by kind as one, each object once (first
/// seen wins): an object listed twice counted twice, and a kind over the cap looked complete.
pub fn merge_rows(lists: &[&[ResourceSummary]]) -> Vec<ResourceSummary> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(lists.iter().map(|l| l.len()).sum());
    for row in lists.iter().flat_map(|l| l.iter()) {
        if seen.insert(summary_key(row)) {
            out.push(row.clone());
        }
    }
    out
}

/// Kinds whose list may be missing rows, each with the reason shown to the user (§0.2). The
/// list is the server's answer now while the report's counts are up to 20 s old (FO report.go
/// `refreshReportCache` on its ticker), so a count above the rows is not enough: the server
/// lists a kind whole or not at all (resources.go `GetLiveResources`: a List that fails drops
/// the kind; a restricted user's first Forbidden too), and cuts it only at its caps. A kind
/// counted but absent, a kind at the per-kind cap, and every short kind of a list at the
/// total cap (`search.cached`: the index's rows and counts are one computation) may be
/// missing rows; a kind with fewer rows than counted is otherwise whole, and short only by
/// the counts' lag.
pub fn incomplete_kinds(report: &FluxReport, rows: &[ResourceSummary]) -> Vec<(String, String)> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for r in rows {
        *counts.entry(r.kind.as_str()).or_default() += 1;
    }
    let total_cap = rows.len() >= LIST_CAP;
    let mut out = Vec::new();
    for r in &report.spec.reconcilers {
        let expected = r.stats.total() as usize;
        let got = counts.get(r.kind.as_str()).copied().unwrap_or(0);
        if got >= expected || (got > 0 && got < LIST_CAP && !total_cap) {
            continue;
        }
        let why = if got >= LIST_CAP {
            format!("listed {got} of {expected}: the server caps one kind at {LIST_CAP} rows")
        } else if total_cap {
            format!(
                "listed {got} of {expected}: the server returned {} rows in total, its cap for the whole list",
                rows.len()
            )
        } else {
            format!(
                "none of the {expected} the report counts were listed: a List the server could not run is left out without an error"
            )
        };
        out.push((r.kind.clone(), why));
    }
    out
}

/// The namespaces to list a capped kind in again: all of the report's on a sweep (or before
/// the kind was ever listed by namespace), else only those that held its rows last time, so a
/// kind of 5,000 rows in 12 of 400 namespaces costs 12 requests, not 400.
pub fn relist_namespaces(
    report: &FluxReport,
    held: Option<&[ResourceSummary]>,
    sweep: bool,
) -> Vec<String> {
    match held.filter(|_| !sweep) {
        Some(rows) => {
            let mut ns: Vec<String> = rows
                .iter()
                .map(|r| r.namespace.clone())
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            ns.retain(|n| report.spec.namespaces.is_empty() || report.spec.namespaces.contains(n));
            ns
        }
        None => report.spec.namespaces.clone(),
    }
}

/// HelmReleases whose owned objects only `GET /api/v1/resource` can tell: no
/// `status.inventory` (Flux ≤ 2.7 keeps it in the Helm storage Secret, which the single-object
/// GET decodes — inventory.go `getInventory`), a release in history, a storage namespace, and
/// not a remote cluster's. At most `cap`, in a stable order.
pub fn helm_storage_candidates<'a>(
    objects: impl Iterator<Item = &'a ApiObject>,
    cap: usize,
) -> Vec<ObjectKey> {
    let mut keys: Vec<ObjectKey> = objects
        .filter(|o| o.kind.as_deref() == Some("HelmRelease"))
        .filter(|o| o.status.inventory_entries().is_empty() && o.status.inventory_error.is_none())
        .filter(|o| o.spec.kube_config.is_none())
        .filter(|o| !o.status.history.is_empty())
        .filter(|o| {
            o.status
                .storage_namespace
                .as_deref()
                .is_some_and(|n| !n.is_empty())
        })
        .map(|o| {
            ObjectKey::new(
                Kind::HelmRelease,
                o.metadata.namespace.clone(),
                o.metadata.name.clone(),
            )
        })
        .collect();
    crate::util::sort::natural(&mut keys);
    keys.truncate(cap);
    keys
}

/// The HelmReleases to read from Helm storage on this poll, of `candidates`: those never read
/// first, then the longest since read (`read_at`: the poll each was last read at); at most
/// `cap`. The same 50 were read forever, and a cluster with more never got the rest (#47).
pub fn helm_storage_due(
    candidates: &[ObjectKey],
    read_at: &std::collections::HashMap<ObjectKey, u32>,
    cap: usize,
) -> Vec<ObjectKey> {
    let mut due: Vec<(Option<u32>, &ObjectKey)> = candidates
        .iter()
        .map(|k| (read_at.get(k).copied(), k))
        .collect();
    // Never read (None) sorts first; a stable sort keeps the candidates' natural order.
    crate::util::sort::by(&mut due, |a, b| a.0.cmp(&b.0));
    due.into_iter().take(cap).map(|(_, k)| k.clone()).collect()
}

/// Lends a HelmRelease the inventory the single-object GET read from Helm storage, unless it
/// now carries its own (the object is fetched again, the lent one stays in the loader's cache).
pub fn with_helm_inventory(
    mut o: std::sync::Arc<ApiObject>,
    read: Option<&crate::wire::object::InventoryWire>,
) -> std::sync::Arc<ApiObject> {
    if let Some(inv) = read
        && o.status.inventory_entries().is_empty()
    {
        // The loader's copy stays as read; the model's gets the lent inventory.
        std::sync::Arc::make_mut(&mut o).status.inventory = Some(inv.clone());
    }
    o
}

/// Why nothing can be called missing at all: a report without counts. Without namespaces too
/// it is the server's placeholder while it starts (or when it cannot list the user's
/// namespaces); with namespaces it is a half-computed report, which the server caches when its
/// computation failed part-way (report.go `refreshReportCache`; in `search.cached` mode the
/// index then holds nothing either). After a good load both are a degraded server, not an
/// empty cluster: the last data stays, stale.
pub fn partial_load(report: &FluxReport) -> Option<String> {
    if !report.spec.reconcilers.is_empty() {
        return None;
    }
    Some(if report.spec.namespaces.is_empty() {
        "the report is not initialised yet (no namespaces, no counts): nothing is called missing until it is".into()
    } else {
        "the report has no counts (the server keeps a half-computed report when its computation fails part-way): nothing is called missing until it has".into()
    })
}

/// The apiVersion to request a kind at: the report's (the CRD's stored version), else the default.
pub fn api_version_for(report: &FluxReport, kind: &str) -> String {
    report
        .stats_for(kind)
        .map(|r| r.api_version.clone())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| Kind::parse(kind).default_api_version().to_string())
}

/// Splits summaries into `POST /api/v1/inventory/objects` bodies of `BATCH_SIZE` items.
pub fn object_batches(
    report: &FluxReport,
    summaries: &[ResourceSummary],
) -> Vec<InventoryObjectsRequest> {
    let mut seen = std::collections::HashSet::new();
    let refs: Vec<ObjectRef> = summaries
        .iter()
        .filter(|s| !s.name.is_empty() && !s.kind.is_empty())
        .filter(|s| seen.insert((s.kind.clone(), s.namespace.clone(), s.name.clone())))
        .map(|s| ObjectRef {
            api_version: api_version_for(report, &s.kind),
            kind: s.kind.clone(),
            namespace: s.namespace.clone(),
            name: s.name.clone(),
        })
        .collect();
    refs.chunks(BATCH_SIZE)
        .map(|c| InventoryObjectsRequest {
            objects: c.to_vec(),
            status_only: false,
        })
        .collect()
}

/// The batches that read `keys` by key: a declared object the lists lack is asked for before
/// drift calls it absent (the drift view's reads and `flux lens drift`'s).
pub fn key_batches(report: &FluxReport, keys: &[ObjectKey]) -> Vec<InventoryObjectsRequest> {
    let rows: Vec<ResourceSummary> = keys.iter().map(poll::row_of).collect();
    object_batches(report, &rows)
}

/// What one batch answer says of each object it names.
pub fn answers_by_key(
    answer: crate::wire::inventory::InventoryObjectsResponse,
) -> impl Iterator<Item = (ObjectKey, Answer)> {
    answer.objects.into_iter().map(|item| {
        let said = Answer::from_item(item.error.as_deref(), item.status.as_deref());
        let key = ObjectKey::new(Kind::parse(&item.kind), item.namespace, item.name);
        (key, said)
    })
}

/// The request for the Flux CRDs of the kinds the report lists (storage versions).
pub fn crd_request(report: &FluxReport) -> Option<InventoryObjectsRequest> {
    let objects: Vec<ObjectRef> = report
        .spec
        .reconcilers
        .iter()
        .filter_map(|r| Kind::parse(&r.kind).crd_name())
        .map(|name| ObjectRef {
            api_version: "apiextensions.k8s.io/v1".into(),
            kind: "CustomResourceDefinition".into(),
            namespace: String::new(),
            name,
        })
        .collect();
    (!objects.is_empty()).then_some(InventoryObjectsRequest {
        objects,
        status_only: false,
    })
}

/// Separates fetched objects from the ones the server could not return.
pub fn split_results(results: Vec<ObjectResult>) -> (Vec<ApiObject>, Vec<(ObjectKey, String)>) {
    let mut objects = Vec::with_capacity(results.len());
    let mut failed = Vec::new();
    for r in results {
        match (r.object, r.error) {
            (Some(mut o), None) => {
                // The item header is authoritative for identity when the manifest lacks it.
                if o.kind.as_deref().is_none_or(str::is_empty) {
                    o.kind = Some(r.kind.clone());
                }
                if o.metadata.name.is_empty() {
                    o.metadata.name = r.name.clone();
                    o.metadata.namespace = r.namespace.clone();
                }
                served_status(&mut o, r.status, r.status_message);
                objects.push(o);
            }
            (_, err) => failed.push((
                ObjectKey::new(Kind::parse(&r.kind), r.namespace, r.name),
                err.unwrap_or_else(|| "no object returned".into()),
            )),
        }
    }
    (objects, failed)
}

/// Whether an object the server could not return is asked again on the next poll: a transient
/// failure (`Error`, no answer) is; a definitive one (`Forbidden`, `NotFound`, inventory_objects.go
/// `GetInventoryObjects`) waits for its row to change or the periodic renewal — a restricted
/// user's Forbidden objects were asked again every poll (#47).
pub fn retry_each_poll(reason: &str) -> bool {
    !matches!(reason, "Forbidden" | "NotFound")
}

/// The item's `status`/`statusMessage` is the server's own verdict (inventory_objects.go
/// `GetInventoryObjects` computes it with reporter `NewResourceStatus`, as the single-object GET
/// does for `reconcilerRef`): used as that, so the model derives only when it is absent.
fn served_status(o: &mut ApiObject, status: Option<String>, message: Option<String>) {
    let Some(status) = status.filter(|s| !s.is_empty()) else {
        return;
    };
    let r = o.status.reconciler_ref.get_or_insert_with(Default::default);
    if r.status.as_deref().is_none_or(str::is_empty) {
        r.status = Some(status);
        r.message = message;
    }
}

/// Interprets the CRD answer: all `Forbidden` → no access; any object → known.
pub fn crd_access(results: Vec<ObjectResult>) -> CrdAccess {
    if results.is_empty() {
        return CrdAccess::Unknown;
    }
    let forbidden = results
        .iter()
        .all(|r| r.error.as_deref() == Some("Forbidden"));
    let (objects, _) = split_results(results);
    match (objects.is_empty(), forbidden) {
        (_, true) => CrdAccess::Forbidden,
        (true, false) => CrdAccess::Unknown,
        (false, false) => CrdAccess::Known(objects),
    }
}

/// References the confirming read asks about at most (four batches): a cluster with more
/// candidate-missing references than this has a problem the first ones already show.
pub const CONFIRM_CAP: usize = 4 * BATCH_SIZE;

/// The confirming read for every candidate-missing key (§0.2), in batches of `BATCH_SIZE`,
/// and the keys beyond [`CONFIRM_CAP`] that stay "not confirmed".
pub fn confirm_requests(cluster: &Cluster) -> (Vec<InventoryObjectsRequest>, Vec<ObjectKey>) {
    let candidates = cluster.candidate_missing();
    let beyond: Vec<ObjectKey> = candidates
        .iter()
        .skip(CONFIRM_CAP)
        .map(|(k, _)| k.clone())
        .collect();
    let refs: Vec<ObjectRef> = candidates
        .into_iter()
        .take(CONFIRM_CAP)
        .map(|(k, api)| ObjectRef {
            api_version: api.unwrap_or_else(|| api_version_for(&cluster.report, k.kind.as_str())),
            kind: k.kind.as_str().to_string(),
            namespace: k.namespace,
            name: k.name,
        })
        .collect();
    let batches = refs
        .chunks(BATCH_SIZE)
        .map(|c| InventoryObjectsRequest {
            objects: c.to_vec(),
            status_only: true,
        })
        .collect();
    (batches, beyond)
}

/// The keys a request asked about.
pub fn requested_keys(req: &InventoryObjectsRequest) -> Vec<ObjectKey> {
    req.objects
        .iter()
        .map(|o| ObjectKey::new(Kind::parse(&o.kind), o.namespace.clone(), o.name.clone()))
        .collect()
}

/// The server's answers to a confirming read, by key.
pub fn confirmations(results: &[ObjectResult]) -> Vec<(ObjectKey, Answer)> {
    results
        .iter()
        .map(|r| {
            (
                ObjectKey::new(Kind::parse(&r.kind), r.namespace.clone(), r.name.clone()),
                Answer::from_item(r.error.as_deref(), r.status.as_deref()),
            )
        })
        .collect()
}

/// Items of a request the answer did not include: the server drops what is over its cap and
/// a proxy may cut a body short. Said to the user, never silently lost.
pub fn not_returned(req: &InventoryObjectsRequest, results: &[ObjectResult]) -> Vec<ObjectKey> {
    req.objects
        .iter()
        .skip(results.len())
        .map(|o| ObjectKey::new(Kind::parse(&o.kind), o.namespace.clone(), o.name.clone()))
        .collect()
}

/// A fast fingerprint of an answer's text: a poll whose answer has the same fingerprint as
/// the same request's last answer skips decoding it (an unchanged poll at 5,000 objects would
/// otherwise decode megabytes of JSON to learn nothing). Not a security boundary: the loader
/// still decodes everything once per renewal.
pub fn fingerprint(text: &str) -> u64 {
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let bytes = text.as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let mut b = [0u8; 8];
        b.copy_from_slice(w);
        h = (h ^ u64::from_le_bytes(b))
            .wrapping_mul(PRIME)
            .rotate_left(31);
    }
    for &b in words.remainder() {
        h = (h ^ u64::from(b)).wrapping_mul(PRIME);
    }
    h
}

/// Identity of a summary row.
pub fn summary_key(s: &ResourceSummary) -> ObjectKey {
    ObjectKey::new(Kind::parse(&s.kind), s.namespace.clone(), s.name.clone())
}

/// What a poll must do: summaries that are new or changed (refetch), and keys that vanished.
pub fn diff_summaries(
    old: &[ResourceSummary],
    new: &[ResourceSummary],
) -> (Vec<ResourceSummary>, Vec<ObjectKey>) {
    let before: HashMap<ObjectKey, &ResourceSummary> =
        old.iter().map(|s| (summary_key(s), s)).collect();
    let after: HashMap<ObjectKey, &ResourceSummary> =
        new.iter().map(|s| (summary_key(s), s)).collect();
    let changed = new
        .iter()
        .filter(|s| before.get(&summary_key(s)).is_none_or(|b| *b != *s))
        .cloned()
        .collect();
    let mut gone: Vec<ObjectKey> = before
        .keys()
        .filter(|k| !after.contains_key(*k))
        .cloned()
        .collect();
    crate::util::sort::natural(&mut gone);
    (changed, gone)
}

#[cfg(test)]
mod tests {

    #[test]
    fn the_page_script_plans_with_the_constants_core_generates() {
        // The script lists by kind only what the default list leaves out, batches as the app
        // does and keeps the app's deadline: its one
        // line of constants is generated (make generate), so it cannot drift (#47: it replayed
        // batches of 2,000 with no deadline while the app sent 500, two at a time).
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src/api/prefetch.js");
        let want = script_constants();
        let text = std::fs::read_to_string(&path).unwrap();
        let line = text
            .lines()
            .find(|l| l.starts_with("  var CORE = "))
            .expect("prefetch.js declares CORE");
        if std::env::var_os("FLUXLENS_WRITE_RULES").is_some() && line != want {
            std::fs::write(&path, text.replacen(line, &want, 1)).unwrap();
            return;
        }
        assert_eq!(line, want, "run `make generate`");
        assert!(want.contains(r#""batchSize":500"#) && want.contains(r#""inFlight":2"#));
    }

    use super::*;
    use crate::wire::inventory::InventoryObjectsResponse;

    fn summary(kind: &str, ns: &str, name: &str) -> ResourceSummary {
        ResourceSummary {
            kind: kind.into(),
            namespace: ns.into(),
            name: name.into(),
            status: "Ready".into(),
            ..Default::default()
        }
    }

    #[test]
    fn rolling_reread_covers_every_row_roots_on_the_short_cycle() {
        // 5,000 rows: a FluxInstance, the root source, 999 other sources, 3,999 Kustomizations.
        let mut rows: Vec<ResourceSummary> = (2..5000)
            .map(|i| match i % 5 {
                0 => summary("OCIRepository", "a", &format!("s{i}")),
                _ => summary("Kustomization", "a", &format!("k{i}")),
            })
            .collect();
        rows.push(summary("FluxInstance", "flux-system", "flux"));
        rows.push(summary("OCIRepository", "flux-system", "flux-system"));
        let root = ObjectKey::new(Kind::OciRepository, "flux-system", "flux-system");
        let roots = [root];
        let rest_cycle = 4998usize.div_ceil(REREAD_MAX) as u32;
        assert_eq!(rest_cycle, 50);
        let mut seen = vec![0u32; rows.len()];
        for poll in 0..rest_cycle {
            let due = rolling_reread(&rows, poll, &roots);
            assert!(due.roots.iter().all(|&i| i >= 4998), "poll {poll}");
            assert!(due.rest.len() <= REREAD_MAX, "poll {poll}");
            // The same make-up a cycle later: a repeated request, recognisable.
            assert_eq!(rolling_reread(&rows, poll + rest_cycle, &roots), due);
            for i in due.roots.into_iter().chain(due.rest) {
                seen[i] += 1;
            }
        }
        // Every row within the long cycle; the roots once every ten polls.
        for (i, r) in rows.iter().enumerate() {
            let want = if i >= 4998 { 5 } else { 1 };
            assert_eq!(seen[i], want, "{}", r.name);
        }
        // Up to a thousand objects, everything keeps the ten-poll cycle.
        let small: Vec<ResourceSummary> = (0..1000)
            .map(|i| summary("Kustomization", "a", &format!("k{i}")))
            .collect();
        let per_cycle: usize = (0..REREAD_POLLS)
            .map(|p| rolling_reread(&small, p, &[]).rest.len())
            .sum();
        assert_eq!(per_cycle, 1000);
        assert_eq!(rolling_reread(&small, 3, &[]).rest.len(), 100);
    }

    #[test]
    fn the_rolling_reread_covers_every_object_whatever_order_the_list_comes_in() {
        // #47: the server orders rows by their last reconcile, which moves every poll.
        let mut rows: Vec<ResourceSummary> = (0..2000)
            .map(|i| summary("Kustomization", "a", &format!("k{i}")))
            .collect();
        let mut seen = std::collections::HashMap::new();
        let cycle = 2000usize.div_ceil(REREAD_MAX) as u32;
        for poll in 0..cycle {
            rows.rotate_left(37);
            for i in rolling_reread(&rows, poll, &[]).rest {
                *seen.entry(rows[i].name.clone()).or_insert(0) += 1;
            }
        }
        assert_eq!(seen.len(), 2000);
        assert!(seen.values().all(|&n| n == 1));
    }

    fn object(text: &str) -> (ObjectKey, std::sync::Arc<ApiObject>) {
        let o: ApiObject = serde_json::from_str(text).unwrap();
        (ObjectKey::of(&o).unwrap(), std::sync::Arc::new(o))
    }

    #[test]
    fn applied_by_finds_objects_by_managed_by_and_by_inventory() {
        let objects: HashMap<ObjectKey, std::sync::Arc<ApiObject>> = [
            // Labelled by its applier (the server's reconcilerRef.managedBy).
            r#"{"kind":"OCIRepository","metadata":{"name":"podinfo","namespace":"apps"},
                "status":{"reconcilerRef":{"managedBy":"Kustomization/flux-system/apps"}}}"#,
            // Not labelled, but in the applier's inventory (native form).
            r#"{"kind":"HelmRelease","metadata":{"name":"web","namespace":"apps"},"status":{}}"#,
            // Applied by another applier.
            r#"{"kind":"GitRepository","metadata":{"name":"other","namespace":"apps"},
                "status":{"reconcilerRef":{"managedBy":"Kustomization/flux-system/infra"}}}"#,
            r#"{"kind":"Kustomization","metadata":{"name":"apps","namespace":"flux-system"},
                "status":{"inventory":{"entries":[
                  {"id":"apps_web_helm.toolkit.fluxcd.io_HelmRelease","v":"v2"},
                  {"id":"apps_cm_apps_Deployment","v":"v1"}]}}}"#,
        ]
        .into_iter()
        .map(object)
        .collect();
        let apps = ObjectKey::new(Kind::Kustomization, "flux-system", "apps");
        let found = applied_by(&objects, &[apps]);
        let names: Vec<String> = found.iter().map(ObjectKey::to_string).collect();
        assert_eq!(
            names,
            ["HelmRelease/apps/web", "OCIRepository/apps/podinfo"],
            "the inventory's Deployment is not a kept object; infra's source is not apps's"
        );
        assert!(applied_by(&objects, &[]).is_empty());
    }

    fn report() -> FluxReport {
        serde_json::from_str(
            r#"{"spec":{"reconcilers":[
            {"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","stats":{"running":3000,"failing":0,"suspended":10}},
            {"apiVersion":"source.toolkit.fluxcd.io/v1beta2","kind":"GitRepository","stats":{"running":2,"failing":0,"suspended":0}}]}}"#,
        )
        .unwrap()
    }

    #[test]
    fn batches_respect_the_server_cap_and_use_stored_versions() {
        let rows: Vec<_> = (0..4500)
            .map(|i| summary("Kustomization", "ns", &format!("k{i}")))
            .collect();
        let b = object_batches(&report(), &rows);
        assert_eq!(
            b.iter().map(|r| r.objects.len()).collect::<Vec<_>>(),
            vec![500; 9]
        );
        let g = object_batches(
            &report(),
            &[
                summary("GitRepository", "a", "b"),
                summary("GitRepository", "a", "b"),
            ],
        );
        assert_eq!(g[0].objects.len(), 1, "duplicates are requested once");
        assert_eq!(
            g[0].objects[0].api_version,
            "source.toolkit.fluxcd.io/v1beta2"
        );
        let body = serde_json::to_string(&g[0]).unwrap();
        assert!(body.contains(r#""statusOnly":false"#) && body.contains(r#""apiVersion""#));
    }

    #[test]
    fn incomplete_kinds_name_the_reason() {
        // Live per-kind cap.
        let rows: Vec<_> = (0..2500)
            .map(|i| summary("Kustomization", "ns", &format!("k{i}")))
            .collect();
        let got = incomplete_kinds(&report(), &rows);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].0 == "Kustomization" && got[0].1.contains("caps one kind"));
        assert!(got[1].0 == "GitRepository" && got[1].1.contains("2500 rows in total"));
        // A swallowed List: the kind is absent although the report counts it.
        let few = vec![summary("Kustomization", "ns", "a")];
        let got = incomplete_kinds(&report(), &few);
        assert!(
            got.iter()
                .any(|(k, why)| k == "GitRepository" && why.contains("left out without an error"))
        );
        // Fewer rows than counted, under the caps: the counts lag the live list (a deletion
        // since the report's last refresh), the kind is whole.
        let lagging: Vec<_> = (0..2400)
            .map(|i| summary("Kustomization", "ns", &format!("k{i}")))
            .chain([summary("GitRepository", "ns", "g")])
            .collect();
        assert!(incomplete_kinds(&report(), &lagging).is_empty());
        // Complete.
        let mut r = report();
        r.spec.reconcilers.truncate(1);
        r.spec.reconcilers[0].stats.running = 1;
        r.spec.reconcilers[0].stats.suspended = 0;
        assert!(incomplete_kinds(&r, &few).is_empty());
        assert!(partial_load(&FluxReport::default()).is_some());
        assert!(partial_load(&r).is_none());
        // #47: namespaces but no counts is the half-computed report the server caches when
        // its computation fails part-way; every row would have looked deleted.
        let mut half = r.clone();
        half.spec.namespaces = vec!["flux-system".into()];
        half.spec.reconcilers.clear();
        assert!(partial_load(&half).unwrap().contains("half-computed"));
    }

    #[test]
    fn the_confirming_read_is_chunked_and_capped() {
        // Regression (#22): up to 2,000 items went in one request.
        let objs: Vec<String> = (0..CONFIRM_CAP + 7)
            .map(|i| format!(r#"{{"kind":"Kustomization","metadata":{{"name":"k{i}","namespace":"apps"}},"spec":{{"sourceRef":{{"kind":"GitRepository","name":"gone-{i}"}}}}}}"#))
            .collect();
        let c = Cluster::new(
            report(),
            objs.iter().map(|s| serde_json::from_str(s).unwrap()),
            CrdAccess::Unknown,
        );
        let (reqs, beyond) = confirm_requests(&c);
        assert_eq!(reqs.len(), CONFIRM_CAP / BATCH_SIZE);
        assert!(reqs.iter().all(|r| r.objects.len() <= BATCH_SIZE));
        assert_eq!(beyond.len(), 7);
    }

    #[test]
    fn confirming_read_asks_each_candidate_once_and_reads_answers() {
        let c = Cluster::new(
            report(),
            [r#"{"kind":"Kustomization","metadata":{"name":"a","namespace":"apps"},"spec":{"sourceRef":{"kind":"GitRepository","name":"gone"}}}"#,
             r#"{"kind":"Kustomization","metadata":{"name":"b","namespace":"apps"},"spec":{"sourceRef":{"kind":"GitRepository","name":"gone"}}}"#]
                .iter()
                .map(|s| serde_json::from_str(s).unwrap()),
            CrdAccess::Unknown,
        );
        let (reqs, beyond) = confirm_requests(&c);
        assert!(beyond.is_empty());
        let req = &reqs[0];
        assert_eq!(req.objects.len(), 1);
        assert_eq!(
            req.objects[0].api_version,
            "source.toolkit.fluxcd.io/v1beta2"
        );
        assert!(req.status_only);
        let resp: InventoryObjectsResponse = serde_json::from_str(
            r#"{"objects":[{"apiVersion":"source.toolkit.fluxcd.io/v1beta2","kind":"GitRepository","namespace":"apps","name":"gone","error":"NotFound"}]}"#,
        )
        .unwrap();
        assert_eq!(
            confirmations(&resp.objects),
            vec![(
                ObjectKey::new(Kind::GitRepository, "apps", "gone"),
                Answer::NotFound
            )]
        );
        assert!(not_returned(req, &resp.objects).is_empty());
        assert_eq!(not_returned(req, &[]).len(), 1);
    }

    #[test]
    fn crd_access_interprets_forbidden_as_unknown_access() {
        let forbidden: InventoryObjectsResponse = serde_json::from_str(
            r#"{"objects":[{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","name":"x","error":"Forbidden"}]}"#,
        )
        .unwrap();
        assert_eq!(crd_access(forbidden.objects), CrdAccess::Forbidden);
        let ok: InventoryObjectsResponse = serde_json::from_str(
            r#"{"objects":[{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","name":"x","status":"Current","object":{"kind":"CustomResourceDefinition","metadata":{"name":"x"},"status":{"storedVersions":["v1beta2","v1"]}}}]}"#,
        )
        .unwrap();
        match crd_access(ok.objects) {
            CrdAccess::Known(v) => assert_eq!(v[0].status.stored_versions, vec!["v1beta2", "v1"]),
            other => panic!("{other:?}"),
        }
        assert_eq!(crd_request(&report()).unwrap().objects.len(), 2);
    }

    #[test]
    fn kinds_outside_the_default_list_are_asked_by_kind() {
        // An operator before v0.53: its default list holds appliers and sources only.
        let r: FluxReport = serde_json::from_str(
            r#"{"spec":{"operator":{"version":"v0.52.0"},"reconcilers":[
            {"kind":"Kustomization","stats":{"running":3}},
            {"kind":"Alert","stats":{"running":2}},
            {"kind":"ImagePolicy","stats":{"running":0,"suspended":1}},
            {"kind":"Receiver","stats":{"running":0}},
            {"kind":"FluxInstance","stats":{"running":1}}]}}"#,
        )
        .unwrap();
        assert_eq!(kinds_listed_alone(&r), vec!["Alert", "ImagePolicy"]);
        // Today's server lists every kind by default: nothing is asked twice (#47).
        let mut today = r.clone();
        today.spec.operator.as_mut().unwrap().version = Some("v0.58.1".into());
        assert!(kinds_listed_alone(&today).is_empty());
    }

    #[test]
    fn only_transient_failures_are_asked_again_each_poll() {
        assert!(retry_each_poll("Error"));
        assert!(retry_each_poll("no object returned"));
        assert!(!retry_each_poll("Forbidden"));
        assert!(!retry_each_poll("NotFound"));
    }

    #[test]
    fn rows_listed_twice_count_once() {
        let a = [
            summary("Alert", "ns", "a"),
            summary("Kustomization", "ns", "k"),
        ];
        let b = [summary("Alert", "ns", "a"), summary("Alert", "ns", "b")];
        let merged = merge_rows(&[&a, &b]);
        let names: Vec<_> = merged.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["a", "k", "b"]);
    }

    #[test]
    fn a_capped_kind_is_listed_again_only_where_its_rows_were() {
        let mut r = report();
        r.spec.namespaces = (0..400).map(|i| format!("ns{i}")).collect();
        let held: Vec<_> = (0..3000)
            .map(|i| summary("Kustomization", &format!("ns{}", i % 12), &format!("k{i}")))
            .chain([summary("Kustomization", "deleted-since", "x")])
            .collect();
        assert_eq!(relist_namespaces(&r, Some(&held), false).len(), 12);
        assert_eq!(relist_namespaces(&r, Some(&held), true).len(), 400);
        assert_eq!(relist_namespaces(&r, None, false).len(), 400);
    }

    #[test]
    fn helm_releases_without_inventory_get_their_owned_objects_from_the_single_object_get() {
        // #22 item 6 (Flux ≤ 2.7): the flux-instance chart's HelmRelease owns the FluxInstance.
        let hr = |name: &str, extra: &str| -> ApiObject {
            serde_json::from_str(&format!(
                r#"{{"kind":"HelmRelease","metadata":{{"name":"{name}","namespace":"flux-system"}},
                   "status":{{"storageNamespace":"flux-system","history":[{{"name":"{name}","version":3,"namespace":"flux-system"}}]{extra}}}}}"#
            ))
            .unwrap()
        };
        let mut remote = hr("remote", "");
        remote.spec.kube_config = serde_json::from_str(r#"{"secretRef":{"name":"kc"}}"#).unwrap();
        let objs = [
            hr("flux-instance", ""),
            hr(
                "native",
                r#","inventory":{"entries":[{"id":"a_b__ConfigMap","v":"v1"}]}"#,
            ),
            hr("forbidden", r#","inventoryError":"forbidden""#),
            remote,
            serde_json::from_str(
                r#"{"kind":"HelmRelease","metadata":{"name":"never-installed","namespace":"x"}}"#,
            )
            .unwrap(),
        ];
        let keys = helm_storage_candidates(objs.iter(), 10);
        assert_eq!(
            keys,
            vec![ObjectKey::new(
                Kind::HelmRelease,
                "flux-system",
                "flux-instance"
            )]
        );
        assert!(helm_storage_candidates(objs.iter(), 0).is_empty());
        let served: ApiObject = serde_json::from_str(
            r#"{"status":{"inventory":[{"name":"flux","namespace":"flux-system","kind":"FluxInstance","apiVersion":"fluxcd.controlplane.io/v1"}]}}"#,
        )
        .unwrap();
        let kept = std::sync::Arc::new(objs[0].clone());
        let lent = with_helm_inventory(kept.clone(), served.status.inventory.as_ref());
        assert!(
            kept.status.inventory_entries().is_empty(),
            "the loader's copy stays as read"
        );
        let instance: ApiObject = serde_json::from_str(
            r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"}}"#,
        )
        .unwrap();
        let c = Cluster::from_shared(report(), [lent, instance.into()], CrdAccess::Unknown);
        let fi = c
            .get(&ObjectKey::new(Kind::FluxInstance, "flux-system", "flux"))
            .unwrap();
        assert_eq!(
            fi.managed_by,
            Some(ObjectKey::new(
                Kind::HelmRelease,
                "flux-system",
                "flux-instance"
            ))
        );
    }

    #[test]
    fn helm_storage_reads_go_round_every_candidate() {
        let keys: Vec<ObjectKey> = (0..120)
            .map(|i| ObjectKey::new(Kind::HelmRelease, "apps", format!("r{i:03}")))
            .collect();
        let mut read_at = std::collections::HashMap::new();
        let mut seen = std::collections::HashSet::new();
        for poll in 0..3 {
            let due = helm_storage_due(&keys, &read_at, 50);
            assert_eq!(due.len(), 50);
            for k in due {
                read_at.insert(k.clone(), poll);
                seen.insert(k);
            }
        }
        assert_eq!(seen.len(), 120, "every release read within three polls");
        // Then the longest since read comes first.
        let next = helm_storage_due(&keys, &read_at, 50);
        let ages: Vec<u32> = next.iter().map(|k| read_at[k]).collect();
        assert!(
            ages.windows(2).all(|w| w[0] <= w[1]) && ages[0] == 0,
            "{ages:?}"
        );
    }

    #[test]
    fn the_servers_item_status_is_used_and_derived_only_when_absent() {
        // #22 item 7: a Ready=False condition the server reads as Progressing
        // (DependencyNotReady) keeps the server's word; without one, the model derives.
        let resp: InventoryObjectsResponse = serde_json::from_str(
            r#"{"objects":[
              {"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","namespace":"a","name":"served","status":"Suspended","statusMessage":"Reconciliation suspended",
               "object":{"kind":"Kustomization","metadata":{"name":"served","namespace":"a"},"status":{"conditions":[{"type":"Ready","status":"True","message":"ok"}]}}},
              {"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","namespace":"a","name":"derived",
               "object":{"kind":"Kustomization","metadata":{"name":"derived","namespace":"a"},"status":{"conditions":[{"type":"Ready","status":"False","reason":"BuildFailed","message":"boom"}]}}}]}"#,
        )
        .unwrap();
        let (objects, failed) = split_results(resp.objects);
        assert!(failed.is_empty());
        let c = Cluster::new(report(), objects, CrdAccess::Unknown);
        let served = c
            .get(&ObjectKey::new(Kind::Kustomization, "a", "served"))
            .unwrap();
        assert_eq!(served.status, crate::Status::Suspended);
        assert_eq!(served.message, "Reconciliation suspended");
        let derived = c
            .get(&ObjectKey::new(Kind::Kustomization, "a", "derived"))
            .unwrap();
        assert_eq!(derived.status, crate::Status::Failed);
        assert_eq!(derived.message, "boom");
        assert!(derived.raw.status.reconciler_ref.is_none());
    }

    #[test]
    fn fingerprints_tell_any_change() {
        let a = r#"{"resources":[{"kind":"Kustomization","name":"a","status":"Ready"}]}"#;
        let copy = String::from(a);
        assert_eq!(fingerprint(a), fingerprint(copy.as_str()));
        for b in [
            a.replace("Ready", "Faile"),
            a.replace("\"a\"", "\"b\""),
            format!("{a} "),
            a[..a.len() - 1].to_string(),
        ] {
            assert_ne!(fingerprint(a), fingerprint(&b), "{b}");
        }
    }

    #[test]
    fn diff_finds_changed_and_gone() {
        let a = vec![
            summary("Kustomization", "a", "x"),
            summary("Kustomization", "a", "y"),
        ];
        let mut b = vec![
            summary("Kustomization", "a", "x"),
            summary("Kustomization", "a", "z"),
        ];
        b[0].status = "Failed".into();
        let (changed, gone) = diff_summaries(&a, &b);
        assert_eq!(changed.len(), 2);
        assert_eq!(gone, vec![ObjectKey::new(Kind::Kustomization, "a", "y")]);
    }
}
