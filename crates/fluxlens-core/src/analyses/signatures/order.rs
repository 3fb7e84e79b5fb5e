//! The signatures table's column order, named in the URL (`sort=-blast`).

use super::{SourcePosture, Verifiability};
use std::cmp::Ordering;

/// Splits `-blast` into (`blast`, descending).
pub fn parse(sort: &str) -> (&str, bool) {
    match sort.strip_prefix('-') {
        Some(col) => (col, true),
        None => (sort, false),
    }
}

/// The value of `sort=` after a click on `column` (ascending, then descending).
pub fn next(sort: &str, column: &str) -> String {
    match parse(sort) {
        (c, false) if c == column => format!("-{column}"),
        _ => column.to_string(),
    }
}

fn verifiable_rank(v: &Verifiability) -> u8 {
    match v {
        Verifiability::Yes => 0,
        Verifiability::ProducerDefined => 1,
        Verifiability::No(_) => 2,
    }
}

/// Sorts the rows by a column; an unknown column keeps the given order (root first).
pub fn sort(rows: &mut [SourcePosture], sort: &str) {
    let (column, desc) = parse(sort);
    let cmp: fn(&SourcePosture, &SourcePosture) -> Ordering = match column {
        "source" => |a, b| a.key.cmp(&b.key),
        "status" => |a, b| a.status.cmp(&b.status),
        "verifiable" => |a, b| verifiable_rank(&a.verifiable).cmp(&verifiable_rank(&b.verifiable)),
        "provider" => |a, b| a.provider.cmp(&b.provider),
        "consumers" => |a, b| a.consumers.cmp(&b.consumers),
        "blast" => |a, b| a.blast_radius.cmp(&b.blast_radius),
        _ => return,
    };
    crate::util::sort::by(rows, |a, b| {
        let o = cmp(a, b);
        // Ties keep the key order so the table never reshuffles between polls.
        let o = if desc { o.reverse() } else { o };
        o.then_with(|| a.key.cmp(&b.key))
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Kind, ObjectKey, Status};

    fn row(name: &str, blast: usize) -> SourcePosture {
        SourcePosture {
            key: ObjectKey::new(Kind::GitRepository, "flux-system", name),
            status: Status::Ready,
            is_root: false,
            verifiable: Verifiability::Yes,
            verification: crate::analyses::signatures::Verification::Unverified,
            provider: None,
            keyed: None,
            identities: vec![],
            verdict: None,
            verified_revision: None,
            artifact_revision: None,
            consumers: 0,
            blast_radius: blast,
        }
    }

    #[test]
    fn a_click_sorts_ascending_then_descending() {
        assert_eq!(next("", "blast"), "blast");
        assert_eq!(next("blast", "blast"), "-blast");
        assert_eq!(next("-blast", "blast"), "blast");
        assert_eq!(next("-blast", "source"), "source");
    }

    #[test]
    fn blast_radius_descending_with_ties_by_key() {
        let mut rows = vec![row("b", 3), row("a", 3), row("c", 9), row("d", 1)];
        sort(&mut rows, "-blast");
        let names: Vec<&str> = rows.iter().map(|r| r.key.name.as_str()).collect();
        assert_eq!(names, ["c", "a", "b", "d"]);
        sort(&mut rows, "blast");
        let names: Vec<&str> = rows.iter().map(|r| r.key.name.as_str()).collect();
        assert_eq!(names, ["d", "a", "b", "c"]);
    }

    #[test]
    fn an_unknown_column_keeps_the_order() {
        let mut rows = vec![row("b", 3), row("a", 1)];
        sort(&mut rows, "nonsense");
        assert_eq!(rows[0].key.name, "b");
    }
}
