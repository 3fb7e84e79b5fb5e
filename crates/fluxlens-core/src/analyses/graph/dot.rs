//! Graphviz DOT export of what the view shows.

use super::build::NodeKind;
use super::view::ViewGraph;

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// DOT text for a view graph (missing nodes dashed red, groups as boxes with their count).
pub fn to_dot(v: &ViewGraph) -> String {
    let mut out = String::from(
        "digraph fluxlens {\n  rankdir=LR;\n  node [shape=box, style=rounded, fontname=\"sans-serif\"];\n",
    );
    for n in &v.nodes {
        let label = match n.kind {
            NodeKind::Group { count, .. } => format!("{} ({count})", n.id),
            _ => n.id.to_string(),
        };
        let style = match n.kind {
            NodeKind::Missing => ", style=\"dashed\", color=\"red\"",
            NodeKind::NotVisible { .. } => ", style=\"dashed\", color=\"grey\"",
            NodeKind::External { .. } => ", style=\"dotted\"",
            NodeKind::Group { .. } => ", style=\"filled\", fillcolor=\"#eeeeee\"",
            NodeKind::Object => "",
        };
        out.push_str(&format!(
            "  {} [label={}, status={}{style}];\n",
            quote(&n.id.to_string()),
            quote(&label),
            quote(n.status.as_str())
        ));
    }
    for e in &v.edges {
        out.push_str(&format!(
            "  {} -> {} [label={}];\n",
            quote(&v.nodes[e.from as usize].id.to_string()),
            quote(&v.nodes[e.to as usize].id.to_string()),
            quote(e.kind.as_str())
        ));
    }
    out.push_str("}\n");
    crate::util::redact::clean(&out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::graph::{Graph, GraphFilter, GraphOptions, view};
    use crate::model::{Cluster, CrdAccess};
    use crate::wire::FluxReport;

    #[test]
    fn dot_quotes_hostile_names_and_marks_missing() {
        let o = serde_json::from_str(r#"{"kind":"Kustomization","metadata":{"name":"a\"b","namespace":"x"},"spec":{"sourceRef":{"kind":"GitRepository","name":"gone"}}}"#).unwrap();
        let c = Cluster::new(FluxReport::default(), [o], CrdAccess::Unknown).with_server_answers();
        let v = view(
            &Graph::build(&c, GraphOptions::default()),
            &GraphFilter::default(),
            &Default::default(),
        );
        let d = to_dot(&v);
        assert!(d.contains(r#""Kustomization/x/a\"b""#));
        assert!(d.contains(r#""GitRepository/x/gone" [label="GitRepository/x/gone", status="Missing", style="dashed", color="red"]"#));
        assert!(d.contains(r#""GitRepository/x/gone" -> "Kustomization/x/a\"b" [label="source"]"#));
    }
}
