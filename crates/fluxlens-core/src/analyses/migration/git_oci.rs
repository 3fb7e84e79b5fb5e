//! Staged Git → signed-OCI root migration, M0 … M5 (§2.2, mirrors the S003 four-PR stack).

use super::{Check, Migration, Stage, StageState, assign_states};
use crate::analyses::facts::cluster::ClusterFacts;
use crate::analyses::facts::cluster::{self, census, consumers_of, root_pair, sha1_of, sync_kind};
use crate::analyses::finding::Finding;
use crate::model::{Cluster, ObjectKey};
use crate::util::words::{agree, plural};
use crate::wire::kind::Kind;

fn ready(c: &Cluster, k: &ObjectKey) -> bool {
    c.get(k)
        .is_some_and(|o| o.condition("Ready").is_some_and(|r| r.status == "True"))
}

/// Verified as revision 3 means it: live `spec.verify`, `SourceVerified=True` at the current
/// generation, and no SIG-03/04/05/06/10 on it.
fn verified(c: &Cluster, k: &ObjectKey, findings: &[Finding]) -> bool {
    use crate::analyses::signatures::{Verifiability, Verification, verification};
    c.get(k)
        .is_some_and(|o| verification(o, &Verifiability::Yes, findings) == Verification::Verified)
}

/// What to add so verify survives the handover, when no instance patch reaches the
/// generated OCIRepository; empty when one does or nothing is to be carried.
fn handover_patch_hint(
    c: &Cluster,
    handover: Option<&crate::analyses::facts::instance::Handover>,
) -> String {
    let Some(h) = handover.filter(|h| !h.patched()) else {
        return String::new();
    };
    let target = h.verified_target(c).or_else(|| c.get(&h.generated.key()));
    match target {
        Some(t) => format!(
            "add to the FluxInstance spec.kustomize.patches {}",
            crate::analyses::facts::instance::verify_patch_yaml(&h.generated, t)
        ),
        None => format!(
            "add a FluxInstance verify patch targeting {{kind: {}, name: {}}}",
            h.generated.kind, h.generated.name
        ),
    }
}

/// The root pair and what every stage reads.
struct Roots<'a> {
    c: &'a Cluster,
    findings: &'a [Finding],
    git: ObjectKey,
    oci: ObjectKey,
    root_ks: ObjectKey,
    synced_oci: bool,
    /// References the server has not settled: checks that rest on nothing missing wait for it.
    unsettled: Option<crate::model::Unsettled>,
}

/// The Git → OCI migration of the root source: stages M0 … M5, what blocks it, what to run
/// next.
pub fn git_to_oci(c: &ClusterFacts, findings: &[Finding]) -> Migration {
    let (git, oci) = root_pair(c);
    let ns = c.operator_namespace().to_string();
    let r = cluster::root_name(c);
    let x = Roots {
        c,
        findings,
        git,
        oci,
        root_ks: ObjectKey::new(Kind::Kustomization, ns.clone(), r.clone()),
        synced_oci: sync_kind(c).as_deref() == Some("OCIRepository"),
        unsettled: c.unsettled(),
    };
    let (m4, handover_detail) = m4(&x);
    let mut stages = vec![m0(&x), m1(&x), m2(&x), m3(&x), m4, m5(&x)];
    let blockers = blockers(c, findings);
    // Once the FluxInstance syncs from OCI the cluster is past the flip: M0–M3 are history,
    // and what fails in them is the live root's problem, said by the blockers.
    let passed = if x.synced_oci { 4 } else { 0 };
    assign_states(&mut stages, passed, !blockers.is_empty());
    let known = Known::of(&x);
    let obstacle = super::obstacle::Obstacle::of(c, findings, &x.git, &x.oci);
    let next_commands = match obstacle {
        Some(o) => first_the_obstacle(
            o.commands(c, &x.git),
            &stages,
            next_commands(&stages, &known, &handover_detail),
        ),
        None => next_commands(&stages, &known, &handover_detail),
    };
    Migration {
        id: "git-oci",
        title: "Git → signed OCI root".into(),
        stages,
        blockers,
        next_commands,
        notes: notes(c),
        started: true,
        intent_unknown: None,
    }
    .with_intent(cluster::git_oci_intent(c))
}

/// M0: the Git baseline.
fn m0(x: &Roots) -> Stage {
    let c = x.c;
    let git = x.git.clone();
    let synced_oci = x.synced_oci;
    let label = if synced_oci && !c.contains(&git) {
        format!("root source was {git}; the FluxInstance syncs from OCI now")
    } else if synced_oci {
        format!("root source was {git}; the FluxInstance syncs from OCI now ({git} still exists)")
    } else {
        format!("root source is {git}")
    };
    Stage::new(
        "M0",
        "Git baseline",
        vec![Check::new(
            label,
            Some(c.contains(&git) || synced_oci),
            "informational",
        )],
    )
}

