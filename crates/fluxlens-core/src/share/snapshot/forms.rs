//! The JSON forms of what a snapshot, a kept copy and the kept visits carry, written and read
//! through core's one JSON walk ([`FromJson`]/[`ToJson`] over a parsed [`Value`]) rather than
//! serde's derive: in the app, the typed (de)serializers of every carried type were about two
//! fifths of the code a first visit fetches after its view to keep its read (BENCHMARKS.md,
//! "The snapshot codec through core's JSON walk").
//!
//! The forms are the ones serde's derive wrote, field for field (a test compares them with the
//! derive's on every type), so links made before still open, and an older fluxlens opens the
//! links made now. Reading is as strict as the derive was where it matters: a required field
//! that is missing, or a list with an item of another shape, makes the whole value unreadable
//! (the snapshot then says it cannot be read) instead of quietly losing that item.

use crate::analyses::carried::{Carried, CarriedVerdicts};
use crate::analyses::changes::digest::{FindingDigest, ObjectDigest, StageDigest, VisitDigest};
use crate::analyses::drift::{Drift, Judged};
use crate::analyses::finding::{Finding, Severity};
use crate::model::{Answer, ObjectKey};
use crate::wire::json::{FromJson, Map, ToJson, Value, put};
use crate::wire::kind::Kind;
use crate::wire::status::Status;

use super::{Snapshot, SnapshotView};

/// The object a value must be.
pub(crate) fn object(v: &Value) -> Option<&Map<String, Value>> {
    v.as_object()
}

/// A field the derive required: present and of its shape.
pub(crate) fn need<T: FromJson>(m: &Map<String, Value>, name: &str) -> Option<T> {
    T::from_json(m.get(name)?)
}

/// A field the derive defaulted (`#[serde(default)]`, or an `Option`): absent or `null` is the
/// default, another shape is unreadable.
pub(crate) fn or_default<T: FromJson + Default>(m: &Map<String, Value>, name: &str) -> Option<T> {
    match m.get(name) {
        None | Some(Value::Null) => Some(T::default()),
        Some(v) => T::from_json(v),
    }
}

/// An `Option` field: absent or `null` is `None`, another shape than the value's is unreadable.
pub(crate) fn maybe<T: FromJson>(m: &Map<String, Value>, name: &str) -> Option<Option<T>> {
    match m.get(name) {
        None | Some(Value::Null) => Some(None),
        Some(v) => T::from_json(v).map(Some),
    }
}

/// Writes a field as the derive did: always, `null` for `None` and `[]` for an empty list.
pub(crate) fn set<T: ToJson>(m: &mut Map<String, Value>, name: &str, value: &T) {
    m.insert(name.to_string(), value.to_json());
}

/// A list whose every item has its shape (the derive refused the whole list otherwise).
pub(crate) struct Strict<T>(pub Vec<T>);

impl<T: FromJson> FromJson for Strict<T> {
    fn from_json(v: &Value) -> Option<Self> {
        let items = v.as_array()?.iter().map(T::from_json);
        items.collect::<Option<Vec<T>>>().map(Strict)
    }
}

impl<T> Default for Strict<T> {
    fn default() -> Self {
        Strict(Vec::new())
    }
}

/// A required list, every item of its shape.
pub(crate) fn need_list<T: FromJson>(m: &Map<String, Value>, name: &str) -> Option<Vec<T>> {
    need::<Strict<T>>(m, name).map(|s| s.0)
}

/// A defaulted list, every item of its shape.
pub(crate) fn list_or_empty<T: FromJson>(m: &Map<String, Value>, name: &str) -> Option<Vec<T>> {
    or_default::<Strict<T>>(m, name).map(|s| s.0)
}

