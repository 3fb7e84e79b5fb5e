//! How a FluxInstance verify patch reaches the generated root source (§1.5 of the catalog).

use crate::analyses::identity::{TargetMatch, target_matches};
use crate::model::{Cluster, FluxObject, ObjectKey};
use crate::util::version::Version;
use crate::wire::kind::Kind;
use crate::wire::object::{KustomizePatch, PatchTarget};

/// The identity of the source the operator generates for `spec.sync`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub name: String,
    pub namespace: String,
}

impl Generated {
    /// `{group: …, version: …, kind: …, name: …, namespace: …}` for evidence.
    pub fn describe(&self) -> String {
        format!(
            "{{group: {}, version: {}, kind: {}, name: {}, namespace: {}}}",
            self.group, self.version, self.kind, self.name, self.namespace
        )
    }

    /// The object key of the generated source.
    pub fn key(&self) -> ObjectKey {
        ObjectKey::new(
            Kind::parse(&self.kind),
            self.namespace.clone(),
            self.name.clone(),
        )
    }
}

/// The prediction for the instance's verify patches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchVerdict {
    /// No patch adds `spec.verify`.
    NotConfigured,
    /// A verify patch targets the generated source (patch index).
    Reaches(usize),
    /// Verify patches exist and none targets the generated source.
    Misses(Vec<Miss>),
    /// A verify patch uses a selector or syntax that cannot be evaluated here.
    Indeterminate(String),
}

/// A verify patch that does not reach the generated source, and how that shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Miss {
    pub index: usize,
    /// The target, or for a strategic-merge patch without one, what its body names.
    pub target: String,
    /// A strategic-merge patch without `target`: kustomize resolves it by the body's id and
    /// fails the build when nothing matches (revision 3: loud, not silent).
    pub targetless: bool,
}

impl Miss {
    /// How the miss reads in evidence.
    pub fn describe(&self) -> String {
        if self.targetless {
            format!(
                "patch {} (strategic merge, no target) names {}: kustomize finds no such object and fails the FluxInstance build",
                self.index, self.target
            )
        } else {
            format!(
                "patch {} target {} selects nothing: kustomize skips it without error",
                self.index, self.target
            )
        }
    }
}

/// The generated source of a FluxInstance with `spec.sync`.
pub fn generated_source(inst: &FluxObject, cluster: &Cluster) -> Option<Generated> {
    let sync = inst.sync()?;
    let kind = sync.kind.clone().filter(|k| !k.is_empty())?;
    generated_as(inst, cluster, &kind)
}

/// The source the FluxInstance would generate with `spec.sync.kind: kind` (revision 3: the
/// OCIRepository a Git → OCI handover will create).
pub fn generated_as(inst: &FluxObject, cluster: &Cluster, kind: &str) -> Option<Generated> {
    let sync = inst.sync()?;
    let kind = kind.to_string();
    let name = sync
        .name
        .clone()
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| inst.key.namespace.clone());
    let flux = inst
        .last_applied_revision()
        .and_then(Version::minor_of)
        .or_else(|| {
            cluster
                .report
                .spec
                .distribution
                .version
                .as_deref()
                .and_then(Version::minor_of)
        });
    let version = if kind == "GitRepository" || flux.is_none_or(|v| v >= (2, 6)) {
        "v1"
    } else {
        "v1beta2"
    };
    Some(Generated {
        group: "source.toolkit.fluxcd.io".into(),
        version: version.into(),
        kind,
        name,
        namespace: inst.key.namespace.clone(),
    })
}

/// The FluxInstance's `spec.kustomize.patches`.
pub fn patches(inst: &FluxObject) -> &[KustomizePatch] {
    inst.raw
        .spec
        .kustomize
        .as_ref()
        .map(|k| k.patches.as_slice())
        .unwrap_or(&[])
}

/// Whether verify survives a Git → OCI handover: the OCIRepository the instance will
/// generate, and what its patches do to it (revision 3, SIG-09's predictive case and M4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handover {
    pub generated: Generated,
    pub verdict: PatchVerdict,
}

impl Handover {
    /// The OCIRepository that will become the root, when it exists today with `spec.verify`
    /// that someone else than the instance delivers (a Kustomization from Git): the verify
    /// the handover would drop.
    pub fn verified_target<'c>(&self, c: &'c Cluster) -> Option<&'c FluxObject> {
        let inst = c.instance()?;
        c.get(&self.generated.key())
            .filter(|o| o.verify().is_some() && o.managed_by.as_ref() != Some(&inst.key))
    }

    /// Whether an instance patch will put verify on the generated OCIRepository.
    pub fn patched(&self) -> bool {
        matches!(self.verdict, PatchVerdict::Reaches(_))
    }
}

