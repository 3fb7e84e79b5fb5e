//! Snapshot codec for shareable read-only links: a redacted, reduced copy of the cluster,
//! deflated, checksummed and versioned, as `fl1.<base64url>`. Decoding is bounded in input
//! size and decompressed size, and every failure is a clear message.

pub(crate) mod forms;
pub mod kept;
mod reduce;

use crate::analyses::carried::{self, CarriedVerdicts, Verdicts};
use crate::analyses::drift::Judged;

use crate::model::{Answer, Cluster, CrdAccess, LoadNotes, ObjectKey};
use crate::util::base64url;
use crate::wire::events::Event;
use crate::wire::object::ApiObject;
use crate::wire::report::FluxReport;
use reduce::{drop_report_messages, messages, owner_column, reduce, restore_shared, with_owners};
use serde::{Deserialize, Serialize};

/// Format version written in the prefix and the first byte.
pub const VERSION: u8 = 1;
/// Longest accepted encoded snapshot (URL fragment or file contents).
pub const MAX_ENCODED: usize = 512 * 1024;
/// Largest accepted decompressed payload.
pub const MAX_DECODED: usize = 16 * 1024 * 1024;
const PREFIX: &str = "fl1.";

/// Which view the snapshot was taken from (where it opens; it carries every view's data).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SnapshotView {
    Graph,
    Signatures,
    Migrations,
    Compliance,
    Overview,
    Drift,
}

impl SnapshotView {
    /// Parses a route name.
    pub fn parse(s: &str) -> SnapshotView {
        match s {
            "graph" => SnapshotView::Graph,
            "signatures" => SnapshotView::Signatures,
            "migrations" => SnapshotView::Migrations,
            "compliance" => SnapshotView::Compliance,
            "drift" => SnapshotView::Drift,
            _ => SnapshotView::Overview,
        }
    }
}

/// Options of the "share snapshot" control.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SnapshotOptions {
    pub view: SnapshotView,
    /// Blank every free-text message (conditions, status messages).
    pub drop_messages: bool,
}

/// What a snapshot carries: everything every view reads (#30), so a snapshot taken from one
/// view is as true on the others as the live page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// The view it was taken from: where the link opens.
    pub view: SnapshotView,
    pub captured_at_ms: Option<i64>,
    pub report: FluxReport,
    pub objects: Vec<ApiObject>,
    /// Each object's owner, as its position in `objects` (see [`owner_column`]).
    #[serde(default)]
    pub owners: Vec<Option<u32>>,
    #[serde(default)]
    pub crds: Vec<ApiObject>,
    #[serde(default)]
    pub crds_forbidden: bool,
    /// How complete the load was, so a snapshot never calls missing what the live view could
    /// not see (§0.2).
    #[serde(default)]
    pub incomplete_kinds: Vec<(String, String)>,
    #[serde(default)]
    pub partial: Option<String>,
    #[serde(default)]
    pub unreadable: Vec<(ObjectKey, String)>,
    #[serde(default)]
    pub confirmations: Vec<(ObjectKey, Answer)>,
    #[serde(default)]
    pub unconfirmed: Vec<(ObjectKey, String)>,
    /// The FluxInstance's recent events (ENT-14 reads them).
    #[serde(default)]
    pub instance_events: Vec<Event>,
    /// Set when messages were dropped: the findings the sender's page showed.
    #[serde(default)]
    pub verdicts: Option<CarriedVerdicts>,
    /// The drift view's judgement when the snapshot was taken from it with a render open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drift: Option<Judged>,
    /// How many values `capture` redacted (shown before a link is copied; not encoded).
    #[serde(skip)]
    pub redacted: usize,
}

/// A snapshot opened for viewing: the cluster, and the sender's findings when it carried them.
#[derive(Debug, Clone)]
pub struct Opened {
    pub cluster: Cluster,
    pub verdicts: Option<Verdicts>,
    /// The drift judgement it carried.
    pub drift: Option<Judged>,
}

/// Builds the snapshot of a loaded cluster from the API objects it was built from.
/// Fails closed: when redaction cannot be completed nothing is returned to share (#23).
pub fn capture(cluster: &Cluster, opts: SnapshotOptions) -> Result<Snapshot, SnapshotError> {
    capture_with(cluster, opts, None)
}

