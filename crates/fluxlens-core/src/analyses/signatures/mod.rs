//! Signature posture of every source: can it verify, how, what the controller said, and how
//! much of the cluster depends on it.

pub mod order;

use crate::analyses::graph::{EdgeKind, Graph};
use crate::model::{Cluster, FluxObject, ObjectKey, RefKind};
use crate::wire::kind::{Kind, Role};
use crate::wire::object::{ChartField, Condition, OidcIdentity};
use crate::wire::status::Status;

/// Whether a source kind can carry a signature check.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Verifiability {
    Yes,
    /// Why not (Bucket never; HelmChart only from an OCI HelmRepository; …).
    No(String),
    /// ExternalArtifact: up to its producer.
    ProducerDefined,
}

/// Whether a source is verified (revision 3: "verified" means verified).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Verification {
    /// Live `spec.verify`, `SourceVerified=True` at the current spec, and no SIG-03/04/05/06/10.
    Verified,
    /// `spec.verify` is set but the verdict does not vouch for what is served: why.
    NotVerified(String),
    /// A `SourceVerified=True` lingers on a source without `spec.verify`.
    StaleCondition,
    /// Could verify, does not (no `spec.verify`).
    Unverified,
    /// Cannot carry a signature check (Bucket, HTTP charts, …) or up to a producer.
    NotApplicable,
}

impl Verification {
    /// The label views show.
    pub fn label(&self) -> String {
        match self {
            Verification::Verified => "verified".into(),
            Verification::NotVerified(why) => format!("not verified ({why})"),
            Verification::StaleCondition => "not verified (stale condition)".into(),
            Verification::Unverified => "unverified".into(),
            Verification::NotApplicable => "not verifiable".into(),
        }
    }

    /// For `data-verification`: `verified`, `not-verified`, `stale`, `unverified`, `n/a`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verification::Verified => "verified",
            Verification::NotVerified(_) => "not-verified",
            Verification::StaleCondition => "stale",
            Verification::Unverified => "unverified",
            Verification::NotApplicable => "n/a",
        }
    }
}

/// The rules whose firing on a source means its verdict does not vouch for it.
const UNDERMINING: [&str; 5] = ["SIG-03", "SIG-04", "SIG-05", "SIG-06", "SIG-10"];

/// Whether `o` is verified, from its spec, its `SourceVerified` condition and the findings.
pub fn verification(
    o: &FluxObject,
    verifiable: &Verifiability,
    findings: &[crate::analyses::finding::Finding],
) -> Verification {
    let cond = o.condition("SourceVerified");
    let Some(_) = o.verify() else {
        return match (cond, verifiable) {
            (Some(c), _) if c.status == "True" => Verification::StaleCondition,
            (_, Verifiability::Yes) => Verification::Unverified,
            _ => Verification::NotApplicable,
        };
    };
    let Some(cond) = cond else {
        return Verification::NotVerified("no SourceVerified verdict yet".into());
    };
    if cond.status != "True" {
        return Verification::NotVerified("verification failing".into());
    }
    // §0.1: the verdict is about the current spec when its observedGeneration is the
    // status's. Git is judged by revision only (SIG-04: its no-op path moves the generation).
    if o.key.kind != Kind::GitRepository
        && o.observed_generation().is_some()
        && cond.observed_generation != o.observed_generation()
    {
        return Verification::NotVerified("verdict from an older generation".into());
    }
    let undermined: Vec<&str> = crate::analyses::finding::for_subject(findings, &o.key)
        .filter(|f| UNDERMINING.contains(&f.rule.as_str()))
        .map(|f| f.rule.as_str())
        .collect();
    if !undermined.is_empty() {
        return Verification::NotVerified(undermined.join(", "));
    }
    Verification::Verified
}

/// One source's verification posture.
#[derive(Debug, Clone, PartialEq, Hash)]
pub struct SourcePosture {
    pub key: ObjectKey,
    pub status: Status,
    pub is_root: bool,
    pub verifiable: Verifiability,
    /// Whether it is verified, all things considered (revision 3).
    pub verification: Verification,
    /// `cosign`, `notation`, `pgp`/`ssh` (Git), when `spec.verify` is set.
    pub provider: Option<String>,
    /// `Some(true)` keyed (secretRef), `Some(false)` keyless, `None` no verify.
    pub keyed: Option<bool>,
    pub identities: Vec<OidcIdentity>,
    pub verdict: Option<Condition>,
    /// The revision quoted in the `SourceVerified=True` message.
    pub verified_revision: Option<String>,
    pub artifact_revision: Option<String>,
    /// Objects reading this source directly.
    pub consumers: usize,
    /// Objects that depend on it transitively (source, chart, dependsOn, sync, artifact edges,
    /// and what the consuming appliers manage).
    pub blast_radius: usize,
}

