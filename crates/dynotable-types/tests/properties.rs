//! Property tests of the crate's central promises, each against an oracle that does not use the
//! code under test:
//!
//! (a) key encodings sort exactly as DynamoDB orders values (rule B.9), alone and as pk ++ sk;
//! (b) every spelling of a number parses to the same `Number` and the same key bytes;
//! (c) key encodings decode back to the value;
//! (d) `Number` text round-trips, and its canonical text is DynamoDB's plain notation;
//! (e) AttributeValues round-trip through DynamoDB JSON;
//! plus exact addition and the rule B.1 number size.

use std::cmp::Ordering;

use dynotable_types::{
    AttributeValue, Checked, KeyRef, KeyValue, Number, ScalarAttributeType, Set, decode_key_tuple,
    decode_primary_key, encode_key_tuple, encode_prefix_into, encode_primary_key, prefix_successor,
};
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;

// ---- An independent model of a decimal -----------------------------------------------------

/// `±0.d1d2…dn × 10^(sci+1)`, i.e. `d1.d2…dn × 10^sci`; `digits` has no leading or trailing
/// zero. `None` digits is zero.
#[derive(Debug, Clone)]
struct Decimal {
    negative: bool,
    digits: Option<String>,
    sci: i32,
}

impl Decimal {
    fn sign(&self) -> &'static str {
        if self.negative && self.digits.is_some() {
            "-"
        } else {
            ""
        }
    }

    /// The canonical plain notation, built by string manipulation only.
    fn plain(&self) -> String {
        let Some(digits) = &self.digits else {
            return "0".to_owned();
        };
        let len = digits.len() as i32;
        let body = if self.sci >= len - 1 {
            format!("{digits}{}", "0".repeat((self.sci - (len - 1)) as usize))
        } else if self.sci >= 0 {
            let (whole, fraction) = digits.split_at(self.sci as usize + 1);
            format!("{whole}.{fraction}")
        } else {
            format!("0.{}{digits}", "0".repeat((-self.sci - 1) as usize))
        };
        format!("{}{body}", self.sign())
    }

    /// Many spellings of the same value.
    fn spellings(&self) -> Vec<String> {
        let plain = self.plain();
        let Some(digits) = &self.digits else {
            return ["0", "-0", "+0", "0.000", "-0E5", "00.0e-7", ".0", "0."]
                .map(str::to_owned)
                .to_vec();
        };
        let sign = self.sign();
        let len = digits.len() as i32;
        let (first, rest) = digits.split_at(1);
        let unsigned = plain.trim_start_matches('-');
        let mut spellings = vec![
            plain.clone(),
            format!("{sign}00{unsigned}"),
            if unsigned.contains('.') {
                format!("{plain}000")
            } else {
                format!("{plain}.000")
            },
            format!("{sign}{first}.{rest}E{}", self.sci),
            format!("{sign}{first}.{rest}0e{:+}", self.sci),
            format!("{sign}0.{digits}E{}", self.sci + 1),
            format!("{sign}.{digits}e{}", self.sci + 1),
            format!("{sign}{digits}E{}", self.sci - (len - 1)),
            format!("{sign}{digits}000E{}", self.sci - (len - 1) - 3),
            format!("{sign}000{digits}.000E{}", self.sci - (len - 1)),
        ];
        if !self.negative {
            spellings.push(format!("+{plain}"));
            spellings.push(format!("+{first}.{rest}E{}", self.sci));
        }
        spellings
    }

    fn number(&self) -> Number {
        Number::parse(&self.plain()).expect("generated decimals are in range")
    }
}

/// Numeric order computed on the model: sign, then exponent, then zero-padded digit strings.
fn oracle_cmp(a: &Decimal, b: &Decimal) -> Ordering {
    let class = |d: &Decimal| match (&d.digits, d.negative) {
        (None, _) => 0,
        (Some(_), true) => -1,
        (Some(_), false) => 1,
    };
    let (ca, cb) = (class(a), class(b));
    if ca != cb || ca == 0 {
        return ca.cmp(&cb);
    }
    let (da, db) = (
        a.digits.as_deref().unwrap_or(""),
        b.digits.as_deref().unwrap_or(""),
    );
    let width = da.len().max(db.len());
    let magnitude = a
        .sci
        .cmp(&b.sci)
        .then_with(|| format!("{da:0<width$}").cmp(&format!("{db:0<width$}")));
    if ca < 0 { magnitude.reverse() } else { magnitude }
}

