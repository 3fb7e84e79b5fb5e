//! `fluxlens-check drift --live URL RENDER` (and `flux lens drift`): a repository's render
//! judged against a live Flux Operator status API, read-only — core's drift rules over the
//! check's render model and the dashboard's own reads.

pub mod live;
pub mod output;

pub use crate::args::DriftArgs;
use crate::args::Format;
use crate::cluster::{Assume, model};
use fluxlens_core::analyses::drift::{self, Commit, Distance, Drift};
use fluxlens_core::analyses::finding::Severity;
use fluxlens_core::model::{Cluster, ObjectKey};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A judged drift and what it was judged from.
#[derive(Debug)]
pub struct Judged {
    pub drift: Drift,
    pub address: String,
    pub render: PathBuf,
    pub rendered: Option<Commit>,
    pub fail_on: Severity,
    /// Where each declared object was read (what annotations and SARIF point at).
    pub origins: BTreeMap<ObjectKey, crate::read::Origin>,
    pub root: Option<ObjectKey>,
}

/// Reads the render and the live cluster and judges them; the error is why it cannot run.
pub fn judge(args: &DriftArgs) -> Result<Judged, String> {
    let rendered = match &args.revision {
        Some(r) => Some(Commit::parse(r).ok_or(format!(
            "--revision {r:?} names no Git commit (give a SHA or BRANCH@sha1:SHA)"
        ))?),
        None => None,
    };
    let tree = crate::tree_at(&args.render).map_err(|e| e.to_string())?;
    let declared = model(&tree, Assume::Nothing, &BTreeSet::new());
    let api = live::Api::new(&args.live, args.auth.clone(), args.ca_file.as_deref())?;
    // The dashboard retries what may pass; a run says it and stops (its caller retries).
    let at = |e: fluxlens_core::wire::error::ApiError| {
        let text = e.to_string();
        let text = text.strip_suffix("; retrying").unwrap_or(&text);
        // A refused certificate is refused again: what to do is said instead (live.rs).
        match e.retryable() && !text.contains("--ca-file") {
            true => format!("{}: {text} (try again)", api.address()),
            false => format!("{}: {text}", api.address()),
        }
    };
    let live = api.first_load().map_err(at)?;
    let absent = drift::unlisted(&declared, &live);
    // A failed confirming read leaves those objects "not confirmed", never absent.
    let asked = api.ask(&live.report, &absent).unwrap_or_default();
    let behind = match (&args.repo, &rendered, drift::live_commit(&live)) {
        (Some(repo), Some(r), Some(l)) => distance(repo, &l, r),
        _ => None,
    };
    let drift = drift::judge(&drift::Input {
        declared: &declared,
        live: &live,
        asked: &asked,
        rendered: rendered.as_ref(),
        behind,
    });
    Ok(Judged {
        drift,
        address: live::printable(api.address()),
        render: args.render.clone(),
        rendered,
        fail_on: args.fail_on,
        origins: tree
            .flux
            .iter()
            .map(|(k, (o, _))| (k.clone(), o.clone()))
            .collect(),
        root: root_of(&live, &declared),
    })
}

fn root_of(live: &Cluster, declared: &Cluster) -> Option<ObjectKey> {
    live.root_source().or_else(|| declared.root_source())
}

/// How far the live commit is from the rendered one, as the clone at `repo` counts it
/// (`git rev-list --count` both ways); `None` when git or either commit is not there.
fn distance(repo: &Path, live: &Commit, rendered: &Commit) -> Option<Distance> {
    let count = |range: String| -> Option<usize> {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(repo)
            .args(["rev-list", "--count", &range])
            .stderr(std::process::Stdio::null())
            .output()
            .ok()?;
        if !out.status.success() {
            return None;
        }
        String::from_utf8_lossy(&out.stdout).trim().parse().ok()
    };
    let behind = count(format!("{}..{}", live.sha, rendered.sha))?;
    let ahead = count(format!("{}..{}", rendered.sha, live.sha))?;
    match (behind, ahead) {
        (0, 0) => None,
        (b, 0) => Some(Distance::Behind(b)),
        (0, a) => Some(Distance::Ahead(a)),
        _ => Some(Distance::Diverged),
    }
}

/// Runs the drift command: the text to print and whether it fails.
pub fn run(args: &DriftArgs) -> Result<crate::Outcome, String> {
    let judged = judge(args)?;
    let text = match args.format {
        Format::Markdown => output::markdown(&judged),
        Format::Json => pretty(output::json(&judged)),
        Format::Github => output::github(&judged),
        Format::Sarif => pretty(output::sarif(&judged)),
    };
    Ok(crate::Outcome {
        fails: judged.drift.fails(args.fail_on),
        text,
    })
}

fn pretty(v: serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}
