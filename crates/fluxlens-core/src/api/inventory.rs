//! `POST /api/v1/inventory/objects` — fetch full objects in batches (§6.6). Read-only.

use super::object::ApiObject;
use crate::lenient;
use serde::{Deserialize, Serialize};

/// The server processes at most this many items per request and silently drops the rest.
pub const MAX_BATCH: usize = 2000;

/// One object to fetch.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectRef {
    pub api_version: String,
    pub kind: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    pub name: String,
}

/// The request body.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InventoryObjectsRequest {
    pub objects: Vec<ObjectRef>,
    #[serde(default)]
    pub status_only: bool,
}

/// The answer, in request order.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct InventoryObjectsResponse {
    #[serde(default, deserialize_with = "lenient::vec")]
    pub objects: Vec<ObjectResult>,
}

/// One item: either `object` or `error` (`NotFound`, `Forbidden`, `Error`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectResult {
    #[serde(default)]
    pub api_version: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub namespace: String,
    #[serde(default)]
    pub name: String,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub status: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub status_message: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub error: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub object: Option<ApiObject>,
}
