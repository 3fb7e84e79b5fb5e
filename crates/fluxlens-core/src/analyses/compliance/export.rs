//! Evidence export: JSON, Markdown and CSV, each carrying the data's timestamp and the
//! cluster's identity.

use super::{ComponentImage, Control, Profile};
use crate::analyses::finding::Finding;
use crate::model::Cluster;
use serde_json::json;

/// Where the evidence's data came from: a reviewer must know whether it was read from the
/// cluster, and when (#46: evidence from a snapshot did not say it was one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DataSource {
    /// Read from the cluster's API; `stale_since_ms` when the last refreshes failed.
    Live { stale_since_ms: Option<i64> },
    /// A snapshot opened from a link or a file: the sender's capture, not re-read.
    Snapshot,
    /// This browser's copy of the last visit, before the first live read landed.
    LastVisit,
}

impl DataSource {
    /// The `data_source` value of the evidence.
    pub fn describe(self) -> String {
        match self {
            DataSource::Live {
                stale_since_ms: None,
            } => "live API".into(),
            DataSource::Live {
                stale_since_ms: Some(t),
            } => format!(
                "live API, stale since {} (refreshes failing)",
                crate::util::time::format_rfc3339(t)
            ),
            DataSource::Snapshot => {
                "snapshot (captured by its sender at captured_at; not read from the cluster)".into()
            }
            DataSource::LastVisit => {
                "this browser's copy of the last visit (read at captured_at; not yet refreshed)"
                    .into()
            }
        }
    }
}

/// Everything an evidence file holds.
pub struct Evidence<'a> {
    pub source: DataSource,
    pub cluster: &'a Cluster,
    pub profile: &'a Profile,
    pub components: &'a [ComponentImage],
    pub controls: &'a [Control],
    pub findings: &'a [Finding],
}

fn identity(c: &Cluster, source: DataSource) -> Vec<(&'static str, String)> {
    let s = &c.report.spec;
    let or = |v: Option<String>| v.unwrap_or_else(|| "unknown".into());
    vec![
        ("data_source", source.describe()),
        (
            "captured_at",
            c.notes
                .captured_at_ms
                .map(crate::util::time::format_rfc3339)
                .unwrap_or_else(|| "unknown".into()),
        ),
        ("flux_version", or(s.distribution.version.clone())),
        (
            "distribution_managed_by",
            or(s.distribution.managed_by.clone()),
        ),
        ("entitlement", or(s.distribution.entitlement.clone())),
        (
            "operator_version",
            or(s.operator.as_ref().and_then(|o| o.version.clone())),
        ),
        (
            "kubernetes_version",
            or(s.cluster.as_ref().and_then(|k| k.server_version.clone())),
        ),
        (
            "platform",
            or(s.cluster.as_ref().and_then(|k| k.platform.clone())),
        ),
        (
            "sync_source",
            or(s.sync.as_ref().and_then(|k| k.source.clone())),
        ),
    ]
}

