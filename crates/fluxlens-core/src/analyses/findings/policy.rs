//! The severity policy (rule catalog §0.3, revisions 2 and 3), in one place: a finding's
//! severity is a function of what kind of evidence the rule found and what part its subject
//! plays. Rules say *what* they found ([`Class`]); this module says how loud that is for a
//! root source, the FluxInstance's delivery chain, a platform source or an ordinary one, and
//! gives the one-line reason shown next to the severity. No rule names a severity itself
//! (revision 3; a test reads the rule sources to keep it so).

use super::{Finding, Severity};
use crate::model::{Cluster, ObjectKey};
use crate::wire::kind::Kind;

/// What part the subject plays in delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The cluster-sync source, its Kustomization, or the FluxInstance.
    Root,
    /// An applier the FluxInstance is delivered through (derived owners, §0.2), or a source
    /// such an applier reads (revision 3: the `flux-instance` HelmRelease's chart source).
    DeliveryChain,
    /// Flux, the operator and cluster infrastructure: the operator namespace, or Flux's and
    /// the operator's own artifacts.
    Platform,
    /// Everything else, typically an upstream chart or an application source.
    Ordinary,
}

impl Role {
    /// How the reason line names the role.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Root => "root source",
            Role::DeliveryChain => "on the FluxInstance delivery chain",
            Role::Platform => "platform source",
            Role::Ordinary => "ordinary source",
        }
    }
}

/// What a rule found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Delivery or integrity is broken now or breaks on the next reconcile.
    Broken,
    /// Verification that is configured but admits anything (keyless without identity, a
    /// verify patch that did not land): fail-open.
    FailOpen,
    /// A control the cluster configured is failing or ineffective.
    ControlFailing,
    /// One step from an outage: unhealthy controllers, an installation not taken over, a
    /// storage version the next upgrade will trip on.
    Unhealthy,
    /// Predicted to break at the next step (the handover drops verify or credentials).
    Predicted,
    /// Content that whoever can push to its registry or repository could change, unverified.
    Exposed,
    /// The same, pulled anonymously from a mutable reference: for the root, an integrity break.
    ExposedAnonymous,
    /// Degraded assurance the operator should schedule (a stale verdict, a mode mismatch).
    Degraded,
    /// A posture gap: nothing configured that fails, but less assurance than possible.
    PostureGap,
    /// Hygiene.
    Hygiene,
    /// Classification and context.
    Context,
}

impl Class {
    /// The class as the reason line and the rule reference name it.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Broken => "broken now or on the next reconcile",
            Class::FailOpen => "configured verification admits anything",
            Class::ControlFailing => "configured control failing",
            Class::Unhealthy => "one step from an outage",
            Class::Predicted => "breaks at the next step (predicted)",
            Class::Exposed => "unverified content anyone with registry write access could change",
            Class::ExposedAnonymous => {
                "unverified, anonymously pulled content on a mutable reference"
            }
            Class::Degraded => "degraded assurance",
            Class::PostureGap => "posture gap",
            Class::Hygiene => "hygiene",
            Class::Context => "context",
        }
    }
}

impl Class {
    /// Broken when `broken`, else one step from an outage (a stalled instance, a storage
    /// version the allowed upgrade removes).
    pub fn broken_if(broken: bool) -> Class {
        if broken {
            Class::Broken
        } else {
            Class::Unhealthy
        }
    }

    /// Whether the subject's role changes the severity of this class.
    pub fn depends_on_role(self) -> bool {
        Role::ALL
            .iter()
            .any(|r| grade(self, *r) != grade(self, Role::Ordinary))
    }
}

impl Role {
    /// Every role, loudest first.
    pub const ALL: [Role; 4] = [
        Role::Root,
        Role::DeliveryChain,
        Role::Platform,
        Role::Ordinary,
    ];
}

/// The severity of `class` for a subject playing `role` (§0.3 1–5).
pub fn grade(class: Class, role: Role) -> Severity {
    use Role::*;
    match (class, role) {
        (Class::Broken | Class::FailOpen, Root | DeliveryChain) => Severity::Critical,
        (Class::ExposedAnonymous, Root) => Severity::Critical,
        // A source the delivery chain reads (revision 3: the flux-instance chart) is graded
        // like a platform source for posture: a gap to schedule, as ENT-12 says of the same
        // chart. What breaks it (Broken, FailOpen) is critical like the root's.
        (Class::ExposedAnonymous, DeliveryChain) => Severity::Medium,
        (Class::ExposedAnonymous, Platform) => Severity::Medium,
        (Class::ExposedAnonymous, Ordinary) => Severity::Low,
        (
            Class::Broken
            | Class::FailOpen
            | Class::ControlFailing
            | Class::Unhealthy
            | Class::Predicted,
            _,
        ) => Severity::High,
        (Class::Exposed, Root) => Severity::High,
        (Class::Exposed | Class::PostureGap, Platform | DeliveryChain) => Severity::Medium,
        (Class::PostureGap, Root) => Severity::Medium,
        (Class::Exposed | Class::PostureGap, Ordinary) => Severity::Low,
        (Class::Degraded, _) => Severity::Medium,
        (Class::Hygiene, _) => Severity::Low,
        (Class::Context, _) => Severity::Info,
    }
}

