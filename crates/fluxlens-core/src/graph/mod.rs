//! The source graph: every source and what consumes it, typed edges, missing references
//! as nodes, dependsOn cycles; filtering, grouping and a layered layout for drawing.

mod build;
mod cycles;
mod dot;
mod layout;
mod svg;
mod tenants;
mod view;

pub use build::{Edge, EdgeKind, Graph, GraphOptions, GroupOf, Node, NodeKind};
pub use dot::to_dot;
pub use layout::{Layout, NODE_H, NODE_W, Rect, layout};
pub use svg::to_svg;
pub use tenants::{tenant_group, tenant_groups};
pub use view::{GraphFilter, ViewGraph, ViewNode, namespace_group, view, view_grouped};
