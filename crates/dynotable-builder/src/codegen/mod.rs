//! Code export: a [`GeneratedRequest`] as a program that reads every page of the result.
//!
//! One module per language. Every program:
//! - takes its endpoint, Region and credentials from the SDK's usual chain (environment,
//!   shared config), so it runs against DynamoDB or, with `AWS_ENDPOINT_URL` set, against
//!   `dynotable-local`, unchanged;
//! - sends exactly the parameters of the builder's request — the same expression text and
//!   placeholder maps — with values written in the SDK's own form (typed AttributeValues for
//!   the low-level clients, native values for the DocumentClient and the boto3 resource);
//! - pages with `LastEvaluatedKey`/`ExclusiveStartKey` (or the SDK's paginator) until the last
//!   page, and prints one item per line (JSON where the language has it built in).
//!
//! The output is deterministic: golden files pin it, and the black-box tests run the Python,
//! AWS CLI and Node programs against `dynotable-local`.

mod cli;
mod go;
mod java;
mod javascript;
mod python;
mod rust;
pub mod table;

use serde::{Deserialize, Serialize};

use crate::request::GeneratedRequest;

/// What a request can be exported as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum CodeTarget {
    /// AWS CLI v2 (v1 too, unless the request has binary values), a POSIX shell command.
    AwsCli,
    /// JavaScript SDK v3, `@aws-sdk/client-dynamodb` (ES module).
    JavaScriptClient,
    /// JavaScript SDK v3, `@aws-sdk/lib-dynamodb` DocumentClient (ES module).
    JavaScriptDocumentClient,
    /// Python, boto3 low-level client.
    PythonClient,
    /// Python, boto3 resource (Table).
    PythonResource,
    /// Rust, aws-sdk-dynamodb with aws-config and tokio.
    Rust,
    /// Go, AWS SDK for Go v2.
    Go,
    /// Java, AWS SDK for Java 2.x.
    Java,
}

impl CodeTarget {
    pub const ALL: [CodeTarget; 8] = [
        CodeTarget::AwsCli,
        CodeTarget::JavaScriptClient,
        CodeTarget::JavaScriptDocumentClient,
        CodeTarget::PythonClient,
        CodeTarget::PythonResource,
        CodeTarget::Rust,
        CodeTarget::Go,
        CodeTarget::Java,
    ];

    /// A short name, also the stem of the golden files.
    pub fn name(self) -> &'static str {
        match self {
            CodeTarget::AwsCli => "aws-cli",
            CodeTarget::JavaScriptClient => "js-client",
            CodeTarget::JavaScriptDocumentClient => "js-document",
            CodeTarget::PythonClient => "python-client",
            CodeTarget::PythonResource => "python-resource",
            CodeTarget::Rust => "rust",
            CodeTarget::Go => "go",
            CodeTarget::Java => "java",
        }
    }

    /// The usual file name extension of the program.
    pub fn extension(self) -> &'static str {
        match self {
            CodeTarget::AwsCli => "sh",
            CodeTarget::JavaScriptClient | CodeTarget::JavaScriptDocumentClient => "mjs",
            CodeTarget::PythonClient | CodeTarget::PythonResource => "py",
            CodeTarget::Rust => "rs",
            CodeTarget::Go => "go",
            CodeTarget::Java => "java",
        }
    }

    pub fn from_name(name: &str) -> Option<CodeTarget> {
        CodeTarget::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The program for `target` that runs `request` and prints every item of every page.
pub fn export(request: &GeneratedRequest, target: CodeTarget) -> String {
    match target {
        CodeTarget::AwsCli => cli::export(request),
        CodeTarget::JavaScriptClient => javascript::export(request, false),
        CodeTarget::JavaScriptDocumentClient => javascript::export(request, true),
        CodeTarget::PythonClient => python::export(request, false),
        CodeTarget::PythonResource => python::export(request, true),
        CodeTarget::Rust => rust::export(request),
        CodeTarget::Go => go::export(request),
        CodeTarget::Java => java::export(request),
    }
}

/// A double-quoted string literal in the C family's syntax (JavaScript, Python, Go, Java):
/// backslash, quote and control characters escaped, `\u00XX` for the rest of C0 and DEL, other
/// characters as they are (the files are UTF-8).
pub(crate) fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => out.push_str(&format!("\\u{:04x}", c as u32)),
            // Line and paragraph separators end a line in older JavaScript and Java sources.
            '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Base64 of bytes, as DynamoDB JSON writes B values.
pub(crate) fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A readable identifier from the table name: `Telemetry` → `Telemetry`, `my-table` → `MyTable`.
pub(crate) fn pascal_identifier(text: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if upper {
                out.push(c.to_ascii_uppercase());
            } else {
                out.push(c);
            }
            upper = false;
        } else {
            upper = true;
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "Table");
    }
    out
}

/// Whether a DynamoDB number (canonical text, no exponent) is exactly a JavaScript number that
/// prints back as the same text: the shortest round-trip form of the double equals the text, in
/// the range where JavaScript prints without an exponent.
pub(crate) fn is_exact_js_number(number: &str) -> bool {
    let Ok(double) = number.parse::<f64>() else {
        return false;
    };
    let magnitude = double.abs();
    format!("{double}") == number && (double == 0.0 || (1e-6..1e21).contains(&magnitude))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_a_javascript_double_holds_exactly() {
        for exact in ["0", "7", "-1500", "12.5", "0.1", "9007199254740992", "0.000001"] {
            assert!(is_exact_js_number(exact), "{exact}");
        }
        for inexact in [
            "12345678901234567890",
            "9007199254740993",
            "0.30000000000000000001",
            "1000000000000000000000",
            "0.0000001",
        ] {
            assert!(!is_exact_js_number(inexact), "{inexact}");
        }
    }

    #[test]
    fn string_literals_escape_what_the_c_family_needs() {
        assert_eq!(quoted("a\"b\\c\nd\u{1}\u{2028}é"), r#""a\"b\\c\nd\u0001\u2028é""#);
    }

    #[test]
    fn class_names_from_table_names() {
        assert_eq!(pascal_identifier("Telemetry"), "Telemetry");
        assert_eq!(pascal_identifier("my-table.v2"), "MyTableV2");
        assert_eq!(pascal_identifier("1st"), "Table1st");
    }
}
