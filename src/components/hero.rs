//! The verdict line each view opens with, computed in core (`fluxlens_core::analyses::verdict`).

use fluxlens_core::analyses::verdict::{Tone, Verdict};
use leptos::prelude::*;

/// One sentence that answers "is this fine?", then its detail.
#[component]
pub fn Hero(
    /// The verdict to show.
    verdict: Verdict,
    /// One line inside a toolbar (the graph gives the screen to its canvas), not a card.
    #[prop(optional)]
    compact: bool,
) -> impl IntoView {
    let tone = verdict.tone.as_str();
    // The disc repeats the tone as a glyph so colour is never the only cue.
    let glyph = match verdict.tone {
        Tone::Ok => "✓",
        Tone::Warn => "!",
        Tone::Bad => "✕",
        Tone::Neutral => "–",
    };
    // Compact, the line may be cut at the toolbar's width: the whole verdict is on hover.
    let whole = compact.then(|| format!("{} — {}", verdict.text, verdict.detail));
    view! {
        <div
            class=format!("fl-hero fl-hero--{tone}")
            class:fl-hero--compact=compact
            data-verdict=tone
            role="status"
            title=whole
        >
            <span class="fl-hero__disc" aria-hidden="true">
                {glyph}
            </span>
            <div>
                <p class="fl-hero__text">{verdict.text}</p>
                <p class="fl-hero__detail">{verdict.detail}</p>
            </div>
        </div>
    }
}
