//! The last visit's data, kept in the user's own browser (#28): the next visit shows it at once,
//! marked as the last visit's and never as live, while it reads the cluster. Not a share link:
//! it never leaves the browser that read it, so it is not redacted; it has its own prefix (a
//! kept copy never opens as a link, nor a link as a kept copy) and its own bound.
//!
//! Who may see it again: a copy kept while the server asked for no sign-in shows again while it
//! still asks for none; one kept behind a sign-in shows only once this visit's report has been
//! answered and the `auth-provider` cookie it wrote says the user is signed in. The app drops
//! the copy whenever the server turns the user away.

use super::{Snapshot, SnapshotError, SnapshotOptions, SnapshotView, reduced, seal, unseal_within};
use crate::model::Cluster;
use crate::wire::auth::AuthProvider;
use serde::{Deserialize, Serialize};

const PREFIX: &str = "flk1.";
/// Largest kept copy, encoded: localStorage holds about 5 MB per origin, shared with the rest of
/// the page; a larger cluster is not kept (its next visit waits for the cluster, as before).
pub const MAX_KEPT: usize = 2 * 1024 * 1024;

/// The kept copy: the data and under which sign-in it was read.
#[derive(Serialize, Deserialize)]
struct Kept {
    signed_in: bool,
    /// Read while the server asked for no sign-in at all (the Anonymous provider). Only such a
    /// copy shows before this visit's first answer: a restarting server's bootstrap handler
    /// writes the Anonymous cookie whatever its configuration (server.go `RunServer`, #47), so
    /// the cookie alone cannot tell an open server from an OIDC one that is starting.
    #[serde(default)]
    anonymous: bool,
    snapshot: Snapshot,
}

/// Whether a sign-in guards the API, from the `auth-provider` cookie: `None` without one (the
/// server asks for no sign-in), else whether the user is signed in.
pub fn sign_in(cookie: Option<&AuthProvider>) -> Option<bool> {
    cookie.map(|c| c.authenticated)
}

/// Whether a kept copy may show before this visit's first answer: only where the server asks
/// for no sign-in at all (its `auth-provider` cookie names the Anonymous provider). Elsewhere
/// it waits for the report to be answered, so a user whose session is gone never sees it.
pub fn shows_before_an_answer(cookie: Option<&AuthProvider>) -> bool {
    cookie.is_some_and(|c| c.provider == "Anonymous" && c.authenticated)
}

/// The copy to keep of a live cluster, or `None` when it is larger than [`MAX_KEPT`].
/// `signed_in`: [`sign_in`] when it was read.
pub fn keep(cluster: &Cluster, cookie: Option<&AuthProvider>) -> Option<String> {
    let signed_in = sign_in(cookie);
    let opts = SnapshotOptions {
        view: SnapshotView::Overview,
        drop_messages: false,
    };
    let kept = Kept {
        signed_in: signed_in == Some(true),
        anonymous: shows_before_an_answer(cookie),
        snapshot: reduced(cluster, opts),
    };
    let text = seal(PREFIX, &serde_json::to_vec(&kept).ok()?);
    (text.len() <= MAX_KEPT).then_some(text)
}

/// Why a kept copy is not shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotShown {
    /// Kept behind a sign-in, and the user is not signed in now (or the cookie is gone).
    SignedOut,
    /// Kept behind a sign-in: it waits for this visit's first answer (kept, not dropped).
    NotYet,
    /// Unreadable: damaged, too large, or from another format.
    Unreadable(SnapshotError),
}