/// The reason line: the role (when it decided) and the class.
pub fn reason(class: Class, role: Role) -> String {
    match class {
        _ if !class.depends_on_role() => class.as_str().to_string(),
        _ => format!("{} · {}", role.as_str(), class.as_str()),
    }
}

/// The part `key` plays in this cluster.
pub fn role_of(c: &Cluster, key: &ObjectKey) -> Role {
    let root_source = c.root_source();
    if root_source.as_ref() == Some(key)
        || c.root_kustomization().as_ref() == Some(key)
        || key.kind == Kind::FluxInstance
    {
        return Role::Root;
    }
    let chain = delivery_chain(c);
    if chain.contains(key) || read_by(c, &chain, key) {
        return Role::DeliveryChain;
    }
    if is_platform(c, key) {
        return Role::Platform;
    }
    Role::Ordinary
}

/// Flux's and the operator's own artifacts (by their registry or repository path, for a
/// chart through its source), and what the FluxInstance itself applies.
fn is_platform(c: &Cluster, key: &ObjectKey) -> bool {
    let Some(o) = c.get(key) else { return false };
    let flux_url = |o: &crate::model::FluxObject| {
        let url = o.url().unwrap_or("");
        url.contains("/fluxcd/") || url.contains("/controlplaneio-fluxcd/")
    };
    let via_source = o
        .refs
        .iter()
        .filter(|r| r.kind == crate::model::RefKind::Source)
        .filter_map(|r| c.get(&r.target))
        .any(&flux_url);
    let by_instance = o
        .managed_by
        .as_ref()
        .is_some_and(|m| m.kind == Kind::FluxInstance);
    flux_url(o) || via_source || by_instance
}

/// Whether an applier of `chain` reads `key` as its source or chart (directly, or through the
/// HelmChart it builds from): the delivery chain stops when that source stops.
fn read_by(c: &Cluster, chain: &[ObjectKey], key: &ObjectKey) -> bool {
    use crate::model::RefKind;
    let is_source = |k: RefKind| {
        matches!(
            k,
            RefKind::Source | RefKind::ChartRef | RefKind::ChartTemplate
        )
    };
    chain.iter().filter_map(|k| c.get(k)).any(|applier| {
        applier.refs.iter().filter(|r| is_source(r.kind)).any(|r| {
            &r.target == key
                || c.get(&r.target).is_some_and(|chart| {
                    chart.key.kind == Kind::HelmChart
                        && chart
                            .refs
                            .iter()
                            .any(|cr| is_source(cr.kind) && &cr.target == key)
                })
        })
    })
}

pub use crate::analyses::facts::cluster::delivery_chain;

/// A finding graded by the policy: severity and reason from `class` and the subject's role.
pub fn graded(
    c: &Cluster,
    rule: &str,
    class: Class,
    subject: ObjectKey,
    message: String,
    evidence: Vec<String>,
    remediation: String,
) -> Finding {
    let role = role_of(c, &subject);
    graded_as(role, rule, class, subject, message, evidence, remediation)
}

/// A finding graded for a role the rule establishes itself (the previous root, the Flux
/// installation behind a CRD): severity and reason from `class` and `role`.
pub fn graded_as(
    role: Role,
    rule: &str,
    class: Class,
    subject: ObjectKey,
    message: String,
    evidence: Vec<String>,
    remediation: String,
) -> Finding {
    Finding {
        rule: rule.into(),
        severity: grade(class, role),
        reason: reason(class, role),
        subject,
        message,
        evidence,
        remediation,
        members: vec![],
    }
}

/// A finding of a class graded the same whatever the subject's role (context, hygiene,
/// degraded assurance, a failing control, one step from an outage, predicted breakage).
pub fn fixed(
    rule: &str,
    class: Class,
    subject: ObjectKey,
    message: String,
    evidence: Vec<String>,
    remediation: String,
) -> Finding {
    debug_assert!(!class.depends_on_role(), "{class:?} depends on the role");
    graded_as(
        Role::Ordinary,
        rule,
        class,
        subject,
        message,
        evidence,
        remediation,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_table() {
        // §0.3-1: critical only for broken delivery/integrity of the root or its chain.
        assert_eq!(grade(Class::Broken, Role::Root), Severity::Critical);
        assert_eq!(grade(Class::Broken, Role::Ordinary), Severity::High);
        // §0.3-2: a configured control failing is high wherever it is.
        assert_eq!(grade(Class::ControlFailing, Role::Ordinary), Severity::High);
        assert_eq!(grade(Class::ControlFailing, Role::Root), Severity::High);
        // §0.3-3/4: posture gaps are medium on the root and platform, low elsewhere.
        assert_eq!(grade(Class::PostureGap, Role::Root), Severity::Medium);
        assert_eq!(grade(Class::PostureGap, Role::Platform), Severity::Medium);
        assert_eq!(grade(Class::Exposed, Role::Ordinary), Severity::Low);
        assert_eq!(grade(Class::Exposed, Role::Root), Severity::High);
        assert_eq!(grade(Class::Context, Role::Root), Severity::Info);
        assert_eq!(
            reason(Class::Exposed, Role::Ordinary),
            "ordinary source · unverified content anyone with registry write access could change"
        );
    }
}
