//! References that look missing and that the server has not settled: still being confirmed,
//! or not confirmed at all. While any is, no view may say "nothing is missing", "no dangling
//! reference" or "no critical finding" as if it knew (absence is a finding only on complete,
//! confirmed data).

use super::{CONFIRMING, Cluster, ObjectKey};
use crate::util::words::{agree, plural};

/// What the confirming read has not settled yet.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Unsettled {
    /// The confirming read is under way for this many references (#51: the first view is shown
    /// before it answers).
    Confirming(usize),
    /// The confirming read failed, timed out or did not reach this many references; the first
    /// one and why.
    NotConfirmed {
        count: usize,
        first: ObjectKey,
        why: String,
    },
}

impl Unsettled {
    /// How many references are unsettled.
    pub fn count(&self) -> usize {
        match self {
            Unsettled::Confirming(n) => *n,
            Unsettled::NotConfirmed { count, .. } => *count,
        }
    }

    /// One sentence for a check's detail, a verdict or a notice: "confirming 1 reference that
    /// looks missing with the server…", "2 references that look missing could not be
    /// confirmed (for example GitRepository/a/b: the confirming read failed (HTTP 504))".
    pub fn phrase(&self) -> String {
        match self {
            Unsettled::Confirming(_) => format!("confirming {}", self.references()),
            Unsettled::NotConfirmed { first, why, .. } => format!(
                "{} could not be confirmed (for example {first}: {why})",
                self.references()
            ),
        }
    }

    /// "1 reference that looks missing", "2 references that look missing", and for those
    /// still being confirmed "… with the server…".
    fn references(&self) -> String {
        let n = self.count();
        let refs = format!(
            "{} that {} missing",
            plural(n, "reference"),
            agree(n, "looks", "look")
        );
        match self {
            Unsettled::Confirming(_) => format!("{refs} with the server…"),
            Unsettled::NotConfirmed { .. } => refs,
        }
    }

    /// Beside a count that is a floor until they settle: "1 more being confirmed with the
    /// server…", "2 more could not be confirmed".
    pub fn tally(&self) -> String {
        match self {
            Unsettled::Confirming(n) => format!("{n} more being confirmed with the server…"),
            Unsettled::NotConfirmed { count, .. } => format!("{count} more could not be confirmed"),
        }
    }

    /// The page's notice: the phrase as a sentence, saying how the references are drawn.
    pub fn notice(&self) -> String {
        match self {
            Unsettled::Confirming(_) => format!("Confirming {}", self.references()),
            Unsettled::NotConfirmed { .. } => format!(
                "{}: they are shown as not visible, never missing.",
                self.phrase()
            ),
        }
    }
}

impl Cluster {
    /// Whether this is the model of a finished poll, not the first load's preview shown while
    /// its confirming read and its CRD read are under way (#67: a copy kept for the next visit
    /// was that preview, "confirming…" and CRDs unknown, locked in for 5 minutes).
    pub fn settled(&self) -> bool {
        let confirming = self
            .notes
            .unconfirmed
            .iter()
            .any(|(_, why)| why == CONFIRMING);
        !confirming && self.crds != crate::model::CrdAccess::Reading
    }

    /// What the confirming read has not settled, if anything: references it is still asking
    /// about first (they settle within a round trip), then those it could not answer for.
    pub fn unsettled(&self) -> Option<Unsettled> {
        let open: Vec<&(ObjectKey, String)> = self.open_notes().collect();
        let confirming = open.iter().filter(|(_, why)| why == CONFIRMING).count();
        if confirming > 0 {
            return Some(Unsettled::Confirming(confirming));
        }
        let (first, why) = open.first()?;
        Some(Unsettled::NotConfirmed {
            count: open.len(),
            first: first.clone(),
            why: why.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Answer;
    use crate::wire::kind::Kind;

    fn key(name: &str) -> ObjectKey {
        ObjectKey::new(Kind::GitRepository, "flux-system", name)
    }

    #[test]
    fn settled_when_nothing_is_open() {
        let mut c = Cluster::default();
        assert_eq!(c.unsettled(), None);
        // Answered since: the note is stale, the reference settled.
        c.notes.unconfirmed = vec![(key("a"), CONFIRMING.into())];
        c.confirmations.insert(key("a"), Answer::NotFound);
        assert_eq!(c.unsettled(), None);
    }

    #[test]
    fn confirming_comes_before_not_confirmed_and_reads_in_the_singular() {
        let mut c = Cluster::default();
        c.notes.unconfirmed = vec![
            (key("a"), "the confirming read failed (HTTP 504)".into()),
            (key("b"), CONFIRMING.into()),
        ];
        let u = c.unsettled().unwrap();
        assert_eq!(u, Unsettled::Confirming(1));
        assert_eq!(
            u.phrase(),
            "confirming 1 reference that looks missing with the server…"
        );
        c.notes.unconfirmed.pop();
        c.notes
            .unconfirmed
            .push((key("c"), "beyond the confirming read's cap".into()));
        let u = c.unsettled().unwrap();
        assert_eq!(u.count(), 2);
        assert_eq!(
            u.phrase(),
            "2 references that look missing could not be confirmed (for example \
             GitRepository/flux-system/a: the confirming read failed (HTTP 504))"
        );
        assert_eq!(
            u.notice(),
            "2 references that look missing could not be confirmed (for example \
             GitRepository/flux-system/a: the confirming read failed (HTTP 504)): they are \
             shown as not visible, never missing."
        );
        assert!(
            Unsettled::Confirming(3)
                .notice()
                .starts_with("Confirming 3 references")
        );
    }

    #[test]
    fn the_first_loads_preview_is_not_settled_and_the_finished_poll_is() {
        let mut c = Cluster::new(Default::default(), std::iter::empty(), Default::default());
        assert!(c.settled());
        c.notes.unconfirmed = vec![(key("a"), CONFIRMING.into())];
        assert!(!c.settled(), "confirming");
        c.notes.unconfirmed = vec![(key("a"), "the confirming read failed (HTTP 504)".into())];
        assert!(c.settled(), "a poll that ended, unconfirmed");
        c.crds = crate::model::CrdAccess::Reading;
        assert!(!c.settled(), "reading the CRDs");
    }
}
