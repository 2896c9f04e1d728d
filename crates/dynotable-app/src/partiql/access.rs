//! Which statements write: a read-only connection refuses them here, before anything is sent.
//!
//! DynamoDB's PartiQL has one read (`SELECT`, and `EXISTS` only inside a transaction's write
//! statements) and three writes (`INSERT`, `UPDATE`, `DELETE`). The first word after blanks and
//! comments decides; a statement that starts with anything else is treated as a write, so a
//! read-only connection never sends a text it could not classify.

/// Does `statement` read only (a SELECT)?
pub fn is_read(statement: &str) -> bool {
    first_word(statement).is_some_and(|word| word.eq_ignore_ascii_case("SELECT"))
}

/// The first word of `statement`, after blanks, `--` line comments, `/* */` block comments and
/// opening parentheses.
fn first_word(statement: &str) -> Option<&str> {
    let mut rest = statement;
    loop {
        let trimmed = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '(');
        if let Some(after) = trimmed.strip_prefix("--") {
            rest = after.split_once('\n').map_or("", |(_, tail)| tail);
        } else if let Some(after) = trimmed.strip_prefix("/*") {
            rest = after.split_once("*/").map_or("", |(_, tail)| tail);
        } else {
            rest = trimmed;
            break;
        }
    }
    let end = rest
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_select_counts_as_a_read() {
        assert!(is_read(r#"SELECT * FROM "Telemetry""#));
        assert!(is_read("  select * from t"));
        assert!(is_read("-- the last week\n/* mine */ (SELECT a FROM t)"));
        for write in [
            r#"INSERT INTO "t" VALUE {'id': 1}"#,
            "update t SET a = 1 WHERE id = 1",
            "DELETE FROM t WHERE id = 1",
            "-- SELECT\nDELETE FROM t WHERE id = 1",
            "/* SELECT */ UPDATE t SET a = 1 WHERE id = 1",
            "SELECTX",
            "",
            "?",
        ] {
            assert!(!is_read(write), "{write}");
        }
    }
}
