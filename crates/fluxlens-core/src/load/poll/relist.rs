//! Kinds the report counts more of than the list holds, listed again: by kind first (its own
//! per-kind cap), then in the namespaces that held its rows, then in every namespace; with
//! backoff while a kind stays short.

use super::wire::{Answer, Request, Text};
use crate::load;
use crate::wire::error::ApiError;
use crate::wire::report::FluxReport;
use crate::wire::resources::{ResourceList, ResourceSummary};
use std::collections::HashMap;

/// Per-namespace lists in flight at once when completing a kind.
pub const RELIST_IN_FLIGHT: usize = 4;
/// A kind that stays incomplete is listed again after 1, 2, 4 … up to this many polls.
pub const RELIST_MAX_WAIT: u32 = 16;
/// A kind over the cap is listed again in every namespace once in this many polls (else only
/// in the namespaces that held its rows).
pub const SWEEP_POLLS: u32 = 3 * load::REREAD_POLLS;

/// Where one kind's re-list is.
#[derive(Debug, PartialEq)]
enum Stage {
    ByKind,
    /// Listing in `namespaces`; `all`: every namespace of the report (a sweep).
    Namespaces {
        namespaces: Vec<String>,
        all: bool,
    },
    Done,
}

/// One kind listed again this poll.
#[derive(Debug)]
struct Job {
    kind: String,
    /// The report's count.
    expected: usize,
    /// Where to list it when the list by kind is short: the namespaces that held its rows at
    /// the last re-list, or every namespace on a sweep.
    namespaces: Vec<String>,
    sweep: bool,
    stage: Stage,
    by_kind: Vec<ResourceSummary>,
    found: Vec<ResourceSummary>,
}

/// This poll's re-lists.
#[derive(Debug, Default)]
pub(super) struct Relists {
    jobs: Vec<Job>,
}

/// The report's count of `kind`.
pub(super) fn expected_rows(report: &FluxReport, kind: &str) -> usize {
    report
        .stats_for(kind)
        .map_or(0, |r| r.stats.total() as usize)
}

impl Relists {
    /// The re-lists due at poll `poll` among the `incomplete` kinds (`rows`: this poll's;
    /// `backoff`: per kind, the poll of the next re-list and the wait; `relisted`: the rows
    /// each last re-list found). A kind the list cut at the per-kind cap goes straight to its
    /// namespaces: the server caps a list by kind at the same 2,500 (resources.go
    /// `GetLiveResources` `matchLimit`), so asking it by kind only repeats the cut.
    pub fn due(
        report: &FluxReport,
        incomplete: &[(String, String)],
        rows: &[ResourceSummary],
        backoff: &HashMap<String, (u32, u32)>,
        relisted: &HashMap<String, Vec<ResourceSummary>>,
        poll: u32,
    ) -> Relists {
        let jobs = incomplete
            .iter()
            .filter(|(kind, _)| backoff.get(kind).is_none_or(|(next, _)| poll >= *next))
            .map(|(kind, _)| {
                let held = relisted.get(kind).map(Vec::as_slice);
                let sweep = held.is_none() || poll.is_multiple_of(SWEEP_POLLS);
                let listed: Vec<ResourceSummary> =
                    rows.iter().filter(|r| &r.kind == kind).cloned().collect();
                let mut job = Job {
                    kind: kind.clone(),
                    expected: expected_rows(report, kind),
                    namespaces: load::relist_namespaces(report, held, sweep),
                    sweep,
                    stage: Stage::ByKind,
                    by_kind: Vec::new(),
                    found: Vec::new(),
                };
                if listed.len() >= load::LIST_CAP {
                    job.by_kind = listed;
                    job.found = job.by_kind.clone();
                    let namespaces = std::mem::take(&mut job.namespaces);
                    job.stage = namespaces_stage(namespaces, job.sweep);
                }
                job
            })
            .collect();
        Relists { jobs }
    }

