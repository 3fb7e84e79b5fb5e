//! fluxlens-core: everything fluxlens computes, with no browser or framework dependency.
//!
//! Data flows in one direction: [`api`] (tolerant serde models of the Flux Operator status
//! API) → [`model`] (the normalized cluster: objects, references, statuses) → analyses
//! ([`findings`]) → the views in the app crate, which only render what is computed here.

pub mod analysis;
pub mod answers;
pub mod api;
pub mod auth;
pub mod compliance;
pub mod enterprise;
pub mod error;
pub mod facts;
pub mod finding;
pub mod findings;
pub mod fleet;
pub mod graph;
pub mod identity;
pub mod json;
pub mod kind;
pub mod load;
pub mod migration;
pub mod model;
pub mod order;
pub mod outcome;
pub mod poll;
pub mod revision;
pub mod server;
pub mod signatures;
pub mod snapshot;
pub mod status;
pub mod summary;
pub mod synthetic;
pub mod urlstate;
pub mod util;
pub mod verdict;

pub use kind::Kind;
pub use model::{Cluster, FluxObject, ObjectKey};
pub use status::Status;
