//! Component tests in headless Chromium (wasm-bindgen-test).
#![cfg(target_arch = "wasm32")]

use fluxlens::components::findings::FindingsList;
use fluxlens::components::status::StatusPill;
use fluxlens_core::findings::{Finding, Severity};
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
    leptos::mount::mount_to_body(move || view! { <FindingsList findings=vec![f.clone()]/> });
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
fn status_pill_exposes_status() {
    leptos::mount::mount_to_body(
        || view! { <div id="pill"><StatusPill status=Status::Missing/></div> },
    );
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
    use fluxlens::app::is_app_route;
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