    /// The next requests, in the jobs' order; empty when every job is done.
    pub fn requests(&self) -> Vec<Request> {
        let mut out = Vec::new();
        for job in &self.jobs {
            match &job.stage {
                Stage::ByKind => out.push(Request::List {
                    kind: job.kind.clone(),
                    namespace: String::new(),
                }),
                Stage::Namespaces { namespaces, .. } => {
                    out.extend(namespaces.iter().map(|ns| Request::List {
                        kind: job.kind.clone(),
                        namespace: ns.clone(),
                    }))
                }
                Stage::Done => {}
            }
        }
        out
    }

    /// Takes the answers to [`Relists::requests`]. A failed list by kind fails the poll; a
    /// namespace that fails leaves the kind short (its count says so).
    pub fn answer<B: Text>(
        &mut self,
        report: &FluxReport,
        answers: Vec<Answer<B>>,
    ) -> Result<(), ApiError> {
        let mut answers = answers.into_iter();
        for job in &mut self.jobs {
            match std::mem::replace(&mut job.stage, Stage::Done) {
                Stage::ByKind => {
                    let body = answers.next().unwrap_or(Err(missing()))?;
                    let list: ResourceList = crate::wire::error::decode(&body.text())?;
                    job.by_kind = list.resources;
                    job.found = job.by_kind.clone();
                    if job.found.len() < job.expected {
                        let namespaces = std::mem::take(&mut job.namespaces);
                        job.stage = namespaces_stage(namespaces, job.sweep);
                    }
                }
                Stage::Namespaces { namespaces, all } => {
                    let mut rows = Vec::new();
                    for answer in answers.by_ref().take(namespaces.len()) {
                        let list = answer.and_then(|b| crate::wire::error::decode(&b.text()));
                        if let Ok(ResourceList { resources }) = list {
                            rows.extend(resources);
                        }
                    }
                    if rows.len() > job.found.len() {
                        job.found = rows;
                    }
                    if !all && job.found.len() < job.expected {
                        // A short answer from the namespaces that held the kind: sweep at once.
                        let every = load::relist_namespaces(report, None, true);
                        job.found = job.by_kind.clone();
                        job.stage = namespaces_stage(every, true);
                    }
                }
                Stage::Done => {}
            }
        }
        Ok(())
    }

    /// Records what each re-list found (`relisted`) and when the kind is listed again.
    pub fn finish(
        self,
        poll: u32,
        backoff: &mut HashMap<String, (u32, u32)>,
        relisted: &mut HashMap<String, Vec<ResourceSummary>>,
    ) {
        for job in self.jobs {
            let wait = backoff.get(&job.kind).map_or(1, |(_, w)| *w);
            let wait = if job.found.len() >= job.expected {
                1
            } else {
                (wait * 2).min(RELIST_MAX_WAIT)
            };
            backoff.insert(job.kind.clone(), (poll + wait, wait));
            relisted.insert(job.kind, job.found);
        }
    }
}

fn namespaces_stage(namespaces: Vec<String>, all: bool) -> Stage {
    if namespaces.is_empty() {
        Stage::Done
    } else {
        Stage::Namespaces { namespaces, all }
    }
}

