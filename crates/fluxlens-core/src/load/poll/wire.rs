//! What the poller asks and what it is answered: requests named by endpoint, sent by the app
//! (its one HTTP door) or answered in a test by the simulator; answers as the body's text.

use crate::model::{Cluster, ObjectKey};
use crate::wire::error::ApiError;
use crate::wire::inventory::InventoryObjectsRequest;

/// An answer's body as the caller holds it. The app's is the browser's string, compared with
/// the last answer inside the browser so an unchanged answer is never copied into wasm memory
/// (#23); a test's is a `String`.
pub trait Text: Clone + PartialEq {
    /// The text, copied out.
    fn text(&self) -> String;
}

impl Text for String {
    fn text(&self) -> String {
        self.clone()
    }
}

/// What one request came back with: the body of a 2xx JSON answer, or why not.
pub type Answer<B> = Result<B, ApiError>;

/// One read of the Flux Operator's API.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// `GET /api/v1/report`.
    Report,
    /// `GET /api/v1/resources`, the empty filters left out: the default list when both are.
    List { kind: String, namespace: String },
    /// `POST /api/v1/inventory/objects` (read-only).
    Objects(InventoryObjectsRequest),
    /// `GET /api/v1/resource`: one object, enriched (Helm storage's inventory).
    Resource(ObjectKey),
    /// `GET /api/v1/events` for one object.
    Events(ObjectKey),
}

impl Request {
    /// The default list (`/resources` without filters).
    pub fn default_list() -> Request {
        Request::List {
            kind: String::new(),
            namespace: String::new(),
        }
    }

    /// The HTTP method.
    pub fn method(&self) -> &'static str {
        match self {
            Request::Objects(_) => "POST",
            _ => "GET",
        }
    }

    /// The path under the API's base.
    pub fn path(&self) -> &'static str {
        match self {
            Request::Report => "/api/v1/report",
            Request::List { .. } => "/api/v1/resources",
            Request::Objects(_) => "/api/v1/inventory/objects",
            Request::Resource(_) => "/api/v1/resource",
            Request::Events(_) => "/api/v1/events",
        }
    }

    /// The query's pairs, empty values left out.
    pub fn query(&self) -> Vec<(&'static str, String)> {
        let pairs = match self {
            Request::List { kind, namespace } => {
                vec![("kind", kind.clone()), ("namespace", namespace.clone())]
            }
            Request::Resource(k) | Request::Events(k) => vec![
                ("kind", k.kind.as_str().to_string()),
                ("name", k.name.clone()),
                ("namespace", k.namespace.clone()),
            ],
            Request::Report | Request::Objects(_) => vec![],
        };
        pairs.into_iter().filter(|(_, v)| !v.is_empty()).collect()
    }

    /// The objects a batch asks for (0 for any other request).
    pub fn object_count(&self) -> usize {
        match self {
            Request::Objects(b) => b.objects.len(),
            _ => 0,
        }
    }

    /// The JSON body of a POST.
    pub fn body(&self) -> Option<String> {
        match self {
            Request::Objects(req) => serde_json::to_string(req).ok(),
            _ => None,
        }
    }
}

/// Requests sent together, answered in their order; at most `in_flight` at a time.
#[derive(Debug, Clone, PartialEq)]
pub struct Wave {
    pub requests: Vec<Request>,
    pub in_flight: usize,
    /// What the first load says it is doing while this wave runs (`None` after it).
    pub progress: Option<String>,
    /// The first load only: a model to show while this wave is asked, when the wave only
    /// confirms what the model already holds (#51: no round trip after the app starts stands
    /// between the data and the first view). Its pending references are "not confirmed" with
    /// the reason `CONFIRMING`, never missing; the poll's `Done` replaces it.
    pub preview: Option<Box<crate::model::Cluster>>,
}

impl Wave {
    /// What the first load says once `objects_done` of the wave's objects have been read: the
    /// objects read so far, for a wave of object batches.
    pub fn progress_with(&self, objects_done: usize) -> Option<String> {
        let total: usize = self.requests.iter().map(Request::object_count).sum();
        match &self.progress {
            Some(_) if total > 0 => Some(format!("objects {objects_done} of {total}")),
            said => said.clone(),
        }
    }
}

/// One object batch the page's script sent before the app started (#28): the body it posted
/// and what came back.
#[derive(Debug, Clone)]
pub struct PageRead<B> {
    pub body: String,
    pub answer: Answer<B>,
}

/// What the poller needs next.
#[derive(Debug)]
pub enum Step {
    /// Send these and hand the answers to [`super::Poller::answer`].
    Ask(Wave),
    /// The first load only: hand the page script's reads to [`super::Poller::page_reads`].
    PageReads,
    /// The poll is over: the new model, `None` when nothing it is built from changed, or why
    /// the poll failed (the last good model stays the caller's).
    Done(Result<Option<Box<Cluster>>, ApiError>),
}
