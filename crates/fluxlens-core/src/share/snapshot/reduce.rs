//! What a snapshot leaves out of each object, and what it shares between fields and objects
//! so a link stays short: every reduction here that is not a drop is undone on open.

use crate::analyses::carried;
use crate::model::Cluster;
use crate::wire::object::{ApiObject, HistoryEntry};
use crate::wire::report::FluxReport;

/// Annotations the rules read; every other annotation is dropped.
const KEPT_ANNOTATIONS: [&str; 3] = [
    "kustomize.toolkit.fluxcd.io/prune",
    "fluxcd.controlplane.io/reconcile",
    "fluxcd.controlplane.io/prune",
];

/// Drops what no view reads: unread annotations, the inventory (large; the owner it yields
/// travels as a column, see [`owner_column`]), conditions' transition times and artifacts'
/// content digests and update times (unique hex, the bulk of a compressed link: #46), all but
/// the newest history entry's identity, and the server's copy
/// of the Ready message (restored on open, [`restore_shared`]). Labels stay:
/// selectors match them.
pub(super) fn reduce(o: &ApiObject, drop_messages: bool) -> ApiObject {
    let mut r = o.clone();
    r.api_version = None;
    r.metadata
        .annotations
        .retain(|k, _| KEPT_ANNOTATIONS.contains(&k.as_str()));
    let st = &mut r.status;
    st.inventory = None;
    st.source_ref = None;
    st.inventory_error = None;
    if let Some(a) = st.artifact.as_mut() {
        a.digest = None;
        a.last_update_time = None;
    }
    // History: only the newest entry's identity (a Helm release's storage name and version,
    // its chart version); a snapshot's changes are found by comparing reads (#49).
    st.history.truncate(1);
    for h in &mut st.history {
        *h = HistoryEntry {
            name: h.name.take(),
            namespace: h.namespace.take(),
            version: h.version,
            chart_version: h.chart_version.take(),
            ..HistoryEntry::default()
        };
    }
    let ready = st
        .conditions
        .iter()
        .find(|c| c.type_ == "Ready")
        .and_then(|c| c.message.clone());
    let generation = st.observed_generation;
    for c in &mut st.conditions {
        c.last_transition_time = None;
        // The status' generation stands for each condition's that equals it; an absent one,
        // which then would read as equal, travels as ABSENT_GENERATION.
        c.observed_generation = match (c.observed_generation, generation) {
            (Some(g), Some(s)) if g == s => None,
            (None, Some(_)) => Some(ABSENT_GENERATION),
            (g, _) => g,
        };
    }
    let own = OwnWords::of(o);
    for c in &mut st.conditions {
        if let Some(m) = c.message.as_mut() {
            *m = own.template(m);
        }
    }
    if let Some(rr) = st.reconciler_ref.as_mut() {
        // Absent means "the Ready message"; a message that was absent travels as empty.
        rr.message = match (rr.message.take(), ready) {
            (Some(m), Some(r)) if m == r => None,
            (None, Some(_)) => Some(String::new()),
            (m, _) => m,
        };
    }
    if drop_messages {
        for c in &mut r.status.conditions {
            if let Some(m) = c.message.as_mut() {
                *m = carried::replacement(&c.type_, &c.status, m);
            }
        }
        if let Some(m) = r
            .status
            .reconciler_ref
            .as_mut()
            .and_then(|rr| rr.message.as_mut())
        {
            *m = carried::DROPPED.to_string();
        }
    }
    r
}

/// Every free-text message of the cluster, longest first (cut out of carried findings).
pub(super) fn messages(cluster: &Cluster) -> Vec<String> {
    let mut out: Vec<String> = cluster
        .objects()
        .iter()
        .flat_map(|o| {
            let conditions = o
                .raw
                .status
                .conditions
                .iter()
                .filter_map(|c| c.message.clone());
            let rr = o
                .raw
                .status
                .reconciler_ref
                .as_ref()
                .and_then(|r| r.message.clone());
            conditions.chain(rr)
        })
        .chain(cluster.instance_events.iter().map(|e| e.message.clone()))
        .chain(report_messages(&cluster.report))
        .filter(|m| !m.trim().is_empty())
        .collect();
    out.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    out.dedup();
    out
}

