//! Visible vs existing (rule catalog §0.2): what fluxlens may say about a referenced object
//! that is not among the loaded ones. "Missing" is a claim about the cluster and needs
//! complete data; everything short of that is "not visible to you" or an external answer.

use super::cluster::Cluster;
use super::key::ObjectKey;
use crate::wire::kind::Kind;
use serde::{Deserialize, Serialize};

/// What the server said when asked for exactly one key (`POST /api/v1/inventory/objects`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer {
    /// The object exists; its status as the server computed it (§5.4).
    Found(String),
    NotFound,
    Forbidden,
    /// Any other failure (unserved apiVersion, API error).
    Error,
}

impl Answer {
    /// Interprets one batch item's `error` and `status`.
    pub fn from_item(error: Option<&str>, status: Option<&str>) -> Answer {
        match error {
            Some("NotFound") => Answer::NotFound,
            Some("Forbidden") => Answer::Forbidden,
            Some(_) => Answer::Error,
            None => Answer::Found(status.unwrap_or_default().to_string()),
        }
    }
}

/// What is known of a referenced object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Presence {
    /// Loaded.
    Present,
    /// Its namespace and kind are visible and completely loaded, it is not there, and the
    /// server did not contradict that when asked.
    Missing,
    /// Fluxlens cannot tell: outside the user's namespaces, unreadable, or its kind's list is
    /// incomplete. The reason is said to the user.
    NotVisible(String),
    /// Not a Flux object (a ResourceSet may depend on any kind): the server's answer, if asked.
    External(Option<Answer>),
}

impl Presence {
    /// True only for a reference that is known to dangle.
    pub fn is_missing(&self) -> bool {
        match self {
            Presence::Missing => true,
            Presence::External(Some(a)) => *a == Answer::NotFound,
            _ => false,
        }
    }

    /// A short phrase for evidence and tooltips.
    pub fn describe(&self) -> String {
        match self {
            Presence::Present => "exists".into(),
            Presence::Missing => "does not exist".into(),
            Presence::NotVisible(why) if why.starts_with(NOT_IN_RENDER) => why.clone(),
            Presence::NotVisible(why) => format!("not visible to you: {why}"),
            Presence::External(None) => "not a Flux object; not checked".into(),
            Presence::External(Some(Answer::Found(s))) if s.is_empty() => "exists".into(),
            Presence::External(Some(Answer::Found(s))) => format!("exists ({s})"),
            Presence::External(Some(Answer::NotFound)) => "does not exist".into(),
            Presence::External(Some(Answer::Forbidden)) => {
                "not visible to you: the server answered Forbidden".into()
            }
            Presence::External(Some(Answer::Error)) => {
                "unknown: the server could not read it".into()
            }
        }
    }
}

/// Kinds that `GET /api/v1/resources` lists; references to anything else are external.
fn listed_kind(kind: &Kind) -> bool {
    !matches!(kind, Kind::Other(_) | Kind::FluxReport)
}

/// How a rendered tree (the pre-merge check) says it does not hold an object: the start of
/// its note, shown as it is, never as the reader's permissions.
pub const NOT_IN_RENDER: &str = "not in this render";

/// The reason a reference is not confirmed while its confirming read is under way (#51: the
/// first view does not wait for it): shown as "confirming…", never as missing.
pub const CONFIRMING: &str = "confirming…";

/// Where a reference stands before the confirming read has spoken.
enum Listed {
    Found(Presence),
    /// Visible and complete, and not there: missing if the server says NotFound.
    Absent,
    /// In a namespace outside the report's list (a typo for a cluster-wide user, another
    /// tenant's for a restricted one): missing only if the server says NotFound.
    Outside,
}

impl Cluster {
    /// Whether `key` is asked about by a confirming read still under way (#51): the view is
    /// shown meanwhile, and nothing is said about the reference until the server answers.
    pub fn confirming(&self, key: &ObjectKey) -> bool {
        self.open_notes()
            .any(|(k, why)| k == key && why == CONFIRMING)
    }

    /// The notes on references not confirmed that no answer has settled since.
    pub(super) fn open_notes(&self) -> impl Iterator<Item = &(ObjectKey, String)> {
        self.notes
            .unconfirmed
            .iter()
            .filter(|(k, _)| !self.confirmations.contains_key(k))
    }

