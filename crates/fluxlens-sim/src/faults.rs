//! Fault injection: set by flags at start, changeable at runtime through `/__sim/faults`.

use serde::Serialize;

/// The faults applied to `/api/` requests.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Faults {
    /// Delay before answering.
    pub latency_ms: u64,
    /// Fraction of requests answered `500` with a text body.
    pub error_rate: f64,
    /// OIDC mode: `401` unless the request carries an `auth-storage` cookie.
    pub oidc: bool,
    /// Truncated JSON bodies.
    pub malformed: bool,
    /// `200` with the HTML page instead of JSON (what a wrong proxy or the SPA fallback gives).
    pub html: bool,
    /// Drop the connection mid-response.
    pub drop: bool,
    /// Answer `503 server not initialized` (API down).
    pub down: bool,
    /// `403` for every API request.
    pub forbidden: bool,
    /// Pad JSON answers to about 10 MB.
    pub big: bool,
    /// Answer `Forbidden` for CustomResourceDefinition reads.
    pub crds_forbidden: bool,
    /// Answer `/report` with the placeholder the server gives while it starts (no namespaces,
    /// no counts).
    pub report_placeholder: bool,
    /// Listing the user's namespaces fails: the report is the placeholder and every list is
    /// empty (FO report.go `ReportHandler`, search.go `GetCachedResources`).
    pub namespaces_fail: bool,
    /// The report the server caches when `rep.Compute` failed part-way (FO report.go
    /// `refreshReportCache`: the error is logged, the result cached): the user's namespaces
    /// but no counts; in `search.cached` mode the index is rebuilt from the same empty result.
    pub half_report: bool,
    /// The confirming read (a status-only batch of Flux objects) answers `504`, as a busy
    /// server behind a gateway does.
    pub confirm_fail: bool,
    /// Server and user configuration (kept by `reset`).
    #[serde(flatten)]
    pub mode: Mode,
}

/// What the real server decides from its web config and the user's RBAC.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Mode {
    /// `search.cached: true`: lists come from the index, 2,500 rows in total, names lower-cased.
    pub search_cached: bool,
    /// The namespaces the user may read (`--namespaces a,b`); `None` = cluster-wide.
    pub namespaces: Option<Vec<String>>,
    /// Kinds whose List fails: the server leaves them out of `/resources` and still answers 200.
    pub fail_list: Vec<String>,
    /// `Kind@namespace` pairs the user may not read although the namespace is theirs (RBAC
    /// per kind): that kind's Lists, GETs and events there are Forbidden.
    pub forbid_kind: Vec<String>,
    /// Answer every UI path with the stand-in status page (the operator's SPA fallback), for the
    /// launcher-plugin tests behind the sub-path config.
    pub ui_stand_in: bool,
    /// The operator version the report says (`--operator-version v0.52.0`), instead of the
    /// scenario's: the simulator then serves what that version serves (before v0.53 the default
    /// list holds appliers and sources only).
    pub operator_version: Option<String>,
    /// `--one-instant`: every answer computed at the request, without the server's 20 s report
    /// ticker and namespace cache (`clocks.rs`), for a test that needs one instant.
    pub one_instant: bool,
    /// The web config's `authentication` (`--auth none|anonymous|oidc`): what the report's
    /// `spec.userInfo` then says (FO report.go `GetReport`, user.go `Permissions`, `Provider`).
    /// `None` follows `--namespaces`: a user scoped to namespaces has signed in (OIDC), a
    /// cluster-wide reader is the operator's own service account (no authentication block).
    pub auth: Option<Auth>,
}

/// The server's `authentication` block.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Auth {
    /// No block: every request reads as the operator's service account.
    None,
    /// `type: Anonymous`: every request impersonates one fixed identity.
    Anonymous,
    /// `type: OAuth2`, provider OIDC: each user impersonated from their ID token's claims.
    Oidc,
}

impl Mode {
    /// The authentication the server runs with (see [`Mode::auth`]).
    pub fn authentication(&self) -> Auth {
        self.auth.unwrap_or(if self.namespaces.is_some() {
            Auth::Oidc
        } else {
            Auth::None
        })
    }

