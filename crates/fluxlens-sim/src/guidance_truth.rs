//! #68: every migration card of every scenario, read the way the engineer reads it. A stage's
//! state, its blockers and its next commands must follow from the checks shown beside them:
//! the test fails wherever a card contradicts itself. Each scenario is loaded twice (with the
//! CRDs read, and with the CRDs unknown, as on a server that refuses them), and the demo
//! again under the faults.

use crate::faults::Mode;
use fluxlens_core::analyses::facts::cluster::{ClusterFacts, root_pair};
use fluxlens_core::analyses::findings::{self, Severity, policy};
use fluxlens_core::analyses::migration::{self, Migration, StageState};
use fluxlens_core::analyses::outcome::Outcome;
use fluxlens_core::model::{Cluster, CrdAccess};

use crate::truth::store;

/// Every way a card can contradict itself, as sentences (empty when it reads true).
fn contradictions(c: &Cluster, m: &Migration) -> Vec<String> {
    let mut out = Vec::new();
    let say = |out: &mut Vec<String>, s: String| out.push(format!("{}: {s}", m.title));
    for s in &m.stages {
        let fails = s.checks.iter().any(|x| x.outcome == Outcome::Fail);
        if s.state == StageState::Done && fails && !s.state_label().contains("failing now") {
            say(
                &mut out,
                format!("{} reads done beside a failing check", s.id),
            );
        }
        let worked = s.progress.as_ref().is_some_and(|(done, _, _)| *done > 0);
        if m.started && s.state == StageState::NotStarted && worked {
            say(
                &mut out,
                format!(
                    "{} reads not started above work done {:?}",
                    s.id, s.progress
                ),
            );
        }
        for x in &s.checks {
            let text = format!("{} {}", x.label, x.detail);
            if x.outcome == Outcome::Fail && text.contains(" clean") {
                say(
                    &mut out,
                    format!("{} fails while it reads clean: {text}", s.id),
                );
            }
            let needs_crds = text.contains("storedVersions") || text.contains("Flux CRD");
            if x.outcome == Outcome::Pass && needs_crds && !matches!(c.crds, CrdAccess::Known(_)) {
                say(
                    &mut out,
                    format!("{} passes on CRDs nobody read: {text}", s.id),
                );
            }
        }
    }
    let every_check_passes = m
        .stages
        .iter()
        .all(|s| s.checks.iter().all(|x| x.outcome == Outcome::Pass));
    if !m.started && every_check_passes {
        say(
            &mut out,
            "not started over a column of passing checks".into(),
        );
    }
    if !m.started
        && (!m.next_commands.is_empty()
            || m.stages.iter().any(|s| s.state != StageState::NotStarted))
    {
        say(
            &mut out,
            "not started, yet a stage moved or a command is offered".into(),
        );
    }
    let crds_unread = !matches!(c.crds, CrdAccess::Known(_));
    if m.id == "storage" && !m.started && crds_unread && m.badge() != "unknown" {
        say(
            &mut out,
            format!(
                "reads {} over CRDs nobody read: {}",
                m.badge(),
                m.current_label()
            ),
        );
    }
    if m.started
        && let Some(cur) = m.current()
        && m.badge() != cur.state.as_str()
    {
        say(
            &mut out,
            format!(
                "badge {} over current stage {} {}",
                m.badge(),
                cur.id,
                cur.state.as_str()
            ),
        );
    }
    out
}