/// M1: the artifact pipeline, as far as the cluster shows it.
fn m1(x: &Roots) -> Stage {
    let c = x.c;
    let oci = x.oci.clone();
    let oci_obj = c.get(&oci);
    let receivers: Vec<_> = c
        .of_kind(&Kind::Receiver)
        .filter(|o| matches!(o.spec_type(), Some("generic-oidc" | "generic-hmac")))
        .collect();
    let receiver_ok = receivers.iter().any(|o| {
        o.condition("Ready").is_some_and(|r| r.status == "True")
            && o.raw
                .status
                .webhook_path
                .as_deref()
                .is_some_and(|p| !p.is_empty())
    });
    Stage::new(
        "M1",
        "Artifact pipeline (CI publishes, signs, promotes)",
        vec![
            // Unknown, not failing, before the OCI source exists: CI runs outside the cluster
            // (#68: on `frozen` the stage read "blocked" for what nobody can see).
            Check::new(
                "the pipeline is observable once the OCI source exists",
                oci_obj.is_some().then_some(true),
                "CI is not visible in-cluster until M2",
            ),
            Check::new(
                "a generic-oidc/generic-hmac Receiver is Ready with a webhook path (optional)",
                if receivers.is_empty() {
                    None
                } else {
                    Some(receiver_ok)
                },
                "",
            )
            .with(receivers.iter().map(|o| o.key.clone()).collect()),
        ],
    )
}

/// M2: the parallel OCI source, verified, prune-safe, at the Git root's revision.
fn m2(x: &Roots) -> Stage {
    let c = x.c;
    let findings = x.findings;
    let git = x.git.clone();
    let oci = x.oci.clone();
    let oci_obj = c.get(&oci);
    let prune_ok = oci_obj.map(|o| {
        o.managed_by
            .as_ref()
            .is_none_or(|m| m.kind != Kind::Kustomization)
            || cluster::prune_disabled(o.annotation("kustomize.toolkit.fluxcd.io/prune"))
    });
    let pull_explicit = oci_obj.map(|o| {
        let s = &o.raw.spec;
        s.secret_ref.is_some()
            || s.provider.as_deref().is_some_and(|p| p != "generic")
            || s.service_account_name.is_some()
            || verified(c, &o.key, findings)
    });
    let git_sha = c
        .get(&git)
        .and_then(|g| g.artifact_revision())
        .and_then(sha1_of)
        .map(str::to_string);
    let oci_sha = oci_obj
        .and_then(|o| o.artifact())
        .and_then(|a| a.metadata.get("org.opencontainers.image.revision"))
        .and_then(|r| sha1_of(r))
        .map(str::to_string);
    let parity = match (&git_sha, &oci_sha) {
        (Some(g), Some(o)) => Some(g == o),
        (None, Some(_)) => Some(true), // Git root already gone
        _ => None,
    };
    Stage::new(
        "M2",
        &format!("Parallel OCI source {oci}"),
        vec![
            Check::new(format!("{oci} exists"), Some(oci_obj.is_some()), "")
                .with(vec![oci.clone()]),
            Check::new("Ready=True", Some(ready(c, &oci)), ""),
            Check::new(
                "verified: spec.verify, SourceVerified=True at the current generation, no SIG-03/04/05/06/10 finding",
                Some(verified(c, &oci, findings)),
                verification_detail(c, &oci, findings),
            ),
            Check::new(
                "pull mode explicit (credentials, or public and verified)",
                pull_explicit.or(Some(false)),
                "",
            ),
            Check::new(
                "prune-safe while a Kustomization delivers it (prune: disabled, any case)",
                prune_ok.or(Some(false)),
                "MIG-GO-05",
            ),
            Check::new(
                "origin parity: the artifact's org.opencontainers.image.revision SHA equals the Git root SHA",
                parity,
                format!(
                    "git {} · oci {}",
                    git_sha.as_deref().unwrap_or("—"),
                    oci_sha.as_deref().unwrap_or("—")
                ),
            ),
        ],
    )
}

/// Why the OCI source is not verified, in the signatures view's words; empty when it is, or
/// when it does not exist (#68: a failing check read "SIG rules clean").
fn verification_detail(c: &Cluster, k: &ObjectKey, findings: &[Finding]) -> String {
    use crate::analyses::signatures::{Verifiability, Verification, verification};
    match c
        .get(k)
        .map(|o| verification(o, &Verifiability::Yes, findings))
    {
        Some(Verification::Verified) | None => String::new(),
        Some(v) => v.label(),
    }
}

