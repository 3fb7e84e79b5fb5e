//! The reads kept in this browser for "what changed since …" (#49): a digest of each visit
//! (`analyses::changes::digest`), a week of them at most and within [`MAX_VISITS_BYTES`],
//! oldest first out; one per hour (a visit's later reads replace its own digest). Kept under
//! the same sign-in rule as the last visit's copy (`kept`): dropped whenever the server turns
//! the user away, never shown to a user signed out since.

use super::snapshot::forms;
use super::snapshot::{SnapshotError, seal, unseal_within};
use crate::analyses::changes::digest::VisitDigest;
use crate::wire::auth::AuthProvider;
use serde::{Deserialize, Serialize};

const PREFIX: &str = "flv1.";
/// The most the kept visits take, encoded (localStorage holds about 5 MB per origin, shared
/// with the last visit's copy, at most 2 MB).
pub const MAX_VISITS_BYTES: usize = 512 * 1024;
/// How long a visit is kept.
pub const KEPT_FOR_MS: i64 = 7 * 24 * 3_600_000;
/// Reads closer than this to the newest kept one replace it instead of adding one.
const ONE_PER_MS: i64 = 3_600_000;

/// The kept visits, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Visits {
    #[serde(default)]
    signed_in: bool,
    /// Whom the server read as (`kept::identity`): visits kept behind a sign-in show only to
    /// the same identity.
    #[serde(default)]
    identity: Option<String>,
    pub list: Vec<VisitDigest>,
}

forms::json_form!(Visits {
    signed_in: or_default, set;
    identity: maybe, set;
    list: need_list, set;
});

impl Visits {
    /// Adds the digest of a read at `now_ms` (replacing the newest when it is within the hour),
    /// then drops what is older than a week.
    pub fn record(&mut self, digest: VisitDigest, now_ms: i64) {
        if self
            .list
            .last()
            .is_some_and(|last| digest.read_at_ms - last.read_at_ms < ONE_PER_MS)
        {
            self.list.pop();
        }
        self.list.push(digest);
        self.list.retain(|v| now_ms - v.read_at_ms <= KEPT_FOR_MS);
    }

    /// The read to compare with for a window starting at `from_ms`: the newest at or before it,
    /// else the oldest kept (then the answer says it does not go back that far).
    pub fn baseline(&self, from_ms: i64) -> Option<&VisitDigest> {
        self.list
            .iter()
            .rev()
            .find(|v| v.read_at_ms <= from_ms)
            .or_else(|| self.list.first())
    }

    /// The newest kept visit: "your last visit".
    pub fn last(&self) -> Option<&VisitDigest> {
        self.list.last()
    }

    /// The encoded text to store, dropping the oldest visits until it fits.
    pub fn encode(
        &mut self,
        cookie: Option<&AuthProvider>,
        report: &crate::wire::FluxReport,
    ) -> Option<String> {
        self.signed_in = super::snapshot::kept::sign_in(cookie) == Some(true);
        self.identity = super::snapshot::kept::identity(report);
        loop {
            let text = seal(PREFIX, &forms::to_text(&*self));
            if text.len() <= MAX_VISITS_BYTES {
                return Some(text);
            }
            if self.list.len() <= 1 {
                return None;
            }
            self.list.remove(0);
        }
    }

    /// The kept visits, when the sign-in now lets them show (the rule of the last visit's
    /// copy: kept behind a sign-in, shown only to the same signed-in identity; `now`: this
    /// visit's report).
    pub fn decode(
        text: &str,
        cookie: Option<&AuthProvider>,
        now: &crate::wire::FluxReport,
    ) -> Result<Visits, SnapshotError> {
        let json = unseal_within(PREFIX, text, MAX_VISITS_BYTES)?;
        let v: Visits = forms::from_text(&json, "kept visits").map_err(SnapshotError::Invalid)?;
        let kept_for = v.identity.as_deref();
        if super::snapshot::kept::admits(v.signed_in, kept_for, cookie, Some(now)) {
            Ok(v)
        } else {
            Err(SnapshotError::Invalid("kept behind a sign-in".into()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: i64) -> VisitDigest {
        VisitDigest {
            read_at_ms: ms,
            ..VisitDigest::default()
        }
    }

    const H: i64 = 3_600_000;

    #[test]
    fn one_visit_an_hour_for_a_week_oldest_first_out() {
        let mut v = Visits::default();
        let t0 = 1_800_000_000_000;
        v.record(at(t0), t0);
        v.record(at(t0 + 10 * 60_000), t0 + 10 * 60_000);
        assert_eq!(
            v.list.len(),
            1,
            "a read within the hour replaces the visit's digest"
        );
        assert_eq!(v.list[0].read_at_ms, t0 + 10 * 60_000);
        v.record(at(t0 + 2 * H), t0 + 2 * H);
        v.record(at(t0 + 8 * 24 * H), t0 + 8 * 24 * H);
        assert_eq!(v.list.len(), 1, "older than a week: dropped");
    }

    #[test]
    fn the_baseline_is_the_newest_read_at_or_before_the_window() {
        let mut v = Visits::default();
        for h in [0, 5, 30] {
            v.record(at(h * H), 30 * H);
        }
        assert_eq!(v.baseline(10 * H).unwrap().read_at_ms, 5 * H);
        assert_eq!(
            v.baseline(-H).unwrap().read_at_ms,
            0,
            "none before: the oldest"
        );
        assert_eq!(v.last().unwrap().read_at_ms, 30 * H);
    }

    #[test]
    fn the_store_round_trips_and_keeps_to_its_bound_and_sign_in() {
        let as_user = |user: &str| -> crate::wire::FluxReport {
            serde_json::from_str(&format!(
                r#"{{"spec":{{"userInfo":{{"username":"{user}","impersonation":{{"username":"{user}","groups":["g"]}}}}}}}}"#
            ))
            .unwrap()
        };
        let (ada, bob) = (as_user("ada"), as_user("bob"));
        let mut v = Visits::default();
        v.record(at(H), H);
        let text = v.encode(None, &ada).unwrap();
        assert_eq!(Visits::decode(&text, None, &ada).unwrap().list, v.list);
        let signed = AuthProvider {
            provider: "OIDC".into(),
            url: String::new(),
            authenticated: true,
        };
        let behind = v.encode(Some(&signed), &ada).unwrap();
        assert!(
            Visits::decode(&behind, None, &ada).is_err(),
            "kept behind a sign-in"
        );
        assert!(Visits::decode(&behind, Some(&signed), &ada).is_ok());
        // #67: the next user to sign in on this browser does not see them.
        assert!(Visits::decode(&behind, Some(&signed), &bob).is_err());
        assert!(Visits::decode("flv1.garbage", None, &ada).is_err());
    }
}