/// [`capture`], carrying the drift view's judgement (through the same redaction, and without
/// the dropped messages when they are dropped).
pub fn capture_with(
    cluster: &Cluster,
    opts: SnapshotOptions,
    drift: Option<&Judged>,
) -> Result<Snapshot, SnapshotError> {
    let mut plain = reduced(cluster, opts);
    plain.drift = drift.map(|j| match opts.drop_messages {
        true => j.clone().without(&messages(cluster)),
        false => j.clone(),
    });
    let mut snap = redacted(plain, crate::util::redact::redact_json)?;
    // Against what the receiver computes from exactly what it receives (redacted).
    if let Some(v) = snap.verdicts.take() {
        let receiver = snap.clone().into_cluster();
        snap.verdicts = Some(v.against(&receiver));
    }
    Ok(snap)
}

/// The snapshot before redaction: what every view reads, and nothing else.
fn reduced(cluster: &Cluster, opts: SnapshotOptions) -> Snapshot {
    let drop = opts.drop_messages;
    let mut report = cluster.report.clone();
    report.spec.user_info = None;
    let (crds, crds_forbidden) = match &cluster.crds {
        CrdAccess::Known(v) => (v.iter().map(|c| reduce(c, drop)).collect(), false),
        CrdAccess::Forbidden => (vec![], true),
        // A copy made while they were being read does not know them.
        CrdAccess::Unknown | CrdAccess::Reading => (vec![], false),
    };
    let verdicts = drop.then(|| Verdicts::capture(cluster, &messages(cluster)).whole());
    let mut instance_events = cluster.instance_events.clone();
    // After the verdicts: they are computed from the messages, then cut free of them.
    if drop {
        drop_report_messages(&mut report);
        instance_events
            .iter_mut()
            .for_each(|e| e.message = carried::DROPPED.to_string());
    }
    Snapshot {
        view: opts.view,
        captured_at_ms: cluster.notes.captured_at_ms,
        report,
        objects: cluster
            .objects()
            .iter()
            .map(|o| reduce(&o.raw, drop))
            .collect(),
        owners: owner_column(cluster),
        crds,
        crds_forbidden,
        incomplete_kinds: cluster.notes.incomplete_kinds.clone(),
        partial: cluster.notes.partial.clone(),
        unreadable: cluster.notes.unreadable.clone(),
        confirmations: cluster
            .confirmations
            .iter()
            .map(|(k, a)| (k.clone(), a.clone()))
            .collect(),
        unconfirmed: cluster.notes.unconfirmed.clone(),
        instance_events,
        verdicts,
        drift: None,
        redacted: 0,
    }
}

/// A share link leaves the cluster's authentication boundary: every string the snapshot keeps
/// is redacted (`crate::redact`), and the count is kept to tell the user.
fn redacted(
    snap: Snapshot,
    redact: impl Fn(&mut serde_json::Value) -> usize,
) -> Result<Snapshot, SnapshotError> {
    use crate::wire::json::{FromJson, ToJson};
    let mut v = snap.to_json();
    let n = redact(&mut v);
    let mut clean = Snapshot::from_json(&v).ok_or_else(|| {
        SnapshotError::Redaction("the redacted snapshot did not read back".into())
    })?;
    clean.redacted = n;
    Ok(clean)
}

impl Snapshot {
    /// Rebuilds the cluster model (every analysis is recomputed from it, or read from the
    /// carried verdicts when the messages were dropped).
    pub fn open(self) -> Opened {
        let crds = if self.crds_forbidden {
            CrdAccess::Forbidden
        } else if self.crds.is_empty() {
            CrdAccess::Unknown
        } else {
            CrdAccess::Known(self.crds)
        };
        let objects = with_owners(self.objects, &self.owners)
            .into_iter()
            .map(restore_shared);
        let mut c = Cluster::new(self.report, objects, crds);
        c.notes = LoadNotes {
            captured_at_ms: self.captured_at_ms,
            incomplete_kinds: self.incomplete_kinds,
            partial: self.partial,
            unreadable: self.unreadable,
            unconfirmed: self.unconfirmed,
            // Not carried: a link holds the answers as they stood, without the failed renewal.
            kept_answers: vec![],
        };
        c.confirmations = self.confirmations.into_iter().collect();
        c.instance_events = self.instance_events;
        let verdicts = self.verdicts.map(|v| v.resolve(&c));
        Opened {
            cluster: c,
            verdicts,
            drift: self.drift,
        }
    }

    /// The cluster alone (tests and tools that do not show findings).
    pub fn into_cluster(self) -> Cluster {
        self.open().cluster
    }
}

fn checksum(data: &[u8]) -> [u8; 4] {
    let d = crate::util::hash::digest(data);
    [d[0], d[1], d[2], d[3]]
}

