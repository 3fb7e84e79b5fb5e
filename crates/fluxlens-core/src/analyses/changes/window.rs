//! The window a timeline covers, as the URL says it (`?since=`): an RFC 3339 time,
//! `last-visit`, `1h`, `24h` or `7d`. The default is the last visit when one is kept, else 24 h.

use crate::util::time::{format_rfc3339, parse_rfc3339_ms};

const HOUR_MS: i64 = 3_600_000;

/// Where a window starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Since {
    /// The visit kept in this browser (the default when one is kept).
    LastVisit,
    /// The last hour, 24 hours or 7 days.
    Hours(i64),
    /// A given time (Unix ms).
    At(i64),
}

/// The window's start, and why it is not the one asked for when it could not be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Start {
    pub from_ms: i64,
    /// Set when `last-visit` was asked and no visit is kept: the window fell back to 24 h.
    pub fallback: Option<String>,
}

impl Since {
    /// The choices the page offers, in order.
    pub const CHOICES: [Since; 4] = [
        Since::LastVisit,
        Since::Hours(1),
        Since::Hours(24),
        Since::Hours(24 * 7),
    ];

    /// Parses `?since=`; `None` for anything else (the page then uses the default).
    pub fn parse(s: &str) -> Option<Since> {
        match s.trim() {
            "last-visit" => Some(Since::LastVisit),
            "1h" => Some(Since::Hours(1)),
            "24h" => Some(Since::Hours(24)),
            "7d" => Some(Since::Hours(24 * 7)),
            t => parse_rfc3339_ms(t).map(Since::At),
        }
    }

    /// The default: the last visit when one is kept, else the last 24 hours.
    pub fn default_for(last_visit_kept: bool) -> Since {
        if last_visit_kept {
            Since::LastVisit
        } else {
            Since::Hours(24)
        }
    }

    /// The URL value (the inverse of [`Since::parse`]).
    pub fn as_param(self) -> String {
        match self {
            Since::LastVisit => "last-visit".into(),
            Since::Hours(24) => "24h".into(),
            Since::Hours(168) => "7d".into(),
            Since::Hours(h) => format!("{h}h"),
            Since::At(ms) => format_rfc3339(ms),
        }
    }

    /// How the page names it: "in the last hour", "since your last visit".
    pub fn label(self) -> String {
        match self {
            Since::LastVisit => "since your last visit".into(),
            Since::Hours(1) => "in the last hour".into(),
            Since::Hours(24) => "in the last 24 hours".into(),
            Since::Hours(168) => "in the last 7 days".into(),
            Since::Hours(h) => format!("in the last {h} hours"),
            Since::At(ms) => format!("since {}", crate::util::time::shown_dated(ms)),
        }
    }

    /// Where the window starts at `now_ms`; `last_visit_ms`: the kept visit's read time.
    pub fn start(self, now_ms: i64, last_visit_ms: Option<i64>) -> Start {
        let hours = |h: i64| Start {
            from_ms: now_ms - h * HOUR_MS,
            fallback: None,
        };
        match (self, last_visit_ms) {
            (Since::LastVisit, Some(t)) => Start {
                from_ms: t,
                fallback: None,
            },
            (Since::LastVisit, None) => Start {
                fallback: Some(
                    "No visit is kept in this browser: showing the last 24 hours instead.".into(),
                ),
                ..hours(24)
            },
            (Since::Hours(h), _) => hours(h),
            (Since::At(t), _) => Start {
                from_ms: t.min(now_ms),
                fallback: None,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_url_form_reads_back() {
        for s in ["last-visit", "1h", "24h", "7d", "2026-12-01T09:12:00Z"] {
            let since = Since::parse(s).unwrap();
            assert_eq!(since.as_param(), s);
        }
        assert_eq!(Since::parse("yesterday"), None);
        assert_eq!(Since::parse("2026-13-45T99:00:00Z"), None);
    }

    #[test]
    fn last_visit_without_a_kept_visit_says_it_fell_back() {
        let now = 1_800_000_000_000;
        let s = Since::LastVisit.start(now, None);
        assert_eq!(s.from_ms, now - 24 * HOUR_MS);
        assert!(s.fallback.is_some());
        let kept = Since::LastVisit.start(now, Some(now - 5 * HOUR_MS));
        assert_eq!((kept.from_ms, kept.fallback), (now - 5 * HOUR_MS, None));
        assert_eq!(Since::default_for(true), Since::LastVisit);
        assert_eq!(Since::default_for(false), Since::Hours(24));
    }
}
