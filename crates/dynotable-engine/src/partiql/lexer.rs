//! PartiQL text to tokens, each with its byte span.
//!
//! The lexical rules DynamoDB's PartiQL follows (DG `ql-reference.select.html`,
//! `ql-reference.insert.html`, `ql-reference.data-types.html`):
//! - keywords and bare identifiers are words (`SELECT`, `Artist`); keywords match in any case;
//! - `"..."` quotes an identifier (a table, index or attribute name; `""` is a quote inside);
//! - `'...'` is a string literal (`''` is a quote inside);
//! - numbers are decimal, with an optional fraction and exponent;
//! - `?` is a parameter; `<<` and `>>` open and close a bag (a set literal);
//! - `--` starts a comment to the end of the line, `/* ... */` a block comment.
//!
//! A character that starts no token becomes an [`TokenKind::Unknown`] token, so the parser
//! reports it with its position like any other unexpected token.

use dynotable_expr::Span;

use super::error::SyntaxError;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TokenKind {
    /// A keyword or bare identifier, as written.
    Word(String),
    /// A `"quoted"` identifier, unescaped.
    QuotedIdent(String),
    /// A `'string'` literal, unescaped.
    Str(String),
    /// A number literal, as written.
    Number(String),
    /// Punctuation and operators: `* , . ( ) [ ] { } : ; ? = <> != < <= > >= + - << >>`.
    Punct(&'static str),
    /// A character no token starts with.
    Unknown(char),
    Eof,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

impl Token {
    /// Whether this token is the keyword `keyword` (given in upper case), in any case.
    pub fn is_keyword(&self, keyword: &str) -> bool {
        matches!(&self.kind, TokenKind::Word(w) if w.eq_ignore_ascii_case(keyword))
    }

    pub fn is_punct(&self, punct: &str) -> bool {
        matches!(&self.kind, TokenKind::Punct(p) if *p == punct)
    }

    /// The token as the statement spells it, for messages.
    pub fn text<'s>(&self, source: &'s str) -> &'s str {
        source.get(self.span.start..self.span.end).unwrap_or("")
    }
}

/// Operators, longest first so `<=` wins over `<`.
const PUNCTUATION: [&str; 23] = [
    "<<", ">>", "<>", "!=", "<=", ">=", "*", ",", ".", "(", ")", "[", "]", "{", "}", ":", ";", "?", "=", "<",
    ">", "+", "-",
];

pub(crate) fn tokenize(source: &str) -> Result<Vec<Token>, SyntaxError> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let c = bytes[at];
        if c.is_ascii_whitespace() {
            at += 1;
            continue;
        }
        if source[at..].starts_with("--") {
            at = source[at..].find('\n').map_or(bytes.len(), |n| at + n);
            continue;
        }
        if source[at..].starts_with("/*") {
            let Some(end) = source[at + 2..].find("*/") else {
                return Err(SyntaxError::new(
                    "Unterminated comment",
                    Span::new(at, bytes.len()),
                ));
            };
            at += end + 4;
            continue;
        }
        let start = at;
        let kind = match c {
            b'\'' | b'"' => {
                let (text, end) = quoted(source, at, c as char)?;
                at = end;
                if c == b'\'' {
                    TokenKind::Str(text)
                } else {
                    TokenKind::QuotedIdent(text)
                }
            }
            b'0'..=b'9' => {
                at = number_end(bytes, at);
                TokenKind::Number(source[start..at].to_owned())
            }
            b'.' if bytes.get(at + 1).is_some_and(u8::is_ascii_digit) => {
                at = number_end(bytes, at);
                TokenKind::Number(source[start..at].to_owned())
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while at < bytes.len()
                    && (bytes[at].is_ascii_alphanumeric() || matches!(bytes[at], b'_' | b'$'))
                {
                    at += 1;
                }
                TokenKind::Word(source[start..at].to_owned())
            }
            _ => match PUNCTUATION.iter().find(|p| source[at..].starts_with(**p)) {
                Some(p) => {
                    at += p.len();
                    TokenKind::Punct(p)
                }
                None => {
                    let ch = source[at..].chars().next().unwrap_or('\u{fffd}');
                    at += ch.len_utf8();
                    TokenKind::Unknown(ch)
                }
            },
        };
        tokens.push(Token {
            kind,
            span: Span::new(start, at),
        });
    }
    tokens.push(Token {
        kind: TokenKind::Eof,
        span: Span::new(bytes.len(), bytes.len()),
    });
    Ok(tokens)
}

/// A quoted string or identifier starting at `start`: its unescaped text and where it ends.
fn quoted(source: &str, start: usize, quote: char) -> Result<(String, usize), SyntaxError> {
    let mut text = String::new();
    let mut chars = source[start + 1..].char_indices().peekable();
    while let Some((offset, ch)) = chars.next() {
        if ch == quote {
            if chars.peek().is_some_and(|(_, next)| *next == quote) {
                chars.next();
                text.push(quote);
                continue;
            }
            return Ok((text, start + 1 + offset + 1));
        }
        text.push(ch);
    }
    let what = if quote == '\'' {
        "Unterminated string literal"
    } else {
        "Unterminated quoted identifier"
    };
    Err(SyntaxError::new(what, Span::new(start, source.len())))
}

/// Where a number starting at `at` ends: digits, an optional fraction, an optional exponent.
fn number_end(bytes: &[u8], mut at: usize) -> usize {
    let digits = |at: &mut usize| {
        while *at < bytes.len() && bytes[*at].is_ascii_digit() {
            *at += 1;
        }
    };
    digits(&mut at);
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        digits(&mut at);
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        let mut exponent = at + 1;
        if matches!(bytes.get(exponent), Some(b'+' | b'-')) {
            exponent += 1;
        }
        if bytes.get(exponent).is_some_and(u8::is_ascii_digit) {
            at = exponent;
            digits(&mut at);
        }
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> Vec<TokenKind> {
        tokenize(source).unwrap().into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn words_quotes_numbers_and_operators() {
        assert_eq!(
            kinds(r#"SELECT "a""b" FROM t WHERE x <> 'it''s' AND n >= -1.5e3 -- note"#),
            vec![
                TokenKind::Word("SELECT".into()),
                TokenKind::QuotedIdent("a\"b".into()),
                TokenKind::Word("FROM".into()),
                TokenKind::Word("t".into()),
                TokenKind::Word("WHERE".into()),
                TokenKind::Word("x".into()),
                TokenKind::Punct("<>"),
                TokenKind::Str("it's".into()),
                TokenKind::Word("AND".into()),
                TokenKind::Word("n".into()),
                TokenKind::Punct(">="),
                TokenKind::Punct("-"),
                TokenKind::Number("1.5e3".into()),
                TokenKind::Eof,
            ]
        );
    }

    #[test]
    fn bags_parameters_and_spans() {
        let tokens = tokenize("<<?, 'x'>> /* c */ é").unwrap();
        assert_eq!(tokens[0].kind, TokenKind::Punct("<<"));
        assert_eq!(tokens[1].kind, TokenKind::Punct("?"));
        assert_eq!(tokens[4].kind, TokenKind::Punct(">>"));
        assert_eq!(tokens[5].kind, TokenKind::Unknown('é'));
        assert_eq!(tokens[5].span, Span::new(19, 21));
    }

    #[test]
    fn unterminated_string_points_at_its_start() {
        let err = tokenize("SELECT * FROM t WHERE a = 'x").unwrap_err();
        assert_eq!(err.span, Span::new(26, 28));
    }
}
