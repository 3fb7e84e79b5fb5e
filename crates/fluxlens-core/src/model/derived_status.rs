//! An object's status and message derived from the object itself, exactly as the operator
//! does (§5.1 of the API reference), for objects read whole rather than listed.

use crate::wire::kind::Kind;
use crate::wire::object::{ApiObject, Condition};
use crate::wire::status::Status;

/// Derives status and message from a full object exactly as the operator does (§5.1).
pub(crate) fn derive(obj: &ApiObject) -> (Status, String) {
    let suspended_annotation = obj
        .metadata
        .annotations
        .get("fluxcd.controlplane.io/reconcile")
        .is_some_and(|v| v == "disabled");
    if obj.spec.suspend == Some(true) || suspended_annotation {
        return (Status::Suspended, "Reconciliation suspended".into());
    }
    let ready = obj.status.conditions.iter().find(|c| c.type_ == "Ready");
    match ready {
        Some(c) => (from_ready(c), c.message.clone().unwrap_or_default()),
        None => {
            let kind = Kind::parse(obj.kind.as_deref().unwrap_or(""));
            let oci_repo = kind == Kind::HelmRepository && obj.spec.type_.as_deref() == Some("oci");
            if matches!(kind, Kind::Alert | Kind::Provider) || oci_repo {
                (Status::Ready, "Valid configuration".into())
            } else {
                (Status::Unknown, "No status information available".into())
            }
        }
    }
}

fn from_ready(c: &Condition) -> Status {
    let reason = c.reason.as_deref().unwrap_or("");
    match c.status.as_str() {
        "True" => Status::Ready,
        "False" if reason == "DependencyNotReady" => Status::Progressing,
        "False" => Status::Failed,
        _ if matches!(reason, "" | "Progressing" | "Reconciling") => Status::Progressing,
        _ => Status::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(json: &str) -> ApiObject {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn follows_the_operator_rules() {
        let cases = [
            (
                r#"{"kind":"Kustomization","status":{"conditions":[{"type":"Ready","status":"True","message":"ok"}]}}"#,
                Status::Ready,
            ),
            (
                r#"{"kind":"Kustomization","status":{"conditions":[{"type":"Ready","status":"False","reason":"BuildFailed"}]}}"#,
                Status::Failed,
            ),
            (
                r#"{"kind":"Kustomization","status":{"conditions":[{"type":"Ready","status":"False","reason":"DependencyNotReady"}]}}"#,
                Status::Progressing,
            ),
            (
                r#"{"kind":"Kustomization","status":{"conditions":[{"type":"Ready","status":"Unknown","reason":"Reconciling"}]}}"#,
                Status::Progressing,
            ),
            (
                r#"{"kind":"Kustomization","status":{"conditions":[{"type":"Ready","status":"Unknown","reason":"Weird"}]}}"#,
                Status::Unknown,
            ),
            (
                r#"{"kind":"Kustomization","spec":{"suspend":true},"status":{"conditions":[{"type":"Ready","status":"True"}]}}"#,
                Status::Suspended,
            ),
            (
                r#"{"kind":"FluxInstance","metadata":{"annotations":{"fluxcd.controlplane.io/reconcile":"disabled"}}}"#,
                Status::Suspended,
            ),
            (r#"{"kind":"Kustomization"}"#, Status::Unknown),
            (r#"{"kind":"Alert"}"#, Status::Ready),
            (
                r#"{"kind":"HelmRepository","spec":{"type":"oci"}}"#,
                Status::Ready,
            ),
            (
                r#"{"kind":"HelmRepository","spec":{"type":"default"}}"#,
                Status::Unknown,
            ),
        ];
        for (json, want) in cases {
            assert_eq!(derive(&obj(json)).0, want, "{json}");
        }
    }
}
