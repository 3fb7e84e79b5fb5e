//! The cluster model of a rendered tree: core's (`fluxlens_core::render::model`).

pub use fluxlens_core::render::model::*;
