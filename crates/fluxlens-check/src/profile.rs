//! The compliance profile a reviewer requires (`--profile`).

use fluxlens_core::compliance::Profile;

/// The compliance profile a reviewer requires (`--profile`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfileName {
    Upstream,
    Enterprise,
    Fips,
}

impl ProfileName {
    pub fn parse(s: &str) -> Option<ProfileName> {
        match s {
            "upstream" => Some(ProfileName::Upstream),
            "enterprise" => Some(ProfileName::Enterprise),
            "fips" => Some(ProfileName::Fips),
            _ => None,
        }
    }

    pub fn profile(self) -> Profile {
        Profile {
            require_enterprise: self != ProfileName::Upstream,
            require_fips: self == ProfileName::Fips,
            min_operator_version: None,
        }
    }
}
