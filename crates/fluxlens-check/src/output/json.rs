//! `--format json`: the schema `fluxlens-check/v1` (README, "Pre-merge check"). Fields are
//! only ever added to it.

use super::Report;
use crate::diff::StageMove;
use fluxlens_core::analyses::finding::Finding;
use serde_json::{Map, Value, json};

/// The schema's name, carried in every answer.
pub const SCHEMA: &str = "fluxlens-check/v1";

fn finding(f: &Finding) -> Value {
    json!({
        "rule": f.rule,
        "severity": f.severity.as_str(),
        "subject": f.subject.to_string(),
        "message": f.message,
        "remediation": f.remediation,
    })
}

fn stage(s: &StageMove) -> Value {
    json!({
        "base": s.base.as_ref().map(|b| b.stage.clone()),
        "head": s.head.stage,
        "head_state": s.head.state,
        "backwards": s.backwards(),
    })
}

/// The whole report as JSON.
pub fn render(r: &Report) -> Value {
    let c = r.change;
    let keys = |ks: &mut dyn Iterator<Item = String>| Value::Array(ks.map(Value::String).collect());
    let stages: Map<String, Value> = c
        .stages
        .iter()
        .map(|(k, s)| (k.to_string(), stage(s)))
        .collect();
    json!({
        "schema": SCHEMA,
        "verdict": r.verdict(),
        "summary": r.summary(),
        "fail_on": r.fail_on.as_str(),
        "profile": r.profile_name(),
        "base": r.has_base,
        "objects": { "base": c.objects.0, "head": c.objects.1 },
        "findings": {
            "added": c.added.iter().map(finding).collect::<Vec<_>>(),
            "resolved": c.resolved.iter().map(finding).collect::<Vec<_>>(),
        },
        "missing_added": keys(&mut c.missing_added.iter().map(|m| m.target.to_string())),
        "missing_resolved": keys(&mut c.missing_resolved.iter().map(|k| k.to_string())),
        "missing_referrers": c.missing_added.iter().map(|m| (m.target.to_string(),
            Value::Array(m.from.iter().map(|k| Value::String(k.to_string())).collect())))
            .collect::<Map<String, Value>>(),
        "cycles_added": c.cycles_added.iter()
            .map(|cy| keys(&mut cy.iter().map(|k| k.to_string()))).collect::<Vec<_>>(),
        "verify_regressions": c.verify.iter().map(|v| json!({
            "subject": v.subject.to_string(), "change": v.change.as_str(),
            "before": v.before, "after": v.after, "severity": v.severity.as_str(),
        })).collect::<Vec<_>>(),
        "stages": stages,
        "not_in_render": c.unresolved.iter().map(|(k, why)| json!({
            "reference": k.to_string(), "why": why,
        })).collect::<Vec<_>>(),
        "notes": c.notes,
        "order": c.order.as_ref().map(order),
    })
}

/// The change stepped (revision 4): waves, what never reconciles with its chain of waits, the
/// objects whose applier was assumed, and the preconditions a render cannot check.
fn order(j: &crate::order::Judged) -> Value {
    let o = &j.order;
    let key = |k: &fluxlens_core::model::ObjectKey| Value::String(k.to_string());
    json!({
        "safe": o.safe(),
        "waves": o.waves.iter().map(|w| w.iter().map(key).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "stuck": o.stuck.iter().map(|s| json!({
            "object": s.object.to_string(),
            "cycle": s.cycle,
            "chain": s.chain.iter().map(|l| json!({
                "kind": format!("{:?}", l.kind), "object": l.object.to_string(),
            })).collect::<Vec<_>>(),
            "text": fluxlens_core::analyses::order::describe(&s.object, &s.chain),
        })).collect::<Vec<_>>(),
        "assumed_applied_by_root": o.assumed_root.iter().map(key).collect::<Vec<_>>(),
        "preconditions": j.preconditions,
    })
}