fn decimal_from(negative: bool, digits: String, sci: i32) -> Decimal {
    let trimmed = digits.trim_end_matches('0').to_owned();
    Decimal {
        negative,
        digits: Some(trimmed),
        sci,
    }
}

/// Decimals over the whole range, and clustered ones that often tie or nearly tie.
fn decimal() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        1 => Just(Decimal { negative: false, digits: None, sci: 0 }),
        4 => (any::<bool>(), "[1-9][0-9]{0,37}", -130..=125i32).prop_map(|(n, d, s)| decimal_from(n, d, s)),
        4 => (any::<bool>(), "[1-2][0-2]{0,3}", -2..=2i32).prop_map(|(n, d, s)| decimal_from(n, d, s)),
        1 => (any::<bool>(), "9{36,38}", prop_oneof![Just(-130), Just(125)]).prop_map(|(n, d, s)| decimal_from(n, d, s)),
    ]
}

// ---- Key values and the DynamoDB order -------------------------------------------------------

/// Strings from a small alphabet (shared prefixes, NULs, multi-byte), or any strings.
fn key_string() -> impl Strategy<Value = String> {
    prop_oneof![
        vec(
            prop_oneof![
                Just('\0'),
                Just('a'),
                Just('b'),
                Just('\u{7f}'),
                Just('é'),
                Just('\u{10FFFF}')
            ],
            0..6
        )
        .prop_map(|chars| chars.into_iter().collect()),
        any::<String>(),
    ]
}

/// Binaries from the bytes that stress the escaping, or any bytes.
fn key_binary() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        vec(
            prop_oneof![Just(0x00u8), Just(0x01), Just(0xFE), Just(0xFF)],
            0..6
        ),
        vec(any::<u8>(), 0..12)
    ]
}

/// A key value with its model, so the order can be computed without the crate.
#[derive(Debug, Clone)]
enum Model {
    S(String),
    N(Decimal),
    B(Vec<u8>),
}

impl Model {
    fn key(&self) -> KeyValue {
        match self {
            Model::S(s) => KeyValue::S(s.clone()),
            Model::N(d) => KeyValue::N(d.number()),
            Model::B(b) => KeyValue::B(b.clone()),
        }
    }

    /// Rule B.9: UTF-8 bytes, unsigned bytes, numeric value.
    fn cmp(&self, other: &Model) -> Ordering {
        match (self, other) {
            (Model::S(a), Model::S(b)) => a.as_bytes().cmp(b.as_bytes()),
            (Model::B(a), Model::B(b)) => a.cmp(b),
            (Model::N(a), Model::N(b)) => oracle_cmp(a, b),
            _ => unreachable!("values of one key attribute share a type"),
        }
    }
}

fn model_of(ty: ScalarAttributeType) -> BoxedStrategy<Model> {
    match ty {
        ScalarAttributeType::S => key_string().prop_map(Model::S).boxed(),
        ScalarAttributeType::N => decimal().prop_map(Model::N).boxed(),
        ScalarAttributeType::B => key_binary().prop_map(Model::B).boxed(),
    }
}

fn scalar_type() -> impl Strategy<Value = ScalarAttributeType> {
    prop_oneof![
        Just(ScalarAttributeType::S),
        Just(ScalarAttributeType::N),
        Just(ScalarAttributeType::B)
    ]
}

/// Two (pk, sk) pairs for one table, whose key types are drawn too.
fn two_keys() -> impl Strategy<
    Value = (
        ScalarAttributeType,
        ScalarAttributeType,
        (Model, Model),
        (Model, Model),
    ),
> {
    (scalar_type(), scalar_type()).prop_flat_map(|(pt, st)| {
        (
            Just(pt),
            Just(st),
            (model_of(pt), model_of(st)),
            (model_of(pt), model_of(st)),
        )
    })
}

