//! A fleet snapshot link: the rows as shown, redacted, deflated and checksummed like a cluster
//! snapshot (`crate::share::snapshot`), as `flf1.<base64url>`. It opens read-only and reaches no
//! cluster.

use super::Row;
use crate::share::snapshot::SnapshotError;
use serde::{Deserialize, Serialize};

const PREFIX: &str = "flf1.";

/// What a fleet link carries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FleetSnapshot {
    pub captured_at_ms: i64,
    /// The fleet view's query when it was taken (sort, filters, waves).
    pub query: String,
    pub rows: Vec<Row>,
    /// Values the redaction removed.
    #[serde(default)]
    pub redacted: usize,
}

/// Redacts and encodes: the link and how many values the redaction removed. Fails closed
/// (nothing to share when the rows cannot be walked). The redacted tree is written as it is,
/// not read back into rows: one deserializer for the rows in the bundle, not two.
pub fn encode(snap: &FleetSnapshot) -> Result<(String, usize), SnapshotError> {
    let mut v = serde_json::to_value(snap)
        .map_err(|e| SnapshotError::Redaction(format!("the rows could not be walked ({e})")))?;
    let n = crate::util::redact::redact_json(&mut v);
    let Some(fields) = v.as_object_mut() else {
        return Err(SnapshotError::Redaction(
            "the rows are not an object".into(),
        ));
    };
    fields.insert("redacted".into(), n.into());
    let json = serde_json::to_string(&v).unwrap_or_default();
    Ok((crate::share::snapshot::seal(PREFIX, json.as_bytes()), n))
}

/// Decodes a fleet link, bounded like a cluster snapshot.
pub fn decode(text: &str) -> Result<FleetSnapshot, SnapshotError> {
    let json = crate::share::snapshot::unseal(PREFIX, text)?;
    serde_json::from_str(&json).map_err(|e| SnapshotError::Invalid(e.to_string()))
}
