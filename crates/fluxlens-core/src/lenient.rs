//! Deserialisation helpers that never fail a whole object because one field has an
//! unexpected shape. The Flux Operator API is unversioned in practice and fields are added
//! release by release, so one odd field must cost that field only.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// Decodes `T` when the value has the expected shape; absent, `null` or mismatched → `None`.
pub fn opt<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    let v = Value::deserialize(d)?;
    Ok(serde_json::from_value(v).ok())
}

/// Decodes a list, keeping the items that have the expected shape; a non-list is empty.
pub fn vec<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    Ok(match Value::deserialize(d)? {
        Value::Array(items) => items
            .into_iter()
            .filter_map(|i| serde_json::from_value(i).ok())
            .collect(),
        _ => Vec::new(),
    })
}

/// Decodes a value with its `Default` on any mismatch (used for nested structs).
pub fn or_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned + Default,
{
    let v = Value::deserialize(d)?;
    Ok(serde_json::from_value(v).unwrap_or_default())
}

/// A string map (labels, annotations, artifact metadata); non-string values are dropped.
pub fn string_map<'de, D>(d: D) -> Result<std::collections::BTreeMap<String, String>, D::Error>
where
    D: Deserializer<'de>,
{
    Ok(match Value::deserialize(d)? {
        Value::Object(m) => m
            .into_iter()
            .filter_map(|(k, v)| match v {
                Value::String(s) => Some((k, s)),
                _ => None,
            })
            .collect(),
        _ => Default::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize, Default)]
    struct Probe {
        #[serde(default, deserialize_with = "opt")]
        n: Option<u32>,
        #[serde(default, deserialize_with = "vec")]
        xs: Vec<u32>,
        #[serde(default, deserialize_with = "string_map")]
        m: std::collections::BTreeMap<String, String>,
    }

    #[test]
    fn mismatched_fields_cost_only_themselves() {
        let p: Probe =
            serde_json::from_str(r#"{"n":"x","xs":[1,"a",3],"m":{"a":"b","c":1}}"#).unwrap();
        assert_eq!(p.n, None);
        assert_eq!(p.xs, vec![1, 3]);
        assert_eq!(p.m.len(), 1);
        let p: Probe = serde_json::from_str(r#"{"n":null,"xs":{"a":1},"m":null}"#).unwrap();
        assert_eq!((p.n, p.xs.len(), p.m.len()), (None, 0, 0));
    }
}
