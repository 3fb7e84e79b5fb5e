//! Facts about the cluster's delivery that migration stages, rules and verdicts share: the
//! root pair and its name, the installer, who consumes what, the census of sources.

use crate::model::{Cluster, FluxObject, ObjectKey, RefKind};
use crate::wire::kind::Kind;
use std::ops::Deref;

/// A cluster with the delivery facts every analysis shares — its root pair, the sync kind, the
/// installer, the consumer census — computed once per cluster (#48: each rule and stage
/// recomputed them). Rules and migration stages take this; it reads as the cluster itself.
pub struct ClusterFacts<'a> {
    pub cluster: &'a Cluster,
    root: (ObjectKey, ObjectKey),
    sync_kind: Option<String>,
    installer: Installer,
    census: Census,
}

impl<'a> ClusterFacts<'a> {
    /// Computes the shared facts of `cluster`.
    pub fn of(cluster: &'a Cluster) -> ClusterFacts<'a> {
        ClusterFacts {
            cluster,
            root: compute_root_pair(cluster),
            sync_kind: compute_sync_kind(cluster),
            installer: compute_installer(cluster),
            census: compute_census(cluster),
        }
    }
}

impl Deref for ClusterFacts<'_> {
    type Target = Cluster;
    fn deref(&self) -> &Cluster {
        self.cluster
    }
}

/// The root sync name `R`: FluxInstance `spec.sync.name`, else the report's sync Kustomization,
/// else the operator namespace.
pub fn root_name(c: &Cluster) -> String {
    if let Some(n) = c
        .instance()
        .and_then(|i| i.sync())
        .and_then(|s| s.name.clone())
        .filter(|n| !n.is_empty())
    {
        return n;
    }
    c.report
        .sync_kustomization()
        .map(str::to_string)
        .unwrap_or_else(|| c.operator_namespace().to_string())
}

/// `GitRepository/NS/R` and `OCIRepository/NS/R`.
pub fn root_pair(c: &ClusterFacts) -> (ObjectKey, ObjectKey) {
    c.root.clone()
}

fn compute_root_pair(c: &Cluster) -> (ObjectKey, ObjectKey) {
    let ns = c.operator_namespace().to_string();
    let r = root_name(c);
    (
        ObjectKey::new(Kind::GitRepository, ns.clone(), r.clone()),
        ObjectKey::new(Kind::OciRepository, ns, r),
    )
}

/// The FluxInstance `spec.sync.kind`, if any.
pub fn sync_kind(c: &ClusterFacts) -> Option<String> {
    c.sync_kind.clone()
}

fn compute_sync_kind(c: &Cluster) -> Option<String> {
    c.instance()?.sync()?.kind.clone()
}

/// Objects that read `source` (sourceRef, chartRef, chart template, ArtifactGenerator sources).
pub fn consumers_of<'a>(
    c: &'a Cluster,
    source: &'a ObjectKey,
) -> impl Iterator<Item = &'a FluxObject> + 'a {
    c.objects().iter().filter(move |o| {
        o.refs.iter().any(|r| {
            &r.target == source
                && matches!(
                    r.kind,
                    RefKind::Source | RefKind::ChartRef | RefKind::ChartTemplate
                )
        })
    })
}

/// Whether a prune annotation value opts out: only `disabled`, compared case-insensitively
/// (fluxcd/pkg `AnyInMetadata` uses `strings.EqualFold` since 2023; the operator writes `Disabled`).
pub fn prune_disabled(value: Option<&str>) -> bool {
    value.is_some_and(|v| v.eq_ignore_ascii_case("disabled"))
}

/// Installer classes (MIG-DIST-01).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Installer {
    Operator,
    Bootstrap,
    Helm,
    FluxAio,
    Unknown,
}

impl Installer {
    /// Display name.
    pub fn as_str(self) -> &'static str {
        match self {
            Installer::Operator => "Flux Operator",
            Installer::Bootstrap => "flux bootstrap",
            Installer::Helm => "Helm chart",
            Installer::FluxAio => "flux-aio (Timoni)",
            Installer::Unknown => "flux install / kubectl / unknown",
        }
    }
}

/// The installer, classified from `distribution.managedBy` and the components.
pub fn installer(c: &ClusterFacts) -> Installer {
    c.installer
}

fn compute_installer(c: &Cluster) -> Installer {
    let managed = c
        .report
        .spec
        .distribution
        .managed_by
        .as_deref()
        .unwrap_or("");
    // Revision 3: managedBy first. flux-aio's `flux` component beside an operator-managed
    // installation is MIG-DIST-10 (controllers twice), not an install by flux-aio.
    if managed == "flux-operator" {
        return Installer::Operator;
    }
    if c.report.spec.components.iter().any(|x| x.name == "flux")
        || managed.eq_ignore_ascii_case("timoni")
    {
        return Installer::FluxAio;
    }
    match managed {
        "flux-operator" => Installer::Operator,
        "flux bootstrap" => Installer::Bootstrap,
        m if m.eq_ignore_ascii_case("helm") => Installer::Helm,
        _ => Installer::Unknown,
    }
}

