//! `fluxlens-check [--base BASE] HEAD`: exit 0 pass, 1 fail, 2 unreadable input or usage.

use fluxlens_check::args::{self, Command, USAGE};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let command = match args::parse(std::env::args_os().skip(1)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("fluxlens-check: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let args = match command {
        Command::Help => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Command::Version => {
            println!("fluxlens-check {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Command::Check(a) => a,
    };
    match fluxlens_check::run(&args) {
        Ok(outcome) => {
            // A closed pipe (`| head`) is not the check failing.
            let _ = std::io::stdout().write_all(outcome.text.as_bytes());
            ExitCode::from(u8::from(outcome.fails))
        }
        Err(e) => {
            eprintln!("fluxlens-check: {e}");
            ExitCode::from(2)
        }
    }
}
