//! Facts about a cluster that several analyses read — its root pair and installer, who
//! consumes what, the FluxInstance's verify patches and versions — in one place, so findings,
//! signatures, migration and compliance read them here instead of from each other.

pub mod cluster;
pub mod instance;
