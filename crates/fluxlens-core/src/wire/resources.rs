//! `GET /api/v1/resources` and `/search` — resource summaries (§6.2, §6.3).

use crate::wire::status::Status;

crate::json_struct!(
    /// The list answer; `resources: null` (live mode, nothing matched) decodes as empty.
    pub struct ResourceList {
        pub resources: Vec<ResourceSummary> = "resources",
    }
);

crate::json_struct!(
    /// One row: what the server knows of an object without fetching it whole.
    pub struct ResourceSummary {
        pub name: String = "name",
        pub kind: String = "kind",
        pub namespace: String = "namespace",
        pub status: String = "status",
        pub message: String = "message",
        pub last_reconciled: Option<String> = "lastReconciled",
    }
);

impl ResourceSummary {
    /// The parsed status.
    pub fn status(&self) -> Status {
        Status::parse(&self.status)
    }
}
