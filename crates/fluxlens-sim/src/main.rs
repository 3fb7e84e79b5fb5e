//! fluxlens-sim: speaks the Flux Operator status API over scenario files, with fault
//! injection, and serves the built app on the same origin. Demo and e2e backend.

mod args;
#[cfg(test)]
mod conformance;
#[cfg(test)]
mod deploy_kit;
mod faults;
mod filter;
mod helm_storage;
mod http;
#[cfg(test)]
mod routes_test;
mod served;
#[cfg(test)]
mod snapshot_truth;
mod store;
#[cfg(test)]
mod truth;

use args::Source;
use std::path::{Path, PathBuf};

#[tokio::main]
async fn main() {
    let args = match args::parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(msg) => {
            eprintln!("{msg}");
            std::process::exit(2);
        }
    };
    let store = match &args.source {
        Source::Synthetic(n, healthy) => store::Store::synthetic(*n, *healthy),
        Source::Scenario(p) => match store::Store::from_dir(&scenario_dir(p)) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("fluxlens-sim: cannot load scenario: {e}");
                std::process::exit(2);
            }
        },
    };
    eprintln!(
        "fluxlens-sim: {} objects, serving http://{}",
        store.entries.len(),
        args.addr
    );
    let state = http::AppState::new(store, args.faults, args.dist);
    let app = http::router(state);
    let listener = match tokio::net::TcpListener::bind(&args.addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("fluxlens-sim: cannot listen on {}: {e}", args.addr);
            std::process::exit(1);
        }
    };
    axum::serve(listener, app).await.expect("server failed");
}

/// A scenario name resolves to `scenarios/<name>` next to the workspace; a path is used as is.
fn scenario_dir(p: &Path) -> PathBuf {
    if p.is_dir() {
        return p.to_path_buf();
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .join(p)
}
