//! Long revisions and digests shortened for tables (`main@sha1:4f1c…`), the full value kept
//! by the view for hover and copy.

/// Hex digits kept of a digest or commit id.
pub const KEEP: usize = 12;

fn is_hex(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Shortens each `sha…:<hex>` part and each bare 40/64-digit id of a revision; a tag,
/// branch or anything else is kept as written.
pub fn short(revision: &str) -> String {
    revision
        .split('@')
        .map(|part| match part.split_once(':') {
            Some((algo, hex)) if algo.starts_with("sha") && hex.len() > KEEP && is_hex(hex) => {
                format!("{algo}:{}…", &hex[..KEEP])
            }
            _ if matches!(part.len(), 40 | 64) && is_hex(part) => format!("{}…", &part[..KEEP]),
            _ => part.to_string(),
        })
        .collect::<Vec<_>>()
        .join("@")
}

/// `text` with every revision or digest in it shortened as [`short`] does (a controller's
/// message quotes whole digests; a table cell shows them short, the full text on hover).
pub fn short_in(text: &str) -> String {
    text.split(' ')
        .map(|word| {
            // Quotes and punctuation around a digest stay as they are.
            let marks = [',', '.', '(', ')', ';', ':', '"', '\''];
            let tail = word.trim_end_matches(marks);
            let body = tail.trim_start_matches(marks);
            let head = &tail[..tail.len() - body.len()];
            format!("{head}{}{}", short(body), &word[tail.len()..])
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::{short, short_in};

    #[test]
    fn digests_in_a_message_shorten_and_the_words_stay() {
        let digest = format!("sha256:{}", "ab".repeat(32));
        let message = format!("verified signature of revision latest@{digest}, at 2026-12-01");
        assert_eq!(
            short_in(&message),
            format!(
                "verified signature of revision latest@{}, at 2026-12-01",
                short(&digest)
            )
        );
        assert_eq!(short_in("no digest here."), "no digest here.");
        assert_eq!(
            short_in(&format!("stored artifact for digest 'latest@{digest}'")),
            format!("stored artifact for digest 'latest@{}'", short(&digest))
        );
    }

    #[test]
    fn digests_and_commit_ids_shorten_tags_stay() {
        let sha1 = "4f1c2a9b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a";
        assert_eq!(
            short(&format!("main@sha1:{sha1}")),
            "main@sha1:4f1c2a9b8d7e…"
        );
        let d = "a".repeat(64);
        assert_eq!(
            short(&format!("v1.2.3@sha256:{d}")),
            "v1.2.3@sha256:aaaaaaaaaaaa…"
        );
        assert_eq!(short(sha1), "4f1c2a9b8d7e…");
        assert_eq!(short("v1.2.3"), "v1.2.3");
        assert_eq!(short("sha256:abc"), "sha256:abc");
        // Not hex: kept whole rather than cut in a misleading place.
        assert_eq!(
            short("main@sha1:zzzzzzzzzzzzzzzzzzzzzz"),
            "main@sha1:zzzzzzzzzzzzzzzzzzzzzz"
        );
    }
}
