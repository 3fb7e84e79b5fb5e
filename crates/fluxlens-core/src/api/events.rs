//! `GET /api/v1/events` — Kubernetes events of Flux objects (§6.5).

use crate::lenient;
use serde::{Deserialize, Serialize};

/// The events answer.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct EventList {
    #[serde(default, deserialize_with = "lenient::vec")]
    pub events: Vec<Event>,
}

/// One event; `lastTimestamp` is `null` for events written through the newer events API.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    #[serde(default, deserialize_with = "lenient::opt")]
    pub last_timestamp: Option<String>,
    #[serde(default, rename = "type")]
    pub type_: String,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub message: String,
    /// `"<Kind>/<name>"`.
    #[serde(default)]
    pub involved_object: String,
    #[serde(default)]
    pub namespace: String,
}
