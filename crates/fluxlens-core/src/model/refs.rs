//! Reference extraction: what each object points at, with the per-kind namespace defaults.

use super::key::ObjectKey;
use crate::wire::kind::Kind;
use crate::wire::object::{ApiObject, ChartField, CrossRef, EventSource, Spec};
use serde::{Deserialize, Serialize};

/// The kind of a reference, which is also the kind of graph edge it becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RefKind {
    /// `spec.sourceRef` of Kustomization, HelmChart, ImageUpdateAutomation; ArtifactGenerator
    /// `spec.sources[]`.
    Source,
    /// HelmRelease `spec.chartRef`.
    ChartRef,
    /// HelmRelease `spec.chart.spec.sourceRef` (the chart template).
    ChartTemplate,
    /// `spec.dependsOn[]`.
    DependsOn,
    /// FluxInstance `spec.sync` → the root source and Kustomization it generates.
    Sync,
    /// ArtifactGenerator → the ExternalArtifact it produces.
    Artifact,
    /// Alert event sources, Alert → Provider, Receiver resources.
    Notification,
}

impl RefKind {
    /// Short label for the UI and DOT export.
    pub fn as_str(self) -> &'static str {
        match self {
            RefKind::Source => "source",
            RefKind::ChartRef => "chartRef",
            RefKind::ChartTemplate => "chart",
            RefKind::DependsOn => "dependsOn",
            RefKind::Sync => "sync",
            RefKind::Artifact => "artifact",
            RefKind::Notification => "notification",
        }
    }
}

/// One reference from an object to another.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Reference {
    pub kind: RefKind,
    pub target: ObjectKey,
    /// The spec field it came from, for evidence (`spec.sourceRef`).
    pub field: String,
    /// The `apiVersion` the reference names (ResourceSet `dependsOn` of any kind), used to
    /// ask the server about a target that is not a Flux object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
}

fn resolve(
    r: &CrossRef,
    default_kind: Option<Kind>,
    own_ns: &str,
    ns_allowed: bool,
) -> Option<ObjectKey> {
    if r.name.is_empty() {
        return None;
    }
    let kind = r.kind.as_deref().map(Kind::parse).or(default_kind)?;
    // Refs without a namespace mean "same namespace as the referrer"; HelmChart refs never
    // carry one (the chart's source is always in the chart's namespace).
    let ns = match (&r.namespace, ns_allowed) {
        (Some(ns), true) if !ns.is_empty() => ns.clone(),
        _ => own_ns.to_string(),
    };
    Some(ObjectKey::new(kind, ns, r.name.clone()))
}

/// The single object an Alert event source or Receiver resource names; wildcards and label
/// selectors name no single object.
fn named_target(s: &EventSource, own_ns: &str) -> Option<ObjectKey> {
    if s.name.is_empty() || s.name.contains('*') || s.kind.is_empty() {
        return None;
    }
    let ns = s
        .namespace
        .clone()
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| own_ns.to_string());
    Some(ObjectKey::new(Kind::parse(&s.kind), ns, s.name.clone()))
}

/// Every reference of `obj`, whose key is `key`.
pub fn extract(key: &ObjectKey, obj: &ApiObject) -> Vec<Reference> {
    let mut refs = Refs::default();
    own_refs(key, &obj.spec, &mut refs);
    depends_on(key, &obj.spec, &mut refs);
    refs.0
}

/// References as they are found.
#[derive(Default)]
struct Refs(Vec<Reference>);

impl Refs {
    /// Adds a reference when its target resolved.
    fn push(&mut self, kind: RefKind, target: Option<ObjectKey>, field: &str) {
        if let Some(target) = target {
            self.0.push(Reference {
                kind,
                target,
                field: field.to_string(),
                api_version: None,
            });
        }
    }
}

/// The references a kind makes besides `dependsOn`: its source, chart, generated artifacts,
/// sync target.
fn own_refs(key: &ObjectKey, spec: &Spec, refs: &mut Refs) {
    let ns = key.namespace.as_str();
    let mut push = |kind, target, field: &str| refs.push(kind, target, field);
    match key.kind {
        Kind::Kustomization | Kind::ImageUpdateAutomation => {
            if let Some(r) = &spec.source_ref {
                push(
                    RefKind::Source,
                    resolve(r, None, ns, true),
                    "spec.sourceRef",
                );
            }
        }
        Kind::HelmChart => {
            if let Some(r) = &spec.source_ref {
                push(
                    RefKind::Source,
                    resolve(r, None, ns, false),
                    "spec.sourceRef",
                );
            }
        }
        Kind::HelmRelease => {
            if let Some(r) = &spec.chart_ref {
                push(
                    RefKind::ChartRef,
                    resolve(r, None, ns, true),
                    "spec.chartRef",
                );
            } else if let Some(ChartField::Template { spec: t }) = &spec.chart
                && let Some(r) = &t.source_ref
            {
                push(
                    RefKind::ChartTemplate,
                    resolve(r, None, ns, true),
                    "spec.chart.spec.sourceRef",
                );
            }
        }
        Kind::ArtifactGenerator => {
            for (i, r) in spec.sources.iter().enumerate() {
                push(
                    RefKind::Source,
                    resolve(r, None, ns, true),
                    &format!("spec.sources[{i}]"),
                );
            }
            for (i, a) in spec.artifacts.iter().enumerate() {
                let t = (!a.name.is_empty())
                    .then(|| ObjectKey::new(Kind::ExternalArtifact, ns, a.name.clone()));
                push(RefKind::Artifact, t, &format!("spec.artifacts[{i}]"));
            }
        }
        Kind::FluxInstance => {
            if let Some(sync) = &spec.sync {
                let name = sync
                    .name
                    .clone()
                    .filter(|n| !n.is_empty())
                    .unwrap_or_else(|| ns.to_string());
                if let Some(kind) = sync.kind.as_deref().filter(|k| !k.is_empty()) {
                    push(
                        RefKind::Sync,
                        Some(ObjectKey::new(Kind::parse(kind), ns, name.clone())),
                        "spec.sync",
                    );
                }
                push(
                    RefKind::Sync,
                    Some(ObjectKey::new(Kind::Kustomization, ns, name)),
                    "spec.sync",
                );
            }
        }
        Kind::Alert | Kind::Receiver => notification_refs(key, spec, &mut push),
        _ => {}
    }
}