/// Parses the revision or version from `verified signature of revision <rev>` /
/// `verified signature of version <v>`.
pub fn verified_revision(message: &str) -> Option<String> {
    for marker in ["revision ", "version "] {
        if let Some(i) = message.find(marker) {
            let rest = message[i + marker.len()..].trim_start_matches(['\'', '"', '`']);
            let tok: String = rest
                .chars()
                .take_while(|c| !c.is_whitespace() && !matches!(c, '\'' | '"' | '`'))
                .collect();
            let tok = tok.trim_end_matches(['.', ',']).to_string();
            if !tok.is_empty() {
                return Some(tok);
            }
        }
    }
    None
}

/// The SHA-1 of the commit a Git verdict names: source-controller writes
/// `verified signature of\n\t- commit '<sha>' with key '<id>'` (and `- tag '<name>' …` lines).
pub fn verified_commit(message: &str) -> Option<String> {
    let rest = &message[message.find("commit ")? + "commit ".len()..];
    let token: String = rest
        .trim_start_matches(['\'', '"', '`'])
        .chars()
        .take_while(|c| !c.is_whitespace() && !matches!(c, '\'' | '"' | '`'))
        .collect();
    crate::analyses::facts::cluster::sha1_of(&token).map(str::to_string)
}

/// Whether a HelmChart's source is an OCI HelmRepository (the only case where verify works).
pub fn chart_verifiability(chart: &FluxObject, cluster: &Cluster) -> Verifiability {
    let Some(src) = chart.refs.iter().find(|r| r.kind == RefKind::Source) else {
        return Verifiability::No("the chart has no source".into());
    };
    match &src.target.kind {
        Kind::HelmRepository => match cluster
            .get(&src.target)
            .map(|r| r.spec_type() == Some("oci"))
        {
            Some(true) => Verifiability::Yes,
            Some(false) => Verifiability::No(
                "charts from an HTTP HelmRepository cannot be verified (verification fails loudly)"
                    .into(),
            ),
            None => Verifiability::No(format!("its source {} is missing", src.target)),
        },
        k => Verifiability::No(format!("charts built from a {k} ignore spec.verify")),
    }
}

fn verifiability(o: &FluxObject, cluster: &Cluster) -> Verifiability {
    match o.key.kind {
        Kind::OciRepository | Kind::GitRepository => Verifiability::Yes,
        Kind::HelmChart => chart_verifiability(o, cluster),
        Kind::ExternalArtifact => Verifiability::ProducerDefined,
        Kind::Bucket => Verifiability::No("Bucket has no spec.verify".into()),
        Kind::HelmRepository => Verifiability::No(
            "verification is configured on the HelmChart (or HelmRelease chart template)".into(),
        ),
        Kind::ArtifactGenerator => Verifiability::No("trust is inherited from its sources".into()),
        _ => Verifiability::No("not a source".into()),
    }
}

/// Posture of every source, the root first, then by key.
/// `findings` are the per-object findings: a SIG-03/04/05/06/10 on a source means it is not
/// verified, whatever its condition says.
pub fn postures(
    cluster: &Cluster,
    graph: &Graph,
    findings: &[crate::analyses::finding::Finding],
) -> Vec<SourcePosture> {
    let root = cluster.root_source();
    let n = graph.nodes.len();
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n];
    for e in graph
        .edges
        .iter()
        .filter(|e| !matches!(e.kind, EdgeKind::ManagedBy | EdgeKind::Notification))
    {
        adj[e.from as usize].push(e.to);
    }
    // What an applier applies is downstream of its source too: follow ownership.
    for o in cluster.objects() {
        if let (Some(owner), Some(me)) = (
            o.managed_by.as_ref().and_then(|k| graph.find(k)),
            graph.find(&o.key),
        ) {
            adj[owner as usize].push(me);
        }
    }
    let mut out: Vec<SourcePosture> = cluster
        .objects()
        .iter()
        .filter(|o| o.key.kind.role() == Role::Source)
        .map(|o| {
            let verify = o.verify();
            let provider = verify.map(|v| {
                v.provider
                    .clone()
                    .filter(|p| !p.is_empty())
                    .unwrap_or_else(|| match o.key.kind {
                        Kind::GitRepository => "pgp/ssh".into(),
                        _ => "cosign".into(),
                    })
            });
            let keyed = verify.map(|v| v.secret_ref.as_ref().is_some_and(|s| !s.name.is_empty()));
            let verdict = o.condition("SourceVerified").cloned();
            let verified_revision = verdict
                .as_ref()
                .filter(|c| c.status == "True")
                .and_then(|c| c.message.as_deref())
                .and_then(verified_revision);
            let (consumers, blast_radius) = match graph.find(&o.key) {
                Some(i) => {
                    let direct = graph
                        .edges
                        .iter()
                        .filter(|e| {
                            e.from == i
                                && matches!(
                                    e.kind,
                                    EdgeKind::Source | EdgeKind::ChartRef | EdgeKind::Chart
                                )
                        })
                        .count();
                    let mut seen = vec![false; n];
                    let mut todo = vec![i];
                    let mut count = 0;
                    while let Some(v) = todo.pop() {
                        for &w in &adj[v as usize] {
                            if !seen[w as usize] {
                                seen[w as usize] = true;
                                count += 1;
                                todo.push(w);
                            }
                        }
                    }
                    (direct, count)
                }
                None => (0, 0),
            };
            let verifiable = verifiability(o, cluster);
            SourcePosture {
                key: o.key.clone(),
                status: o.status,
                is_root: root.as_ref() == Some(&o.key),
                verification: verification(o, &verifiable, findings),
                verifiable,
                provider,
                keyed,
                identities: verify
                    .map(|v| v.match_oidc_identity.clone())
                    .unwrap_or_default(),
                verdict,
                verified_revision,
                artifact_revision: o.artifact_revision().map(str::to_string),
                consumers,
                blast_radius,
            }
        })
        .collect();
    crate::util::sort::by(&mut out, |a, b| {
        b.is_root.cmp(&a.is_root).then_with(|| a.key.cmp(&b.key))
    });
    out
}

