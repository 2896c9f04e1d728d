//! The number parser (`dynotable_types::Number::parse`, rules B.7 and B.9).
//!
//! The input is one or two numbers' text, separated by a newline. For each that parses:
//! printing it gives the normalised text, which parses back to the same number and prints the
//! same again; its key encoding decodes back to it, whole. For two: the key encodings order as
//! the numbers do, the nearest doubles never disagree with that order, addition commutes, and
//! `(a + b) - b` is exactly `a` whenever `a + b` exists (nothing is ever rounded).

#![no_main]

use std::cmp::Ordering;

use dynotable_types::{KeyRef, KeyValue, Number, ScalarAttributeType};
use libfuzzer_sys::fuzz_target;

fn check_one(text: &str) -> Option<Number> {
    let number = Number::parse(text).ok()?;
    let printed = number.to_string();
    let reparsed = Number::parse(&printed)
        .unwrap_or_else(|err| panic!("{text:?} printed as {printed:?}, which does not parse: {err:?}"));
    assert_eq!(
        reparsed, number,
        "{text:?} printed as {printed:?} parses to another number"
    );
    assert_eq!(reparsed.to_string(), printed, "{text:?}: printing is not stable");
    let encoded = KeyRef::N(&number).encode();
    let (decoded, rest) = KeyValue::decode(ScalarAttributeType::N, &encoded)
        .unwrap_or_else(|| panic!("{text:?}: its key encoding does not decode"));
    assert!(rest.is_empty(), "{text:?}: its key encoding has bytes left over");
    assert_eq!(
        decoded,
        KeyValue::N(number),
        "{text:?}: its key encoding decodes to another number"
    );
    Some(number)
}

fn check_two(a: &Number, b: &Number) {
    let order = a.cmp(b);
    let encoded = KeyRef::N(a).encode().cmp(&KeyRef::N(b).encode());
    assert_eq!(encoded, order, "{a} vs {b}: key encodings order otherwise");
    let (fa, fb) = (a.to_f64(), b.to_f64());
    match order {
        Ordering::Less => assert!(fa <= fb, "{a} < {b} but as doubles {fa} > {fb}"),
        Ordering::Greater => assert!(fa >= fb, "{a} > {b} but as doubles {fa} < {fb}"),
        Ordering::Equal => assert_eq!(fa, fb),
    }
    let sum = a.checked_add(b);
    assert_eq!(sum, b.checked_add(a), "{a} + {b} does not commute");
    if let Ok(sum) = sum {
        assert_eq!(sum.checked_sub(b), Ok(*a), "({a} + {b}) - {b} is not {a}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (first, second) = match text.split_once('\n') {
        Some((first, second)) => (first, Some(second)),
        None => (text, None),
    };
    let a = check_one(first);
    let b = second.and_then(check_one);
    if let (Some(a), Some(b)) = (a, b) {
        check_two(&a, &b);
    }
});
