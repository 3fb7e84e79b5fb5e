//! The one error type of the API client, and the pure classification of HTTP answers
//! (so every branch is tested natively; the app only feeds it status, headers and body).

use serde::{Deserialize, Serialize};
use std::fmt;

/// Why an API call failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ApiError {
    /// The request never got an answer (server down, connection dropped, DNS, CORS).
    Network(String),
    /// No answer within the client's deadline.
    Timeout { seconds: u32 },
    /// 401: the session is missing or expired; `login_url` comes from the `auth-provider` cookie.
    Unauthorized { login_url: Option<String> },
    /// 403, with the server's text.
    Forbidden(String),
    /// 5xx, with the server's text body.
    Server { status: u16, body: String },
    /// Any other non-2xx answer.
    Http { status: u16, body: String },
    /// 200 with HTML where JSON was expected: a proxy or the server's SPA fallback answered.
    NotJson { content_type: String },
    /// The body was not the JSON expected (truncated, malformed).
    Decode(String),
    /// The client refused to call an endpoint outside the read-only allowlist.
    Refused(String),
    /// The server answered, but with nothing to show (its placeholder report after a good
    /// load): the last good data stays, marked stale.
    Degraded(String),
}

impl ApiError {
    /// Whether asking again may help: no answer, a timeout, a 5xx. Never 401/403 (asking
    /// again only repeats the denial) nor a refused or unreadable answer.
    pub fn retryable(&self) -> bool {
        matches!(
            self,
            ApiError::Network(_) | ApiError::Timeout { .. } | ApiError::Server { .. }
        )
    }

    /// The variant's name, for `data-error` hooks.
    pub fn kind(&self) -> &'static str {
        match self {
            ApiError::Network(_) => "Network",
            ApiError::Timeout { .. } => "Timeout",
            ApiError::Unauthorized { .. } => "Unauthorized",
            ApiError::Forbidden(_) => "Forbidden",
            ApiError::Server { .. } => "Server",
            ApiError::Http { .. } => "Http",
            ApiError::NotJson { .. } => "NotJson",
            ApiError::Decode(_) => "Decode",
            ApiError::Refused(_) => "Refused",
            ApiError::Degraded(_) => "Degraded",
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiError::Network(m) => write!(f, "Cannot reach the Flux Operator API: {m}"),
            ApiError::Timeout { seconds } => {
                write!(f, "The Flux Operator API did not answer within {seconds} s")
            }
            ApiError::Unauthorized { .. } => write!(
                f,
                "Not signed in (401): sign in to the Flux Operator to continue"
            ),
            ApiError::Forbidden(m) => write!(f, "Access denied (403): {}", first_line(m)),
            // The operator's bootstrap handler, before leader election and its web config
            // (server.go `RunServer`): not a failure, a server that is starting.
            ApiError::Server { status: 503, body } if body.trim() == "server not initialized" => {
                write!(
                    f,
                    "The Flux Operator's web server is starting (503 server not initialized): it answers once it leads and has its configuration; retrying"
                )
            }
            ApiError::Server { status, body } => {
                write!(f, "The server failed ({status}): {}", first_line(body))
            }
            ApiError::Http { status, body } => {
                write!(f, "Unexpected answer ({status}): {}", first_line(body))
            }
            ApiError::NotJson { content_type } => write!(
                f,
                "Got {} instead of JSON: the API path is not proxied to the Flux Operator (check the /api/ proxy)",
                if content_type.is_empty() {
                    "a non-JSON answer"
                } else {
                    content_type
                }
            ),
            ApiError::Decode(m) => write!(f, "The API answer could not be read: {m}"),
            ApiError::Refused(m) => write!(f, "Refused: {m} is not a read-only endpoint"),
            ApiError::Degraded(m) => write!(f, "The Flux Operator answered without data: {m}"),
        }
    }
}

impl std::error::Error for ApiError {}

fn first_line(s: &str) -> &str {
    let line = s.trim().lines().next().unwrap_or("");
    // Error bodies are server text; keep the banner readable whatever they hold.
    match line.char_indices().nth(300) {
        Some((i, _)) => &line[..i],
        None => line,
    }
}

