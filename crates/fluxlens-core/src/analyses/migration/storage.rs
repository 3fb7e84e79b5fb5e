//! Storage-version migration (§2.4–2.5): are Flux objects stored at the versions the next
//! minor still serves?

use super::api_table;
use super::{Check, Migration, Stage, StageState, assign_states};
use crate::analyses::facts::cluster::ClusterFacts;
use crate::analyses::finding::Finding;
use crate::model::{Cluster, CrdAccess, ObjectKey};
use crate::util::version::Version;
use crate::wire::kind::Kind;

/// What the storage checks say while the CRDs are being read (the first view comes first).
pub const CRDS_READING: &str = "reading the Flux CRDs…";

/// Why the storage checks cannot tell (empty when the CRDs are known): being read, refused, or a
/// read that failed or returned none (asked again with the poll that renews every read).
fn not_known(crds: &CrdAccess) -> &'static str {
    match crds {
        CrdAccess::Known(_) => "",
        CrdAccess::Reading => CRDS_READING,
        CrdAccess::Forbidden => {
            "unknown (no access): grant get on customresourcedefinitions to see storage state"
        }
        CrdAccess::Unknown => {
            "unknown: the Flux CRDs could not be read (asked again with the next full re-read)"
        }
    }
}

/// CRDs whose `status.storedVersions` is not exactly `[storage version]`.
pub fn unmigrated_crds(c: &Cluster) -> Option<Vec<(String, Vec<String>, String)>> {
    let CrdAccess::Known(crds) = &c.crds else {
        return None;
    };
    Some(
        crds.iter()
            .filter_map(|crd| {
                let storage = crd
                    .spec
                    .versions
                    .iter()
                    .find(|v| v.storage)
                    .map(|v| v.name.clone())?;
                let stored = &crd.status.stored_versions;
                (stored.len() > 1 || stored.first() != Some(&storage))
                    .then(|| (crd.metadata.name.clone(), stored.clone(), storage))
            })
            .collect(),
    )
}

/// The storage-version migration.
pub fn storage_migration(c: &ClusterFacts, findings: &[Finding]) -> Migration {
    let installed = c
        .report
        .spec
        .distribution
        .version
        .as_deref()
        .and_then(Version::minor_of);
    let access = match &c.crds {
        CrdAccess::Known(_) => Some(true),
        _ => None,
    };
    let crd_total = match &c.crds {
        CrdAccess::Known(v) => v.len(),
        _ => 0,
    };
    let unmigrated = unmigrated_crds(c);
    let crd_key = |n: &str| ObjectKey::new(Kind::Other("CustomResourceDefinition".into()), "", n);
    let mut s2 = Stage::new(
        "S2",
        "Every Flux CRD stored only at its storage version",
        vec![match &unmigrated {
            Some(u) => Check::new(
                "storedVersions == [storage version] for every Flux CRD",
                Some(u.is_empty()),
                u.iter()
                    .map(|(n, s, st)| format!("{n}: {s:?} (storage {st})"))
                    .collect::<Vec<_>>()
                    .join("; "),
            )
            .with(u.iter().map(|(n, _, _)| crd_key(n)).collect()),
            None => Check::new(
                "storedVersions == [storage version] for every Flux CRD",
                None,
                not_known(&c.crds),
            ),
        }],
    );
    if let Some(u) = &unmigrated {
        s2.progress = Some((
            crd_total - u.len(),
            crd_total,
            "Flux CRDs fully migrated".into(),
        ));
    }
    let api06: Vec<&Finding> = findings.iter().filter(|f| f.rule == "MIG-API-06").collect();
    let blocked: Vec<Finding> = findings
        .iter()
        .filter(|f| matches!(f.rule.as_str(), "MIG-API-02" | "MIG-API-03"))
        .cloned()
        .collect();
    let next = installed
        .map(|(_, m)| m + 1)
        .filter(|m| api_table::MINORS.contains(m));
    let removed_next: Vec<String> = match (installed, next) {
        (Some((_, m)), Some(n)) => api_table::kinds()
            .flat_map(|k| {
                api_table::removed_between(k, m, n)
                    .into_iter()
                    .map(move |v| format!("{k} {v}"))
            })
            .collect(),
        _ => vec![],
    };
    let mut stages = vec![
        Stage::new("S1", "Storage versions readable", vec![Check::new("Flux CRDs readable through the API", access, not_known(&c.crds))]),
        s2,
        Stage::new("S3", "CRDs match the installed minor", vec![Check::new("every reconciler apiVersion is the storage version of the installed minor (MIG-API-06)", Some(api06.is_empty()), "read from the report's reconcilers").with(api06.iter().map(|f| f.subject.clone()).collect())]),
        Stage::new("S4", "Ready for the next minor", vec![
            upgrade_unblocked(findings, &c.crds),
            Check::new("no removed API still applied from Git (MIG-API-03)", Some(!findings.iter().any(|f| f.rule == "MIG-API-03")), ""),
        ]),
    ];
    assign_states(&mut stages, 0, !blocked.is_empty());
    let operator = crate::analyses::facts::cluster::installer(c)
        == crate::analyses::facts::cluster::Installer::Operator;
    let next_commands = next_commands(c, &stages, operator, installed, next);
    let mut notes = vec![format!(
        "installed Flux minor: {}",
        installed
            .map(|(a, b)| format!("{a}.{b}"))
            .unwrap_or_else(|| "unknown".into())
    )];
    if !removed_next.is_empty() {
        notes.push(format!(
            "removed by the next minor: {}",
            removed_next.join(", ")
        ));
    }
    if operator {
        notes.push("the Flux Operator migrates storage automatically (spec.migrateResources, default true)".into());
    }
    // Intent: some CRD still stored at more than its storage version, or an upgrade already
    // tripping over removed versions. Every CRD clean, or unknown, is "not started".
    let pending = match &c.crds {
        CrdAccess::Known(crds) => crds.iter().any(|crd| crd.status.stored_versions.len() > 1),
        _ => false,
    };
    let intent_unknown = (!matches!(c.crds, CrdAccess::Known(_))).then(|| not_known(&c.crds));
    let started = pending
        || findings
            .iter()
            .any(|f| matches!(f.rule.as_str(), "MIG-API-02" | "MIG-API-03"));
    Migration {
        id: "storage",
        title: "Storage-version migration".into(),
        stages,
        blockers: blocked,
        next_commands,
        notes,
        started: true,
        intent_unknown,
    }
    .with_intent(started)
}

