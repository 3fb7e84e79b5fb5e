//! Keyless identity patterns (cosign `matchOIDCIdentity`: RE2, evaluated unanchored) and
//! kustomize patch targets (regexes that kustomize anchors as `^(?:…)$`).
//!
//! Identity checks are structural (anchors, wildcards, escaping). Target matching runs the
//! target as the RE2 expression it is (the `regex-lite` crate); what RE2 cannot express is
//! reported as indeterminate, never as a pass.

/// Problems with one identity pattern, for SIG-06/07/08.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PatternIssues {
    /// Empty, `.*`, `.+`, `^.*$`: matches anything.
    pub matches_anything: bool,
    pub missing_start_anchor: bool,
    pub missing_end_anchor: bool,
    /// Literal dots that match any character (`github.com`).
    pub unescaped_dots: bool,
}

/// Analyses one pattern.
pub fn analyse(p: &str) -> PatternIssues {
    let t = p.trim();
    let matches_anything = matches!(t, "" | ".*" | ".+" | "^.*$" | "^.+$" | "^.*" | ".*$");
    PatternIssues {
        matches_anything,
        missing_start_anchor: !matches_anything && !t.starts_with('^'),
        missing_end_anchor: !matches_anything && !t.ends_with('$'),
        unescaped_dots: has_unescaped_literal_dot(t),
    }
}

/// A `.` that is neither escaped, in a class, nor followed by a quantifier, between word
/// characters (host or file names): it matches any character where a dot was meant.
fn has_unescaped_literal_dot(p: &str) -> bool {
    let c: Vec<char> = p.chars().collect();
    let mut in_class = false;
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '\\' => i += 1,
            '[' => in_class = true,
            ']' => in_class = false,
            '.' if !in_class => {
                let prev = i.checked_sub(1).map(|j| c[j]);
                let next = c.get(i + 1).copied();
                let quantified = matches!(next, Some('*' | '+' | '?' | '{'));
                if !quantified
                    && prev.is_some_and(char::is_alphanumeric)
                    && next.is_some_and(char::is_alphanumeric)
                {
                    return true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// The literal text of a pattern (anchors dropped, escapes resolved), for decoy probes.
pub fn literal(p: &str) -> String {
    let t = p.trim().trim_start_matches('^').trim_end_matches('$');
    let mut out = String::new();
    let mut chars = t.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '[' => {
                // `[.]` style escapes: keep the single character.
                let class: String = chars.by_ref().take_while(|&x| x != ']').collect();
                out.push_str(class.get(..1).unwrap_or(""));
            }
            // A bare `.` matches a dot too; `.*`/`.+` contribute nothing to the decoy.
            '.' if !matches!(chars.clone().next(), Some('*' | '+' | '?')) => out.push('.'),
            '.' | '*' | '+' | '?' => {}
            other => out.push(other),
        }
    }
    out
}

/// Whether a subject is a CI workflow identity (GitHub Actions or GitLab CI), the only
/// identities SIG-07 judges; e-mail and Kubernetes service-account identities are out of scope.
pub fn is_workflow_subject(subject: &str) -> bool {
    let lit = literal(subject);
    lit.contains("github.com/") || lit.contains("gitlab")
}

/// Whether the subject pins a workflow file and restricts the ref: a literal file name
/// (`…/.github/workflows/release.yaml`, `….gitlab-ci.yml`) followed by `@refs/…`. A branch or
/// tag pattern after `@refs/` is a restriction (`@refs/tags/v.*$` passes); `.*` right after
/// the repository path, or no `@refs/` part, is not.
pub fn pins_workflow_and_ref(subject: &str) -> bool {
    let t = subject.trim().trim_start_matches('^').trim_end_matches('$');
    let Some((before, _)) = t.split_once("@refs/") else {
        return false;
    };
    let file = before.rsplit('/').next().unwrap_or("");
    let wildcard = file.contains(".*") || file.contains(".+") || file.ends_with('*');
    let path = literal(before);
    !file.is_empty()
        && !wildcard
        && (path.contains("/.github/workflows/") || path.contains(".gitlab-ci"))
}

/// How much of GitHub a keyless subject admits (revision 3, SIG-06/07).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubjectScope {
    /// Not a GitHub workflow identity (GitLab, e-mail, service accounts): judged by
    /// [`pins_workflow_and_ref`] alone.
    Other,
    /// The owner is a pattern: anyone on GitHub can sign.
    AnyOwner,
    /// Any repository of this owner can sign.
    AnyRepositoryOf(String),
    /// One repository, but any of its workflows (or no `@refs/` restriction).
    AnyWorkflow,
    /// A pinned workflow, any branch after `@refs/heads/` (S003's unguarded workflow_dispatch).
    AnyBranch,
    /// Literal owner, repository, workflow and branch (or a tag pattern).
    Pinned,
}

