//! The server's name filters (§6.2, §6.3): exact, `*` wildcards and `!` negation
//! (case-insensitive), or substring for search.

/// Matches `name` against a `/resources`-style filter.
pub fn name_matches(filter: &str, name: &str) -> bool {
    if filter.is_empty() {
        return true;
    }
    if !filter.contains('*') && !filter.starts_with('!') {
        return filter == name;
    }
    let (negate, pat) = match filter.strip_prefix('!') {
        Some(p) => (true, p),
        None => (false, filter),
    };
    let hit = if pat.contains('*') {
        wildcard(&pat.to_lowercase(), &name.to_lowercase())
    } else {
        pat.eq_ignore_ascii_case(name)
    };
    hit != negate
}

/// Matches `name` against a `/search` term: a plain term is wrapped as `*term*`.
pub fn search_matches(term: &str, name: &str) -> bool {
    if term.is_empty() {
        return true;
    }
    let (neg, body) = match term.strip_prefix('!') {
        Some(b) => ("!", b),
        None => ("", term),
    };
    if body.contains('*') {
        name_matches(term, name)
    } else {
        name_matches(&format!("{neg}*{body}*"), name)
    }
}

fn wildcard(pat: &str, s: &str) -> bool {
    let parts: Vec<&str> = pat.split('*').collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !s.starts_with(first) || s.len() < first.len() + last.len() || !s.ends_with(last) {
        return false;
    }
    let mut rest = &s[first.len()..s.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_wildcard_negation() {
        assert!(name_matches("podinfo", "podinfo"));
        assert!(!name_matches("podinfo", "podinfo-2"));
        assert!(
            !name_matches("Podinfo", "podinfo"),
            "plain values are exact"
        );
        assert!(name_matches("pod*", "PODINFO"));
        assert!(name_matches("*-test", "app-test"));
        assert!(!name_matches("!*-test", "app-test"));
        assert!(name_matches("!*-test", "app-prod"));
        assert!(name_matches("a*b*c", "axxbyyc"));
        assert!(!name_matches("a*b*c", "ac"));
        assert!(name_matches("!podinfo", "other"));
    }

    #[test]
    fn search_is_substring() {
        assert!(search_matches("info", "podinfo"));
        assert!(search_matches("INFO", "podinfo"));
        assert!(!search_matches("!info", "podinfo"));
        assert!(search_matches("pod*", "podinfo"));
    }
}
