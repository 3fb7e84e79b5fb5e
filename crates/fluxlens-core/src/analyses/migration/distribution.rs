//! Distribution switch (§2.6–2.7): bootstrap/Helm/flux-aio → Flux Operator, upstream → enterprise.

use super::{Check, Migration, Stage, StageState, assign_states};
use crate::analyses::facts::cluster::ClusterFacts;
use crate::analyses::facts::cluster::{Installer, installer};
use crate::analyses::finding::Finding;

/// A check that passes while `rule` has no finding; its label states the condition, so a
/// failing one never reads "clean" beside a cross (#68).
fn clean(findings: &[Finding], rule: &str) -> Check {
    let hits: Vec<&Finding> = findings.iter().filter(|f| f.rule == rule).collect();
    Check::new(
        format!("no {rule} finding"),
        Some(hits.is_empty()),
        hits.iter()
            .map(|f| f.message.clone())
            .collect::<Vec<_>>()
            .join("; "),
    )
    .with(hits.iter().map(|f| f.subject.clone()).collect())
}

/// The distribution switch.
pub fn distribution_switch(c: &ClusterFacts, findings: &[Finding]) -> Migration {
    let inst = c.instance();
    let who = installer(c);
    let applied = inst
        .and_then(|i| i.last_applied_revision())
        .is_some_and(|r| !r.is_empty());
    // D3 counts the controllers the FluxInstance asks for, running as the operator's own
    // Deployments and ready; without a FluxInstance, the components the report lists.
    let comps = &c.report.spec.components;
    let (ready_comps, total, what) = match crate::analyses::facts::cluster::requested_controllers(c)
    {
        Some(wanted) => (
            wanted
                .iter()
                .filter(|w| comps.iter().any(|x| &x.name == *w && x.ready == Some(true)))
                .count(),
            wanted.len(),
            "controllers from the operator",
        ),
        None => (
            comps.iter().filter(|x| x.ready == Some(true)).count(),
            comps.len(),
            "components ready",
        ),
    };
    let mut d3 = Stage::new(
        "D3",
        "Components healthy from one origin",
        vec![
            clean(findings, "MIG-DIST-04"),
            clean(findings, "MIG-DIST-05"),
            clean(findings, "MIG-DIST-06"),
        ],
    );
    d3.progress = Some((ready_comps, total, what.into()));
    let mut stages = vec![
        Stage::new(
            "D0",
            &format!("Installed by {}", who.as_str()),
            vec![Check::new("installer identified", Some(true), who.as_str())],
        ),
        Stage::new(
            "D1",
            "FluxInstance created",
            vec![Check::new(
                "a FluxInstance exists",
                Some(inst.is_some()),
                "",
            )],
        ),
        Stage::new(
            "D2",
            "Operator took over",
            vec![
                Check::new(
                    "distribution.managedBy is flux-operator",
                    Some(who == Installer::Operator),
                    c.report
                        .spec
                        .distribution
                        .managed_by
                        .clone()
                        .unwrap_or_default(),
                ),
                Check::new(
                    "the FluxInstance has applied (lastAppliedRevision)",
                    Some(applied),
                    "",
                ),
                clean(findings, "MIG-DIST-03"),
            ],
        ),
        d3,
        Stage::new(
            "D4",
            "Bootstrap leftovers removed",
            vec![clean(findings, "MIG-DIST-07")],
        ),
    ];
    let blockers: Vec<Finding> = findings
        .iter()
        .filter(|f| matches!(f.rule.as_str(), "MIG-DIST-02" | "MIG-DIST-08"))
        .filter(|f| f.severity > crate::analyses::finding::Severity::Info)
        .cloned()
        .collect();
    assign_states(&mut stages, 0, !blockers.is_empty());
    let ns = c.operator_namespace();
    let next_commands = match stages.iter().find(|s| s.state != StageState::Done).map(|s| s.id.as_str()) {
        Some("D1") => vec![
            "helm install flux-operator oci://ghcr.io/controlplaneio-fluxcd/charts/flux-operator --namespace flux-system".into(),
            "flux-operator install   # or apply a FluxInstance mirroring the bootstrap flags".into(),
        ],
        Some("D2") => vec![format!("kubectl -n {ns} get fluxinstance flux -o yaml   # check status.conditions and lastAppliedRevision")],
        Some("D3") => vec![
            format!("kubectl -n {ns} get deployments -o wide   # which controller is not ready, and from which image"),
            "flux check".into(),
        ],
        Some("D4") => vec!["git rm -r clusters/<cluster>/flux-system   # gotk-components.yaml and gotk-sync.yaml are now operator-managed".into()],
        _ => vec![],
    };
    let mut notes = vec![format!("installer: {}", who.as_str())];
    if matches!(
        who,
        Installer::FluxAio | Installer::Unknown | Installer::Bootstrap | Installer::Helm
    ) && inst.is_none()
    {
        notes.push("no FluxInstance: no automatic storage migration or patching; single-image view for flux-aio".into());
    }
    if let Some(v) = c.instance_distribution() {
        notes.push(format!(
            "spec.distribution: version {} · registry {} · variant {}",
            v.version.as_deref().unwrap_or("—"),
            v.registry.as_deref().unwrap_or("—"),
            v.variant.as_deref().unwrap_or("—")
        ));
    }
    // Intent: a FluxInstance (the operator took over, or is taking over), mixed registries,
    // or a downgrade asked for. One installer, no FluxInstance and one origin is "not
    // started"; an operator install with a stage open is a switch with work left (#68: "not
    // started" read over green D0–D2 on `broken`, whose D3 lacks a controller).
    let started = inst.is_some()
        || findings.iter().any(|f| {
            matches!(
                f.rule.as_str(),
                "MIG-DIST-02" | "MIG-DIST-05" | "MIG-DIST-08"
            )
        });
    Migration {
        id: "distribution",
        title: "Distribution switch".into(),
        stages,
        blockers,
        next_commands,
        notes,
        started: true,
        intent_unknown: None,
    }
    .with_intent(started)
}
