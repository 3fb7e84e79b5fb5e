//! The command line.

use fluxlens_core::analyses::compliance::ProfileName;
use fluxlens_core::analyses::finding::Severity;
use std::path::PathBuf;

pub const USAGE: &str = "\
usage: fluxlens-check [--base BASE] [--format markdown|json|github|sarif] [--profile upstream|enterprise|fips]
                      [--fail-on info|low|medium|high|critical] HEAD
       fluxlens-check --clusters DIR [--format …] [--profile …] [--fail-on …]

Runs fluxlens's rules over the rendered manifests of a change (HEAD, and BASE when given: a
YAML or JSON file, or a directory of them) and reports what the change adds. With --clusters,
DIR holds one folder per cluster with its base.yaml and head.yaml: which clusters the change
touches, then each touched cluster's report; the exit code is the worst cluster's.
Exit: 0 nothing added at or above --fail-on (default high), 1 something is, 2 unreadable input.";

/// How the output is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Json,
    Github,
    Sarif,
}

/// The parsed command line.
#[derive(Debug, Clone, PartialEq)]
pub struct Args {
    pub base: Option<PathBuf>,
    pub head: PathBuf,
    /// `--clusters DIR`: one folder per cluster, each with its base and head (HEAD unused).
    pub clusters: Option<PathBuf>,
    pub format: Format,
    pub profile: ProfileName,
    pub fail_on: Severity,
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Check(Args),
    Help,
    Version,
}

/// Parses the command line; the error says what is wrong.
pub fn parse(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Command, String> {
    use lexopt::prelude::*;
    let mut p = lexopt::Parser::from_args(args);
    let (mut base, mut head, mut clusters) = (None, None, None);
    let (mut format, mut profile, mut fail_on) =
        (Format::Markdown, ProfileName::Upstream, Severity::High);
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Long("base") => base = Some(PathBuf::from(p.value().map_err(|e| e.to_string())?)),
            Long("clusters") => {
                clusters = Some(PathBuf::from(p.value().map_err(|e| e.to_string())?))
            }
            Long("format") => {
                format = match text(&mut p)?.as_str() {
                    "markdown" => Format::Markdown,
                    "json" => Format::Json,
                    "github" => Format::Github,
                    "sarif" => Format::Sarif,
                    other => {
                        return Err(format!(
                            "--format: {other:?} is not markdown, json, github or sarif"
                        ));
                    }
                }
            }
            Long("profile") => {
                let v = text(&mut p)?;
                profile = ProfileName::parse(&v).ok_or(format!(
                    "--profile: {v:?} is not upstream, enterprise or fips"
                ))?;
            }
            Long("fail-on") => {
                let v = text(&mut p)?;
                fail_on = Severity::parse(&v).ok_or(format!(
                    "--fail-on: {v:?} is not info, low, medium, high or critical"
                ))?;
            }
            Short('h') | Long("help") => return Ok(Command::Help),
            Short('V') | Long("version") => return Ok(Command::Version),
            Value(v) if head.is_none() => head = Some(PathBuf::from(v)),
            other => return Err(other.unexpected().to_string()),
        }
    }
    if clusters.is_some() && (base.is_some() || head.is_some()) {
        return Err("--clusters takes each cluster's base and head from its folder: no --base or HEAD with it".into());
    }
    let head = match &clusters {
        Some(dir) => dir.clone(),
        None => head.ok_or("the head's rendered manifests (HEAD) are missing")?,
    };
    Ok(Command::Check(Args {
        base,
        head,
        clusters,
        format,
        profile,
        fail_on,
    }))
}

fn text(p: &mut lexopt::Parser) -> Result<String, String> {
    p.value()
        .map_err(|e| e.to_string())?
        .into_string()
        .map_err(|_| "an option's value is not valid UTF-8".to_string())
}
