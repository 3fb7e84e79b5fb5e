//! The worker that sends the API client's requests and reads their answers off the main thread
//! (`reader.js`, #23). A request whose answer equals its last one (same method, URL and body)
//! comes back as "same" and is answered here with the body kept from last time: an unchanged
//! 766 KB list costs the page's thread nothing. Where no worker can start, [`read`] says so and the caller
//! sends the request itself.

use super::Body;
use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/api/reader.js")]
extern "C" {
    #[wasm_bindgen(js_name = startReader, catch)]
    fn start_reader() -> Result<web_sys::Worker, JsValue>;
}

/// Keyed answers held, at most (`KEPT` in `reader.js`).
const KEPT: usize = 256;

/// One request for the worker.
pub struct Read<'a> {
    pub method: &'a str,
    pub url: &'a str,
    pub body: Option<&'a str>,
    /// What makes two requests the same request (an answer equal to the last one to the same
    /// key comes back as "same"); empty: neither side keeps the answer.
    pub key: String,
    pub timeout_ms: u32,
}

/// What the worker saw.
pub enum Answer {
    Response {
        status: u16,
        content_type: String,
        body: Body,
    },
    Timeout,
    Network(String),
}

struct Reader {
    worker: web_sys::Worker,
    /// Resolvers of the requests in flight, by id.
    pending: HashMap<u32, js_sys::Function>,
    /// The last successful answer per key: what "same" stands for.
    last: HashMap<String, Body>,
    next_id: u32,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

thread_local! {
    /// `None` until the first read; `Some(None)` when no worker could start.
    static READER: RefCell<Option<Option<Reader>>> = const { RefCell::new(None) };
}

fn started() -> Option<Reader> {
    let worker = start_reader().ok()?;
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(|e: web_sys::MessageEvent| {
            let data = e.data();
            let id = field(&data, "id").as_f64().unwrap_or(-1.0) as u32;
            let resolve = READER.with(|r| {
                r.borrow_mut()
                    .as_mut()
                    .and_then(|o| o.as_mut())
                    .and_then(|reader| reader.pending.remove(&id))
            });
            if let Some(resolve) = resolve {
                let _ = resolve.call1(&JsValue::NULL, &data);
            }
        });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    Some(Reader {
        worker,
        pending: HashMap::new(),
        last: HashMap::new(),
        next_id: 0,
        _on_message: on_message,
    })
}

fn field(value: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(value, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

fn message(id: u32, read: &Read, known: bool) -> js_sys::Object {
    let msg = js_sys::Object::new();
    let set = |k: &str, v: JsValue| {
        let _ = js_sys::Reflect::set(&msg, &JsValue::from_str(k), &v);
    };
    set("id", id.into());
    set("method", read.method.into());
    set("url", read.url.into());
    set(
        "body",
        read.body.map(JsValue::from_str).unwrap_or(JsValue::NULL),
    );
    set("key", read.key.as_str().into());
    set("known", known.into());
    set("timeoutMs", read.timeout_ms.into());
    msg
}

/// Posts the request; `None` when there is no worker (the caller sends it itself).
fn post(read: &Read) -> Option<(u32, js_sys::Promise)> {
    READER.with(|r| {
        let mut slot = r.borrow_mut();
        let reader = slot.get_or_insert_with(started).as_mut()?;
        let id = reader.next_id;
        reader.next_id = reader.next_id.wrapping_add(1);
        let mut resolver = None;
        let promise = js_sys::Promise::new(&mut |resolve, _| resolver = Some(resolve));
        reader.pending.insert(id, resolver?);
        let known = reader.last.contains_key(&read.key);
        if reader
            .worker
            .post_message(&message(id, read, known))
            .is_err()
        {
            reader.pending.remove(&id);
            return None;
        }
        Some((id, promise))
    })
}

/// The body kept for `key` ("same"), or the new one, kept when it is a success.
fn body_for(key: &str, data: &JsValue, ok: bool) -> Option<Body> {
    READER.with(|r| {
        let mut slot = r.borrow_mut();
        let reader = slot.as_mut()?.as_mut()?;
        if field(data, "same").is_truthy() {
            return reader.last.get(key).cloned();
        }
        let body = Body(field(data, "text").dyn_into::<js_sys::JsString>().ok()?);
        reader.last.remove(key);
        // An empty key is a read not to keep (a fleet cluster's, made into a row and dropped).
        if ok && !key.is_empty() {
            // Past the worker's bound, start over (the worker is told what is held).
            if reader.last.len() >= KEPT {
                reader.last.clear();
            }
            reader.last.insert(key.to_string(), body.clone());
        }
        Some(body)
    })
}

/// Sends `read` through the worker; `None` when there is none. The worker keeps the deadline;
/// a second one here, a little later, answers if the worker itself stops answering.
pub async fn read(read: Read<'_>) -> Option<Answer> {
    let (id, promise) = post(&read)?;
    let guard = gloo_timers::future::TimeoutFuture::new(read.timeout_ms + 5_000);
    let fetched = wasm_bindgen_futures::JsFuture::from(promise);
    let data = match futures_util::future::select(Box::pin(fetched), guard).await {
        futures_util::future::Either::Left((Ok(data), _)) => data,
        futures_util::future::Either::Left((Err(_), _)) => {
            return Some(Answer::Network("the reader failed".into()));
        }
        futures_util::future::Either::Right(_) => {
            READER.with(|r| {
                if let Some(Some(reader)) = r.borrow_mut().as_mut() {
                    reader.pending.remove(&id);
                }
            });
            return Some(Answer::Timeout);
        }
    };
    if field(&data, "timeout").is_truthy() {
        return Some(Answer::Timeout);
    }
    let error = field(&data, "error");
    if let Some(error) = error.as_string() {
        return Some(Answer::Network(error));
    }
    let status = field(&data, "status").as_f64().unwrap_or(0.0) as u16;
    let content_type = field(&data, "contentType").as_string().unwrap_or_default();
    let ok = (200..300).contains(&status);
    Some(match body_for(&read.key, &data, ok) {
        Some(body) => Answer::Response {
            status,
            content_type,
            body,
        },
        None => Answer::Network("the reader lost the last answer".into()),
    })
}