/// An Alert's provider and event sources; a Receiver's resources.
fn notification_refs(
    key: &ObjectKey,
    spec: &Spec,
    push: &mut impl FnMut(RefKind, Option<ObjectKey>, &str),
) {
    let ns = key.namespace.as_str();
    match key.kind {
        Kind::Alert => {
            if let Some(p) = spec.provider_ref.as_ref().filter(|p| !p.name.is_empty()) {
                push(
                    RefKind::Notification,
                    Some(ObjectKey::new(Kind::Provider, ns, p.name.clone())),
                    "spec.providerRef",
                );
            }
            for (i, s) in spec.event_sources.iter().enumerate() {
                push(
                    RefKind::Notification,
                    named_target(s, ns),
                    &format!("spec.eventSources[{i}]"),
                );
            }
        }
        Kind::Receiver => {
            for (i, s) in spec.resources.iter().enumerate() {
                push(
                    RefKind::Notification,
                    named_target(s, ns),
                    &format!("spec.resources[{i}]"),
                );
            }
        }
        _ => {}
    }
}

/// `dependsOn`: Kustomization and HelmRelease depend on their own kind; a ResourceSet names any
/// kind, at exactly the namespace written.
fn depends_on(key: &ObjectKey, spec: &Spec, refs: &mut Refs) {
    let ns = key.namespace.as_str();
    let dep_kind = match key.kind {
        Kind::Kustomization | Kind::HelmRelease => Some(key.kind.clone()),
        Kind::ResourceSet => None,
        _ => return,
    };
    for (i, d) in spec.depends_on.iter().enumerate() {
        let kind_default = dep_kind.clone();
        if key.kind == Kind::ResourceSet {
            // The operator gets exactly the namespace written (FO resourceset_controller.go
            // checkDependencies): none means cluster-scoped, never "the ResourceSet's own".
            if let Some(kind) = d.kind.as_deref().filter(|k| !k.is_empty())
                && !d.name.is_empty()
            {
                refs.0.push(Reference {
                    kind: RefKind::DependsOn,
                    target: ObjectKey::new(
                        Kind::parse(kind),
                        d.namespace.clone().unwrap_or_default(),
                        d.name.clone(),
                    ),
                    field: format!("spec.dependsOn[{i}]"),
                    api_version: d.api_version.clone().filter(|v| !v.is_empty()),
                });
            }
            continue;
        }
        let r = {
            // The kind of a Kustomization/HelmRelease dependency is implied; ignore stray kinds.
            resolve(
                &CrossRef {
                    kind: None,
                    ..d.clone()
                },
                kind_default,
                ns,
                true,
            )
        };
        refs.push(RefKind::DependsOn, r, &format!("spec.dependsOn[{i}]"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_set_depends_on_keeps_the_written_namespace_and_api_version() {
        // Regression: a cluster-scoped Tailscale ProxyGroup and a CRD were defaulted into the
        // ResourceSet's namespace and drawn as missing there.
        let o: ApiObject = serde_json::from_str(
            r#"{"kind":"ResourceSet","metadata":{"name":"rs","namespace":"apps"},"spec":{"dependsOn":[
              {"apiVersion":"tailscale.com/v1alpha1","kind":"ProxyGroup","name":"ingress","ready":true},
              {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","name":"proxygroups.tailscale.com"},
              {"apiVersion":"fluxcd.controlplane.io/v1","kind":"ResourceSet","name":"base","namespace":"apps"}]}}"#,
        )
        .unwrap();
        let refs = extract(&ObjectKey::new(Kind::ResourceSet, "apps", "rs"), &o);
        let t: Vec<(String, Option<String>)> = refs
            .iter()
            .map(|r| (r.target.to_string(), r.api_version.clone()))
            .collect();
        assert_eq!(
            t,
            vec![
                (
                    "ProxyGroup//ingress".into(),
                    Some("tailscale.com/v1alpha1".into())
                ),
                (
                    "CustomResourceDefinition//proxygroups.tailscale.com".into(),
                    Some("apiextensions.k8s.io/v1".into())
                ),
                (
                    "ResourceSet/apps/base".into(),
                    Some("fluxcd.controlplane.io/v1".into())
                ),
            ]
        );
    }

    #[test]
    fn notification_targets_skip_wildcards_and_default_namespace() {
        let o: ApiObject = serde_json::from_str(
            r#"{"kind":"Alert","metadata":{"name":"a","namespace":"ops"},"spec":{"providerRef":{"name":"slack"},
            "eventSources":[{"kind":"Kustomization","name":"*"},{"kind":"GitRepository","name":"flux-system","namespace":"flux-system"},{"kind":"HelmRelease","name":"web"}]}}"#,
        )
        .unwrap();
        let key = ObjectKey::new(Kind::Alert, "ops", "a");
        let t: Vec<String> = extract(&key, &o)
            .iter()
            .map(|r| r.target.to_string())
            .collect();
        assert_eq!(
            t,
            vec![
                "Provider/ops/slack",
                "GitRepository/flux-system/flux-system",
                "HelmRelease/ops/web"
            ]
        );
    }
}
