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

/// The sign-in link that brings the user back to this very view: `path`, `query` (with its
/// `?`) and `fragment` (with its `#`) in one `originalPath`. The operator keeps that parameter
/// through the provider and redirects to it verbatim when it is a safe relative path
/// (oauth2.go `originalURL`, `isSafeRedirectPath`); only a path lost the view's query and
/// fragment (its filters, the object open, a snapshot link's data).
pub fn sign_in_url(login_url: &str, path: &str, query: &str, fragment: &str) -> String {
    let back = format!("{path}{query}{fragment}");
    format!(
        "{login_url}?originalPath={}",
        crate::util::query::encode(&back)
    )
}

/// Finds and decodes the `auth-provider` cookie in a `document.cookie` string.
pub fn parse_cookie(cookies: &str) -> Option<AuthProvider> {
    let value = cookies
        .split(';')
        .filter_map(|c| c.trim().split_once('='))
        .find(|(k, _)| *k == "auth-provider")?
        .1;
    let bytes = crate::util::base64url::decode(value.trim_matches('"'))?;
    // `from_str` everywhere: each serde_json reader type is a separate parser in the bundle.
    serde_json::from_str(std::str::from_utf8(&bytes).ok()?).ok()
}

/// The login URL to send the browser to, when the cookie names one: a path on this origin,
/// or an absolute `http(s)` URL (the server writes `<baseURL>/oauth2/authorize`) whose
/// origin is the page's `origin`, compared after parsing. Anything else is refused.
pub fn login_url(cookies: &str, origin: &str) -> Option<String> {
    let url = parse_cookie(cookies)?.url;
    if url.starts_with('/') && !url.starts_with("//") {
        return Some(url);
    }
    let page = url_origin(origin)?;
    (url_origin(&url)? == page).then_some(url)
}

/// `scheme://host:port` of an absolute http(s) URL, lower-cased with the default port made
/// explicit; `None` for other schemes, user-info or an empty host.
pub fn url_origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let default_port = match scheme.as_str() {
        "http" => "80",
        "https" => "443",
        _ => return None,
    };
    let authority = rest.split(['/', '?', '#']).next()?;
    if authority.is_empty() || authority.contains('@') || authority.contains('\\') {
        return None;
    }
    let authority = authority.to_ascii_lowercase();
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) if !h.is_empty() && !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => {
            (h.to_string(), p.to_string())
        }
        Some((_, _)) if !authority.ends_with(']') => return None,
        _ => (authority.clone(), default_port.to_string()),
    };
    Some(format!("{scheme}://{host}:{port}"))
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
        assert_eq!(login_url("", ""), None);
    }

    fn cookie(url: &str) -> String {
        format!(
            "auth-provider={}",
            crate::util::base64url::encode(
                format!(r#"{{"provider":"OIDC","url":"{url}"}}"#).as_bytes()
            )
        )
    }

    #[test]
    fn refuses_script_urls() {
        // {"url":"javascript:alert(1)"}
        let c = "auth-provider=eyJ1cmwiOiJqYXZhc2NyaXB0OmFsZXJ0KDEpIn0";
        assert_eq!(login_url(c, "https://flux.example.org"), None);
        assert_eq!(
            login_url(&cookie("//evil.example/x"), "https://flux.example.org"),
            None
        );
    }

    #[test]
    fn absolute_login_url_only_on_the_same_origin() {
        // Regression: the server writes `<baseURL>/oauth2/authorize`, absolute, http or https.
        let page = "http://127.0.0.1:8080";
        let same = "http://127.0.0.1:8080/oauth2/authorize";
        assert_eq!(login_url(&cookie(same), page).as_deref(), Some(same));
        let https = "https://Flux.Example.org/oauth2/authorize";
        assert!(login_url(&cookie(https), "https://flux.example.org:443").is_some());
        for other in [
            "http://127.0.0.1:9090/oauth2/authorize",
            "https://127.0.0.1:8080/oauth2/authorize",
            "http://127.0.0.1:8080@evil.example/oauth2/authorize",
            "http://evil.example/oauth2/authorize",
            "ftp://127.0.0.1:8080/x",
        ] {
            assert_eq!(login_url(&cookie(other), page), None, "{other}");
        }
        assert_eq!(
            login_url(&cookie("/oauth2/authorize"), page).as_deref(),
            Some("/oauth2/authorize")
        );
    }

    #[test]
    fn the_sign_in_link_comes_back_to_the_path_its_query_and_fragment() {
        let u = sign_in_url(
            "https://flux.example.org/oauth2/authorize",
            "/graph",
            "?ns=apps&q=web server",
            "#s=flx1.abc",
        );
        assert_eq!(
            u,
            "https://flux.example.org/oauth2/authorize?originalPath=/graph%3Fns%3Dapps%26q%3Dweb%20server%23s%3Dflx1.abc"
        );
        let back = crate::util::query::decode(u.split_once("originalPath=").unwrap().1);
        assert_eq!(back, "/graph?ns=apps&q=web server#s=flx1.abc");
    }
}
