//! One async method per endpoint, on the API of one cluster.

use super::{ApiError, Body, PrefetchedPost, get_json, get_text, post_text};
use fluxlens_core::load::poll::Request;
use fluxlens_core::wire::EventList;
use std::rc::Rc;

/// One cluster's API: the page's own, or a fleet cluster's under `/clusters/<name>`.
#[derive(Clone, Debug, PartialEq)]
pub struct Api {
    base: Rc<str>,
}

/// The page's own API: what a loader reads unless told otherwise.
impl Default for Api {
    fn default() -> Api {
        Api::page()
    }
}

impl Api {
    /// The API of the cluster the page shows (`super::base_path`).
    pub fn page() -> Api {
        Api::under(&super::base_path())
    }

    /// The API served under a path prefix (`/clusters/prod-eu`).
    pub fn under(base: &str) -> Api {
        Api {
            base: base.trim_end_matches('/').into(),
        }
    }

    /// Sends one of the poller's requests; the answer's body undecoded (a poll compares it
    /// with the last answer before paying for decoding, #23).
    pub async fn send(&self, request: &Request) -> Result<Body, ApiError> {
        match request {
            Request::Objects(batch) => post_text(&self.base, request.path(), batch).await,
            _ => {
                let query = request.query();
                let query: Vec<(&str, &str)> =
                    query.iter().map(|(k, v)| (*k, v.as_str())).collect();
                get_text(&self.base, request.path(), &query).await
            }
        }
    }

    /// `GET /api/v1/events` for one object.
    pub async fn events(&self, kind: &str, name: &str, ns: &str) -> Result<EventList, ApiError> {
        let query = [("kind", kind), ("name", name), ("namespace", ns)];
        get_json(&self.base, "/api/v1/events", &query).await
    }

    /// `GET /api/v1/events?type=Warning`: every kind's Warning events in the user's namespaces
    /// (events.go `GetEvents`: at most 500 per kind when several kinds are read, the type kept
    /// after the cap).
    pub async fn warning_events(&self) -> Result<EventList, ApiError> {
        get_json(&self.base, "/api/v1/events", &[("type", "Warning")]).await
    }

    /// The object batches the page's script read before the app started (#28), once: for the
    /// page's own API only (a fleet cluster's reads are its own).
    pub async fn prefetched_posts(&self) -> Vec<PrefetchedPost> {
        if *self.base != *super::base_path() {
            return Vec::new();
        }
        super::prefetched_posts().await
    }
}
