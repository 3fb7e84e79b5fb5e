//! One async method per endpoint, on the API of one cluster.

use super::{ApiError, Body, PrefetchedPost, get_json, get_text, post_json, post_text};
use fluxlens_core::api::{
    ApiObject, EventList, FluxReport, InventoryObjectsRequest, InventoryObjectsResponse,
    ResourceList,
};
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

    /// `GET /api/v1/report`.
    pub async fn report(&self) -> Result<FluxReport, ApiError> {
        get_json(&self.base, "/api/v1/report", &[]).await
    }

    /// `GET /api/v1/resources` (empty filters are omitted).
    pub async fn resources(&self, kind: &str, namespace: &str) -> Result<ResourceList, ApiError> {
        let query = [("kind", kind), ("namespace", namespace)];
        get_json(&self.base, "/api/v1/resources", &query).await
    }

    /// `GET /api/v1/events` for one object.
    pub async fn events(&self, kind: &str, name: &str, ns: &str) -> Result<EventList, ApiError> {
        let query = [("kind", kind), ("name", name), ("namespace", ns)];
        get_json(&self.base, "/api/v1/events", &query).await
    }

    /// `GET /api/v1/resource`: one object, enriched (`{}` when it does not exist).
    pub async fn resource(&self, kind: &str, name: &str, ns: &str) -> Result<ApiObject, ApiError> {
        let query = [("kind", kind), ("name", name), ("namespace", ns)];
        get_json(&self.base, "/api/v1/resource", &query).await
    }

    /// `POST /api/v1/inventory/objects` (read-only).
    pub async fn inventory_objects(
        &self,
        req: &InventoryObjectsRequest,
    ) -> Result<InventoryObjectsResponse, ApiError> {
        post_json(&self.base, "/api/v1/inventory/objects", req).await
    }

    /// `GET /api/v1/resources` as text (compared with the last poll's before decoding).
    pub async fn resources_text(&self, kind: &str, namespace: &str) -> Result<Body, ApiError> {
        let query = [("kind", kind), ("namespace", namespace)];
        get_text(&self.base, "/api/v1/resources", &query).await
    }

    /// `POST /api/v1/inventory/objects` as text (see [`Api::resources_text`]).
    pub async fn inventory_objects_text(
        &self,
        req: &InventoryObjectsRequest,
    ) -> Result<Body, ApiError> {
        post_text(&self.base, "/api/v1/inventory/objects", req).await
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
