//! URL query strings: percent-encoding and bounded parsing, shared by every view's URL state
//! (`urlstate`), the compliance profile's query and the fleet table's (#48: they lived in
//! `urlstate`, which the analyses then depended on).

/// Longest query value accepted (longer values are ignored, not truncated).
pub const MAX_VALUE_LEN: usize = 512;
/// Most list items accepted per key.
pub const MAX_ITEMS: usize = 64;

/// Percent-encodes a query component (unreserved characters kept).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Decodes a query component (`+` is a space); invalid escapes are kept literally.
pub fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 3 <= b.len() => {
                match std::str::from_utf8(&b[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                {
                    Some(v) => {
                        out.push(v);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Parses `?a=1&b=2` (leading `?` optional) into decoded pairs, bounded in size.
pub fn parse_query(q: &str) -> Vec<(String, String)> {
    q.trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .take(MAX_ITEMS * 4)
        .filter_map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            // A value may hold a whole list (MAX_ITEMS items of MAX_VALUE_LEN, percent-encoded):
            // anything `to_query` writes from a parsed query must parse back (found by fuzzing).
            (v.len() <= MAX_ITEMS * (MAX_VALUE_LEN + 1) * 3).then(|| (decode(k), decode(v)))
        })
        .collect()
}