/// The last visit's cluster, when the `cookie` now lets it show; `answered`: whether the
/// server has answered this visit (before that, only a copy read without any sign-in shows).
pub fn reopen(
    text: &str,
    cookie: Option<&AuthProvider>,
    answered: bool,
) -> Result<Cluster, NotShown> {
    let signed_in = sign_in(cookie);
    let json = unseal_within(PREFIX, text, MAX_KEPT).map_err(NotShown::Unreadable)?;
    let kept: Kept = serde_json::from_str(&json)
        .map_err(|e| NotShown::Unreadable(SnapshotError::Invalid(e.to_string())))?;
    let allowed = match signed_in {
        None => !kept.signed_in,
        Some(now) => now,
    };
    if !allowed {
        return Err(NotShown::SignedOut);
    }
    let open_server = kept.anonymous && shows_before_an_answer(cookie);
    if !(answered || open_server) {
        return Err(NotShown::NotYet);
    }
    Ok(kept.snapshot.into_cluster())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CrdAccess;
    use crate::wire::FluxReport;

    fn cluster() -> Cluster {
        let objs = crate::model::synthetic::objects(30)
            .into_iter()
            .filter_map(|v| serde_json::from_value(v).ok());
        let report: FluxReport = serde_json::from_str(
            r#"{"spec":{"distribution":{"version":"v2.7.3"},"userInfo":{"username":"me"}}}"#,
        )
        .unwrap();
        let mut c = Cluster::new(report, objs, CrdAccess::Unknown);
        c.notes.captured_at_ms = Some(1_764_000_000_000);
        c
    }

    fn cookie(provider: &str, authenticated: bool) -> AuthProvider {
        AuthProvider {
            provider: provider.into(),
            url: String::new(),
            authenticated,
        }
    }

    #[test]
    fn a_kept_copy_reopens_with_every_object_and_its_capture_time() {
        let c = cluster();
        let text = keep(&c, None).unwrap();
        let back = reopen(&text, None, true).unwrap();
        assert_eq!(back.objects().len(), c.objects().len());
        assert_eq!(back.notes.captured_at_ms, Some(1_764_000_000_000));
        assert_eq!(back.report.spec.distribution, c.report.spec.distribution);
    }

    #[test]
    fn a_copy_read_behind_a_sign_in_shows_only_to_a_signed_in_user() {
        let (yes, no) = (cookie("OIDC", true), cookie("OIDC", false));
        let text = keep(&cluster(), Some(&yes)).unwrap();
        assert!(reopen(&text, Some(&yes), true).is_ok());
        assert_eq!(
            reopen(&text, Some(&no), true).unwrap_err(),
            NotShown::SignedOut
        );
        // The cookie gone: the sign-in is not known to hold.
        assert_eq!(reopen(&text, None, true).unwrap_err(), NotShown::SignedOut);
        // Kept without a sign-in, then the server starts asking for one: not before it is given.
        let open = keep(&cluster(), None).unwrap();
        assert_eq!(
            reopen(&open, Some(&no), true).unwrap_err(),
            NotShown::SignedOut
        );
        assert!(reopen(&open, Some(&yes), true).is_ok());
    }

    #[test]
    fn only_a_server_without_sign_in_lets_a_copy_show_before_it_answers() {
        assert!(shows_before_an_answer(Some(&cookie("Anonymous", true))));
        assert!(!shows_before_an_answer(Some(&cookie("OIDC", true))));
        assert!(!shows_before_an_answer(Some(&cookie("OIDC", false))));
        assert!(!shows_before_an_answer(None));
        let anonymous = cookie("Anonymous", true);
        let open = keep(&cluster(), Some(&anonymous)).unwrap();
        assert!(reopen(&open, Some(&anonymous), false).is_ok());
        // #47: an OIDC server restarting writes the Anonymous cookie from its bootstrap
        // handler (server.go `RunServer`); a copy read behind its sign-in still waits for an
        // answer (kept, not dropped), so a user whose session is gone never sees it.
        let oidc = keep(&cluster(), Some(&cookie("OIDC", true))).unwrap();
        assert_eq!(
            reopen(&oidc, Some(&anonymous), false).unwrap_err(),
            NotShown::NotYet
        );
        assert_eq!(
            reopen(&oidc, Some(&cookie("OIDC", false)), true).unwrap_err(),
            NotShown::SignedOut
        );
    }

    #[test]
    fn a_kept_copy_is_not_a_share_link_and_damage_is_told() {
        let text = keep(&cluster(), None).unwrap();
        assert!(
            super::super::decode(&text).is_err(),
            "a kept copy never opens as a link"
        );
        let snap = super::super::capture(
            &cluster(),
            SnapshotOptions {
                view: SnapshotView::Overview,
                drop_messages: false,
            },
        )
        .unwrap();
        assert!(matches!(
            reopen(&super::super::encode(&snap), None, true),
            Err(NotShown::Unreadable(_))
        ));
        let mut damaged = text.clone();
        damaged.truncate(text.len() / 2);
        assert!(matches!(
            reopen(&damaged, None, true),
            Err(NotShown::Unreadable(_))
        ));
        assert!(matches!(
            reopen(&"x".repeat(MAX_KEPT + 1), None, true),
            Err(NotShown::Unreadable(SnapshotError::TooLarge(_)))
        ));
    }
}
