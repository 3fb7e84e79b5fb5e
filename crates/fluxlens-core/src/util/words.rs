//! Counts in words: every count the UI writes goes through here, so none reads "1 findings".

/// "1 cycle", "2 cycles".
pub fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// The word that agrees with a count: `agree(1, "looks", "look")` is "looks" (verbs and
/// pronouns, which `plural` cannot form).
pub fn agree<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_agree_with_their_words() {
        assert_eq!(plural(1, "cycle"), "1 cycle");
        assert_eq!(plural(0, "cycle"), "0 cycles");
        assert_eq!(agree(1, "needs", "need"), "needs");
        assert_eq!(agree(2, "needs", "need"), "need");
    }
}
