//! MIG-DIST-01 … 10: switching installers and distributions.

use super::rule;
use crate::analyses::facts::cluster::ClusterFacts;
use crate::analyses::facts::cluster::{self, Installer, installer};
use crate::analyses::findings::Finding;
use crate::analyses::findings::policy::{Class, Role, fixed, graded_as};
use crate::model::{Cluster, ObjectKey};
use crate::util::version::Version;
use crate::wire::kind::Kind;

rule!(
    /// MIG-DIST-01: who installed Flux (info).
    InstallerClass, "MIG-DIST-01", "installer classification", installer_class
);
rule!(
    /// MIG-DIST-02: a FluxInstance exists but has not taken over.
    TakeoverIncomplete, "MIG-DIST-02", "takeover incomplete", takeover
);
rule!(
    /// MIG-DIST-03: the FluxInstance is not Ready or is stuck.
    InstanceUnhealthy, "MIG-DIST-03", "instance unhealthy", instance_unhealthy
);
rule!(
    /// MIG-DIST-04: controllers not ready or missing.
    ComponentsNotReady, "MIG-DIST-04", "components not ready / missing", components_not_ready
);
rule!(
    /// MIG-DIST-05: controller images from several registries.
    MixedOrigins, "MIG-DIST-05", "mixed image origins", mixed_origins
);
rule!(
    /// MIG-DIST-06: deployed images differ from what the FluxInstance selected.
    InstanceDrift, "MIG-DIST-06", "instance vs live drift", instance_drift
);
rule!(
    /// MIG-DIST-07: the old bootstrap manifests are still applied from Git.
    BootstrapLeftovers, "MIG-DIST-07", "bootstrap leftovers", leftovers
);
rule!(
    /// MIG-DIST-08: a minor downgrade was requested.
    DowngradeRequested, "MIG-DIST-08", "downgrade requested", downgrade
);
rule!(
    /// MIG-DIST-09: the install gives fluxlens less to see (info).
    LimitedVisibility, "MIG-DIST-09", "limited visibility install", limited_visibility
);
rule!(
    /// MIG-DIST-10: flux-aio's controllers run beside the operator's (revision 3).
    ControllersTwice, "MIG-DIST-10", "controllers twice", controllers_twice
);

fn report_subject(c: &Cluster) -> ObjectKey {
    ObjectKey::new(Kind::FluxReport, c.operator_namespace(), "flux")
}

/// The registry prefix of an image: `ghcr.io/fluxcd/source-controller:v1@sha256:…` → `ghcr.io/fluxcd`.
pub fn registry_prefix(image: &str) -> &str {
    let no_digest = image.split('@').next().unwrap_or(image);
    let last_slash = no_digest.rfind('/').unwrap_or(0);
    let (repo, _) = no_digest.split_at(last_slash);
    repo
}

fn installer_class(id: &str, c: &ClusterFacts, out: &mut Vec<Finding>) {
    let who = installer(c);
    out.push(fixed(
        id,
        Class::Context,
        report_subject(c),
        format!("Flux was installed by {}", who.as_str()),
        vec![managed_by_evidence(c)],
        "Informational.".into(),
    ));
}

/// The report's `distribution.managedBy`, quoted, as evidence.
fn managed_by_evidence(c: &Cluster) -> String {
    format!(
        "distribution.managedBy: {:?}",
        c.report
            .spec
            .distribution
            .managed_by
            .as_deref()
            .unwrap_or_default()
    )
}

fn takeover(id: &str, c: &ClusterFacts, out: &mut Vec<Finding>) {
    let Some(i) = c.instance() else { return };
    let who = installer(c);
    let applied = i.last_applied_revision().is_some_and(|r| !r.is_empty());
    if who != Installer::Operator || !applied {
        let mut ev = vec![managed_by_evidence(c)];
        if !applied {
            ev.push("the FluxInstance has never applied (no lastAppliedRevision)".into());
        }
        // One verdict with MIG-DIST-03 (#46: "one step from an outage" sat beside "nothing to
        // do while it reconciles"): a takeover whose apply is still in progress is to wait for.
        if applying(i) {
            ev.push("its apply is in progress (Reconciling, Ready not False)".into());
            out.push(fixed(id, Class::Context, i.key.clone(), format!("{} is taking over the installation: its apply is in progress", i.key), ev, "Nothing to do while it reconciles; if Ready turns False the takeover has stopped (MIG-DIST-03) and this is high.".into()));
            return;
        }
        out.push(fixed(id, Class::Unhealthy, i.key.clone(), format!("{} exists but the operator has not taken over the installation", i.key), ev, "Check the FluxInstance conditions; it adopts the controllers, the GitRepository and the Kustomization on its first apply.".into()));
    }
}

