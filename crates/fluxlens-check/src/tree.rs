//! The rendered tree: core's (`fluxlens_core::render::tree`).

pub use fluxlens_core::render::tree::*;
