//! The source graph: every source and what consumes it, typed edges, missing references
//! as nodes, dependsOn cycles; filtering, grouping and a layered layout for drawing.

mod build;
mod curve;
mod cycles;
mod dot;
mod layout;
mod quality;
mod route;
mod svg;
mod tenants;
mod view;

pub use build::{Edge, EdgeKind, Graph, GraphOptions, GroupOf, Node, NodeKind};
pub use curve::{Curve, Point, Route};
pub use dot::to_dot;
pub use layout::{Column, Layout, NODE_H, NODE_W, Rect, layout};
pub use quality::{Quality, quality};
pub use svg::to_svg;
pub use tenants::{tenant_group, tenant_groups};
pub use view::{
    GraphFilter, ViewGraph, ViewNode, group_namespace, namespace_group, view, view_grouped,
};
