//! DRIFT-03 and DRIFT-04: objects both declared and live, compared on the fields that decide
//! delivery and on `spec.verify`.

use super::applier::{State, States};
use super::commands::act;
use super::fields::{Difference, differences, generated_by_operator, verify_of};
use super::{Drift, Input};
use crate::analyses::finding::Finding;
use crate::analyses::findings::policy::{Class, graded};
use crate::model::FluxObject;

pub(super) fn compare_present(input: &Input, appliers: &States, out: &mut Drift) {
    for declared in input.declared.objects() {
        let Some(live) = input.live.get(&declared.key) else {
            continue;
        };
        out.compared += 1;
        let generated = generated_by_operator(declared);
        let diffs = differences(declared, live, generated);
        let verify = verify_finding(input, declared, live);
        if diffs.is_empty() && verify.is_none() {
            out.in_sync += 1;
        }
        out.findings.extend(verify);
        out.findings.extend(suspended_live(input, live, &diffs));
        let edited: Vec<&Difference> = diffs.iter().filter(|d| !is_live_suspend(d)).collect();
        if !edited.is_empty() {
            out.findings
                .push(edited_finding(input, appliers, live, &edited));
        }
    }
}

/// A suspend set live that the render does not declare: delivery through it has stopped.
fn is_live_suspend(d: &Difference) -> bool {
    d.field == "spec.suspend" && d.live == "true"
}

fn suspended_live(input: &Input, live: &FluxObject, diffs: &[Difference]) -> Option<Finding> {
    diffs.iter().find(|d| is_live_suspend(d))?;
    Some(graded(
        input.live,
        "DRIFT-03",
        Class::Broken,
        live.key.clone(),
        format!(
            "{} is suspended in the cluster and the render does not suspend it: nothing it delivers is reconciled",
            live.key
        ),
        vec!["spec.suspend: render false (or unset), live true".into()],
        format!(
            "{} once the reason it was suspended is gone, or declare the suspension in Git so the repository says it.",
            act("resume", &live.key)
        ),
    ))
}

fn edited_finding(
    input: &Input,
    appliers: &States,
    live: &FluxObject,
    diffs: &[&Difference],
) -> Finding {
    let applier = appliers.live_applier(live);
    let state = applier.as_ref().map(|a| (a, appliers.of(a)));
    let fields: Vec<&str> = diffs.iter().map(|d| d.field).collect();
    let (class, why) = match &state {
        Some((a, s @ State::Behind(_))) => (Class::Context, s.clause(a)),
        Some((a, s)) => (
            Class::ControlFailing,
            format!(
                "{}, and the value was not put back: a hand edit, or another writer",
                s.clause(a)
            ),
        ),
        None => (
            Class::ControlFailing,
            "no inventory names its applier, so nothing puts the render's value back".into(),
        ),
    };
    let evidence = diffs
        .iter()
        .map(|d| format!("{}: render {}, live {}", d.field, d.declared, d.live))
        .collect();
    let remediation = match &applier {
        Some(a) => format!(
            "{} so the render's values are applied again, and find who edits {}.",
            act("reconcile", a),
            live.key
        ),
        None => format!(
            "Apply the render's {} again and find who edits it.",
            live.key
        ),
    };
    graded(
        input.live,
        "DRIFT-03",
        class,
        live.key.clone(),
        format!(
            "{} differs from the render in {}: {why}",
            live.key,
            fields.join(", ")
        ),
        evidence,
        remediation,
    )
}

/// DRIFT-04: verification as declared against live.
fn verify_finding(input: &Input, declared: &FluxObject, live: &FluxObject) -> Option<Finding> {
    let (d, l) = (verify_of(declared), verify_of(live));
    let generated = generated_by_operator(declared);
    let (class, message, remediation) = match (&d, &l) {
        (Some(d), None) => (
            Class::FailOpen,
            format!(
                "{} verifies nothing live, though the render declares verify ({d}): artifacts are accepted unverified",
                live.key
            ),
            match generated {
                true => "The operator generates this source: put verify in a FluxInstance spec.kustomize.patches entry whose target matches its kind and name; a verify on a Git-delivered copy does not survive the operator's apply.".to_string(),
                false => format!("Reconcile what applies {} and check nothing strips spec.verify; confirm with `kubectl -n {} get {} {} -o jsonpath='{{.spec.verify}}'`.", live.key, live.key.namespace, live.key.kind.as_str().to_lowercase(), live.key.name),
            },
        ),
        (Some(d), Some(l)) if d != l => (
            Class::ControlFailing,
            format!("{} verifies with other rules than the render declares", live.key),
            "Reconcile its applier so the declared identity rules apply, and find who edits them.".to_string(),
        ),
        (None, Some(l)) => (
            Class::Context,
            format!("{} verifies live ({l}) though the render declares no verify: the next apply may remove it", live.key),
            "Declare the verify in the repository so it stays.".to_string(),
        ),
        _ => return None,
    };
    let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".into());
    Some(graded(
        input.live,
        "DRIFT-04",
        class,
        live.key.clone(),
        message,
        vec![
            format!("spec.verify in the render: {}", show(&d)),
            format!("spec.verify live: {}", show(&l)),
        ],
        remediation,
    ))
}
