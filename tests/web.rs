//! Component tests in headless Chromium (wasm-bindgen-test).
#![cfg(target_arch = "wasm32")]

use fluxlens::components::digest::Digest;
use fluxlens::components::findings::FindingsList;
use fluxlens::components::hero::Hero;
use fluxlens::components::status::StatusPill;
use fluxlens_core::analyses::findings::{Finding, Severity};
use fluxlens_core::{Kind, ObjectKey, Status};
use leptos::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

#[wasm_bindgen_test]
fn findings_carry_rule_and_severity_and_render_markup_as_text() {
    let f = Finding {
        rule: "MIG-GO-02".into(),
        severity: Severity::Critical,
        subject: ObjectKey::new(Kind::Kustomization, "flux-system", "cluster-apps"),
        message: "<img src=x onerror=alert(1)> is missing".into(),
        evidence: vec!["<script>window.pwned=1</script>".into()],
        remediation: "fix it".into(),
        reason: "root source · <b>broken</b>".into(),
        members: vec![],
    };
    // mount_to_body keeps the view mounted for the rest of the test.
    leptos::mount::mount_to_body(move || view! { <FindingsList findings=vec![f.clone()] /> });
    let item = document()
        .query_selector("[data-rule='MIG-GO-02']")
        .unwrap()
        .expect("finding rendered");
    assert_eq!(
        item.get_attribute("data-severity").as_deref(),
        Some("critical")
    );
    assert!(
        item.text_content()
            .unwrap()
            .contains("<img src=x onerror=alert(1)> is missing")
    );
    assert!(
        document()
            .query_selector(".fl-finding img")
            .unwrap()
            .is_none(),
        "markup must stay text"
    );
    assert!(
        document()
            .query_selector(".fl-finding script")
            .unwrap()
            .is_none()
    );
}

#[wasm_bindgen_test]
fn hero_says_its_tone_in_a_glyph_and_keeps_hostile_text_as_text() {
    let verdict = fluxlens_core::analyses::verdict::Verdict {
        tone: fluxlens_core::analyses::verdict::Tone::Bad,
        text: "<b>2 critical</b>".into(),
        detail: "detail".into(),
    };
    leptos::mount::mount_to_body(move || {
        view! {
            <div id="hero">
                <Hero verdict=verdict.clone() />
            </div>
        }
    });
    let hero = document()
        .query_selector("#hero [data-verdict]")
        .unwrap()
        .unwrap();
    assert_eq!(hero.get_attribute("data-verdict").as_deref(), Some("bad"));
    assert_eq!(hero.get_attribute("role").as_deref(), Some("status"));
    // Colour is never the only cue: the disc carries a glyph.
    assert_eq!(
        document()
            .query_selector("#hero .fl-hero__disc")
            .unwrap()
            .unwrap()
            .text_content()
            .as_deref(),
        Some("✕")
    );
    assert!(
        document().query_selector("#hero b").unwrap().is_none(),
        "markup must stay text"
    );
}

#[wasm_bindgen_test]
fn digest_is_short_with_the_full_value_on_hover_and_copy() {
    let full = format!("main@sha1:{}", "4f1c2a9b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a");
    let value = full.clone();
    leptos::mount::mount_to_body(move || {
        view! {
            <div id="digest">
                <Digest value=value.clone() />
            </div>
        }
    });
    let code = document().query_selector("#digest code").unwrap().unwrap();
    assert_eq!(
        code.text_content().as_deref(),
        Some("main@sha1:4f1c2a9b8d7e…")
    );
    assert_eq!(code.get_attribute("title"), Some(full.clone()));
    let button = document()
        .query_selector("#digest button")
        .unwrap()
        .unwrap();
    assert_eq!(
        button.get_attribute("aria-label"),
        Some(format!("Copy {full}"))
    );
}

#[wasm_bindgen_test]
fn keyboard_focus_pans_an_off_screen_node_into_view_and_leaves_a_visible_one() {
    use fluxlens::components::graph_canvas::reveal;
    assert_eq!(reveal((1.0, 0.0, 0.0), (10.0, 10.0), 800.0, 600.0), None);
    let (z, x, y) = reveal((1.0, 0.0, 0.0), (2000.0, 10.0), 800.0, 600.0).unwrap();
    let left = 2000.0 * z + x;
    assert!(left >= 0.0 && left + fluxlens_core::analyses::graph::NODE_W * z <= 800.0);
    assert!(10.0 * z + y >= 0.0);
}

#[wasm_bindgen_test]
fn status_pill_exposes_status() {
    leptos::mount::mount_to_body(|| {
        view! {
            <div id="pill">
                <StatusPill status=Status::Missing />
            </div>
        }
    });
    let pill = document()
        .query_selector("#pill .fl-pill")
        .unwrap()
        .unwrap();
    assert_eq!(
        pill.get_attribute("data-status").as_deref(),
        Some("Missing")
    );
    assert!(pill.class_name().contains("fl-status--missing"));
}

