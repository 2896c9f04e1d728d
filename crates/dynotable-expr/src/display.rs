//! How values are written in this crate's messages and printed trees.
//!
//! Messages follow the service: a scalar is its bare text (`{S:a}`, `{N:5}`, `{B:YQ==}` in the
//! BETWEEN messages). Printed trees use a compact, unambiguous notation — `{S:"a"}`, `{N:5}`,
//! `{L:[{S:"a"}]}`, `{M:{"k":{BOOL:true}}}`, `{SS:["a","b"]}` — close to DynamoDB JSON without
//! its quoting noise.

use std::fmt::Write as _;

use base64::Engine as _;
use dynotable_types::AttributeValue;

fn base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The bare text of a scalar for messages: the string, the number, the base64 of the bytes.
/// Other types are written in the tree notation.
pub(crate) fn scalar_text(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(s) => s.clone(),
        AttributeValue::N(n) => n.to_string(),
        AttributeValue::B(b) => base64(b),
        other => value_text(other),
    }
}

/// A value in the compact tree notation.
pub fn value_text(value: &AttributeValue) -> String {
    let mut out = String::new();
    write_value(&mut out, value);
    out
}

fn write_list<T>(
    out: &mut String,
    items: impl IntoIterator<Item = T>,
    mut write: impl FnMut(&mut String, T),
) {
    out.push('[');
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write(out, item);
    }
    out.push(']');
}

fn write_value(out: &mut String, value: &AttributeValue) {
    let _ = write!(out, "{{{}:", value.attribute_type());
    match value {
        AttributeValue::S(s) => {
            let _ = write!(out, "{s:?}");
        }
        AttributeValue::N(n) => {
            let _ = write!(out, "{n}");
        }
        AttributeValue::B(b) => out.push_str(&base64(b)),
        AttributeValue::BOOL(b) => {
            let _ = write!(out, "{b}");
        }
        AttributeValue::NULL => out.push_str("true"),
        AttributeValue::L(list) => write_list(out, list, write_value),
        AttributeValue::M(map) => {
            out.push('{');
            for (i, (key, value)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{key:?}:");
                write_value(out, value);
            }
            out.push('}');
        }
        AttributeValue::SS(set) => write_list(out, set, |out, s| {
            let _ = write!(out, "{s:?}");
        }),
        AttributeValue::NS(set) => write_list(out, set, |out, n| {
            let _ = write!(out, "{n}");
        }),
        AttributeValue::BS(set) => write_list(out, set, |out, b| out.push_str(&base64(b))),
    }
    out.push('}');
}
