//! A fleet snapshot link: the rows as shown, redacted, deflated and checksummed like a cluster
//! snapshot (`crate::snapshot`), as `flf1.<base64url>`. It opens read-only and reaches no
//! cluster.

use super::Row;
use crate::snapshot::SnapshotError;
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

/// Redacts and encodes; fails closed (nothing to share when redaction cannot complete).
pub fn encode(snap: &FleetSnapshot) -> Result<String, SnapshotError> {
    let mut v = serde_json::to_value(snap)
        .map_err(|e| SnapshotError::Redaction(format!("the rows could not be walked ({e})")))?;
    let n = crate::redact::redact_json(&mut v);
    let mut clean: FleetSnapshot = serde_json::from_value(v).map_err(|e| {
        SnapshotError::Redaction(format!("the redacted rows did not read back ({e})"))
    })?;
    clean.redacted = n;
    let json = serde_json::to_vec(&clean).unwrap_or_default();
    Ok(crate::snapshot::seal(PREFIX, &json))
}

/// Decodes a fleet link, bounded like a cluster snapshot.
pub fn decode(text: &str) -> Result<FleetSnapshot, SnapshotError> {
    let json = crate::snapshot::unseal(PREFIX, text)?;
    serde_json::from_str(&json).map_err(|e| SnapshotError::Invalid(e.to_string()))
}
