//! The pre-merge check's reader (#26): any bytes as a YAML or JSON file, then the tree, the
//! model and every analysis. It may refuse the input with a message; it must never panic,
//! hang or grow without bound.
#![no_main]

use fluxlens_check::analysis::{ProfileName, analyse};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for name in ["render.yaml", "render.json"] {
        let Ok(manifests) = fluxlens_check::read::file(Path::new(name), text) else {
            continue;
        };
        if let Ok(tree) = fluxlens_check::tree::build(manifests) {
            let _ = analyse(&tree, ProfileName::Fips, &Default::default());
        }
    }
});
