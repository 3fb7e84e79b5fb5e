//! fluxlens-check: the dashboard's rules over the rendered manifests of a GitOps change,
//! before it lands. Native only; never linked into the wasm app.
//!
//! Manifests ([`read`]) → the tree ([`tree`]) → the same cluster model as the dashboard's
//! ([`cluster`]) → its analyses ([`analysis`]) → base against head ([`diff`]) → [`output`].

pub mod analysis;
pub mod args;
pub mod chart;
pub mod cli;
pub mod cluster;
pub mod clusters;
pub mod declared;
pub mod diff;
pub mod drift;
pub mod order;
pub mod output;
pub mod read;
pub mod tree;

use args::{Args, Format};
use read::InputError;

/// Reads one tree.
pub fn tree_at(path: &std::path::Path) -> Result<tree::Tree, InputError> {
    fluxlens_core::render::tree_of(read::tree(path)?)
}

/// Reads and analyses one tree on its own.
pub fn analyse_path(
    path: &std::path::Path,
    profile: analysis::ProfileName,
) -> Result<analysis::Analysis, InputError> {
    Ok(analysis::analyse(
        &tree_at(path)?,
        profile,
        &Default::default(),
    ))
}

/// The head, judged against the base: what the base held and the head removes counts as
/// deleted by this change (revision 5).
pub(crate) fn analyse_head(
    path: &std::path::Path,
    profile: analysis::ProfileName,
    base: Option<&analysis::Analysis>,
) -> Result<analysis::Analysis, InputError> {
    let t = tree_at(path)?;
    let deleted = base
        .map(|b| {
            b.manifests
                .keys()
                .filter(|k| !t.flux.contains_key(*k))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    Ok(analysis::analyse(&t, profile, &deleted))
}

/// What a run prints, and whether it fails the change.
pub struct Outcome {
    pub text: String,
    pub fails: bool,
}

/// Runs the check the arguments ask for.
pub fn run(args: &Args) -> Result<Outcome, InputError> {
    if let Some(dir) = &args.clusters {
        let runs = clusters::read(dir, args.profile)?;
        return Ok(clusters::render_all(
            &runs,
            args.format,
            args.fail_on,
            args.profile,
        ));
    }
    let base = args
        .base
        .as_deref()
        .map(|b| analyse_path(b, args.profile))
        .transpose()?;
    let head = analyse_head(&args.head, args.profile, base.as_ref())?;
    let change = diff::diff(base.as_ref(), &head);
    let report = output::Report {
        change: &change,
        fail_on: args.fail_on,
        profile: args.profile,
        has_base: base.is_some(),
    };
    let pretty = |v: serde_json::Value| {
        let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
        s.push('\n');
        s
    };
    let places = output::sarif::Places {
        origins: &head.origins,
        root: head.root.as_ref(),
    };
    let text = match args.format {
        Format::Markdown => output::markdown::render(&report),
        Format::Json => pretty(output::json::render(&report)),
        Format::Github => output::github::render(&report, &places),
        Format::Sarif => pretty(output::sarif::render(&report, &places)),
    };
    Ok(Outcome {
        text,
        fails: report.fails(),
    })
}
