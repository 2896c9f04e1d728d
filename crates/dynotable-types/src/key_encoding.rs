//! Order-preserving byte encoding of key values.
//!
//! Rule B.9 (docs/dynamodb-rules.md): items are ordered by sort key — strings by the bytes of their
//! UTF-8 encoding, binaries byte-wise unsigned, numbers numerically. The encodings below make
//! that order a plain `memcmp` (SQLite's BLOB order): for two values `a`, `b` of the same type,
//! `encode(a).cmp(&encode(b)) == a.cmp(b)` in DynamoDB's order, and equal values (`1E2`, `100`)
//! encode identically.
//!
//! Every encoding is **self-delimiting** (no encoding is a prefix of another), so a primary key
//! is simply `encode(partition) ++ encode(sort)`, ordered first by partition key then by sort
//! key, and decodable left to right. All items of one item collection share the prefix
//! `encode(partition)`, and no other partition's keys start with it.
//!
//! The same holds for the multi-attribute keys of a global secondary index (rule B.18): a key
//! made of several attributes is the concatenation of their encodings in key-schema order
//! ([`encode_key_tuple`]), ordered attribute by attribute, each by its type's order, because no
//! encoding is a prefix of another (the first byte that differs lies inside the first attribute
//! that differs).
//!
//! # Strings and binaries
//!
//! The bytes (UTF-8 for S), with each `0x00` written as `0x00 0xFF`, then the terminator
//! `0x00 0x00`. After a `0x00`, the terminator's `0x00` sorts below both an escaped zero
//! (`0xFF`) and any ordinary next byte, so a value sorts before every longer value it prefixes,
//! whatever follows the terminator (e.g. a sort key). The escaped bytes without the terminator
//! ([`encode_prefix_into`]) are a byte prefix of exactly the encodings of values that start with
//! that prefix: `begins_with(sk, :p)` is a range scan.
//!
//! # Numbers
//!
//! A tag byte — `0x01` negative, `0x02` zero, `0x03` positive — and for non-zero numbers:
//! - one exponent byte: the scientific exponent (−130..=125) plus 130, so 0..=255;
//! - the significant digits in pairs from the most significant (`0.d1d2 d3d4 …`, the last pair
//!   padded with a 0), each pair `X` (0..=99) written as `2X + 1`, except the last, written `2X`.
//!   The parity marks the end; a value ending earlier sorts first, as it should, since the
//!   longer one has more non-zero digits after the common pairs.
//!
//! For a negative number, the exponent byte and the pair bytes are complemented (`!b`): the
//! magnitude encodings are prefix-free, so complementing reverses their order. At most 21 bytes.

use crate::key::{KeyRef, KeyValue, ScalarAttributeType};
use crate::number::{MIN_SCIENTIFIC_EXPONENT, Number};

const NEGATIVE: u8 = 0x01;
const ZERO: u8 = 0x02;
const POSITIVE: u8 = 0x03;
const ESCAPE: u8 = 0x00;
const ESCAPED_ZERO: u8 = 0xFF;
const TERMINATOR: [u8; 2] = [0x00, 0x00];

impl KeyRef<'_> {
    /// Appends this value's order-preserving, self-delimiting encoding to `out`.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        match self {
            KeyRef::S(s) => encode_bytes(s.as_bytes(), out),
            KeyRef::N(n) => encode_number(n, out),
            KeyRef::B(b) => encode_bytes(b, out),
        }
    }

    /// This value's encoding.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode_into(&mut out);
        out
    }
}

impl KeyValue {
    /// Appends this value's order-preserving, self-delimiting encoding to `out`.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        self.as_key_ref().encode_into(out);
    }

    /// This value's encoding.
    pub fn encode(&self) -> Vec<u8> {
        self.as_key_ref().encode()
    }

    /// Decodes one value of type `ty` from the front of `bytes`; returns it and the bytes after
    /// it. `None` if the bytes are not a canonical encoding of such a value (corrupt storage).
    pub fn decode(ty: ScalarAttributeType, bytes: &[u8]) -> Option<(KeyValue, &[u8])> {
        match ty {
            ScalarAttributeType::S => {
                let (raw, rest) = decode_bytes(bytes)?;
                Some((KeyValue::S(String::from_utf8(raw).ok()?), rest))
            }
            ScalarAttributeType::N => decode_number(bytes).map(|(n, rest)| (KeyValue::N(n), rest)),
            ScalarAttributeType::B => decode_bytes(bytes).map(|(raw, rest)| (KeyValue::B(raw), rest)),
        }
    }
}

