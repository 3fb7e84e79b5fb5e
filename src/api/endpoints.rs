//! One async function per endpoint.

use super::{ApiError, Body, get_json, get_text, post_json, post_text};
use fluxlens_core::api::{
    ApiObject, EventList, FluxReport, InventoryObjectsRequest, InventoryObjectsResponse,
    ResourceList,
};

/// `GET /api/v1/report`.
pub async fn report() -> Result<FluxReport, ApiError> {
    get_json("/api/v1/report", &[]).await
}

/// `GET /api/v1/resources` (empty filters are omitted).
pub async fn resources(kind: &str, namespace: &str) -> Result<ResourceList, ApiError> {
    get_json(
        "/api/v1/resources",
        &[("kind", kind), ("namespace", namespace)],
    )
    .await
}

/// `GET /api/v1/events` for one object.
pub async fn events(kind: &str, name: &str, namespace: &str) -> Result<EventList, ApiError> {
    get_json(
        "/api/v1/events",
        &[("kind", kind), ("name", name), ("namespace", namespace)],
    )
    .await
}

/// `GET /api/v1/resource`: one object, enriched (`{}` when it does not exist).
pub async fn resource(kind: &str, name: &str, namespace: &str) -> Result<ApiObject, ApiError> {
    get_json(
        "/api/v1/resource",
        &[("kind", kind), ("name", name), ("namespace", namespace)],
    )
    .await
}

/// `POST /api/v1/inventory/objects` (read-only).
pub async fn inventory_objects(
    req: &InventoryObjectsRequest,
) -> Result<InventoryObjectsResponse, ApiError> {
    post_json("/api/v1/inventory/objects", req).await
}

/// `GET /api/v1/resources` as text (compared with the last poll's before decoding).
pub async fn resources_text(kind: &str, namespace: &str) -> Result<Body, ApiError> {
    get_text(
        "/api/v1/resources",
        &[("kind", kind), ("namespace", namespace)],
    )
    .await
}

/// `POST /api/v1/inventory/objects` as text (see [`resources_text`]).
pub async fn inventory_objects_text(req: &InventoryObjectsRequest) -> Result<Body, ApiError> {
    post_text("/api/v1/inventory/objects", req).await
}
