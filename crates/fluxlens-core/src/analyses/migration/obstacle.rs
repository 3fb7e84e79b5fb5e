//! What stands in the Git → OCI migration's way right now, read from the same facts its checks
//! and blockers show, and the commands that answer it. A freeze is answered with the order, a
//! refused pull with credentials, a failing fetch with its events: never with a step past the
//! failure (#68: an artifact push was offered for a pull that failed on credentials, and again
//! for a frozen delivery chain).

use crate::analyses::facts::cluster::{self, consumers_of};
use crate::analyses::finding::{Finding, Severity};
use crate::model::{Cluster, FluxObject, ObjectKey};
use crate::wire::kind::Kind;

/// The first thing the next commands must answer.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Obstacle {
    /// Delivery freezes (MIG-GO-15, critical): these consumers read an OCI source nothing
    /// creates and must go back to the Git root before anything else can reach the cluster.
    Freeze { flipped: Vec<ObjectKey> },
    /// The OCI source exists and the registry refuses its pull (401/403, UNAUTHORIZED, DENIED).
    Refused(ObjectKey),
    /// The OCI source exists and its last fetch failed for another reason.
    Failing(ObjectKey),
}

impl Obstacle {
    /// The obstacle of the migration of `git` → `oci`, if any.
    pub(super) fn of(
        c: &Cluster,
        findings: &[Finding],
        git: &ObjectKey,
        oci: &ObjectKey,
    ) -> Option<Obstacle> {
        let freeze = findings
            .iter()
            .any(|f| f.rule == "MIG-GO-15" && f.severity == Severity::Critical);
        if freeze && !c.contains(oci) {
            let flipped = consumers_of(c, oci)
                .filter(|o| o.key != *git)
                .map(|o| o.key.clone())
                .collect::<Vec<_>>();
            if !flipped.is_empty() {
                return Some(Obstacle::Freeze { flipped });
            }
        }
        let source = c.get(oci)?;
        let failed = source.condition("Ready").filter(|r| r.status == "False")?;
        // A failed signature is SIG-03's and answered by the signature, not the pull.
        if failed.reason.as_deref() == Some("VerificationError") {
            return None;
        }
        let fetch = source.condition("FetchFailed").unwrap_or(failed);
        let refused = fetch.reason.as_deref() == Some("AuthenticationFailed")
            || cluster::auth_failure_text(fetch.message.as_deref().unwrap_or(""));
        Some(if refused {
            Obstacle::Refused(oci.clone())
        } else {
            Obstacle::Failing(oci.clone())
        })
    }

    /// The commands that answer it, with the cluster's own names (shown, never run).
    pub(super) fn commands(&self, c: &Cluster, git: &ObjectKey) -> Vec<String> {
        match self {
            Obstacle::Freeze { flipped } => freeze_commands(flipped, git),
            Obstacle::Refused(k) => {
                let mut out = vec![events(k)];
                out.extend(c.get(k).map(credentials).unwrap_or_default());
                out.push(reconcile(k));
                out
            }
            Obstacle::Failing(k) => vec![events(k), reconcile(k)],
        }
    }
}

fn events(k: &ObjectKey) -> String {
    format!(
        "flux events --for OCIRepository/{} -n {}   # the fetch's own error",
        k.name, k.namespace
    )
}

fn reconcile(k: &ObjectKey) -> String {
    format!("flux reconcile source oci {} -n {}", k.name, k.namespace)
}

/// Credentials for a refused pull, by how the source authenticates today.
fn credentials(o: &FluxObject) -> Vec<String> {
    let (ns, name) = (&o.key.namespace, &o.key.name);
    let spec = &o.raw.spec;
    let registry = o
        .url()
        .map(|u| u.trim_start_matches("oci://"))
        .and_then(|u| u.split('/').next())
        .unwrap_or("<registry>")
        .to_string();
    if let Some(p) = spec.provider.as_deref().filter(|p| *p != "generic") {
        let sa = spec
            .service_account_name
            .clone()
            .unwrap_or_else(|| "source-controller".into());
        return vec![format!(
            "kubectl -n {ns} get serviceaccount {sa} -o yaml   # provider {p}: this identity must be allowed to pull from {registry}"
        )];
    }
    let secret = spec
        .secret_ref
        .as_ref()
        .map(|s| s.name.clone())
        .unwrap_or_else(|| format!("{name}-pull"));
    let mut out = vec![format!(
        "flux create secret oci {secret} -n {ns} --url={registry} --username=<user> --password=<token>   # a token that can read the repository"
    )];
    if spec.secret_ref.is_none() {
        out.push(format!(
            "# then set spec.secretRef.name: {secret} on OCIRepository/{ns}/{name} in Git (or make the package public and verified)"
        ));
    }
    out
}

/// The order for a freeze: the flipped consumers go back to the Git root by hand (no change
/// can come through Git while the chain waits), the same revert is committed, and the flip
/// waits for M2.
fn freeze_commands(flipped: &[ObjectKey], git: &ObjectKey) -> Vec<String> {
    let mut out = vec![
        "# delivery is frozen: no change can reach the cluster through Git until these read an existing source again".to_string(),
    ];
    for k in flipped.iter().take(8) {
        out.push(match k.kind {
            Kind::Kustomization => format!(
                "kubectl -n {} patch kustomization {} --type merge -p '{{\"spec\":{{\"sourceRef\":{{\"kind\":\"GitRepository\",\"name\":\"{}\",\"namespace\":\"{}\"}}}}}}'",
                k.namespace, k.name, git.name, git.namespace
            ),
            _ => format!("# point {k} back at {git}"),
        });
    }
    if flipped.len() > 8 {
        out.push(format!("# … and {} more", flipped.len() - 8));
    }
    out.push("# commit the same revert in Git, then create and verify the OCI source (M2) before flipping any consumer".into());
    out
}
