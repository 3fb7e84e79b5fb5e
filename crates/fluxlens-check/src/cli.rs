//! The two front doors of the check: `fluxlens-check …` and the Flux CLI plugin
//! `flux-lens check …` (run by Flux as `flux lens check …`). The same flags, output and exit
//! codes: 0 pass, 1 fail, 2 unreadable input or usage.

use crate::args::{self, Command, USAGE};
use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

/// The plugin's usage: its commands, then the check's own.
pub const PLUGIN_USAGE: &str = "\
usage: flux lens check [--base BASE] [--format markdown|json|github|sarif]
                       [--profile upstream|enterprise|fips] [--fail-on info|low|medium|high|critical] HEAD
       flux lens check --clusters DIR [--format …] [--profile …] [--fail-on …]
       flux lens drift --live URL [--cookie C | --token T] [--ca-file PEM] [--revision SHA]
                       [--repo DIR] [--format …] [--fail-on …] RENDER
       flux lens version

fluxlens as a Flux CLI plugin: `flux lens check` is fluxlens-check (its flags, output and exit
codes); `flux lens drift` judges a render against a live Flux Operator status API, read-only
(fluxlens-check drift). Flux runs it from ~/.fluxcd/plugins/ (or $FLUXCD_PLUGINS): `flux plugin install lens`
from a catalog that lists it, or copy flux-lens from a release archive there.";

/// Which front door was used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Door {
    /// `fluxlens-check [flags] HEAD`.
    Check,
    /// `flux-lens check [flags] HEAD`, `flux-lens version`.
    Plugin,
}

impl Door {
    fn name(self) -> &'static str {
        match self {
            Door::Check => "fluxlens-check",
            Door::Plugin => "flux-lens",
        }
    }

    fn usage(self) -> &'static str {
        match self {
            Door::Check => USAGE,
            Door::Plugin => PLUGIN_USAGE,
        }
    }
}

/// Flux's global flags that take a value: Flux passes flags typed before the plugin's name on
/// to the plugin (`flux -n apps lens check …`). The check reads files, not a cluster, so they
/// are accepted and ignored.
const FLUX_VALUE_FLAGS: &[&str] = &[
    "-n",
    "--namespace",
    "--kubeconfig",
    "--context",
    "--timeout",
    "--cache-dir",
    "--as",
    "--as-group",
    "--as-uid",
    "--certificate-authority",
    "--client-certificate",
    "--client-key",
    "--cluster",
    "--server",
    "--tls-server-name",
    "--token",
    "--user",
    "--kube-api-qps",
    "--kube-api-burst",
];

/// The arguments from the plugin's command word on: Flux's global flags before it dropped.
fn without_flux_flags(mut args: Vec<OsString>) -> Vec<OsString> {
    let mut i = 0;
    while let Some(a) = args.get(i).and_then(|a| a.to_str()) {
        if !a.starts_with('-') || matches!(a, "-h" | "--help" | "-V" | "--version") {
            break;
        }
        let takes_value = FLUX_VALUE_FLAGS.contains(&a);
        i += if takes_value { 2 } else { 1 };
    }
    args.drain(..i.min(args.len()));
    args
}

/// Shell completion as Flux asks a plugin for it (`flux-lens __complete <words…>`): one
/// candidate a line, `value<TAB>description`, then the directive line (4: no file names,
/// 0: the shell's default, file names).
fn complete(words: &[OsString]) -> String {
    let words: Vec<&str> = words.iter().filter_map(|w| w.to_str()).collect();
    let current = words.last().copied().unwrap_or("");
    if words.len() <= 1 {
        let commands = [
            ("check", "Judge a change's rendered manifests"),
            ("drift", "Judge a render against the live cluster"),
            ("version", "Print the plugin's version"),
        ];
        let mut out: String = commands
            .iter()
            .filter(|(c, _)| c.starts_with(current))
            .map(|(c, d)| format!("{c}\t{d}\n"))
            .collect();
        out.push_str(":4\n");
        return out;
    }
    if current.starts_with('-') {
        let flags: &[&str] = match words.first().copied() {
            Some("drift") => &[
                "--live",
                "--cookie",
                "--token",
                "--ca-file",
                "--revision",
                "--repo",
                "--format",
                "--fail-on",
                "--help",
            ],
            _ => &[
                "--base",
                "--clusters",
                "--format",
                "--profile",
                "--fail-on",
                "--help",
            ],
        };
        let mut out: String = flags
            .iter()
            .filter(|f| f.starts_with(current))
            .map(|f| format!("{f}\n"))
            .collect();
        out.push_str(":4\n");
        return out;
    }
    let values: &[&str] = match words.get(words.len() - 2).copied() {
        Some("--format") => &["markdown", "json", "github", "sarif"],
        Some("--profile") => &["upstream", "enterprise", "fips"],
        Some("--fail-on") => &["info", "low", "medium", "high", "critical"],
        _ => return ":0\n".into(),
    };
    let mut out: String = values
        .iter()
        .filter(|v| v.starts_with(current))
        .map(|v| format!("{v}\n"))
        .collect();
    out.push_str(":4\n");
    out
}

