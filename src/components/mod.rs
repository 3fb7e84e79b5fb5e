//! Reusable views (no API calls inside).

pub mod chrome;
pub mod download;
pub mod graph_canvas;
pub mod node_panel;
pub mod findings;
pub mod status;
pub mod theme;
