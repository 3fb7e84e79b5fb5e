//! Small utilities the analyses share: hashing, base64url, natural sorting, time, versions,
//! counts in words.

pub mod base64url;
pub mod hash;
pub mod query;
pub mod redact;
pub mod revision;
pub mod sort;
pub mod time;
pub mod version;
pub mod words;
