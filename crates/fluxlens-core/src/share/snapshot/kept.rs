//! The last visit's data, kept in the user's own browser (#28): the next visit shows it at once,
//! marked as the last visit's and never as live, while it reads the cluster. Not a share link:
//! it never leaves the browser that read it, so it is not redacted; it has its own prefix (a
//! kept copy never opens as a link, nor a link as a kept copy) and its own bound.
//!
//! Who may see it again: a copy kept while the server asked for no sign-in shows again while it
//! still asks for none; one kept behind a sign-in shows only once this visit's report has been
//! answered and the `auth-provider` cookie it wrote says the user is signed in. The app drops
//! the copy whenever the server turns the user away.

use super::forms;
use super::{Snapshot, SnapshotError, SnapshotOptions, SnapshotView, reduced, seal, unseal_within};
use crate::model::Cluster;
use crate::wire::FluxReport;
use crate::wire::auth::AuthProvider;
use serde::{Deserialize, Serialize};

const PREFIX: &str = "flk1.";
/// Largest kept copy, encoded: localStorage holds about 5 MB per origin, shared with the rest of
/// the page; a larger cluster is not kept (its next visit waits for the cluster, as before).
pub const MAX_KEPT: usize = 2 * 1024 * 1024;

/// The kept copy: the data and under which sign-in, for whom, it was read.
#[derive(Serialize, Deserialize)]
struct Kept {
    signed_in: bool,
    /// Whom the server read as ([`identity`]); a copy kept behind a sign-in shows only to the
    /// same identity, once this visit's report says who that is.
    #[serde(default)]
    identity: Option<String>,
    /// Read while the server asked for no sign-in at all (the Anonymous provider). Only such a
    /// copy shows before this visit's first answer: a restarting server's bootstrap handler
    /// writes the Anonymous cookie whatever its configuration (server.go `RunServer`, #47), so
    /// the cookie alone cannot tell an open server from an OIDC one that is starting.
    #[serde(default)]
    anonymous: bool,
    snapshot: Snapshot,
}

forms::json_form!(Kept {
    signed_in: need, set;
    identity: maybe, set;
    anonymous: or_default, set;
    snapshot: need, set;
});

/// Whether a sign-in guards the API, from the `auth-provider` cookie: `None` without one (the
/// server asks for no sign-in), else whether the user is signed in.
pub fn sign_in(cookie: Option<&AuthProvider>) -> Option<bool> {
    cookie.map(|c| c.authenticated)
}

/// Who the server reads as for this user, from the report's `spec.userInfo` (report.go
/// `GetReport`): the impersonated username and groups, and with OAuth2 the provider's issuer and
/// subject; else the username. A fingerprint: a kept copy does not carry the identity itself.
/// `None` when the report names no one.
pub fn identity(report: &FluxReport) -> Option<String> {
    let info = report.spec.user_info.as_ref()?;
    let mut parts: Vec<String> = Vec::new();
    if let Some(imp) = &info.impersonation {
        parts.extend(imp.username.clone());
        let mut groups = imp.groups.clone();
        groups.sort();
        parts.extend(groups);
    }
    if let Some(p) = &info.provider {
        parts.extend(["iss", "sub"].iter().filter_map(|c| p.get(*c).cloned()));
    }
    if parts.is_empty() {
        parts.extend(info.username.clone());
    }
    (!parts.is_empty()).then(|| format!("{:016x}", crate::load::fingerprint(&parts.join("\n"))))
}