/// The overview numbers: "N of M verifiable sources verified; root source verified".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SignatureSummary {
    pub verifiable: usize,
    pub verified: usize,
    /// `None` when no root source is known.
    pub root_verified: Option<bool>,
}

impl SignatureSummary {
    /// "yes", "no" or "unknown" for the root, as views print it.
    pub fn root_label(&self) -> &'static str {
        match self.root_verified {
            Some(true) => "yes",
            Some(false) => "no",
            None => "unknown",
        }
    }
}

/// Summarizes postures.
pub fn summary(postures: &[SourcePosture]) -> SignatureSummary {
    let is_verified = |p: &SourcePosture| p.verification == Verification::Verified;
    SignatureSummary {
        verifiable: postures
            .iter()
            .filter(|p| p.verifiable == Verifiability::Yes)
            .count(),
        verified: postures
            .iter()
            .filter(|p| p.verifiable == Verifiability::Yes && is_verified(p))
            .count(),
        root_verified: postures.iter().find(|p| p.is_root).map(is_verified),
    }
}

/// HelmRelease chart-template verification, as `(release, verify provider, has secretRef, source kind)`.
pub fn template_verifications(cluster: &Cluster) -> Vec<(&FluxObject, String, bool, Option<Kind>)> {
    cluster
        .of_kind(&Kind::HelmRelease)
        .filter_map(|o| match &o.raw.spec.chart {
            Some(ChartField::Template { spec }) => spec.verify.as_ref().map(|v| {
                let kind = spec
                    .source_ref
                    .as_ref()
                    .and_then(|r| r.kind.as_deref())
                    .map(Kind::parse);
                (
                    o,
                    v.provider.clone().unwrap_or_else(|| "cosign".into()),
                    v.secret_ref.as_ref().is_some_and(|s| !s.name.is_empty()),
                    kind,
                )
            }),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_verified_revisions() {
        assert_eq!(
            verified_revision("verified signature of revision latest@sha256:abc").as_deref(),
            Some("latest@sha256:abc")
        );
        assert_eq!(
            verified_revision("verified signature of version 6.0.3").as_deref(),
            Some("6.0.3")
        );
        assert_eq!(
            verified_revision("verified signature of revision 'v1@sha256:ab'.").as_deref(),
            Some("v1@sha256:ab")
        );
        assert_eq!(verified_revision("no matching signatures"), None);
        let git = "verified signature of\n\t- commit 'main@sha1:0123456789abcdef0123456789abcdef01234567' with key '5982D0279C227FFD'";
        assert_eq!(
            verified_commit(git).as_deref(),
            Some("0123456789abcdef0123456789abcdef01234567")
        );
        let bare = "verified signature of\n\t- commit '0123456789abcdef0123456789abcdef01234567' with key 'SHA256:x'";
        assert!(verified_commit(bare).is_some());
    }
}

#[cfg(test)]
mod blast_tests {
    use super::*;
    use crate::analyses::graph::GraphOptions;
    use crate::model::CrdAccess;
    use crate::wire::FluxReport;

    #[test]
    fn blast_radius_follows_sources_dependencies_and_ownership() {
        let objs = [
            r#"{"kind":"GitRepository","metadata":{"name":"root","namespace":"f"}}"#,
            r#"{"kind":"Kustomization","metadata":{"name":"root","namespace":"f"},"spec":{"sourceRef":{"kind":"GitRepository","name":"root"}}}"#,
            r#"{"kind":"Kustomization","metadata":{"name":"apps","namespace":"f"},"spec":{"sourceRef":{"kind":"GitRepository","name":"other"}},"status":{"reconcilerRef":{"managedBy":"Kustomization/f/root"}}}"#,
            r#"{"kind":"Kustomization","metadata":{"name":"after","namespace":"f"},"spec":{"dependsOn":[{"name":"root"}]}}"#,
        ];
        let c = Cluster::new(
            FluxReport::default(),
            objs.iter().map(|s| serde_json::from_str(s).unwrap()),
            CrdAccess::Unknown,
        );
        let g = Graph::build(&c, GraphOptions::default());
        let p = postures(&c, &g, &[]);
        let root = p.iter().find(|p| p.key.name == "root").unwrap();
        assert_eq!(root.consumers, 1);
        assert_eq!(
            root.blast_radius, 3,
            "root ks, the app it manages, and its dependent"
        );
    }
}
