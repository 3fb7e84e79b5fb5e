//! MIG-GO-01, 03, 04, 06 … 11: the Git → OCI root migration.

use super::rule;
use crate::findings::{Finding, Severity};
use crate::kind::Kind;
use crate::migration::util::{self, census, consumers_of, root_pair, sha1_of, sync_kind};
use crate::model::{Cluster, ObjectKey};

rule!(
    /// MIG-GO-01: which kinds of source consumers read (info).
    ConsumerCensus, "MIG-GO-01", "consumer census", consumer_census
);
rule!(
    /// MIG-GO-03: the sync moved off Git while consumers still read the Git root.
    GitRootCollected, "MIG-GO-03", "Git root GC'd under consumers", git_root_collected
);
rule!(
    /// MIG-GO-04: consumers flipped to an OCI root that is not there or not Ready.
    PrematureFlip, "MIG-GO-04", "premature flip", premature_flip
);
rule!(
    /// MIG-GO-06: the OCI artifact was built from another commit than the Git root.
    ArtifactLagsGit, "MIG-GO-06", "artifact lags Git", artifact_lags
);
rule!(
    /// MIG-GO-07: commit-status Alerts on OCI-sourced Kustomizations without a SHA-1 origin.
    CommitStatusWillFail, "MIG-GO-07", "commit status will fail", commit_status
);
rule!(
    /// MIG-GO-08: Alerts naming sources that no longer exist.
    StaleAlertSources, "MIG-GO-08", "stale alert sources", stale_alert_sources
);
rule!(
    /// MIG-GO-09: Receivers not ready, dangling, or still on Git.
    ReceiverDrift, "MIG-GO-09", "receiver drift", receiver_drift
);
rule!(
    /// MIG-GO-10: the root OCI source cannot authenticate.
    RootAuthFailure, "MIG-GO-10", "root source auth failure", root_auth
);
rule!(
    /// MIG-GO-11: after handover, no way back if the tag breaks (info).
    NoBreakGlass, "MIG-GO-11", "no break-glass", no_break_glass
);

fn f(
    id: &str,
    sev: Severity,
    subject: ObjectKey,
    message: String,
    evidence: Vec<String>,
    remediation: &str,
) -> Finding {
    Finding {
        rule: id.into(),
        severity: sev,
        subject,
        message,
        evidence,
        remediation: remediation.into(),
    }
}

fn consumer_census(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some(subject) = c.root_kustomization() else {
        return;
    };
    let n = census(c);
    if n.git + n.oci + n.bucket + n.external_git + n.external_oci == 0 {
        return;
    }
    out.push(f(
        id,
        Severity::Info,
        subject,
        format!(
            "Consumers by source: git {}, oci {}, bucket {}, external {}",
            n.git,
            n.oci,
            n.bucket,
            n.external_git + n.external_oci
        ),
        vec![format!(
            "external: {} git-backed, {} oci-backed; ImageUpdateAutomations excluded (Git only)",
            n.external_git, n.external_oci
        )],
        "Informational.",
    ));
}

fn git_root_collected(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some(kind) = sync_kind(c) else { return };
    if kind == "GitRepository" {
        return;
    }
    let (git, _) = root_pair(c);
    let kept = c
        .get(&git)
        .is_some_and(|g| util::prune_disabled(g.annotation("fluxcd.controlplane.io/prune")));
    let on_git: Vec<String> = consumers_of(c, &git)
        .filter(|o| o.key.kind != Kind::ImageUpdateAutomation)
        .map(|o| o.key.to_string())
        .collect();
    if !on_git.is_empty() && !kept {
        out.push(f(id, Severity::Critical, git.clone(), format!("FluxInstance syncs from {kind} now, and {} consumers still read {git}, which the operator garbage-collects", on_git.len()),
            on_git.into_iter().take(20).collect(), "Flip the remaining consumers to the OCI root, or annotate the GitRepository fluxcd.controlplane.io/prune: disabled."));
    }
}

