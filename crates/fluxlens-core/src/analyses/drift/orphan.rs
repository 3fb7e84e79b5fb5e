//! DRIFT-02: live Flux objects that no render declares, judged only where the live lists are
//! complete, each with what applies it. What an orphaned applier applies is said with it, not
//! apart.

use super::applier::{State, States};
use super::commands::act;
use super::fields::generated_by_operator;
use super::{Drift, Input};
use crate::analyses::finding::Finding;
use crate::analyses::findings::policy::{Class, graded};
use crate::model::{FluxObject, ObjectKey, RefKind};
use crate::wire::kind::Kind;
use std::collections::BTreeMap;

pub(super) fn orphans(input: &Input, appliers: &States, out: &mut Drift) {
    let live = input.live;
    if let Some(partial) = &live.notes.partial {
        out.not_compared.push((
            "orphans".into(),
            format!("not judged: the live lists are incomplete ({partial})"),
        ));
        return;
    }
    for (kind, why) in &live.notes.incomplete_kinds {
        out.not_compared.push((
            format!("orphans of kind {kind}"),
            format!("not judged: its live list is incomplete ({why})"),
        ));
    }
    let complete = |o: &FluxObject| live.notes.incomplete_reason(o.key.kind.as_str()).is_none();
    let orphaned: Vec<&FluxObject> = live
        .objects()
        .iter()
        .filter(|o| !input.declared.contains(&o.key) && complete(o))
        .collect();
    // What an orphaned applier applies is told with the applier; what a declared generator
    // makes is in no render by design, and counted.
    let mut under: BTreeMap<ObjectKey, Vec<ObjectKey>> = BTreeMap::new();
    let mut generated: BTreeMap<&str, usize> = BTreeMap::new();
    let mut heads = Vec::new();
    for o in &orphaned {
        match &o.managed_by {
            Some(a) if orphaned.iter().any(|x| &x.key == a) => {
                under.entry(a.clone()).or_default().push(o.key.clone())
            }
            Some(a) if is_generator(&a.kind) && input.declared.contains(a) => {
                *generated.entry(a.kind.as_str()).or_default() += 1
            }
            // helm-controller builds a HelmChart for each HelmRelease; an old release does not
            // name it, so no owner is visible.
            None if o.key.kind == Kind::HelmChart => {
                *generated.entry("HelmRelease").or_default() += 1
            }
            _ => heads.push(*o),
        }
    }
    if !generated.is_empty() {
        let by: Vec<String> = generated
            .iter()
            .map(|(kind, n)| {
                format!(
                    "{kind}s ({})",
                    crate::analyses::verdict::plural(*n, "object")
                )
            })
            .collect();
        out.not_compared.push((
            "generated objects".into(),
            format!(
                "made by declared {}, so in no render by design",
                by.join(", ")
            ),
        ));
    }
    for o in heads {
        let applied = under.remove(&o.key).unwrap_or_default();
        out.findings
            .push(finding(input, appliers, o, &collect(&under, applied)));
    }
}

/// What `applied` holds, with what each of those applies in turn.
fn collect(under: &BTreeMap<ObjectKey, Vec<ObjectKey>>, applied: Vec<ObjectKey>) -> Vec<ObjectKey> {
    let mut out = Vec::new();
    let mut todo = applied;
    while let Some(k) = todo.pop() {
        if out.contains(&k) {
            continue;
        }
        todo.extend(under.get(&k).cloned().unwrap_or_default());
        out.push(k);
    }
    out.sort();
    out
}

fn finding(input: &Input, appliers: &States, o: &FluxObject, applied: &[ObjectKey]) -> Finding {
    let (class, how) = how_applied(input, appliers, o);
    let with = match applied.len() {
        0 => String::new(),
        n => format!(
            ", with {} it applies",
            crate::analyses::verdict::plural(n, "object")
        ),
    };
    let mut evidence = vec![format!("owner: {}", o.owner_label())];
    if !applied.is_empty() {
        evidence.push(format!("it applies {}", super::absent::list(applied)));
    }
    let remediation = match class {
        Class::Context => "Nothing to do if this is how it is meant to be delivered; declare it in the repository to have it judged.".to_string(),
        _ => format!(
            "Declare {} in the repository, or once nothing reads it: {}. An applier that leaves objects behind wants spec.prune: true.",
            o.key,
            act("delete", &o.key)
        ),
    };
    let mut f = graded(
        input.live,
        "DRIFT-02",
        class,
        o.key.clone(),
        format!(
            "{} runs in the cluster and no render declares it{with}: {how}",
            o.key
        ),
        evidence,
        remediation,
    );
    if !applied.is_empty() {
        f.members = std::iter::once(o.key.clone())
            .chain(applied.iter().cloned())
            .collect();
    }
    f
}

/// How loud an orphan is, from what applies it.
fn how_applied(input: &Input, appliers: &States, o: &FluxObject) -> (Class, String) {
    let live = input.live;
    let Some(a) = &o.managed_by else {
        if generated_by_operator(o) {
            return (Class::Context, "the FluxInstance generates it".into());
        }
        if o.key.kind == Kind::FluxInstance {
            return (
                Class::Context,
                "the FluxInstance is installed from outside the repository (Helm, Terraform or by hand)".into(),
            );
        }
        return (
            Class::Degraded,
            "no inventory lists it: it was made by hand or by a tool outside GitOps".into(),
        );
    };
    if is_generator(&a.kind) {
        return (Class::Context, format!("{a} generates it"));
    }
    let applier = live.get(a);
    let source = applier.and_then(|ap| {
        ap.refs
            .iter()
            .find(|r| r.kind == RefKind::Source)
            .map(|r| r.target.clone())
    });
    let root = live.root_source();
    if source.is_some() && source != root {
        let s = source.map(|s| s.to_string()).unwrap_or_default();
        return (
            Class::Context,
            format!("{a} applies it from {s}, which this render does not hold"),
        );
    }
    match appliers.of(a) {
        State::Behind(what) => (
            Class::Context,
            format!("{a} {what}; the rendered revision no longer declares it"),
        ),
        _ if applier.is_some_and(|ap| ap.raw.spec.prune != Some(true)) => (
            Class::Degraded,
            format!("{a} no longer declares it and does not prune: it was left behind"),
        ),
        _ => (
            Class::Degraded,
            format!("{a} applies it, and the render of the same revision does not declare it"),
        ),
    }
}

/// Kinds whose objects are made from a template or a chart, not written in the repository.
fn is_generator(kind: &Kind) -> bool {
    matches!(
        kind,
        Kind::ResourceSet | Kind::HelmRelease | Kind::FluxInstance | Kind::ArtifactGenerator
    )
}