/// M3: every consumer of the Git root flipped to the OCI root.
fn m3(x: &Roots) -> Stage {
    let c = x.c;
    let findings = x.findings;
    let git = x.git.clone();
    let oci = x.oci.clone();
    let root_ks = x.root_ks.clone();
    // M3: every consumer of GitRepository/R flipped, except the root Kustomization and image automation.
    let on_git: Vec<ObjectKey> = consumers_of(c, &git)
        .filter(|o| o.key != root_ks && o.key.kind != Kind::ImageUpdateAutomation)
        .map(|o| o.key.clone())
        .collect();
    let on_oci: Vec<ObjectKey> = consumers_of(c, &oci)
        .filter(|o| o.key != root_ks)
        .map(|o| o.key.clone())
        .collect();
    // MIG-GO-13: HelmReleases whose chart is built from the Git root (and the HelmCharts
    // generated for them) cannot simply flip; counted apart, with their own advice.
    let chart_hrs: Vec<ObjectKey> = cluster::charts_in_git_root(c, &git)
        .map(|o| o.key.clone())
        .collect();
    let generated_charts: Vec<ObjectKey> = chart_hrs
        .iter()
        .filter_map(|k| c.get(k))
        .filter_map(|hr| hr.raw.status.helm_chart.as_deref())
        .filter_map(|s| s.split_once('/'))
        .map(|(ns, name)| ObjectKey::new(Kind::HelmChart, ns, name))
        .collect();
    let on_git: Vec<ObjectKey> = on_git
        .into_iter()
        .filter(|k| !chart_hrs.contains(k) && !generated_charts.contains(k))
        .collect();
    let dangling = findings
        .iter()
        .filter(|f| f.rule == "MIG-GO-02" && f.severity > crate::analyses::finding::Severity::Info)
        .count();
    let flipped_unhealthy: Vec<ObjectKey> = on_oci
        .iter()
        .filter(|k| {
            c.get(k).is_some_and(|o| {
                o.condition("Ready").is_some_and(|r| r.status != "True")
                    || o.last_applied_revision()
                        .is_some_and(|r| r.contains("sha1:"))
            })
        })
        .cloned()
        .collect();
    // Revision 4: a flip the order model holds (a consumer waiting on the OCI root that only
    // the handover creates, or an applier of the delivery chain waiting behind one) is the
    // unsafe step: it freezes delivery.
    // Only a freeze of delivery (critical): a dependsOn cycle among apps is not this step's.
    let held: Vec<ObjectKey> = findings
        .iter()
        .filter(|f| {
            f.rule == "MIG-GO-15" && f.severity == crate::analyses::finding::Severity::Critical
        })
        .flat_map(|f| f.objects().iter().cloned())
        .collect();
    let mut m3 = Stage::new("M3", "Consumer flip", vec![
        Check::new(format!("no consumer left on {git} (root Kustomization and ImageUpdateAutomations excepted)"), Some(on_git.is_empty()), format!("{} still on Git", on_git.len())).with(on_git.clone()),
        Check::new(format!("no HelmRelease builds its chart from {git}"), Some(chart_hrs.is_empty()), chart_detail(chart_hrs.len())).with(chart_hrs.clone()),
        Check::new("no dangling references", Some(dangling == 0), plural(dangling, "MIG-GO-02 finding")).unless_unsettled(x.unsettled.as_ref()),
        Check::new("the flip does not freeze delivery (MIG-GO-15: nothing waits on a source only the handover creates)", Some(held.is_empty()), frozen_detail(&held, &oci)).with(held).unless_unsettled(x.unsettled.as_ref()),
        Check::new("flipped consumers Ready with an OCI lastAppliedRevision", Some(flipped_unhealthy.is_empty()), "").with(flipped_unhealthy),
    ]);
    let total = on_git.len() + chart_hrs.len() + on_oci.len();
    m3.progress = Some((on_oci.len(), total, format!("consumers on {oci}")));
    m3
}

/// What the MIG-GO-13 check says beside its mark: the advice only when a chart needs it.
fn chart_detail(charts: usize) -> String {
    if charts == 0 {
        return String::new();
    }
    format!(
        "{} {} a chart artifact (MIG-GO-13): publish the chart to OCI and use chartRef, or \
         generate it with an ArtifactGenerator",
        plural(charts, "HelmRelease"),
        agree(charts, "needs", "need")
    )
}

/// What the MIG-GO-15 check says beside its mark: nothing on a pass (a count of nought with
/// "this step is unsafe" read as a warning beside a tick).
fn frozen_detail(held: &[ObjectKey], oci: &ObjectKey) -> String {
    let n = held.len();
    if n == 0 {
        return String::new();
    }
    format!(
        "{} never {}: this step is unsafe before {oci} exists",
        plural(n, "object"),
        agree(n, "reconciles", "reconcile")
    )
}