fn premature_flip(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    if sync_kind(c).as_deref() != Some("GitRepository") {
        return;
    }
    let (_, oci) = root_pair(c);
    let ok = c
        .get(&oci)
        .is_some_and(|o| o.condition("Ready").is_some_and(|r| r.status == "True"));
    if ok {
        return;
    }
    let flipped: Vec<String> = consumers_of(c, &oci).map(|o| o.key.to_string()).collect();
    if !flipped.is_empty() {
        let state = if c.contains(&oci) {
            "is not Ready"
        } else {
            "does not exist"
        };
        out.push(f(id, Severity::Critical, oci.clone(), format!("{} consumers read {oci}, which {state}, while the FluxInstance still syncs Git", flipped.len()),
            flipped.into_iter().take(20).collect(), "Revert the flip until the parallel OCI source exists, is Ready and verified (stage M2)."));
    }
}

fn artifact_lags(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let (git, oci) = root_pair(c);
    let g = c
        .get(&git)
        .and_then(|o| o.artifact_revision())
        .and_then(sha1_of);
    let o = c
        .get(&oci)
        .and_then(|o| o.raw.status.artifact.as_ref())
        .and_then(|a| a.metadata.get("org.opencontainers.image.revision"))
        .and_then(|r| sha1_of(r));
    if let (Some(g), Some(o)) = (g, o)
        && g != o
    {
        out.push(f(
            id,
            Severity::Medium,
            oci.clone(),
            format!("{oci} was built from {o:.12}, the Git root is at {g:.12}"),
            vec![
                format!("org.opencontainers.image.revision SHA {o}"),
                format!("{git} artifact SHA {g}"),
            ],
            "Check that the release workflow ran for the latest commit and promoted latest.",
        ));
    }
}

const COMMIT_STATUS_PROVIDERS: [&str; 6] = [
    "github",
    "gitlab",
    "gitea",
    "bitbucket",
    "bitbucketserver",
    "azuredevops",
];

fn commit_status(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    for alert in c.of_kind(&Kind::Alert) {
        let Some(p) = alert.raw.spec.provider_ref.as_ref() else {
            continue;
        };
        let provider = ObjectKey::new(Kind::Provider, alert.key.namespace.clone(), p.name.clone());
        let Some(ptype) = c.get(&provider).and_then(|p| p.raw.spec.type_.clone()) else {
            continue;
        };
        if !COMMIT_STATUS_PROVIDERS.contains(&ptype.as_str()) {
            continue;
        }
        let bad: Vec<String> = c
            .of_kind(&Kind::Kustomization)
            .filter(|k| {
                alert.raw.spec.event_sources.iter().any(|s| {
                    s.kind == "Kustomization"
                        && s.namespace
                            .as_deref()
                            .filter(|n| !n.is_empty())
                            .unwrap_or(&alert.key.namespace)
                            == k.key.namespace
                        && (s.name == "*" || s.name == k.key.name)
                        && s.match_labels
                            .iter()
                            .all(|(lk, lv)| k.raw.metadata.labels.get(lk) == Some(lv))
                })
            })
            .filter(|k| {
                k.refs
                    .iter()
                    .any(|r| matches!(r.target.kind, Kind::OciRepository | Kind::ExternalArtifact))
            })
            .filter(|k| {
                k.raw
                    .status
                    .last_applied_origin_revision
                    .as_deref()
                    .and_then(sha1_of)
                    .is_none()
            })
            .map(|k| k.key.to_string())
            .collect();
        if !bad.is_empty() {
            out.push(f(id, Severity::Medium, alert.key.clone(), format!("{} posts {ptype} commit statuses for {} OCI-sourced Kustomizations that have no SHA-1 origin revision", alert.key, bad.len()),
                bad.into_iter().take(20).collect(), "Push artifacts with --revision <branch>@sha1:<sha> so kustomize-controller forwards originRevision (Flux ≥ 2.5)."));
        }
    }
}

fn stale_alert_sources(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    for alert in c.of_kind(&Kind::Alert) {
        let missing: Vec<String> = alert
            .refs
            .iter()
            .filter(|r| {
                matches!(r.target.kind, Kind::GitRepository | Kind::OciRepository)
                    && c.presence(&r.target).is_missing()
            })
            .map(|r| r.target.to_string())
            .collect();
        if !missing.is_empty() {
            out.push(f(
                id,
                Severity::Low,
                alert.key.clone(),
                format!("{} lists sources that do not exist", alert.key),
                missing,
                "Remove the stale eventSources entries.",
            ));
        }
    }
}