/// Whether the FluxInstance is applying a revision and has not failed: Ready not False, not
/// Stalled, and Reconciling or a revision attempted but not applied (revision 2).
fn applying(i: &crate::model::FluxObject) -> bool {
    let stalled = i.condition("Stalled").is_some_and(|s| s.status == "True");
    let ready_false = i.condition("Ready").is_some_and(|r| r.status == "False");
    let reconciling = i
        .condition("Reconciling")
        .is_some_and(|r| r.status == "True");
    let s = &i.raw.status;
    let differ =
        s.last_attempted_revision.is_some() && s.last_attempted_revision != s.last_applied_revision;
    !stalled && !ready_false && (reconciling || differ)
}

fn instance_unhealthy(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some(i) = c.instance() else { return };
    let stalled = i.condition("Stalled").is_some_and(|s| s.status == "True");
    let ready_false = i.condition("Ready").filter(|r| r.status == "False");
    let s = &i.raw.status;
    let differ =
        s.last_attempted_revision.is_some() && s.last_attempted_revision != s.last_applied_revision;
    // Revision 2: attempted ≠ applied is a stuck change only when Ready=False; while the
    // instance reconciles it is an upgrade in progress (info).
    let stuck = differ && ready_false.is_some();
    let upgrading = differ && !stuck && !stalled;
    if upgrading {
        out.push(fixed(
            id,
            Class::Context,
            i.key.clone(),
            format!("{} is applying a new revision", i.key),
            vec![format!(
                "lastAttemptedRevision {} ≠ lastAppliedRevision {}, Ready is not False",
                s.last_attempted_revision.clone().unwrap_or_default(),
                s.last_applied_revision.clone().unwrap_or_default()
            )],
            "Nothing to do while it reconciles; it becomes a finding if Ready turns False.".into(),
        ));
        return;
    }
    if stalled || ready_false.is_some() {
        let mut ev = Vec::new();
        if let Some(r) = ready_false {
            ev.push(format!(
                "Ready=False {}: {}",
                r.reason.clone().unwrap_or_default(),
                r.message.clone().unwrap_or_default()
            ));
        }
        if stuck {
            ev.push(format!(
                "lastAttemptedRevision {} ≠ lastAppliedRevision {}: a change is stuck",
                s.last_attempted_revision.clone().unwrap_or_default(),
                s.last_applied_revision.clone().unwrap_or_default()
            ));
        }
        let class = Class::broken_if(stalled);
        out.push(graded_as(
            Role::Root,
            id,
            class,
            i.key.clone(),
            format!("{} is not healthy", i.key),
            ev,
            "Read the message: it names the objects the operator waits for.".into(),
        ));
    }
}

fn components_not_ready(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let comps = &c.report.spec.components;
    let mut ev: Vec<String> = comps
        .iter()
        .filter(|x| x.ready == Some(false))
        .map(|x| {
            format!(
                "{} not ready: {}",
                x.name,
                x.status.clone().unwrap_or_default()
            )
        })
        .collect();
    let absent: Vec<String> = cluster::requested_controllers(c)
        .unwrap_or_default()
        .into_iter()
        .filter(|w| !comps.iter().any(|x| &x.name == w))
        .collect();
    if cluster::aio_still_running(c) {
        // Not missing yet: flux-aio's one `flux` Deployment still runs them (its report image
        // is only the first container's).
        if !absent.is_empty() {
            out.push(fixed(id, Class::Context, report_subject(c), format!(
                    "{} of the FluxInstance's controllers still run inside flux-aio's flux Deployment",
                    absent.len()
                ), absent
                    .iter()
                    .map(|w| format!("{w}: inside flux-aio's pod, not yet a Deployment of the operator"))
                    .collect(), "Expected until the operator takes over (MIG-DIST-02); after that each must run as its own Deployment.".into()));
        }
    } else {
        ev.extend(
            absent
                .iter()
                .map(|w| format!("{w} is in the FluxInstance but not running")),
        );
    }
    if !ev.is_empty() {
        out.push(fixed(id, Class::Unhealthy, report_subject(c), "Flux controllers are not ready or missing".into(), ev, "Check image pulls (a registry switch needs imagePullSecret) and the controller Deployments.".into()));
    }
}

