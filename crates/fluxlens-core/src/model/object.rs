use super::key::ObjectKey;
use super::refs::{self, Reference};
use crate::wire::object::{ApiObject, Artifact, Condition, InstanceSync, RefField, Verify};
use crate::wire::status::Status;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One Flux object, normalized: its key, status, references and owner, plus the decoded
/// API object the rules read details from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Hash)]
pub struct FluxObject {
    pub key: ObjectKey,
    pub status: Status,
    /// The Ready message (or the server's reconcilerRef message).
    pub message: String,
    /// Every reference this object makes, namespace defaults applied.
    pub refs: Vec<Reference>,
    /// The Flux object that applied this one, derived from inventories (see `owners`); the
    /// first of `owners`, `None` when unknown.
    pub managed_by: Option<ObjectKey>,
    /// Every applier whose inventory lists this object: empty = unknown, two or more = a
    /// conflict shown as such. Filled by the cluster model, not by `from_api`.
    #[serde(default)]
    pub owners: Vec<ObjectKey>,
    /// The decoded object, shared with the poller's memory and with every copy of the model: a
    /// model is built each poll that changes something, and the first load's is copied for its
    /// preview, which copied every object's decoded JSON twice on the way to the first view
    /// (#51: compiling that copy alone took ≈ 3.5 ms of a first visit).
    pub raw: Arc<ApiObject>,
}

impl FluxObject {
    /// Normalizes an API object; `None` when it has no kind or name.
    pub fn from_api(raw: impl Into<Arc<ApiObject>>) -> Option<FluxObject> {
        let raw: Arc<ApiObject> = raw.into();
        let key = ObjectKey::of(&raw)?;
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
            _ => super::derived_status::derive(&raw),
        };
        let refs = refs::extract(&key, &raw);
        Some(FluxObject {
            key,
            status,
            message,
            refs,
            managed_by: None,
            owners: Vec::new(),
            raw,
        })
    }

    /// The owner as shown: the applier, "conflict: …" when two inventories list the object,
    /// or "unknown" when none does (never "none": older HelmReleases keep no inventory).
    pub fn owner_label(&self) -> String {
        match self.owners.as_slice() {
            [] => "unknown (no inventory lists it)".into(),
            [one] => one.to_string(),
            many => format!(
                "conflict: {}",
                many.iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
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

    // The spec and status fields the analyses read, named once here so no analysis reaches
    // into the decoded API object for them (#48); `raw` stays for the rarely read rest.

    /// `spec.verify`: how the source's artifacts are verified, `None` when they are not.
    pub fn verify(&self) -> Option<&Verify> {
        self.raw.spec.verify.as_ref()
    }

    /// `spec.suspend: true`.
    pub fn suspended(&self) -> bool {
        self.raw.spec.suspend == Some(true)
    }

    /// `spec.url`.
    pub fn url(&self) -> Option<&str> {
        self.raw.spec.url.as_deref()
    }

    /// `spec.type` (a HelmRepository's `oci`, a Provider's type, an auth provider's kind).
    pub fn spec_type(&self) -> Option<&str> {
        self.raw.spec.type_.as_deref()
    }

    /// `spec.ref`: the branch, tag, semver or digest a source follows.
    pub fn source_ref(&self) -> Option<&RefField> {
        self.raw.spec.ref_.as_ref()
    }

    /// `status.artifact`: the artifact the source last stored.
    pub fn artifact(&self) -> Option<&Artifact> {
        self.raw.status.artifact.as_ref()
    }

    /// `status.observedGeneration`.
    pub fn observed_generation(&self) -> Option<i64> {
        self.raw.status.observed_generation
    }

    /// `status.lastAppliedRevision`.
    pub fn last_applied_revision(&self) -> Option<&str> {
        self.raw.status.last_applied_revision.as_deref()
    }

    /// A FluxInstance's `spec.sync`.
    pub fn sync(&self) -> Option<&InstanceSync> {
        self.raw.spec.sync.as_ref()
    }
}