fn receiver_drift(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let root_oci = c
        .root_source()
        .is_some_and(|k| k.kind == Kind::OciRepository);
    for rc in c.of_kind(&Kind::Receiver) {
        let mut evidence = Vec::new();
        if rc.condition("Ready").is_some_and(|r| r.status != "True") {
            evidence.push(format!(
                "Ready={}: {}",
                rc.condition("Ready")
                    .map(|r| r.status.clone())
                    .unwrap_or_default(),
                rc.message
            ));
        }
        if rc
            .raw
            .status
            .webhook_path
            .as_deref()
            .is_none_or(str::is_empty)
        {
            evidence.push("status.webhookPath is empty".into());
        }
        for r in &rc.refs {
            if c.presence(&r.target).is_missing() {
                evidence.push(format!("resource {} does not exist", r.target));
            } else if root_oci && r.target.kind == Kind::GitRepository {
                evidence.push(format!(
                    "resource {} is still Git while the root is OCI",
                    r.target
                ));
            }
        }
        if !evidence.is_empty() {
            if rc.raw.spec.type_.as_deref() == Some("generic-oidc") {
                evidence.push(format!(
                    "computed webhook path for CI: {}",
                    util::generic_oidc_webhook_path(&rc.key.name, &rc.key.namespace)
                ));
            }
            out.push(f(
                id,
                Severity::Medium,
                rc.key.clone(),
                format!("{} will not trigger what CI expects", rc.key),
                evidence,
                "Point spec.resources at existing OCI sources and check the webhook path CI calls.",
            ));
        }
    }
}

fn root_auth(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    let Some(root) = c.root_source().filter(|k| k.kind == Kind::OciRepository) else {
        return;
    };
    let Some(o) = c.get(&root) else { return };
    let Some(r) = o.condition("Ready").filter(|r| r.status == "False") else {
        return;
    };
    let msg = r.message.clone().unwrap_or_default();
    let reason = r.reason.clone().unwrap_or_default();
    let auth = matches!(reason.as_str(), "FetchFailed" | "AuthenticationFailed")
        || ["401", "403", "UNAUTHORIZED", "DENIED", "denied"]
            .iter()
            .any(|m| msg.contains(m));
    if auth {
        out.push(f(id, Severity::Critical, root, "The root OCI source cannot pull: the whole cluster stops updating".into(),
            vec![format!("Ready=False {reason}: {msg}")], "New GHCR packages are private by default: make it public and verified, or set the FluxInstance sync pullSecret."));
    }
}

