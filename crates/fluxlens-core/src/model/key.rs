use crate::wire::kind::Kind;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Identifies an object as `Kind/namespace/name` (namespace empty when cluster-scoped).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ObjectKey {
    pub kind: Kind,
    pub namespace: String,
    pub name: String,
}

impl ObjectKey {
    /// Builds a key.
    pub fn new(kind: Kind, namespace: impl Into<String>, name: impl Into<String>) -> Self {
        ObjectKey {
            kind,
            namespace: namespace.into(),
            name: name.into(),
        }
    }

    /// The key of an API object; `None` when it has no kind or no name.
    pub fn of(o: &crate::wire::object::ApiObject) -> Option<ObjectKey> {
        let kind = o.kind.as_deref().filter(|k| !k.is_empty())?;
        (!o.metadata.name.is_empty()).then(|| {
            ObjectKey::new(
                Kind::parse(kind),
                o.metadata.namespace.clone(),
                o.metadata.name.clone(),
            )
        })
    }

    /// Parses `Kind/namespace/name` (the `data-node-id` and `managedBy` form).
    pub fn parse(s: &str) -> Option<ObjectKey> {
        let mut it = s.splitn(3, '/');
        let (kind, ns, name) = (it.next()?, it.next()?, it.next()?);
        (!kind.is_empty() && !name.is_empty() && !name.contains('/'))
            .then(|| ObjectKey::new(Kind::parse(kind), ns, name))
    }
}

impl fmt::Display for ObjectKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.kind, self.namespace, self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_parse_round_trip() {
        let k = ObjectKey::new(Kind::OciRepository, "flux-system", "flux-system");
        assert_eq!(k.to_string(), "OCIRepository/flux-system/flux-system");
        assert_eq!(ObjectKey::parse(&k.to_string()), Some(k));
        assert_eq!(ObjectKey::parse("Namespace//team-a").unwrap().namespace, "");
        assert_eq!(ObjectKey::parse("nope"), None);
        assert_eq!(ObjectKey::parse("A/b/c/d"), None);
    }
}