    /// Whether RBAC forbids this kind in this namespace (`--forbid-kind Kind@ns`).
    pub fn forbids(&self, kind: &str, ns: &str) -> bool {
        self.forbid_kind
            .iter()
            .any(|p| p.split_once('@') == Some((kind, ns)))
    }
}

fn list(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

impl Faults {
    /// Sets one fault by its flag name; `false` when the name is unknown.
    pub fn set(&mut self, key: &str, value: &str) -> bool {
        let on = !matches!(value, "0" | "false" | "off" | "");
        match key {
            "latency-ms" => self.latency_ms = value.parse().unwrap_or(0),
            "error-rate" => self.error_rate = value.parse::<f64>().unwrap_or(0.0).clamp(0.0, 1.0),
            "oidc" => self.oidc = on,
            "malformed" => self.malformed = on,
            "html" => self.html = on,
            "drop" => self.drop = on,
            "down" => self.down = on,
            "forbidden" => self.forbidden = on,
            "big" => self.big = on,
            "crds-forbidden" => self.crds_forbidden = on,
            "report-placeholder" => self.report_placeholder = on,
            "namespaces-fail" => self.namespaces_fail = on,
            "confirm-fail" => self.confirm_fail = on,
            "half-report" => self.half_report = on,
            "search-cached" => self.mode.search_cached = on,
            "one-instant" => self.mode.one_instant = on,
            "namespaces" => {
                let ns = list(value);
                self.mode.namespaces = (!ns.is_empty()).then_some(ns);
            }
            "fail-list" => self.mode.fail_list = list(value),
            "forbid-kind" => self.mode.forbid_kind = list(value),
            "ui-stand-in" => self.mode.ui_stand_in = on,
            "auth" => {
                self.mode.auth = match value {
                    "none" => Some(Auth::None),
                    "anonymous" => Some(Auth::Anonymous),
                    "oidc" => Some(Auth::Oidc),
                    _ => return false,
                }
            }
            "operator-version" => {
                self.mode.operator_version =
                    Some(value.trim().to_string()).filter(|v| !v.is_empty())
            }
            "reset" => {
                *self = Faults {
                    crds_forbidden: self.crds_forbidden,
                    mode: self.mode.clone(),
                    ..Faults::default()
                }
            }
            _ => return false,
        }
        true
    }
}

impl Faults {
    /// Applies a query of faults; `reset` goes first whatever its position, so
    /// `reset=1&malformed=1` means "only malformed". Returns the first unknown name.
    pub fn apply(&mut self, q: &std::collections::HashMap<String, String>) -> Result<(), String> {
        if let Some(v) = q.get("reset") {
            self.set("reset", v);
        }
        for (k, v) in q.iter().filter(|(k, _)| k.as_str() != "reset") {
            if !self.set(k, v) {
                return Err(k.clone());
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_and_reset() {
        let mut f = Faults::default();
        assert!(f.set("latency-ms", "5000") && f.set("down", "1") && f.set("error-rate", "2"));
        assert_eq!((f.latency_ms, f.down, f.error_rate), (5000, true, 1.0));
        assert!(f.set("reset", "1"));
        assert_eq!(f, Faults::default());
        assert!(!f.set("nonsense", "1"));
    }

    #[test]
    fn reset_applies_first_whatever_the_query_order() {
        // Regression: a HashMap-ordered loop sometimes reset after setting the new fault.
        for _ in 0..20 {
            let mut f = Faults {
                down: true,
                ..Faults::default()
            };
            let q = [("malformed", "1"), ("reset", "1")]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            f.apply(&q).unwrap();
            assert_eq!(
                f,
                Faults {
                    malformed: true,
                    ..Faults::default()
                }
            );
        }
        let q = [("bogus".to_string(), "1".to_string())]
            .into_iter()
            .collect();
        assert_eq!(Faults::default().apply(&q), Err("bogus".into()));
    }
}