/// The attribute types of a multi-attribute key (1 to 4 attributes, rule B.18) and two keys of
/// those types. The second key often shares a leading part with the first, so equal leading
/// attributes are exercised, not only the first attribute's order.
fn two_tuples() -> impl Strategy<Value = (Vec<ScalarAttributeType>, Vec<Model>, Vec<Model>)> {
    vec(scalar_type(), 1..=4).prop_flat_map(|types| {
        let models: Vec<BoxedStrategy<Model>> = types.iter().map(|&ty| model_of(ty)).collect();
        let n = types.len();
        (Just(types), models.clone(), models, 0..=n).prop_map(|(types, a, b, shared)| {
            let b: Vec<Model> = a[..shared]
                .iter()
                .cloned()
                .chain(b[shared..].iter().cloned())
                .collect();
            (types, a, b)
        })
    })
}

/// Rule B.18.3: tuples compare attribute by attribute, each by its type's order.
fn tuple_cmp(a: &[Model], b: &[Model]) -> Ordering {
    a.iter()
        .zip(b)
        .map(|(x, y)| x.cmp(y))
        .find(|o| *o != Ordering::Equal)
        .unwrap_or(Ordering::Equal)
}

fn encode_models(models: &[Model]) -> Vec<u8> {
    let keys: Vec<KeyValue> = models.iter().map(Model::key).collect();
    encode_key_tuple(keys.iter().map(KeyValue::as_key_ref))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    // (a) multi-attribute keys (rule B.18): the byte order of the encoding is the tuple order.
    #[test]
    fn key_tuples_encode_in_tuple_order((_, a, b) in two_tuples()) {
        prop_assert_eq!(encode_models(&a).cmp(&encode_models(&b)), tuple_cmp(&a, &b));
    }

    // The encoding of the first k values bounds exactly the keys that start with them: a Query
    // holding leading sort attributes equal is the byte range [prefix, successor(prefix)).
    #[test]
    fn key_tuple_prefixes_select_exactly_the_keys_that_start_with_them((_, a, b) in two_tuples(), k in 0usize..=4) {
        let k = k.min(a.len());
        let prefix = encode_models(&a[..k]);
        let key = encode_models(&b);
        let expected = tuple_cmp(&a[..k], &b[..k]) == Ordering::Equal;
        prop_assert_eq!(key.starts_with(&prefix), expected);
        let below_successor = prefix_successor(&prefix).is_none_or(|s| key < s);
        prop_assert_eq!(key >= prefix && below_successor, expected);
    }

    #[test]
    fn key_tuples_decode_to_what_was_encoded((types, a, _) in two_tuples()) {
        let keys: Vec<KeyValue> = a.iter().map(Model::key).collect();
        prop_assert_eq!(decode_key_tuple(&types, &encode_models(&a)), Some(keys));
    }

    // (a) one key attribute: Number::cmp and the bytes both agree with the model.
    #[test]
    fn numbers_order_and_encode_in_numeric_order(a in decimal(), b in decimal()) {
        let expected = oracle_cmp(&a, &b);
        let (na, nb) = (a.number(), b.number());
        prop_assert_eq!(na.cmp(&nb), expected);
        prop_assert_eq!(na == nb, expected == Ordering::Equal);
        prop_assert_eq!(KeyRef::N(&na).encode().cmp(&KeyRef::N(&nb).encode()), expected);
    }

    #[test]
    fn strings_encode_in_utf8_byte_order(a in key_string(), b in key_string()) {
        let (ea, eb) = (KeyRef::S(&a).encode(), KeyRef::S(&b).encode());
        prop_assert_eq!(ea.cmp(&eb), a.as_bytes().cmp(b.as_bytes()));
    }

    #[test]
    fn binaries_encode_in_unsigned_byte_order(a in key_binary(), b in key_binary()) {
        prop_assert_eq!(KeyRef::B(&a).encode().cmp(&KeyRef::B(&b).encode()), a.cmp(&b));
    }

    // (a) composite: pk ++ sk sorts by pk, then sk, for every combination of key types.
    #[test]
    fn composite_keys_order_by_partition_then_sort((_, _, (p1, s1), (p2, s2)) in two_keys()) {
        let expected = p1.cmp(&p2).then_with(|| s1.cmp(&s2));
        let k1 = encode_primary_key(p1.key().as_key_ref(), Some(s1.key().as_key_ref()));
        let k2 = encode_primary_key(p2.key().as_key_ref(), Some(s2.key().as_key_ref()));
        prop_assert_eq!(k1.cmp(&k2), expected);
        // An item collection is a contiguous prefix range.
        let collection = p1.key().encode();
        prop_assert!(k1.starts_with(&collection));
        prop_assert_eq!(k2.starts_with(&collection), p1.cmp(&p2) == Ordering::Equal);
    }

    // begins_with on a string or binary sort key is a byte-prefix test on the encoding.
    #[test]
    fn escaped_prefixes_select_exactly_the_values_they_begin(value in key_binary(), prefix in key_binary()) {
        let mut escaped = Vec::new();
        encode_prefix_into(&prefix, &mut escaped);
        prop_assert_eq!(KeyRef::B(&value).encode().starts_with(&escaped), value.starts_with(&prefix));
    }

    // (b) every spelling is the same number, with the same bytes and the same canonical text.
    #[test]
    fn every_spelling_is_the_same_number(d in decimal()) {
        let expected = d.number();
        let bytes = KeyRef::N(&expected).encode();
        for spelling in d.spellings() {
            let parsed = Number::parse(&spelling);
            prop_assert_eq!(parsed, Ok(expected), "{}", spelling);
            prop_assert_eq!(KeyRef::N(&expected).encode(), bytes.clone());
            prop_assert_eq!(expected.to_string(), d.plain());
        }
    }

    // (c) encode → decode, alone and as a composite key.
    #[test]
    fn keys_decode_to_what_was_encoded((pt, st, (p, s), _) in two_keys()) {
        let (pk, sk) = (p.key(), s.key());
        let mut bytes = pk.encode();
        prop_assert_eq!(KeyValue::decode(pt, &bytes), Some((pk.clone(), &[][..])));
        sk.encode_into(&mut bytes);
        prop_assert_eq!(decode_primary_key(pt, Some(st), &bytes), Some((pk, Some(sk))));
    }

    // Corrupt bytes are refused, never mis-decoded into a value that encodes differently.
    #[test]
    fn decoding_arbitrary_bytes_never_invents_values(ty in scalar_type(), bytes in vec(any::<u8>(), 0..24)) {
        if let Some((value, rest)) = KeyValue::decode(ty, &bytes) {
            let consumed = bytes.len() - rest.len();
            prop_assert_eq!(value.encode(), bytes[..consumed].to_vec());
        }
    }

    // (d) parse → text → parse, and the text is a fixed point.
    #[test]
    fn number_text_round_trips(text in r"[+-]?[0-9]{0,6}(\.[0-9]{0,6})?([eE][+-]?[0-9]{1,3})?") {
        if let Ok(number) = Number::parse(&text) {
            let canonical = number.to_string();
            prop_assert_eq!(Number::parse(&canonical), Ok(number));
            prop_assert_eq!(Number::parse(&canonical).map(|n| n.to_string()), Ok(canonical));
        }
    }

    #[test]
    fn generated_numbers_round_trip(d in decimal()) {
        let number = d.number();
        prop_assert_eq!(Number::parse(&number.to_string()), Ok(number));
    }

    // Exact addition: compared with i128 arithmetic on the same scaled integers.
    #[test]
    fn addition_is_exact(x in any::<i64>(), xs in 0u32..12, y in any::<i64>(), ys in 0u32..12) {
        let a = Number::parse(&format!("{x}E-{xs}")).expect("in range");
        let b = Number::parse(&format!("{y}E-{ys}")).expect("in range");
        let scale = xs.max(ys);
        let exact = i128::from(x) * 10i128.pow(scale - xs) + i128::from(y) * 10i128.pow(scale - ys);
        let expected = Number::parse(&format!("{exact}E-{scale}")).expect("in range");
        prop_assert_eq!(a.checked_add(&b), Ok(expected));
        prop_assert_eq!(expected.checked_sub(&b), Ok(a));
        prop_assert_eq!(a.checked_sub(&a), Ok(Number::ZERO));
    }

    // Addition over the whole range never gives a wrong answer: exact when it succeeds.
    #[test]
    fn addition_is_exact_or_refused(a in decimal(), b in decimal()) {
        let (na, nb) = (a.number(), b.number());
        if let Ok(sum) = na.checked_add(&nb) {
            prop_assert_eq!(sum.checked_sub(&nb), Ok(na));
            prop_assert_eq!(nb.checked_add(&na), Ok(sum));
            prop_assert_eq!(sum.cmp(&na), nb.cmp(&Number::ZERO));
        }
    }

    // The subtraction whose operands start 39 decades apart (the widest that can still fit):
    // exact when it succeeds, checked through the independent same-sign addition path.
    #[test]
    fn subtraction_across_39_decades_is_exact(
        high in "[1-9]|[1-9][0-9]{0,36}[1-9]",
        low in "[1-9]|[1-9][0-9]{0,36}[1-9]",
        exponent in -60..60i32,
        negative in any::<bool>(),
    ) {
        let low_exponent = exponent - (39 - high.len() as i32);
        let a = Number::from_parts(negative, high.parse().expect("digits"), exponent).expect("in range");
        let b = Number::from_parts(!negative, low.parse().expect("digits"), low_exponent).expect("in range");
        match a.checked_add(&b) {
            Ok(sum) => {
                prop_assert_eq!(sum.is_negative(), negative);
                prop_assert_eq!(sum.checked_sub(&b), Ok(a));
            }
            Err(error) => prop_assert_eq!(error, dynotable_types::ValidationError::TooManyDigits),
        }
    }

    // Rule B.1 number size, against the zaccharles calculator's string algorithm.
    #[test]
    fn number_size_matches_the_digit_pair_calculator(d in decimal()) {
        prop_assert_eq!(d.number().size(), calculator_size(&d.plain()));
    }

    // (e) DynamoDB JSON round trip, strict and checked.
    #[test]
    fn attribute_values_round_trip_through_json(value in attribute_value()) {
        let json = serde_json::to_string(&value).expect("serialises");
        prop_assert_eq!(serde_json::from_str::<AttributeValue>(&json).expect("strict"), value.clone());
        let checked = serde_json::from_str::<Checked<AttributeValue>>(&json).expect("well-formed");
        prop_assert_eq!(checked.into_result(), Ok(value));
    }
}

