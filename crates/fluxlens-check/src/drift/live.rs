//! The live cluster, read through the Flux Operator's status API with the dashboard's own
//! reads: core's poller plans every request, and each is checked against the read-only
//! allowlist before it leaves. Credentials go in headers and are never printed.

pub use crate::args::Auth;
use fluxlens_core::load::poll::{Answer, Poller, Request, Step};
use fluxlens_core::load::{answers_by_key, key_batches};
use fluxlens_core::model::{self, Cluster, ObjectKey};
use fluxlens_core::wire::error::{ApiError, classify, decode};
use fluxlens_core::wire::inventory::InventoryObjectsResponse;
use fluxlens_core::wire::report::FluxReport;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;
use ureq::tls::{PemItem, RootCerts, TlsConfig, TlsProvider};

/// One answer may be at most this large (a batch of 500 full objects is a few MB).
const MAX_ANSWER_BYTES: u64 = 64 << 20;

/// The status API at one address.
pub struct Api {
    base: String,
    agent: ureq::Agent,
    auth: Auth,
}

/// The address as it may be printed: scheme, host, port and path, never a user or password.
pub fn printable(url: &str) -> String {
    match userinfo_end(url) {
        Some((scheme_end, at)) => format!("{}{}", &url[..scheme_end], &url[at + 1..]),
        None => url.to_string(),
    }
}

/// Where a `user:password@` part sits in `url`: the end of `scheme://` and the `@`.
fn userinfo_end(url: &str) -> Option<(usize, usize)> {
    let scheme_end = url.find("://")? + 3;
    let authority_end = url[scheme_end..]
        .find(['/', '?', '#'])
        .map_or(url.len(), |i| scheme_end + i);
    let at = url[scheme_end..authority_end].rfind('@')?;
    Some((scheme_end, scheme_end + at))
}

/// The CAs an `https://` address is verified against: Mozilla's roots, or only the
/// certificates of `ca_file` (a private CA's). Verification is never turned off.
fn trusted(ca_file: Option<&Path>) -> Result<RootCerts, String> {
    let Some(path) = ca_file else {
        return Ok(RootCerts::WebPki);
    };
    let shown = path.display();
    let pem = std::fs::read(path).map_err(|e| format!("--ca-file {shown}: {e}"))?;
    let mut certs = Vec::new();
    for item in ureq::tls::parse_pem(&pem) {
        match item {
            Ok(PemItem::Certificate(c)) => certs.push(c),
            Ok(_) => {} // a key beside the certificates is not trusted, nor needed
            Err(e) => return Err(format!("--ca-file {shown}: not PEM certificates ({e})")),
        }
    }
    if certs.is_empty() {
        return Err(format!("--ca-file {shown}: holds no PEM certificate"));
    }
    Ok(RootCerts::from(certs))
}

/// A refused certificate, with what to do: rustls's verdict reaches here inside an I/O error,
/// named by its text ("invalid peer certificate: UnknownIssuer").
fn with_tls_hint(error: String) -> String {
    match error.contains("certificate") {
        true => format!(
            "{error}; a server whose certificate a private CA signed is verified with --ca-file (its CA's PEM)"
        ),
        false => error,
    }
}

impl Api {
    /// The API at `url` (`http://` or `https://`: the operator's web server, an ingress or a
    /// proxy in front); the error says why an address cannot be used.
    pub fn new(url: &str, auth: Auth, ca_file: Option<&Path>) -> Result<Api, String> {
        let base = url.trim_end_matches('/').to_string();
        if userinfo_end(&base).is_some() {
            return Err(format!(
                "--live {}: put credentials in --cookie or --token (or FLUXLENS_COOKIE, FLUXLENS_TOKEN), not in the address",
                printable(&base)
            ));
        }
        let host = base
            .strip_prefix("https://")
            .or_else(|| base.strip_prefix("http://"));
        if host.is_none_or(str::is_empty) {
            return Err(format!(
                "--live {}: not an http:// or https:// address",
                printable(&base)
            ));
        }
        let tls = TlsConfig::builder()
            .provider(TlsProvider::Rustls)
            .root_certs(trusted(ca_file)?)
            .build();
        let seconds = fluxlens_core::load::REQUEST_TIMEOUT_SECONDS;
        let agent = ureq::Agent::config_builder()
            .tls_config(tls)
            .timeout_global(Some(Duration::from_secs(seconds.into())))
            .http_status_as_error(false)
            // A redirect of an API read is a sign-in page: said, not followed.
            .max_redirects(0)
            .build()
            .into();
        Ok(Api { base, agent, auth })
    }