/// S4's storedVersions check: fails on a refused upgrade (MIG-API-02, read from the objects'
/// conditions); passes only when the CRDs' storedVersions were read too (#68: "no CRD upgrade
/// blocked" passed under "the Flux CRDs could not be read").
fn upgrade_unblocked(findings: &[Finding], crds: &CrdAccess) -> Check {
    let label = "no CRD upgrade blocked by storedVersions (MIG-API-02)";
    let refused: Vec<ObjectKey> = findings
        .iter()
        .filter(|f| f.rule == "MIG-API-02")
        .map(|f| f.subject.clone())
        .collect();
    if !refused.is_empty() {
        return Check::new(label, Some(false), "").with(refused);
    }
    match crds {
        CrdAccess::Known(_) => Check::new(label, Some(true), ""),
        other => Check::new(
            label,
            None,
            format!(
                "no refused upgrade in the objects' conditions; {}",
                not_known(other)
            ),
        ),
    }
}

/// What to run for the stage the cluster is at (#46: `flux migrate -f .` was offered while
/// the failing stage was objects still stored at an old version, which only a cluster-side
/// migration re-stores).
fn next_commands(
    c: &Cluster,
    stages: &[Stage],
    operator: bool,
    installed: Option<(u32, u32)>,
    next: Option<u32>,
) -> Vec<String> {
    let ns = c.operator_namespace();
    let instance = c.instance();
    let auto = operator && instance.is_some_and(|i| i.raw.spec.migrate_resources != Some(false));
    let current = stages
        .iter()
        .find(|s| s.state != StageState::Done)
        .map(|s| s.id.as_str());
    match current {
        Some("S1") => vec![
            "kubectl auth can-i get customresourcedefinitions   # fluxlens reads storedVersions through the API".into(),
        ],
        Some("S2") if auto => vec![
            "# the Flux Operator re-stores every object at its storage version on its next reconcile (spec.migrateResources)".into(),
            format!(
                "kubectl -n {ns} annotate fluxinstance {} reconcile.fluxcd.io/requestedAt=\"$(date +%s)\" --overwrite",
                instance.map_or("flux", |i| i.key.name.as_str())
            ),
        ],
        Some("S2") => vec![
            "flux migrate   # cluster mode: re-store every object at the storage version".into(),
        ],
        Some("S3") => installed
            .map(|(_, m)| {
                vec![format!(
                    "flux migrate -f . --version 2.{m}   # rewrite apiVersions in Git to the installed minor's"
                )]
            })
            .unwrap_or_default(),
        _ => next
            .map(|n| {
                vec![format!(
                    "flux migrate -f . --version 2.{n}   # before upgrading to 2.{n}: rewrite apiVersions in Git"
                )]
            })
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_storage_checks_say_why_they_cannot_tell() {
        // A failed read is not a refusal: "no access" only when the server said Forbidden.
        assert!(not_known(&CrdAccess::Forbidden).starts_with("unknown (no access)"));
        assert!(!not_known(&CrdAccess::Unknown).contains("no access"));
        assert_eq!(not_known(&CrdAccess::Reading), CRDS_READING);
        assert_eq!(not_known(&CrdAccess::Known(vec![])), "");
    }
}