/// `FromJson`/`ToJson` for a struct in the derive's form: each field under its Rust name, read
/// by `$read` (`need`, `or_default`, `maybe`, `need_list`, `list_or_empty`) and written by
/// `$write` (`set`, or `put` for a field the derive skipped when absent); `skip` fields are not
/// carried and take the given value when read.
macro_rules! json_form {
    ($ty:ident { $($field:ident: $read:ident, $write:ident;)* } $(skip { $($skip:ident: $val:expr),* })?) => {
        impl $crate::wire::json::FromJson for $ty {
            fn from_json(v: &$crate::wire::json::Value) -> Option<Self> {
                use $crate::share::snapshot::forms::*;
                let m = object(v)?;
                Some($ty { $($field: $read(m, stringify!($field))?,)* $($($skip: $val,)*)? })
            }
        }
        impl $crate::wire::json::ToJson for $ty {
            fn to_json(&self) -> $crate::wire::json::Value {
                use $crate::share::snapshot::forms::*;
                let mut m = $crate::wire::json::Map::new();
                $($write(&mut m, stringify!($field), &self.$field);)*
                $crate::wire::json::Value::Object(m)
            }
        }
    };
}
pub(crate) use json_form;

/// A unit enum's variant, by its name.
fn variant<T: Copy>(v: &Value, all: &[(T, &str)]) -> Option<T> {
    let name = v.as_str()?;
    all.iter().find(|(_, n)| *n == name).map(|(t, _)| *t)
}

/// A unit enum's name.
fn name_of<T: Copy + PartialEq>(t: T, all: &[(T, &'static str)]) -> Value {
    let name = all.iter().find(|(x, _)| *x == t).map_or("", |(_, n)| n);
    Value::String(name.to_string())
}

/// Declares `FromJson`/`ToJson` for a unit enum, each variant by its Rust name (the derive's).
macro_rules! unit_enum_json {
    ($ty:ident: $($v:ident),* $(,)?) => {
        impl $ty {
            const JSON_NAMES: &'static [($ty, &'static str)] = &[$(($ty::$v, stringify!($v))),*];
        }
        impl FromJson for $ty {
            fn from_json(v: &Value) -> Option<Self> {
                variant(v, Self::JSON_NAMES)
            }
        }
        impl ToJson for $ty {
            fn to_json(&self) -> Value {
                name_of(*self, Self::JSON_NAMES)
            }
        }
    };
}

unit_enum_json!(Status: Ready, Failed, Progressing, Suspended, Unknown, Missing, NotVisible);
unit_enum_json!(Severity: Info, Low, Medium, High, Critical);
unit_enum_json!(SnapshotView: Graph, Signatures, Migrations, Compliance, Overview, Drift);

impl FromJson for Kind {
    fn from_json(v: &Value) -> Option<Self> {
        v.as_str().map(Kind::parse)
    }
}
impl ToJson for Kind {
    fn to_json(&self) -> Value {
        Value::String(self.as_str().to_string())
    }
}

json_form!(ObjectKey {
    kind: need, set;
    namespace: need, set;
    name: need, set;
});

/// `"NotFound"`, `"Forbidden"`, `"Error"`, or `{"Found": "<reason>"}`: the derive's external tags.
impl FromJson for Answer {
    fn from_json(v: &Value) -> Option<Self> {
        match v {
            Value::String(s) => match s.as_str() {
                "NotFound" => Some(Answer::NotFound),
                "Forbidden" => Some(Answer::Forbidden),
                "Error" => Some(Answer::Error),
                _ => None,
            },
            Value::Object(m) if m.len() == 1 => need(m, "Found").map(Answer::Found),
            _ => None,
        }
    }
}
impl ToJson for Answer {
    fn to_json(&self) -> Value {
        let tag = |s: &str| Value::String(s.to_string());
        match self {
            Answer::Found(s) => crate::wire::json::single("Found", s.to_json()),
            Answer::NotFound => tag("NotFound"),
            Answer::Forbidden => tag("Forbidden"),
            Answer::Error => tag("Error"),
        }
    }
}

