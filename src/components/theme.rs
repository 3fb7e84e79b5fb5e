//! Light/dark theme: follows the OS unless overridden (persisted, or `?theme=` for embeds).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The theme choice.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Theme {
    System,
    Light,
    Dark,
}

impl Theme {
    fn parse(s: &str) -> Theme {
        match s {
            "light" => Theme::Light,
            "dark" => Theme::Dark,
            _ => Theme::System,
        }
    }
    fn as_str(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
    /// The next choice when cycling with the toggle.
    pub fn next(self) -> Theme {
        match self {
            Theme::System => Theme::Light,
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::System,
        }
    }
    /// Label for the toggle.
    /// The button's glyph (its name is [`Theme::label`]).
    pub fn glyph(self) -> &'static str {
        match self {
            Theme::System => "◐",
            Theme::Light => "☀",
            Theme::Dark => "☾",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Theme::System => "Theme: system",
            Theme::Light => "Theme: light",
            Theme::Dark => "Theme: dark",
        }
    }
}

const STORAGE_KEY: &str = "fluxlens-theme";

/// The theme signal in context.
#[derive(Clone, Copy)]
pub struct ThemeState(pub RwSignal<Theme>);

impl ThemeState {
    /// Creates the signal from `?theme=`, then storage, and keeps `<html data-theme>` in sync.
    pub fn provide() -> ThemeState {
        let storage = web_sys::window().and_then(|w| w.local_storage().ok().flatten());
        let initial = crate::router::query_param("theme")
            .or_else(|| {
                storage
                    .as_ref()
                    .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
            })
            .map(|s| Theme::parse(&s))
            .unwrap_or(Theme::System);
        let sig = RwSignal::new(initial);
        Effect::new(move |_| {
            let t = sig.get();
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.document_element())
                && let Ok(html) = el.dyn_into::<web_sys::HtmlElement>()
            {
                let _ = html.dataset().set("theme", t.as_str());
            }
        });
        let state = ThemeState(sig);
        provide_context(state);
        state
    }

    /// Cycles and persists the choice.
    pub fn cycle(self) {
        let next = self.0.get_untracked().next();
        self.0.set(next);
        if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
            let _ = s.set_item(STORAGE_KEY, next.as_str());
        }
    }
}
