//! The FluxInstance chart templated: core's (`fluxlens_core::render::chart`).

pub use fluxlens_core::render::chart::*;
