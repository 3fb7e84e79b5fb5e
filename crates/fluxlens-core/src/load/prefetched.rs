//! The object reads `index.html`'s script made before the app started (#28), taken by the
//! first load item by item. The script's batches are not the load's: their order and size
//! differ, and on a second visit they are the last visit's objects, some gone, some read at an
//! older API version. So what is taken is each item the load would ask for, exactly as it
//! would ask it (the same `ObjectRef`, API version included), answered in place; the rest is
//! asked as before. A read the load does not take is wasted, never wrong.

use crate::wire::inventory::{
    InventoryObjectsRequest, InventoryObjectsResponse, ObjectRef, ObjectResult,
};
use std::collections::HashSet;

/// One batch the script sent, and the server's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    pub request: InventoryObjectsRequest,
    pub response: InventoryObjectsResponse,
}

/// What the load takes of one read.
#[derive(Debug, Clone, PartialEq)]
pub struct Taken {
    /// Which read (its index in the reads given) they come from.
    pub from: usize,
    /// The items taken, as the load asks for them.
    pub request: InventoryObjectsRequest,
    /// Their answers, in the same order.
    pub response: InventoryObjectsResponse,
    /// Every item of the read was taken: its answer is the answer to `request`, whole (only
    /// such an answer may be recognised when the same request is answered the same again).
    pub whole: bool,
}

/// The reads taken, and what is still to ask.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Adoption {
    pub taken: Vec<Taken>,
    /// The load's batches without the items taken (empty batches dropped), in their order.
    pub still: Vec<InventoryObjectsRequest>,
}

/// Takes from `reads` every item `wanted` asks for, once. An item counts only when its answer
/// is in place (the server answers in request order) and names the same object; a status-only
/// read is never taken (it holds no specs).
pub fn adopt(wanted: &[InventoryObjectsRequest], reads: Vec<Read>) -> Adoption {
    let mut open: HashSet<&ObjectRef> = wanted.iter().flat_map(|b| &b.objects).collect();
    let mut taken = Vec::new();
    for (from, read) in reads.into_iter().enumerate() {
        if read.request.status_only {
            continue;
        }
        let asked = read.request.objects.len();
        let answered = read.response.objects.len();
        let mut refs = Vec::new();
        let mut results = Vec::new();
        for (r, result) in read.request.objects.into_iter().zip(read.response.objects) {
            if answers(&r, &result) && open.remove(&r) {
                refs.push(r);
                results.push(result);
            }
        }
        if refs.is_empty() {
            continue;
        }
        let whole = refs.len() == asked && asked == answered;
        taken.push(Taken {
            from,
            request: InventoryObjectsRequest {
                objects: refs,
                status_only: false,
            },
            response: InventoryObjectsResponse { objects: results },
            whole,
        });
    }
    let still = wanted
        .iter()
        .map(|b| InventoryObjectsRequest {
            objects: b
                .objects
                .iter()
                .filter(|r| open.contains(r))
                .cloned()
                .collect(),
            status_only: b.status_only,
        })
        .filter(|b| !b.objects.is_empty())
        .collect();
    Adoption { taken, still }
}

