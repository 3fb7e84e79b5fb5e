//! Command-line flags.

use crate::faults::Faults;
use std::path::PathBuf;

/// Where the cluster data comes from.
#[derive(Debug, Clone)]
pub enum Source {
    /// A scenario folder (or the name of one under `scenarios/`).
    Scenario(PathBuf),
    /// `--synthetic N` (a few dangling references) or `--synthetic-healthy N` (none).
    Synthetic(usize, bool),
}

/// Parsed flags.
#[derive(Debug, Clone)]
pub struct Args {
    pub addr: String,
    pub source: Source,
    pub dist: Option<PathBuf>,
    /// Sub-path the app is mounted at (`/fluxlens/`), for the stand-in status page.
    pub faults: Faults,
}

pub const USAGE: &str = "fluxlens-sim [--addr 127.0.0.1:8080] [--scenario NAME|DIR | --synthetic N | --synthetic-healthy N] [--dist DIR]
  server/user: [--one-instant] [--search-cached] [--namespaces a,b] [--fail-list Kind,Kind] [--forbid-kind Kind@ns,..] [--ui-stand-in] [--operator-version v0.52.0] [--auth none|anonymous|oidc]
  faults: [--latency-ms N] [--error-rate 0..1] [--oidc] [--malformed] [--html] [--drop] [--down] [--crds-forbidden] [--report-placeholder]
  control at runtime: GET /__sim/faults?latency-ms=..&error-rate=..&oidc=1&malformed=1&html=1&drop=1&down=1&big=1&reset=1
  clocks (report, index and namespaces refreshed every 20 s): GET /__sim/clock?advance=MS&refresh=1&hold=1|0&restart=1
  cluster edits: GET /__sim/set-ready?object=K/ns/n&ready=0&message=.., /__sim/delete?object=.., /__sim/set-spec?object=..&field=suspend&value=true, /__sim/create?object=K/ns/n&like=K/ns/other, /__sim/apply?object=..&revision=..
  the scenario's render (fixed at start): GET /__sim/render.yaml
  request log: GET /__sim/log";

/// Parses `std::env::args`-style flags.
pub fn parse(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args {
        addr: "127.0.0.1:8080".into(),
        source: Source::Scenario("demo".into()),
        dist: None,
        faults: Faults::default(),
    };
    while let Some(flag) = it.next() {
        let mut val = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match flag.as_str() {
            "--addr" => a.addr = val("--addr")?,
            "--scenario" => a.source = Source::Scenario(val("--scenario")?.into()),
            "--synthetic" | "--synthetic-healthy" => {
                let n = val(&flag)?
                    .parse()
                    .map_err(|_| format!("{flag} takes a number"))?;
                a.source = Source::Synthetic(n, flag == "--synthetic-healthy");
            }
            "--dist" => a.dist = Some(val("--dist")?.into()),
            "-h" | "--help" => return Err(USAGE.into()),
            other => {
                let key = other.trim_start_matches("--");
                let takes_value = matches!(
                    key,
                    "latency-ms"
                        | "error-rate"
                        | "namespaces"
                        | "fail-list"
                        | "forbid-kind"
                        | "operator-version"
                        | "auth"
                );
                let v = if takes_value { val(other)? } else { "1".into() };
                if !a.faults.set(key, &v) {
                    return Err(format!("unknown flag {other}\n{USAGE}"));
                }
            }
        }
    }
    Ok(a)
}
