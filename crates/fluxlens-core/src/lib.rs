//! fluxlens-core: everything fluxlens computes, with no browser or framework dependency.
//!
//! Laid out in the order data flows, one direction only:
//! - [`wire`]: what the Flux Operator status API sends (tolerant serde models, JSON helpers,
//!   the client's one error type, what each server version serves);
//! - [`model`]: the normalized cluster (objects, kinds, statuses, references, owners);
//! - [`load`]: how the model is read — request planning and the poller, without I/O;
//! - [`analyses`]: everything computed from a model (graph, findings, signatures, migration,
//!   reconcile order, compliance, verdicts), run once per model;
//! - [`render`]: a repository's render read into the same model (the check's input, and the
//!   dashboard's drift view);
//! - [`share`]: what leaves the browser or comes back through a link (snapshots, URL state);
//! - [`fleet`]: many clusters' analyses side by side;
//! - [`util`]: small pure helpers every layer may use (time, versions, hashing, redaction).
//!
//! The views in the app crate only render what is computed here.

pub mod analyses;
pub mod fleet;
pub mod load;
pub mod model;
pub mod render;
pub mod share;
pub mod util;
pub mod wire;

pub use model::{Cluster, FluxObject, ObjectKey};
pub use wire::kind::Kind;
pub use wire::status::Status;