fn missing() -> ApiError {
    ApiError::Network("no answer".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::report::{ReconcilerStats, Stats};

    fn report(kind: &str, count: u64, namespaces: &[&str]) -> FluxReport {
        let mut r = FluxReport::default();
        r.spec.namespaces = namespaces.iter().map(|n| n.to_string()).collect();
        r.spec.reconcilers = vec![ReconcilerStats {
            kind: kind.into(),
            stats: Stats {
                running: count,
                ..Default::default()
            },
            ..Default::default()
        }];
        r
    }

    fn list(rows: &[(&str, &str)]) -> Answer<String> {
        let rows: Vec<serde_json::Value> = rows
            .iter()
            .map(|(ns, name)| {
                serde_json::json!({"kind": "HelmRelease", "namespace": ns, "name": name,
                    "status": "Ready"})
            })
            .collect();
        Ok(serde_json::json!({ "resources": rows }).to_string())
    }

    fn namespaces_asked(r: &Relists) -> Vec<String> {
        r.requests()
            .into_iter()
            .map(|q| match q {
                Request::List { namespace, .. } => namespace,
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_short_kind_is_listed_by_kind_then_where_it_was_then_everywhere_with_backoff() {
        let report = report("HelmRelease", 3, &["a", "b", "c"]);
        let short = vec![("HelmRelease".to_string(), "capped".to_string())];
        let (mut backoff, mut relisted) = (HashMap::new(), HashMap::new());
        // Never re-listed: by kind, then every namespace (a sweep).
        let mut r = Relists::due(&report, &short, &[], &backoff, &relisted, 1);
        assert_eq!(namespaces_asked(&r), vec![String::new()]);
        r.answer(&report, vec![list(&[("a", "x")])]).unwrap();
        assert_eq!(namespaces_asked(&r), ["a", "b", "c"]);
        r.answer(
            &report,
            vec![list(&[("a", "x")]), list(&[("b", "y")]), list(&[])],
        )
        .unwrap();
        assert!(r.requests().is_empty());
        r.finish(1, &mut backoff, &mut relisted);
        assert_eq!(relisted["HelmRelease"].len(), 2);
        assert_eq!(
            backoff["HelmRelease"],
            (3, 2),
            "still short: the wait doubles"
        );
        // Not due at poll 2; at poll 3 only the namespaces that held it, and a short answer
        // there sweeps at once.
        assert!(
            Relists::due(&report, &short, &[], &backoff, &relisted, 2)
                .requests()
                .is_empty()
        );
        let mut r = Relists::due(&report, &short, &[], &backoff, &relisted, 3);
        r.answer(&report, vec![list(&[])]).unwrap();
        assert_eq!(namespaces_asked(&r), ["a", "b"]);
        r.answer(&report, vec![list(&[("a", "x")]), list(&[])])
            .unwrap();
        assert_eq!(namespaces_asked(&r), ["a", "b", "c"]);
        r.answer(
            &report,
            vec![
                list(&[("a", "x")]),
                list(&[("b", "y")]),
                list(&[("c", "z")]),
            ],
        )
        .unwrap();
        r.finish(3, &mut backoff, &mut relisted);
        assert_eq!(relisted["HelmRelease"].len(), 3);
        assert_eq!(backoff["HelmRelease"], (4, 1), "whole: next poll again");
    }

    #[test]
    fn a_failed_list_by_kind_fails_the_poll_and_a_failed_namespace_does_not() {
        let report = report("HelmRelease", 2, &["a", "b"]);
        let short = vec![("HelmRelease".to_string(), "capped".to_string())];
        let none = HashMap::new();
        let mut r = Relists::due(&report, &short, &[], &HashMap::new(), &none, 0);
        let failed = r.answer::<String>(&report, vec![Err(ApiError::Network("reset".into()))]);
        assert!(failed.is_err());
        let mut r = Relists::due(&report, &short, &[], &HashMap::new(), &none, 0);
        r.answer(&report, vec![list(&[])]).unwrap();
        r.answer(
            &report,
            vec![list(&[("a", "x")]), Err(ApiError::Network("reset".into()))],
        )
        .unwrap();
        assert!(r.requests().is_empty());
    }

    #[test]
    fn a_kind_cut_at_the_per_kind_cap_is_not_asked_by_kind_again() {
        let report = report("HelmRelease", 3000, &["a", "b"]);
        let short = vec![("HelmRelease".to_string(), "capped".to_string())];
        let rows: Vec<ResourceSummary> = (0..load::LIST_CAP)
            .map(|i| ResourceSummary {
                kind: "HelmRelease".into(),
                namespace: "a".into(),
                name: format!("r{i}"),
                ..Default::default()
            })
            .collect();
        let r = Relists::due(&report, &short, &rows, &HashMap::new(), &HashMap::new(), 1);
        assert_eq!(
            namespaces_asked(&r),
            ["a", "b"],
            "straight to the namespaces"
        );
    }
}
