//! MIG-API-01 … 07: storage versions and the minor upgrade path.

use super::rule;
use crate::analyses::facts::cluster::ClusterFacts;
use crate::analyses::facts::cluster::{Installer, installer};
use crate::analyses::findings::Finding;
use crate::analyses::findings::policy::{Class, Role, fixed, graded_as};
use crate::analyses::migration::api_table;
use crate::model::{Cluster, CrdAccess, ObjectKey};
use crate::util::version::Version;
use crate::wire::kind::Kind;

rule!(
    /// MIG-API-01: CRDs with objects stored at more than the storage version [needs CRD access].
    UnmigratedStorage, "MIG-API-01", "unmigrated CRD storage", unmigrated
);
rule!(
    /// MIG-API-02: a CRD upgrade refused because of storedVersions.
    CrdUpgradeBlocked, "MIG-API-02", "CRD upgrade blocked", upgrade_blocked
);
rule!(
    /// MIG-API-03: manifests in Git still use an API the installed minor removed.
    RemovedApiInGit, "MIG-API-03", "removed API still in Git", removed_in_git
);
rule!(
    /// MIG-API-04: the operator's automatic storage migration is off.
    AutoMigrationDisabled, "MIG-API-04", "auto-migration disabled", auto_migration_disabled
);
rule!(
    /// MIG-API-05: the FluxInstance version range allows minor upgrades.
    UnboundedMinorRange, "MIG-API-05", "unbounded minor range", unbounded_range
);
rule!(
    /// MIG-API-06: CRDs behind the controllers' minor.
    CrdsBehind, "MIG-API-06", "CRDs behind controllers", crds_behind
);
rule!(
    /// MIG-API-07: non-operator installs must run `flux migrate` by hand (info).
    ManualMigrationDuty, "MIG-API-07", "manual migration duty", manual_duty
);

fn installed_minor(c: &Cluster) -> Option<u32> {
    c.report
        .spec
        .distribution
        .version
        .as_deref()
        .and_then(Version::minor_of)
        .map(|(_, m)| m)
}

/// The highest minor the FluxInstance version range may move to (exact/`2.9.x` → that minor).
fn target_minor(c: &Cluster) -> Option<u32> {
    let v = c.instance_distribution()?.version.clone()?;
    if unbounded(&v) {
        return api_table::MINORS.last().copied();
    }
    Version::minor_of(&v).map(|(_, m)| m)
}

/// Whether a semver range allows minor upgrades without an upper bound (`*`, `2.x`, `>=2.6`,
/// `^2`). Revision 2: a range with an upper bound (`>=2.6.0 <2.8.0`, `~2.9`, `2.9.x`) or an
/// exact version is bounded.
pub(crate) fn unbounded(v: &str) -> bool {
    let t = v.trim();
    if t.is_empty() {
        return false;
    }
    // Alternatives (`a || b`): unbounded if any is.
    if t.contains("||") {
        return t.split("||").any(unbounded);
    }
    let parts: Vec<&str> = t.split_whitespace().collect();
    let has_upper = parts.iter().any(|p| p.starts_with('<'));
    if parts.len() > 1 || t.contains(" - ") {
        return !has_upper && !t.contains(" - ");
    }
    let p = parts[0].trim_start_matches('v');
    if p == "*" || p == "x" || p.starts_with(">=") || p.starts_with('>') || p.starts_with('^') {
        return true;
    }
    if p.starts_with('<') || p.starts_with('~') || p.starts_with('=') {
        return false;
    }
    // `2`, `2.x`, `2.*`: any minor; `2.9`, `2.9.x`, `2.9.3`: bounded.
    let fields: Vec<&str> = p.split('.').collect();
    fields.len() == 1 || matches!(fields.get(1), Some(&"x") | Some(&"*") | Some(&"X"))
}

