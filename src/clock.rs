//! Wall-clock times as the page shows them: UTC, saying so, with the date when not today
//! (`fluxlens_core::util::time::shown`). Formatted in core: the locale formatter cost a
//! millisecond each poll on a page left open (#23).

/// A time in ms since the epoch as the page shows it (`13:42:22 UTC`, or with its date).
pub fn clock(ms: f64) -> String {
    fluxlens_core::util::time::shown(ms as i64, js_sys::Date::now() as i64)
}

/// A captured moment, always with its date (`2026-12-04 13:42:22 UTC`).
pub fn dated(ms: i64) -> String {
    fluxlens_core::util::time::shown_dated(ms)
}
