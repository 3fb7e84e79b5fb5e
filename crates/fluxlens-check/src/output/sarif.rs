//! `--format sarif`: SARIF 2.1.0, as GitHub code scanning and other SARIF readers take it.
//! One rule per catalog id (and one for each kind of change the check weighs outside the
//! catalog), one result per object: an aggregated finding is one result per object it lists,
//! located at the manifest the object was read from, and the line its document starts on
//! when the render gives one.

use super::Report;
use crate::diff::{Change, MISSING_SEVERITY};
use crate::read::Origin;
use fluxlens_core::analyses::finding::{Finding, Severity};
use fluxlens_core::analyses::findings::reference;
use fluxlens_core::model::ObjectKey;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// The schema this output follows.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The rule for a reference the change adds that names nothing in the render.
pub const MISSING_RULE: &str = "CHECK-MISSING";
/// The rule for a dependsOn cycle the change adds.
pub const CYCLE_RULE: &str = "CHECK-CYCLE";
/// The rule for a source whose verification the change removes or weakens.
pub const VERIFY_RULE: &str = "CHECK-VERIFY";
/// The rule for a migration the change moves back a stage.
pub const STAGE_RULE: &str = "CHECK-STAGE";

/// A rule as SARIF describes it.
struct RuleText {
    id: String,
    name: String,
    short: String,
    full: String,
    help: String,
}

/// One result before it is written.
pub(crate) struct Hit<'a> {
    rule: &'a str,
    severity: Severity,
    object: Option<&'a ObjectKey>,
    message: String,
}

/// The whole report as a SARIF log: one run of fluxlens-check.
pub fn render(r: &Report, places: &Places) -> Value {
    let properties = json!({
        "verdict": r.verdict(),
        "summary": r.summary(),
        "failOn": r.fail_on.as_str(),
        "profile": r.profile_name(),
    });
    log(&hits(r.change), r.fail_on, places, properties)
}

/// A SARIF log of one run: every rule the check knows, `hits` as results, the run's
/// `properties` (its verdict and summary).
pub(crate) fn log(hits: &[Hit], fail_on: Severity, places: &Places, properties: Value) -> Value {
    let rules = rules();
    let index: BTreeMap<&str, usize> = rules
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.as_str(), i))
        .collect();
    let results: Vec<Value> = hits
        .iter()
        .map(|h| result(h, fail_on, index.get(h.rule).copied(), places))
        .collect();
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "fluxlens-check",
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "informationUri": env!("CARGO_PKG_HOMEPAGE"),
                "rules": rules.iter().map(rule).collect::<Vec<_>>(),
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": properties,
        }],
    })
}

/// Every catalog rule, then the check's own.
fn rules() -> Vec<RuleText> {
    let mut out: Vec<RuleText> = reference::docs()
        .map(|d| {
            let title = match reference::title(d.id) {
                "" => d.id,
                t => t,
            };
            RuleText {
                id: d.id.to_string(),
                name: pascal(title),
                short: sentence(title),
                full: d.checks.to_string(),
                help: d.remediation.to_string(),
            }
        })
        .collect();
    let own = [
        (
            MISSING_RULE,
            "MissingReference",
            "a reference names nothing in the render",
            "A sourceRef, chartRef or dependsOn the change adds names an object the rendered manifests do not hold: the referrer cannot reconcile (a dangling root reference deadlocks a bootstrap).",
            "Add the object the reference names to the change, or correct the reference.",
        ),
        (
            CYCLE_RULE,
            "DependsOnCycle",
            "a dependsOn cycle",
            "The change closes a cycle of dependsOn: no object in it ever becomes ready.",
            "Remove one dependsOn entry of the cycle.",
        ),
        (
            VERIFY_RULE,
            "VerificationWeakened",
            "verification removed or weakened",
            "A source verified in the base loses spec.verify, or keeps a weaker one, or the root moves to a source without verification.",
            "Keep spec.verify on the source, with an identity at least as narrow as before.",
        ),
        (
            STAGE_RULE,
            "MigrationMovesBack",
            "a migration moves back a stage",
            "A staged migration (Git to signed OCI root, storage versions, distribution) is at an earlier stage in the change than in the base: a rollback, deliberate or not.",
            "Confirm the rollback is intended; otherwise restore the later stage's manifests.",
        ),
    ];
    out.extend(own.iter().map(|(id, name, short, full, help)| RuleText {
        id: id.to_string(),
        name: name.to_string(),
        short: sentence(short),
        full: full.to_string(),
        help: help.to_string(),
    }));
    out
}

fn rule(t: &RuleText) -> Value {
    let uri = format!(
        "{}/blob/main/docs/rules.md#{}",
        env!("CARGO_PKG_REPOSITORY"),
        t.id
    );
    json!({
        "id": t.id,
        "name": t.name,
        "shortDescription": { "text": t.short },
        "fullDescription": { "text": t.full },
        "help": {
            "text": t.help,
            "markdown": format!("{}\n\n[{} in the rule reference]({uri})", t.help, t.id),
        },
        "helpUri": uri,
        "properties": { "tags": ["flux", "gitops", "security"] },
    })
}