/// The storage key of an item: `encode(partition) ++ encode(sort)`. Ordered by partition key,
/// then by sort key, in DynamoDB order.
pub fn encode_primary_key(partition: KeyRef<'_>, sort: Option<KeyRef<'_>>) -> Vec<u8> {
    let mut out = Vec::new();
    partition.encode_into(&mut out);
    if let Some(sort) = sort {
        sort.encode_into(&mut out);
    }
    out
}

/// The encoding of a key made of several attributes (a multi-attribute GSI partition or sort
/// key, rule B.18): each value's encoding, in key-schema order. Ordered as the tuple, attribute
/// by attribute; the encoding of a leading part of the values is a byte prefix of exactly the
/// keys that start with those values.
pub fn encode_key_tuple<'a>(values: impl IntoIterator<Item = KeyRef<'a>>) -> Vec<u8> {
    let mut out = Vec::new();
    for value in values {
        value.encode_into(&mut out);
    }
    out
}

/// Decodes a key made by [`encode_key_tuple`] for attributes of types `types`; `None` unless
/// `bytes` is exactly one value of each type, in order.
pub fn decode_key_tuple(types: &[ScalarAttributeType], bytes: &[u8]) -> Option<Vec<KeyValue>> {
    let mut rest = bytes;
    let mut values = Vec::with_capacity(types.len());
    for &ty in types {
        let (value, after) = KeyValue::decode(ty, rest)?;
        values.push(value);
        rest = after;
    }
    rest.is_empty().then_some(values)
}

/// Decodes a storage key made by [`encode_primary_key`]; `None` unless `bytes` is exactly one
/// partition key value followed by one sort key value (when the table has a sort key).
pub fn decode_primary_key(
    partition: ScalarAttributeType,
    sort: Option<ScalarAttributeType>,
    bytes: &[u8],
) -> Option<(KeyValue, Option<KeyValue>)> {
    let (partition_value, rest) = KeyValue::decode(partition, bytes)?;
    let (sort_value, rest) = match sort {
        Some(ty) => {
            let (value, rest) = KeyValue::decode(ty, rest)?;
            (Some(value), rest)
        }
        None => (None, rest),
    };
    rest.is_empty().then_some((partition_value, sort_value))
}

/// Appends the escaped form of a string's or binary's leading bytes, without the terminator:
/// the encodings of the values that begin with `prefix` are exactly the byte strings that begin
/// with this (for `begins_with` key conditions).
pub fn encode_prefix_into(prefix: &[u8], out: &mut Vec<u8>) {
    out.reserve(prefix.len() + 2);
    for &byte in prefix {
        if byte == ESCAPE {
            out.extend_from_slice(&[ESCAPE, ESCAPED_ZERO]);
        } else {
            out.push(byte);
        }
    }
}

/// The smallest byte string greater than every byte string that starts with `prefix`, for
/// half-open range scans (`key >= prefix AND key < successor`). `None` if there is none (the
/// prefix is empty or all `0xFF`): the scan is then unbounded above.
pub fn prefix_successor(prefix: &[u8]) -> Option<Vec<u8>> {
    let last = prefix.iter().rposition(|&byte| byte != 0xFF)?;
    let mut successor = prefix[..=last].to_vec();
    successor[last] += 1;
    Some(successor)
}

fn encode_bytes(bytes: &[u8], out: &mut Vec<u8>) {
    encode_prefix_into(bytes, out);
    out.extend_from_slice(&TERMINATOR);
}

fn decode_bytes(bytes: &[u8]) -> Option<(Vec<u8>, &[u8])> {
    let mut raw = Vec::new();
    let mut i = 0;
    loop {
        match *bytes.get(i)? {
            ESCAPE => match *bytes.get(i + 1)? {
                0x00 => return Some((raw, &bytes[i + 2..])),
                ESCAPED_ZERO => raw.push(0x00),
                _ => return None,
            },
            byte => {
                raw.push(byte);
                i += 1;
                continue;
            }
        }
        i += 2;
    }
}