/// What the share dialog says before a link is copied: how many values were redacted, and,
/// when the snapshot shows generic-oidc webhook paths, why those are not secrets (#68: "token-
/// derived webhook paths were redacted" read beside a `/hook/ef1ac25…` the snapshot showed).
pub fn redaction_sentence(redacted: usize, cluster: &Cluster) -> String {
    let counted = match redacted {
        0 => "No credentials found to redact".to_string(),
        1 => "1 value redacted (credentials and token-derived webhook paths)".to_string(),
        n => format!("{n} values redacted (credentials and token-derived webhook paths)"),
    };
    let computed = cluster
        .of_kind(&crate::wire::kind::Kind::Receiver)
        .filter(|o| o.spec_type() == Some("generic-oidc"))
        .count();
    match computed {
        0 => counted,
        _ => format!(
            "{counted}. The generic-oidc webhook paths it shows are computed from each \
             Receiver's name and namespace, not from a token: anyone can compute them, and they \
             stay."
        ),
    }
}

/// The first `fl1.` token in a link or a file's text: what a comparison link carries.
pub fn token_in(text: &str) -> Option<String> {
    let at = text.find(PREFIX)?;
    Some(
        text[at..]
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != '&' && *c != '"')
            .collect(),
    )
}

/// The digest of a snapshot given as its link or its file's text, for comparing it with
/// another read (#49): the first `fl1.` token in `text` is the snapshot.
pub fn digest_of(
    text: &str,
) -> Result<crate::analyses::changes::digest::VisitDigest, SnapshotError> {
    let token = token_in(text).ok_or(SnapshotError::Corrupted("no snapshot in it"))?;
    let opened = decode(&token)?.open();
    let analysis =
        crate::analyses::analysis::Analysis::of(&opened.cluster, opened.verdicts.as_ref());
    Ok(crate::analyses::changes::digest::VisitDigest::of(
        &opened.cluster,
        &analysis,
    ))
}

/// Encodes as `fl1.<base64url(version · checksum · deflate(json))>`.
pub fn encode(s: &Snapshot) -> String {
    seal(PREFIX, &forms::to_text(s))
}

/// The envelope of every share link: `<prefix><base64url(version · checksum · deflate(json))>`.
pub(crate) fn seal(prefix: &str, json: &[u8]) -> String {
    let deflated = miniz_oxide::deflate::compress_to_vec(json, 9);
    let mut bytes = Vec::with_capacity(deflated.len() + 5);
    bytes.push(VERSION);
    bytes.extend_from_slice(&checksum(&deflated));
    bytes.extend_from_slice(&deflated);
    format!("{prefix}{}", base64url::encode(&bytes))
}

/// Why a snapshot could not be opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SnapshotError {
    TooLarge(usize),
    NotASnapshot,
    UnsupportedVersion(u8),
    Corrupted(&'static str),
    Invalid(String),
    /// Redaction could not be completed: nothing is shared.
    Redaction(String),
}

impl std::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SnapshotError::TooLarge(n) => write!(
                f,
                "This snapshot is too large to open ({n} bytes; the limit is {MAX_ENCODED})."
            ),
            SnapshotError::NotASnapshot => {
                write!(f, "This link does not hold a fluxlens snapshot.")
            }
            SnapshotError::UnsupportedVersion(v) => write!(
                f,
                "This snapshot was made by a newer fluxlens (format {v})."
            ),
            SnapshotError::Corrupted(why) => write!(
                f,
                "This snapshot is damaged ({why}); ask for the link again."
            ),
            SnapshotError::Invalid(why) => write!(f, "This snapshot could not be read: {why}"),
            SnapshotError::Redaction(why) => write!(
                f,
                "Nothing was shared: credentials could not be removed for certain ({why})."
            ),
        }
    }
}

/// Decodes a snapshot, bounded in input and output size.
pub fn decode(text: &str) -> Result<Snapshot, SnapshotError> {
    let json = unseal(PREFIX, text)?;
    forms::from_text(&json, "snapshot").map_err(SnapshotError::Invalid)
}

/// Opens [`seal`]'s envelope: the JSON text, bounded in input and output size.
pub(crate) fn unseal(prefix: &str, text: &str) -> Result<String, SnapshotError> {
    unseal_within(prefix, text, MAX_ENCODED)
}