fn no_break_glass(id: &str, c: &Cluster, out: &mut Vec<Finding>) {
    if sync_kind(c).as_deref() != Some("OCIRepository") {
        return;
    }
    let Some(root) = c.root_source() else { return };
    let Some(o) = c.get(&root) else { return };
    let mutable = match &o.raw.spec.ref_ {
        Some(crate::api::object::RefField::Structured(r)) => {
            r.digest.is_none() && r.semver.is_none()
        }
        _ => true,
    };
    let spare = c.objects().iter().any(|s| {
        s.key.kind == Kind::GitRepository
            && s.key.namespace == root.namespace
            && s.raw.spec.suspend == Some(true)
    });
    if mutable && !spare {
        out.push(f(
            id,
            Severity::Info,
            root,
            "No break-glass source: the root is a mutable tag and no suspended alternative exists"
                .into(),
            vec![],
            "Keep the old GitRepository suspended (and prune-disabled) as a documented fallback.",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::*;
    use crate::findings::Severity;

    fn inst(kind: &str) -> String {
        format!(
            r#"{{"kind":"FluxInstance","metadata":{{"name":"flux","namespace":"flux-system"}},"spec":{{"sync":{{"kind":"{kind}","name":"flux-system"}}}}}}"#
        )
    }
    fn ks(name: &str, kind: &str) -> String {
        format!(
            r#"{{"kind":"Kustomization","metadata":{{"name":"{name}","namespace":"apps"}},"spec":{{"sourceRef":{{"kind":"{kind}","name":"flux-system","namespace":"flux-system"}}}}}}"#
        )
    }
    const GIT: &str = r#"{"kind":"GitRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"status":{"artifact":{"revision":"main@sha1:1111111111111111111111111111111111111111"}}}"#;
    const OCI_READY: &str = r#"{"kind":"OCIRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"status":{"conditions":[{"type":"Ready","status":"True"}],"artifact":{"revision":"latest@sha256:ab","metadata":{"org.opencontainers.image.revision":"main@sha1:2222222222222222222222222222222222222222"}}}}"#;

    #[test]
    fn mig_go_03_git_root_collected() {
        let objs = [
            inst("OCIRepository"),
            GIT.into(),
            ks("a", "GitRepository"),
            ks("b", "GitRepository"),
            ks("c", "GitRepository"),
        ];
        let f = run(
            &cluster(&objs.iter().map(String::as_str).collect::<Vec<_>>()),
            "MIG-GO-03",
        );
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Critical);
        let still_git = [inst("GitRepository"), GIT.into(), ks("a", "GitRepository")];
        assert!(
            run(
                &cluster(&still_git.iter().map(String::as_str).collect::<Vec<_>>()),
                "MIG-GO-03"
            )
            .is_empty()
        );
    }

    #[test]
    fn mig_go_04_premature_flip() {
        let objs = [inst("GitRepository"), GIT.into(), ks("a", "OCIRepository")];
        assert_eq!(
            run(
                &cluster(&objs.iter().map(String::as_str).collect::<Vec<_>>()),
                "MIG-GO-04"
            )
            .len(),
            1
        );
        let after_m2 = [
            inst("GitRepository"),
            GIT.into(),
            OCI_READY.into(),
            ks("a", "OCIRepository"),
        ];
        assert!(
            run(
                &cluster(&after_m2.iter().map(String::as_str).collect::<Vec<_>>()),
                "MIG-GO-04"
            )
            .is_empty()
        );
    }

    #[test]
    fn mig_go_06_lag() {
        let objs = [inst("GitRepository"), GIT.into(), OCI_READY.into()];
        assert_eq!(
            run(
                &cluster(&objs.iter().map(String::as_str).collect::<Vec<_>>()),
                "MIG-GO-06"
            )
            .len(),
            1
        );
    }

    #[test]
    fn mig_go_07_commit_status() {
        let base = [
            r#"{"kind":"Provider","metadata":{"name":"gh","namespace":"apps"},"spec":{"type":"github"}}"#.to_string(),
            r#"{"kind":"Alert","metadata":{"name":"status","namespace":"apps"},"spec":{"providerRef":{"name":"gh"},"eventSources":[{"kind":"Kustomization","name":"*"}]}}"#.into(),
        ];
        let mut bad = base.to_vec();
        bad.push(ks("a", "OCIRepository"));
        assert_eq!(
            run(
                &cluster(&bad.iter().map(String::as_str).collect::<Vec<_>>()),
                "MIG-GO-07"
            )
            .len(),
            1
        );
        let mut good = base.to_vec();
        good.push(r#"{"kind":"Kustomization","metadata":{"name":"a","namespace":"apps"},"spec":{"sourceRef":{"kind":"OCIRepository","name":"x"}},"status":{"lastAppliedOriginRevision":"main@sha1:0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f"}}"#.into());
        assert!(
            run(
                &cluster(&good.iter().map(String::as_str).collect::<Vec<_>>()),
                "MIG-GO-07"
            )
            .is_empty()
        );
    }

    #[test]
    fn mig_go_09_receiver_computes_path() {
        let rc = r#"{"kind":"Receiver","metadata":{"name":"cluster-release","namespace":"flux-system"},"spec":{"type":"generic-oidc","resources":[{"kind":"GitRepository","name":"gone"}]}}"#;
        let f = run(&cluster(&[rc]), "MIG-GO-09");
        assert!(f[0].evidence.iter().any(|e| {
            e.contains("/hook/ef1ac25eeff8057bf82070418a3eabb755c4821b29ff32377c75863bc1692ab5")
        }));
    }

    #[test]
    fn mig_go_10_auth() {
        let root = r#"{"kind":"OCIRepository","metadata":{"name":"flux-system","namespace":"flux-system"},"status":{"conditions":[{"type":"Ready","status":"False","reason":"OCIArtifactPullFailed","message":"403: denied: requested access to the resource is denied"}]}}"#;
        assert_eq!(
            run(&cluster(&[&root_ks("OCIRepository"), root]), "MIG-GO-10").len(),
            1
        );
    }
}
