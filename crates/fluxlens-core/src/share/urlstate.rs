//! URL state: every view's filters, selection and zoom live in the query string. Pure, so
//! round-trips are tested natively; the app only reads and writes `location.search`.

use crate::analyses::graph::GraphFilter;
use crate::model::ObjectKey;
use crate::wire::status::Status;

use crate::util::query::{MAX_ITEMS, MAX_VALUE_LEN, encode, parse_query};

fn list(pairs: &[(String, String)], key: &str) -> Vec<String> {
    pairs
        .iter()
        .filter(|(k, _)| k == key)
        .flat_map(|(_, v)| v.split(','))
        .filter(|s| !s.is_empty() && s.len() <= MAX_VALUE_LEN)
        .take(MAX_ITEMS)
        .map(str::to_string)
        .collect()
}

fn one(pairs: &[(String, String)], key: &str) -> Option<String> {
    pairs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
        .filter(|v| v.len() <= MAX_VALUE_LEN)
}

/// Everything the graph view keeps in the URL.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GraphQuery {
    pub filter: GraphFilter,
    pub selected: Option<ObjectKey>,
    pub notifications: bool,
    pub managed_by: bool,
    /// Zoom factor and pan offset; `None` = fit to screen.
    pub viewport: Option<(f32, f32, f32)>,
}

impl GraphQuery {
    /// The graph to build for this query. Focus mode always follows ownership: what an applier
    /// applies is part of its downstream (its blast radius), and only ownership edges say so.
    pub fn graph_options(&self) -> crate::analyses::graph::GraphOptions {
        crate::analyses::graph::GraphOptions {
            notifications: self.notifications,
            managed_by: self.managed_by || self.filter.focus.is_some(),
        }
    }

    /// Reads the query string.
    pub fn from_query(q: &str) -> GraphQuery {
        let p = parse_query(q);
        let flag = |k: &str| one(&p, k).is_some_and(|v| v == "1" || v == "true");
        let viewport = one(&p, "vp").and_then(|v| {
            let n: Vec<f32> = v
                .split(',')
                .filter_map(|x| x.parse().ok())
                .filter(|x: &f32| x.is_finite())
                .collect();
            (n.len() == 3 && n[0] > 0.0).then(|| (n[0].clamp(0.02, 4.0), n[1], n[2]))
        });
        GraphQuery {
            filter: GraphFilter {
                namespaces: list(&p, "ns"),
                kinds: list(&p, "kind"),
                statuses: list(&p, "status")
                    .iter()
                    .map(|s| Status::parse(s))
                    .collect(),
                problems_only: flag("problems"),
                query: one(&p, "q").unwrap_or_default(),
                collapsed_namespaces: list(&p, "collapse"),
                expanded: list(&p, "expand"),
                group_threshold: one(&p, "group")
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(GraphFilter::default().group_threshold),
                focus: one(&p, "focus").and_then(|s| ObjectKey::parse(&s)),
                flat: flag("flat"),
            },
            selected: one(&p, "sel").and_then(|s| ObjectKey::parse(&s)),
            notifications: flag("notif"),
            managed_by: flag("owners"),
            viewport,
        }
    }

    /// Writes the query string (without `?`), omitting defaults.
    pub fn to_query(&self) -> String {
        let f = &self.filter;
        let mut parts: Vec<String> = Vec::new();
        let mut push = |k: &str, v: String| {
            if !v.is_empty() {
                parts.push(format!("{k}={}", encode(&v)));
            }
        };
        push("ns", f.namespaces.join(","));
        push("kind", f.kinds.join(","));
        push(
            "status",
            f.statuses
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(","),
        );
        if f.problems_only {
            push("problems", "1".into());
        }
        push("q", f.query.clone());
        push("collapse", f.collapsed_namespaces.join(","));
        push("expand", f.expanded.join(","));
        if f.group_threshold != GraphFilter::default().group_threshold {
            push("group", f.group_threshold.to_string());
        }
        push(
            "focus",
            f.focus.as_ref().map(|k| k.to_string()).unwrap_or_default(),
        );
        if f.flat {
            push("flat", "1".into());
        }
        push(
            "sel",
            self.selected
                .as_ref()
                .map(|k| k.to_string())
                .unwrap_or_default(),
        );
        if self.notifications {
            push("notif", "1".into());
        }
        if self.managed_by {
            push("owners", "1".into());
        }
        if let Some((z, x, y)) = self.viewport {
            push("vp", viewport_param(z, x, y));
        }
        parts.join("&")
    }
}

