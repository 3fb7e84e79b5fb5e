//! Snapshot decoding is bounded and never panics, whatever the link holds.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = fluxlens_core::share::snapshot::decode(text);
        let _ = fluxlens_core::share::snapshot::decode(&format!("fl1.{text}"));
    }
});
