//! The fleet: every cluster's Flux posture as one row, computed from the same analyses as the
//! cluster's own dashboard ([`crate::analyses::analysis`]) and kept as the row alone, never the objects.
//! The hub lists its clusters at `/clusters.json` ([`clusters`]); rows are sorted, filtered and
//! grouped by label from the URL ([`table`]), counted for drift against a render ([`drift`]), promoted in waves ([`waves`]), exported through the
//! same redaction as every export ([`export`]) and shared as a read-only link ([`link`]).

pub mod clusters;
pub mod drift;
pub mod export;
pub mod link;
pub mod row;
pub mod table;
pub mod version;
pub mod waves;

pub use clusters::{ClusterEntry, ClusterList};
pub use drift::{DriftCell, DriftCount};
pub use row::{Applied, Facts, Row, RowState, StageCell, Verified};
pub use table::TableQuery;
pub use waves::{Holdback, Wave, WaveStatus};

#[cfg(test)]
mod tests;
