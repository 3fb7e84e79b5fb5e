//! Answers to repeated object requests, remembered so that the same text again is recognised
//! without decoding it (#23) — exactly: an answer stops being recognised as soon as one of its
//! objects is read through another request or disappears, since what is kept then differs
//! from what that answer said.

use crate::model::ObjectKey;
use std::collections::HashMap;

/// Per request (its fingerprint): the last answer applied whole, of body type `B`.
#[derive(Debug, Clone)]
pub struct AnswerCache<B> {
    answers: HashMap<u64, B>,
    /// Which remembered answer holds each object.
    holder: HashMap<ObjectKey, u64>,
}

impl<B> Default for AnswerCache<B> {
    fn default() -> Self {
        AnswerCache {
            answers: HashMap::new(),
            holder: HashMap::new(),
        }
    }
}

impl<B: PartialEq> AnswerCache<B> {
    /// Whether `body` is exactly the remembered answer to `request`.
    pub fn is_same(&self, request: u64, body: &B) -> bool {
        self.answers.get(&request).is_some_and(|b| b == body)
    }

    /// Remembers an answer applied whole; any other answer that held one of its objects is
    /// forgotten.
    pub fn remember(&mut self, request: u64, keys: impl IntoIterator<Item = ObjectKey>, body: B) {
        for key in keys {
            if let Some(old) = self.holder.insert(key, request)
                && old != request
            {
                self.answers.remove(&old);
            }
        }
        self.answers.insert(request, body);
    }

    /// An object kept changed through `request`: the answer of another request that held
    /// it no longer describes it.
    pub fn changed_through(&mut self, request: u64, key: &ObjectKey) {
        if self.holder.get(key).is_some_and(|&r| r != request) {
            self.forget_holding(key);
        }
    }

    /// An object was dropped or changed outside any request: its answer is forgotten.
    pub fn forget_holding(&mut self, key: &ObjectKey) {
        if let Some(request) = self.holder.remove(key) {
            self.answers.remove(&request);
        }
    }

    /// A request's answer was not applied whole: not recognised next time.
    pub fn forget(&mut self, request: u64) {
        self.answers.remove(&request);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::kind::Kind;

    fn k(name: &str) -> ObjectKey {
        ObjectKey::new(Kind::Kustomization, "apps", name)
    }

    #[test]
    fn the_same_text_is_recognised_until_one_of_its_objects_moved() {
        let mut c = AnswerCache::default();
        c.remember(1, [k("a"), k("b")], "v1".to_string());
        c.remember(2, [k("c")], "w1".to_string());
        assert!(c.is_same(1, &"v1".into()));
        assert!(!c.is_same(1, &"v2".into()));
        // b changed through request 3 (its summary row changed): request 1's answer no longer
        // says what is kept — if the server reverts b, the old text must be decoded again.
        c.changed_through(3, &k("b"));
        assert!(!c.is_same(1, &"v1".into()));
        assert!(c.is_same(2, &"w1".into()), "others stay");
        // A change through the answer's own request does not forget it.
        c.changed_through(2, &k("c"));
        assert!(c.is_same(2, &"w1".into()));
        // A dropped object forgets its answer: if it comes back, it is decoded.
        c.forget_holding(&k("c"));
        assert!(!c.is_same(2, &"w1".into()));
        // A new answer holding an object takes it from the old one.
        c.remember(4, [k("x")], "x1".into());
        c.remember(5, [k("x"), k("y")], "xy".into());
        assert!(!c.is_same(4, &"x1".into()) && c.is_same(5, &"xy".into()));
        c.forget(5);
        assert!(!c.is_same(5, &"xy".into()));
    }
}
