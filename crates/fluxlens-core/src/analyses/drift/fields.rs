//! The fields that decide delivery and trust, read from one object in a form where the API
//! server's ways of writing one value are equal (`10m` and `10m0s`, `./apps` and `apps`, a
//! reference's namespace left to default), so that only a different value is drift.

use crate::model::FluxObject;
use crate::wire::object::{ChartField, CrossRef, RefField, Verify};

/// One compared field: its path as a manifest writes it, and its value on each side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    pub field: &'static str,
    /// As the render declares it.
    pub declared: String,
    /// As the live object has it.
    pub live: String,
}

/// How a field is read: its path, whether the render's silence means a known default (the
/// API server writes none: `suspend` and `prune` false, `path` the artifact's root, no
/// `targetNamespace` or `serviceAccountName`) or "whatever the API server defaulted"
/// (`interval`, a ref's), and its value.
struct Read {
    field: &'static str,
    /// The default a left-out field has; `None`: a left-out field is not compared.
    default: Option<&'static str>,
    value: fn(&FluxObject) -> Option<String>,
}

/// Every delivery field compared, in the order a report lists them. `spec.verify` is apart
/// ([`verify_of`]): its loss is fail-open, not a delivery edit.
const READS: [Read; 14] = [
    Read {
        field: "spec.suspend",
        default: Some("false"),
        value: |o| o.raw.spec.suspend.map(|b| b.to_string()),
    },
    Read {
        field: "spec.sourceRef",
        default: None,
        value: |o| o.raw.spec.source_ref.as_ref().map(|r| reference(o, r)),
    },
    Read {
        field: "spec.chartRef",
        default: None,
        value: |o| o.raw.spec.chart_ref.as_ref().map(|r| reference(o, r)),
    },
    Read {
        field: "spec.chart.spec.chart",
        default: None,
        value: |o| chart_template(o).and_then(|c| c.chart.clone()),
    },
    Read {
        field: "spec.chart.spec.version",
        default: None,
        value: |o| chart_template(o).and_then(|c| c.version.clone()),
    },
    Read {
        field: "spec.chart.spec.sourceRef",
        default: None,
        value: |o| chart_template(o).and_then(|c| c.source_ref.as_ref().map(|r| reference(o, r))),
    },
    Read {
        field: "spec.ref",
        default: None,
        value: |o| o.raw.spec.ref_.as_ref().map(ref_text),
    },
    Read {
        field: "spec.url",
        default: None,
        value: |o| {
            o.raw
                .spec
                .url
                .as_deref()
                .map(|u| u.trim_end_matches('/').to_string())
        },
    },
    Read {
        field: "spec.path",
        // kustomize-controller reads an empty path as the artifact's root.
        default: Some("./"),
        value: |o| o.raw.spec.path.as_deref().map(path),
    },
    Read {
        field: "spec.prune",
        default: Some("false"),
        value: |o| o.raw.spec.prune.map(|b| b.to_string()),
    },
    Read {
        field: "spec.dependsOn",
        default: Some("(none)"),
        value: depends_on,
    },
    Read {
        field: "spec.interval",
        default: None,
        value: |o| o.raw.spec.interval.as_deref().map(interval),
    },
    Read {
        field: "spec.serviceAccountName",
        // Nothing writes one: a live value the render lacks is an edit.
        default: Some("(unset)"),
        value: |o| o.raw.spec.service_account_name.clone(),
    },
    Read {
        field: "spec.targetNamespace",
        default: Some("(unset)"),
        value: |o| o.raw.spec.target_namespace.clone(),
    },
];

/// The fields an object the operator generates from the FluxInstance is compared on: those
/// the instance's `spec.sync` decides. The rest (interval, prune) are the operator's own
/// template's, which a render can only guess.
const GENERATED: [&str; 5] = [
    "spec.sourceRef",
    "spec.ref",
    "spec.url",
    "spec.path",
    "spec.suspend",
];

/// The delivery fields whose values differ. A field the render leaves out is compared only
/// where leaving it out means a known default; otherwise the API server's value stands.
pub fn differences(declared: &FluxObject, live: &FluxObject, generated: bool) -> Vec<Difference> {
    READS
        .iter()
        .filter(|r| !generated || GENERATED.contains(&r.field))
        .filter_map(|r| {
            let d = (r.value)(declared).or(r.default.map(str::to_string))?;
            let l = (r.value)(live)
                .or(r.default.map(str::to_string))
                .unwrap_or_else(|| "(unset)".into());
            (d != l).then_some(Difference {
                field: r.field,
                declared: d,
                live: l,
            })
        })
        .collect()
}

/// `Kind/namespace/name`, the namespace defaulted to the object's own.
fn reference(o: &FluxObject, r: &CrossRef) -> String {
    let ns = r.namespace.as_deref().unwrap_or(&o.key.namespace);
    format!("{}/{ns}/{}", r.kind.as_deref().unwrap_or("?"), r.name)
}

fn chart_template(o: &FluxObject) -> Option<&crate::wire::object::ChartTemplateSpec> {
    match o.raw.spec.chart.as_ref()? {
        ChartField::Template { spec } => Some(spec),
        ChartField::Name(_) => None,
    }
}

