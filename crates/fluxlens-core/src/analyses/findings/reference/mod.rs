//! The rule reference: for every rule of the registry what it checks, the classes of evidence
//! it reports (and so, by the policy, its possible severities), its remediation and its
//! sources. `docs/rules.md` and `docs/rules.html` (shipped beside the app as `rules.html`) are rendered from it
//! (`make rules`; a test fails when either is out of date), and every finding links to its
//! entry.

pub mod drift;
mod render;
pub mod sources;

pub use render::{anchor, html, markdown};
pub use sources::Source;

use super::policy::Class;

/// One rule's entry.
#[derive(Debug)]
pub struct RuleDoc {
    pub id: &'static str,
    /// What the rule checks, in a sentence or three.
    pub checks: &'static str,
    /// The classes of evidence its findings carry; the policy grades them.
    pub classes: &'static [Class],
    /// What to do in general (each finding says it for its own subject).
    pub remediation: &'static str,
    pub sources: &'static [Source],
}

/// Every rule's entry: the registry's in catalog order (each registered with its rule:
/// `rules/registry.rs`), then drift's, which a render judged against the cluster reports.
pub fn docs() -> impl Iterator<Item = &'static RuleDoc> + Clone {
    super::reference_entries().iter().chain(drift::DOCS.iter())
}

/// The title of rule `id` (empty for an id no rule has).
pub fn title(id: &str) -> &'static str {
    super::registry()
        .find(|r| r.id() == id)
        .map(|r| r.title())
        .or_else(|| {
            drift::TITLES
                .iter()
                .find(|(i, _)| *i == id)
                .map(|(_, t)| *t)
        })
        .unwrap_or("")
}

/// The entry of rule `id`.
pub fn of(id: &str) -> Option<&'static RuleDoc> {
    docs().find(|d| d.id == id)
}

/// Whether rule `id` is documented as reporting `class`.
pub fn declares(id: &str, class: Class) -> bool {
    of(id).is_some_and(|d| d.classes.contains(&class))
}

/// Whether `f`'s class (the end of its reason line) is one its rule's entry lists: tests and
/// debug builds hold every finding to it, so the reference cannot drift from what the rules do.
pub fn documents(f: &crate::analyses::finding::Finding) -> bool {
    of(&f.rule).is_some_and(|d| d.classes.iter().any(|c| f.reason.ends_with(c.as_str())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyses::findings::registry;

    #[test]
    fn every_registered_rule_is_registered_with_its_own_entry() {
        let rules: Vec<_> = registry().map(|r| r.id()).collect();
        let entries: Vec<_> = super::super::reference_entries()
            .iter()
            .map(|d| d.id)
            .collect();
        assert_eq!(rules, entries);
        let drift: Vec<_> = drift::DOCS.iter().map(|d| d.id).collect();
        let titled: Vec<_> = drift::TITLES.iter().map(|(i, _)| *i).collect();
        assert_eq!(drift, titled, "each drift rule has its entry and its title");
        assert!(docs().all(|d| !title(d.id).is_empty()));
        for d in docs() {
            assert!(
                !d.checks.is_empty() && !d.remediation.is_empty(),
                "{}",
                d.id
            );
            assert!(!d.classes.is_empty() && !d.sources.is_empty(), "{}", d.id);
            for s in d.sources {
                assert!(s.url.starts_with("https://github.com/"), "{}", s.url);
            }
        }
    }

    #[test]
    fn the_reference_in_the_repository_is_the_registry_rendered() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        for (path, text) in [("docs/rules.md", markdown()), ("docs/rules.html", html())] {
            let file = root.join(path);
            if std::env::var_os("FLUXLENS_WRITE_RULES").is_some() {
                std::fs::write(&file, &text).unwrap();
            }
            let on_disk = std::fs::read_to_string(&file).unwrap_or_default();
            assert!(
                on_disk == text,
                "{path} is not the registry rendered: run `make rules`"
            );
        }
    }
}
