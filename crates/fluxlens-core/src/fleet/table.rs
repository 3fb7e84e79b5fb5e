//! The fleet table's state in the URL: sort, filter and group by any label, waves by a label and
//! a target version. Pure: the view reads and writes `location.search` through it.

use super::{Row, RowState};
use crate::util::query::{MAX_VALUE_LEN, encode, parse_query};
use std::cmp::Ordering;

/// What a column sorts by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SortKey {
    Name,
    State,
    Flux,
    Variant,
    Root,
    Critical,
    High,
    Missing,
    Updated,
    /// Drift against the render: the worst severities first.
    Drift,
    /// A label's value.
    Label(String),
}

impl SortKey {
    /// Parses `sort=`: a column name, or `label:<key>`.
    pub fn parse(s: &str) -> Option<SortKey> {
        Some(match s {
            "name" => SortKey::Name,
            "state" => SortKey::State,
            "flux" => SortKey::Flux,
            "variant" => SortKey::Variant,
            "root" => SortKey::Root,
            "critical" => SortKey::Critical,
            "high" => SortKey::High,
            "missing" => SortKey::Missing,
            "updated" => SortKey::Updated,
            "drift" => SortKey::Drift,
            _ => SortKey::Label(s.strip_prefix("label:").filter(|k| !k.is_empty())?.into()),
        })
    }

    /// The `sort=` spelling.
    pub fn name(&self) -> String {
        match self {
            SortKey::Name => "name".into(),
            SortKey::State => "state".into(),
            SortKey::Flux => "flux".into(),
            SortKey::Variant => "variant".into(),
            SortKey::Root => "root".into(),
            SortKey::Critical => "critical".into(),
            SortKey::High => "high".into(),
            SortKey::Missing => "missing".into(),
            SortKey::Updated => "updated".into(),
            SortKey::Drift => "drift".into(),
            SortKey::Label(k) => format!("label:{k}"),
        }
    }
}

/// The fleet view's query.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TableQuery {
    pub sort: Option<SortKey>,
    pub descending: bool,
    /// `label.<key>=<value>` filters: every one must match.
    pub labels: Vec<(String, String)>,
    /// Only rows in this state.
    pub state: Option<String>,
    /// Free text matched against the name and label values.
    pub text: String,
    /// Group rows by this label.
    pub group: Option<String>,
    /// Order clusters in waves by this label.
    pub waves: Option<String>,
    /// The version a wave must run to let the next one go (default: the fleet's newest).
    pub target: Option<String>,
}

impl TableQuery {
    /// Reads the query string (without `?`); unknown keys and over-long values are ignored.
    pub fn parse(q: &str) -> TableQuery {
        let mut t = TableQuery::default();
        for (k, v) in parse_query(q) {
            if v.len() > MAX_VALUE_LEN {
                continue;
            }
            let some = |v: String| Some(v).filter(|v| !v.is_empty());
            match k.as_str() {
                "sort" => t.sort = SortKey::parse(&v),
                "dir" => t.descending = v == "desc",
                "state" => t.state = some(v),
                "q" => t.text = v,
                "group" => t.group = some(v),
                "waves" => t.waves = some(v),
                "target" => t.target = some(v),
                _ => {
                    if let Some(key) = k.strip_prefix("label.").filter(|k| !k.is_empty()) {
                        t.labels.push((key.to_string(), v));
                    }
                }
            }
        }
        t
    }

    /// Writes the query string (without `?`), in a stable order.
    pub fn to_query(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        let mut put = |k: &str, v: &str| parts.push(format!("{}={}", encode(k), encode(v)));
        if let Some(s) = &self.sort {
            put("sort", &s.name());
        }
        if self.descending {
            put("dir", "desc");
        }
        for (k, v) in &self.labels {
            put(&format!("label.{k}"), v);
        }
        for (k, v) in [
            ("state", &self.state),
            ("group", &self.group),
            ("waves", &self.waves),
            ("target", &self.target),
        ] {
            if let Some(v) = v {
                put(k, v);
            }
        }
        if !self.text.is_empty() {
            put("q", &self.text);
        }
        parts.join("&")
    }