fn unmigrated(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let CrdAccess::Known(crds) = &c.crds else {
        return;
    };
    let target = target_minor(c);
    for crd in crds {
        let stored = &crd.status.stored_versions;
        let storage = crd
            .spec
            .versions
            .iter()
            .find(|v| v.storage)
            .map(|v| v.name.clone())
            .unwrap_or_default();
        let stale: Vec<&String> = stored
            .iter()
            .filter(|v| {
                **v != storage
                    || crd
                        .spec
                        .versions
                        .iter()
                        .any(|s| &s.name == *v && s.deprecated)
            })
            .collect();
        if stored.len() <= 1 && stale.is_empty() {
            continue;
        }
        let kind = crd
            .spec
            .versions
            .first()
            .map(|_| crd_kind(&crd.metadata.name))
            .unwrap_or_default();
        let removed_by_target = target.is_some_and(|t| {
            stale
                .iter()
                .any(|v| api_table::served(&kind, t, v) == Some(false))
        });
        // The Flux installation is the subject's role: a CRD the next upgrade cannot
        // replace breaks the FluxInstance.
        let class = Class::broken_if(removed_by_target);
        out.push(graded_as(
            Role::Root,
            id,
            class,
            ObjectKey::new(Kind::Other("CustomResourceDefinition".into()), "", crd.metadata.name.clone()),
            format!("{} still has objects stored at {}", crd.metadata.name, stale.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")),
            vec![format!("status.storedVersions: {}; storage version {storage}", stored.join(", ")), if removed_by_target { format!("the FluxInstance range allows 2.{}, which removes one of them", target.unwrap_or(0)) } else { String::new() }].into_iter().filter(|s| !s.is_empty()).collect(),
            "Run `flux migrate` (or let the Flux Operator migrate: spec.migrateResources true) before the next minor upgrade.".into(),
        ));
    }
}

fn crd_kind(name: &str) -> String {
    let plural = name.split('.').next().unwrap_or("");
    api_table::kinds()
        .find(|k| {
            Kind::parse(k)
                .crd_name()
                .is_some_and(|n| n.starts_with(&format!("{plural}.")))
        })
        .unwrap_or("")
        .to_string()
}

fn upgrade_blocked(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    for o in c.objects() {
        let Some(r) = o.condition("Ready").filter(|r| r.status == "False") else {
            continue;
        };
        let m = r.message.clone().unwrap_or_default();
        if !(m.contains("storedVersions")
            && (m.contains("missing from spec.versions")
                || m.contains("must appear in spec.versions")))
        {
            continue;
        }
        // Revision 3: only Flux's own CRDs are `flux migrate`'s business; another chart's CRD
        // (cert-manager's) is that chart's failure, graded as the release's own.
        let Some(crd) = flux_crd_named(&m) else {
            continue;
        };
        out.push(graded_as(
            Role::Root,
            id,
            Class::Broken,
            o.key.clone(),
            format!(
                "{} cannot upgrade the Flux CRD {crd}: objects are still stored at a version the new CRD drops",
                o.key
            ),
            vec![m],
            "Run `flux migrate` against the cluster (with the old CRDs still installed), then retry the upgrade.".into(),
        ));
    }
}

/// The Flux CRD (`*.fluxcd.io`, `*.controlplane.io`) a storedVersions error names.
fn flux_crd_named(message: &str) -> Option<String> {
    message
        .split(['"', '\'', '`', ' '])
        .map(|t| t.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '.' && c != '-'))
        .find(|t| {
            t.split_once('.').is_some_and(|(plural, group)| {
                !plural.is_empty()
                    && (group.ends_with("fluxcd.io") || group.ends_with("controlplane.io"))
            })
        })
        .map(str::to_string)
}

fn removed_in_git(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some(minor) = installed_minor(c) else {
        return;
    };
    for o in c.of_kind(&Kind::Kustomization) {
        let Some(r) = o.condition("Ready").filter(|r| r.status == "False") else {
            continue;
        };
        let m = r.message.clone().unwrap_or_default();
        if !m.contains("no matches for kind") {
            continue;
        }
        let hit = api_table::kinds().find(|k| {
            m.contains(&format!("\"{k}\""))
                && api_table::MINORS.iter().any(|from| {
                    *from < minor
                        && api_table::removed_between(k, *from, minor)
                            .iter()
                            .any(|v| m.contains(&format!("/{v}\"")))
                })
        });
        if let Some(kind) = hit {
            out.push(fixed(id, Class::Unhealthy, o.key.clone(), format!("{} applies {kind} at an API version Flux 2.{minor} removed", o.key), vec![m], format!("Run `flux migrate -f . --version 2.{minor}` in the repository and commit the result.")));
        }
    }
}

