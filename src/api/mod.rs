//! The only module that talks HTTP. Relative `/api/v1/...` URLs under a base path, every
//! answer classified by `fluxlens_core::wire::error`, sent and read off the main thread by a worker
//! (`reader.rs`) where one runs, with a deadline, and a read-only allowlist checked before
//! anything is sent.

pub mod drift;
mod endpoints;
pub mod fleet;
mod fleet_drift;
pub mod last_visit;
pub mod loader;
pub mod object_events;
pub mod page_script;
mod reader;
pub mod visits;
pub mod window_events;

pub use endpoints::Api;
pub use fluxlens_core::wire::error::ApiError;

use gloo_net::http::Request;
use wasm_bindgen::JsCast;

/// Deadline for one request.
pub const TIMEOUT_SECONDS: u32 = fluxlens_core::load::REQUEST_TIMEOUT_SECONDS;

/// A response body as the browser holds it. A poll compares it with the last answer to the
/// same request inside the browser (`==` is JS `===` on two strings), so an unchanged answer is
/// never copied into wasm memory nor decoded (#23: the copy alone cost 7 ms a poll at 5,000).
#[derive(Clone, PartialEq)]
pub struct Body(js_sys::JsString);

impl Body {
    /// The text, copied into wasm memory: encoded to UTF-8 by the browser, then one copy.
    /// (`String::from(&JsString)` first walks the text a character at a time in the bindings'
    /// JS: ≈ 5 ms for the demo's 300 KB of first reads, on the first view's path, #51.)
    pub fn text(&self) -> String {
        let bytes = Utf8Encoder::new().encode(&self.0).to_vec();
        // A TextEncoder writes valid UTF-8 (a lone surrogate becomes U+FFFD), so this never
        // copies again.
        String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into())
    }
}

impl From<js_sys::JsString> for Body {
    fn from(text: js_sys::JsString) -> Self {
        Body(text)
    }
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The browser's `TextEncoder`, taking a JS string as it is (web-sys's takes a `&str`).
    #[wasm_bindgen(js_name = TextEncoder)]
    type Utf8Encoder;
    #[wasm_bindgen(constructor, js_class = "TextEncoder")]
    fn new() -> Utf8Encoder;
    #[wasm_bindgen(method, js_class = "TextEncoder")]
    fn encode(this: &Utf8Encoder, text: &js_sys::JsString) -> js_sys::Uint8Array;
}

impl fluxlens_core::load::poll::Text for Body {
    fn text(&self) -> String {
        Body::text(self)
    }
}

/// The path prefix of the API: `""` (the API at `/api/` on the page's origin, as both deploy
/// modes serve it, also with fluxlens under `/fluxlens/`); a fleet cluster's own prefix
/// (`/clusters/<name>`, where the hub serves that cluster's API); or what a deployment that
/// serves the API under a prefix writes in `<meta name="fluxlens-api-base" content="/prefix">`
/// (the build writes none; `index.html`'s prefetch script reads the same).
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
        .or_else(|| crate::base::fleet_cluster().map(|n| format!("/clusters/{n}")))
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

/// Classifies an answer. The body is copied into wasm memory only when the classification
/// needs it (not JSON, an error status); cookies and origin only for a 401, where they name
/// the sign-in page.
fn classified(status: u16, content_type: &str, body: Body) -> Result<Body, ApiError> {
    let json =
        (200..300).contains(&status) && fluxlens_core::wire::error::is_json_media(content_type);
    let text = if json { String::new() } else { body.text() };
    let (cookies, origin) = if status == 401 {
        (cookies(), page_origin())
    } else {
        Default::default()
    };
    fluxlens_core::wire::error::classify(status, content_type, &text, &cookies, &origin)?;
    Ok(body)
}

/// Reads a browser response's body and classifies the answer.
async fn classified_response(resp: web_sys::Response) -> Result<Body, ApiError> {
    let status = resp.status();
    let ct = resp
        .headers()
        .get("content-type")
        .ok()
        .flatten()
        .unwrap_or_default();
    let promise = resp
        .text()
        .map_err(|_| ApiError::Network("the body could not be read".into()))?;
    let value = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|_| ApiError::Network("the body could not be read".into()))?;
    let body = Body(value.dyn_into::<js_sys::JsString>().unwrap_or_default());
    classified(status, &ct, body)
}

