//! `POST /api/v1/inventory/objects` — fetch full objects in batches (§6.6). Read-only.

use super::object::ApiObject;
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

crate::json_struct!(
    /// The answer, in request order.
    pub struct InventoryObjectsResponse {
        pub objects: Vec<ObjectResult> = "objects",
    }
);

crate::json_struct!(
    /// One item: either `object` or `error` (`NotFound`, `Forbidden`, `Error`).
    pub struct ObjectResult {
        pub api_version: String = "apiVersion",
        pub kind: String = "kind",
        pub namespace: String = "namespace",
        pub name: String = "name",
        pub status: Option<String> = "status",
        pub status_message: Option<String> = "statusMessage",
        pub error: Option<String> = "error",
        pub object: Option<ApiObject> = "object",
    }
);