/// Whether a pattern segment is literal text: escapes and single-character classes allowed,
/// no quantifier, group or alternation (a bare `.` is SIG-08's business, not breadth).
fn is_literal(seg: &str) -> bool {
    let c: Vec<char> = seg.chars().collect();
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            '\\' => i += 1,
            '[' => {
                let close = c[i..].iter().position(|&x| x == ']').map(|p| p + i);
                match close {
                    Some(j) if j == i + 2 && c[i + 1] != '^' => i = j,
                    _ => return false,
                }
            }
            '*' | '+' | '?' | '(' | ')' | '|' | '{' | '}' => return false,
            _ => {}
        }
        i += 1;
    }
    !seg.is_empty()
}

/// The scope of a GitHub Actions subject pattern
/// (`https://github.com/<owner>/<repo>/.github/workflows/<file>@refs/heads/<branch>`).
pub fn subject_scope(subject: &str) -> SubjectScope {
    let t = subject.trim().trim_start_matches('^').trim_end_matches('$');
    let Some(host) = t.find("github") else {
        return SubjectScope::Other;
    };
    let Some(slash) = t[host..].find('/') else {
        return SubjectScope::Other;
    };
    let rest = &t[host + slash + 1..];
    let (path, reference) = match rest.split_once("@refs/") {
        Some((p, r)) => (p, Some(r)),
        None => (rest, None),
    };
    let mut segs = path.split('/');
    let owner = segs.next().unwrap_or("");
    if !is_literal(owner) {
        return SubjectScope::AnyOwner;
    }
    let repo = segs.next().unwrap_or("");
    if !is_literal(repo) {
        // `repo.*` running to the end names the repository by its prefix (the catalog's
        // "any workflow" example); `.*` or nothing after the owner is every repository.
        let prefix = repo.trim_end_matches(".*").trim_end_matches(".+");
        let tail_only = prefix.len() < repo.len() && is_literal(prefix) && segs.next().is_none();
        return if tail_only && reference.is_none() {
            SubjectScope::AnyWorkflow
        } else {
            SubjectScope::AnyRepositoryOf(literal(owner))
        };
    }
    if !pins_workflow_and_ref(subject) {
        return SubjectScope::AnyWorkflow;
    }
    match reference {
        Some(r) if r.starts_with("heads/") && !is_literal(&r["heads/".len()..]) => {
            SubjectScope::AnyBranch
        }
        _ => SubjectScope::Pinned,
    }
}

/// Result of matching an anchored kustomize target regex.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetMatch {
    Yes,
    No,
    /// The pattern uses syntax this matcher does not evaluate.
    Indeterminate,
}