/// M4: the root handed over to the FluxInstance, with verify carried across; and the patch
/// hint for the next command.
fn m4(x: &Roots) -> (Stage, String) {
    let c = x.c;
    let findings = x.findings;
    let oci = x.oci.clone();
    let root_ks = x.root_ks.clone();
    let synced_oci = x.synced_oci;
    let oci_obj = c.get(&oci);
    let inst = c.instance();
    let sync_src = c.report.spec.sync.as_ref();
    let root_on_oci = c
        .get(&root_ks)
        .is_some_and(|k| k.refs.iter().any(|r| r.target == oci))
        && ready(c, &root_ks);
    let owned_by_instance = oci_obj
        .and_then(|o| o.managed_by.as_ref())
        .is_some_and(|m| Some(m) == inst.map(|i| &i.key));
    let handover = crate::analyses::facts::instance::handover_verify(c);
    let handover_detail = handover_patch_hint(c, handover.as_ref());
    let m4 = Stage::new(
        "M4",
        "Root handover to the FluxInstance",
        vec![
            Check::new(
                "FluxInstance spec.sync.kind is OCIRepository",
                Some(synced_oci),
                "",
            ),
            Check::new(
                format!("{oci} is managed by the FluxInstance"),
                Some(owned_by_instance),
                "",
            ),
            // Revision 3: verify survives the handover only through an instance patch that
            // reaches the generated source; the Git-delivered copy's verify does not count.
            Check::new(
                "a FluxInstance verify patch targets the generated OCIRepository",
                Some(handover.as_ref().is_some_and(|h| h.patched())),
                handover_detail.clone(),
            ),
            Check::new(
                "live spec.verify and SourceVerified=True on the operator's source (no SIG-10 finding)",
                Some(
                    owned_by_instance
                        && verified(c, &oci, findings)
                        && !findings.iter().any(|f| f.rule == "SIG-10"),
                ),
                "",
            ),
            Check::new(
                format!("{root_ks} reads {oci} and is Ready"),
                Some(root_on_oci),
                "",
            ),
            Check::new(
                "report sync source starts with oci:// and is ready",
                Some(sync_src.is_some_and(|s| {
                    s.ready && s.source.as_deref().is_some_and(|u| u.starts_with("oci://"))
                })),
                "",
            ),
            Check::new(
                "FluxInstance Ready=True",
                Some(
                    inst.is_some_and(|i| i.condition("Ready").is_some_and(|r| r.status == "True")),
                ),
                "",
            ),
        ],
    );
    (m4, handover_detail)
}

/// M5: cleanup and hardening.
fn m5(x: &Roots) -> Stage {
    let c = x.c;
    let findings = x.findings;
    let git = x.git.clone();
    let git_obj = c.get(&git);
    let git_kept = git_obj.is_none_or(|g| {
        g.suspended() && consumers_of(c, &git).all(|o| o.key.kind == Kind::ImageUpdateAutomation)
    });
    let stale_alerts: Vec<ObjectKey> = findings
        .iter()
        .filter(|f| f.rule == "MIG-GO-08")
        .map(|f| f.subject.clone())
        .collect();
    let status_alerts: Vec<ObjectKey> = findings
        .iter()
        .filter(|f| f.rule == "MIG-GO-07")
        .map(|f| f.subject.clone())
        .collect();
    let receivers_git: Vec<ObjectKey> = c
        .of_kind(&Kind::Receiver)
        .filter(|o| {
            o.refs
                .iter()
                .any(|r| r.target == git || c.presence(&r.target).is_missing())
        })
        .map(|o| o.key.clone())
        .collect();
    Stage::new(
        "M5",
        "Cleanup and hardening",
        vec![
            Check::new(
                format!("{git} removed, or kept suspended without consumers (break-glass)"),
                Some(git_kept),
                "",
            ),
            Check::new(
                "Alerts no longer name missing sources",
                Some(stale_alerts.is_empty()),
                "MIG-GO-08",
            )
            .with(stale_alerts)
            .unless_unsettled(x.unsettled.as_ref()),
            Check::new(
                "commit-status Alerts have a SHA-1 origin revision to report",
                Some(status_alerts.is_empty()),
                "MIG-GO-07",
            )
            .with(status_alerts),
            Check::new(
                "Receivers target existing OCI sources",
                Some(receivers_git.is_empty()),
                "MIG-GO-09",
            )
            .with(receivers_git)
            .unless_unsettled(x.unsettled.as_ref()),
        ],
    )
}

