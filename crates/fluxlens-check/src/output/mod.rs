//! The four ways a change is told: a pull-request comment (Markdown), a stable JSON schema,
//! GitHub workflow annotations, and SARIF for code scanning.

pub mod github;
pub mod json;
pub mod markdown;
pub mod sarif;

use crate::diff::{Change, Weighed};
use fluxlens_core::analyses::compliance::ProfileName;
use fluxlens_core::analyses::finding::Severity;

/// A change and how it is judged.
pub struct Report<'a> {
    pub change: &'a Change,
    pub fail_on: Severity,
    pub profile: ProfileName,
    /// Whether a base was given (without one, everything found counts as added).
    pub has_base: bool,
}

impl Report<'_> {
    pub fn fails(&self) -> bool {
        self.change.fails(self.fail_on)
    }

    pub fn verdict(&self) -> &'static str {
        if self.fails() { "fail" } else { "pass" }
    }

    /// The one-line verdict: what fails it, or that nothing added reaches the threshold.
    pub fn summary(&self) -> String {
        let weighed = self.change.weighed();
        let over: Vec<&Weighed> = weighed
            .iter()
            .filter(|w| w.severity >= self.fail_on)
            .collect();
        if over.is_empty() {
            let added = weighed.len();
            return match added {
                0 => format!(
                    "the change adds nothing at or above {}",
                    self.fail_on.as_str()
                ),
                n => format!(
                    "nothing added at or above {} ({} below it)",
                    self.fail_on.as_str(),
                    fluxlens_core::analyses::verdict::plural(n, "item")
                ),
            };
        }
        let first = &over[0];
        let more = if over.len() > 1 {
            format!(" and {} more", over.len() - 1)
        } else {
            String::new()
        };
        format!(
            "{} ({}){more} at or above {}",
            first.what,
            first.severity.as_str(),
            self.fail_on.as_str()
        )
    }

    pub fn profile_name(&self) -> &'static str {
        match self.profile {
            ProfileName::Upstream => "upstream",
            ProfileName::Enterprise => "enterprise",
            ProfileName::Fips => "fips",
        }
    }
}