fn mixed_origins(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let mut prefixes: Vec<&str> = c
        .report
        .spec
        .components
        .iter()
        .filter_map(|x| x.image.as_deref())
        .map(registry_prefix)
        .collect();
    crate::util::sort::natural(&mut prefixes);
    prefixes.dedup();
    if prefixes.len() > 1 {
        let ev = c
            .report
            .spec
            .components
            .iter()
            .map(|x| format!("{}: {}", x.name, x.image.clone().unwrap_or_default()))
            .collect();
        out.push(fixed(
            id,
            Class::Unhealthy,
            report_subject(c),
            format!(
                "Controller images come from {} registries: {}",
                prefixes.len(),
                prefixes.join(", ")
            ),
            ev,
            "Finish the registry switch: every component from one registry and variant.".into(),
        ));
    }
}

fn instance_drift(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some(i) = c.instance() else { return };
    for sc in &i.raw.status.components {
        let name = sc.name.clone().unwrap_or_default();
        let Some(live) = c
            .report
            .spec
            .components
            .iter()
            .find(|x| x.name == name)
            .and_then(|x| x.image.clone())
        else {
            continue;
        };
        let mut want = format!(
            "{}:{}",
            sc.repository.clone().unwrap_or_default(),
            sc.tag.clone().unwrap_or_default()
        );
        if let Some(d) = sc.digest.as_deref().filter(|d| !d.is_empty()) {
            want = format!("{want}@{d}");
        }
        if live != want {
            out.push(fixed(id, Class::Degraded, i.key.clone(), format!("{name} runs another image than the FluxInstance selected"), vec![format!("instance: {want}"), format!("live: {live}")], "Someone edited the Deployment by hand or another installer fights the operator; reconcile the FluxInstance.".into()));
        }
    }
}

fn leftovers(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some(i) = c.instance() else { return };
    let Some(root) = c.root_kustomization() else {
        return;
    };
    let Some(ks) = c.get(&root) else { return };
    let ns = &i.key.namespace;
    let flux: Vec<String> = ks
        .raw
        .status
        .inventory_entries()
        .into_iter()
        .filter(|e| {
            (e.kind == "Deployment" && &e.namespace == ns && e.name.ends_with("-controller"))
                || (e.kind == "CustomResourceDefinition" && e.name.contains(".fluxcd.io"))
        })
        .map(|e| format!("{} {}/{}", e.kind, e.namespace, e.name))
        .collect();
    if !flux.is_empty() {
        out.push(fixed(
            id,
            Class::Hygiene,
            root,
            "The root Kustomization still applies the bootstrap manifests (gotk-components)".into(),
            flux.into_iter().take(10).collect(),
            "Delete the flux-system folder from Git: harmless (ssa: Ignore) but confusing.".into(),
        ));
    }
}

fn downgrade(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some(i) = c.instance() else { return };
    let Some(spec) = c.instance_distribution().and_then(|d| d.version.clone()) else {
        return;
    };
    let Some(applied) = i.last_applied_revision().map(str::to_string) else {
        return;
    };
    if let (Some(want), Some(have)) = (Version::minor_of(&spec), Version::minor_of(&applied))
        && want < have
    {
        out.push(fixed(
            id,
            Class::Unhealthy,
            i.key.clone(),
            format!(
                "{} asks for {spec} while {applied} is applied: minor downgrades are refused",
                i.key
            ),
            vec![
                format!("spec.distribution.version {spec}"),
                format!("lastAppliedRevision {applied}"),
            ],
            "Restore the version range; a downgrade needs a reinstall.".into(),
        ));
    }
}

fn limited_visibility(id: &str, c: &ClusterFacts, out: &mut Vec<Finding>) {
    let who = installer(c);
    if who == Installer::Operator && c.instance().is_some() {
        return;
    }
    let mut ev = vec![
        "no FluxInstance status: no automatic storage migration, no automatic patching".into(),
    ];
    if who == Installer::FluxAio {
        ev.push("flux-aio runs every controller in one Deployment: only the first container's image is visible".into());
    }
    out.push(fixed(
        id,
        Class::Context,
        report_subject(c),
        format!("Installed by {}: some checks cannot be made", who.as_str()),
        ev,
        "Consider the Flux Operator for automatic migration and patching.".into(),
    ));
}