    /// Where `key` stands: present, missing, not visible, or external (§0.2). Missing needs
    /// the server's NotFound for exactly that key: a confirming read that failed, timed out or
    /// did not reach it leaves the reference "not confirmed" (not visible), never missing.
    pub fn presence(&self, key: &ObjectKey) -> Presence {
        let answer = self.confirmations.get(key);
        let unconfirmed = || {
            let why = self
                .notes
                .unconfirmed
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, why)| why.as_str())
                .unwrap_or("the server has not been asked yet");
            if why == CONFIRMING || why.starts_with(NOT_IN_RENDER) {
                return Presence::NotVisible(why.into());
            }
            Presence::NotVisible(format!("not confirmed: {why}"))
        };
        // A render answers for itself: what it does not hold is "not in this render", never a
        // matter of the reader's permissions (#69).
        let render_note = || {
            self.open_notes()
                .find(|(k, why)| k == key && why.starts_with(NOT_IN_RENDER))
                .map(|(_, why)| Presence::NotVisible(why.clone()))
        };
        match self.listed(key) {
            Listed::Found(p) => p,
            Listed::Absent | Listed::Outside if answer == Some(&Answer::NotFound) => {
                Presence::Missing
            }
            Listed::Outside => render_note().unwrap_or_else(|| {
                Presence::NotVisible(format!(
                    "namespace {} is outside the namespaces you may read",
                    key.namespace
                ))
            }),
            Listed::Absent => match answer {
                Some(Answer::Forbidden) => {
                    Presence::NotVisible("the server answered Forbidden when reading it".into())
                }
                Some(Answer::Error) => {
                    Presence::NotVisible("the server could not read it (Error)".into())
                }
                Some(Answer::Found(_)) => {
                    Presence::NotVisible("it exists but was not in the resource list".into())
                }
                Some(Answer::NotFound) | None => unconfirmed(),
            },
        }
    }

    fn listed(&self, key: &ObjectKey) -> Listed {
        if self.contains(key) {
            return Listed::Found(Presence::Present);
        }
        if !listed_kind(&key.kind) {
            return Listed::Found(Presence::External(self.confirmations.get(key).cloned()));
        }
        if let Some((_, why)) = self.notes.unreadable.iter().find(|(k, _)| k == key) {
            return Listed::Found(Presence::NotVisible(format!(
                "the server answered {why} when reading it"
            )));
        }
        if let Some(why) = self.notes.incomplete_reason(key.kind.as_str()) {
            return Listed::Found(Presence::NotVisible(format!(
                "the {} list is incomplete ({why})",
                key.kind
            )));
        }
        if !self.namespace_visible(&key.namespace) {
            return Listed::Outside;
        }
        Listed::Absent
    }

    /// The confirming read's answers on a test fixture: NotFound for every candidate (the
    /// fixture is the whole cluster), as the loader records them.
    #[cfg(test)]
    pub(crate) fn with_server_answers(mut self) -> Cluster {
        for (k, _) in self.candidate_missing() {
            self.confirmations.insert(k, Answer::NotFound);
        }
        self
    }

    /// Whether the user may read a namespace (`report.spec.namespaces`). An unknown list (an
    /// uninitialised report) is treated by `LoadNotes::partial`, not here.
    pub fn namespace_visible(&self, ns: &str) -> bool {
        let visible = &self.report.spec.namespaces;
        ns.is_empty() || visible.is_empty() || visible.iter().any(|v| v == ns)
    }

    /// Keys that look missing and should be confirmed with one batch read, with the
    /// `apiVersion` to ask at (external targets keep the one their reference names).
    pub fn candidate_missing(&self) -> Vec<(ObjectKey, Option<String>)> {
        let mut out: Vec<(ObjectKey, Option<String>)> = Vec::new();
        for o in self.objects() {
            for r in &o.refs {
                if out.iter().any(|(k, _)| k == &r.target)
                    || self.confirmations.contains_key(&r.target)
                {
                    continue;
                }
                match self.listed(&r.target) {
                    Listed::Absent | Listed::Outside | Listed::Found(Presence::External(None)) => {
                        out.push((r.target.clone(), r.api_version.clone()))
                    }
                    Listed::Found(_) => {}
                }
            }
        }
        crate::util::sort::by(&mut out, |a, b| a.0.cmp(&b.0));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::CrdAccess;
    use crate::wire::FluxReport;

    fn cluster(namespaces: &[&str], objs: &[&str]) -> Cluster {
        let mut report = FluxReport::default();
        report.spec.namespaces = namespaces.iter().map(|s| s.to_string()).collect();
        Cluster::new(
            report,
            objs.iter().map(|s| serde_json::from_str(s).unwrap()),
            CrdAccess::Unknown,
        )
    }

    fn key(s: &str) -> ObjectKey {
        ObjectKey::parse(s).unwrap()
    }

    #[test]
    fn outside_the_users_namespaces_is_not_visible_never_missing() {
        let c = cluster(
            &["team-a", "team-b"],
            &[
                r#"{"kind":"HelmRelease","metadata":{"name":"web","namespace":"team-a"},"spec":{"chart":{"spec":{"chart":"web","sourceRef":{"kind":"HelmRepository","name":"charts","namespace":"flux-system"}}}}}"#,
            ],
        );
        let p = c.presence(&key("HelmRepository/flux-system/charts"));
        assert!(matches!(p, Presence::NotVisible(_)), "{p:?}");
        assert!(!p.is_missing());
        // #22: asked in the confirming read; Forbidden (another tenant's) stays not visible.
        assert_eq!(c.candidate_missing().len(), 1);
        let mut asked = c.clone();
        asked
            .confirmations
            .insert(key("HelmRepository/flux-system/charts"), Answer::Forbidden);
        assert!(
            !asked
                .presence(&key("HelmRepository/flux-system/charts"))
                .is_missing()
        );
        // Visible namespace, complete list, no answer yet: not confirmed, never missing.
        let p = c.presence(&key("HelmRepository/team-b/x"));
        assert!(
            matches!(&p, Presence::NotVisible(w) if w.starts_with("not confirmed")),
            "{p:?}"
        );
    }

    #[test]
    fn a_failed_confirming_read_is_not_confirmed_never_missing() {
        // Regression (#22): a 504 on the confirming read drew the chart source Missing and
        // raised MIG-GO-02 high.
        let mut c = cluster(
            &["apps"],
            &[
                r#"{"kind":"Kustomization","metadata":{"name":"app","namespace":"apps"},"spec":{"sourceRef":{"kind":"OCIRepository","name":"charts"}}}"#,
            ],
        );
        let target = key("OCIRepository/apps/charts");
        c.notes.unconfirmed = vec![(
            target.clone(),
            "the confirming read failed (HTTP 504)".into(),
        )];
        let p = c.presence(&target);
        assert_eq!(
            p.describe(),
            "not visible to you: not confirmed: the confirming read failed (HTTP 504)"
        );
        let f = crate::analyses::findings::evaluate_all(&c);
        assert!(
            f.iter()
                .filter(|f| f.rule == "MIG-GO-02")
                .all(|f| f.severity == crate::analyses::findings::Severity::Info),
            "{f:?}"
        );
        c.confirmations.insert(target.clone(), Answer::NotFound);
        assert_eq!(c.presence(&target), Presence::Missing);
    }

    #[test]
    fn a_namespace_that_does_not_exist_is_a_dangling_reference() {
        // Regression (#22): a sourceRef into a misspelt namespace read "not visible to you" for
        // a cluster-wide user.
        let mut c = cluster(
            &["apps", "flux-system"],
            &[
                r#"{"kind":"Kustomization","metadata":{"name":"app","namespace":"apps"},"spec":{"sourceRef":{"kind":"GitRepository","name":"repo","namespace":"flux-sytem"}}}"#,
            ],
        );
        let target = key("GitRepository/flux-sytem/repo");
        assert_eq!(c.candidate_missing(), vec![(target.clone(), None)]);
        c.confirmations.insert(target.clone(), Answer::NotFound);
        assert!(c.presence(&target).is_missing());
    }

    #[test]
    fn incomplete_kinds_and_unreadable_items_withhold_missing() {
        let mut c = cluster(&["apps"], &[]);
        c.notes.incomplete_kinds = vec![("GitRepository".into(), "listed 0 of 3".into())];
        c.notes.unreadable = vec![(key("Bucket/apps/b"), "Forbidden".into())];
        assert!(matches!(
            c.presence(&key("GitRepository/apps/repo")),
            Presence::NotVisible(_)
        ));
        assert!(matches!(
            c.presence(&key("Bucket/apps/b")),
            Presence::NotVisible(_)
        ));
        c.confirmations
            .insert(key("OCIRepository/apps/o"), Answer::NotFound);
        assert_eq!(c.presence(&key("OCIRepository/apps/o")), Presence::Missing);
    }

    #[test]
    fn confirmation_decides_and_external_targets_carry_the_answer() {
        let mut c = cluster(
            &["apps"],
            &[
                r#"{"kind":"ResourceSet","metadata":{"name":"rs","namespace":"apps"},"spec":{"dependsOn":[
                {"apiVersion":"tailscale.com/v1alpha1","kind":"ProxyGroup","name":"ingress"},
                {"apiVersion":"fluxcd.controlplane.io/v1","kind":"ResourceSet","name":"gone","namespace":"apps"}]}}"#,
            ],
        );
        let cands = c.candidate_missing();
        assert_eq!(
            cands,
            vec![
                (
                    key("ResourceSet/apps/gone"),
                    Some("fluxcd.controlplane.io/v1".into())
                ),
                (
                    key("ProxyGroup//ingress"),
                    Some("tailscale.com/v1alpha1".into())
                ),
            ]
        );
        c.confirmations
            .insert(key("ProxyGroup//ingress"), Answer::Found("Current".into()));
        c.confirmations
            .insert(key("ResourceSet/apps/gone"), Answer::Forbidden);
        assert_eq!(
            c.presence(&key("ProxyGroup//ingress")).describe(),
            "exists (Current)"
        );
        assert!(matches!(
            c.presence(&key("ResourceSet/apps/gone")),
            Presence::NotVisible(_)
        ));
        assert!(c.candidate_missing().is_empty(), "asked once");
    }
}
