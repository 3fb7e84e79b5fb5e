//! Who can read through this server, as far as the report tells: the Flux Operator's web
//! server without an `authentication` block reads everything with its own service account, so
//! anyone who reaches its address reads the whole cluster's Flux state (FO report.go
//! `GetReport` injects `spec.userInfo`: `impersonation` only with a session, `provider` only
//! under OAuth2).

use crate::wire::report::FluxReport;

/// How the server reads for the person looking.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ReadAccess {
    /// No sign-in: the operator's own service account, cluster-wide, for anyone.
    ServiceAccount,
    /// `Anonymous`: everyone reads as one fixed identity.
    Anonymous { identity: String },
    /// OAuth2 (OIDC): each person signed in, read as themselves.
    SignedIn { user: String },
    /// The report says nothing about it: an older operator, or a snapshot (which drops it).
    NotVisible,
}

impl ReadAccess {
    /// Reads it from the report's `spec.userInfo`.
    pub fn of(report: &FluxReport) -> ReadAccess {
        let Some(info) = report.spec.user_info.as_ref() else {
            return ReadAccess::NotVisible;
        };
        let identity = info.impersonation.as_ref().map(|i| {
            let name = i.username.clone().filter(|u| !u.is_empty());
            let groups = (!i.groups.is_empty()).then(|| i.groups.join(", "));
            match (name, groups) {
                (Some(n), Some(g)) => format!("{n} (groups {g})"),
                (Some(n), None) => n,
                (None, Some(g)) => format!("groups {g}"),
                (None, None) => "an empty identity".into(),
            }
        });
        match (identity, info.provider.is_some()) {
            (None, _) => ReadAccess::ServiceAccount,
            (Some(identity), false) => ReadAccess::Anonymous { identity },
            (Some(identity), true) => ReadAccess::SignedIn {
                user: info.username.clone().unwrap_or(identity),
            },
        }
    }

    /// The value of `data-access` on the page.
    pub fn as_str(&self) -> &'static str {
        match self {
            ReadAccess::ServiceAccount => "service-account",
            ReadAccess::Anonymous { .. } => "anonymous",
            ReadAccess::SignedIn { .. } => "signed-in",
            ReadAccess::NotVisible => "not-visible",
        }
    }

    /// What the page says about it, when there is something to warn about.
    pub fn notice(&self, namespaces: usize) -> Option<String> {
        match self {
            ReadAccess::ServiceAccount => Some(format!(
                "No sign-in: the Flux Operator's web server reads with its own service account, \
                 cluster-wide ({}). Anyone who can reach this address can read this, unless an \
                 authenticating proxy stands in front of it.",
                match namespaces {
                    1 => "1 namespace".to_string(),
                    n => format!("{n} namespaces"),
                }
            )),
            ReadAccess::Anonymous { identity } => Some(format!(
                "No sign-in: everyone who reaches this address reads as {identity} \
                 (the server's Anonymous authentication)."
            )),
            ReadAccess::SignedIn { .. } | ReadAccess::NotVisible => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(user_info: &str) -> FluxReport {
        let text = format!(r#"{{"spec":{{"userInfo":{user_info}}}}}"#);
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn the_three_server_configurations_and_the_unknown() {
        // report.go GetReport: without authentication only the username (the pod's hostname).
        let none = report(r#"{"username":"flux-operator-7d9f8b6c4-x2k5q"}"#);
        assert_eq!(ReadAccess::of(&none), ReadAccess::ServiceAccount);
        assert!(
            ReadAccess::of(&none)
                .notice(12)
                .unwrap()
                .contains("12 namespaces")
        );
        let anonymous = report(
            r#"{"username":"viewer","impersonation":{"username":"viewer","groups":["flux-web-viewers"]}}"#,
        );
        let a = ReadAccess::of(&anonymous);
        assert_eq!(
            a,
            ReadAccess::Anonymous {
                identity: "viewer (groups flux-web-viewers)".into()
            }
        );
        assert!(a.notice(3).unwrap().contains("reads as viewer"));
        let oidc = report(
            r#"{"username":"Ada","impersonation":{"username":"ada@example.org","groups":null},"provider":{"iss":"https://dex","groups":["a"]},"sessionStart":"2026-12-01T08:00:00Z"}"#,
        );
        assert_eq!(
            ReadAccess::of(&oidc),
            ReadAccess::SignedIn { user: "Ada".into() }
        );
        assert_eq!(ReadAccess::of(&oidc).notice(3), None);
        let old: FluxReport = serde_json::from_str(r#"{"spec":{}}"#).unwrap();
        assert_eq!(ReadAccess::of(&old), ReadAccess::NotVisible);
        assert_eq!(
            ReadAccess::of(&old).notice(3),
            None,
            "never a warning from silence"
        );
    }
}