/// The handover prediction of the cluster's FluxInstance (whatever its sync kind today).
pub fn handover_verify(c: &Cluster) -> Option<Handover> {
    let inst = c.instance()?;
    let generated = generated_as(inst, c, "OCIRepository")?;
    let verdict = evaluate(patches(inst), &generated);
    Some(Handover { generated, verdict })
}

/// The patch to add to the FluxInstance so the generated source keeps `target`'s verify, as
/// one YAML flow line (a JSON6902 patch with an exact target).
pub fn verify_patch_yaml(g: &Generated, target: &FluxObject) -> String {
    use crate::wire::json::ToJson;
    let value = target
        .verify()
        .map(|v| v.to_json().to_string())
        .unwrap_or_else(|| r#"{"provider":"cosign","matchOIDCIdentity":[{"issuer":"<issuer>","subject":"<subject>"}]}"#.into());
    format!(
        r#"{{target: {{kind: {}, name: {}}}, patch: '[{{"op":"add","path":"/spec/verify","value":{value}}}]'}}"#,
        g.kind, g.name
    )
}

/// Whether a patch body sets `spec.verify` (JSON6902 path, or strategic merge under `spec:`).
pub fn is_verify_patch(body: &str) -> bool {
    if body.contains("/spec/verify") {
        return true;
    }
    let mut in_spec: Option<usize> = None;
    for line in body.lines() {
        let indent = line.len() - line.trim_start().len();
        let t = line.trim();
        if t.starts_with('#') || t.is_empty() {
            continue;
        }
        if t == "spec:" {
            in_spec = Some(indent);
        } else if let Some(si) = in_spec {
            if indent <= si {
                in_spec = None;
            } else if t.starts_with("verify:") {
                return true;
            }
        }
    }
    false
}

/// The kind a patch is aimed at: its target's, or for a strategic-merge patch without
/// target the `kind` of its body; `None` when neither says (indeterminate).
pub fn patch_kind(p: &KustomizePatch) -> Option<String> {
    match &p.target {
        Some(t) => Some(t.kind.clone().unwrap_or_default()),
        None => body_target(&p.patch).kind.filter(|k| !k.is_empty()),
    }
}

/// For a strategic-merge patch without target: `kind` and `metadata.name` from its body.
fn body_target(body: &str) -> PatchTarget {
    let mut t = PatchTarget::default();
    let mut in_meta = false;
    for line in body.lines() {
        let indented = line.starts_with(' ');
        let s = line.trim();
        if !indented {
            in_meta = s == "metadata:";
            if let Some(k) = s.strip_prefix("kind:") {
                t.kind = Some(k.trim().trim_matches('"').to_string());
            }
        } else if in_meta && let Some(n) = s.strip_prefix("name:") {
            t.name = Some(n.trim().trim_matches('"').to_string());
        }
    }
    t
}

fn evaluate_target(t: &PatchTarget, g: &Generated) -> Result<bool, String> {
    if t.label_selector.as_deref().is_some_and(|s| !s.is_empty())
        || t.annotation_selector
            .as_deref()
            .is_some_and(|s| !s.is_empty())
    {
        return Err("the target uses a label or annotation selector".into());
    }
    let fields = [
        (&t.group, &g.group),
        (&t.version, &g.version),
        (&t.kind, &g.kind),
        (&t.name, &g.name),
        (&t.namespace, &g.namespace),
    ];
    let mut all = true;
    for (pat, val) in fields {
        match target_matches(pat.as_deref().unwrap_or(""), val) {
            TargetMatch::Yes => {}
            TargetMatch::No => all = false,
            TargetMatch::Indeterminate => {
                return Err(format!(
                    "the target pattern `{}` is not an RE2 expression kustomize can evaluate",
                    pat.as_deref().unwrap_or("")
                ));
            }
        }
    }
    Ok(all)
}

/// Describes a target for evidence.
pub fn describe(t: &PatchTarget) -> String {
    let parts: Vec<String> = [
        ("group", &t.group),
        ("version", &t.version),
        ("kind", &t.kind),
        ("name", &t.name),
        ("namespace", &t.namespace),
        ("labelSelector", &t.label_selector),
        ("annotationSelector", &t.annotation_selector),
    ]
    .iter()
    .filter_map(|(k, v)| {
        v.as_ref()
            .filter(|v| !v.is_empty())
            .map(|v| format!("{k}: {v}"))
    })
    .collect();
    format!("{{{}}}", parts.join(", "))
}

/// Step 2–4 of the algorithm.
pub fn evaluate(patches: &[KustomizePatch], g: &Generated) -> PatchVerdict {
    let mut misses = Vec::new();
    for (i, p) in patches
        .iter()
        .enumerate()
        .filter(|(_, p)| is_verify_patch(&p.patch))
    {
        let target = p.target.clone().unwrap_or_else(|| body_target(&p.patch));
        match evaluate_target(&target, g) {
            Ok(true) => return PatchVerdict::Reaches(i),
            Ok(false) => misses.push(Miss {
                index: i,
                target: describe(&target),
                targetless: p.target.is_none(),
            }),
            Err(why) => return PatchVerdict::Indeterminate(format!("patch {i}: {why}")),
        }
    }
    if misses.is_empty() {
        PatchVerdict::NotConfigured
    } else {
        PatchVerdict::Misses(misses)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g() -> Generated {
        Generated {
            group: "source.toolkit.fluxcd.io".into(),
            version: "v1".into(),
            kind: "OCIRepository".into(),
            name: "flux-system".into(),
            namespace: "flux-system".into(),
        }
    }

    fn patch(body: &str, target: Option<PatchTarget>) -> KustomizePatch {
        KustomizePatch {
            patch: body.into(),
            target,
        }
    }

    const JSON6902: &str = "- op: add\n  path: /spec/verify\n  value:\n    provider: cosign";

    #[test]
    fn catalog_examples() {
        let kind_only = PatchTarget {
            kind: Some("OCIRepository".into()),
            ..Default::default()
        };
        assert_eq!(
            evaluate(&[patch(JSON6902, Some(kind_only))], &g()),
            PatchVerdict::Reaches(0)
        );
        let full = PatchTarget {
            group: Some("source.toolkit.fluxcd.io".into()),
            kind: Some("OCIRepository".into()),
            name: Some("flux-system".into()),
            ..Default::default()
        };
        assert_eq!(
            evaluate(&[patch(JSON6902, Some(full))], &g()),
            PatchVerdict::Reaches(0)
        );
        let wrong_name = PatchTarget {
            kind: Some("OCIRepository".into()),
            name: Some("flux".into()),
            ..Default::default()
        };
        assert!(matches!(
            evaluate(&[patch(JSON6902, Some(wrong_name))], &g()),
            PatchVerdict::Misses(_)
        ));
        let old_version = PatchTarget {
            version: Some("v1beta2".into()),
            kind: Some("OCIRepository".into()),
            ..Default::default()
        };
        assert!(matches!(
            evaluate(&[patch(JSON6902, Some(old_version))], &g()),
            PatchVerdict::Misses(_)
        ));
        let git = Generated {
            kind: "GitRepository".into(),
            ..g()
        };
        let oci_target = PatchTarget {
            kind: Some("OCIRepository".into()),
            ..Default::default()
        };
        assert!(matches!(
            evaluate(&[patch(JSON6902, Some(oci_target))], &git),
            PatchVerdict::Misses(_)
        ));
        let labels = PatchTarget {
            label_selector: Some("app=x".into()),
            ..Default::default()
        };
        assert!(matches!(
            evaluate(&[patch(JSON6902, Some(labels))], &g()),
            PatchVerdict::Indeterminate(_)
        ));
        assert_eq!(
            evaluate(
                &[patch(
                    "- op: add\n  path: /spec/interval\n  value: 5m",
                    None
                )],
                &g()
            ),
            PatchVerdict::NotConfigured
        );
    }

    #[test]
    fn targets_are_re2_expressions() {
        // Revision 4, the issue report: `name: "(flux-system|flux)"` reaches the generated
        // source; before, it was "unsupported regex syntax" and the prediction gave up.
        let alternation = PatchTarget {
            kind: Some("OCIRepository|GitRepository".into()),
            name: Some("(flux-system|flux)".into()),
            namespace: Some("flux-.*".into()),
            ..Default::default()
        };
        assert_eq!(
            evaluate(&[patch(JSON6902, Some(alternation))], &g()),
            PatchVerdict::Reaches(0)
        );
        let class = PatchTarget {
            name: Some("[a-z]+-sys".into()),
            ..Default::default()
        };
        assert!(matches!(
            evaluate(&[patch(JSON6902, Some(class))], &g()),
            PatchVerdict::Misses(_)
        ));
        let lookahead = PatchTarget {
            name: Some("(?!flux)".into()),
            ..Default::default()
        };
        let PatchVerdict::Indeterminate(why) = evaluate(&[patch(JSON6902, Some(lookahead))], &g())
        else {
            panic!("a look-around is not RE2");
        };
        assert!(why.contains("not an RE2 expression"), "{why}");
    }

    #[test]
    fn strategic_merge_reads_kind_and_name_from_the_body() {
        let sm = "apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata:\n  name: flux-system\nspec:\n  verify:\n    provider: cosign\n";
        assert!(is_verify_patch(sm));
        assert_eq!(evaluate(&[patch(sm, None)], &g()), PatchVerdict::Reaches(0));
        let other = sm.replace("name: flux-system", "name: other");
        assert!(matches!(
            evaluate(&[patch(&other, None)], &g()),
            PatchVerdict::Misses(_)
        ));
        assert!(!is_verify_patch("spec:\n  interval: 1m\nverify: x\n"));
    }
}