/// zaccharles/dynamodb-calculator's `calculateNumberSizeInBytes`, restated: pad the integer part
/// on the left and the fraction on the right to whole pairs, drop "00" pairs at both ends, count
/// pairs, add 1, add 1 if negative, cap at 21; zero is 1.
fn calculator_size(plain: &str) -> usize {
    if plain == "0" {
        return 1;
    }
    let negative = plain.starts_with('-');
    let unsigned = plain.trim_start_matches('-');
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let whole = if whole == "0" { "" } else { whole };
    let whole = if whole.len() % 2 == 1 {
        format!("0{whole}")
    } else {
        whole.to_owned()
    };
    let fraction = if fraction.len() % 2 == 1 {
        format!("{fraction}0")
    } else {
        fraction.to_owned()
    };
    let joined = format!("{whole}{fraction}");
    let mut pairs: Vec<&str> = (0..joined.len()).step_by(2).map(|i| &joined[i..i + 2]).collect();
    while pairs.first() == Some(&"00") {
        pairs.remove(0);
    }
    while pairs.last() == Some(&"00") {
        pairs.pop();
    }
    (pairs.len() + 1 + usize::from(negative)).min(21)
}

fn attribute_value() -> impl Strategy<Value = AttributeValue> {
    let leaf = prop_oneof![
        any::<String>().prop_map(AttributeValue::S),
        decimal().prop_map(|d| AttributeValue::N(d.number())),
        vec(any::<u8>(), 0..12).prop_map(AttributeValue::B),
        any::<bool>().prop_map(AttributeValue::BOOL),
        Just(AttributeValue::NULL),
        vec(any::<String>(), 1..5).prop_map(|v| AttributeValue::SS(set_of(v))),
        vec(decimal(), 1..5)
            .prop_map(|v| AttributeValue::NS(set_of(v.iter().map(Decimal::number).collect()))),
        vec(vec(any::<u8>(), 0..6), 1..5).prop_map(|v| AttributeValue::BS(set_of(v))),
    ];
    leaf.prop_recursive(4, 48, 5, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..5).prop_map(AttributeValue::L),
            btree_map(any::<String>(), inner, 0..5).prop_map(AttributeValue::M),
        ]
    })
}

fn set_of<T: dynotable_types::SetElement>(mut elements: Vec<T>) -> Set<T> {
    elements.sort();
    elements.dedup();
    Set::new(elements).expect("non-empty and deduplicated")
}
