//! Reusable views (no API calls inside).

pub mod chrome;
pub mod digest;
pub mod download;
pub mod embed;
pub mod findings;
pub mod fleet_link;
pub mod fleet_table;
pub mod graph_canvas;
pub mod graph_search;
pub mod hero;
pub mod keyed;
pub mod list_filters;
pub mod menu;
pub mod node_panel;
pub mod share;
pub mod sort_header;
pub mod status;
pub mod theme;
