//! The expression parsers and resolvers (`dynotable-expr`): condition, filter, key condition,
//! update and projection, each parsed, resolved against one fixed set of placeholders and used
//! (evaluated, applied, matched) on a fixed item.
//!
//! Nothing may panic, whatever the text. Properties checked on the way:
//! - a tree that parses prints back to text that parses to the same tree, for every grammar;
//! - `NOT (c)` evaluates to the negation of `c`, when both resolve;
//! - a key condition matches exactly the items the same text, as a condition, accepts.

#![no_main]

use std::collections::BTreeMap;

use dynotable_expr::ast::Dump;
use dynotable_expr::parser::{MAX_EXPRESSION_BYTES, parse_condition, parse_projection, parse_update};
use dynotable_expr::{ExpressionKind, KeyElement, KeySchema, Placeholders, lexer};
use dynotable_types::{AttributeValue, Item, Number, ScalarAttributeType, Set};
use libfuzzer_sys::fuzz_target;

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(Number::parse(text).expect("a valid number"))
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

/// `#a`..`#e` and `:s`, `:n`, `:b`, `:l`, `:m`, `:ss`, `:ns`, `:bs`, `:t`, `:z`, `:big`, `:e`
/// (the seed corpus uses these).
fn placeholders() -> Placeholders {
    let names = BTreeMap::from([
        ("#a".to_string(), "a".to_string()),
        ("#b".to_string(), "b".to_string()),
        ("#c".to_string(), "size".to_string()),
        ("#d".to_string(), "m.x".to_string()),
        ("#e".to_string(), "pk".to_string()),
    ]);
    let values = BTreeMap::from([
        (":s".to_string(), s("v")),
        (":e".to_string(), s("")),
        (":n".to_string(), n("3")),
        (
            ":big".to_string(),
            n("9.9999999999999999999999999999999999999E+125"),
        ),
        (":z".to_string(), n("-1E-130")),
        (":b".to_string(), AttributeValue::B(vec![0, 1, 2])),
        (":t".to_string(), AttributeValue::BOOL(true)),
        (
            ":l".to_string(),
            AttributeValue::L(vec![n("1"), AttributeValue::NULL]),
        ),
        (
            ":m".to_string(),
            AttributeValue::M(BTreeMap::from([("x".to_string(), s("y"))])),
        ),
        (
            ":ss".to_string(),
            AttributeValue::SS(Set::new(vec!["a".into(), "b".into()]).expect("a set")),
        ),
        (
            ":ns".to_string(),
            AttributeValue::NS(Set::new(vec![Number::from(1), Number::from(2)]).expect("a set")),
        ),
        (":bs".to_string(), AttributeValue::BS(Set::single(vec![1u8]))),
    ]);
    Placeholders::new(Some(names), Some(values)).expect("valid maps")
}

fn items() -> Vec<Item> {
    let mut full = Item::new();
    full.insert("pk".into(), s("k"));
    full.insert("sk".into(), n("5"));
    full.insert("a".into(), n("3"));
    full.insert("b".into(), s("v"));
    full.insert(
        "size".into(),
        AttributeValue::L(vec![n("1"), AttributeValue::NULL, s("x")]),
    );
    full.insert(
        "m".into(),
        AttributeValue::M(BTreeMap::from([
            ("x".to_string(), s("y")),
            (
                "l".to_string(),
                AttributeValue::L(vec![AttributeValue::BOOL(false)]),
            ),
        ])),
    );
    full.insert("m.x".into(), AttributeValue::SS(Set::single("a".into())));
    let mut key_only = Item::new();
    key_only.insert("pk".into(), s("v"));
    key_only.insert("sk".into(), n("-2.5"));
    vec![full, key_only]
}

const SCHEMA: KeySchema<'static> = KeySchema {
    partition: KeyElement {
        name: "pk",
        scalar_type: ScalarAttributeType::S,
    },
    sort: Some(KeyElement {
        name: "sk",
        scalar_type: ScalarAttributeType::N,
    }),
    more_partition: &[],
    more_sort: &[],
};

/// Printing normalises spacing, so a text near the 4 KB limit may print longer than the limit:
/// such a print is not parsed again.
fn fits(printed: &str) -> bool {
    printed.len() <= MAX_EXPRESSION_BYTES
}

fn round_trips(source: &str) {
    for kind in [
        ExpressionKind::Condition,
        ExpressionKind::Filter,
        ExpressionKind::KeyCondition,
    ] {
        if let Ok(tree) = parse_condition(kind, source) {
            let printed = tree.to_string();
            if !fits(&printed) {
                continue;
            }
            let reparsed = parse_condition(kind, &printed).unwrap_or_else(|err| {
                panic!("{source:?} printed as {printed:?}, which does not parse: {err:?}")
            });
            assert_eq!(
                reparsed.dump(false),
                tree.dump(false),
                "{source:?} printed as {printed:?}"
            );
        }
    }
    if let Ok(tree) = parse_update(source)
        && let printed = tree.to_string()
        && fits(&printed)
    {
        let reparsed = parse_update(&printed)
            .unwrap_or_else(|err| panic!("{source:?} printed as {printed:?}, which does not parse: {err:?}"));
        assert_eq!(
            reparsed.dump(false),
            tree.dump(false),
            "{source:?} printed as {printed:?}"
        );
    }
    if let Ok(tree) = parse_projection(source)
        && let printed = tree.to_string()
        && fits(&printed)
    {
        let reparsed = parse_projection(&printed)
            .unwrap_or_else(|err| panic!("{source:?} printed as {printed:?}, which does not parse: {err:?}"));
        assert_eq!(
            reparsed.dump(false),
            tree.dump(false),
            "{source:?} printed as {printed:?}"
        );
    }
}

fn resolve_and_use(source: &str) {
    let items = items();
    let mut p = placeholders();
    let condition = p.condition(ExpressionKind::Condition, source).ok();
    if let Some(condition) = &condition {
        let negated = format!("NOT ({source})");
        let negation = p.condition(ExpressionKind::Condition, &negated).ok();
        for item in items.iter().map(Some).chain([None]) {
            let value = condition.evaluate(item);
            if let Some(negation) = &negation {
                assert_eq!(negation.evaluate(item), !value, "{negated:?} on {item:?}");
            }
        }
    }
    if let Ok(filter) = p.condition(ExpressionKind::Filter, source) {
        let _ = filter.evaluate(items.first());
    }
    if let Ok(key) = p.key_condition(source, &SCHEMA)
        && let Some(condition) = &condition
    {
        for item in &items {
            assert_eq!(
                key.matches(item),
                condition.evaluate(Some(item)),
                "{source:?} as a key condition and as a condition on {item:?}"
            );
        }
    }
    if let Ok(update) = p.update(source) {
        let _ = update.check_key_attributes(&["pk", "sk"]);
        let key: Item = items[1].clone();
        for item in &items {
            let _ = update.apply(Some(item), &key);
        }
        let _ = update.apply(None, &key);
    }
    if let Ok(projection) = p.projection(source) {
        for item in &items {
            let _ = projection.apply(item);
        }
    }
    let _ = p.check_unused();
}

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let _ = lexer::tokenize(source);
    round_trips(source);
    resolve_and_use(source);
});
