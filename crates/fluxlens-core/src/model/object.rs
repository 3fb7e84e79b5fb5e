use super::key::ObjectKey;
use super::refs::{self, Reference};
use crate::api::object::{ApiObject, Condition};
use crate::kind::Kind;
use crate::status::{self, Status};
use serde::{Deserialize, Serialize};

/// One Flux object, normalized: its key, status, references and owner, plus the decoded
/// API object the rules read details from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FluxObject {
    pub key: ObjectKey,
    pub status: Status,
    /// The Ready message (or the server's reconcilerRef message).
    pub message: String,
    /// Every reference this object makes, namespace defaults applied.
    pub refs: Vec<Reference>,
    /// The Flux object that applied this one (`status.reconcilerRef.managedBy`).
    pub managed_by: Option<ObjectKey>,
    /// The decoded object.
    pub raw: ApiObject,
}

impl FluxObject {
    /// Normalizes an API object; `None` when it has no kind or name.
    pub fn from_api(raw: ApiObject) -> Option<FluxObject> {
        let kind = Kind::parse(raw.kind.as_deref().filter(|k| !k.is_empty())?);
        if raw.metadata.name.is_empty() {
            return None;
        }
        let key = ObjectKey::new(
            kind,
            raw.metadata.namespace.clone(),
            raw.metadata.name.clone(),
        );
        // Prefer what the server computed; derive the same way when it is absent.
        let (status, message) = match raw
            .status
            .reconciler_ref
            .as_ref()
            .and_then(|r| r.status.as_deref())
        {
            Some(s) if !s.is_empty() => (
                Status::parse(s),
                raw.status
                    .reconciler_ref
                    .as_ref()
                    .and_then(|r| r.message.clone())
                    .unwrap_or_default(),
            ),
            _ => status::derive(&raw),
        };
        let managed_by = raw
            .status
            .reconciler_ref
            .as_ref()
            .and_then(|r| r.managed_by.as_deref())
            .and_then(ObjectKey::parse);
        let refs = refs::extract(&key, &raw);
        Some(FluxObject {
            key,
            status,
            message,
            refs,
            managed_by,
            raw,
        })
    }

    /// The condition of the given type.
    pub fn condition(&self, type_: &str) -> Option<&Condition> {
        self.raw.condition(type_)
    }

    /// An annotation value.
    pub fn annotation(&self, key: &str) -> Option<&str> {
        self.raw.metadata.annotations.get(key).map(String::as_str)
    }

    /// The artifact revision, if the object has stored an artifact.
    pub fn artifact_revision(&self) -> Option<&str> {
        self.raw.status.artifact.as_ref()?.revision.as_deref()
    }
}
