//! The result of a check or a control: pass, fail, or unknown — what the API does not say is
//! never a pass (§0.2).

/// Pass, fail, or unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Pass,
    Fail,
    /// Cannot be told from what the API returned (or informational).
    Unknown,
}

impl Outcome {
    /// `pass`, `fail`, `unknown`: shown, exported and used as `data-result`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Unknown => "unknown",
        }
    }

    /// ✓, ✗, ?: the mark beside a check.
    pub fn mark(self) -> &'static str {
        match self {
            Outcome::Pass => "✓",
            Outcome::Fail => "✗",
            Outcome::Unknown => "?",
        }
    }

    /// Whether it is known at all.
    pub fn is_known(self) -> bool {
        self != Outcome::Unknown
    }
}

impl From<Option<bool>> for Outcome {
    fn from(v: Option<bool>) -> Outcome {
        match v {
            Some(true) => Outcome::Pass,
            Some(false) => Outcome::Fail,
            None => Outcome::Unknown,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_marks() {
        let all = [Some(true), Some(false), None].map(Outcome::from);
        assert_eq!(all.map(Outcome::as_str), ["pass", "fail", "unknown"]);
        assert_eq!(all.map(Outcome::mark), ["✓", "✗", "?"]);
        assert_eq!(all.map(Outcome::is_known), [true, true, false]);
    }
}