json_form!(Finding {
    rule: need, set;
    severity: need, set;
    subject: need, set;
    message: need, set;
    evidence: need_list, set;
    remediation: need, set;
    reason: or_default, set;
    members: list_or_empty, set;
});

/// Untagged: a number is the receiver's own finding at that position, an object a finding.
impl FromJson for Carried {
    fn from_json(v: &Value) -> Option<Self> {
        match v {
            Value::Number(_) => u32::from_json(v).map(Carried::Same),
            _ => Finding::from_json(v).map(|f| Carried::Own(Box::new(f))),
        }
    }
}
impl ToJson for Carried {
    fn to_json(&self) -> Value {
        match self {
            Carried::Same(n) => n.to_json(),
            Carried::Own(f) => f.to_json(),
        }
    }
}

/// One profile's carried ENT findings: `[profile, [carried…]]`.
struct Profile(String, Vec<Carried>);

impl FromJson for Profile {
    fn from_json(v: &Value) -> Option<Self> {
        match v.as_array()?.as_slice() {
            [name, items] => Some(Profile(
                String::from_json(name)?,
                Strict::from_json(items)?.0,
            )),
            _ => None,
        }
    }
}

impl FromJson for CarriedVerdicts {
    fn from_json(v: &Value) -> Option<Self> {
        let m = object(v)?;
        let ent: Vec<Profile> = need_list(m, "ent")?;
        Some(CarriedVerdicts {
            per_object: need_list(m, "per_object")?,
            ent: ent.into_iter().map(|Profile(n, c)| (n, c)).collect(),
        })
    }
}
impl ToJson for CarriedVerdicts {
    fn to_json(&self) -> Value {
        let mut m = Map::new();
        set(&mut m, "per_object", &self.per_object);
        set(&mut m, "ent", &self.ent);
        Value::Object(m)
    }
}

json_form!(Drift {
    findings: need_list, set;
    compared: need, set;
    in_sync: need, set;
    not_compared: need_list, set;
});

json_form!(Judged {
    render: need, set;
    revision: maybe, set;
    drift: need, set;
    unconfirmed: or_default, set;
});

// `drift` is left out when absent, as the derive did (`skip_serializing_if`).
json_form!(Snapshot {
    view: need, set;
    captured_at_ms: maybe, set;
    report: need, set;
    objects: need_list, set;
    owners: list_or_empty, set;
    crds: list_or_empty, set;
    crds_forbidden: or_default, set;
    incomplete_kinds: list_or_empty, set;
    partial: maybe, set;
    unreadable: list_or_empty, set;
    confirmations: list_or_empty, set;
    unconfirmed: list_or_empty, set;
    instance_events: list_or_empty, set;
    verdicts: maybe, set;
    drift: maybe, put;
}
    skip { redacted: 0 });

// `revision` and `verify` are left out when absent, as the derive did.
json_form!(ObjectDigest {
    key: need, set;
    status: need, set;
    revision: maybe, put;
    verify: maybe, put;
});

json_form!(FindingDigest {
    rule: need, set;
    subject: need, set;
    severity: need, set;
    message: need, set;
});

json_form!(StageDigest {
    migration: need, set;
    migration_title: need, set;
    stage: need, set;
    title: need, set;
    state: need, set;
});

json_form!(VisitDigest {
    read_at_ms: need, set;
    objects: need_list, set;
    findings: need_list, set;
    stages: need_list, set;
    incomplete_kinds: list_or_empty, set;
    partial: or_default, set;
});

/// The JSON text of a value (the snapshot codec's one writer).
pub(crate) fn to_text<T: ToJson>(value: &T) -> Vec<u8> {
    value.to_json().to_string().into_bytes()
}

/// A value read from JSON text; `Err` names what did not read.
pub(crate) fn from_text<T: FromJson>(text: &str, what: &str) -> Result<T, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    T::from_json(&v).ok_or_else(|| format!("the {what} is not of the expected shape"))
}

#[cfg(test)]
mod tests;
