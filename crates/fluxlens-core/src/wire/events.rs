//! `GET /api/v1/events` — Kubernetes events of Flux objects (§6.5).

crate::json_struct!(
    /// The events answer.
    pub struct EventList {
        pub events: Vec<Event> = "events",
    }
);

crate::json_struct!(
    /// One event; `lastTimestamp` is `null` for events written through the newer events API.
    pub struct Event {
        pub last_timestamp: Option<String> = "lastTimestamp",
        pub type_: String = "type",
        pub message: String = "message",
        /// `"<Kind>/<name>"`.
        pub involved_object: String = "involvedObject",
        pub namespace: String = "namespace",
    }
);