/// Whether the cluster shows intent of a Git → OCI root migration (§0.3-7): the parallel
/// `OCIRepository/R`, a verify patch staged on the instance, a consumer already on the OCI
/// root, or the sync already moved.
pub fn git_oci_intent(c: &ClusterFacts) -> bool {
    let (_, oci) = root_pair(c);
    let staged_patch = c.instance().is_some_and(|i| {
        crate::analyses::facts::instance::patches(i)
            .iter()
            .any(|p| crate::analyses::facts::instance::is_verify_patch(&p.patch))
    });
    c.contains(&oci)
        || staged_patch
        || consumers_of(c, &oci).next().is_some()
        || sync_kind(c).as_deref() == Some("OCIRepository")
}

/// The 40-hex SHA-1 in a Git revision (`main@sha1:<sha>`, legacy `main/<sha>`, `sha1:<sha>`).
pub fn sha1_of(rev: &str) -> Option<&str> {
    let cand = rev
        .rsplit_once("sha1:")
        .map(|(_, s)| s)
        .or_else(|| rev.rsplit_once('/').map(|(_, s)| s))
        .unwrap_or(rev);
    (cand.len() == 40 && cand.bytes().all(|b| b.is_ascii_hexdigit())).then_some(cand)
}

/// The generic-oidc Receiver webhook path: `/hook/` + hex(sha256(name + namespace)).
pub fn generic_oidc_webhook_path(name: &str, namespace: &str) -> String {
    format!(
        "/hook/{}",
        crate::util::hash::hex(format!("{name}{namespace}").as_bytes())
    )
}

/// Consumer census by source kind (MIG-GO-01): git, oci, bucket, external (git-/oci-backed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Census {
    pub git: usize,
    pub oci: usize,
    pub bucket: usize,
    pub external_git: usize,
    pub external_oci: usize,
    pub other: usize,
}

/// Kustomization and HelmRelease sources by kind (ImageUpdateAutomation excluded: Git only).
pub fn census(c: &ClusterFacts) -> Census {
    c.census
}

fn compute_census(c: &Cluster) -> Census {
    let mut out = Census::default();
    for o in c
        .objects()
        .iter()
        .filter(|o| matches!(o.key.kind, Kind::Kustomization | Kind::HelmRelease))
    {
        let Some(r) = o.refs.iter().find(|r| {
            matches!(
                r.kind,
                RefKind::Source | RefKind::ChartRef | RefKind::ChartTemplate
            )
        }) else {
            continue;
        };
        let mut kind = r.target.kind.clone();
        if kind == Kind::HelmChart {
            kind = c
                .get(&r.target)
                .and_then(|h| h.refs.iter().find(|r| r.kind == RefKind::Source))
                .map(|r| r.target.kind.clone())
                .unwrap_or(Kind::HelmRepository);
        }
        match kind {
            Kind::GitRepository => out.git += 1,
            Kind::OciRepository => out.oci += 1,
            Kind::Bucket => out.bucket += 1,
            Kind::ExternalArtifact => {
                let generator = c
                    .get(&r.target)
                    .and_then(|ea| ea.raw.spec.source_ref.as_ref())
                    .map(|s| {
                        ObjectKey::new(
                            Kind::ArtifactGenerator,
                            r.target.namespace.clone(),
                            s.name.clone(),
                        )
                    });
                let git_backed = generator.and_then(|g| c.get(&g)).is_some_and(|g| {
                    g.refs
                        .iter()
                        .any(|r| r.kind == RefKind::Source && r.target.kind == Kind::GitRepository)
                });
                if git_backed {
                    out.external_git += 1
                } else {
                    out.external_oci += 1
                }
            }
            Kind::HelmRepository => out.other += 1,
            _ => out.other += 1,
        }
    }
    out
}

/// The controllers the FluxInstance asks for (`spec.components`, or the default four);
/// `None` without a FluxInstance.
pub fn requested_controllers(c: &Cluster) -> Option<Vec<String>> {
    let inst = c.instance()?;
    Some(if inst.raw.spec.components.is_empty() {
        DEFAULT_CONTROLLERS.iter().map(|s| s.to_string()).collect()
    } else {
        inst.raw.spec.components.clone()
    })
}

/// The FluxInstance's default components.
pub const DEFAULT_CONTROLLERS: [&str; 4] = [
    "source-controller",
    "kustomize-controller",
    "helm-controller",
    "notification-controller",
];

/// Whether flux-aio's single `flux` Deployment still runs the controllers: a `flux` component
/// and an installation the operator does not own yet.
pub fn aio_still_running(c: &Cluster) -> bool {
    c.report.spec.components.iter().any(|x| x.name == "flux")
        && c.report.spec.distribution.managed_by.as_deref() != Some("flux-operator")
}

