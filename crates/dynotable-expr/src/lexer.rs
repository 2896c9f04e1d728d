//! Lexer: expression text → tokens with byte spans.
//!
//! The lexer never fails. Characters that belong to no token (`!`, `"`, a lone `#` or `:`, a
//! leading `_`, any non-ASCII letter) become [`TokenKind::Unknown`] tokens of one character, and
//! the parser rejects them where they stand — which is how the service reports them too:
//! `SET _123 = :v` fails with `token: "_", near: "SET _123"` (the `_` is a token of its own and
//! `123` the next one).
//!
//! Token rules (Rule B.6, docs/dynamodb-rules.md, and the service's observed lexing):
//! - an identifier starts with an ASCII letter and continues with letters, digits and `_`;
//! - a name placeholder is `#` followed by one or more of `[A-Za-z0-9_]`, a value placeholder
//!   the same after `:`;
//! - a number is a run of ASCII digits (only valid as a list index);
//! - whitespace is space, tab, carriage return and line feed.
//!
//! Keywords (`AND`, `SET`, ...) are identifiers here; each grammar decides which identifiers are
//! its keywords, case-insensitively.

use crate::error::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// `status`, `AND`, `begins_with`
    Identifier,
    /// `#name`
    NamePlaceholder,
    /// `:value`
    ValuePlaceholder,
    /// `12`
    Number,
    /// `=`
    Eq,
    /// `<>`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `(`
    LeftParen,
    /// `)`
    RightParen,
    /// `[`
    LeftBracket,
    /// `]`
    RightBracket,
    /// `.`
    Dot,
    /// `,`
    Comma,
    /// Any other single character.
    Unknown,
    /// The end of the input; its span is empty and sits at the end of the text.
    Eof,
}

impl TokenKind {
    /// A short name for token dumps.
    pub fn name(self) -> &'static str {
        match self {
            TokenKind::Identifier => "identifier",
            TokenKind::NamePlaceholder => "name",
            TokenKind::ValuePlaceholder => "value",
            TokenKind::Number => "number",
            TokenKind::Eq => "eq",
            TokenKind::Ne => "ne",
            TokenKind::Lt => "lt",
            TokenKind::Le => "le",
            TokenKind::Gt => "gt",
            TokenKind::Ge => "ge",
            TokenKind::Plus => "plus",
            TokenKind::Minus => "minus",
            TokenKind::LeftParen => "lparen",
            TokenKind::RightParen => "rparen",
            TokenKind::LeftBracket => "lbracket",
            TokenKind::RightBracket => "rbracket",
            TokenKind::Dot => "dot",
            TokenKind::Comma => "comma",
            TokenKind::Unknown => "unknown",
            TokenKind::Eof => "eof",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

impl Token {
    /// The token's text in `source` (`<EOF>` for the end of input, as the service prints it).
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        match self.kind {
            TokenKind::Eof => "<EOF>",
            _ => source.get(self.span.start..self.span.end).unwrap_or(""),
        }
    }
}

fn is_word_char(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// Splits `source` into tokens; the last token is always [`TokenKind::Eof`].
pub fn tokenize(source: &str) -> Vec<Token> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        let start = pos;
        let byte = bytes[pos];
        let kind = match byte {
            b' ' | b'\t' | b'\r' | b'\n' => {
                pos += 1;
                continue;
            }
            b'a'..=b'z' | b'A'..=b'Z' => {
                while pos < bytes.len() && is_word_char(bytes[pos]) {
                    pos += 1;
                }
                TokenKind::Identifier
            }
            b'0'..=b'9' => {
                while pos < bytes.len() && bytes[pos].is_ascii_digit() {
                    pos += 1;
                }
                TokenKind::Number
            }
            b'#' | b':' => {
                pos += 1;
                let name_start = pos;
                while pos < bytes.len() && is_word_char(bytes[pos]) {
                    pos += 1;
                }
                if pos == name_start {
                    TokenKind::Unknown
                } else if byte == b'#' {
                    TokenKind::NamePlaceholder
                } else {
                    TokenKind::ValuePlaceholder
                }
            }
            b'<' => match bytes.get(pos + 1) {
                Some(b'>') => {
                    pos += 2;
                    TokenKind::Ne
                }
                Some(b'=') => {
                    pos += 2;
                    TokenKind::Le
                }
                _ => {
                    pos += 1;
                    TokenKind::Lt
                }
            },
            b'>' => match bytes.get(pos + 1) {
                Some(b'=') => {
                    pos += 2;
                    TokenKind::Ge
                }
                _ => {
                    pos += 1;
                    TokenKind::Gt
                }
            },
            _ => {
                let kind = match byte {
                    b'=' => TokenKind::Eq,
                    b'+' => TokenKind::Plus,
                    b'-' => TokenKind::Minus,
                    b'(' => TokenKind::LeftParen,
                    b')' => TokenKind::RightParen,
                    b'[' => TokenKind::LeftBracket,
                    b']' => TokenKind::RightBracket,
                    b'.' => TokenKind::Dot,
                    b',' => TokenKind::Comma,
                    _ => TokenKind::Unknown,
                };
                // One whole character, however many bytes it takes.
                pos += source[start..].chars().next().map_or(1, char::len_utf8);
                kind
            }
        };
        tokens.push(Token {
            kind,
            span: Span::new(start, pos),
        });
    }
    tokens.push(Token {
        kind: TokenKind::Eof,
        span: Span::new(bytes.len(), bytes.len()),
    });
    tokens
}

/// The service's syntax-error detail for the token at `index`:
/// `Syntax error; token: "<tok>", near: "<context>"`.
///
/// "near" is the source text from the start of the previous token to the end of the next one,
/// whitespace included, as captured from the live service: `ADD hits : incr` →
/// `token: ":", near: "hits : incr"`; `INVALID SYNTAX HERE` → `token: "INVALID", near: "INVALID
/// SYNTAX"`; at the end of input the token is `<EOF>` and "near" is the last token alone
/// (`a,` → `token: "<EOF>", near: ","`).
pub fn syntax_error_detail(source: &str, tokens: &[Token], index: usize) -> String {
    let Some(token) = tokens.get(index) else {
        return "Syntax error; token: \"<EOF>\", near: \"\"".to_string();
    };
    let previous = index.checked_sub(1).and_then(|i| tokens.get(i));
    let next = tokens.get(index + 1).filter(|t| t.kind != TokenKind::Eof);
    let start = previous.map_or(token.span.start, |t| t.span.start);
    let end = match token.kind {
        TokenKind::Eof => previous.map_or(token.span.end, |t| t.span.end),
        _ => next.map_or(token.span.end, |t| t.span.end),
    };
    let near = source.get(start..end).unwrap_or("");
    format!(
        "Syntax error; token: \"{}\", near: \"{near}\"",
        token.text(source)
    )
}