fn encode_number(number: &Number, out: &mut Vec<u8>) {
    let Some(scientific) = number.scientific_exponent() else {
        out.push(ZERO);
        return;
    };
    // Pad the coefficient to an even number of digits, then split it into base-100 digits.
    let mut coefficient = number.coefficient();
    let mut digits = number.significant_digits();
    if !digits.is_multiple_of(2) {
        coefficient *= 10;
        digits += 1;
    }
    let pair_count = (digits / 2) as usize;
    let mut pairs = [0u8; 19];
    for slot in pairs[..pair_count].iter_mut().rev() {
        *slot = (coefficient % 100) as u8;
        coefficient /= 100;
    }
    // `scientific` is in -130..=125 for every Number, so this is 0..=255.
    let exponent_byte = (scientific - MIN_SCIENTIFIC_EXPONENT) as u8;
    let flip = if number.is_negative() { 0xFF } else { 0x00 };
    out.reserve(2 + pair_count);
    out.push(if number.is_negative() { NEGATIVE } else { POSITIVE });
    out.push(exponent_byte ^ flip);
    for (i, &pair) in pairs[..pair_count].iter().enumerate() {
        let byte = if i + 1 == pair_count {
            2 * pair
        } else {
            2 * pair + 1
        };
        out.push(byte ^ flip);
    }
}

