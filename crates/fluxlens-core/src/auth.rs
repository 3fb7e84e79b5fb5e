//! The `auth-provider` cookie (§3.2): base64url JSON `{provider, url, authenticated}`.

use serde::Deserialize;

/// The decoded cookie.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct AuthProvider {
    #[serde(default)]
    pub provider: String,
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub authenticated: bool,
}

/// Finds and decodes the `auth-provider` cookie in a `document.cookie` string.
pub fn parse_cookie(cookies: &str) -> Option<AuthProvider> {
    let value = cookies
        .split(';')
        .filter_map(|c| c.trim().split_once('='))
        .find(|(k, _)| *k == "auth-provider")?
        .1;
    let bytes = base64url_decode(value.trim_matches('"'))?;
    // `from_str` everywhere: each serde_json reader type is a separate parser in the bundle.
    serde_json::from_str(std::str::from_utf8(&bytes).ok()?).ok()
}

/// The login URL to send the browser to, when the cookie names one.
pub fn login_url(cookies: &str) -> Option<String> {
    parse_cookie(cookies)
        .map(|p| p.url)
        .filter(|u| !u.is_empty() && (u.starts_with('/') || u.starts_with("https://")))
}

/// Encodes base64url without padding.
pub fn base64url_encode(input: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(input.len() * 4 / 3 + 4);
    for chunk in input.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, &b)| acc | (u32::from(b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(T[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

/// Decodes base64url (padding optional); `None` on any invalid character.
pub fn base64url_decode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes().filter(|&c| c != b'=') {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_cookie() {
        let c = "a=b; auth-provider=eyJwcm92aWRlciI6Ik9JREMiLCJ1cmwiOiIvb2F1dGgyL2F1dGhvcml6ZSIsImF1dGhlbnRpY2F0ZWQiOmZhbHNlfQ";
        let p = parse_cookie(c).unwrap();
        assert_eq!(
            (p.provider.as_str(), p.url.as_str(), p.authenticated),
            ("OIDC", "/oauth2/authorize", false)
        );
        assert_eq!(parse_cookie("auth-provider=!!!"), None);
        assert_eq!(login_url(""), None);
        assert_eq!(base64url_decode("YWJj").unwrap(), b"abc");
        assert_eq!(base64url_decode("YWI").unwrap(), b"ab");
        assert_eq!(base64url_encode(b"{}"), "e30");
        assert_eq!(base64url_encode(b"abc"), "YWJj");
        for n in 0..20u8 {
            let data: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37)).collect();
            assert_eq!(base64url_decode(&base64url_encode(&data)).unwrap(), data);
        }
    }

    #[test]
    fn refuses_script_urls() {
        // {"url":"javascript:alert(1)"}
        let c = "auth-provider=eyJ1cmwiOiJqYXZhc2NyaXB0OmFsZXJ0KDEpIn0";
        assert_eq!(login_url(c), None);
    }
}