/// Whether a fetch message reports an authentication failure as a whole-word status: `401` or
/// `403` followed by an HTTP phrase, `UNAUTHORIZED`, `DENIED: `, or the registry's "requested
/// access to the resource is denied". Digits inside a digest never count.
pub fn auth_failure_text(msg: &str) -> bool {
    const PHRASES: [&str; 4] = [
        "UNAUTHORIZED",
        "DENIED: ",
        "requested access to the resource is denied",
        "authentication required",
    ];
    if PHRASES.iter().any(|p| msg.contains(p)) {
        return true;
    }
    let b = msg.as_bytes();
    for code in ["401", "403"] {
        for (i, _) in msg.match_indices(code) {
            let before = i.checked_sub(1).map(|j| b[j]);
            let after = b.get(i + 3).copied();
            let word = before.is_none_or(|c| !c.is_ascii_alphanumeric())
                && after.is_none_or(|c| !c.is_ascii_alphanumeric());
            let tail = msg[i + 3..]
                .trim_start_matches([' ', ':', '(', ')'])
                .to_ascii_lowercase();
            let phrase = tail.starts_with("unauthorized") || tail.starts_with("forbidden");
            if word && phrase {
                return true;
            }
        }
    }
    false
}

/// HelmReleases whose chart is built from `git` (directly, or through a HelmChart).
pub fn charts_in_git_root<'a>(
    c: &'a Cluster,
    git: &'a ObjectKey,
) -> impl Iterator<Item = &'a FluxObject> + 'a {
    c.of_kind(&Kind::HelmRelease).filter(move |hr| {
        hr.refs.iter().any(|r| match r.kind {
            RefKind::ChartTemplate => &r.target == git,
            RefKind::ChartRef if r.target.kind == Kind::HelmChart => c
                .get(&r.target)
                .is_some_and(|ch| ch.refs.iter().any(|cr| &cr.target == git)),
            _ => false,
        })
    })
}

/// The appliers the FluxInstance is delivered through: its derived owner chain upward.
pub fn delivery_chain(c: &Cluster) -> Vec<ObjectKey> {
    let mut chain = Vec::new();
    let mut cur = c.instance().and_then(|i| i.managed_by.clone());
    while let Some(k) = cur {
        if chain.contains(&k) {
            break;
        }
        cur = c.get(&k).and_then(|o| o.managed_by.clone());
        chain.push(k);
    }
    chain
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s003_receiver_test_vector() {
        assert_eq!(
            generic_oidc_webhook_path("cluster-release", "flux-system"),
            "/hook/ef1ac25eeff8057bf82070418a3eabb755c4821b29ff32377c75863bc1692ab5"
        );
    }

    #[test]
    fn installers() {
        use crate::model::CrdAccess;
        use crate::wire::FluxReport;
        let with = |m: &str, comp: &str| {
            let r: FluxReport = serde_json::from_str(&format!(r#"{{"spec":{{"distribution":{{"managedBy":"{m}"}},"components":[{{"name":"{comp}"}}]}}}}"#)).unwrap();
            installer(&ClusterFacts::of(&Cluster::new(r, [], CrdAccess::Unknown)))
        };
        assert_eq!(
            with("flux-operator", "source-controller"),
            Installer::Operator
        );
        assert_eq!(
            with("flux bootstrap", "source-controller"),
            Installer::Bootstrap
        );
        assert_eq!(with("Helm", "source-controller"), Installer::Helm);
        assert_eq!(with("", "flux"), Installer::FluxAio);
        assert_eq!(with("Timoni", "source-controller"), Installer::FluxAio);
        assert_eq!(with("", "source-controller"), Installer::Unknown);
    }

    #[test]
    fn sha1_forms() {
        let sha = "4c1d9e0b7a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d";
        assert_eq!(sha1_of(&format!("main@sha1:{sha}")), Some(sha));
        assert_eq!(sha1_of(&format!("refs/heads/main@sha1:{sha}")), Some(sha));
        assert_eq!(sha1_of(&format!("main/{sha}")), Some(sha));
        assert_eq!(sha1_of("latest@sha256:abcd"), None);
    }

    #[test]
    fn auth_failure_words_not_digits() {
        assert!(auth_failure_text(
            "403 Forbidden: denied: requested access to the resource is denied"
        ));
        assert!(auth_failure_text(
            "GET https://ghcr.io/token: UNAUTHORIZED: authentication required"
        ));
        assert!(auth_failure_text("unexpected status code 401 Unauthorized"));
        // Regression: a digest containing "401" is not an auth failure.
        assert!(!auth_failure_text(
            "failed to extract layer sha256:4013ab9c0401ffee: context deadline exceeded"
        ));
        assert!(!auth_failure_text("status 4010 Forbiddenish"));
    }
}
