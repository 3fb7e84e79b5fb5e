//! A repository's render as a cluster model: one file's text read into located manifests
//! ([`manifests`], [`yaml`]), the Flux objects and what they read ([`tree`]), the FluxInstance
//! chart templated ([`chart`]), and the same [`Cluster`](crate::model::Cluster) the dashboard
//! builds from the API, with what the cluster would generate ([`model`]). The check reads a
//! directory of renders into it; the dashboard's drift view a file picked or fetched.

pub mod chart;
pub mod manifests;
pub mod model;
pub mod tree;
pub mod yaml;

/// Reads one tree of manifests into the model's input, the FluxInstance chart templated.
pub fn tree_of(manifests: Vec<manifests::Manifest>) -> Result<tree::Tree, manifests::InputError> {
    let mut t = tree::build(manifests)?;
    chart::templated_instances(&mut t);
    Ok(t)
}

/// The cluster a render declares, read from files' texts (`(name, text)`: a name ending in
/// `.json` is JSON, anything else YAML), as the check models it: no status, with what the
/// cluster generates from it. The error names the file, the document and why.
pub fn declared(
    files: &[(String, String)],
) -> Result<crate::model::Cluster, manifests::InputError> {
    let mut all = Vec::new();
    for (name, text) in files {
        all.extend(manifests::file(std::path::Path::new(name), text)?);
    }
    let tree = tree_of(all)?;
    Ok(model::model(
        &tree,
        model::Assume::Nothing,
        &Default::default(),
    ))
}

/// Where a render may be fetched from for the drift view: a path on the page's own origin
/// (`origin`, `https://host[:port]`), never the operator's API or its sign-in paths, never
/// another origin. The path (with its query) to fetch, or why not.
pub fn same_origin_path(url: &str, origin: &str) -> Result<String, &'static str> {
    let url = url.trim();
    let path = if let Some(rest) = url.strip_prefix(origin).filter(|r| r.starts_with('/')) {
        rest
    } else if url.starts_with('/') && !url.starts_with("//") && !url.starts_with("/\\") {
        url
    } else {
        return Err(
            "only a render on this page's own origin can be opened (a path like /renders/prod.yaml); pick a file for any other",
        );
    };
    let bare = path.split(['?', '#']).next().unwrap_or(path);
    let refused = ["/api/", "/oauth2/", "/login", "/logout", "/callback"];
    if bare.contains("/api/v1/") || refused.iter().any(|p| bare.starts_with(p)) {
        return Err("that path is the Flux Operator's API or its sign-in, not a render");
    }
    Ok(path.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_render_is_fetched_only_from_the_pages_origin_and_never_from_the_api() {
        let o = "https://flux.example.com";
        assert_eq!(
            same_origin_path("/renders/prod.yaml", o),
            Ok("/renders/prod.yaml".into())
        );
        assert_eq!(
            same_origin_path("https://flux.example.com/r.yaml?v=1", o),
            Ok("/r.yaml?v=1".into())
        );
        for bad in [
            "https://evil.example.com/r.yaml",
            "https://flux.example.com.evil.io/r.yaml",
            "//evil.example.com/r.yaml",
            "javascript:alert(1)",
            "data:text/yaml,kind: X",
            "r.yaml",
            "/api/v1/resources",
            "/fluxlens/api/v1/report",
            "/oauth2/authorize",
            "/logout",
        ] {
            assert!(same_origin_path(bad, o).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_render_read_from_text_is_the_checks_model() {
        let files = vec![(
            "r.yaml".to_string(),
            "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: apps, namespace: flux-system}\nspec: {path: ./apps, prune: true, sourceRef: {kind: GitRepository, name: flux-system}}\n".to_string(),
        )];
        let c = declared(&files).unwrap();
        assert_eq!(c.objects().len(), 1);
        let bad = vec![("r.json".to_string(), "{\"kind\": ".to_string())];
        assert!(
            declared(&bad)
                .unwrap_err()
                .to_string()
                .starts_with("r.json, document 0: malformed JSON")
        );
    }
}
