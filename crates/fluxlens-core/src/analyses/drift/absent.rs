//! DRIFT-01: declared in the render and absent in the cluster, on the server's NotFound for
//! that key only, with why from its applier's live state. Objects absent for one reason are
//! one finding (§0.3-6): a suspended applier's twenty objects are one thing to act on.

use super::applier::{State, States};
use super::commands::act;
use super::fields::generated_by_operator;
use super::{Drift, Input};
use crate::analyses::findings::policy::{Class, graded};
use crate::model::{Answer, FluxObject, ObjectKey};
use std::collections::BTreeMap;

/// Who applies a declared object: what its render labels name, the FluxInstance for what the
/// operator generates, else the live root Kustomization, assumed (and said).
fn applier_of(input: &Input, o: &FluxObject) -> Option<(ObjectKey, bool)> {
    if let Some(m) = &o.managed_by {
        return Some((m.clone(), false));
    }
    if generated_by_operator(o) {
        return input.live.instance().map(|i| (i.key.clone(), false));
    }
    let root = input
        .live
        .root_kustomization()
        .or_else(|| input.declared.root_kustomization())?;
    (root != o.key).then_some((root, true))
}

/// One reason for absence, and the objects it holds.
struct Group {
    applier: Option<ObjectKey>,
    assumed: bool,
    state: Option<State>,
    objects: Vec<ObjectKey>,
}

pub(super) fn declared_absent(input: &Input, appliers: &States, out: &mut Drift) {
    let mut groups: BTreeMap<String, Group> = BTreeMap::new();
    for o in input.declared.objects() {
        if input.live.contains(&o.key) {
            continue;
        }
        let why_not = match input.asked.get(&o.key) {
            Some(Answer::NotFound) => None,
            Some(Answer::Forbidden) => Some("not visible: the server answers Forbidden for it"),
            Some(Answer::Error) => Some("not compared: the server could not read it (Error)"),
            Some(Answer::Found(_)) => Some("not compared: read by key but not in the live lists"),
            None => Some("not compared: not confirmed absent (no read by key answered)"),
        };
        if let Some(why) = why_not {
            out.not_compared.push((o.key.to_string(), why.into()));
            continue;
        }
        let applier = applier_of(input, o);
        let state = applier.as_ref().map(|(a, _)| appliers.of(a));
        let reason = match (&applier, &state) {
            (Some((a, assumed)), Some(s)) => format!("{assumed}|{}", s.clause(a)),
            _ => "none".into(),
        };
        groups
            .entry(reason)
            .or_insert_with(|| Group {
                applier: applier.as_ref().map(|(a, _)| a.clone()),
                assumed: applier.as_ref().is_some_and(|(_, assumed)| *assumed),
                state,
                objects: Vec::new(),
            })
            .objects
            .push(o.key.clone());
    }
    for g in groups.into_values() {
        out.findings.push(finding(input, g));
    }
}

fn finding(input: &Input, g: Group) -> crate::analyses::finding::Finding {
    let subject = g.objects[0].clone();
    let what = match g.objects.len() {
        1 => format!("{subject} is declared in the render and absent in the cluster"),
        n => format!("{n} objects declared in the render are absent in the cluster"),
    };
    let (class, why, remediation) = match (&g.applier, &g.state) {
        (Some(a), Some(s)) if s.stops_delivery() => (
            Class::Broken,
            s.clause(a),
            format!("Act on {a} first: resume it, make it exist or fix what it fails on or waits for; what it applies arrives once it reconciles."),
        ),
        (Some(a), Some(s @ State::Behind(_))) => (
            Class::Context,
            s.clause(a),
            format!("Nothing to do unless it stays: {a} applies the rendered revision at its next reconcile. To hurry it: {}.", act("reconcile", a)),
        ),
        (Some(a), Some(s)) => (
            Class::ControlFailing,
            format!("{}, yet the object is not there: what it builds differs from the render, or the object was deleted since", s.clause(a)),
            format!("Compare the render with what {a} builds (`flux build kustomization {} --path <its path>` for a Kustomization), then: {}.", a.name, act("reconcile", a)),
        ),
        _ => (
            Class::Broken,
            "nothing in the cluster applies it (no root Kustomization)".to_string(),
            "Make the cluster's root Kustomization exist: without it nothing of the render is applied.".to_string(),
        ),
    };
    let mut evidence = vec![format!(
        "the server answers NotFound for {}",
        list(&g.objects)
    )];
    if let (Some(a), true) = (&g.applier, g.assumed) {
        evidence.push(format!(
            "applier assumed: the render names none, so the root {a} is taken"
        ));
    }
    let mut f = graded(
        input.live,
        "DRIFT-01",
        class,
        subject,
        format!("{what}: {why}"),
        evidence,
        remediation,
    );
    if g.objects.len() > 1 {
        f.members = g.objects;
    }
    f
}

/// Up to five keys, then how many more.
pub(super) fn list(keys: &[ObjectKey]) -> String {
    let shown: Vec<String> = keys.iter().take(5).map(ObjectKey::to_string).collect();
    match keys.len() {
        n if n > 5 => format!("{} and {} more", shown.join(", "), n - 5),
        _ => shown.join(", "),
    }
}
