//! Flux resource status vocabulary (§5.1 of the API reference); derived from an object in
//! `model::derived_status`.

use serde::{Deserialize, Serialize};

/// The five statuses the Flux Operator derives for Flux objects, plus `Missing` for a
/// referenced object that does not exist (fluxlens' own addition).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Status {
    Ready,
    Failed,
    Progressing,
    Suspended,
    Unknown,
    Missing,
    /// A referenced object fluxlens cannot see (outside the user's namespaces, unreadable, or
    /// its kind's list incomplete): grey, never a problem by itself.
    NotVisible,
}

impl Status {
    /// Parses the API's status string; anything unexpected is `Unknown`.
    pub fn parse(s: &str) -> Status {
        match s {
            "Ready" => Status::Ready,
            "Failed" => Status::Failed,
            "Progressing" => Status::Progressing,
            "Suspended" => Status::Suspended,
            "Missing" => Status::Missing,
            "NotVisible" => Status::NotVisible,
            _ => Status::Unknown,
        }
    }

    /// The status as shown and as used in `data-status` attributes.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ready => "Ready",
            Status::Failed => "Failed",
            Status::Progressing => "Progressing",
            Status::Suspended => "Suspended",
            Status::Unknown => "Unknown",
            Status::Missing => "Missing",
            Status::NotVisible => "NotVisible",
        }
    }

    /// CSS modifier class (`fl-status--ready`, …).
    pub fn css_class(self) -> &'static str {
        match self {
            Status::Ready => "fl-status--ready",
            Status::Failed => "fl-status--failed",
            Status::Progressing => "fl-status--progressing",
            Status::Suspended => "fl-status--suspended",
            Status::Unknown => "fl-status--unknown",
            Status::Missing => "fl-status--missing",
            Status::NotVisible => "fl-status--not-visible",
        }
    }

    /// All statuses, in display order.
    pub const ALL: [Status; 7] = [
        Status::Ready,
        Status::Failed,
        Status::Progressing,
        Status::Suspended,
        Status::Unknown,
        Status::Missing,
        Status::NotVisible,
    ];
}