fn ref_text(r: &RefField) -> String {
    match r {
        RefField::Plain(s) => s.clone(),
        RefField::Structured(r) => {
            let parts = [
                ("branch", &r.branch),
                ("tag", &r.tag),
                ("semver", &r.semver),
                ("name", &r.name),
                ("commit", &r.commit),
                ("digest", &r.digest),
            ];
            let set: Vec<String> = parts
                .iter()
                .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}: {v}")))
                .collect();
            match set.is_empty() {
                true => "(empty)".into(),
                false => set.join(", "),
            }
        }
    }
}

/// A Kustomization path as kustomize-controller resolves it: `./apps/`, `apps` and `/apps`
/// are one path, as are `./`, `.` and the empty path.
fn path(p: &str) -> String {
    let mut s = p.trim();
    loop {
        let next = s
            .strip_prefix("./")
            .or_else(|| s.strip_prefix('/'))
            .unwrap_or(s);
        if next == s {
            break;
        }
        s = next;
    }
    let s = s.trim_end_matches('/');
    match s {
        "" | "." => "./".into(),
        _ => format!("./{s}"),
    }
}

/// `dependsOn` as a sorted list of `namespace/name` (the namespace defaulted).
fn depends_on(o: &FluxObject) -> Option<String> {
    if o.raw.spec.depends_on.is_empty() {
        return None;
    }
    let mut v: Vec<String> = o
        .raw
        .spec
        .depends_on
        .iter()
        .map(|d| {
            let ns = d.namespace.as_deref().unwrap_or(&o.key.namespace);
            format!("{ns}/{}", d.name)
        })
        .collect();
    v.sort();
    v.dedup();
    Some(v.join(", "))
}

/// A Go duration as the API server may write it back: `10m` and `10m0s` are one value. A text
/// that is not a duration is kept as written.
pub fn interval(text: &str) -> String {
    match duration_ms(text) {
        Some(ms) => format!("{}s", ms as f64 / 1000.0),
        None => text.to_string(),
    }
}

fn duration_ms(text: &str) -> Option<u64> {
    let mut rest = text.trim();
    if rest.is_empty() {
        return None;
    }
    let mut total = 0f64;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let n: f64 = rest[..digits].parse().ok()?;
        rest = &rest[digits..];
        let units = [
            ("ms", 1.0),
            ("h", 3_600_000.0),
            ("m", 60_000.0),
            ("s", 1000.0),
        ];
        let (unit, scale) = units.iter().find(|(u, _)| rest.starts_with(u))?;
        rest = &rest[unit.len()..];
        total += n * scale;
    }
    Some(total.round() as u64)
}

/// `spec.verify` in one form: provider (cosign by default), key or keyless, each identity rule
/// sorted; `None` when nothing is verified. A HelmRelease's is its chart template's.
pub fn verify_of(o: &FluxObject) -> Option<String> {
    let v = o
        .verify()
        .or_else(|| chart_template(o).and_then(|c| c.verify.as_ref()))?;
    Some(describe_verify(v))
}

fn describe_verify(v: &Verify) -> String {
    let provider = v.provider.as_deref().unwrap_or("cosign");
    let mut parts = vec![format!("provider {provider}")];
    if let Some(m) = &v.mode {
        parts.push(format!("mode {m}"));
    }
    if let Some(s) = &v.secret_ref {
        parts.push(format!("key in Secret {}", s.name));
    }
    let mut ids: Vec<String> = v
        .match_oidc_identity
        .iter()
        .map(|i| format!("{} ⇒ {}", i.issuer, i.subject))
        .collect();
    ids.sort();
    if !ids.is_empty() {
        parts.push(format!("identities [{}]", ids.join("; ")));
    }
    parts.join(", ")
}

/// Whether the operator generated `o` from a FluxInstance (its labels say so).
pub fn generated_by_operator(o: &FluxObject) -> bool {
    o.raw
        .metadata
        .labels
        .get(crate::model::owners::OPERATOR_MANAGED_LABEL)
        .is_some_and(|v| v == "flux-operator")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_left_out_field_is_its_default_only_where_nothing_else_writes_it() {
        let obj = |spec: &str| {
            let text = format!(
                r#"{{"kind":"Kustomization","metadata":{{"name":"a","namespace":"n"}},"spec":{spec}}}"#
            );
            FluxObject::from_api(serde_json::from_str::<crate::wire::ApiObject>(&text).unwrap())
                .unwrap()
        };
        let render = obj(r#"{"prune":true}"#);
        let fields = |live: &str| -> Vec<&'static str> {
            differences(&render, &obj(live), false)
                .iter()
                .map(|d| d.field)
                .collect()
        };
        assert!(fields(r#"{"prune":true,"path":"./","interval":"5m"}"#).is_empty());
        assert_eq!(fields(r#"{"prune":true,"path":"./other"}"#), ["spec.path"]);
        assert_eq!(
            fields(r#"{"prune":true,"serviceAccountName":"admin"}"#),
            ["spec.serviceAccountName"]
        );
    }

    #[test]
    fn one_value_written_two_ways_is_equal() {
        assert_eq!(interval("10m"), interval("10m0s"));
        assert_eq!(interval("1h30m"), interval("90m"));
        assert_eq!(interval("500ms"), "0.5s");
        assert_eq!(interval("soon"), "soon");
        assert_eq!(path("./apps/"), path("apps"));
        assert_eq!(path("/apps"), "./apps");
        assert_eq!(path(""), path("./"));
        assert_eq!(path("."), "./");
        assert_ne!(path("./apps/prod"), path("./apps"));
    }
}
