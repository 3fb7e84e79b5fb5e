//! `fluxlens-check [--base BASE] HEAD`: exit 0 pass, 1 fail, 2 unreadable input or usage.

use fluxlens_check::cli::{self, Door};

fn main() -> std::process::ExitCode {
    cli::main(Door::Check, std::env::args_os().skip(1))
}
