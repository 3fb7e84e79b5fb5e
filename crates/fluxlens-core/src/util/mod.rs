//! Small utilities the analyses share: hashing, base64url, natural sorting, time.

pub mod base64url;
pub mod hash;
pub mod sort;
pub mod time;
