//! Reusable views (no API calls inside).

pub mod chrome;
pub mod findings;
pub mod status;
pub mod theme;
