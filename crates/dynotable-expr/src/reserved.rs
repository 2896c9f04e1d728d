//! DynamoDB's reserved words (Rule B.6, docs/dynamodb-rules.md): 573 words, copied as data from the
//! AWS Developer Guide page "Reserved words in DynamoDB" into `reserved-words.txt`, one word a
//! line (`#` lines are comments). A bare attribute name equal to one of them, compared
//! case-insensitively, must be written through a `#placeholder`; otherwise the service answers
//! `Attribute name is a reserved keyword; reserved keyword: <name as written>`.

use std::collections::HashSet;
use std::sync::LazyLock;

use crate::ast::{Path, PathElement};
use crate::error::{Error, ExpressionKind, Result};

static WORDS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("reserved-words.txt")
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect()
});

/// Is `word` a reserved word, in any letter case?
pub fn is_reserved(word: &str) -> bool {
    // Reserved words are short ASCII; anything longer or non-ASCII cannot match.
    if word.len() > 32 || !word.is_ascii() {
        return false;
    }
    WORDS.contains(word.to_ascii_uppercase().as_str())
}

/// Every reserved word, in upper case and alphabetical order (for editors that quote them).
pub fn words() -> Vec<&'static str> {
    let mut words: Vec<&'static str> = WORDS.iter().copied().collect();
    words.sort_unstable();
    words
}

/// How many reserved words there are (573).
pub fn count() -> usize {
    WORDS.len()
}

/// The first bare name in `paths` (in textual order) that is a reserved word, as an error:
/// `Attribute name is a reserved keyword; reserved keyword: <name as written>`.
pub(crate) fn check_paths<'a>(kind: ExpressionKind, paths: impl IntoIterator<Item = &'a Path>) -> Result<()> {
    for path in paths {
        for element in &path.elements {
            if let PathElement::Name { name, span } = element
                && is_reserved(name)
            {
                return Err(Error::invalid(
                    kind,
                    *span,
                    format!("Attribute name is a reserved keyword; reserved keyword: {name}"),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_has_573_words_in_upper_case() {
        assert_eq!(count(), 573);
        assert!(
            WORDS
                .iter()
                .all(|w| w.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
        );
    }

    #[test]
    fn matching_ignores_case() {
        assert!(is_reserved("status"));
        assert!(is_reserved("Status"));
        assert!(is_reserved("STATUS"));
        assert!(is_reserved("abOrt"));
        assert!(!is_reserved("statuses"));
        assert!(!is_reserved(""));
    }
}
