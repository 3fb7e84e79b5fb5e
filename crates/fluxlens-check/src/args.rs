//! The command line.

use fluxlens_core::analyses::compliance::ProfileName;
use fluxlens_core::analyses::finding::Severity;
use std::path::PathBuf;

pub const USAGE: &str = "\
usage: fluxlens-check [--base BASE] [--format markdown|json|github|sarif] [--profile upstream|enterprise|fips]
                      [--fail-on info|low|medium|high|critical] HEAD
       fluxlens-check --clusters DIR [--format …] [--profile …] [--fail-on …]
       fluxlens-check drift --live URL [--cookie C | --token T] [--ca-file PEM] [--revision SHA]
                      [--repo DIR] [--format …] [--fail-on …] RENDER

Runs fluxlens's rules over the rendered manifests of a change (HEAD, and BASE when given: a
YAML or JSON file, or a directory of them) and reports what the change adds. With --clusters,
DIR holds one folder per cluster with its base.yaml and head.yaml: which clusters the change
touches, then each touched cluster's report; the exit code is the worst cluster's.
drift judges a render (what `check` takes as HEAD) against a live Flux Operator status API,
read-only: what is declared and absent, what runs undeclared, the delivery fields and verify
that differ, the commit the root applied. --cookie (FLUXLENS_COOKIE) is the operator's session
cookie, --token (FLUXLENS_TOKEN) a bearer for a proxy in front; neither is ever printed. An
https:// address is verified against Mozilla's roots, or only the CAs of --ca-file
(FLUXLENS_CA_FILE) for a private one; verification is never turned off.
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

/// The drift command line.
#[derive(Debug, Clone, PartialEq)]
pub struct DriftArgs {
    /// The status API's address.
    pub live: String,
    pub auth: Auth,
    /// The CAs an `https://` address is verified against instead of Mozilla's roots (PEM).
    pub ca_file: Option<PathBuf>,
    /// The commit the render was made from.
    pub revision: Option<String>,
    /// A clone that holds both commits, to count how far apart they are.
    pub repo: Option<PathBuf>,
    pub render: PathBuf,
    pub format: Format,
    pub fail_on: Severity,
}

/// How the API is signed in to: the operator's own session cookie (its web UI's, copied from
/// a browser), or a bearer token for a proxy in front of it. The operator's API itself takes
/// no tokens.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Auth {
    pub cookie: Option<String>,
    pub token: Option<String>,
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Check(Args),
    Drift(DriftArgs),
    Help,
    Version,
}

/// Parses the command line (`drift …` or the check's own); the error says what is wrong.
pub fn parse(args: impl IntoIterator<Item = std::ffi::OsString>) -> Result<Command, String> {
    let mut args: Vec<std::ffi::OsString> = args.into_iter().collect();
    if args.first().is_some_and(|a| a == "drift") {
        args.remove(0);
        return parse_drift(args, |name| std::env::var(name).ok());
    }
    parse_check(args)
}

fn format_of(v: &str) -> Result<Format, String> {
    match v {
        "markdown" => Ok(Format::Markdown),
        "json" => Ok(Format::Json),
        "github" => Ok(Format::Github),
        "sarif" => Ok(Format::Sarif),
        other => Err(format!(
            "--format: {other:?} is not markdown, json, github or sarif"
        )),
    }
}

fn fail_on_of(v: &str) -> Result<Severity, String> {
    Severity::parse(v).ok_or(format!(
        "--fail-on: {v:?} is not info, low, medium, high or critical"
    ))
}

/// `drift --live URL [--cookie C] [--token T] [--ca-file PEM] [--revision SHA] [--repo DIR]
/// RENDER`; `env` reads FLUXLENS_COOKIE, FLUXLENS_TOKEN and FLUXLENS_CA_FILE where no flag
/// gives them.
pub fn parse_drift(
    args: Vec<std::ffi::OsString>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Command, String> {
    use lexopt::prelude::*;
    let mut p = lexopt::Parser::from_args(args);
    let (mut live, mut cookie, mut token, mut revision, mut repo, mut render) =
        (None, None, None, None, None, None);
    let mut ca_file = None;
    let (mut format, mut fail_on) = (Format::Markdown, Severity::High);
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Long("live") => live = Some(text(&mut p)?),
            Long("cookie") => cookie = Some(text(&mut p)?),
            Long("token") => token = Some(text(&mut p)?),
            Long("ca-file") => ca_file = Some(PathBuf::from(p.value().map_err(|e| e.to_string())?)),
            Long("revision") => revision = Some(text(&mut p)?),
            Long("repo") => repo = Some(PathBuf::from(p.value().map_err(|e| e.to_string())?)),
            Long("format") => format = format_of(&text(&mut p)?)?,
            Long("fail-on") => fail_on = fail_on_of(&text(&mut p)?)?,
            Short('h') | Long("help") => return Ok(Command::Help),
            Value(v) if render.is_none() => render = Some(PathBuf::from(v)),
            other => return Err(other.unexpected().to_string()),
        }
    }
    let live = live.ok_or("drift: --live URL (the Flux Operator's status API) is missing")?;
    let render = render.ok_or("drift: the render (RENDER) is missing")?;
    let auth = Auth {
        cookie: cookie
            .or_else(|| env("FLUXLENS_COOKIE"))
            .filter(|c| !c.is_empty()),
        token: token
            .or_else(|| env("FLUXLENS_TOKEN"))
            .filter(|t| !t.is_empty()),
    };
    let ca_file = ca_file.or_else(|| {
        env("FLUXLENS_CA_FILE")
            .filter(|f| !f.is_empty())
            .map(PathBuf::from)
    });
    Ok(Command::Drift(DriftArgs {
        live,
        auth,
        ca_file,
        revision,
        repo,
        render,
        format,
        fail_on,
    }))
}

fn parse_check(args: Vec<std::ffi::OsString>) -> Result<Command, String> {
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
            Long("format") => format = format_of(&text(&mut p)?)?,
            Long("profile") => {
                let v = text(&mut p)?;
                profile = ProfileName::parse(&v).ok_or(format!(
                    "--profile: {v:?} is not upstream, enterprise or fips"
                ))?;
            }
            Long("fail-on") => fail_on = fail_on_of(&text(&mut p)?)?,
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
