//! Where the drift view's render comes from: files picked or dropped (read here, sent
//! nowhere), or a URL on the page's own origin (fetched by `api::drift`, through the view's
//! `render` parameter).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Where the render came from, and its files' texts.
#[derive(Clone, PartialEq)]
pub struct Texts {
    /// "prod.yaml, apps.yaml" or the URL.
    pub label: String,
    /// A same-origin URL the render came from: rows link to themselves under it.
    pub url: Option<String>,
    pub files: Vec<(String, String)>,
}

/// A render's files together may be at most this large (the check's limit for one file).
const MAX_BYTES: f64 = fluxlens_core::render::manifests::MAX_FILE_BYTES as f64;

/// Reads every file of `list` as text; the error names the file that could not be read.
async fn read_all(list: web_sys::FileList) -> Result<Texts, String> {
    let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
    if files.is_empty() {
        return Err("no file was given".into());
    }
    let total: f64 = files.iter().map(|f| f.size()).sum();
    if total > MAX_BYTES {
        return Err(format!("{total} bytes, over the limit of {MAX_BYTES}"));
    }
    let mut out = Vec::new();
    for f in &files {
        let text = wasm_bindgen_futures::JsFuture::from(f.text())
            .await
            .ok()
            .and_then(|t| t.as_string())
            .ok_or(format!("{} could not be read as text", f.name()))?;
        out.push((f.name(), text));
    }
    let label = out
        .iter()
        .map(|(n, _)| n.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    Ok(Texts {
        label,
        url: None,
        files: out,
    })
}

/// The file picker, the drop zone and the same-origin URL form.
#[component]
pub fn RenderPicker(picked: RwSignal<Option<Result<Texts, String>>>) -> impl IntoView {
    let take = move |list: Option<web_sys::FileList>| {
        let Some(list) = list else { return };
        leptos::task::spawn_local(async move {
            let read = read_all(list).await;
            picked.set(Some(read));
        });
    };
    let on_pick = move |ev: web_sys::Event| {
        let input = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
        take(input.and_then(|i| i.files()));
    };
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        take(ev.data_transfer().and_then(|d| d.files()));
    };
    let location = crate::router::use_location();
    let url = RwSignal::new(String::new());
    let open_url = move |ev: web_sys::SubmitEvent| {
        ev.prevent_default();
        let u = url.get_untracked();
        if u.trim().is_empty() {
            return;
        }
        picked.set(None);
        let q = format!("render={}", fluxlens_core::util::query::encode(u.trim()));
        crate::router::push_query(location, &q);
    };
    view! {
        <div
            class="fl-dropzone"
            data-drop="render"
            on:dragover=|ev: web_sys::DragEvent| ev.prevent_default()
            on:drop=on_drop
        >
            <label class="fl-btn">
                "Open render files…"
                <input
                    type="file"
                    multiple=true
                    accept=".yaml,.yml,.json"
                    class="fl-sr"
                    data-input="render-files"
                    on:change=on_pick
                />
            </label>
            " or drop them here, or "
            <form class="fl-inline-form" on:submit=open_url>
                <label for="drift-url">"a render on this site:"</label>
                <input
                    id="drift-url"
                    class="fl-input"
                    type="text"
                    placeholder="/renders/prod.yaml"
                    data-input="render-url"
                    prop:value=move || url.get()
                    on:input=move |ev| url.set(event_target_value(&ev))
                />
                <button class="fl-btn" type="submit">
                    "Open"
                </button>
            </form>
        </div>
    }
}