/// `vp=`: the zoom to three decimals, the offsets whole. In integer arithmetic: float
/// formatting would bring core's float printer into the main module (12 KB, #51).
fn viewport_param(z: f32, x: f32, y: f32) -> String {
    let thousandths = (z.max(0.0) * 1000.0).round() as i64;
    format!(
        "{}.{:03},{},{}",
        thousandths / 1000,
        thousandths % 1000,
        x.round() as i64,
        y.round() as i64
    )
}

/// Query keys that belong to the visit, not to one view (the poll interval a wall screen was
/// opened with, an embedder's theme): kept across every in-app navigation (#46: `poll=`
/// dropped out at the first filter change).
pub const VISIT_KEYS: [&str; 2] = ["poll", "theme"];

/// The URL fragment key of a snapshot link.
pub const SNAPSHOT_FRAGMENT: &str = "#snap=";

/// A page's URL fragment: the snapshot it shows (`snap=`) and the snapshot `/changes` compares
/// with (`compare=`), joined by `&`. Both stay in the fragment, which no server receives (#68:
/// a comparison could not be shared by its link).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fragment {
    pub snapshot: Option<String>,
    pub compare: Option<String>,
}

impl Fragment {
    /// Reads `#snap=…&compare=…` (either part alone, in any order; anything else is ignored).
    pub fn parse(hash: &str) -> Fragment {
        let mut f = Fragment::default();
        for part in hash.trim_start_matches('#').split('&') {
            if let Some(v) = part.strip_prefix("snap=").filter(|v| !v.is_empty()) {
                f.snapshot = Some(v.to_string());
            } else if let Some(v) = part.strip_prefix("compare=").filter(|v| !v.is_empty()) {
                f.compare = Some(v.to_string());
            }
        }
        f
    }

    /// The fragment with its `#`, or empty when it holds nothing.
    pub fn to_hash(&self) -> String {
        let parts: Vec<String> = [("snap=", &self.snapshot), ("compare=", &self.compare)]
            .into_iter()
            .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}{v}")))
            .collect();
        match parts.is_empty() {
            true => String::new(),
            false => format!("#{}", parts.join("&")),
        }
    }
}

/// The URL an in-app navigation to `target` (`path[?query][#fragment]`) writes, from the page
/// at `current_search` / `current_hash`: the visit's keys ride along unless `target` sets them,
/// and a snapshot stays a snapshot (its fragment rides along unless `target` has a fragment
/// of its own) until the user opens the live view, a full load of its own (#46).
pub fn carry_over(target: &str, current_search: &str, current_hash: &str) -> String {
    let (rest, fragment) = match target.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (target, None),
    };
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    // Keys already set: the target's own, then each carried one (a repeated key goes once).
    let mut set: Vec<String> = parse_query(query).into_iter().map(|(k, _)| k).collect();
    let mut parts: Vec<String> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect();
    for (k, v) in parse_query(current_search) {
        if VISIT_KEYS.contains(&k.as_str()) && !set.contains(&k) {
            parts.push(format!("{}={}", encode(&k), encode(&v)));
            set.push(k);
        }
    }
    let mut out = path.to_string();
    if !parts.is_empty() {
        out.push('?');
        out.push_str(&parts.join("&"));
    }
    match fragment {
        Some(f) => {
            out.push('#');
            out.push_str(f);
        }
        // The snapshot shown and the one compared with ride along; nothing else does.
        None => out.push_str(&Fragment::parse(current_hash).to_hash()),
    }
    out
}

#[cfg(test)]
mod carry_tests {
    use super::*;

