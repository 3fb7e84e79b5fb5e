//! Multi-document YAML to JSON values, driven by yaml-rust2's event parser with an explicit
//! stack: nesting, document count and alias expansion are bounded, duplicate keys are refused
//! (kubectl refuses them too), and every fault names the document it is in.

use serde_json::{Map, Number, Value};
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// Nesting deeper than this is refused (a rendered manifest rarely goes past 20).
pub const MAX_DEPTH: usize = 128;
/// Nodes one document may hold once its aliases are expanded (a "billion laughs" stops here).
pub const MAX_NODES: usize = 2_000_000;
/// Documents one file may hold.
pub const MAX_DOCUMENTS: usize = 100_000;

/// One YAML document: its index in the file (from 0) and the line it starts on.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    pub index: usize,
    pub line: usize,
    pub value: Value,
}

/// Why a file could not be read, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct YamlError {
    /// The document the fault is in (from 0).
    pub document: usize,
    pub line: usize,
    pub column: usize,
    pub reason: String,
}

/// A collection being built.
enum Open {
    Seq(Vec<Value>, usize),
    Map(Map<String, Value>, Option<String>, usize),
}

/// The state of one file's parse.
struct Builder {
    documents: Vec<Document>,
    stack: Vec<Open>,
    anchors: Vec<(usize, Value, usize)>,
    root: Option<Value>,
    nodes: usize,
    doc_line: usize,
}

/// Reads every document of `text`. An empty document (a lone `---`) is kept as `null`.
pub fn documents(text: &str) -> Result<Vec<Document>, YamlError> {
    let mut parser = Parser::new_from_str(text);
    let mut b = Builder {
        documents: Vec::new(),
        stack: Vec::new(),
        anchors: Vec::new(),
        root: None,
        nodes: 0,
        doc_line: 1,
    };
    loop {
        let (event, mark) = parser.next_token().map_err(|e| YamlError {
            document: b.documents.len(),
            line: e.marker().line(),
            column: e.marker().col() + 1,
            reason: e.info().to_string(),
        })?;
        let document = b.documents.len();
        let at = |reason: String| YamlError {
            document,
            line: mark.line(),
            column: mark.col() + 1,
            reason,
        };
        match event {
            Event::StreamEnd => return Ok(b.documents),
            Event::DocumentStart => {
                if b.documents.len() >= MAX_DOCUMENTS {
                    return Err(at(format!(
                        "more than {MAX_DOCUMENTS} documents in one file"
                    )));
                }
                b.doc_line = mark.line();
                b.nodes = 0;
                b.anchors.clear();
            }
            Event::DocumentEnd => {
                let value = b.root.take().unwrap_or(Value::Null);
                b.documents.push(Document {
                    index: b.documents.len(),
                    line: b.doc_line,
                    value,
                });
            }
            other => b.event(other, &mark).map_err(at)?,
        }
    }
}

impl Builder {
    fn event(&mut self, event: Event, mark: &Marker) -> Result<(), String> {
        match event {
            Event::Scalar(text, style, anchor, tag) => {
                let v = scalar(text, style, tag.as_ref());
                self.value(v, anchor, 1)
            }
            Event::Alias(id) => {
                let (v, size) = self
                    .anchors
                    .iter()
                    .rev()
                    .find(|(a, _, _)| *a == id)
                    .map(|(_, v, n)| (v.clone(), *n))
                    .ok_or("an alias to an anchor that is not defined")?;
                self.value(v, 0, size)
            }
            Event::SequenceStart(anchor, _) => self.open(Open::Seq(Vec::new(), anchor)),
            Event::MappingStart(anchor, _) => self.open(Open::Map(Map::new(), None, anchor)),
            Event::SequenceEnd | Event::MappingEnd => {
                let (v, anchor) = match self.stack.pop() {
                    Some(Open::Seq(items, a)) => (Value::Array(items), a),
                    Some(Open::Map(m, _, a)) => (Value::Object(m), a),
                    None => return Err(format!("unbalanced collection at line {}", mark.line())),
                };
                // The node itself was counted when it opened.
                self.value(v, anchor, 0)
            }
            _ => Ok(()),
        }
    }

