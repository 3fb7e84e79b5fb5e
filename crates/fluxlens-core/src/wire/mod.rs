//! The wire: what the Flux Operator status API sends and accepts (read endpoints only) —
//! tolerant serde models, the JSON helpers behind them, the client's one error type, the sign-in
//! cookie and what each server version serves.
//!
//! Tolerant serde models of the Flux Operator status API (read endpoints only).
//!
//! Unknown fields are ignored, absent or `null` fields become `None`/empty, and a field with
//! an unexpected shape costs only that field (see [`crate::wire::json`]).

pub mod auth;
pub mod error;
pub mod events;
pub mod inventory;
pub mod json;
pub mod kind;
pub mod object;
pub mod report;
pub mod resources;
pub mod server;
pub mod status;

pub use events::{Event, EventList};
pub use inventory::{InventoryObjectsRequest, InventoryObjectsResponse, ObjectRef, ObjectResult};
pub use object::ApiObject;
pub use report::FluxReport;
pub use resources::{ResourceList, ResourceSummary};

/// Every endpoint fluxlens may call, as `(method, path)`. The client refuses anything else;
/// a test pins this list so a mutating endpoint cannot slip in.
pub const ALLOWED_ENDPOINTS: [(&str, &str); 6] = [
    ("GET", "/api/v1/report"),
    ("GET", "/api/v1/resources"),
    ("GET", "/api/v1/resource"),
    ("GET", "/api/v1/events"),
    ("GET", "/api/v1/search"),
    ("POST", "/api/v1/inventory/objects"),
];

/// What the app reads from a fleet hub itself (the deploy kit's, not the operator's): the list
/// of clusters, names and labels only.
pub const HUB_ENDPOINTS: [(&str, &str); 1] = [("GET", "/clusters.json")];

/// Whether `(method, path)` is in [`ALLOWED_ENDPOINTS`] or [`HUB_ENDPOINTS`] (query string
/// ignored).
pub fn is_allowed(method: &str, path: &str) -> bool {
    let path = path.split('?').next().unwrap_or(path);
    ALLOWED_ENDPOINTS
        .iter()
        .chain(HUB_ENDPOINTS.iter())
        .any(|(m, p)| *m == method && *p == path)
}

/// Decodes a "not found" answer: `GET /api/v1/resource` returns `{}` instead of 404.
pub fn decode_resource(body: &str) -> Result<Option<ApiObject>, serde_json::Error> {
    let v: serde_json::Value = serde_json::from_str(body)?;
    if v.as_object().is_some_and(|m| m.is_empty()) {
        return Ok(None);
    }
    serde_json::from_value(v).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_allowlist_is_read_only() {
        // Pinned: changing this list must be a deliberate, reviewed act.
        assert_eq!(ALLOWED_ENDPOINTS.len(), 6);
        assert_eq!(HUB_ENDPOINTS, [("GET", "/clusters.json")]);
        assert!(!is_allowed("POST", "/clusters.json"));
        assert!(is_allowed("GET", "/api/v1/resources?kind=Kustomization"));
        assert!(is_allowed("POST", "/api/v1/inventory/objects"));
        for (m, p) in [
            ("POST", "/api/v1/resource/action"),
            ("POST", "/api/v1/workload/action"),
            ("POST", "/logout"),
            ("GET", "/api/v1/artifact/download"),
            ("DELETE", "/api/v1/resource"),
            ("POST", "/api/v1/resources"),
        ] {
            assert!(!is_allowed(m, p), "{m} {p}");
        }
    }

    #[test]
    fn the_standalone_kit_forwards_exactly_the_allowed_endpoints() {
        // deploy/nginx/fluxlens.conf.template: one exact location per endpoint, its one method.
        let conf = include_str!("../../../../deploy/nginx/fluxlens.conf.template");
        let mut forwarded: Vec<(String, String)> = Vec::new();
        let mut lines = conf.lines().map(str::trim);
        while let Some(line) = lines.next() {
            if let Some(path) = line
                .strip_prefix("location = /api/")
                .and_then(|r| r.strip_suffix(" {"))
            {
                let method = lines
                    .next()
                    .and_then(|l| l.strip_prefix("limit_except "))
                    .and_then(|l| l.split_whitespace().next())
                    .unwrap_or("ANY");
                forwarded.push((method.to_string(), format!("/api/{path}")));
            }
        }
        let mut allowed: Vec<(String, String)> = ALLOWED_ENDPOINTS
            .iter()
            .map(|(m, p)| (m.to_string(), p.to_string()))
            .collect();
        forwarded.sort();
        allowed.sort();
        assert_eq!(forwarded, allowed);
        assert!(
            conf.contains("location /api/ {\n        default_type text/plain;\n        return 403")
        );
    }

    #[test]
    fn empty_object_means_not_found() {
        assert!(decode_resource("{}").unwrap().is_none());
        assert!(
            decode_resource(r#"{"kind":"Kustomization"}"#)
                .unwrap()
                .is_some()
        );
        assert!(decode_resource("<html>").is_err());
    }
}