/// Revision 3: flux-aio's `flux` Deployment (leader election off) beside controllers the
/// operator installed: two controller sets reconcile the same objects.
fn controllers_twice(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let d = &c.report.spec.distribution;
    let operator = d.managed_by.as_deref() == Some("flux-operator");
    let Some(aio) = c.report.spec.components.iter().find(|x| x.name == "flux") else {
        return;
    };
    if !operator {
        return;
    }
    let others: Vec<String> = c
        .report
        .spec
        .components
        .iter()
        .filter(|x| x.name != "flux")
        .map(|x| x.name.clone())
        .collect();
    let mut evidence = vec![
        managed_by_evidence(c),
        format!(
            "component flux (flux-aio) still runs: {}",
            aio.image.clone().unwrap_or_default()
        ),
        "flux-aio runs its controllers with leader election off, so they do not yield to the operator's".into(),
    ];
    if !others.is_empty() {
        evidence.push(format!(
            "operator-installed controllers: {}",
            others.join(", ")
        ));
    }
    out.push(graded_as(
        Role::Root,
        id,
        Class::Unhealthy,
        report_subject(c),
        "Two sets of Flux controllers run: flux-aio's flux Deployment beside the operator's".into(),
        evidence,
        "Remove the flux-aio bundle (timoni bundle delete, or delete its flux Deployment) now that the operator manages the installation.".into(),
    ));
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::testkit::*;
    use super::registry_prefix;
    use crate::analyses::findings::Severity;
    use crate::model::{Cluster, CrdAccess};
    use crate::wire::FluxReport;

    fn report(json: &str) -> FluxReport {
        serde_json::from_str(json).unwrap()
    }

    /// A cluster each of these rules fires on, for the rule-set test that runs every rule
    /// (`coverage.rs`); each is one of the cases below.
    pub(in crate::analyses::findings::rules) fn fail_examples() -> Vec<(&'static str, Cluster)> {
        let drift = || {
            let r = report(
                r#"{"spec":{"components":[{"name":"source-controller","ready":false,"image":"ghcr.io/fluxcd/source-controller:v1.7.3"},{"name":"helm-controller","ready":true,"image":"ghcr.io/controlplaneio-fluxcd/distroless/helm-controller:v1.4.3@sha256:aa"}]}}"#,
            );
            let inst = serde_json::from_str(r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"status":{"components":[{"name":"helm-controller","repository":"ghcr.io/controlplaneio-fluxcd/distroless/helm-controller","tag":"v1.4.3","digest":"sha256:bb"}],"lastAppliedRevision":"v2.8.3@sha256:cc","lastAttemptedRevision":"v2.8.3@sha256:cc"}}"#).unwrap();
            Cluster::new(r, [inst], CrdAccess::Unknown)
        };
        let downgrade = Cluster::new(
            report(r#"{"metadata":{"namespace":"flux-system"},"spec":{"distribution":{"managedBy":"flux bootstrap"}}}"#),
            [serde_json::from_str(r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"distribution":{"version":"2.7.x"}},"status":{"lastAppliedRevision":"v2.8.3@sha256:ab","lastAttemptedRevision":"v2.7.0@sha256:cd","conditions":[{"type":"Ready","status":"False","reason":"ReconciliationFailed","message":"reconciliation failed: OCIRepository/flux-system/flux-system"},{"type":"Stalled","status":"True"}]}}"#).unwrap()],
            CrdAccess::Unknown,
        );
        vec![
            ("MIG-DIST-05", drift()),
            ("MIG-DIST-06", drift()),
            ("MIG-DIST-08", downgrade),
        ]
    }

    #[test]
    fn prefixes() {
        assert_eq!(
            registry_prefix("ghcr.io/fluxcd/source-controller:v1.7.3@sha256:ab"),
            "ghcr.io/fluxcd"
        );
        assert_eq!(
            registry_prefix("ghcr.io/controlplaneio-fluxcd/distroless/helm-controller:v1"),
            "ghcr.io/controlplaneio-fluxcd/distroless"
        );
        assert_eq!(registry_prefix("fluxcd/source-controller:v1"), "fluxcd");
    }

    #[test]
    fn components_origins_and_drift() {
        let r = report(
            r#"{"spec":{"components":[{"name":"source-controller","ready":false,"image":"ghcr.io/fluxcd/source-controller:v1.7.3"},{"name":"helm-controller","ready":true,"image":"ghcr.io/controlplaneio-fluxcd/distroless/helm-controller:v1.4.3@sha256:aa"}]}}"#,
        );
        let inst = serde_json::from_str(r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"status":{"components":[{"name":"helm-controller","repository":"ghcr.io/controlplaneio-fluxcd/distroless/helm-controller","tag":"v1.4.3","digest":"sha256:bb"}],"lastAppliedRevision":"v2.8.3@sha256:cc","lastAttemptedRevision":"v2.8.3@sha256:cc"}}"#).unwrap();
        let c = Cluster::new(r, [inst], CrdAccess::Unknown);
        let f04 = run(&c, "MIG-DIST-04");
        assert!(
            f04[0]
                .evidence
                .iter()
                .any(|e| e.contains("source-controller not ready"))
        );
        assert!(
            f04[0]
                .evidence
                .iter()
                .any(|e| e.contains("kustomize-controller is in the FluxInstance but not running"))
        );
        assert_eq!(run(&c, "MIG-DIST-05").len(), 1);
        assert_eq!(run(&c, "MIG-DIST-06").len(), 1);
    }

    #[test]
    fn takeover_downgrade_unhealthy() {
        let c = Cluster::new(
            report(r#"{"metadata":{"namespace":"flux-system"},"spec":{"distribution":{"managedBy":"flux bootstrap"}}}"#),
            [serde_json::from_str(r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"distribution":{"version":"2.7.x"}},"status":{"lastAppliedRevision":"v2.8.3@sha256:ab","lastAttemptedRevision":"v2.7.0@sha256:cd","conditions":[{"type":"Ready","status":"False","reason":"ReconciliationFailed","message":"reconciliation failed: OCIRepository/flux-system/flux-system"},{"type":"Stalled","status":"True"}]}}"#).unwrap()],
            CrdAccess::Unknown,
        );
        assert_eq!(run(&c, "MIG-DIST-02").len(), 1);
        assert_eq!(run(&c, "MIG-DIST-08").len(), 1);
        assert_eq!(run(&c, "MIG-DIST-03")[0].severity, Severity::Critical);
        let ok = cluster(&[]);
        assert!(run(&ok, "MIG-DIST-02").is_empty());
    }

    #[test]
    fn a_takeover_in_progress_is_one_verdict_wait() {
        // #46: MIG-DIST-02 high ("one step from an outage") beside MIG-DIST-03 info ("nothing
        // to do while it reconciles") on the same instance.
        let inst = |conditions: &str| {
            Cluster::new(
                report(r#"{"metadata":{"namespace":"flux-system"},"spec":{"distribution":{"managedBy":"Timoni"}}}"#),
                [serde_json::from_str(&format!(r#"{{"kind":"FluxInstance","metadata":{{"name":"flux","namespace":"flux-system"}},"status":{{"lastAttemptedRevision":"v2.7.3@sha256:aa","conditions":[{conditions}]}}}}"#)).unwrap()],
                CrdAccess::Unknown,
            )
        };
        let applying = inst(
            r#"{"type":"Ready","status":"Unknown","reason":"Progressing"},{"type":"Reconciling","status":"True"}"#,
        );
        let f = run(&applying, "MIG-DIST-02");
        assert_eq!(f[0].severity, Severity::Info, "{f:?}");
        assert!(
            f[0].remediation
                .starts_with("Nothing to do while it reconciles")
        );
        let stopped = inst(r#"{"type":"Ready","status":"False","reason":"ReconciliationFailed"}"#);
        assert_eq!(run(&stopped, "MIG-DIST-02")[0].severity, Severity::High);
    }

    #[test]
    fn mig_dist_03_upgrade_in_progress_is_info() {
        let inst = |ready: &str| {
            format!(
                r#"{{"kind":"FluxInstance","metadata":{{"name":"flux","namespace":"flux-system"}},"status":{{"lastAttemptedRevision":"v2.9.1@sha256:bb","lastAppliedRevision":"v2.8.3@sha256:aa","conditions":[{ready}]}}}}"#
            )
        };
        let upgrading = cluster(&[&inst(
            r#"{"type":"Ready","status":"Unknown","reason":"Progressing"},{"type":"Reconciling","status":"True"}"#,
        )]);
        let f = run(&upgrading, "MIG-DIST-03");
        assert_eq!((f.len(), f[0].severity), (1, Severity::Info));
        let stuck = cluster(&[&inst(
            r#"{"type":"Ready","status":"False","reason":"ReconciliationFailed","message":"reconciliation failed"}"#,
        )]);
        assert_eq!(run(&stuck, "MIG-DIST-03")[0].severity, Severity::High);
    }
}
