//! Tolerant JSON models without per-type serde code.
//!
//! Every API model is decoded by walking one parsed [`Value`]: a field that is absent,
//! `null` or of an unexpected shape costs only that field (the Flux Operator API is
//! unversioned in practice and fields change release by release). The walk is a few
//! instructions per field, where serde's derive generated a visitor per type and a
//! deserializer instance per field — ≈ 130 KB of the wasm bundle (BENCHMARKS.md).
//!
//! [`json_struct!`](crate::json_struct) declares a model and its [`FromJson`]/[`ToJson`];
//! [`serde_via_json!`](crate::serde_via_json) gives it `Deserialize`/`Serialize` through
//! `Value`, so `serde_json::from_str::<ApiObject>` keeps working for every caller.

pub use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Decodes a value of the expected shape; `None` on any other shape.
pub trait FromJson: Sized {
    /// The value, or `None` when `v` has another shape.
    fn from_json(v: &Value) -> Option<Self>;
}

/// Encodes a value; [`ToJson::is_absent`] values are left out of objects.
pub trait ToJson {
    /// The JSON form.
    fn to_json(&self) -> Value;
    /// Whether an object field holding this value is omitted (`None`, empty lists and maps).
    fn is_absent(&self) -> bool {
        false
    }
}

/// The field `name` of an object, decoded leniently: absent or mismatched → `Default`.
pub fn field<T: FromJson + Default>(m: &Map<String, Value>, name: &str) -> T {
    m.get(name).and_then(T::from_json).unwrap_or_default()
}

/// Writes `value` as field `name` unless it is absent.
pub fn put<T: ToJson>(m: &mut Map<String, Value>, name: &str, value: &T) {
    if !value.is_absent() {
        m.insert(name.to_string(), value.to_json());
    }
}

/// `{name: value}`: the wrapper objects of the API's untagged unions.
pub fn single(name: &str, value: Value) -> Value {
    let mut m = Map::new();
    m.insert(name.to_string(), value);
    Value::Object(m)
}

impl FromJson for String {
    fn from_json(v: &Value) -> Option<Self> {
        v.as_str().map(str::to_string)
    }
}
impl ToJson for String {
    fn to_json(&self) -> Value {
        Value::String(self.clone())
    }
}

impl FromJson for bool {
    fn from_json(v: &Value) -> Option<Self> {
        v.as_bool()
    }
}
impl ToJson for bool {
    fn to_json(&self) -> Value {
        Value::Bool(*self)
    }
}

impl FromJson for i64 {
    fn from_json(v: &Value) -> Option<Self> {
        v.as_i64()
    }
}
impl ToJson for i64 {
    fn to_json(&self) -> Value {
        Value::from(*self)
    }
}

impl FromJson for u64 {
    fn from_json(v: &Value) -> Option<Self> {
        v.as_u64()
    }
}
impl ToJson for u64 {
    fn to_json(&self) -> Value {
        Value::from(*self)
    }
}

impl FromJson for u32 {
    fn from_json(v: &Value) -> Option<Self> {
        v.as_u64().and_then(|n| u32::try_from(n).ok())
    }
}
impl ToJson for u32 {
    fn to_json(&self) -> Value {
        Value::from(*self)
    }
}

impl FromJson for usize {
    fn from_json(v: &Value) -> Option<Self> {
        v.as_u64().and_then(|n| usize::try_from(n).ok())
    }
}
impl ToJson for usize {
    fn to_json(&self) -> Value {
        Value::from(*self as u64)
    }
}

/// Always `Some`: a mismatched inner value is `None`, so `Option` fields never fail.
impl<T: FromJson> FromJson for Option<T> {
    fn from_json(v: &Value) -> Option<Self> {
        Some(T::from_json(v))
    }
}
impl<T: ToJson> ToJson for Option<T> {
    fn to_json(&self) -> Value {
        self.as_ref().map_or(Value::Null, T::to_json)
    }
    fn is_absent(&self) -> bool {
        self.is_none()
    }
}

impl<T: FromJson> FromJson for Box<T> {
    fn from_json(v: &Value) -> Option<Self> {
        T::from_json(v).map(Box::new)
    }
}
impl<T: ToJson> ToJson for Box<T> {
    fn to_json(&self) -> Value {
        (**self).to_json()
    }
}
impl<T: ToJson> ToJson for std::sync::Arc<T> {
    fn to_json(&self) -> Value {
        (**self).to_json()
    }
}

/// A list keeps the items of the expected shape; a non-list is `None` (empty as a field).
impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(v: &Value) -> Option<Self> {
        Some(v.as_array()?.iter().filter_map(T::from_json).collect())
    }
}
impl<T: ToJson> ToJson for Vec<T> {
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(T::to_json).collect())
    }
    fn is_absent(&self) -> bool {
        self.is_empty()
    }
}

/// A pair is a list of exactly two items of the expected shapes (a supported range, low and
/// high).
impl<A: FromJson, B: FromJson> FromJson for (A, B) {
    fn from_json(v: &Value) -> Option<Self> {
        match v.as_array()?.as_slice() {
            [a, b] => Some((A::from_json(a)?, B::from_json(b)?)),
            _ => None,
        }
    }
}
impl<A: ToJson, B: ToJson> ToJson for (A, B) {
    fn to_json(&self) -> Value {
        Value::Array(vec![self.0.to_json(), self.1.to_json()])
    }
}