/// The report's free text: the sync's and each component's status line.
fn report_messages(r: &FluxReport) -> Vec<String> {
    let sync = r.spec.sync.as_ref().and_then(|s| s.status.clone());
    let components = r.spec.components.iter().filter_map(|c| c.status.clone());
    sync.into_iter().chain(components).collect()
}

pub(super) fn drop_report_messages(r: &mut FluxReport) {
    if let Some(s) = r.spec.sync.as_mut().and_then(|s| s.status.as_mut()) {
        *s = carried::DROPPED.to_string();
    }
    for c in &mut r.spec.components {
        if let Some(s) = c.status.as_mut() {
            *s = carried::DROPPED.to_string();
        }
    }
}

/// Inventories are not kept (they are large), so each object's derived owner travels as the
/// position of that owner in `objects` (a column of small numbers: the owners' names spelled
/// out per object were an eighth of a compressed link, #46). Opened, it becomes the one field
/// the model falls back to, `status.reconcilerRef.managedBy` (`model::owners`).
pub(super) fn owner_column(cluster: &Cluster) -> Vec<Option<u32>> {
    let objects = cluster.objects();
    objects
        .iter()
        .map(|o| {
            let owner = o.managed_by.as_ref()?;
            let at = objects.binary_search_by(|x| x.key.cmp(owner)).ok()?;
            u32::try_from(at).ok()
        })
        .collect()
}

/// Writes the owner column back as each object's `managedBy`.
pub(super) fn with_owners(mut objects: Vec<ApiObject>, owners: &[Option<u32>]) -> Vec<ApiObject> {
    let keys: Vec<Option<String>> = objects
        .iter()
        .map(|o| crate::model::ObjectKey::of(o).map(|k| k.to_string()))
        .collect();
    for (o, owner) in objects.iter_mut().zip(owners) {
        if let Some(key) = owner.and_then(|i| keys.get(i as usize).cloned().flatten()) {
            o.status
                .reconciler_ref
                .get_or_insert_with(Default::default)
                .managed_by = Some(key);
        }
    }
    objects
}

/// The words an object's messages repeat from its own fields (its revision, its name), written
/// once per message as a private-use character (three bytes in JSON, where a control
/// character is escaped to six): they were a sixth of a compressed link (#46).
struct OwnWords {
    /// In the order they are templated; restored in reverse.
    words: Vec<(char, String)>,
}

/// Marks a message that held a placeholder character of its own: kept verbatim.
const LITERAL: char = '\u{E004}';
const PLACEHOLDERS: [char; 3] = ['\u{E001}', '\u{E002}', '\u{E003}'];

impl OwnWords {
    fn of(o: &ApiObject) -> OwnWords {
        let st = &o.status;
        let revision = st
            .artifact
            .as_ref()
            .and_then(|a| a.revision.clone())
            .or_else(|| st.last_applied_revision.clone());
        let name = o.metadata.name.clone();
        let namespace = &o.metadata.namespace;
        let words = [
            (PLACEHOLDERS[0], revision.unwrap_or_default()),
            (PLACEHOLDERS[1], format!("{namespace}/{name}")),
            (PLACEHOLDERS[2], name),
        ];
        OwnWords {
            words: words
                .into_iter()
                // Short words would cost more than they save; none may hold a placeholder.
                .filter(|(_, w)| w.len() >= 4 && !w.contains(is_marker))
                .collect(),
        }
    }

    fn template(&self, message: &str) -> String {
        if message.contains(is_marker) {
            return format!("{LITERAL}{message}");
        }
        self.words.iter().fold(message.to_string(), |m, (p, w)| {
            m.replace(w.as_str(), &p.to_string())
        })
    }

    fn restore(&self, message: &str) -> String {
        if let Some(literal) = message.strip_prefix(LITERAL) {
            return literal.to_string();
        }
        self.words
            .iter()
            .rev()
            .fold(message.to_string(), |m, (p, w)| m.replace(*p, w))
    }
}

fn is_marker(c: char) -> bool {
    c == LITERAL || PLACEHOLDERS.contains(&c)
}