/// Whether a copy kept under `signed_in` for `kept_for` may show to this reader: where the
/// server asks for no sign-in, one kept without it; behind a sign-in, to a signed-in user the
/// server reads as the same identity (`now`: this visit's report, `None` before it answered).
pub fn admits(
    signed_in: bool,
    kept_for: Option<&str>,
    cookie: Option<&AuthProvider>,
    now: Option<&FluxReport>,
) -> bool {
    match sign_in(cookie) {
        None => !signed_in,
        Some(false) => false,
        Some(true) if !signed_in => true,
        Some(true) => match now {
            Some(report) => kept_for.is_some() && identity(report).as_deref() == kept_for,
            // Not yet known whom this visit reads as: the caller waits for the answer.
            None => true,
        },
    }
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
        identity: identity(&cluster.report),
        anonymous: shows_before_an_answer(cookie),
        snapshot: reduced(cluster, opts),
    };
    let text = seal(PREFIX, &super::forms::to_text(&kept));
    (text.len() <= MAX_KEPT).then_some(text)
}

/// Why a kept copy is not shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotShown {
    /// Kept behind a sign-in, and the user is not signed in now (or the cookie is gone), or
    /// the server reads this visit as someone else.
    SignedOut,
    /// Kept behind a sign-in: it waits for this visit's first answer (kept, not dropped).
    NotYet,
    /// Unreadable: damaged, too large, or from another format.
    Unreadable(SnapshotError),
}