    #[test]
    fn a_snapshot_rides_every_in_app_navigation() {
        let snap = "#snap=fl1.AAAA";
        assert_eq!(carry_over("/graph", "", snap), "/graph#snap=fl1.AAAA");
        assert_eq!(
            carry_over("/graph?focus=a", "?sel=b", snap),
            "/graph?focus=a#snap=fl1.AAAA"
        );
        // A target with its own fragment (an in-page anchor) keeps it.
        assert_eq!(carry_over("/graph#main", "", snap), "/graph#main");
        // Live pages carry no fragment.
        assert_eq!(carry_over("/graph", "", "#main"), "/graph");
        assert_eq!(carry_over("/graph", "", ""), "/graph");
    }

    #[test]
    fn a_comparison_rides_along_with_or_without_a_snapshot() {
        let both = "#snap=fl1.AAAA&compare=fl1.BBBB";
        assert_eq!(
            carry_over("/changes?ns=a", "", both),
            format!("/changes?ns=a{both}")
        );
        assert_eq!(
            carry_over("/changes", "", "#compare=fl1.B"),
            "/changes#compare=fl1.B"
        );
        let f = Fragment::parse("#compare=fl1.B&snap=fl1.A&junk");
        assert_eq!(f.snapshot.as_deref(), Some("fl1.A"));
        assert_eq!(f.compare.as_deref(), Some("fl1.B"));
        assert_eq!(f.to_hash(), "#snap=fl1.A&compare=fl1.B");
        assert_eq!(Fragment::parse("#main").to_hash(), "");
        assert_eq!(Fragment::default().to_hash(), "");
    }

    #[test]
    fn the_visits_keys_survive_a_filter_change_and_a_page_change() {
        assert_eq!(
            carry_over("/graph?problems=1", "?poll=5&problems=0&theme=dark", ""),
            "/graph?problems=1&poll=5&theme=dark"
        );
        assert_eq!(carry_over("/", "?poll=5", ""), "/?poll=5");
        // The target's own value wins; a repeated key is carried once.
        assert_eq!(carry_over("/?poll=9", "?poll=5", ""), "/?poll=9");
        assert_eq!(carry_over("/", "?poll=5&poll=6", ""), "/?poll=5");
        // Hostile values stay encoded.
        assert_eq!(
            carry_over("/", "?theme=%3Cscript%3E", ""),
            "/?theme=%3Cscript%3E"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::kind::Kind;

    #[test]
    fn graph_query_round_trips() {
        let q = GraphQuery {
            filter: GraphFilter {
                namespaces: vec!["team-a".into(), "flux-system".into()],
                kinds: vec!["Kustomization".into()],
                statuses: vec![Status::Failed, Status::Missing],
                problems_only: true,
                query: "a b&c=d%".into(),
                collapsed_namespaces: vec!["team-b".into()],
                expanded: vec!["Group/ns/Kustomizations-of-GitRepository-flux-system-repo".into()],
                group_threshold: 0,
                focus: Some(ObjectKey::new(
                    Kind::OciRepository,
                    "flux-system",
                    "flux-system",
                )),
                flat: true,
            },
            selected: Some(ObjectKey::new(
                Kind::OciRepository,
                "flux-system",
                "flux-system",
            )),
            notifications: true,
            managed_by: true,
            viewport: Some((0.5, -120.0, 40.0)),
        };
        let s = q.to_query();
        assert_eq!(GraphQuery::from_query(&format!("?{s}")), q);
        assert_eq!(GraphQuery::default().to_query(), "");
        assert_eq!(GraphQuery::from_query(""), GraphQuery::default());
    }

    #[test]
    fn the_viewport_is_written_as_the_float_printer_wrote_it() {
        for (z, x, y) in [
            (0.5f32, -120.0f32, 40.0f32),
            (1.23456, 0.4, -7.6),
            (2.0, 1e6, -1e6),
            (0.0004, 3.49, 12.5),
        ] {
            let expected = format!("{z:.3},{:.0},{:.0}", x.round(), y.round());
            assert_eq!(viewport_param(z, x, y), expected, "{z} {x} {y}");
        }
    }

    #[test]
    fn hostile_and_huge_queries_are_bounded() {
        let huge = format!("ns={}", "a,".repeat(100_000));
        assert!(GraphQuery::from_query(&huge).filter.namespaces.len() <= MAX_ITEMS);
        let q = GraphQuery::from_query("vp=NaN,1,2&sel=%ZZ&q=%3Cscript%3E&group=x");
        assert_eq!(q.viewport, None);
        assert_eq!(q.selected, None);
        assert_eq!(q.filter.query, "<script>");
        assert_eq!(q.filter.group_threshold, 8);
        let decode = crate::util::query::decode;
        assert_eq!(decode("%"), "%");
        assert_eq!(decode("%4"), "%4");
        assert_eq!(decode("%41"), "A");
    }
}

/// What `/changes` keeps in the URL: the window and the filters.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChangesQuery {
    /// `since=`: `None` for the default (the last visit when one is kept, else 24 h).
    pub since: Option<crate::analyses::changes::window::Since>,
    pub namespaces: Vec<String>,
    pub kinds: Vec<String>,
    /// Only what this applier applied (directly or through others).
    pub owner: Option<ObjectKey>,
    /// Only these kinds of change (`change=revision,status`).
    pub changes: Vec<crate::analyses::changes::ChangeKind>,
}

impl ChangesQuery {
    /// Reads the query string.
    pub fn from_query(q: &str) -> ChangesQuery {
        use crate::analyses::changes::{ChangeKind, window::Since};
        let p = parse_query(q);
        ChangesQuery {
            since: one(&p, "since").and_then(|s| Since::parse(&s)),
            namespaces: list(&p, "ns"),
            kinds: list(&p, "kind"),
            owner: one(&p, "owner").and_then(|s| ObjectKey::parse(&s)),
            changes: list(&p, "change")
                .iter()
                .filter_map(|c| ChangeKind::parse(c))
                .collect(),
        }
    }

