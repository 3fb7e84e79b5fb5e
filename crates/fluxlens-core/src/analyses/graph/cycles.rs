//! dependsOn cycles: strongly connected components (Tarjan, iterative) of the dependsOn edges.

/// Every cycle among `n` nodes joined by `edges` (from, to): each strongly connected set of
/// two or more, and each node with an edge to itself; as node indices.
pub fn cycles(n: usize, edges: impl Iterator<Item = (u32, u32)>) -> Vec<Vec<u32>> {
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut self_loops = Vec::new();
    for (from, to) in edges {
        if from == to {
            self_loops.push(from);
        }
        adj[from as usize].push(to);
    }
    let mut index = vec![u32::MAX; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut next = 0u32;
    let mut out: Vec<Vec<u32>> = Vec::new();
    for start in 0..n as u32 {
        if index[start as usize] != u32::MAX || adj[start as usize].is_empty() {
            continue;
        }
        // (node, next child position)
        let mut call: Vec<(u32, usize)> = vec![(start, 0)];
        index[start as usize] = next;
        low[start as usize] = next;
        next += 1;
        stack.push(start);
        on_stack[start as usize] = true;
        while let Some(&mut (v, ref mut pos)) = call.last_mut() {
            if let Some(&w) = adj[v as usize].get(*pos) {
                *pos += 1;
                if index[w as usize] == u32::MAX {
                    index[w as usize] = next;
                    low[w as usize] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    call.push((w, 0));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
            } else {
                call.pop();
                if let Some(&(parent, _)) = call.last() {
                    low[parent as usize] = low[parent as usize].min(low[v as usize]);
                }
                if low[v as usize] == index[v as usize] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    if comp.len() > 1 || self_loops.contains(&v) {
                        out.push(comp);
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::analyses::graph::{Graph, GraphOptions};
    use crate::model::{Cluster, CrdAccess};
    use crate::wire::FluxReport;

    fn ks(name: &str, deps: &[&str]) -> String {
        let d: Vec<String> = deps
            .iter()
            .map(|d| format!(r#"{{"name":"{d}"}}"#))
            .collect();
        format!(
            r#"{{"kind":"Kustomization","metadata":{{"name":"{name}","namespace":"a"}},"spec":{{"dependsOn":[{}]}}}}"#,
            d.join(",")
        )
    }

    fn cycles(objs: Vec<String>) -> Vec<Vec<String>> {
        let c = Cluster::new(
            FluxReport::default(),
            objs.iter().map(|s| serde_json::from_str(s).unwrap()),
            CrdAccess::Unknown,
        );
        Graph::build(&c, GraphOptions::default())
            .cycles
            .iter()
            .map(|c| c.iter().map(|k| k.name.clone()).collect())
            .collect()
    }

    #[test]
    fn finds_cycles_and_self_loops_only() {
        assert!(cycles(vec![ks("a", &[]), ks("b", &["a"]), ks("c", &["a", "b"])]).is_empty());
        assert_eq!(
            cycles(vec![
                ks("a", &["c"]),
                ks("b", &["a"]),
                ks("c", &["b"]),
                ks("d", &["a"])
            ]),
            vec![vec!["a", "b", "c"]]
        );
        assert_eq!(cycles(vec![ks("self", &["self"])]), vec![vec!["self"]]);
        assert_eq!(
            cycles(vec![
                ks("x", &["y"]),
                ks("y", &["x"]),
                ks("p", &["q"]),
                ks("q", &["p"])
            ])
            .len(),
            2
        );
    }

    #[test]
    fn deep_chains_do_not_overflow() {
        let objs: Vec<String> = (0..20_000)
            .map(|i| ks(&format!("k{i}"), &[&format!("k{}", i + 1)]))
            .collect();
        assert!(cycles(objs).is_empty());
    }
}