/// A string map (labels, annotations, artifact metadata); non-string values are dropped.
impl FromJson for BTreeMap<String, String> {
    fn from_json(v: &Value) -> Option<Self> {
        let mut out = BTreeMap::new();
        for (k, v) in v.as_object()? {
            if let Some(s) = v.as_str() {
                out.insert(k.clone(), s.to_string());
            }
        }
        Some(out)
    }
}
impl ToJson for BTreeMap<String, String> {
    fn to_json(&self) -> Value {
        Value::Object(
            self.iter()
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect(),
        )
    }
    fn is_absent(&self) -> bool {
        self.is_empty()
    }
}

/// `Deserialize`/`Serialize` for [`FromJson`]/[`ToJson`] types, through `Value`: one shared
/// `Value` (de)serializer per format instead of per-type code. At the top level a value of
/// the wrong shape (a list where an object was expected) is an error; inside, fields are
/// lenient as [`field`] says.
#[macro_export]
macro_rules! serde_via_json {
    ($($name:ty),* $(,)?) => {$(
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let v = <$crate::wire::json::Value as serde::Deserialize>::deserialize(d)?;
                <$name as $crate::wire::json::FromJson>::from_json(&v).ok_or_else(|| {
                    <D::Error as serde::de::Error>::custom(concat!(
                        "unexpected JSON shape for ",
                        stringify!($name)
                    ))
                })
            }
        }
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                serde::Serialize::serialize(&$crate::wire::json::ToJson::to_json(self), s)
            }
        }
    )*};
}

/// Declares a tolerant model: a struct whose fields are read from and written to the
/// given JSON names (see [`field`], [`put`]), with `FromJson`, `ToJson` and serde impls.
#[macro_export]
macro_rules! json_struct {
    (
        $(#[$m:meta])*
        pub struct $name:ident {
            $( $(#[$fm:meta])* pub $field:ident : $ty:ty = $json:literal ),* $(,)?
        }
    ) => {
        $(#[$m])*
        #[derive(Debug, Clone, Default, PartialEq, Hash)]
        pub struct $name {
            $( $(#[$fm])* pub $field: $ty, )*
        }
        impl $crate::wire::json::FromJson for $name {
            fn from_json(v: &$crate::wire::json::Value) -> Option<Self> {
                let _m = v.as_object()?;
                Some(Self { $( $field: $crate::wire::json::field(_m, $json), )* })
            }
        }
        impl $crate::wire::json::ToJson for $name {
            fn to_json(&self) -> $crate::wire::json::Value {
                let mut m = $crate::wire::json::Map::new();
                $( $crate::wire::json::put(&mut m, $json, &self.$field); )*
                $crate::wire::json::Value::Object(m)
            }
        }
        $crate::serde_via_json!($name);
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::json_struct!(
        /// A probe of every field form.
        pub struct Probe {
            pub n: Option<u64> = "n",
            pub xs: Vec<u64> = "xs",
            pub m: BTreeMap<String, String> = "m",
            pub s: String = "s",
            pub inner: Option<Box<Probe>> = "inner",
        }
    );

    #[test]
    fn a_pair_is_a_list_of_exactly_two() {
        let pair = |text: &str| <(String, u64)>::from_json(&serde_json::from_str(text).unwrap());
        assert_eq!(pair(r#"["1.33", 2]"#), Some(("1.33".to_string(), 2)));
        assert_eq!(pair(r#"["1.33"]"#), None);
        assert_eq!(pair(r#"["1.33", 2, 3]"#), None);
        assert_eq!(pair(r#"[2, "1.33"]"#), None);
        assert_eq!(
            ("a".to_string(), 1u64).to_json(),
            serde_json::json!(["a", 1])
        );
    }

    #[test]
    fn mismatched_fields_cost_only_themselves() {
        let p: Probe =
            serde_json::from_str(r#"{"n":"x","xs":[1,"a",3],"m":{"a":"b","c":1},"s":5}"#).unwrap();
        assert_eq!(p.n, None);
        assert_eq!(p.xs, vec![1, 3]);
        assert_eq!(p.m.len(), 1);
        assert_eq!(p.s, "");
        let p: Probe =
            serde_json::from_str(r#"{"n":null,"xs":{"a":1},"m":null,"inner":"no"}"#).unwrap();
        assert_eq!((p.n, p.xs.len(), p.m.len(), p.inner), (None, 0, 0, None));
        // At the top level a non-object is an error; nested, it costs only its field.
        assert!(serde_json::from_str::<Probe>("[1]").is_err());
        assert!(serde_json::from_str::<Probe>("{").is_err());
    }

    #[test]
    fn round_trips_and_omits_absent_fields() {
        let text = r#"{"inner":{"s":"deep","xs":[7]},"m":{"k":"v"},"n":3,"s":"x","xs":[1,2]}"#;
        let p: Probe = serde_json::from_str(text).unwrap();
        assert_eq!(p.inner.as_ref().unwrap().s, "deep");
        assert_eq!(serde_json::to_string(&p).unwrap(), text);
        let empty = serde_json::to_string(&Probe::default()).unwrap();
        assert_eq!(empty, r#"{"s":""}"#);
    }
}