    /// Whether a row passes the filters.
    pub fn keeps(&self, row: &Row) -> bool {
        let text = self.text.trim().to_lowercase();
        self.labels
            .iter()
            .all(|(k, v)| row.labels.get(k) == Some(v))
            && self
                .state
                .as_deref()
                .is_none_or(|s| row.state.as_str() == s)
            && (text.is_empty()
                || row.name.to_lowercase().contains(&text)
                || row
                    .labels
                    .values()
                    .any(|v| v.to_lowercase().contains(&text)))
    }

    /// The rows shown: filtered, then sorted (by name within equal keys).
    pub fn apply<'a>(&self, rows: &'a [Row]) -> Vec<&'a Row> {
        let mut out: Vec<&Row> = rows.iter().filter(|r| self.keeps(r)).collect();
        let key = self.sort.clone().unwrap_or(SortKey::Name);
        crate::util::sort::by(&mut out, |a, b| {
            let o = compare(&key, a, b);
            let o = if self.descending { o.reverse() } else { o };
            o.then_with(|| a.name.cmp(&b.name))
        });
        out
    }

    /// The shown rows in groups by the `group` label (`None` → one group); rows without the
    /// label last, under an empty value.
    pub fn groups<'a>(&self, rows: &'a [Row]) -> Vec<(String, Vec<&'a Row>)> {
        let shown = self.apply(rows);
        let Some(label) = &self.group else {
            return vec![(String::new(), shown)];
        };
        let mut groups: Vec<(String, Vec<&Row>)> = Vec::new();
        for r in shown {
            let value = r.labels.get(label).cloned().unwrap_or_default();
            match groups.iter_mut().find(|(v, _)| *v == value) {
                Some((_, g)) => g.push(r),
                None => groups.push((value, vec![r])),
            }
        }
        crate::util::sort::by(&mut groups, |(a, _), (b, _)| {
            (a.is_empty(), super::waves::natural(a)).cmp(&(b.is_empty(), super::waves::natural(b)))
        });
        groups
    }
}

fn compare(key: &SortKey, a: &Row, b: &Row) -> Ordering {
    let facts = |r: &Row, f: fn(&super::Facts) -> usize| r.facts.as_ref().map_or(0, f);
    match key {
        SortKey::Name => a.name.cmp(&b.name),
        SortKey::State => state_rank(a.state).cmp(&state_rank(b.state)),
        SortKey::Flux => version(a).cmp(&version(b)),
        SortKey::Variant => text(a, |f| Some(&f.variant)).cmp(text(b, |f| Some(&f.variant))),
        SortKey::Root => a.root().cmp(b.root()),
        SortKey::Critical => {
            facts(a, super::Facts::critical).cmp(&facts(b, super::Facts::critical))
        }
        SortKey::High => facts(a, super::Facts::high).cmp(&facts(b, super::Facts::high)),
        SortKey::Missing => facts(a, |f| f.missing_refs).cmp(&facts(b, |f| f.missing_refs)),
        SortKey::Updated => a.updated_at_ms.cmp(&b.updated_at_ms),
        SortKey::Drift => drift_rank(a).cmp(&drift_rank(b)),
        SortKey::Label(k) => super::waves::natural(a.labels.get(k).map_or("", String::as_str)).cmp(
            &super::waves::natural(b.labels.get(k).map_or("", String::as_str)),
        ),
    }
}

/// Drift's findings, critical first: a row without a judgement ranks as none.
fn drift_rank(r: &Row) -> [usize; 5] {
    match r.facts.as_ref().and_then(|f| f.drift.as_ref()) {
        Some(super::DriftCell::Judged(c)) => {
            let f = c.findings;
            [f[4], f[3], f[2], f[1], f[0]]
        }
        _ => [0; 5],
    }
}

/// Problems first when sorted ascending by state.
fn state_rank(s: RowState) -> u8 {
    match s {
        RowState::Unauthorized => 0,
        RowState::Unreachable => 1,
        RowState::Loading => 2,
        RowState::Ok => 3,
    }
}

fn version(r: &Row) -> Option<(u32, u32, u32)> {
    r.facts
        .as_ref()
        .and_then(|f| f.flux_version.as_deref())
        .and_then(super::version::parse)
}

fn text<'a>(r: &'a Row, f: fn(&'a super::Facts) -> Option<&'a String>) -> &'a str {
    r.facts.as_ref().and_then(f).map_or("", String::as_str)
}
