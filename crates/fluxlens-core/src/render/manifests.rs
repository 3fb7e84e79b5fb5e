//! One rendered file's text — YAML (multi-document) or JSON (an array, a `kind: List`, or one
//! object), as `flate build`, `flux-local build`, `kustomize build` and `flux build
//! kustomization` write them — read into located JSON objects. The check walks a directory of
//! them; the dashboard reads a file picked or fetched.

use super::yaml;

use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};

/// One file may be at most this large.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Where a manifest came from: the file, the document in it and, inside a `List`, the item.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Origin {
    pub file: PathBuf,
    pub document: usize,
    pub item: Option<usize>,
    /// The line the document starts on (from 1), when the format gives one (YAML does, JSON
    /// read whole does not).
    pub line: Option<usize>,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, document {}", self.file.display(), self.document)?;
        if let Some(i) = self.item {
            write!(f, ", item {i}")?;
        }
        Ok(())
    }
}

/// One manifest and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    pub origin: Origin,
    pub value: Value,
}

/// Input that cannot be read: the file, the document when known, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct InputError {
    pub file: PathBuf,
    pub document: Option<usize>,
    pub reason: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.document {
            Some(d) => write!(f, "{}, document {d}: {}", self.file.display(), self.reason),
            None => write!(f, "{}: {}", self.file.display(), self.reason),
        }
    }
}

impl std::error::Error for InputError {}

pub(crate) fn error(file: &Path, document: Option<usize>, reason: impl Into<String>) -> InputError {
    InputError {
        file: file.to_path_buf(),
        document,
        reason: reason.into(),
    }
}

/// The manifests of one file's text.
pub fn file(path: &Path, text: &str) -> Result<Vec<Manifest>, InputError> {
    // The YAML scanner reads NUL as the end of input: what follows would be lost unsaid.
    if let Some(at) = text.find('\0') {
        return Err(error(
            path,
            None,
            format!("a NUL character at byte {at}: not a text manifest"),
        ));
    }
    let json = path.extension().is_some_and(|e| e == "json");
    let documents: Vec<(usize, Option<usize>, Value)> = if json {
        let v: Value = serde_json::from_str(text).map_err(|e| {
            error(
                path,
                Some(0),
                format!(
                    "malformed JSON at line {} column {}: {e}",
                    e.line(),
                    e.column()
                ),
            )
        })?;
        match v {
            Value::Array(items) => items
                .into_iter()
                .enumerate()
                .map(|(i, v)| (i, None, v))
                .collect(),
            v => vec![(0, None, v)],
        }
    } else {
        yaml::documents(text)
            .map_err(|e| {
                error(
                    path,
                    Some(e.document),
                    format!(
                        "malformed YAML at line {} column {}: {}",
                        e.line, e.column, e.reason
                    ),
                )
            })?
            .into_iter()
            .map(|d| (d.index, Some(d.line), d.value))
            .collect()
    };
    let mut out = Vec::new();
    for (document, line, value) in documents {
        let origin = |item| Origin {
            file: path.to_path_buf(),
            document,
            item,
            line,
        };
        match value {
            Value::Null => {}
            Value::Object(ref m) if is_list(m) => {
                let items = m.get("items").and_then(Value::as_array).cloned();
                for (i, item) in items.unwrap_or_default().into_iter().enumerate() {
                    if !item.is_object() {
                        return Err(error(
                            path,
                            Some(document),
                            format!("item {i} of the List is not an object"),
                        ));
                    }
                    out.push(Manifest {
                        origin: origin(Some(i)),
                        value: item,
                    });
                }
            }
            Value::Object(_) => out.push(Manifest {
                origin: origin(None),
                value,
            }),
            other => {
                return Err(error(
                    path,
                    Some(document),
                    format!("not an object but {}", shape(&other)),
                ));
            }
        }
    }
    Ok(out)
}

/// `kind: List` (or `…List`, as kubectl writes `ConfigMapList`) with `items`.
fn is_list(m: &serde_json::Map<String, Value>) -> bool {
    m.get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k.ends_with("List"))
        && m.get("items").is_some_and(Value::is_array)
}

fn shape(v: &Value) -> &'static str {
    match v {
        Value::Array(_) => "a list",
        Value::String(_) => "a string",
        Value::Number(_) => "a number",
        Value::Bool(_) => "a boolean",
        _ => "null",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_json_and_lists() {
        let p = Path::new("a.yaml");
        let m = file(
            p,
            "kind: A\nmetadata: {name: x}\n---\nkind: List\nitems: [{kind: B}, {kind: C}]\n",
        )
        .unwrap();
        assert_eq!(m.len(), 3);
        assert_eq!(m[2].origin.to_string(), "a.yaml, document 1, item 1");
        let j = file(Path::new("a.json"), r#"[{"kind":"A"},{"kind":"B"}]"#).unwrap();
        assert_eq!(j[1].origin.document, 1);
        let e = file(Path::new("a.json"), "{\"kind\": ").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("a.json, document 0: malformed JSON at line 1"),
            "{e}"
        );
        let e = file(p, "kind: A\n---\n- 1\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "a.yaml, document 1: not an object but a list"
        );
    }
}