/// The Git → OCI card's blockers lie in its own chain and its commands answer what fails.
fn git_oci_guidance(c: &Cluster, m: &Migration, findings: &[findings::Finding]) -> Vec<String> {
    let mut out = Vec::new();
    let (git, oci) = root_pair(&ClusterFacts::of(c));
    let chain = policy::delivery_chain(c);
    for b in &m.blockers {
        let reads_root = c
            .get(&b.subject)
            .is_some_and(|o| o.refs.iter().any(|r| r.target == git || r.target == oci));
        if !(b.subject == git || b.subject == oci || chain.contains(&b.subject) || reads_root) {
            out.push(format!(
                "blocker outside the migration's chain: {} {}",
                b.rule, b.subject
            ));
        }
    }
    let commands = m.next_commands.join("\n");
    let refused = c.get(&oci).is_some_and(|o| {
        o.condition("Ready").is_some_and(|r| {
            r.status == "False"
                && fluxlens_core::analyses::facts::cluster::auth_failure_text(
                    r.message.as_deref().unwrap_or(""),
                )
        })
    });
    if m.started && refused {
        if commands.contains("flux push artifact") {
            out.push(format!(
                "an artifact push offered for a refused pull:\n{commands}"
            ));
        }
        if !(commands.contains("secret") || commands.contains("serviceaccount")) {
            out.push(format!(
                "no credentials offered for a refused pull:\n{commands}"
            ));
        }
    }
    let frozen = findings
        .iter()
        .any(|f| f.rule == "MIG-GO-15" && f.severity == Severity::Critical);
    if m.started && frozen && commands.contains("flux push artifact") {
        out.push(format!(
            "an artifact push offered for a frozen chain:\n{commands}"
        ));
    }
    out
}

fn judge(label: &str, c: &Cluster) -> Vec<String> {
    let f = findings::evaluate_all(c);
    let mut out = Vec::new();
    for m in migration::all(&ClusterFacts::of(c), &f) {
        out.extend(contradictions(c, &m));
        if m.id == "git-oci" {
            out.extend(git_oci_guidance(c, &m, &f));
        }
    }
    out.into_iter().map(|s| format!("{label}: {s}")).collect()
}

#[test]
fn no_migration_card_contradicts_its_checks_on_any_scenario() {
    let mut wrong = Vec::new();
    for name in crate::snapshot_truth::SCENARIOS {
        wrong.extend(judge(name, &crate::snapshot_truth::live(name)));
        let unread = crate::truth::load(&store(name), &Mode::default());
        wrong.extend(judge(&format!("{name} (CRDs not read)"), &unread));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The case: the demo with its future OCI root refused (UNAUTHORIZED) and its verify
/// removed, and the frozen chain: the card says where the migration stands and what answers it.
#[test]
fn the_demo_with_its_oci_root_refused_gets_credentials_not_a_push() {
    let mut s = store("demo");
    let msg = "failed to pull: GET https://ghcr.io/token: UNAUTHORIZED: authentication required";
    assert!(s.set_ready(
        "OCIRepository",
        "flux-system",
        "flux-system",
        false,
        msg,
        1_700_000_000_000
    ));
    assert!(s.unset_spec("OCIRepository", "flux-system", "flux-system", "verify"));
    let c = crate::truth::load(&s, &Mode::default());
    let wrong = judge("demo, OCI root refused", &c);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let f = findings::evaluate_all(&c);
    let all = migration::all(&ClusterFacts::of(&c), &f);
    let m = all.iter().find(|m| m.id == "git-oci").unwrap();
    let stage = |id: &str| m.stages.iter().find(|s| s.id == id).unwrap();
    assert_eq!(stage("M2").state, StageState::Blocked);
    assert_eq!(stage("M3").state, StageState::InProgress);
    let verified = &stage("M2").checks[2];
    assert_eq!(verified.outcome, Outcome::Fail);
    assert_eq!(
        verified.detail, "not verified (stale condition)",
        "{verified:?}"
    );
    assert!(
        m.next_commands[0].starts_with("flux events --for OCIRepository/flux-system"),
        "{:?}",
        m.next_commands
    );
    assert!(
        m.next_commands
            .iter()
            .any(|x| x.starts_with("flux create secret oci ghcr-auth")),
        "{:?}",
        m.next_commands
    );
    // The frozen chain is answered with the order: the flipped consumer goes back to Git.
    let c = crate::truth::load(&store("frozen"), &Mode::default());
    let f = findings::evaluate_all(&c);
    let all = migration::all(&ClusterFacts::of(&c), &f);
    let m = all.iter().find(|m| m.id == "git-oci").unwrap();
    assert!(
        m.next_commands
            .iter()
            .any(|x| x.starts_with("kubectl -n flux-system patch kustomization cluster-vap")),
        "{:?}",
        m.next_commands
    );
}
