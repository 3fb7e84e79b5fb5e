//! The one seam between the page's own scripts and the app: everything they hand each other, typed.
//!
//! `index.html` inlines two scripts that run before the wasm has arrived: `prefetch.js` sends the
//! first load's API reads at once, and `prepaint.js` paints the report's facts as text. Both
//! share one object, `window.fluxlensPage` ([`PageScript`]), which `prefetch.js` sets first:
//!
//! | member          | set by      | what it is                                                 |
//! |-----------------|-------------|------------------------------------------------------------|
//! | `take(key)`     | prefetch.js | the answer to `GET key` (path and query) it sent, once      |
//! | `takeBatches()` | prefetch.js | the object batches it posted (`{body, response}`), once     |
//! | `kinds`         | prefetch.js | resolves once it has sent the lists by kind                 |
//! | `reads`         | prefetch.js | resolves once it has sent every read it sends               |
//! | `reported`      | prefetch.js | the report, for `prepaint.js`                               |
//! | `mounted`       | the app     | the app is on screen: `prepaint.js` paints nothing more      |
//!
//! An answer is `{status, contentType, text}` ([`Answer`]), read whole by the script. Where the
//! script sent nothing (a snapshot link, the fleet page, a page without it) every member is
//! absent and the app asks for itself. The build adds an event, `fluxlens:wasm-started`,
//! dispatched by the app's module script once the module runs, and the page's meta tags say where
//! things are: `fluxlens-base` (the app under a path, `src/base.rs`), `fluxlens-assets` (the files
//! beside the page) and, where a deployment sets it, `fluxlens-api-base` (`super::base_path`).

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::wasm_bindgen;

/// The global the page's scripts share.
const GLOBAL: &str = "fluxlensPage";

#[wasm_bindgen]
extern "C" {
    /// `window.fluxlensPage` (see the module's doc).
    pub type PageScript;
    #[wasm_bindgen(method)]
    fn take(this: &PageScript, key: &str) -> Option<js_sys::Promise>;
    #[wasm_bindgen(method, js_name = takeBatches)]
    fn take_batches(this: &PageScript) -> Option<js_sys::Array>;
    #[wasm_bindgen(method, getter)]
    fn kinds(this: &PageScript) -> Option<js_sys::Promise>;
    #[wasm_bindgen(method, getter)]
    fn reads(this: &PageScript) -> Option<js_sys::Promise>;
    #[wasm_bindgen(method, setter)]
    fn set_mounted(this: &PageScript, mounted: bool);

    /// One object batch the script posted.
    pub type Batch;
    #[wasm_bindgen(method, getter)]
    pub fn body(this: &Batch) -> Option<String>;
    /// Resolves to an [`Answer`]; rejects when the request failed outright.
    #[wasm_bindgen(method, getter)]
    pub fn response(this: &Batch) -> Option<js_sys::Promise>;

    /// An answer as the script read it.
    pub type Answer;
    #[wasm_bindgen(method, getter)]
    pub fn status(this: &Answer) -> Option<u16>;
    #[wasm_bindgen(method, getter, js_name = contentType)]
    pub fn content_type(this: &Answer) -> Option<String>;
    #[wasm_bindgen(method, getter)]
    pub fn text(this: &Answer) -> Option<js_sys::JsString>;
}

/// How far the script has gone in sending its reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stage {
    /// The lists by kind the report names are sent.
    Kinds,
    /// Every read it sends is sent: the object batches and the instance's events too.
    Reads,
}

/// The page's shared object; `None` where the page has no script.
fn page() -> Option<PageScript> {
    let window = web_sys::window()?;
    let value = js_sys::Reflect::get(&window, &GLOBAL.into()).ok()?;
    value.is_object().then(|| value.unchecked_into())
}

/// The answer to `GET key` the script sent, taken once.
pub fn take(key: &str) -> Option<js_sys::Promise> {
    page()?.take(key)
}

/// The object batches the script posted, taken once.
pub fn take_batches() -> Vec<Batch> {
    page()
        .and_then(|p| p.take_batches())
        .map(|a| a.iter().map(JsCast::unchecked_into).collect())
        .unwrap_or_default()
}

/// What resolves once the script has reached `stage`; `None` when it sends nothing.
pub fn stage(stage: Stage) -> Option<js_sys::Promise> {
    let page = page()?;
    match stage {
        Stage::Kinds => page.kinds(),
        Stage::Reads => page.reads(),
    }
}

/// Tells the page's scripts that the app is on screen.
pub fn say_mounted() {
    if let Some(page) = page() {
        page.set_mounted(true);
    }
}