/// Matches `value` against a kustomize target field: an RE2 expression kustomize anchors as
/// `^(?:…)$` (kustomize `types.SelectorRegex`); empty matches anything. Indeterminate only when
/// the pattern is not RE2 (a look-around, a back-reference) or too large to compile.
pub fn target_matches(pattern: &str, value: &str) -> TargetMatch {
    if pattern.is_empty() {
        return TargetMatch::Yes;
    }
    let anchored = format!("^(?:{pattern})$");
    match regex_lite::Regex::new(&anchored) {
        Ok(re) if re.is_match(value) => TargetMatch::Yes,
        Ok(_) => TargetMatch::No,
        Err(_) => TargetMatch::Indeterminate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_examples() {
        let good =
            r"^https://github\.com/org/repo/\.github/workflows/release\.yaml@refs/heads/main$";
        assert_eq!(analyse(good), PatternIssues::default());
        assert!(pins_workflow_and_ref(good));
        assert!(analyse(".*").matches_anything);
        assert!(analyse("").matches_anything);
        let unanchored = analyse("https://github.com/org/");
        assert!(
            unanchored.missing_start_anchor
                && unanchored.missing_end_anchor
                && unanchored.unescaped_dots
        );
        assert!(!pins_workflow_and_ref(r"^https://github\.com/org/repo.*$"));
        // Revision 2: a pinned workflow restricted to tags passes; any workflow does not.
        assert!(pins_workflow_and_ref(
            r"^https://github\.com/org/web/\.github/workflows/release\.yaml@refs/tags/v.*$"
        ));
        assert!(!pins_workflow_and_ref(
            r"^https://github\.com/org/web/\.github/workflows/.*@refs/heads/main$"
        ));
        assert!(!pins_workflow_and_ref(
            r"^https://github\.com/org/web/\.github/workflows/release\.yaml$"
        ));
        assert!(is_workflow_subject(r"^https://github\.com/org/repo.*$"));
        assert!(!is_workflow_subject("^flux@example\\.org$"));
        assert!(!is_workflow_subject(
            "^https://kubernetes\\.io/namespaces/ci/serviceaccounts/signer$"
        ));
        assert!(!analyse("token[.]actions[.]githubusercontent[.]com").unescaped_dots);
        assert!(analyse("token.actions.githubusercontent.com").unescaped_dots);
        assert!(!analyse(r"^https://github\.com/org/.+$").unescaped_dots);
        assert_eq!(
            literal(r"^https://token\.actions\.githubusercontent\.com$"),
            "https://token.actions.githubusercontent.com"
        );
    }

    #[test]
    fn target_matching() {
        use TargetMatch::*;
        assert_eq!(target_matches("", "anything"), Yes);
        assert_eq!(target_matches("OCIRepository", "OCIRepository"), Yes);
        assert_eq!(target_matches("OCIRepository", "GitRepository"), No);
        assert_eq!(
            target_matches("flux", "flux-system"),
            No,
            "anchored: no substring match"
        );
        assert_eq!(target_matches("flux-.*", "flux-system"), Yes);
        assert_eq!(target_matches("Git.*|OCI.*", "OCIRepository"), Yes);
        assert_eq!(target_matches("v1beta2", "v1"), No);
        assert_eq!(
            target_matches(r"source\.toolkit\.fluxcd\.io", "source.toolkit.fluxcd.io"),
            Yes
        );
        assert_eq!(target_matches("flux-syste?m", "flux-systm"), Yes);
        assert_eq!(target_matches("fl+ux", "fllux"), Yes);
        // Revision 4: targets are RE2. The instance in the issue report names its sync objects
        // with an alternation, as it does its Deployment patch targets.
        assert_eq!(target_matches("(flux-system|flux)", "flux-system"), Yes);
        assert_eq!(target_matches("(flux-system|flux)", "flux"), Yes);
        assert_eq!(target_matches("(flux-system|flux)", "flux-syst"), No);
        assert_eq!(target_matches("[a-z]+-system", "flux-system"), Yes);
        assert_eq!(target_matches("flux-[0-9]{2}", "flux-07"), Yes);
        assert_eq!(
            target_matches("^flux$", "flux"),
            Yes,
            "an explicit anchor is harmless"
        );
        assert_eq!(target_matches(r"\w+", "flux_system"), Yes);
        // What RE2 cannot express stays indeterminate, never a pass.
        assert_eq!(target_matches("(?=flux)flux", "flux"), Indeterminate);
        assert_eq!(target_matches(r"(a)\1", "aa"), Indeterminate);
        // A target from a hostile manifest cannot make the check build a huge automaton.
        assert_eq!(
            target_matches("((a{1000}){1000}){1000}", "a"),
            Indeterminate
        );
    }
}
