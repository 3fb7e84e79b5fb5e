//! Wall-clock times as the page shows them.

/// `HH:MM:SS` of a time in ms since the epoch, in the viewer's time zone.
pub fn clock(ms: f64) -> String {
    let d = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms));
    String::from(d.to_locale_time_string("en-GB"))
}