/// What blocks the migration: §0.3-7, a dangling reference elsewhere is a finding, not a
/// blocker, unless it touches the root pair or the delivery chain (then it is critical).
fn blockers(c: &ClusterFacts, findings: &[Finding]) -> Vec<Finding> {
    let (git_r, oci_r) = cluster::root_pair(c);
    let chain = cluster::delivery_chain(c);
    // The migration's own chain: the root pair, what reads it, and the appliers the
    // FluxInstance is delivered through (#68: a critical dangling reference of an unrelated
    // app led the blockers).
    let about_root = |f: &Finding| {
        f.subject == git_r
            || f.subject == oci_r
            || chain.contains(&f.subject)
            || c.get(&f.subject).is_some_and(|o| {
                o.refs
                    .iter()
                    .any(|r| r.target == git_r || r.target == oci_r)
            })
    };
    findings
        .iter()
        .filter(|f| {
            matches!(
                f.rule.as_str(),
                "MIG-GO-03" | "MIG-GO-04" | "MIG-GO-10" | "MIG-GO-14" | "SIG-10"
            ) || (f.rule == "MIG-GO-02" && about_root(f))
                // Revision 4: a deadlock on the delivery chain blocks every step after it.
                || (f.rule == "MIG-GO-15" && f.severity == crate::analyses::finding::Severity::Critical)
                // Revision 3: a step predicted to fail open is not "in progress".
                || (f.rule == "SIG-09" && f.severity >= crate::analyses::finding::Severity::High)
        })
        .cloned()
        .collect()
}

/// The consumer census and the Receivers' webhook paths.
fn notes(c: &ClusterFacts) -> Vec<String> {
    let cen = census(c);
    let mut notes = vec![format!(
        "consumer census: git {}, oci {}, bucket {}, external {} (git-backed {}, oci-backed {})",
        cen.git,
        cen.oci,
        cen.bucket,
        cen.external_git + cen.external_oci,
        cen.external_git,
        cen.external_oci
    )];
    for rc in c
        .of_kind(&Kind::Receiver)
        .filter(|o| o.spec_type() == Some("generic-oidc"))
    {
        notes.push(format!(
            "webhook path of {} (for CI): {}",
            rc.key,
            cluster::generic_oidc_webhook_path(&rc.key.name, &rc.key.namespace)
        ));
    }
    notes
}

/// The cluster's own values the next commands are written with (#46: a placeholder
/// `oci://<registry>/<repo>` was offered where the URL was known).
struct Known {
    ns: String,
    root: String,
    instance: String,
    /// `oci://…` of the OCI root (its OCIRepository, or the FluxInstance's OCI sync).
    oci_url: Option<String>,
    /// The Git root's URL.
    git_url: Option<String>,
    synced_oci: bool,
}

impl Known {
    fn of(x: &Roots) -> Known {
        let c = x.c;
        let sync = c.instance().and_then(|i| i.sync());
        let sync_url = |oci: bool| {
            sync.and_then(|s| s.url.clone())
                .filter(|u| u.starts_with("oci://") == oci && !u.is_empty())
        };
        let url_of = |k: &ObjectKey| {
            c.get(k)
                .and_then(|o| o.url().map(str::to_string))
                .filter(|u| !u.is_empty())
        };
        Known {
            ns: c.operator_namespace().to_string(),
            root: cluster::root_name(c),
            instance: c
                .instance()
                .map_or_else(|| "flux".to_string(), |i| i.key.name.clone()),
            oci_url: url_of(&x.oci).or_else(|| sync_url(true)),
            git_url: url_of(&x.git).or_else(|| sync_url(false)),
            synced_oci: x.synced_oci,
        }
    }

    /// The OCI repository, or a placeholder that says it is one.
    fn oci(&self) -> String {
        self.oci_url
            .clone()
            .unwrap_or_else(|| "oci://<registry>/<repo>".into())
    }

    fn sync_patch(&self) -> String {
        format!(
            "kubectl -n {} patch fluxinstance {} --type merge -p '{{\"spec\":{{\"sync\":{{\"kind\":\"OCIRepository\",\"url\":\"{}\",\"ref\":\"latest\"}}}}}}'   # via Git, not by hand",
            self.ns,
            self.instance,
            self.oci()
        )
    }
}