    /// Writes the query string (without `?`), omitting defaults.
    pub fn to_query(&self) -> String {
        let changes: Vec<&str> = self.changes.iter().map(|c| c.as_str()).collect();
        let mut parts = Vec::new();
        for (k, v) in [
            (
                "since",
                self.since.map(|s| s.as_param()).unwrap_or_default(),
            ),
            ("ns", self.namespaces.join(",")),
            ("kind", self.kinds.join(",")),
            (
                "owner",
                self.owner
                    .as_ref()
                    .map(|o| o.to_string())
                    .unwrap_or_default(),
            ),
            ("change", changes.join(",")),
        ] {
            if !v.is_empty() {
                parts.push(format!("{k}={}", encode(&v)));
            }
        }
        parts.join("&")
    }

    /// Whether a change passes the filters (`owners`: the appliers above the subject, nearest
    /// first). A migration's rows pass only when no object filter is set.
    pub fn admits(&self, c: &crate::analyses::changes::Change, owners: &[ObjectKey]) -> bool {
        let kind_ok = self.changes.is_empty() || self.changes.contains(&c.kind);
        let object_ok = match c.subject.object() {
            None => self.namespaces.is_empty() && self.kinds.is_empty() && self.owner.is_none(),
            Some(k) => {
                (self.namespaces.is_empty() || self.namespaces.contains(&k.namespace))
                    && (self.kinds.is_empty() || self.kinds.iter().any(|x| x == k.kind.as_str()))
                    && self
                        .owner
                        .as_ref()
                        .is_none_or(|o| o == k || owners.contains(o))
            }
        };
        kind_ok && object_ok
    }
}

/// Links between views, built from the views' typed queries (#48: no view writes a query
/// string by hand).
pub mod link {
    use super::{GraphQuery, ListQuery};
    use crate::model::ObjectKey;

    fn with(path: &str, query: String) -> String {
        if query.is_empty() {
            path.to_string()
        } else {
            format!("{path}?{query}")
        }
    }