impl Evidence<'_> {
    /// JSON evidence.
    pub fn to_json(&self) -> String {
        let id: serde_json::Map<String, serde_json::Value> = identity(self.cluster, self.source)
            .into_iter()
            .map(|(k, v)| (k.to_string(), json!(v)))
            .collect();
        let mut v = json!({
            "generator": "fluxlens",
            "cluster": id,
            "profile": {"name": self.profile.name().as_str(), "require_enterprise": self.profile.require_enterprise, "require_fips": self.profile.require_fips, "min_operator_version": self.profile.min_operator_version},
            "controls": self.controls.iter().map(|c| json!({"rule": c.rule, "title": c.title, "result": c.outcome.as_str()})).collect::<Vec<_>>(),
            "components": self.components.iter().map(|x| json!({"name": x.name, "image": x.image, "registry": x.registry, "variant": x.variant.as_str(), "tag": x.tag, "digest": x.digest, "pinned": x.digest.is_some(), "provenance": x.provenance()})).collect::<Vec<_>>(),
            "findings": self.findings,
        });
        // Evidence leaves the cluster: no credential in any value (issue #19).
        crate::util::redact::redact_json(&mut v);
        serde_json::to_string_pretty(&v).unwrap_or_default()
    }

    /// Markdown evidence.
    pub fn to_markdown(&self) -> String {
        let esc = |s: &str| s.replace('|', "\\|").replace('\n', " ");
        let mut md = String::from("# Flux compliance evidence (fluxlens)\n\n");
        for (k, v) in identity(self.cluster, self.source) {
            md.push_str(&format!("- **{k}**: {}\n", esc(&v)));
        }
        md.push_str(&format!(
            "- **profile**: {}\n\n## Controls\n\n| control | title | result |\n|---|---|---|\n",
            self.profile.name()
        ));
        for c in self.controls {
            md.push_str(&format!(
                "| {} | {} | {} |\n",
                c.rule,
                c.title,
                c.outcome.as_str()
            ));
        }
        md.push_str("\n## Components\n\n| component | image | variant | digest pinned | provenance |\n|---|---|---|---|---|\n");
        for x in self.components {
            md.push_str(&format!(
                "| {} | `{}` | {} | {} | {} |\n",
                esc(&x.name),
                esc(&x.image),
                x.variant.as_str(),
                if x.digest.is_some() { "yes" } else { "no" },
                x.provenance()
            ));
        }
        md.push_str("\n## Findings\n\n");
        for f in self.findings {
            md.push_str(&format!(
                "- **{}** `{}` {} — {}\n",
                f.severity.as_str(),
                f.rule,
                esc(&f.message),
                esc(&f.evidence.join("; "))
            ));
        }
        crate::util::redact::clean(&md)
    }

    /// CSV evidence: one row per control and per component, identity repeated in each row.
    pub fn to_csv(&self) -> String {
        let q = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
        let id = identity(self.cluster, self.source);
        let head: Vec<&str> = id.iter().map(|(k, _)| *k).collect();
        let idv: Vec<String> = id.iter().map(|(_, v)| q(v)).collect();
        let mut out = format!("{},record,key,value,detail\n", head.join(","));
        for c in self.controls {
            out.push_str(&format!(
                "{},control,{},{},{}\n",
                idv.join(","),
                q(c.rule),
                c.outcome.as_str(),
                q(c.title)
            ));
        }
        for x in self.components {
            out.push_str(&format!(
                "{},component,{},{},{}\n",
                idv.join(","),
                q(&x.name),
                q(x.variant.as_str()),
                q(&format!("{} {}", x.image, x.provenance()))
            ));
        }
        crate::util::redact::clean(&out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::facts::cluster::ClusterFacts;
    use crate::model::CrdAccess;
    use crate::wire::FluxReport;

    #[test]
    fn exports_carry_identity_and_time() {
        let r: FluxReport = serde_json::from_str(r#"{"spec":{"distribution":{"version":"v2.9.4"},"cluster":{"serverVersion":"v1.34.1"},"components":[{"name":"source-controller","image":"ghcr.io/fluxcd/source-controller:v1.9.4@sha256:aa"}]}}"#).unwrap();
        let mut c = Cluster::new(r, [], CrdAccess::Unknown);
        c.notes.captured_at_ms = Some(1_764_000_000_000);
        let p = Profile::default();
        let comps = crate::analyses::compliance::components(&c);
        let facts = ClusterFacts::of(&c);
        let f = crate::analyses::compliance::findings(&facts, &p);
        let controls = crate::analyses::compliance::scorecard(&facts, &f);
        let e = Evidence {
            source: DataSource::Live {
                stale_since_ms: None,
            },
            cluster: &c,
            profile: &p,
            components: &comps,
            controls: &controls,
            findings: &f,
        };
        let j: serde_json::Value = serde_json::from_str(&e.to_json()).unwrap();
        assert_eq!(j["cluster"]["flux_version"], "v2.9.4");
        assert_eq!(j["cluster"]["captured_at"], "2025-11-24T16:00:00Z");
        assert_eq!(j["cluster"]["data_source"], "live API");
        assert_eq!(j["controls"].as_array().unwrap().len(), 14);
        assert!(
            e.to_markdown()
                .contains("| ENT-04 | digest pinning | pass |")
        );
        let csv = e.to_csv();
        assert_eq!(csv.lines().count(), 1 + 14 + 1);
        assert!(
            csv.lines()
                .all(|l| l.contains("v2.9.4") || l.starts_with("data_source"))
        );
    }

    #[test]
    fn evidence_from_a_snapshot_says_so_and_keeps_the_capture_time() {
        // #46: evidence exported from a snapshot did not say it came from one.
        let mut c = Cluster::new(FluxReport::default(), [], CrdAccess::Unknown);
        c.notes.captured_at_ms = Some(1_764_000_000_000);
        let p = Profile::default();
        let evidence = |source| {
            let e = Evidence {
                source,
                cluster: &c,
                profile: &p,
                components: &[],
                controls: &[],
                findings: &[],
            };
            (e.to_json(), e.to_markdown(), e.to_csv())
        };
        let (json, md, csv) = evidence(DataSource::Snapshot);
        let j: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert!(
            j["cluster"]["data_source"]
                .as_str()
                .unwrap()
                .starts_with("snapshot")
        );
        assert_eq!(j["cluster"]["captured_at"], "2025-11-24T16:00:00Z");
        assert!(md.contains("- **data_source**: snapshot"));
        assert!(csv.starts_with("data_source,captured_at,"));
        let (json, ..) = evidence(DataSource::Live {
            stale_since_ms: Some(1_764_000_060_000),
        });
        assert!(json.contains("stale since 2025-11-24T16:01:00Z"));
    }
}
