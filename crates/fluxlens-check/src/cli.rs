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
       flux lens version

fluxlens as a Flux CLI plugin: `flux lens check` is fluxlens-check (its flags, output and exit
codes). Install with `flux plugin install lens`, or put flux-lens on the PATH.";

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

/// What the plugin's first word asks for, and the arguments left for the check.
fn plugin_command(mut args: Vec<OsString>) -> Result<Command, String> {
    if args.is_empty() {
        return Err("a command is missing: check or version".into());
    }
    let first = args.remove(0);
    match first.to_str() {
        Some("check") => args::parse(args),
        Some("version") | Some("--version") | Some("-V") => Ok(Command::Version),
        Some("help") | Some("--help") | Some("-h") => Ok(Command::Help),
        _ => Err(format!("{first:?} is not a command: check or version")),
    }
}

/// Runs one command line through `door` and says how it ended.
pub fn main(door: Door, args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let args: Vec<OsString> = args.into_iter().collect();
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
        Command::Check(a) => a,
    };
    match crate::run(&args) {
        Ok(outcome) => {
            // A closed pipe (`| head`) is not the check failing.
            let _ = std::io::stdout().write_all(outcome.text.as_bytes());
            ExitCode::from(u8::from(outcome.fails))
        }
        Err(e) => {
            eprintln!("{}: {e}", door.name());
            ExitCode::from(2)
        }
    }
}
