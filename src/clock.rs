//! Wall-clock times as the page shows them.

/// `HH:MM:SS` of a time in ms since the epoch, in the viewer's time zone. Formatted here: the
/// locale formatter cost a millisecond each poll on a page left open (#23).
pub fn clock(ms: f64) -> String {
    let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms));
    format!(
        "{:02}:{:02}:{:02}",
        d.get_hours(),
        d.get_minutes(),
        d.get_seconds()
    )
}

/// [`clock`] for a time today; with its date (`2026-12-01 14:02:11`) for an earlier day, as the
/// last visit's data may be.
pub fn moment(ms: f64) -> String {
    let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms));
    let now = js_sys::Date::new_0();
    let same_day = d.get_full_year() == now.get_full_year()
        && d.get_month() == now.get_month()
        && d.get_date() == now.get_date();
    if same_day {
        return clock(ms);
    }
    format!(
        "{}-{:02}-{:02} {}",
        d.get_full_year(),
        d.get_month() + 1,
        d.get_date(),
        clock(ms)
    )
}
