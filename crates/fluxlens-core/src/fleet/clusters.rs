//! `/clusters.json`, the hub's list of clusters: names, labels, and what the fleet file publishes
//! by choice (a cluster's own UI, the render it should run); the deploy kit never writes an
//! upstream URL or credential there. Read tolerantly: an entry whose name cannot be a path
//! segment is set aside with why, never fetched.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Longest cluster name (a DNS label, as the deploy kit accepts).
pub const MAX_NAME: usize = 63;
/// Most clusters read from one list.
pub const MAX_CLUSTERS: usize = 500;
/// Most labels kept per cluster.
pub const MAX_LABELS: usize = 32;

/// One cluster of the fleet.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClusterEntry {
    pub name: String,
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    /// The cluster's own UI, where its people sign in: published by choice in the fleet file
    /// (an address users reach, never the hub's upstream), `http(s)://` only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ui: Option<String>,
    /// The render the cluster should run, a path on the hub's own origin (`/renders/prod.yaml`):
    /// its fleet row counts the drift against it (`crate::analyses::drift`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render: Option<String>,
    /// The commit that render was made from (`main@sha1:…`), for DRIFT-05.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<String>,
}

impl ClusterEntry {
    /// The path its dashboard and API are served under (`/clusters/<name>`).
    pub fn base(&self) -> String {
        format!("/clusters/{}", self.name)
    }
}

/// The list as read: the clusters to show and the entries set aside.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClusterList {
    pub clusters: Vec<ClusterEntry>,
    /// `(what the entry said, why it was set aside)`.
    pub refused: Vec<(String, String)>,
}

/// Whether `name` is a DNS label (`a-z0-9-`, not starting or ending with `-`).
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
}

/// Reads `/clusters.json`: `{"clusters": [{"name": …, "labels": {…}}]}` or a bare array.
pub fn parse(text: &str) -> Result<ClusterList, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("clusters.json is not JSON: {e}"))?;
    let items = match &v {
        serde_json::Value::Array(a) => a,
        serde_json::Value::Object(o) => match o.get("clusters") {
            Some(serde_json::Value::Array(a)) => a,
            _ => return Err("clusters.json has no \"clusters\" list".into()),
        },
        _ => return Err("clusters.json is neither a list nor an object".into()),
    };
    let mut list = ClusterList::default();
    for item in items.iter().take(MAX_CLUSTERS) {
        match entry(item) {
            Ok(e) if list.clusters.iter().any(|c| c.name == e.name) => list
                .refused
                .push((e.name, "the name is listed twice".into())),
            Ok(e) => list.clusters.push(e),
            Err(why) => list.refused.push((short(item), why)),
        }
    }
    if items.len() > MAX_CLUSTERS {
        let why = format!("only the first {MAX_CLUSTERS} clusters are read");
        list.refused
            .push((format!("{} more", items.len() - MAX_CLUSTERS), why));
    }
    Ok(list)
}

fn entry(item: &serde_json::Value) -> Result<ClusterEntry, String> {
    let name = item.get("name").and_then(|n| n.as_str()).ok_or("no name")?;
    if !valid_name(name) {
        return Err("the name is not a DNS label (a-z, 0-9, -; at most 63)".into());
    }
    let mut labels = BTreeMap::new();
    if let Some(map) = item.get("labels").and_then(|l| l.as_object()) {
        for (k, v) in map.iter().take(MAX_LABELS) {
            let value = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::Bool(b) => b.to_string(),
                _ => continue,
            };
            labels.insert(clip(k), clip(&value));
        }
    }
    let ui = text_of(item, "ui")
        .filter(|u| u.starts_with("https://") || u.starts_with("http://"))
        .map(str::to_string);
    let render = text_of(item, "render")
        // A path, not an address: the hub's origin is not known here.
        .filter(|r| crate::render::same_origin_path(r, "https://hub.invalid").is_ok())
        .map(str::to_string);
    let revision = text_of(item, "revision")
        .filter(|r| crate::analyses::drift::Commit::parse(r).is_some())
        .map(str::to_string);
    Ok(ClusterEntry {
        name: name.to_string(),
        labels,
        ui,
        render,
        revision,
    })
}

/// A short, printable string field of an entry.
fn text_of<'a>(item: &'a serde_json::Value, field: &str) -> Option<&'a str> {
    item.get(field)
        .and_then(|u| u.as_str())
        .filter(|u| u.len() <= 2048 && !u.chars().any(|c| c.is_whitespace() || c.is_control()))
}

fn clip(s: &str) -> String {
    s.chars().take(MAX_NAME).collect()
}

fn short(item: &serde_json::Value) -> String {
    let s = item.to_string();
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_names_and_labels_and_sets_aside_what_cannot_be_a_path() {
        let list = parse(
            r#"{"clusters":[{"name":"prod-eu","labels":{"env":"prod","wave":2}},
            {"name":"../etc"},{"name":"a"},{"name":"a"},{"labels":{}},{"name":"UPPER"}]}"#,
        )
        .unwrap();
        let names: Vec<&str> = list.clusters.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["prod-eu", "a"]);
        assert_eq!(list.clusters[0].labels["wave"], "2");
        assert_eq!(list.clusters[0].base(), "/clusters/prod-eu");
        assert_eq!(list.refused.len(), 4);
        assert!(parse("<html>").unwrap_err().contains("not JSON"));
        let ui = parse(r#"[{"name":"a","ui":"https://flux.a.example"},{"name":"b","ui":"javascript:alert(1)"}]"#)
            .unwrap();
        assert_eq!(ui.clusters[0].ui.as_deref(), Some("https://flux.a.example"));
        assert_eq!(ui.clusters[1].ui, None, "only http(s) links");
        assert!(parse(r#"{"x":1}"#).is_err());
        let renders = parse(
            r#"[{"name":"a","render":"/renders/a.yaml","revision":"main@sha1:0123456789abcdef"},
            {"name":"b","render":"https://evil.example/b.yaml","revision":"main"},
            {"name":"c","render":"/clusters/c/api/v1/resources"},{"name":"d","render":"//evil.example/d"}]"#,
        )
        .unwrap();
        assert_eq!(
            renders.clusters[0].render.as_deref(),
            Some("/renders/a.yaml")
        );
        assert_eq!(
            renders.clusters[0].revision.as_deref(),
            Some("main@sha1:0123456789abcdef")
        );
        assert_eq!(renders.clusters[1].render, None, "a path on the hub only");
        assert_eq!(renders.clusters[1].revision, None, "a commit, not a branch");
        assert_eq!(renders.clusters[2].render, None, "never the API");
        assert_eq!(renders.clusters[3].render, None, "never another host");
        assert_eq!(parse(r#"[{"name":"b"}]"#).unwrap().clusters.len(), 1);
    }
}
