//! The only module that talks HTTP. Relative `/api/v1/...` URLs under a base path, every
//! answer classified by `fluxlens_core::error`, deadlines by `AbortController`, and a
//! read-only allowlist checked before anything is sent.

mod endpoints;
pub mod loader;
pub mod object_events;

pub use fluxlens_core::error::ApiError;

use gloo_net::http::{Request, RequestBuilder};
use wasm_bindgen::JsCast;

/// Deadline for one request.
pub const TIMEOUT_SECONDS: u32 = 30;

/// The path prefix the app and the API live under (`""` at the root, `/fluxlens` under a
/// sub-path). Read from `<meta name="fluxlens-api-base">`, so one build serves both.
pub fn base_path() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector("meta[name=fluxlens-api-base]")
                .ok()
                .flatten()
        })
        .and_then(|m| m.get_attribute("content"))
        .map(|s| s.trim_end_matches('/').to_string())
        .unwrap_or_default()
}

fn cookies() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.dyn_into::<web_sys::HtmlDocument>().ok())
        .and_then(|d| d.cookie().ok())
        .unwrap_or_default()
}

fn page_origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

/// Sends a request with a deadline and returns the JSON body text, or a typed error.
async fn send(
    method: &str,
    path: &str,
    build: impl FnOnce(RequestBuilder) -> Result<Request, gloo_net::Error>,
) -> Result<String, ApiError> {
    if !fluxlens_core::api::is_allowed(method, path) {
        return Err(ApiError::Refused(format!("{method} {path}")));
    }
    let url = format!("{}{}", base_path(), path);
    let controller = web_sys::AbortController::new()
        .map_err(|_| ApiError::Network("no AbortController".into()))?;
    let signal = controller.signal();
    let builder = match method {
        "POST" => Request::post(&url),
        _ => Request::get(&url),
    }
    .abort_signal(Some(&signal));
    let request = build(builder).map_err(|e| ApiError::Network(e.to_string()))?;
    let timed_out = std::rc::Rc::new(std::cell::Cell::new(false));
    {
        let (controller, timed_out) = (controller.clone(), timed_out.clone());
        wasm_bindgen_futures::spawn_local(async move {
            gloo_timers::future::TimeoutFuture::new(TIMEOUT_SECONDS * 1000).await;
            timed_out.set(true);
            controller.abort();
        });
    }
    let result = async {
        let resp = request
            .send()
            .await
            .map_err(|e| ApiError::Network(e.to_string()))?;
        let status = resp.status();
        let ct = resp.headers().get("content-type").unwrap_or_default();
        let body = resp
            .text()
            .await
            .map_err(|e| ApiError::Network(e.to_string()))?;
        fluxlens_core::error::classify(status, &ct, &body, &cookies(), &page_origin())?;
        Ok(body)
    }
    .await;
    if timed_out.get() {
        return Err(ApiError::Timeout {
            seconds: TIMEOUT_SECONDS,
        });
    }
    // Done: cancel the deadline's effect (aborting a finished request is harmless).
    result
}

/// The response `index.html`'s inline script already asked for (`window.__fluxlensPrefetch`),
/// taken once: the first load does not wait for the wasm to start its requests.
fn take_prefetch(path: &str) -> Option<js_sys::Promise> {
    let window = web_sys::window()?;
    let map = js_sys::Reflect::get(&window, &"__fluxlensPrefetch".into()).ok()?;
    if !map.is_object() {
        return None;
    }
    let key = wasm_bindgen::JsValue::from_str(path);
    let value = js_sys::Reflect::get(&map, &key).ok()?;
    let _ = js_sys::Reflect::delete_property(map.unchecked_ref::<js_sys::Object>(), &key);
    value.dyn_into::<js_sys::Promise>().ok()
}

/// Reads a prefetched response through the same classification as any other; `None` when the
/// prefetch itself failed (the caller then asks again).
async fn adopt(promise: js_sys::Promise) -> Option<Result<String, ApiError>> {
    let deadline = gloo_timers::future::TimeoutFuture::new(TIMEOUT_SECONDS * 1000);
    let fetched = wasm_bindgen_futures::JsFuture::from(promise);
    let resp = match futures_util::future::select(Box::pin(fetched), deadline).await {
        futures_util::future::Either::Left((Ok(v), _)) => v.dyn_into::<web_sys::Response>().ok()?,
        futures_util::future::Either::Left((Err(_), _)) => return None,
        futures_util::future::Either::Right(_) => {
            return Some(Err(ApiError::Timeout {
                seconds: TIMEOUT_SECONDS,
            }));
        }
    };
    let ct = resp
        .headers()
        .get("content-type")
        .ok()
        .flatten()
        .unwrap_or_default();
    let body = match resp.text() {
        Ok(p) => wasm_bindgen_futures::JsFuture::from(p)
            .await
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default(),
        Err(_) => return None,
    };
    Some(
        fluxlens_core::error::classify(resp.status(), &ct, &body, &cookies(), &page_origin())
            .map(|()| body),
    )
}

/// `GET path?query` decoded as `T`.
pub async fn get_json<T: serde::de::DeserializeOwned>(
    path: &str,
    query: &[(&str, &str)],
) -> Result<T, ApiError> {
    fluxlens_core::error::decode(&get_text(path, query).await?)
}

/// `GET path?query` as text, undecoded: a poll compares it with the last answer before
/// paying for decoding (#23).
pub async fn get_text(path: &str, query: &[(&str, &str)]) -> Result<String, ApiError> {
    let pairs: Vec<(String, String)> = query
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    if pairs.is_empty()
        && fluxlens_core::api::is_allowed("GET", path)
        && let Some(p) = take_prefetch(path)
        && let Some(body) = adopt(p).await
    {
        return body;
    }
    send("GET", path, |b| {
        b.query(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .build()
    })
    .await
}

/// `POST path` with a JSON body (read-only endpoints only), decoded as `T`.
pub async fn post_json<B: serde::Serialize, T: serde::de::DeserializeOwned>(
    path: &str,
    body: &B,
) -> Result<T, ApiError> {
    fluxlens_core::error::decode(&post_text(path, body).await?)
}

/// `POST path` with a JSON body, the answer as text (see [`get_text`]).
pub async fn post_text<B: serde::Serialize>(path: &str, body: &B) -> Result<String, ApiError> {
    let text = serde_json::to_string(body).map_err(|e| ApiError::Decode(e.to_string()))?;
    send("POST", path, |b| {
        b.header("Content-Type", "application/json").body(text)
    })
    .await
}
