//! DRIFT-05: the commit the root applied against the commit rendered.

use super::{Distance, Drift, Input};
use crate::analyses::finding::Finding;
use crate::analyses::findings::policy::{Class, graded};
use crate::model::{Cluster, FluxObject};
use crate::wire::kind::Kind;

/// The OCI annotation `flux push artifact --revision` writes: the Git commit an artifact was
/// built from.
pub const OCI_REVISION: &str = "org.opencontainers.image.revision";

/// A Git commit, with the branch or tag it was read on when that is said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commit {
    /// Lower-case hex, full or abbreviated.
    pub sha: String,
    pub branch: Option<String>,
}

impl Commit {
    /// Reads `SHA`, `BRANCH@sha1:SHA`, `sha1:SHA`, `refs/heads/BRANCH@sha1:SHA` and the
    /// pre-2.0 `BRANCH/SHA`; `None` when no commit is in it.
    pub fn parse(text: &str) -> Option<Commit> {
        let text = text.trim();
        let (branch, sha) = match text.rsplit_once("@sha1:") {
            Some((b, s)) => (Some(b), s),
            None => match text.strip_prefix("sha1:") {
                Some(s) => (None, s),
                None => match text.rsplit_once('/') {
                    Some((b, s)) if is_sha(s) => (Some(b), s),
                    _ => (None, text),
                },
            },
        };
        if !is_sha(sha) {
            return None;
        }
        let branch = branch
            .map(|b| {
                b.trim_start_matches("refs/heads/")
                    .trim_start_matches("refs/tags/")
            })
            .filter(|b| !b.is_empty())
            .map(str::to_string);
        Some(Commit {
            sha: sha.to_ascii_lowercase(),
            branch,
        })
    }

    /// Whether both name one commit (an abbreviated SHA matches its full form).
    pub fn same_commit(&self, other: &Commit) -> bool {
        let n = self.sha.len().min(other.sha.len());
        n >= 7 && self.sha[..n] == other.sha[..n]
    }

    /// The first 12 hex digits.
    pub fn short(&self) -> &str {
        &self.sha[..self.sha.len().min(12)]
    }
}

fn is_sha(s: &str) -> bool {
    (7..=64).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The commit a source serves: a Git artifact's revision, or an OCI artifact's revision
/// annotation.
pub(super) fn commit_of(source: &FluxObject) -> Option<Commit> {
    let artifact = source.artifact()?;
    match source.key.kind {
        Kind::OciRepository => artifact
            .metadata
            .get(OCI_REVISION)
            .and_then(|r| Commit::parse(r)),
        _ => artifact.revision.as_deref().and_then(Commit::parse),
    }
}

/// The commit the live root source serves.
pub fn live_commit(c: &Cluster) -> Option<Commit> {
    c.get(&c.root_source()?).and_then(commit_of)
}

/// DRIFT-05, or what could not be told said in `out`.
pub(super) fn root_revision(input: &Input, out: &mut Drift) -> Option<Finding> {
    let rendered = input.rendered?;
    let live = input.live;
    let root = live.get(&live.root_source()?)?;
    let Some(serves) = commit_of(root) else {
        out.not_compared.push((
            root.key.to_string(),
            "the root's commit is not visible: its artifact names no Git commit".into(),
        ));
        return None;
    };
    let rule = "DRIFT-05";
    let evidence = vec![
        format!(
            "{} serves {}",
            root.key,
            root.artifact_revision().unwrap_or("(no revision)")
        ),
        format!("rendered commit {}", rendered.sha),
    ];
    if serves.same_commit(rendered) {
        return applied_behind(live, root, rendered);
    }
    let on = |c: &Commit| c.branch.clone().unwrap_or_else(|| "?".into());
    let (class, message) = match (&serves.branch, &rendered.branch, input.behind) {
        (Some(a), Some(b), _) if a != b => (
            Class::ControlFailing,
            format!(
                "The root follows {a} ({}), the render is from {b} ({})",
                serves.short(),
                rendered.short()
            ),
        ),
        (_, _, Some(Distance::Behind(n))) => (
            Class::Degraded,
            format!(
                "The root serves {}, {} behind the rendered {}",
                serves.short(),
                crate::analyses::verdict::plural(n, "commit"),
                rendered.short()
            ),
        ),
        (_, _, Some(Distance::Ahead(n))) => (
            Class::Context,
            format!(
                "The root serves {}, {} ahead of the rendered {}: a newer merge has landed",
                serves.short(),
                crate::analyses::verdict::plural(n, "commit"),
                rendered.short()
            ),
        ),
        (_, _, Some(Distance::Diverged)) => (
            Class::Degraded,
            format!(
                "The root serves {} on {}, which does not descend from the rendered {}",
                serves.short(),
                on(&serves),
                rendered.short()
            ),
        ),
        (_, _, None) => (
            Class::Degraded,
            format!(
                "The root serves {}, not the rendered {} (how far apart is not known: --repo counts it in a clone)",
                serves.short(),
                rendered.short()
            ),
        ),
    };
    Some(graded(
        live,
        rule,
        class,
        root.key.clone(),
        message,
        evidence,
        "Reconcile the root (`flux reconcile source <git|oci> <name>`), or fix the ref it follows; a source that does not fetch says why in `flux events --for <Kind>/<name>`.".into(),
    ))
}

/// The root serves the rendered commit: whether its Kustomization has applied it.
fn applied_behind(live: &Cluster, root: &FluxObject, rendered: &Commit) -> Option<Finding> {
    let ks = live.get(&live.root_kustomization()?)?;
    let served = root.artifact_revision()?;
    let applied = ks.last_applied_revision().unwrap_or("(nothing)");
    if applied == served {
        return None;
    }
    let why = match ks.message.is_empty() {
        true => String::new(),
        false => format!(" ({})", ks.message),
    };
    Some(graded(
        live,
        "DRIFT-05",
        Class::Degraded,
        ks.key.clone(),
        format!(
            "The root fetched the rendered commit {} and {} has not applied it: it applied {applied}{why}",
            rendered.short(),
            ks.key
        ),
        vec![
            format!("{} serves {served}", root.key),
            format!("{} lastAppliedRevision: {applied}", ks.key),
        ],
        format!(
            "Reconcile {} (`flux reconcile ks {} -n {}`) and read its events if it does not apply.",
            ks.key, ks.key.name, ks.key.namespace
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commits_are_read_in_every_form_flux_writes() {
        let full = "1234567890abcdef1234567890abcdef12345678";
        let c = Commit::parse(&format!("main@sha1:{full}")).unwrap();
        assert_eq!((c.sha.as_str(), c.branch.as_deref()), (full, Some("main")));
        let c = Commit::parse(&format!("refs/heads/prod@sha1:{full}")).unwrap();
        assert_eq!(c.branch.as_deref(), Some("prod"));
        assert_eq!(Commit::parse(&format!("main/{full}")).unwrap().sha, full);
        assert_eq!(Commit::parse(&format!("sha1:{full}")).unwrap().branch, None);
        assert!(Commit::parse("1234567").unwrap().same_commit(&c));
        assert!(!Commit::parse("1234568").unwrap().same_commit(&c));
        assert_eq!(Commit::parse("latest@sha256:zz"), None);
        assert_eq!(Commit::parse("v1.2.3"), None);
    }
}