/// What the plugin's first word asks for, and the arguments left for the check.
fn plugin_command(args: Vec<OsString>) -> Result<Command, String> {
    let mut args = without_flux_flags(args);
    if args.is_empty() {
        return Err("a command is missing: check, drift or version".into());
    }
    let first = args.remove(0);
    match first.to_str() {
        Some("check") => args::parse(args),
        Some("drift") => args::parse_drift(args, |name| std::env::var(name).ok()),
        Some("version") | Some("--version") | Some("-V") => Ok(Command::Version),
        Some("help") | Some("--help") | Some("-h") => Ok(Command::Help),
        _ => Err(format!(
            "{first:?} is not a command: check, drift or version"
        )),
    }
}

/// Runs one command line through `door` and says how it ended.
pub fn main(door: Door, args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let args: Vec<OsString> = args.into_iter().collect();
    if door == Door::Plugin && args.first().is_some_and(|a| a == "__complete") {
        print!("{}", complete(&args[1..]));
        return ExitCode::SUCCESS;
    }
    let parsed = match door {
        Door::Check => args::parse(args),
        Door::Plugin => plugin_command(args),
    };
    let command = match parsed {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{}: {e}\n\n{}", door.name(), door.usage());
            return ExitCode::from(2);
        }
    };
    let args = match command {
        Command::Help => {
            println!("{}", door.usage());
            return ExitCode::SUCCESS;
        }
        Command::Version => {
            println!("{} {}", door.name(), env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Command::Drift(d) => {
            let run = crate::drift::run(&d);
            return finish(run, &format!("{} drift", door.name()));
        }
        Command::Check(a) => a,
    };
    finish(crate::run(&args), door.name())
}

/// Prints what a run wrote and says how it ended: 0, 1 at --fail-on, 2 when it could not
/// run (the reason on stderr, after `name`).
fn finish(run: Result<crate::Outcome, impl std::fmt::Display>, name: &str) -> ExitCode {
    match run {
        Ok(outcome) => {
            // A closed pipe (`| head`) is not the check failing.
            let _ = std::io::stdout().write_all(outcome.text.as_bytes());
            ExitCode::from(u8::from(outcome.fails))
        }
        Err(e) => {
            eprintln!("{name}: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    #[test]
    fn flux_global_flags_before_the_command_are_ignored() {
        let left = without_flux_flags(os(&[
            "-n",
            "apps",
            "--verbose",
            "check",
            "--base",
            "b",
            "h",
        ]));
        assert_eq!(left, os(&["check", "--base", "b", "h"]));
        assert_eq!(without_flux_flags(os(&["--help"])), os(&["--help"]));
        assert!(matches!(
            plugin_command(os(&["--kubeconfig", "k", "version"])),
            Ok(Command::Version)
        ));
    }

    #[test]
    fn drift_takes_its_credentials_from_flags_or_the_environment() {
        let env = |name: &str| match name {
            "FLUXLENS_TOKEN" => Some("from-env".to_string()),
            _ => None,
        };
        let Ok(Command::Drift(d)) = args::parse_drift(
            os(&[
                "--live",
                "http://127.0.0.1:9080",
                "--revision",
                "abc1234",
                "r.yaml",
            ]),
            env,
        ) else {
            panic!("not a drift command")
        };
        assert_eq!(d.auth.token.as_deref(), Some("from-env"));
        assert_eq!(d.ca_file, None);
        assert_eq!(
            (d.auth.cookie, d.revision.as_deref()),
            (None, Some("abc1234"))
        );
        let Ok(Command::Drift(d)) = args::parse_drift(
            os(&["--live", "http://x", "--token", "flag", "r.yaml"]),
            env,
        ) else {
            panic!("not a drift command")
        };
        assert_eq!(d.auth.token.as_deref(), Some("flag"), "the flag wins");
        let missing = args::parse_drift(os(&["r.yaml"]), env).unwrap_err();
        assert!(missing.contains("--live"), "{missing}");
        assert!(matches!(
            plugin_command(os(&["drift", "--live", "http://x", "r.yaml"])),
            Ok(Command::Drift(_))
        ));
        assert!(matches!(
            args::parse(os(&["drift", "--live", "http://x", "r.yaml"])),
            Ok(Command::Drift(_))
        ));
        assert_eq!(complete(&os(&["drift", "--li"])), "--live\n:4\n");
        assert_eq!(complete(&os(&["drift", "--ca"])), "--ca-file\n:4\n");
        let ca_env = |name: &str| (name == "FLUXLENS_CA_FILE").then(|| "/etc/ca.pem".to_string());
        let with_ca = |flags: &[&str]| match args::parse_drift(os(flags), ca_env) {
            Ok(Command::Drift(d)) => d.ca_file,
            other => panic!("not a drift command: {other:?}"),
        };
        let from_env = with_ca(&["--live", "https://x", "r.yaml"]);
        assert_eq!(from_env, Some(std::path::PathBuf::from("/etc/ca.pem")));
        let from_flag = with_ca(&["--live", "https://x", "--ca-file", "mine.pem", "r.yaml"]);
        assert_eq!(from_flag, Some(std::path::PathBuf::from("mine.pem")));
    }

    #[test]
    fn completion_offers_commands_flags_and_values_in_flux_format() {
        assert_eq!(
            complete(&os(&["ch"])),
            "check\tJudge a change's rendered manifests\n:4\n"
        );
        assert_eq!(complete(&os(&["check", "--fo"])), "--format\n:4\n");
        assert_eq!(complete(&os(&["check", "--format", "s"])), "sarif\n:4\n");
        assert_eq!(
            complete(&os(&["check", "ren"])),
            ":0\n",
            "a path: the shell's files"
        );
    }
}
