//! `GET /api/v1/resources` and `/search` — resource summaries (§6.2, §6.3).

use crate::lenient;
use crate::status::Status;
use serde::{Deserialize, Serialize};

/// The list answer; `resources: null` (live mode, nothing matched) decodes as empty.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct ResourceList {
    #[serde(default, deserialize_with = "lenient::vec")]
    pub resources: Vec<ResourceSummary>,
}

/// One row: what the server knows of an object without fetching it whole.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceSummary {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub namespace: String,
    #[serde(default)]
    pub status: String,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub message: String,
    #[serde(default, deserialize_with = "lenient::opt")]
    pub last_reconciled: Option<String>,
}

impl ResourceSummary {
    /// The parsed status.
    pub fn status(&self) -> Status {
        Status::parse(&self.status)
    }
}
