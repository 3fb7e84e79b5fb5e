//! A scenario replayed now: the times a scenario file records (conditions' transitions,
//! artifacts, `status.history`, events) are moved so that its newest time is a minute ago, as a
//! cluster read today would show them (#49: a timeline of "the last hour" must find the
//! scenario's recent changes whatever day the tests run); and the changes a cluster goes through
//! while a page watches it (a revision applied, an object deleted), for the e2e of a visit, a
//! change, and the next visit.

use crate::store::Store;
use fluxlens_core::util::time::{format_rfc3339, parse_rfc3339_ms};
use serde_json::{Value, json};

/// The wall clock, in Unix milliseconds.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or_default()
}

/// The fields that hold the times a cluster records.
const TIME_FIELDS: [&str; 7] = [
    "lastTransitionTime",
    "lastUpdateTime",
    "firstReconciled",
    "lastReconciled",
    "firstDeployed",
    "lastDeployed",
    "lastTimestamp",
];

fn times(v: &mut Value, f: &mut impl FnMut(&mut Value)) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if TIME_FIELDS.contains(&k.as_str()) && x.is_string() {
                    f(x);
                } else {
                    times(x, f);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| times(x, f)),
        _ => {}
    }
}

/// Moves every recorded time of the store by the same offset, so its newest is a minute before
/// `now_ms`; a store without times is left as it is.
pub fn rebase(store: &mut Store, now_ms: i64) {
    let mut newest = None::<i64>;
    let mut seen = |x: &mut Value| {
        if let Some(t) = x.as_str().and_then(parse_rfc3339_ms) {
            newest = Some(newest.map_or(t, |n: i64| n.max(t)));
        }
    };
    store.edit_all(|json| times(json, &mut seen));
    store.events.iter_mut().for_each(|e| times(e, &mut seen));
    let Some(newest) = newest else {
        return;
    };
    let offset = now_ms - 60_000 - newest;
    let mut shift = |x: &mut Value| {
        if let Some(t) = x.as_str().and_then(parse_rfc3339_ms) {
            *x = json!(format_rfc3339(t + offset));
        }
    };
    store.edit_all(|json| times(json, &mut shift));
    store.events.iter_mut().for_each(|e| times(e, &mut shift));
}

/// A new revision applied to a Kustomization, HelmRelease, ResourceSet or FluxInstance at
/// `now_ms`, as its controller records it: a history entry first (a Helm release for a
/// HelmRelease, a reconcile snapshot otherwise; the previous release superseded), the last
/// applied revision, Ready True at that time. False when there is no such object.
pub fn apply_revision(
    store: &mut Store,
    object: (&str, &str, &str),
    revision: &str,
    now_ms: i64,
) -> bool {
    let (kind, ns, name) = object;
    let now = format_rfc3339(now_ms);
    let helm = kind == "HelmRelease";
    store.edit(kind, ns, name, |json| {
        let status = json
            .as_object_mut()
            .map(|o| o.entry("status").or_insert_with(|| json!({})));
        let Some(Value::Object(status)) = status else {
            return;
        };
        let history = status.entry("history").or_insert_with(|| json!([]));
        if let Value::Array(list) = history {
            if helm && let Some(prev) = list.first_mut() {
                prev["status"] = json!("superseded");
            }
            let version = list.len() as i64 + 1;
            let entry = if helm {
                json!({"chartName": name, "chartVersion": revision, "appVersion": revision,
                    "digest": format!("sha256:{}", fluxlens_core::util::hash::hex(revision.as_bytes())),
                    "firstDeployed": now, "lastDeployed": now, "name": name, "namespace": ns,
                    "status": "deployed", "version": version})
            } else {
                json!({"digest": format!("sha256:{}", fluxlens_core::util::hash::hex(revision.as_bytes())),
                    "firstReconciled": now, "lastReconciled": now, "lastReconciledDuration": "1.2s",
                    "lastReconciledStatus": "ReconciliationSucceeded",
                    "metadata": {"revision": revision}, "totalReconciliations": 1})
            };
            list.insert(0, entry);
            list.truncate(5);
        }
        status.insert("lastAppliedRevision".into(), json!(revision));
        let conds = status.entry("conditions").or_insert_with(|| json!([]));
        if let Value::Array(list) = conds {
            list.retain(|c| c["type"] != "Ready");
            list.push(json!({"type": "Ready", "status": "True", "reason": "ReconciliationSucceeded",
                "message": format!("Applied revision: {revision}"), "lastTransitionTime": now,
                "observedGeneration": 1}));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> Store {
        Store::from_dir(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/demo"),
        )
        .unwrap()
    }

    #[test]
    fn a_replayed_scenario_ends_a_minute_ago_and_keeps_its_intervals() {
        let mut s = store();
        let first = s.entries[0].json["status"]["history"][0]["firstReconciled"].clone();
        let last = s.entries[0].json["status"]["history"][0]["lastReconciled"].clone();
        let gap = |a: &Value, b: &Value| {
            parse_rfc3339_ms(b.as_str().unwrap()).unwrap()
                - parse_rfc3339_ms(a.as_str().unwrap()).unwrap()
        };
        let before = gap(&first, &last);
        let now = parse_rfc3339_ms("2027-03-01T12:00:00Z").unwrap();
        rebase(&mut s, now);
        let h = &s.entries[0].json["status"]["history"][0];
        assert_eq!(gap(&h["firstReconciled"], &h["lastReconciled"]), before);
        let mut newest = 0;
        s.edit_all(|j| {
            times(j, &mut |x: &mut Value| {
                newest = newest.max(parse_rfc3339_ms(x.as_str().unwrap()).unwrap_or(0))
            })
        });
        assert!(newest <= now - 60_000);
        // The core model reads the moved times (the entry was re-read).
        let t = s.entries[0]
            .last_reconciled
            .as_deref()
            .and_then(parse_rfc3339_ms)
            .unwrap();
        assert!(t < now && t > now - 30 * 86_400_000);
    }

    #[test]
    fn an_applied_revision_is_a_new_history_entry_and_ready_at_that_time() {
        let mut s = store();
        let now = parse_rfc3339_ms("2027-03-01T12:00:00Z").unwrap();
        let hr = s
            .entries
            .iter()
            .find(|e| e.obj.key.kind.as_str() == "HelmRelease")
            .unwrap();
        let (ns, name) = (hr.obj.key.namespace.clone(), hr.obj.key.name.clone());
        assert!(apply_revision(
            &mut s,
            ("HelmRelease", &ns, &name),
            "2.0.0",
            now
        ));
        let e = s.get("HelmRelease", &ns, &name).unwrap();
        let h = &e.obj.raw.status.history;
        assert_eq!(h[0].chart_version.as_deref(), Some("2.0.0"));
        assert_eq!(h[0].last_deployed.as_deref(), Some("2027-03-01T12:00:00Z"));
        assert_eq!(h[1].status.as_deref(), Some("superseded"));
        assert_eq!(e.obj.status, fluxlens_core::Status::Ready);
        assert!(!apply_revision(
            &mut s,
            ("HelmRelease", &ns, "nope"),
            "1",
            now
        ));
    }
}