/// [`unseal`] with its own bound on the input (a copy kept in the browser is not a link).
pub(crate) fn unseal_within(
    prefix: &str,
    text: &str,
    max_encoded: usize,
) -> Result<String, SnapshotError> {
    let t = text.trim();
    if t.len() > max_encoded {
        return Err(SnapshotError::TooLarge(t.len()));
    }
    let body = t.strip_prefix(prefix).ok_or(SnapshotError::NotASnapshot)?;
    let bytes = base64url::decode(body).ok_or(SnapshotError::Corrupted("not base64url"))?;
    let (&version, rest) = bytes
        .split_first()
        .ok_or(SnapshotError::Corrupted("empty"))?;
    if version != VERSION {
        return Err(SnapshotError::UnsupportedVersion(version));
    }
    if rest.len() < 4 {
        return Err(SnapshotError::Corrupted("truncated"));
    }
    let (sum, deflated) = rest.split_at(4);
    if checksum(deflated) != sum {
        return Err(SnapshotError::Corrupted("checksum mismatch"));
    }
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(deflated, MAX_DECODED)
        .map_err(|_| SnapshotError::Corrupted("cannot inflate, or larger than the limit"))?;
    // `String::from_utf8` then `from_str`, not `from_slice`: one serde_json parser in the
    // bundle instead of two.
    String::from_utf8(json).map_err(|_| SnapshotError::Corrupted("not UTF-8"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn redaction_fails_closed() {
        // #23: when the round trip through the redactor fails, the unredacted snapshot was
        // shared with "N values redacted". Now nothing is returned.
        let objs = crate::model::synthetic::objects(20)
            .into_iter()
            .filter_map(|v| serde_json::from_value(v).ok());
        let c = Cluster::new(
            crate::wire::FluxReport::default(),
            objs,
            crate::model::CrdAccess::Unknown,
        );
        let opts = super::SnapshotOptions {
            view: super::SnapshotView::Graph,
            drop_messages: false,
        };
        let snap = super::capture(&c, opts).unwrap();
        let broken = |v: &mut serde_json::Value| {
            v["objects"] = serde_json::json!("not a list");
            1
        };
        let err = super::redacted(snap, broken).unwrap_err();
        assert!(matches!(err, super::SnapshotError::Redaction(_)));
        assert!(err.to_string().starts_with("Nothing was shared"));
    }

    use super::*;

    fn demo_cluster(n: usize) -> Cluster {
        let objs: Vec<ApiObject> = crate::model::synthetic::objects(n)
            .into_iter()
            .map(|v| serde_json::from_value(v).unwrap())
            .collect();
        let report: FluxReport = serde_json::from_str(r#"{"metadata":{"namespace":"flux-system"},"spec":{"distribution":{"version":"v2.8.3"},"userInfo":{"username":"secret-person"}}}"#).unwrap();
        let mut c = Cluster::new(report, objs, CrdAccess::Forbidden);
        c.notes.captured_at_ms = Some(1_764_000_000_000);
        c
    }

    #[test]
    fn a_snapshot_carries_the_drift_judgement_redacted_and_without_dropped_messages() {
        use crate::analyses::drift::{Drift, Judged};
        let c = demo_cluster(40);
        let said = messages(&c)
            .into_iter()
            .next()
            .expect("a condition message");
        let subject = c.objects()[0].key.clone();
        let finding = crate::analyses::finding::Finding {
            rule: "DRIFT-01".into(),
            severity: crate::analyses::finding::Severity::High,
            subject: subject.clone(),
            message: format!("declared and absent: its applier fails ({said})"),
            evidence: vec!["source https://bot:hunter2@git.example.com/fleet".into()],
            remediation: "flux get kustomizations".into(),
            reason: String::new(),
            members: vec![],
        };
        let judged = Judged {
            render: "/renders/prod.yaml".into(),
            revision: Some("main@sha1:0123456789ab".into()),
            drift: Drift {
                findings: vec![finding],
                compared: 39,
                in_sync: 39,
                not_compared: vec![("Kustomization/x/y".into(), "not visible".into())],
            },
            unconfirmed: 1,
        };
        for drop_messages in [false, true] {
            let opts = SnapshotOptions {
                view: SnapshotView::Drift,
                drop_messages,
            };
            let link = encode(&capture_with(&c, opts, Some(&judged)).unwrap());
            let opened = decode(&link).unwrap().open();
            let carried = opened.drift.expect("carried");
            assert_eq!(carried.render, judged.render);
            assert_eq!(carried.revision, judged.revision);
            assert_eq!(carried.unconfirmed, 1);
            assert_eq!(
                (carried.drift.compared, carried.drift.not_compared.len()),
                (39, 1)
            );
            let f = &carried.drift.findings[0];
            assert_eq!(f.subject, subject);
            assert!(!f.evidence[0].contains("hunter2"), "{}", f.evidence[0]);
            assert_eq!(f.message.contains(&said), !drop_messages, "{}", f.message);
        }
        let plain = decode(&encode(
            &capture(
                &c,
                SnapshotOptions {
                    view: SnapshotView::Graph,
                    drop_messages: false,
                },
            )
            .unwrap(),
        ));
        assert_eq!(plain.unwrap().open().drift, None);
        assert_eq!(SnapshotView::parse("drift"), SnapshotView::Drift);
    }

    #[test]
    fn round_trip_keeps_what_the_graph_needs() {
        let c = demo_cluster(200);
        let opts = SnapshotOptions {
            view: SnapshotView::Graph,
            drop_messages: false,
        };
        let link = encode(&capture(&c, opts).unwrap());
        let back = decode(&link).unwrap().into_cluster();
        assert_eq!(back.objects().len(), 200);
        for (a, b) in c.objects().iter().zip(back.objects()) {
            assert_eq!(
                (&a.key, a.status, &a.refs, &a.managed_by),
                (&b.key, b.status, &b.refs, &b.managed_by)
            );
        }
        assert_eq!(back.crds, CrdAccess::Forbidden);
        assert_eq!(back.notes.captured_at_ms, Some(1_764_000_000_000));
        assert!(
            !link.contains("secret-person") && back.report.spec.user_info.is_none(),
            "no user identity in links"
        );
    }

    #[test]
    fn a_200_object_graph_fits_in_8_kb() {
        let link = encode(
            &capture(
                &demo_cluster(200),
                SnapshotOptions {
                    view: SnapshotView::Graph,
                    drop_messages: true,
                },
            )
            .unwrap(),
        );
        assert!(link.len() <= 8 * 1024, "{} bytes", link.len());
    }

    #[test]
    fn a_200_object_snapshot_fits_in_8_kb_with_the_default_options() {
        // #24: the size claim was tested only with "drop messages" on.
        for view in [SnapshotView::Graph, SnapshotView::Overview] {
            let opts = SnapshotOptions {
                view,
                drop_messages: false,
            };
            let link = encode(&capture(&demo_cluster(200), opts).unwrap());
            assert!(link.len() <= 8 * 1024, "{view:?}: {} bytes", link.len());
        }
    }

    #[test]
    fn full_views_keep_rule_inputs() {
        let c = demo_cluster(50);
        let link = encode(
            &capture(
                &c,
                SnapshotOptions {
                    view: SnapshotView::Signatures,
                    drop_messages: false,
                },
            )
            .unwrap(),
        );
        let back = decode(&link).unwrap().into_cluster();
        let a = crate::analyses::findings::evaluate_all(&c);
        let b = crate::analyses::findings::evaluate_all(&back);
        assert_eq!(
            a.iter().map(|f| (&f.rule, &f.subject)).collect::<Vec<_>>(),
            b.iter().map(|f| (&f.rule, &f.subject)).collect::<Vec<_>>()
        );
    }

    #[test]
    fn corrupted_and_hostile_input_is_refused_clearly() {
        let good = encode(
            &capture(
                &demo_cluster(10),
                SnapshotOptions {
                    view: SnapshotView::Graph,
                    drop_messages: false,
                },
            )
            .unwrap(),
        );
        assert_eq!(decode("hello"), Err(SnapshotError::NotASnapshot));
        assert_eq!(
            decode(&"x".repeat(MAX_ENCODED + 1)),
            Err(SnapshotError::TooLarge(MAX_ENCODED + 1))
        );
        assert!(matches!(
            decode("fl1.!!!"),
            Err(SnapshotError::Corrupted(_))
        ));
        let mut flipped: Vec<char> = good.chars().collect();
        let i = flipped.len() - 10;
        flipped[i] = if flipped[i] == 'A' { 'B' } else { 'A' };
        assert!(matches!(
            decode(&flipped.iter().collect::<String>()),
            Err(SnapshotError::Corrupted(_))
        ));
        assert!(matches!(
            decode(&good[..good.len() / 2]),
            Err(SnapshotError::Corrupted(_))
        ));
        // A zip bomb: 64 MB of zeros deflates to a few KB and must hit the limit.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 64 << 20], 9);
        let mut bytes = vec![VERSION];
        bytes.extend_from_slice(&checksum(&bomb));
        bytes.extend_from_slice(&bomb);
        assert!(matches!(
            decode(&format!("fl1.{}", base64url::encode(&bytes))),
            Err(SnapshotError::Corrupted(_))
        ));
        let mut v2 = good.clone().into_bytes();
        v2[4] = b'Z'; // the first base64 char carries the top 6 bits of the version byte
        assert!(matches!(
            decode(std::str::from_utf8(&v2).unwrap()),
            Err(SnapshotError::UnsupportedVersion(_))
        ));
        assert!(SnapshotError::TooLarge(1).to_string().contains("too large"));
    }
}
