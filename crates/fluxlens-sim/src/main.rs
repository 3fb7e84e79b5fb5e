//! fluxlens-sim: speaks the Flux Operator status API over scenario files, with fault
//! injection, and serves the built app on the same origin. Demo and e2e backend.

mod args;
mod clocks;
#[cfg(test)]
mod clusters_test;
mod computed;
#[cfg(test)]
mod conformance;
mod crd_schema;
#[cfg(test)]
mod deploy_kit;
#[cfg(test)]
mod drift_test;
mod faults;
mod filter;
mod fleet;
#[cfg(test)]
mod fleet_test;
#[cfg(test)]
mod guidance_truth;
mod helm_storage;
#[cfg(test)]
mod history_test;
mod http;
#[cfg(test)]
mod poller_test;
mod replay;
#[cfg(test)]
mod routes_test;
mod served;
#[cfg(test)]
mod server_cost;
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
    let app = match fleet_dir(&args.source) {
        Some(dir) => fleet_app(&dir, &args),
        None => single_app(&args),
    };
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

/// The scenario folder, when it holds a fleet (`fleet.json`).
fn fleet_dir(source: &Source) -> Option<PathBuf> {
    match source {
        Source::Scenario(p) => Some(scenario_dir(p)).filter(|d| d.join("fleet.json").is_file()),
        Source::Synthetic(..) => None,
    }
}

/// One cluster at the origin.
fn single_app(args: &args::Args) -> axum::Router {
    let store = match &args.source {
        Source::Synthetic(n, healthy) => store::Store::synthetic(*n, *healthy),
        Source::Scenario(p) => match store::Store::from_dir(&scenario_dir(p)) {
            // Served as a cluster read now would show it (replay.rs).
            Ok(mut s) => {
                replay::rebase(&mut s, replay::now_ms());
                s
            }
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
    http::router(http::AppState::new(
        store,
        args.faults.clone(),
        args.dist.clone(),
    ))
}

/// A fleet behind one origin (`fleet.rs`); the flags' faults apply to the hub's own paths.
fn fleet_app(dir: &Path, args: &args::Args) -> axum::Router {
    let fleet = match fleet::Fleet::from_dir(dir, args.dist.clone(), |name| {
        scenario_dir(Path::new(name))
    }) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("fluxlens-sim: cannot load fleet: {e}");
            std::process::exit(2);
        }
    };
    eprintln!(
        "fluxlens-sim: fleet of {} clusters, {} objects, serving http://{}/fleet",
        fleet.members.len(),
        fleet.objects(),
        args.addr
    );
    let hub = http::AppState::new(
        store::Store::synthetic(0, true),
        args.faults.clone(),
        args.dist.clone(),
    );
    fleet::router(&fleet, hub)
}
