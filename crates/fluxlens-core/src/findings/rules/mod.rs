//! One file per rule (or per tight family of rules).

mod dangling;

use super::Rule;

/// The registry, in catalog order.
pub static ALL: &[&dyn Rule] = &[&dangling::DanglingReference];
