//! The normalized cluster model: every Flux object by `Kind/namespace/name`, with its
//! references resolved to keys, its status, and the cluster's identity.

mod cluster;
mod derived_status;
mod key;
mod object;
pub mod owners;
mod presence;
mod refs;
pub mod synthetic;
mod unsettled;

pub use cluster::{Cluster, CrdAccess, LoadNotes};
pub use key::ObjectKey;
pub use object::FluxObject;
pub use presence::{Answer, CONFIRMING, NOT_IN_RENDER, Presence};
pub use refs::{RefKind, Reference};
pub use unsettled::Unsettled;