/// The obstacle's commands, then the current stage's own when that stage lies past the
/// obstacle's source (M4, M5: carrying verify across still matters once the pull works); an
/// artifact push or a flip is never offered while the obstacle stands.
fn first_the_obstacle(
    obstacle: Vec<String>,
    stages: &[Stage],
    stage_commands: Vec<String>,
) -> Vec<String> {
    let current = stages.iter().find(|s| s.state != StageState::Done);
    let later = current.is_some_and(|s| matches!(s.id.as_str(), "M4" | "M5"));
    let mut out = obstacle;
    if later {
        for c in stage_commands {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// What to run next, for the first stage not done, with the cluster's own values; never a
/// step the cluster has passed.
fn next_commands(stages: &[Stage], k: &Known, handover_detail: &str) -> Vec<String> {
    let (ns, r) = (&k.ns, &k.root);
    let oci = k.oci();
    let unnamed = k.oci_url.is_none().then(|| {
        "# no OCI source in the cluster names the repository yet: choose <registry>/<repo>".into()
    });
    let source = k
        .git_url
        .clone()
        .unwrap_or_else(|| "$(git config --get remote.origin.url)".into());
    match stages
        .iter()
        .find(|s| s.state != StageState::Done)
        .map(|s| s.id.as_str())
    {
        Some("M0") | Some("M1") | Some("M2") => unnamed
            .into_iter()
            .chain([
                format!(
                    "flux push artifact {oci}:$(git rev-parse --short HEAD) --path=. --source=\"{source}\" --revision=\"$(git branch --show-current)@sha1:$(git rev-parse HEAD)\""
                ),
                format!("flux tag artifact {oci}:$(git rev-parse --short HEAD) --tag latest"),
                format!(
                    "cosign sign {}@<digest>   # keyless, from the release workflow",
                    oci.trim_start_matches("oci://")
                ),
            ])
            .collect(),
        Some("M3") => vec![
            format!(
                "# flip each remaining sourceRef from GitRepository/{r} to OCIRepository/{r}, then"
            ),
            format!("flux get kustomizations -A | grep -v {r}"),
        ],
        // Past the switch: what is left is the live root's (verify carried, Ready, read).
        Some("M4") if k.synced_oci => {
            let mut out = Vec::new();
            if !handover_detail.is_empty() {
                out.push(format!("# carry verify across: {handover_detail}"));
            }
            out.push(format!(
                "flux get sources oci {r} -n {ns}   # the root's own status: pull, verify"
            ));
            out.push(format!("flux get kustomizations {r} -n {ns}"));
            out
        }
        Some("M4") if !handover_detail.is_empty() => vec![
            format!("# before switching spec.sync.kind: {handover_detail}"),
            k.sync_patch(),
        ],
        Some("M4") => vec![k.sync_patch()],
        Some("M5") => vec![format!(
            "kubectl -n {ns} get gitrepository {r} -o yaml   # keep suspended as break-glass, or remove"
        )],
        _ => vec![],
    }
}

#[cfg(test)]
mod tests {
    use crate::analyses::facts::cluster::ClusterFacts;
    use crate::analyses::findings::evaluate_all;
    use crate::analyses::findings::rules::testkit::cluster;
    use crate::analyses::migration::{StageState, git_to_oci};
    use crate::analyses::outcome::Outcome;

    const T: &str = r#"{"type":"Ready","status":"True"}"#;

    fn inst(kind: &str) -> String {
        format!(
            r#"{{"kind":"FluxInstance","metadata":{{"name":"flux","namespace":"flux-system"}},"spec":{{"sync":{{"kind":"{kind}","name":"flux-system"}}}},"status":{{"conditions":[{T}]}}}}"#
        )
    }
    /// The instance with a verify patch for the OCIRepository it will generate.
    fn inst_verify(kind: &str) -> String {
        format!(
            r#"{{"kind":"FluxInstance","metadata":{{"name":"flux","namespace":"flux-system"}},"spec":{{"sync":{{"kind":"{kind}","name":"flux-system","pullSecret":"ghcr"}},"kustomize":{{"patches":[{{"target":{{"kind":"OCIRepository"}},"patch":"- op: add\n  path: /spec/verify\n  value:\n    provider: cosign"}}]}}}},"status":{{"conditions":[{T}]}}}}"#
        )
    }
    fn git(extra: &str) -> String {
        format!(
            r#"{{"kind":"GitRepository","metadata":{{"name":"flux-system","namespace":"flux-system"}},"spec":{{{extra}}},"status":{{"conditions":[{T}],"artifact":{{"revision":"main@sha1:1111111111111111111111111111111111111111"}},"reconcilerRef":{{"managedBy":"FluxInstance/flux-system/flux"}}}}}}"#
        )
    }
    fn oci(owner: &str, verified: bool, prune: &str) -> String {
        let v = if verified {
            r#","verify":{"provider":"cosign","matchOIDCIdentity":[{"issuer":"^x$","subject":"^y$"}]}"#
        } else {
            ""
        };
        let sv = if verified {
            r#",{"type":"SourceVerified","status":"True","message":"verified signature of revision latest@sha256:ab"}"#
        } else {
            ""
        };
        let ann = if prune.is_empty() {
            String::new()
        } else {
            format!(r#","annotations":{{"kustomize.toolkit.fluxcd.io/prune":"{prune}"}}"#)
        };
        format!(
            r#"{{"kind":"OCIRepository","metadata":{{"name":"flux-system","namespace":"flux-system"{ann}}},"spec":{{"secretRef":{{"name":"ghcr"}}{v}}},"status":{{"conditions":[{T}{sv}],"artifact":{{"revision":"latest@sha256:ab","metadata":{{"org.opencontainers.image.revision":"main@sha1:1111111111111111111111111111111111111111"}}}},"reconcilerRef":{{"managedBy":"{owner}"}}}}}}"#
        )
    }
    fn root(kind: &str) -> String {
        format!(
            r#"{{"kind":"Kustomization","metadata":{{"name":"flux-system","namespace":"flux-system"}},"spec":{{"sourceRef":{{"kind":"{kind}","name":"flux-system"}}}},"status":{{"conditions":[{T}]}}}}"#
        )
    }
    fn app(name: &str, kind: &str) -> String {
        format!(
            r#"{{"kind":"Kustomization","metadata":{{"name":"{name}","namespace":"apps"}},"spec":{{"sourceRef":{{"kind":"{kind}","name":"flux-system","namespace":"flux-system"}}}},"status":{{"conditions":[{T}],"lastAppliedRevision":"latest@sha256:ab"}}}}"#
        )
    }

    fn stage_of(objs: &[String]) -> (String, StageState, crate::analyses::migration::Migration) {
        let c = cluster(&objs.iter().map(String::as_str).collect::<Vec<_>>());
        let f = evaluate_all(&c);
        let m = git_to_oci(&ClusterFacts::of(&c), &f);
        let cur = m.current().unwrap().clone();
        (cur.id, cur.state, m)
    }

    #[test]
    fn every_stage() {
        // Intent before progress (§0.3-7): a Git root with no sign of the migration.
        let (_, _, m) = stage_of(&[
            inst("GitRepository"),
            git(""),
            root("GitRepository"),
            app("a", "GitRepository"),
        ]);
        assert!(!m.started);
        assert_eq!(m.badge(), "not started");
        assert!(m.stages.iter().all(|s| s.state == StageState::NotStarted));
        let (id, _, _) = stage_of(&[
            inst("GitRepository"),
            git(""),
            root("GitRepository"),
            oci("Kustomization/flux-system/flux-system", false, "Disabled"),
            app("a", "GitRepository"),
        ]);
        assert_eq!(id, "M2", "OCI exists but is not verified");
        let (id, st, m) = stage_of(&[
            inst_verify("GitRepository"),
            git(""),
            root("GitRepository"),
            oci("Kustomization/flux-system/flux-system", true, "Disabled"),
            app("a", "GitRepository"),
            app("b", "OCIRepository"),
            app("c", "OCIRepository"),
        ]);
        assert_eq!((id.as_str(), st), ("M3", StageState::InProgress));
        let m3 = m.stages.iter().find(|s| s.id == "M3").unwrap();
        assert_eq!(
            m3.progress.as_ref().map(|p| (p.0, p.1)),
            Some((2, 3)),
            "2 of 3 consumers on OCI"
        );
        let (id, st, _) = stage_of(&[
            inst_verify("GitRepository"),
            git(""),
            root("GitRepository"),
            oci("Kustomization/flux-system/flux-system", true, "Disabled"),
            app("b", "OCIRepository"),
        ]);
        assert_eq!((id.as_str(), st), ("M4", StageState::InProgress));
        let (id, _, _) = stage_of(&[
            inst_verify("OCIRepository"),
            git(""),
            root("OCIRepository"),
            oci("FluxInstance/flux-system/flux", true, ""),
            app("b", "OCIRepository"),
        ]);
        assert_eq!(id, "M5", "handover done, Git root still active");
        let (_, st, _) = stage_of(&[
            inst_verify("OCIRepository"),
            git(r#""suspend":true"#),
            root("OCIRepository"),
            oci("FluxInstance/flux-system/flux", true, ""),
            app("b", "OCIRepository"),
        ]);
        assert_eq!(st, StageState::Done, "Git kept suspended as break-glass");
    }

    #[test]
    fn invariants_block() {
        // Premature flip: consumers on an OCI root that does not exist yet.
        let (_, st, m) = stage_of(&[
            inst("GitRepository"),
            git(""),
            root("GitRepository"),
            app("a", "OCIRepository"),
        ]);
        assert_eq!(st, StageState::Blocked);
        // Revision 3: off the delivery chain the flip is MIG-GO-02's evidence.
        let dangling = m.blockers.iter().find(|f| f.rule == "MIG-GO-02").unwrap();
        assert!(
            dangling
                .evidence
                .iter()
                .any(|e| e.contains("MIG-GO-04 premature flip")),
            "{:?}",
            dangling.evidence
        );
        // Git root collected under consumers after the switch.
        let (_, st, m) = stage_of(&[
            inst("OCIRepository"),
            root("OCIRepository"),
            oci("FluxInstance/flux-system/flux", true, ""),
            app("a", "GitRepository"),
        ]);
        assert_eq!(st, StageState::Blocked);
        assert!(m.blockers.iter().any(|f| f.rule == "MIG-GO-03"));
        // Parallel source not prune-safe: M2 check fails ("false" is not honoured).
        let (id, _, m) = stage_of(&[
            inst("GitRepository"),
            git(""),
            root("GitRepository"),
            oci("Kustomization/flux-system/flux-system", true, "false"),
        ]);
        assert_eq!(id, "M2");
        assert!(
            m.stages[2]
                .checks
                .iter()
                .any(|c| c.label.contains("prune-safe") && c.outcome == Outcome::Fail)
        );
    }

    #[test]
    fn the_card_and_the_findings_agree_on_the_handover() {
        // Regression (#29): the seed's repository mid-migration. The OCIRepository that will
        // become the root carries verify delivered by Git; the FluxInstance has patches, none
        // for verify. M4's verify check passed on the Git-delivered copy and no finding said
        // that the handover drops it.
        let other_patches = r#"{"kind":"FluxInstance","metadata":{"name":"flux","namespace":"flux-system"},"spec":{"sync":{"kind":"GitRepository","name":"flux-system"},"kustomize":{"patches":[{"target":{"kind":"Deployment"},"patch":"- op: add\n  path: /spec/template/spec/containers/0/args/-\n  value: --concurrent=10"},{"target":{"kind":"Kustomization"},"patch":"- op: add\n  path: /spec/decryption\n  value: {provider: sops}"}]}},"status":{"conditions":[{"type":"Ready","status":"True"}]}}"#;
        let objs = [
            other_patches.to_string(),
            git(""),
            root("GitRepository"),
            oci("Kustomization/flux-system/flux-system", true, "Disabled"),
            app("b", "OCIRepository"),
        ];
        let c = cluster(&objs.iter().map(String::as_str).collect::<Vec<_>>());
        let f = evaluate_all(&c);
        let sig09 = f
            .iter()
            .find(|f| f.rule == "SIG-09")
            .expect("SIG-09 predicts the drop");
        // Revision 5: the prediction waits for the step that acts. While the sync stays Git it
        // is context, and the careful staged step is not blocked by it (#69: flatops 329acf696,
        // the verified source staged before the switch, exited 1 on SIG-09 high).
        assert_eq!(sig09.severity, crate::analyses::finding::Severity::Info);
        assert!(
            sig09.message.contains("would be dropped at the handover"),
            "{}",
            sig09.message
        );
        assert!(
            sig09.remediation.contains("/spec/verify"),
            "names the patch to add"
        );
        let m = git_to_oci(&ClusterFacts::of(&c), &f);
        let cur = m.current().unwrap();
        assert_eq!((cur.id.as_str(), cur.state), ("M4", StageState::InProgress));
        assert!(m.blockers.iter().all(|b| b.rule != "SIG-09"));
        let m4 = m.stages.iter().find(|s| s.id == "M4").unwrap();
        for check in m4.checks.iter().filter(|c| c.label.contains("verify")) {
            assert_eq!(check.outcome, Outcome::Fail, "{}", check.label);
        }
        assert!(
            m.next_commands[0].contains("/spec/verify"),
            "{:?}",
            m.next_commands
        );
        // With the verify patch in place the prediction is clean and the step is in progress.
        let mut fixed = objs.to_vec();
        fixed[0] = inst_verify("GitRepository");
        let c = cluster(&fixed.iter().map(String::as_str).collect::<Vec<_>>());
        let f = evaluate_all(&c);
        assert!(f.iter().all(|f| f.rule != "SIG-09"), "{f:?}");
        let m = git_to_oci(&ClusterFacts::of(&c), &f);
        assert_eq!(m.current().unwrap().state, StageState::InProgress);
    }

    #[test]
    fn m3_counts_charts_in_the_git_root_apart() {
        let hr = r#"{"kind":"HelmRelease","metadata":{"name":"app","namespace":"apps"},"spec":{"chart":{"spec":{"chart":"./charts/app","sourceRef":{"kind":"GitRepository","name":"flux-system","namespace":"flux-system"}}}},"status":{"helmChart":"flux-system/apps-app"}}"#;
        let chart = r#"{"kind":"HelmChart","metadata":{"name":"apps-app","namespace":"flux-system"},"spec":{"chart":"./charts/app","sourceRef":{"kind":"GitRepository","name":"flux-system"}}}"#;
        let (_, _, m) = stage_of(&[
            inst("GitRepository"),
            git(""),
            root("GitRepository"),
            oci("Kustomization/flux-system/flux-system", true, "Disabled"),
            app("a", "OCIRepository"),
            hr.to_string(),
            chart.to_string(),
        ]);
        let m3 = m.stages.iter().find(|s| s.id == "M3").unwrap();
        let flip = &m3.checks[0];
        assert_eq!(
            flip.outcome,
            Outcome::Pass,
            "{:?}: the chart release is not a plain flip",
            flip.objects
        );
        let charts = &m3.checks[1];
        assert_eq!(charts.outcome, Outcome::Fail);
        assert!(
            charts
                .detail
                .contains("1 HelmRelease needs a chart artifact")
        );
        assert_eq!(m3.progress.as_ref().unwrap().1, 2);
    }
}