/// A condition without `observedGeneration` in a status that has one (see [`reduce`]).
const ABSENT_GENERATION: i64 = -1;

/// Undoes [`reduce`]'s sharing of the Ready message with `status.reconcilerRef.message` and
/// of the status' generation with its conditions'.
pub(super) fn restore_shared(mut o: ApiObject) -> ApiObject {
    let own = OwnWords::of(&o);
    for c in &mut o.status.conditions {
        if let Some(m) = c.message.as_mut() {
            *m = own.restore(m);
        }
    }
    let generation = o.status.observed_generation;
    if generation.is_some() {
        for c in &mut o.status.conditions {
            c.observed_generation = match c.observed_generation {
                None => generation,
                Some(ABSENT_GENERATION) => None,
                g => g,
            };
        }
    }
    let ready = o.condition("Ready").and_then(|c| c.message.clone());
    if let Some(rr) = o.status.reconciler_ref.as_mut() {
        rr.message = match rr.message.take() {
            None => ready,
            Some(m) if m.is_empty() => None,
            Some(m) => Some(m),
        };
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(json: &str) -> ApiObject {
        serde_json::from_str(json).unwrap()
    }

    /// What `reduce` drops on purpose, dropped from the expectation too.
    fn without_dropped(mut o: ApiObject) -> ApiObject {
        o.api_version = None;
        if let Some(a) = o.status.artifact.as_mut() {
            a.digest = None;
        }
        for c in &mut o.status.conditions {
            c.last_transition_time = None;
        }
        o
    }

    #[test]
    fn what_is_shared_comes_back_exactly() {
        // #46: the shortened link must open as the same objects.
        let cases = [
            // The Ready message quoted by reconcilerRef, the revision and names in messages.
            r#"{"kind":"OCIRepository","metadata":{"name":"podinfo","namespace":"apps"},"status":{"observedGeneration":3,"artifact":{"revision":"6.5.0@sha256:abcd","digest":"sha256:ffff"},"conditions":[{"type":"Ready","status":"True","message":"stored artifact for digest '6.5.0@sha256:abcd' of apps/podinfo (podinfo)","observedGeneration":3,"lastTransitionTime":"2026-01-01T00:00:00Z"}],"reconcilerRef":{"status":"Ready","message":"stored artifact for digest '6.5.0@sha256:abcd' of apps/podinfo (podinfo)"}}}"#,
            // A reconcilerRef without a message; a condition without a generation; one older.
            r#"{"kind":"Kustomization","metadata":{"name":"apps","namespace":"flux-system"},"status":{"observedGeneration":2,"lastAppliedRevision":"main@sha1:1234","conditions":[{"type":"Ready","status":"False","message":"dependency 'flux-system/infra' is not ready"},{"type":"Healthy","status":"True","observedGeneration":1,"message":"ok"}],"reconcilerRef":{"status":"Failed"}}}"#,
            // A message holding the placeholder characters itself, and a reconcilerRef message
            // of its own.
            "{\"kind\":\"HelmRelease\",\"metadata\":{\"name\":\"web\",\"namespace\":\"team\"},\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"message\":\"odd \u{E001}\u{E004} text for team/web\"}],\"reconcilerRef\":{\"status\":\"Ready\",\"message\":\"another\"}}}",
        ];
        for json in cases {
            let o = object(json);
            let back = restore_shared(reduce(&o, false));
            assert_eq!(back, without_dropped(o), "{json}");
        }
    }

    #[test]
    fn templated_messages_are_shorter() {
        let o = object(
            r#"{"kind":"HelmRelease","metadata":{"name":"podinfo","namespace":"apps"},"status":{"conditions":[{"type":"Ready","status":"True","message":"Helm upgrade succeeded for release apps/podinfo.v3 with chart podinfo@6.5.0"}]}}"#,
        );
        let m = reduce(&o, false).status.conditions[0]
            .message
            .clone()
            .unwrap();
        assert_eq!(
            m,
            "Helm upgrade succeeded for release \u{E002}.v3 with chart \u{E003}@6.5.0"
        );
    }
}
