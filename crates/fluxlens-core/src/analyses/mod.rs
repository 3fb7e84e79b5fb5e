//! The analyses: everything computed from one cluster's model — the graph and its layout, every
//! rule's findings, signatures, migration stages, the reconcile order, Enterprise compliance,
//! the overview's numbers and verdicts — run once per model by [`analysis::Analysis`].

pub mod access;
pub mod analysis;
pub mod carried;
pub mod changes;
pub mod compliance;
pub mod drift;
pub mod enterprise;
pub mod facts;
pub mod finding;
pub mod findings;
pub mod graph;
pub mod identity;
pub mod migration;
pub mod order;
pub mod outcome;
pub mod signatures;
pub mod summary;
pub mod verdict;