/// The last visit's cluster, when the `cookie` and this visit's report now let it show;
/// `answered`: this visit's report, once the server has answered (before that, only a copy read
/// without any sign-in shows).
pub fn reopen(
    text: &str,
    cookie: Option<&AuthProvider>,
    answered: Option<&FluxReport>,
) -> Result<Cluster, NotShown> {
    let json = unseal_within(PREFIX, text, MAX_KEPT).map_err(NotShown::Unreadable)?;
    let kept: Kept = super::forms::from_text(&json, "kept copy")
        .map_err(|e| NotShown::Unreadable(SnapshotError::Invalid(e)))?;
    if !admits(kept.signed_in, kept.identity.as_deref(), cookie, answered) {
        return Err(NotShown::SignedOut);
    }
    let open_server = kept.anonymous && shows_before_an_answer(cookie);
    if !(answered.is_some() || open_server) {
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

    /// This visit's report, read as the user who kept the copy.
    fn me() -> FluxReport {
        cluster().report
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
        let back = reopen(&text, None, Some(&me())).unwrap();
        assert_eq!(back.objects().len(), c.objects().len());
        assert_eq!(back.notes.captured_at_ms, Some(1_764_000_000_000));
        assert_eq!(back.report.spec.distribution, c.report.spec.distribution);
    }

    /// The copy's form is the derive's (`forms`): one kept before the forms reopens, and the
    /// derive reads one kept now.
    #[test]
    fn a_copy_kept_in_the_derives_form_reopens_and_the_derive_reads_one_kept_now() {
        let c = cluster();
        let text = keep(&c, None).unwrap();
        let json = unseal_within(PREFIX, &text, MAX_KEPT).unwrap();
        let now: Kept = serde_json::from_str(&json).unwrap();
        let before = seal(PREFIX, &serde_json::to_vec(&now).unwrap());
        let back = reopen(&before, None, Some(&me())).unwrap();
        assert_eq!(back.objects().len(), c.objects().len());
        assert_eq!(
            serde_json::to_value(&now).unwrap(),
            crate::wire::json::ToJson::to_json(&now),
            "the same form"
        );
    }

    #[test]
    fn a_copy_read_behind_a_sign_in_shows_only_to_a_signed_in_user() {
        let (yes, no) = (cookie("OIDC", true), cookie("OIDC", false));
        let text = keep(&cluster(), Some(&yes)).unwrap();
        assert!(reopen(&text, Some(&yes), Some(&me())).is_ok());
        assert_eq!(
            reopen(&text, Some(&no), Some(&me())).unwrap_err(),
            NotShown::SignedOut
        );
        // The cookie gone: the sign-in is not known to hold.
        assert_eq!(
            reopen(&text, None, Some(&me())).unwrap_err(),
            NotShown::SignedOut
        );
        // Kept without a sign-in, then the server starts asking for one: not before it is given.
        let open = keep(&cluster(), None).unwrap();
        assert_eq!(
            reopen(&open, Some(&no), Some(&me())).unwrap_err(),
            NotShown::SignedOut
        );
        assert!(reopen(&open, Some(&yes), Some(&me())).is_ok());
    }

    #[test]
    fn only_a_server_without_sign_in_lets_a_copy_show_before_it_answers() {
        assert!(shows_before_an_answer(Some(&cookie("Anonymous", true))));
        assert!(!shows_before_an_answer(Some(&cookie("OIDC", true))));
        assert!(!shows_before_an_answer(Some(&cookie("OIDC", false))));
        assert!(!shows_before_an_answer(None));
        let anonymous = cookie("Anonymous", true);
        let open = keep(&cluster(), Some(&anonymous)).unwrap();
        assert!(reopen(&open, Some(&anonymous), None).is_ok());
        // #47: an OIDC server restarting writes the Anonymous cookie from its bootstrap
        // handler (server.go `RunServer`); a copy read behind its sign-in still waits for an
        // answer (kept, not dropped), so a user whose session is gone never sees it.
        let oidc = keep(&cluster(), Some(&cookie("OIDC", true))).unwrap();
        assert_eq!(
            reopen(&oidc, Some(&anonymous), None).unwrap_err(),
            NotShown::NotYet
        );
        assert_eq!(
            reopen(&oidc, Some(&cookie("OIDC", false)), Some(&me())).unwrap_err(),
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
            reopen(&super::super::encode(&snap), None, Some(&me())),
            Err(NotShown::Unreadable(_))
        ));
        let mut damaged = text.clone();
        damaged.truncate(text.len() / 2);
        assert!(matches!(
            reopen(&damaged, None, Some(&me())),
            Err(NotShown::Unreadable(_))
        ));
        assert!(matches!(
            reopen(&"x".repeat(MAX_KEPT + 1), None, Some(&me())),
            Err(NotShown::Unreadable(SnapshotError::TooLarge(_)))
        ));
    }

    /// #67: a copy kept behind a sign-in kept no identity, so it reopened for whoever signed in
    /// next on that browser.
    #[test]
    fn a_copy_kept_behind_a_sign_in_shows_only_to_the_same_identity() {
        let yes = cookie("OIDC", true);
        let as_user = |user: &str, groups: &str| -> FluxReport {
            serde_json::from_str(&format!(
                r#"{{"spec":{{"userInfo":{{"username":"{user}","impersonation":{{"username":"{user}","groups":[{groups}]}},"provider":{{"iss":"https://dex","sub":"{user}"}}}}}}}}"#
            ))
            .unwrap()
        };
        let mut c = cluster();
        c.report = as_user("ada@example.org", r#""platform""#);
        let text = keep(&c, Some(&yes)).unwrap();
        let ada = as_user("ada@example.org", r#""platform""#);
        let bob = as_user("bob@example.org", r#""platform""#);
        let ada_elsewhere = as_user("ada@example.org", r#""tenants""#);
        assert!(reopen(&text, Some(&yes), Some(&ada)).is_ok());
        assert_eq!(
            reopen(&text, Some(&yes), Some(&bob)).unwrap_err(),
            NotShown::SignedOut
        );
        assert_eq!(
            reopen(&text, Some(&yes), Some(&ada_elsewhere)).unwrap_err(),
            NotShown::SignedOut,
            "other groups read other namespaces"
        );
        assert_eq!(
            reopen(&text, Some(&yes), None).unwrap_err(),
            NotShown::NotYet
        );
        // The copy holds a fingerprint, not the address.
        let json = unseal_within(PREFIX, &text, MAX_KEPT).unwrap();
        let kept: Kept = serde_json::from_str(&json).unwrap();
        assert!(kept.identity.is_some_and(|i| !i.contains("ada")));
    }
}