fn auto_migration_disabled(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some(i) = c.instance() else { return };
    if i.raw.spec.migrate_resources == Some(false) {
        let range = c
            .instance_distribution()
            .and_then(|d| d.version.clone())
            .unwrap_or_default();
        let class = if unbounded(&range) {
            Class::Unhealthy
        } else {
            Class::Degraded
        };
        out.push(fixed(
            id,
            class,
            i.key.clone(),
            format!("{} has spec.migrateResources: false", i.key),
            vec![format!("spec.distribution.version: {range}")],
            "Remove migrateResources: false, or run `flux migrate` before each minor upgrade."
                .into(),
        ));
    }
}

fn unbounded_range(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some(i) = c.instance() else { return };
    let Some(v) = c.instance_distribution().and_then(|d| d.version.clone()) else {
        return;
    };
    if unbounded(&v) {
        out.push(fixed(
            id,
            Class::Degraded,
            i.key.clone(),
            format!(
                "{} follows version {v}: minor upgrades happen unattended",
                i.key
            ),
            vec![format!("spec.distribution.version: {v}")],
            "Pin a minor, e.g. 2.9.x, and raise it deliberately after `flux migrate -f .`.".into(),
        ));
    }
}

fn crds_behind(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some(minor) = installed_minor(c) else {
        return;
    };
    for r in &c.report.spec.reconcilers {
        let Some(expected) = api_table::storage_version(&r.kind, minor) else {
            continue;
        };
        let got = r.api_version.rsplit('/').next().unwrap_or("");
        if !got.is_empty() && got != expected {
            out.push(fixed(
                id,
                Class::Degraded,
                ObjectKey::new(
                    Kind::Other("CustomResourceDefinition".into()),
                    "",
                    Kind::parse(&r.kind)
                        .crd_name()
                        .unwrap_or_else(|| r.kind.clone()),
                ),
                format!(
                    "{} CRD reports {} but Flux 2.{minor} stores {expected}",
                    r.kind, r.api_version
                ),
                vec![format!(
                    "FluxReport reconcilers: {} {}",
                    r.kind, r.api_version
                )],
                "Upgrade the CRDs together with the controllers (bootstrap did not upgrade them)."
                    .into(),
            ));
        }
    }
}