/// `root source unverified` → `RootSourceUnverified`.
fn pascal(title: &str) -> String {
    title
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut cs = w.chars();
            // `OCI` → `Oci`: a Pascal-case identifier has no runs of capitals.
            cs.next()
                .map(|c| c.to_ascii_uppercase().to_string() + &cs.as_str().to_ascii_lowercase())
                .unwrap_or_default()
        })
        .collect()
}

/// A title as a sentence: capitalised, with a full stop.
fn sentence(title: &str) -> String {
    let mut cs = title.chars();
    let first = cs.next().map(|c| c.to_uppercase().to_string());
    let mut s = first.unwrap_or_default() + cs.as_str();
    if !s.ends_with('.') {
        s.push('.');
    }
    s
}

/// Everything the change adds, one hit per object.
fn hits(c: &Change) -> Vec<Hit<'_>> {
    let mut out = Vec::new();
    for f in &c.added {
        out.extend(finding_hits(f));
    }
    for v in &c.verify {
        let message = format!(
            "verify {} on {}: before {}, after {}",
            v.change.as_str(),
            v.subject,
            v.before,
            v.after
        );
        out.push(Hit {
            rule: VERIFY_RULE,
            severity: v.severity,
            object: Some(&v.subject),
            message,
        });
    }
    for m in &c.missing_added {
        for from in &m.from {
            out.push(Hit {
                rule: MISSING_RULE,
                severity: MISSING_SEVERITY,
                object: Some(from),
                message: format!("{from} references {}, which does not exist", m.target),
            });
        }
    }
    for cycle in &c.cycles_added {
        let through: Vec<String> = cycle.iter().map(ObjectKey::to_string).collect();
        for k in cycle {
            out.push(Hit {
                rule: CYCLE_RULE,
                severity: crate::diff::CYCLE_SEVERITY,
                object: Some(k),
                message: format!("{k} is in a dependsOn cycle: {}", through.join(" → ")),
            });
        }
    }
    for (name, s) in c.stages.iter().filter(|(_, s)| s.backwards()) {
        let base = s.base.as_ref().map(|b| b.stage.as_str()).unwrap_or("");
        out.push(Hit {
            rule: STAGE_RULE,
            severity: crate::diff::BACKWARDS_SEVERITY,
            object: None,
            message: format!("{name} moves back from {base} to {}", s.head.stage),
        });
    }
    out
}

/// A finding, one hit per object it lists; each member keeps its own message when the
/// aggregate quoted it.
pub(crate) fn finding_hits(f: &Finding) -> Vec<Hit<'_>> {
    let own = |k: &ObjectKey| {
        let prefix = format!("{k} — ");
        f.evidence
            .iter()
            .find_map(|e| e.strip_prefix(&prefix).map(str::to_string))
    };
    f.objects()
        .iter()
        .map(|k| {
            let text = if f.members.is_empty() {
                f.message.clone()
            } else {
                own(k).unwrap_or_else(|| f.message.clone())
            };
            Hit {
                rule: &f.rule,
                severity: f.severity,
                object: Some(k),
                message: format!("{}: {text} ({})", f.rule, f.remediation),
            }
        })
        .collect()
}

/// SARIF's level: an error at or above `--fail-on`, a warning from medium, a note below.
fn level(severity: Severity, fail_on: Severity) -> &'static str {
    if severity >= fail_on {
        "error"
    } else if severity >= Severity::Medium {
        "warning"
    } else {
        "note"
    }
}

/// Where results are put: the manifests' origins, and where to show what the render does not
/// hold (an object a FluxInstance generates, a stage): the FluxInstance's manifest, else the
/// root source's.
pub struct Places<'a> {
    pub origins: &'a BTreeMap<ObjectKey, Origin>,
    pub root: Option<&'a ObjectKey>,
}

impl Places<'_> {
    /// The FluxInstance's manifest, else the root source's: where what the render does not
    /// hold is shown.
    pub fn fallback(&self) -> Option<&Origin> {
        let instance = self
            .origins
            .iter()
            .find(|(k, _)| k.kind == fluxlens_core::wire::kind::Kind::FluxInstance);
        instance
            .map(|(_, o)| o)
            .or_else(|| self.root.and_then(|r| self.origins.get(r)))
    }
}

fn result(h: &Hit, fail_on: Severity, rule_index: Option<usize>, places: &Places) -> Value {
    let Places { origins, root } = *places;
    let mut v = json!({
        "ruleId": h.rule,
        "level": level(h.severity, fail_on),
        "message": { "text": h.message },
        "properties": { "severity": h.severity.as_str() },
    });
    if let Some(i) = rule_index {
        v["ruleIndex"] = json!(i);
    }
    // Code scanning keeps a result only with a file to show it on.
    let object = h.object.or(root);
    if let Some(k) = object {
        let key = k.to_string();
        let mut location = json!({
            "logicalLocations": [{ "fullyQualifiedName": key, "kind": "resource" }],
        });
        if let Some(o) = origins.get(k).or_else(|| places.fallback()) {
            location["physicalLocation"] = physical(o);
        }
        v["locations"] = json!([location]);
        v["partialFingerprints"] = json!({ "fluxlensObject/v1": format!("{}|{key}", h.rule) });
    }
    v
}