    /// The graph with `key` selected.
    pub fn graph_selecting(key: &ObjectKey) -> String {
        let q = GraphQuery {
            selected: Some(key.clone()),
            ..GraphQuery::default()
        };
        with("/graph", q.to_query())
    }

    /// The graph focused on `key` (its upstream and downstream), `key` selected.
    pub fn graph_focusing(key: &ObjectKey) -> String {
        let mut q = GraphQuery {
            selected: Some(key.clone()),
            ..GraphQuery::default()
        };
        q.filter.focus = Some(key.clone());
        with("/graph", q.to_query())
    }

    /// The graph showing one kind.
    pub fn graph_of_kind(kind: &str) -> String {
        let mut q = GraphQuery::default();
        q.filter.kinds = vec![kind.to_string()];
        with("/graph", q.to_query())
    }

    /// The changes of a window (`/changes?since=last-visit`).
    pub fn changes_since(since: crate::analyses::changes::window::Since) -> String {
        let q = super::ChangesQuery {
            since: Some(since),
            ..super::ChangesQuery::default()
        };
        with("/changes", q.to_query())
    }

    /// The signatures view with `key`'s row selected.
    pub fn signatures_selecting(key: &ObjectKey) -> String {
        let q = ListQuery {
            selected: Some(key.clone()),
            ..ListQuery::default()
        };
        with("/signatures", q.to_query())
    }
}

/// Filters of the list views (signatures, migrations, compliance), kept in the URL.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListQuery {
    pub severities: Vec<crate::analyses::finding::Severity>,
    pub kinds: Vec<String>,
    pub namespaces: Vec<String>,
    pub selected: Option<ObjectKey>,
    /// The table's sort column, `-` first for descending (`sort=-blast`); empty for the
    /// view's own order.
    pub sort: String,
}

impl ListQuery {
    /// Reads the query string.
    pub fn from_query(q: &str) -> ListQuery {
        let p = parse_query(q);
        ListQuery {
            severities: list(&p, "sev")
                .iter()
                .filter_map(|s| crate::analyses::finding::Severity::parse(s))
                .collect(),
            kinds: list(&p, "kind"),
            namespaces: list(&p, "ns"),
            selected: one(&p, "sel").and_then(|s| ObjectKey::parse(&s)),
            // Bounded like every other value: a column name is short.
            sort: one(&p, "sort")
                .filter(|s| s.len() <= 32)
                .unwrap_or_default(),
        }
    }

    /// Writes the query string (without `?`).
    pub fn to_query(&self) -> String {
        let mut parts = Vec::new();
        let sev: Vec<&str> = self.severities.iter().map(|s| s.as_str()).collect();
        for (k, v) in [
            ("sev", sev.join(",")),
            ("kind", self.kinds.join(",")),
            ("ns", self.namespaces.join(",")),
            (
                "sel",
                self.selected
                    .as_ref()
                    .map(|k| k.to_string())
                    .unwrap_or_default(),
            ),
            ("sort", self.sort.clone()),
        ] {
            if !v.is_empty() {
                parts.push(format!("{k}={}", encode(&v)));
            }
        }
        parts.join("&")
    }

    /// Whether a finding passes the filters.
    pub fn admits(&self, f: &crate::analyses::finding::Finding) -> bool {
        (self.severities.is_empty() || self.severities.contains(&f.severity))
            && (self.kinds.is_empty() || self.kinds.iter().any(|k| k == f.subject.kind.as_str()))
            && (self.namespaces.is_empty() || self.namespaces.contains(&f.subject.namespace))
    }
}

#[cfg(test)]
mod options_tests {
    use super::*;

    #[test]
    fn focus_follows_ownership() {
        let q = GraphQuery::from_query("");
        assert!(!q.graph_options().managed_by);
        let q = GraphQuery::from_query("focus=Kustomization/default/atuin");
        assert!(q.graph_options().managed_by);
        assert!(
            GraphQuery::from_query("owners=1")
                .graph_options()
                .managed_by
        );
    }
}