/// `path?query` under the API base `base`, empty values left out.
fn url_of(base: &str, path: &str, query: &[(&str, &str)]) -> String {
    let params = web_sys::UrlSearchParams::new().ok();
    if let Some(params) = &params {
        for (k, v) in query.iter().filter(|(_, v)| !v.is_empty()) {
            params.append(k, v);
        }
    }
    let query = params
        .map(|p| String::from(p.to_string()))
        .unwrap_or_default();
    let sep = if query.is_empty() { "" } else { "?" };
    format!("{base}{path}{sep}{query}")
}

/// Sends a request with a deadline and returns the JSON body, or a typed error: through the
/// reader worker (`reader.rs`), or from this thread where no worker runs.
/// `keep`: the answer is kept to recognise it next time (the page's own cluster, which polls);
/// a fleet cluster's reads are made into its row and dropped, so nothing of them is kept.
async fn send(
    method: &str,
    path: &str,
    url: &str,
    body: Option<&str>,
    keep: bool,
) -> Result<Body, ApiError> {
    if !fluxlens_core::wire::is_allowed(method, path) {
        return Err(ApiError::Refused(format!("{method} {path}")));
    }
    // The same request (a rolling batch comes round again) is recognised by URL and body.
    let key = if keep {
        format!("{method} {url}\n{}", body.unwrap_or_default())
    } else {
        String::new()
    };
    let read = reader::Read {
        method,
        url,
        body,
        key,
        timeout_ms: TIMEOUT_SECONDS * 1000,
    };
    match reader::read(read).await {
        Some(reader::Answer::Response {
            status,
            content_type,
            body,
        }) => classified(status, &content_type, body),
        Some(reader::Answer::Timeout) => Err(ApiError::Timeout {
            seconds: TIMEOUT_SECONDS,
        }),
        Some(reader::Answer::Network(message)) => Err(ApiError::Network(message)),
        None => send_here(method, url, body).await,
    }
}

/// [`send`] on this thread, with its deadline by `AbortController`.
async fn send_here(method: &str, url: &str, body: Option<&str>) -> Result<Body, ApiError> {
    let controller = web_sys::AbortController::new()
        .map_err(|_| ApiError::Network("no AbortController".into()))?;
    let signal = controller.signal();
    let builder = match method {
        "POST" => Request::post(url),
        _ => Request::get(url),
    }
    .abort_signal(Some(&signal));
    let request = match body {
        Some(text) => builder
            .header("Content-Type", "application/json")
            .body(text.to_string()),
        None => builder.build(),
    }
    .map_err(|e| ApiError::Network(e.to_string()))?;
    let request = async {
        let resp = request
            .send()
            .await
            .map_err(|e| ApiError::Network(e.to_string()))?;
        classified_response(web_sys::Response::from(resp)).await
    };
    // The deadline is dropped with the request when it answers first (no timer left behind).
    let deadline = gloo_timers::future::TimeoutFuture::new(TIMEOUT_SECONDS * 1000);
    match futures_util::future::select(Box::pin(request), deadline).await {
        futures_util::future::Either::Left((result, _)) => result,
        futures_util::future::Either::Right(_) => {
            controller.abort();
            Err(ApiError::Timeout {
                seconds: TIMEOUT_SECONDS,
            })
        }
    }
}

/// Waits until the page's script (`prefetch.js`) has reached `stage`: at once when it has, or
/// when it sends nothing.
async fn prefetch_stage(stage: page_script::Stage) {
    // The app asks after it has taken the report (for `Kinds`) or every list (for `Reads`): the
    // script is then a moment away from the stage, unless a list it waits for never answered
    // (the app has given up on it by then, and does not wait a second deadline).
    let bound_ms = match stage {
        page_script::Stage::Reads => READS_STAGE_MS,
        page_script::Stage::Kinds => TIMEOUT_SECONDS * 1000,
    };
    if let Some(p) = page_script::stage(stage) {
        // Bounded: a report that never finishes must not hold the lists back for ever.
        let deadline = gloo_timers::future::TimeoutFuture::new(bound_ms);
        let done = wasm_bindgen_futures::JsFuture::from(p);
        let _ = futures_util::future::select(Box::pin(done), deadline).await;
    }
}

