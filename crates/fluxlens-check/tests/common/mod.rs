//! What the binaries' tests share: the fixture render, edited copies of it, and a run.
// Each test file uses its own part of these.
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

pub const BIN: &str = env!("CARGO_BIN_EXE_fluxlens-check");
/// The Flux CLI plugin: `flux-lens check …` is the same check.
pub const PLUGIN: &str = env!("CARGO_BIN_EXE_flux-lens");

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

pub fn base() -> PathBuf {
    fixtures().join("base")
}

/// A fresh directory under the target's temp space.
pub fn scratch() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "fluxlens-check-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The base render with textual edits `(file, from, to)`; each `from` must be there.
pub fn head_with(edits: &[(&str, &str, &str)]) -> PathBuf {
    let dir = scratch();
    for entry in std::fs::read_dir(base()).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        let mut text = std::fs::read_to_string(&p).unwrap();
        for (file, from, to) in edits.iter().filter(|(f, _, _)| *f == name) {
            assert!(text.contains(from), "{file} has no {from:?}");
            text = text.replacen(from, to, 1);
        }
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("{e}: {} {}", self.stdout, self.stderr))
    }
}

pub fn run(args: &[&str]) -> Run {
    run_bin(BIN, args)
}

/// Runs `bin` with `args`.
pub fn run_bin(bin: &str, args: &[&str]) -> Run {
    let out = Command::new(bin).args(args).output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

pub fn check(head: &Path, extra: &[&str]) -> Run {
    let b = base();
    let mut args = vec!["--base", b.to_str().unwrap(), "--format", "json"];
    args.extend_from_slice(extra);
    args.push(head.to_str().unwrap());
    run(&args)
}