    fn open(&mut self, o: Open) -> Result<(), String> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(format!("nested deeper than {MAX_DEPTH} levels"));
        }
        self.count(1)?;
        self.stack.push(o);
        Ok(())
    }

    fn count(&mut self, n: usize) -> Result<(), String> {
        self.nodes = self.nodes.saturating_add(n);
        if self.nodes > MAX_NODES {
            return Err(format!(
                "more than {MAX_NODES} values once its aliases are expanded"
            ));
        }
        Ok(())
    }

    /// Places a finished value into its parent (or as the document), remembering its anchor.
    fn value(&mut self, v: Value, anchor: usize, size: usize) -> Result<(), String> {
        self.count(size)?;
        if anchor > 0 {
            self.anchors.push((anchor, v.clone(), size_of(&v)));
        }
        match self.stack.last_mut() {
            None => self.root = Some(v),
            Some(Open::Seq(items, _)) => items.push(v),
            Some(Open::Map(_, key @ None, _)) => *key = Some(map_key(v)?),
            Some(Open::Map(m, key, _)) => {
                let k = key.take().unwrap_or_default();
                if m.contains_key(&k) {
                    return Err(format!("duplicate key '{}'", shorten(&k)));
                }
                m.insert(k, v);
            }
        }
        Ok(())
    }
}

/// A mapping key as JSON needs it: a scalar, spelled as text.
fn map_key(v: Value) -> Result<String, String> {
    match v {
        Value::String(s) => Ok(s),
        Value::Null => Ok(String::new()),
        Value::Bool(b) => Ok(b.to_string()),
        Value::Number(n) => Ok(n.to_string()),
        _ => Err("a mapping key that is not a scalar".into()),
    }
}

/// A scalar as the YAML 1.2 core schema reads it: quoted (or `!!str`) is text; a plain one may
/// be null, a boolean or a number.
fn scalar(text: String, style: TScalarStyle, tag: Option<&Tag>) -> Value {
    let forced_str = tag.is_some_and(|t| t.handle == "tag:yaml.org,2002:" && t.suffix == "str")
        || tag.is_some_and(|t| t.handle == "!!" && t.suffix == "str");
    if style != TScalarStyle::Plain || forced_str {
        return Value::String(text);
    }
    match yaml_rust2::Yaml::from_str(&text) {
        yaml_rust2::Yaml::Null => Value::Null,
        yaml_rust2::Yaml::Boolean(b) => Value::Bool(b),
        yaml_rust2::Yaml::Integer(i) => Value::Number(i.into()),
        yaml_rust2::Yaml::Real(r) => r
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map(Value::Number)
            .unwrap_or(Value::String(text)),
        _ => Value::String(text),
    }
}

/// The number of values in `v` (itself included).
fn size_of(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(size_of).sum::<usize>(),
        Value::Object(m) => 1 + m.values().map(size_of).sum::<usize>(),
        _ => 1,
    }
}

/// At most 60 characters of a key, for a message.
fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn documents_scalars_and_indices() {
        let docs =
            documents("a: 1\nb: '2'\nc: true\nd: ~\ne: 1.5\n---\n---\n- x\n- 'y'\n").unwrap();
        assert_eq!(docs.len(), 3);
        assert_eq!(
            docs[0].value,
            json!({"a":1,"b":"2","c":true,"d":null,"e":1.5})
        );
        assert_eq!(docs[1].value, Value::Null);
        assert_eq!(docs[2].value, json!(["x", "y"]));
        assert_eq!((docs[2].index, docs[2].line), (2, 7));
    }

    #[test]
    fn faults_name_the_document() {
        let e = documents("a: 1\n---\nb: [1, 2\n").unwrap_err();
        assert_eq!(e.document, 1, "{e:?}");
        let e = documents("kind: A\nkind: B\n").unwrap_err();
        assert_eq!(e.reason, "duplicate key 'kind'");
        let e = documents("? [a]\n: 1\n").unwrap_err();
        assert!(e.reason.contains("not a scalar"), "{e:?}");
    }

    #[test]
    fn aliases_expand_within_a_budget() {
        assert_eq!(
            documents("a: &x {k: v}\nb: *x\n").unwrap()[0].value,
            json!({"a":{"k":"v"},"b":{"k":"v"}})
        );
        let mut laughs = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        for (i, c) in "bcdefghij".chars().enumerate() {
            let p = (b'a' + i as u8) as char;
            laughs.push_str(&format!(
                "{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
            ));
        }
        let e = documents(&laughs).unwrap_err();
        assert!(e.reason.contains("aliases are expanded"), "{e:?}");
    }

    #[test]
    fn nesting_is_bounded() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(documents(&deep).is_err());
        let mut block = String::new();
        for i in 0..300 {
            block.push_str(&format!("{}k:\n", " ".repeat(i)));
        }
        let e = documents(&block).unwrap_err();
        assert!(e.reason.contains("nested deeper"), "{e:?}");
    }
}