fn media_type(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Whether a `Content-Type` says JSON: then a 2xx answer is classified without its body
/// (the browser need not copy it into wasm memory to find that out).
pub fn is_json_media(content_type: &str) -> bool {
    media_type(content_type) == "application/json"
}

/// Classifies an answer: `Ok(())` when the body should be decoded as JSON. `origin` is the
/// page's (`https://host[:port]`): a login URL elsewhere is never offered. A 2xx JSON answer
/// is accepted whatever `body` holds (callers pass `""` rather than copy it), and `cookies`
/// and `origin` are read only for a 401.
pub fn classify(
    status: u16,
    content_type: &str,
    body: &str,
    cookies: &str,
    origin: &str,
) -> Result<(), ApiError> {
    match status {
        200..=299 => {
            let media = media_type(content_type);
            if is_json_media(content_type)
                || (media.is_empty() && body.trim_start().starts_with(['{', '[']))
            {
                Ok(())
            } else {
                Err(ApiError::NotJson {
                    content_type: media,
                })
            }
        }
        401 => Err(ApiError::Unauthorized {
            login_url: crate::wire::auth::login_url(cookies, origin),
        }),
        403 => Err(ApiError::Forbidden(body.to_string())),
        500..=599 => Err(ApiError::Server {
            status,
            body: body.to_string(),
        }),
        _ => Err(ApiError::Http {
            status,
            body: body.to_string(),
        }),
    }
}

/// Decodes a JSON body into `T`, mapping failures to [`ApiError::Decode`].
pub fn decode<T: serde::de::DeserializeOwned>(body: &str) -> Result<T, ApiError> {
    serde_json::from_str(body).map_err(|e| ApiError::Decode(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_may_pass_is_retried() {
        assert!(ApiError::Timeout { seconds: 30 }.retryable());
        assert!(
            ApiError::Server {
                status: 504,
                body: String::new()
            }
            .retryable()
        );
        assert!(!ApiError::Unauthorized { login_url: None }.retryable());
        assert!(!ApiError::Forbidden(String::new()).retryable());
        assert_eq!(ApiError::Degraded(String::new()).kind(), "Degraded");
    }

    #[test]
    fn a_json_answer_is_classified_without_its_body() {
        // The app passes "" for a 2xx JSON answer instead of copying it into wasm (#23).
        assert!(is_json_media("application/json; charset=utf-8"));
        assert!(is_json_media(" Application/JSON"));
        assert!(!is_json_media("text/html"));
        assert_eq!(classify(200, "application/json", "", "", ""), Ok(()));
        // Without a JSON media type the body decides, so the app passes it.
        assert!(classify(200, "", "", "", "").is_err());
        assert_eq!(classify(200, "", " {\"a\":1}", "", ""), Ok(()));
    }

    #[test]
    fn classification() {
        assert_eq!(classify(200, "application/json", "{}", "", ""), Ok(()));
        assert_eq!(
            classify(200, "application/json; charset=utf-8", "{}", "", ""),
            Ok(())
        );
        assert!(matches!(
            classify(200, "text/html; charset=utf-8", "<!doctype html>", "", ""),
            Err(ApiError::NotJson { .. })
        ));
        assert!(matches!(
            classify(403, "text/plain", "You do not have access", "", ""),
            Err(ApiError::Forbidden(_))
        ));
        assert_eq!(
            classify(500, "text/plain", "Failed to get resource: boom\n", "", ""),
            Err(ApiError::Server {
                status: 500,
                body: "Failed to get resource: boom\n".into()
            })
        );
        assert!(matches!(
            classify(400, "text/plain", "bad", "", ""),
            Err(ApiError::Http { status: 400, .. })
        ));
        let cookie = "other=1; auth-provider=eyJwcm92aWRlciI6Ik9JREMiLCJ1cmwiOiIvb2F1dGgyL2F1dGhvcml6ZSIsImF1dGhlbnRpY2F0ZWQiOmZhbHNlfQ";
        assert_eq!(
            classify(401, "text/plain", "Unauthorized", cookie, ""),
            Err(ApiError::Unauthorized {
                login_url: Some("/oauth2/authorize".into())
            })
        );
    }

    #[test]
    fn messages_are_one_readable_line() {
        let long = "x".repeat(1000);
        let m = ApiError::Server {
            status: 500,
            body: format!("{long}\nsecond"),
        }
        .to_string();
        assert!(m.len() < 400 && !m.contains("second"));
        // A starting server is said as such (server.go `RunServer`), and retried.
        let starting = ApiError::Server {
            status: 503,
            body: "server not initialized\n".into(),
        };
        assert!(starting.retryable() && starting.to_string().contains("is starting"));
        assert!(
            decode::<serde_json::Value>("{\"a\":")
                .unwrap_err()
                .to_string()
                .contains("could not be read")
        );
    }
}
