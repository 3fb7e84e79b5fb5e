//! `flux-lens`: the check as a Flux CLI plugin (`flux lens check …`, RFC-0013): the same
//! flags, output and exit codes as `fluxlens-check`.

use fluxlens_check::cli::{self, Door};

fn main() -> std::process::ExitCode {
    cli::main(Door::Plugin, std::env::args_os().skip(1))
}