#[cfg(test)]
mod list_tests {
    use super::*;
    use crate::analyses::finding::Severity;

    #[test]
    fn long_lists_round_trip() {
        // Regression (url_state fuzz target): a joined list longer than one item's limit was
        // written by to_query and then refused by from_query.
        let q = ListQuery {
            kinds: (0..60).map(|i| format!("{i}{}", "k".repeat(100))).collect(),
            ..Default::default()
        };
        assert_eq!(ListQuery::from_query(&q.to_query()), q);
    }

    #[test]
    fn list_query_round_trips() {
        let q = ListQuery {
            severities: vec![Severity::Critical, Severity::High],
            kinds: vec!["OCIRepository".into()],
            namespaces: vec!["flux-system".into()],
            selected: ObjectKey::parse("OCIRepository/flux-system/flux-system"),
            sort: "-blast".into(),
        };
        assert_eq!(ListQuery::from_query(&q.to_query()), q);
        assert_eq!(
            ListQuery::from_query("sev=bogus,high").severities,
            vec![Severity::High]
        );
        assert_eq!(
            ListQuery::from_query(&format!("sort={}", "x".repeat(40))).sort,
            ""
        );
    }

    #[test]
    fn links_read_back_as_the_query_they_were_made_from() {
        let key = ObjectKey::parse("OCIRepository/flux-system/a b&c").unwrap();
        let focus = link::graph_focusing(&key);
        let q = GraphQuery::from_query(focus.strip_prefix("/graph?").unwrap());
        assert_eq!(q.filter.focus.as_ref(), Some(&key));
        assert_eq!(q.selected.as_ref(), Some(&key));
        let sel = link::graph_selecting(&key);
        let q = GraphQuery::from_query(sel.strip_prefix("/graph?").unwrap());
        assert_eq!((q.selected.as_ref(), q.filter.focus), (Some(&key), None));
        let kind = link::graph_of_kind("HelmRelease");
        assert_eq!(kind, "/graph?kind=HelmRelease");
        assert_eq!(
            link::changes_since(crate::analyses::changes::window::Since::LastVisit),
            "/changes?since=last-visit"
        );
        let sig = link::signatures_selecting(&key);
        let q = ListQuery::from_query(sig.strip_prefix("/signatures?").unwrap());
        assert_eq!(q.selected.as_ref(), Some(&key));
    }

    #[test]
    fn the_changes_query_round_trips_and_filters_by_namespace_kind_owner_and_change() {
        use crate::analyses::changes::{Change, ChangeKind, Origin, Subject, window::Since};
        let q = ChangesQuery::from_query(
            "since=7d&ns=apps&kind=HelmRelease&owner=Kustomization/flux-system/apps&change=revision,status",
        );
        assert_eq!(q.since, Some(Since::Hours(168)));
        assert_eq!(ChangesQuery::from_query(&q.to_query()), q);
        assert_eq!(ChangesQuery::from_query("since=tuesday").since, None);
        let change = |subject: Subject, kind| Change {
            at_ms: 0,
            after_ms: None,
            subject,
            kind,
            what: String::new(),
            detail: String::new(),
            failed: false,
            origin: Origin::History,
        };
        let hr = ObjectKey::parse("HelmRelease/apps/podinfo").unwrap();
        let owner = ObjectKey::parse("Kustomization/flux-system/apps").unwrap();
        let row = change(Subject::Object(hr.clone()), ChangeKind::Revision);
        assert!(q.admits(&row, std::slice::from_ref(&owner)));
        assert!(!q.admits(&row, &[]), "not applied by the owner");
        assert!(!q.admits(
            &change(Subject::Object(hr), ChangeKind::Added),
            std::slice::from_ref(&owner)
        ));
        let stage = change(
            Subject::Migration {
                id: "git-oci".into(),
                title: "Git → OCI".into(),
            },
            ChangeKind::Stage,
        );
        assert!(
            !q.admits(&stage, &[]),
            "object filters leave migrations out"
        );
        assert!(ChangesQuery::default().admits(&stage, &[]));
    }
}