/// Whether `result` is the answer for `asked` (same kind, namespace and name).
fn answers(asked: &ObjectRef, result: &ObjectResult) -> bool {
    result.kind == asked.kind && result.name == asked.name && result.namespace == asked.namespace
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(kind: &str, ns: &str, name: &str) -> ObjectRef {
        ObjectRef {
            api_version: "source.toolkit.fluxcd.io/v1".into(),
            kind: kind.into(),
            namespace: ns.into(),
            name: name.into(),
        }
    }

    fn batch(items: Vec<ObjectRef>) -> InventoryObjectsRequest {
        InventoryObjectsRequest {
            objects: items,
            status_only: false,
        }
    }

    fn answer(r: &ObjectRef) -> ObjectResult {
        ObjectResult {
            api_version: r.api_version.clone(),
            kind: r.kind.clone(),
            namespace: r.namespace.clone(),
            name: r.name.clone(),
            ..Default::default()
        }
    }

    fn read(items: Vec<ObjectRef>) -> Read {
        Read {
            response: InventoryObjectsResponse {
                objects: items.iter().map(answer).collect(),
            },
            request: batch(items),
        }
    }

    #[test]
    fn a_read_of_the_same_items_in_another_order_is_taken_whole() {
        let (a, b, c) = (
            item("GitRepository", "x", "a"),
            item("GitRepository", "x", "b"),
            item("OCIRepository", "y", "c"),
        );
        let got = adopt(
            &[batch(vec![a.clone(), b.clone()]), batch(vec![c.clone()])],
            vec![read(vec![c.clone(), b.clone(), a.clone()])],
        );
        assert!(got.still.is_empty());
        assert_eq!(got.taken.len(), 1);
        assert!(got.taken[0].whole);
        assert_eq!(got.taken[0].request.objects, vec![c, b, a]);
    }

    #[test]
    fn a_last_visits_read_gives_what_is_still_there_and_the_new_objects_are_asked() {
        // The last visit read `gone` and `kept`; now the lists hold `kept` and `new`.
        let (gone, kept, new) = (
            item("GitRepository", "x", "gone"),
            item("GitRepository", "x", "kept"),
            item("GitRepository", "x", "new"),
        );
        let got = adopt(
            &[batch(vec![kept.clone(), new.clone()])],
            vec![read(vec![gone, kept.clone()])],
        );
        assert_eq!(got.taken.len(), 1);
        assert_eq!(got.taken[0].request.objects, vec![kept]);
        assert!(
            !got.taken[0].whole,
            "a part of an answer is not the answer to a request"
        );
        assert_eq!(got.still, vec![batch(vec![new])]);
    }

    #[test]
    fn an_item_read_at_another_api_version_is_asked_again() {
        let now = item("OCIRepository", "x", "a");
        let before = ObjectRef {
            api_version: "source.toolkit.fluxcd.io/v1beta2".into(),
            ..now.clone()
        };
        let got = adopt(&[batch(vec![now.clone()])], vec![read(vec![before])]);
        assert!(got.taken.is_empty());
        assert_eq!(got.still, vec![batch(vec![now])]);
    }

    #[test]
    fn a_short_or_misplaced_answer_gives_only_the_items_answered_in_place() {
        let (a, b, c) = (
            item("GitRepository", "x", "a"),
            item("GitRepository", "x", "b"),
            item("GitRepository", "x", "c"),
        );
        // The server answered two items of three, the second naming another object.
        let short = Read {
            request: batch(vec![a.clone(), b.clone(), c.clone()]),
            response: InventoryObjectsResponse {
                objects: vec![answer(&a), answer(&c)],
            },
        };
        let got = adopt(&[batch(vec![a.clone(), b.clone(), c.clone()])], vec![short]);
        assert_eq!(got.taken[0].request.objects, vec![a]);
        assert!(!got.taken[0].whole);
        assert_eq!(got.still, vec![batch(vec![b, c])]);
    }

    #[test]
    fn an_item_is_taken_once_and_a_status_only_read_never() {
        let a = item("GitRepository", "x", "a");
        let mut status_only = read(vec![a.clone()]);
        status_only.request.status_only = true;
        let got = adopt(
            &[batch(vec![a.clone()])],
            vec![status_only, read(vec![a.clone()]), read(vec![a.clone()])],
        );
        assert_eq!(got.taken.len(), 1);
        assert_eq!(got.taken[0].from, 1);
        assert!(got.still.is_empty());
    }

    #[test]
    fn a_crd_read_a_last_visit_remembered_is_left_and_its_objects_are_taken_in_part() {
        // A page script from before the CRDs were read after the view may replay one batch
        // holding both; the load takes its objects and leaves the CRDs to their own read.
        let a = item("GitRepository", "x", "a");
        let crd = ObjectRef {
            api_version: "apiextensions.k8s.io/v1".into(),
            kind: "CustomResourceDefinition".into(),
            namespace: String::new(),
            name: "gitrepositories.source.toolkit.fluxcd.io".into(),
        };
        let got = adopt(&[batch(vec![a.clone()])], vec![read(vec![crd, a.clone()])]);
        assert!(got.still.is_empty());
        assert_eq!(got.taken[0].request.objects, vec![a]);
        assert!(!got.taken[0].whole, "its body answers a CRD too");
    }
}