fn manual_duty(id: &str, c: &ClusterFacts, out: &mut Vec<Finding>) {
    if installer(c) == Installer::Operator {
        return;
    }
    let Some(minor) = installed_minor(c) else {
        return;
    };
    let removed: Vec<String> = api_table::kinds()
        .flat_map(|k| {
            api_table::removed_between(k, minor, minor + 1)
                .into_iter()
                .map(move |v| format!("{k} {v}"))
        })
        .collect();
    let subject = c
        .root_kustomization()
        .unwrap_or_else(|| ObjectKey::new(Kind::FluxReport, c.operator_namespace(), "flux"));
    out.push(fixed(
        id,
        Class::Context,
        subject,
        format!(
            "Installed by {}: run `flux migrate` before each minor upgrade",
            c.report
                .spec
                .distribution
                .managed_by
                .clone()
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "a non-operator installer".into())
        ),
        if removed.is_empty() {
            vec![]
        } else {
            vec![format!(
                "Flux 2.{} removes: {}",
                minor + 1,
                removed.join(", ")
            )]
        },
        format!(
            "flux migrate && flux migrate -f . --version 2.{}",
            minor + 1
        ),
    ));
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::testkit::*;
    use crate::analyses::findings::Severity;
    use crate::model::{Cluster, CrdAccess};
    use crate::wire::FluxReport;

    /// A cluster each of these rules fires on, for the rule-set test that runs every rule
    /// (`coverage.rs`); each is one of the cases below.
    pub(in crate::analyses::findings::rules) fn fail_examples() -> Vec<(&'static str, Cluster)> {
        let ks = r#"{"kind":"Kustomization","metadata":{"name":"apps","namespace":"flux-system"},"status":{"conditions":[{"type":"Ready","status":"False","message":"no matches for kind \"HelmRelease\" in version \"helm.toolkit.fluxcd.io/v2beta1\""}]}}"#;
        let report: FluxReport = serde_json::from_str(r#"{"spec":{"distribution":{"version":"v2.7.1","managedBy":"flux bootstrap"},"reconcilers":[{"apiVersion":"image.toolkit.fluxcd.io/v1beta2","kind":"ImagePolicy","stats":{}}]}}"#).unwrap();
        let stale = || {
            Cluster::new(
                report.clone(),
                [serde_json::from_str(ks).unwrap()],
                CrdAccess::Unknown,
            )
        };
        let range = || {
            cluster(&[
                r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"distribution":{"version":"2.x"},"migrateResources":false}}"#,
            ])
        };
        vec![
            ("MIG-API-03", stale()),
            ("MIG-API-06", stale()),
            ("MIG-API-04", range()),
            ("MIG-API-05", range()),
        ]
    }

    #[test]
    fn mig_api_01_needs_crds_and_raises_for_target_removal() {
        let crd: crate::wire::ApiObject = serde_json::from_str(r#"{"kind":"CustomResourceDefinition","metadata":{"name":"helmreleases.helm.toolkit.fluxcd.io"},"spec":{"versions":[{"name":"v2beta2","served":true,"deprecated":true},{"name":"v2","served":true,"storage":true}]},"status":{"storedVersions":["v2beta2","v2"]}}"#).unwrap();
        let inst = serde_json::from_str(r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"distribution":{"version":"2.8.x"}}}"#).unwrap();
        let report: FluxReport =
            serde_json::from_str(r#"{"spec":{"distribution":{"version":"v2.7.3"}}}"#).unwrap();
        let c = Cluster::new(report.clone(), [inst], CrdAccess::Known(vec![crd.clone()]));
        let f = run(&c, "MIG-API-01");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Critical, "2.8 removes v2beta2");
        let forbidden = Cluster::new(report, [], CrdAccess::Forbidden);
        assert!(
            run(&forbidden, "MIG-API-01").is_empty(),
            "no access: unknown, never pass or fail"
        );
    }

    #[test]
    fn mig_api_03_05_06_07() {
        let ks = r#"{"kind":"Kustomization","metadata":{"name":"apps","namespace":"flux-system"},"status":{"conditions":[{"type":"Ready","status":"False","message":"no matches for kind \"HelmRelease\" in version \"helm.toolkit.fluxcd.io/v2beta1\""}]}}"#;
        let report: FluxReport = serde_json::from_str(r#"{"spec":{"distribution":{"version":"v2.7.1","managedBy":"flux bootstrap"},"reconcilers":[{"apiVersion":"image.toolkit.fluxcd.io/v1beta2","kind":"ImagePolicy","stats":{}}]}}"#).unwrap();
        let c = Cluster::new(
            report,
            [serde_json::from_str(ks).unwrap()],
            CrdAccess::Unknown,
        );
        assert_eq!(run(&c, "MIG-API-03").len(), 1);
        assert_eq!(run(&c, "MIG-API-06").len(), 1);
        let duty = run(&c, "MIG-API-07");
        assert!(
            duty[0].evidence[0].contains("Kustomization v1beta2"),
            "{duty:?}"
        );
        let range = cluster(&[
            r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"distribution":{"version":"2.x"},"migrateResources":false}}"#,
        ]);
        assert_eq!(run(&range, "MIG-API-05").len(), 1);
        assert_eq!(run(&range, "MIG-API-04")[0].severity, Severity::High);
        let pinned = cluster(&[
            r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"distribution":{"version":"2.9.x"}}}"#,
        ]);
        assert!(run(&pinned, "MIG-API-05").is_empty());
    }

    #[test]
    fn mig_api_05_bounded_ranges_pass() {
        for bounded in [
            ">=2.6.0 <2.8.0",
            "~2.9",
            "2.9.x",
            "2.9.3",
            "v2.9",
            "2.9.*",
            "2.6.0 - 2.8.0",
        ] {
            assert!(!super::unbounded(bounded), "{bounded}");
        }
        for open in ["*", "2.x", ">=2.6", "^2", "2", ">2.6.0", "2.x || >=3"] {
            assert!(super::unbounded(open), "{open}");
        }
    }
}
