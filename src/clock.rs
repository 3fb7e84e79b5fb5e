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