    /// The address, as it may be printed.
    pub fn address(&self) -> &str {
        &self.base
    }

    /// Sends one read and classifies its answer as the app does.
    pub fn send(&self, r: &Request) -> Answer<String> {
        if !fluxlens_core::wire::is_allowed(r.method(), r.path()) {
            return Err(ApiError::Refused(format!("{} {}", r.method(), r.path())));
        }
        let query: Vec<String> = r
            .query()
            .iter()
            .map(|(k, v)| format!("{k}={}", fluxlens_core::util::query::encode(v)))
            .collect();
        let url = match query.is_empty() {
            true => format!("{}{}", self.base, r.path()),
            false => format!("{}{}?{}", self.base, r.path(), query.join("&")),
        };
        let sent = match r.body() {
            Some(body) => self
                .signed(self.agent.post(&url))
                .header("Content-Type", "application/json")
                .send(body),
            None => self.signed(self.agent.get(&url)).call(),
        };
        let mut resp = sent.map_err(|e| match e {
            ureq::Error::Timeout(_) => ApiError::Timeout {
                seconds: fluxlens_core::load::REQUEST_TIMEOUT_SECONDS,
            },
            other => ApiError::Network(with_tls_hint(other.to_string())),
        })?;
        let status = resp.status().as_u16();
        let content_type = resp
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        if (300..400).contains(&status) {
            let to = resp
                .headers()
                .get("location")
                .and_then(|v| v.to_str().ok())
                .map(printable)
                .unwrap_or_default();
            return Err(ApiError::Http {
                status,
                body: format!(
                    "redirected to {to}: a sign-in stands in front of the API (pass its session with --cookie)"
                ),
            });
        }
        let text = resp
            .body_mut()
            .with_config()
            .limit(MAX_ANSWER_BYTES)
            .read_to_string()
            .map_err(|e| ApiError::Network(e.to_string()))?;
        classify(status, &content_type, &text, "", &self.base)?;
        Ok(text)
    }

    fn signed<B>(&self, mut req: ureq::RequestBuilder<B>) -> ureq::RequestBuilder<B> {
        req = req.header("Accept", "application/json");
        if let Some(c) = &self.auth.cookie {
            req = req.header("Cookie", c);
        }
        if let Some(t) = &self.auth.token {
            req = req.header("Authorization", format!("Bearer {t}"));
        }
        req
    }

    /// The cluster as the dashboard's first load assembles it.
    pub fn first_load(&self) -> Result<Cluster, ApiError> {
        let mut poller: Poller<String> = Poller::default();
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        let mut step = poller.begin(now_ms);
        loop {
            step = match step {
                Step::Ask(wave) => {
                    let answers = wave.requests.iter().map(|r| self.send(r)).collect();
                    poller.answer(answers)
                }
                Step::PageReads => poller.page_reads(Vec::new()),
                Step::Done(Ok(Some(cluster))) => return Ok(*cluster),
                Step::Done(Ok(None)) => {
                    return Err(ApiError::Degraded("the first load built no model".into()));
                }
                Step::Done(Err(e)) => return Err(e),
            }
        }
    }

    /// The server's answer for each of `keys`, read by key in batches.
    pub fn ask(
        &self,
        report: &FluxReport,
        keys: &[ObjectKey],
    ) -> Result<BTreeMap<ObjectKey, model::Answer>, ApiError> {
        let mut out = BTreeMap::new();
        for batch in key_batches(report, keys) {
            let text = self.send(&Request::Objects(batch))?;
            out.extend(answers_by_key(decode::<InventoryObjectsResponse>(&text)?));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_printed_without_its_credentials_and_refused_with_them() {
        assert_eq!(
            printable("http://admin:hunter2@127.0.0.1:9080/x"),
            "http://127.0.0.1:9080/x"
        );
        assert_eq!(printable("http://127.0.0.1:9080"), "http://127.0.0.1:9080");
        let Err(e) = Api::new("http://admin:hunter2@127.0.0.1:9080", Auth::default(), None) else {
            panic!("accepted credentials in the address")
        };
        assert!(!e.contains("hunter2"), "{e}");
        assert!(Api::new("https://flux.example.com", Auth::default(), None).is_ok());
        assert!(Api::new("https://", Auth::default(), None).is_err());
        assert!(Api::new("ftp://flux.example.com", Auth::default(), None).is_err());
        assert!(Api::new("127.0.0.1:9080", Auth::default(), None).is_err());
        assert!(Api::new("http://127.0.0.1:9080/", Auth::default(), None).is_ok());
    }
}
