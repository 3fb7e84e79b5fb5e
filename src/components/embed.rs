//! Embedding: the page posts its content height to the parent window so an iframe can size
//! itself (`{type: "fluxlens:height", height}`).

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;

/// Starts reporting the document height to `window.parent` when framed.
pub fn report_height() {
    let Some(w) = web_sys::window() else { return };
    let framed = w
        .parent()
        .ok()
        .flatten()
        .is_some_and(|p| !js_sys::Object::is(&p, &w));
    if !framed {
        return;
    }
    let last = std::cell::Cell::new(0i32);
    let tick = Closure::<dyn FnMut()>::new(move || {
        let Some(w) = web_sys::window() else { return };
        let Some(h) = w
            .document()
            .and_then(|d| d.document_element())
            .map(|e| e.scroll_height())
        else {
            return;
        };
        if h != last.get() {
            last.set(h);
            let msg = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&msg, &"type".into(), &"fluxlens:height".into());
            let _ = js_sys::Reflect::set(&msg, &"height".into(), &h.into());
            if let Ok(Some(p)) = w.parent() {
                let _ = p.post_message(&msg, "*");
            }
        }
    });
    // Polling at 4 Hz is cheap and catches every cause of a height change.
    let _ = w
        .set_interval_with_callback_and_timeout_and_arguments_0(tick.as_ref().unchecked_ref(), 250);
    tick.forget();
}