/// A manifest's path as CI sees it: relative to the working directory (the checkout) when it
/// is under it, else as given.
pub fn relative_path(file: &std::path::Path) -> String {
    let cwd = std::env::current_dir().ok();
    match cwd.as_deref().and_then(|d| file.strip_prefix(d).ok()) {
        Some(r) => r.to_string_lossy().replace('\\', "/"),
        None => file.to_string_lossy().replace('\\', "/"),
    }
}

/// The manifest file and its document's line. A path under the working directory (where CI
/// runs, the checkout) is relative to `%SRCROOT%`, as code scanning resolves it; any other is
/// a `file:` URI.
fn physical(o: &Origin) -> Value {
    let cwd = std::env::current_dir().ok();
    let relative = match cwd.as_deref().and_then(|d| o.file.strip_prefix(d).ok()) {
        Some(r) => Some(r),
        None if o.file.is_relative() => Some(o.file.as_path()),
        None => None,
    };
    let location = match relative {
        Some(r) => json!({ "uri": uri(r), "uriBaseId": "%SRCROOT%" }),
        None => json!({ "uri": uri(&o.file) }),
    };
    let mut p = json!({ "artifactLocation": location });
    if let Some(line) = o.line {
        p["region"] = json!({ "startLine": line.max(1) });
    }
    p
}

/// A path as a URI reference: `/` separators, each segment percent-encoded where it must be.
fn uri(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let text = text.strip_prefix("./").unwrap_or(&text);
    // The query encoder keeps exactly a path's characters: unreserved ones and `/`.
    let encoded = fluxlens_core::util::query::encode(text);
    if path.is_absolute() {
        format!("file://{encoded}")
    } else {
        encoded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fluxlens_core::analyses::finding::aggregate;
    use fluxlens_core::wire::kind::Kind;

    fn change(added: Vec<Finding>) -> Change {
        Change {
            added,
            resolved: vec![],
            missing_added: vec![],
            missing_resolved: vec![],
            cycles_added: vec![],
            verify: vec![],
            stages: BTreeMap::new(),
            unresolved: vec![],
            notes: vec![],
            objects: (None, 0),
            order: None,
        }
    }

    #[test]
    fn an_aggregated_finding_is_one_result_per_object_with_its_own_message_and_place() {
        let keys: Vec<ObjectKey> = (0..8)
            .map(|i| ObjectKey::new(Kind::Kustomization, "apps", format!("app-{i}")))
            .collect();
        let one = |k: &ObjectKey| Finding {
            rule: "MIG-GO-02".into(),
            severity: Severity::High,
            subject: k.clone(),
            message: format!("{} reads a missing source", k.name),
            evidence: vec![],
            remediation: "Create the source.".into(),
            reason: String::new(),
            members: vec![],
        };
        let added = aggregate(&keys.iter().map(one).collect::<Vec<_>>());
        assert_eq!(added.len(), 1, "more than five objects are one finding");
        let origins: BTreeMap<ObjectKey, Origin> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let o = Origin {
                    file: "render/apps.yaml".into(),
                    document: i,
                    item: None,
                    line: Some(1 + 10 * i),
                };
                (k.clone(), o)
            })
            .collect();
        let c = change(added);
        let report = Report {
            change: &c,
            fail_on: Severity::High,
            profile: fluxlens_core::analyses::compliance::ProfileName::Upstream,
            has_base: true,
        };
        let places = Places {
            origins: &origins,
            root: None,
        };
        let v = render(&report, &places);
        let results = v["runs"][0]["results"].as_array().unwrap();
        assert_eq!(results.len(), keys.len());
        for (i, (r, k)) in results.iter().zip(&keys).enumerate() {
            let text = r["message"]["text"].as_str().unwrap();
            assert!(
                text.contains(&format!("{} reads a missing source", k.name)),
                "{text}"
            );
            let at = &r["locations"][0]["physicalLocation"];
            assert_eq!(at["artifactLocation"]["uri"], "render/apps.yaml");
            assert_eq!(at["region"]["startLine"], 1 + 10 * i);
            assert_eq!(r["level"], "error");
        }
    }

    #[test]
    fn names_are_pascal_case_and_paths_are_uri_references() {
        assert_eq!(pascal("unsigned OCI source"), "UnsignedOciSource");
        assert_eq!(
            pascal("Git root GC'd under consumers"),
            "GitRootGcDUnderConsumers"
        );
        assert_eq!(uri(Path::new("./out dir/a#1.yaml")), "out%20dir/a%231.yaml");
        assert_eq!(uri(Path::new("/tmp/r.yaml")), "file:///tmp/r.yaml");
        assert_eq!(level(Severity::Medium, Severity::High), "warning");
        assert_eq!(level(Severity::Low, Severity::High), "note");
        assert_eq!(level(Severity::Low, Severity::Low), "error");
    }
}