#[wasm_bindgen_test]
fn router_claims_only_the_apps_routes() {
    // Other same-origin links (the operator's login, the API) must reach the browser.
    use fluxlens::router::is_app_route;
    for r in [
        "/",
        "",
        "/graph",
        "/graph/",
        "/signatures",
        "/embed/overview",
        "/embed/compliance",
    ] {
        assert!(is_app_route(r), "{r}");
    }
    for r in [
        "/oauth2/authorize",
        "/api/v1/report",
        "/logout",
        "/embed",
        "/embed/",
        "/overview",
        "/graph/x",
    ] {
        assert!(!is_app_route(r), "{r}");
    }
}

#[wasm_bindgen_test]
fn list_keys_follow_content_and_twins_get_distinct_keys() {
    use fluxlens::components::keyed::{content_hash, content_keys};
    let finding = |subject: &str, message: &str| Finding {
        rule: "SIG-01".into(),
        severity: Severity::High,
        subject: ObjectKey::new(Kind::OciRepository, "flux-system", subject),
        message: message.into(),
        evidence: vec![],
        remediation: String::new(),
        reason: String::new(),
        members: vec![],
    };
    let poll = || {
        vec![
            finding("a", "no spec.verify"),
            finding("b", "no spec.verify"),
            finding("a", "no spec.verify"),
        ]
    };
    let keys: Vec<u64> = content_keys(poll()).iter().map(|(k, _)| *k).collect();
    assert_eq!(keys[0], content_hash(&finding("a", "no spec.verify")));
    assert_ne!(keys[0], keys[1]);
    assert_ne!(keys[0], keys[2], "a twin gets its own key");
    // An unchanged poll keeps every key (every row keeps its DOM); a changed finding does not.
    let again: Vec<u64> = content_keys(poll()).iter().map(|(k, _)| *k).collect();
    assert_eq!(keys, again);
    let changed = content_hash(&finding("a", "verify failed"));
    assert_ne!(changed, keys[0]);
}

#[wasm_bindgen_test]
fn a_body_reaches_wasm_as_the_same_text() {
    use fluxlens::api::Body;
    // Through the browser's TextEncoder (#51): ASCII, other scripts, astral characters and
    // escapes come through unchanged; a lone surrogate, which no UTF-8 holds, as U+FFFD.
    let text = "{\"name\":\"flux-système ✓ 😀\",\"q\":\"\\u00e9\\n\"}";
    assert_eq!(Body::from(js_sys::JsString::from(text)).text(), text);
    assert_eq!(Body::from(js_sys::JsString::from("")).text(), "");
    let lone = js_sys::JsString::from_char_code(&[0x61, 0xD800, 0x62]);
    assert_eq!(Body::from(lone).text(), "a\u{FFFD}b");
}

/// Lets the app's effects run (they are scheduled, not run inside a signal's write).
async fn tick() {
    gloo_timers::future::TimeoutFuture::new(0).await;
}

#[wasm_bindgen_test]
async fn the_loaders_status_is_one_value_and_each_notice_wakes_only_for_its_part() {
    use fluxlens::components::chrome::Notices;
    use fluxlens::state::AppState;
    use fluxlens_core::wire::error::ApiError;
    let state = AppState::new();
    let found = |sel: &str| {
        document()
            .query_selector(&format!("#status-host {sel}"))
            .unwrap()
    };
    let host: web_sys::HtmlElement =
        wasm_bindgen::JsCast::unchecked_into(document().create_element("div").unwrap());
    host.set_id("status-host");
    document().body().unwrap().append_child(&host).unwrap();
    let mounted = leptos::mount::mount_to(host, move || {
        provide_context(state);
        view! { <Notices /> }
    });
    state.update_status(|s| s.progress = Some("objects 500 of 1000".into()));
    tick().await;
    let progress = found("[data-progress]").expect("the progress is said");
    assert!(
        progress
            .text_content()
            .unwrap()
            .contains("objects 500 of 1000")
    );
    state.update_status(|s| {
        s.progress = None;
        s.error = Some(ApiError::Network("connection reset".into()));
        s.stale_since = Some(0.0);
    });
    tick().await;
    let error = found("[data-error]").expect("the error is said");
    assert!(error.text_content().unwrap().contains("stale since"));
    assert!(found("[data-progress]").is_none());
    // A change to another part (the freshness clock) leaves the error's element as it was.
    state.update_status(|s| s.updated_at = Some(1.0));
    tick().await;
    let again = found("[data-error]").expect("still said");
    assert!(error.is_same_node(Some(&again)));
    drop(mounted);
}