fn decode_number(bytes: &[u8]) -> Option<(Number, &[u8])> {
    let negative = match *bytes.first()? {
        ZERO => return Some((Number::ZERO, &bytes[1..])),
        NEGATIVE => true,
        POSITIVE => false,
        _ => return None,
    };
    let flip = if negative { 0xFF } else { 0x00 };
    let scientific = i32::from(*bytes.get(1)? ^ flip) + MIN_SCIENTIFIC_EXPONENT;
    let mut coefficient: u128 = 0;
    let mut pair_count: i32 = 0;
    let mut end = 2;
    loop {
        let byte = *bytes.get(end)? ^ flip;
        end += 1;
        let pair = byte / 2;
        if pair > 99 || pair_count == 19 {
            return None;
        }
        coefficient = coefficient * 100 + u128::from(pair);
        pair_count += 1;
        if byte.is_multiple_of(2) {
            break;
        }
    }
    let number = Number::from_parts(negative, coefficient, scientific + 1 - 2 * pair_count).ok()?;
    // Accept only the canonical encoding, so that decode is the exact inverse of encode.
    let mut canonical = Vec::with_capacity(end);
    encode_number(&number, &mut canonical);
    (canonical == bytes[..end]).then_some((number, &bytes[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> Number {
        Number::parse(text).expect("number")
    }

    fn enc_n(text: &str) -> Vec<u8> {
        KeyRef::N(&n(text)).encode()
    }

    #[test]
    fn lays_out_numbers_as_documented() {
        assert_eq!(enc_n("0"), [ZERO]);
        // 1 = 0.1 × 10^1: scientific exponent 0 → 130; digits "10" → pair 10, last → 20.
        assert_eq!(enc_n("1"), [POSITIVE, 130, 20]);
        // 123.45 = 0.12345 × 10^3: pairs 12, 34, 50.
        assert_eq!(enc_n("123.45"), [POSITIVE, 132, 25, 69, 100]);
        assert_eq!(enc_n("-1"), [NEGATIVE, !130, !20]);
        assert_eq!(enc_n("1E-130"), [POSITIVE, 0, 20]);
        assert_eq!(enc_n("9.9999999999999999999999999999999999999E125").len(), 21);
    }

    #[test]
    fn lays_out_strings_and_binaries_as_documented() {
        assert_eq!(KeyRef::S("ab").encode(), [b'a', b'b', 0, 0]);
        assert_eq!(KeyRef::B(&[0, 0xFF, 1]).encode(), [0, 0xFF, 0xFF, 1, 0, 0]);
        let mut prefix = Vec::new();
        encode_prefix_into(b"a\0", &mut prefix);
        assert_eq!(prefix, [b'a', 0, 0xFF]);
        assert!(KeyRef::S("a\0b").encode().starts_with(&prefix));
        assert!(!KeyRef::S("a").encode().starts_with(&prefix));
    }

    #[test]
    fn sorts_the_ordering_examples_of_rule_b9() {
        // "a" (0x61) > "A" (0x41); "¿" (0xC2BF) > "z" (0x7A) — UTF-8 bytes, not UTF-16 units.
        assert!(KeyRef::S("a").encode() > KeyRef::S("A").encode());
        assert!(KeyRef::S("¿").encode() > KeyRef::S("z").encode());
        assert!(KeyRef::S("\u{FFFF}").encode() < KeyRef::S("\u{10000}").encode());
        assert!(KeyRef::B(&[0x80]).encode() > KeyRef::B(&[0x7F]).encode());
        assert!(enc_n("-10") < enc_n("-9.5") && enc_n("-9.5") < enc_n("0") && enc_n("0") < enc_n("0.001"));
        assert!(enc_n("10") > enc_n("9") && enc_n("1.5") > enc_n("1") && enc_n("1.05") < enc_n("1.5"));
        assert_eq!(enc_n("1E2"), enc_n("100"));
    }

    #[test]
    fn decodes_composite_keys() {
        let pk = KeyValue::S("VEH#V-7741".to_owned());
        let sk = KeyValue::N(n("-12.5"));
        let bytes = encode_primary_key(pk.as_key_ref(), Some(sk.as_key_ref()));
        assert_eq!(
            decode_primary_key(ScalarAttributeType::S, Some(ScalarAttributeType::N), &bytes),
            Some((pk.clone(), Some(sk)))
        );
        // A simple key, and a trailing byte or a missing sort key refused.
        let simple = encode_primary_key(pk.as_key_ref(), None);
        assert_eq!(
            decode_primary_key(ScalarAttributeType::S, None, &simple),
            Some((pk, None))
        );
        assert_eq!(decode_primary_key(ScalarAttributeType::S, None, &bytes), None);
        assert_eq!(
            decode_primary_key(ScalarAttributeType::S, Some(ScalarAttributeType::N), &simple),
            None
        );
    }

    #[test]
    fn refuses_what_encode_never_writes() {
        let bad: [&[u8]; 10] = [
            &[],
            &[0x04],
            &[POSITIVE],
            &[POSITIVE, 130],
            &[POSITIVE, 130, 21],    // no terminating (even) pair byte
            &[POSITIVE, 130, 2],     // leading pair 01: not normalised
            &[POSITIVE, 130, 200],   // pair 100
            &[POSITIVE, 130, 21, 0], // trailing zero pair
            &[b'a', 0x00, 0x01],     // bad escape
            &[b'a', 0x00],           // truncated terminator
        ];
        for bytes in bad {
            assert_eq!(KeyValue::decode(ScalarAttributeType::N, bytes), None, "{bytes:?}");
            assert_eq!(
                KeyValue::decode(ScalarAttributeType::B, bytes).filter(|(_, r)| r.is_empty()),
                None
            );
        }
        assert_eq!(
            KeyValue::decode(ScalarAttributeType::S, &[0xC3, 0x28, 0, 0]),
            None
        ); // not UTF-8
        let long = [&[POSITIVE, 130][..], &[21u8; 19][..], &[20]].concat(); // 20 pairs
        assert_eq!(KeyValue::decode(ScalarAttributeType::N, &long), None);
    }

    #[test]
    fn finds_prefix_successors() {
        assert_eq!(prefix_successor(b"ab"), Some(b"ac".to_vec()));
        assert_eq!(prefix_successor(&[1, 0xFF, 0xFF]), Some(vec![2]));
        assert_eq!(prefix_successor(&[0xFF]), None);
        assert_eq!(prefix_successor(&[]), None);
        let collection = KeyRef::S("VEH#1").encode();
        let upper = prefix_successor(&collection).expect("bounded");
        let inside = encode_primary_key(KeyRef::S("VEH#1"), Some(KeyRef::B(&[0xFF; 4])));
        let next = encode_primary_key(KeyRef::S("VEH#1\0"), Some(KeyRef::B(&[])));
        assert!(collection <= inside && inside < upper && next >= upper);
    }
}
