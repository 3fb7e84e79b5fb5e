//! Standalone SVG export of the whole current view (not just what the DOM holds).

use super::build::NodeKind;
use super::layout::{Layout, NODE_H, NODE_W};
use super::view::ViewGraph;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn colour(status: crate::wire::status::Status) -> &'static str {
    use crate::wire::status::Status::*;
    match status {
        Ready => "#146c2e",
        Failed | Missing => "#b3261e",
        Progressing => "#8a5a00",
        Suspended => "#5b4a8a",
        Unknown | NotVisible => "#4a5560",
    }
}

/// A self-contained SVG document of the view.
pub fn to_svg(v: &ViewGraph, l: &Layout) -> String {
    let pad = 20.0;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"{x:.0} {x:.0} {w:.0} {h:.0}\" font-family=\"sans-serif\" font-size=\"12\">\n",
        w = l.width + 2.0 * pad,
        h = l.height + 2.0 * pad + NODE_H,
        x = -pad
    );
    // Edges point from the consumer to what it reads, as on screen.
    out.push_str("<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#8895a2\"/></marker></defs>\n");
    for e in &v.edges {
        out.push_str(&format!(
            "<path d=\"{}\" fill=\"none\" stroke=\"#8895a2\" marker-end=\"url(#arrow)\"/>\n",
            l.edge_path(e.from, e.to)
        ));
    }
    for (i, n) in v.nodes.iter().enumerate() {
        let (x, y) = l.pos[i];
        let dash = if matches!(n.kind, NodeKind::Missing | NodeKind::NotVisible { .. }) {
            " stroke-dasharray=\"5 3\""
        } else {
            ""
        };
        let label = match n.kind {
            NodeKind::Group { count, .. } => format!("{} ({count})", n.id.name),
            _ => n.id.name.clone(),
        };
        out.push_str(&format!(
            "<g data-node-id=\"{}\" data-status=\"{}\"><rect x=\"{x:.0}\" y=\"{y:.0}\" width=\"{NODE_W}\" height=\"{NODE_H}\" rx=\"6\" fill=\"#fff\" stroke=\"{}\" stroke-width=\"2\"{dash}/><text x=\"{:.0}\" y=\"{:.0}\" fill=\"#4a5560\">{}</text><text x=\"{:.0}\" y=\"{:.0}\" fill=\"#15191e\">{}</text></g>\n",
            esc(&n.id.to_string()),
            n.status.as_str(),
            colour(n.status),
            x + 8.0,
            y + 16.0,
            esc(&format!("{} · {}", n.id.kind, n.id.namespace)),
            x + 8.0,
            y + 34.0,
            esc(&label),
        ));
    }
    out.push_str("</svg>\n");
    // Exports leave the cluster: names and revisions are cleaned like snapshot strings.
    crate::util::redact::clean(&out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::graph::{Graph, GraphFilter, GraphOptions, layout, view};
    use crate::model::{Cluster, CrdAccess};
    use crate::wire::FluxReport;

    #[test]
    fn svg_escapes_and_dashes_missing() {
        let o = serde_json::from_str(r#"{"kind":"Kustomization","metadata":{"name":"<script>x</script>","namespace":"a"},"spec":{"sourceRef":{"kind":"GitRepository","name":"gone"}}}"#).unwrap();
        let c = Cluster::new(FluxReport::default(), [o], CrdAccess::Unknown);
        let v = view(
            &Graph::build(&c, GraphOptions::default()),
            &GraphFilter::default(),
            &Default::default(),
        );
        let s = to_svg(&v, &layout(&v));
        assert!(!s.contains("<script>"));
        assert!(s.contains("&lt;script&gt;"));
        assert!(s.contains("stroke-dasharray"));
        assert_eq!(s.matches("<g data-node-id").count(), 2);
        // Regression (#30): the export had no arrowheads.
        assert!(s.contains("<marker id=\"arrow\"") && s.contains("marker-end=\"url(#arrow)\""));
    }
}
