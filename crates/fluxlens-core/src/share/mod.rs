//! What leaves the browser or comes back through a link: sealed snapshots (redacted, compact)
//! and every view's state in the query string.

pub mod snapshot;
pub mod urlstate;
pub mod visits;