/// How long the app waits for the script's `Reads` stage (see [`prefetch_stage`]).
const READS_STAGE_MS: u32 = 2000;

/// One object batch `prefetch.js` sent: the body it posted and what came back.
pub struct PrefetchedPost {
    pub body: String,
    pub answer: Result<Body, ApiError>,
}

/// The object batches `prefetch.js` sent (#28), taken once, after it has sent them all: the
/// first load takes from them item by item (`fluxlens_core::load::prefetched`). A batch whose
/// request failed outright is left out (its items are asked again).
pub(crate) async fn prefetched_posts() -> Vec<PrefetchedPost> {
    prefetch_stage(page_script::Stage::Reads).await;
    let mut posts = Vec::new();
    for batch in page_script::take_batches() {
        if let (Some(body), Some(response)) = (batch.body(), batch.response())
            && let Some(answer) = adopt(response).await
        {
            posts.push(PrefetchedPost { body, answer });
        }
    }
    posts
}

/// Takes a prefetched answer through the same classification as any other; `None` when the
/// prefetch itself failed (the caller then asks again).
async fn adopt(promise: js_sys::Promise) -> Option<Result<Body, ApiError>> {
    let deadline = gloo_timers::future::TimeoutFuture::new(TIMEOUT_SECONDS * 1000);
    let fetched = wasm_bindgen_futures::JsFuture::from(promise);
    let answer: page_script::Answer =
        match futures_util::future::select(Box::pin(fetched), deadline).await {
            futures_util::future::Either::Left((Ok(v), _)) => v.unchecked_into(),
            futures_util::future::Either::Left((Err(_), _)) => return None,
            futures_util::future::Either::Right(_) => {
                return Some(Err(ApiError::Timeout {
                    seconds: TIMEOUT_SECONDS,
                }));
            }
        };
    let (status, content_type, text) = (answer.status()?, answer.content_type()?, answer.text()?);
    Some(classified(status, &content_type, Body(text)))
}

/// `GET path?query` under `base`, decoded as `T`.
pub async fn get_json<T: serde::de::DeserializeOwned>(
    base: &str,
    path: &str,
    query: &[(&str, &str)],
) -> Result<T, ApiError> {
    fluxlens_core::wire::error::decode(&get_text(base, path, query).await?.text())
}

/// `GET path?query` under `base` as text, undecoded: a poll compares it with the last answer
/// before paying for decoding (#23). The page's own first request adopts the prefetch.
pub async fn get_text(base: &str, path: &str, query: &[(&str, &str)]) -> Result<Body, ApiError> {
    let url = url_of(base, path, query);
    if base == base_path() && fluxlens_core::wire::is_allowed("GET", path) {
        // A prefetched read with a query is keyed by its path and query; the script sends the
        // lists by kind once the report has named them (`kinds`), the events once the lists
        // have named the instance (`reads`): each stage is awaited before the key is given up.
        let key = &url[base.len()..];
        let stages: &[Option<page_script::Stage>] = if key == path {
            &[None]
        } else {
            &[
                Some(page_script::Stage::Kinds),
                Some(page_script::Stage::Reads),
            ]
        };
        for stage in stages {
            if let Some(stage) = stage {
                prefetch_stage(*stage).await;
            }
            if let Some(p) = page_script::take(key)
                && let Some(body) = adopt(p).await
            {
                return body;
            }
        }
    }
    send("GET", path, &url, None, base == base_path()).await
}

/// `POST path` under `base` with a JSON body, the answer as text (see [`get_text`]).
pub async fn post_text<B: serde::Serialize>(
    base: &str,
    path: &str,
    body: &B,
) -> Result<Body, ApiError> {
    let text = serde_json::to_string(body).map_err(|e| ApiError::Decode(e.to_string()))?;
    let keep = base == base_path();
    send("POST", path, &url_of(base, path, &[]), Some(&text), keep).await
}
