//! Property tests: no input makes any stage panic; parsed trees print back to text that parses
//! to the same tree; evaluation and updates agree with the value model.

use std::collections::BTreeMap;

use dynotable_expr::ast::Dump;
use dynotable_expr::parser::{parse_condition, parse_projection, parse_update};
use dynotable_expr::{ExpressionKind, KeyElement, KeySchema, Placeholders, lexer};
use dynotable_types::{AttributeValue, Item, Number, ScalarAttributeType};
use proptest::prelude::*;

/// Pieces expressions are made of, so random sequences reach deep into the grammars.
const VOCABULARY: &[&str] = &[
    "a",
    "b",
    "c",
    "pk",
    "sk",
    "status",
    "size",
    "#n",
    "#m",
    "#undefined",
    ":v",
    ":w",
    ":n",
    ":l",
    ":undefined",
    "=",
    "<>",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "(",
    ")",
    "[",
    "]",
    "[0]",
    "[1]",
    ".",
    ",",
    "AND",
    "OR",
    "NOT",
    "BETWEEN",
    "IN",
    "and",
    "SET",
    "REMOVE",
    "ADD",
    "DELETE",
    "set",
    "attribute_exists",
    "attribute_not_exists",
    "attribute_type",
    "begins_with",
    "contains",
    "if_not_exists",
    "list_append",
    "size",
    "f",
    "#",
    ":",
    "_",
    "!",
    "ü",
    "7",
    " ",
    "  ",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(VOCABULARY), 0..40).prop_map(|parts| parts.join(" "))
}

fn placeholders() -> Placeholders {
    let names = BTreeMap::from([
        ("#n".to_string(), "n".to_string()),
        ("#m".to_string(), "m.x".to_string()),
    ]);
    let values = BTreeMap::from([
        (":v".to_string(), AttributeValue::S("v".into())),
        (":w".to_string(), AttributeValue::S("w".into())),
        (":n".to_string(), AttributeValue::N(Number::from(3))),
        (
            ":l".to_string(),
            AttributeValue::L(vec![AttributeValue::N(Number::from(1))]),
        ),
    ]);
    Placeholders::new(Some(names), Some(values)).expect("valid maps")
}

fn item() -> Item {
    let mut item = Item::new();
    item.insert("a".into(), AttributeValue::N(Number::from(3)));
    item.insert("b".into(), AttributeValue::S("v".into()));
    item.insert(
        "n".into(),
        AttributeValue::L(vec![AttributeValue::N(Number::from(1)), AttributeValue::NULL]),
    );
    item.insert("pk".into(), AttributeValue::S("k".into()));
    item
}

/// Runs every stage on `source`: nothing may panic, whatever comes back.
fn run_everything(source: &str) {
    let _ = lexer::tokenize(source);
    let schema = KeySchema::simple(
        KeyElement {
            name: "pk",
            scalar_type: ScalarAttributeType::S,
        },
        Some(KeyElement {
            name: "sk",
            scalar_type: ScalarAttributeType::N,
        }),
    );
    for kind in [
        ExpressionKind::Condition,
        ExpressionKind::Filter,
        ExpressionKind::KeyCondition,
    ] {
        let _ = parse_condition(kind, source);
    }
    let _ = parse_update(source);
    let _ = parse_projection(source);
    let mut p = placeholders();
    if let Ok(condition) = p.condition(ExpressionKind::Filter, source) {
        let _ = condition.evaluate(Some(&item()));
        let _ = condition.evaluate(None);
    }
    let _ = p.key_condition(source, &schema);
    if let Ok(update) = p.update(source) {
        let _ = update.check_key_attributes(&["pk"]);
        let _ = update.apply(Some(&item()), &Item::new());
        let _ = update.apply(None, &Item::new());
    }
    if let Ok(projection) = p.projection(source) {
        let _ = projection.apply(&item());
    }
    let _ = p.check_unused();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_text_never_panics(source in "\\PC{0,80}") {
        run_everything(&source);
    }

    #[test]
    fn token_soup_never_panics(source in token_soup()) {
        run_everything(&source);
    }

    /// Whatever parses prints back to text that parses to the same tree.
    #[test]
    fn printing_round_trips(source in token_soup()) {
        for kind in [ExpressionKind::Condition, ExpressionKind::KeyCondition] {
            if let Ok(tree) = parse_condition(kind, &source) {
                let reparsed = parse_condition(kind, &tree.to_string()).expect("printed condition parses");
                prop_assert_eq!(reparsed.dump(false), tree.dump(false));
            }
        }
        if let Ok(tree) = parse_update(&source) {
            let reparsed = parse_update(&tree.to_string()).expect("printed update parses");
            prop_assert_eq!(reparsed.dump(false), tree.dump(false));
        }
        if let Ok(tree) = parse_projection(&source) {
            let reparsed = parse_projection(&tree.to_string()).expect("printed projection parses");
            prop_assert_eq!(reparsed.dump(false), tree.dump(false));
        }
    }

    /// Spans point inside the source, at whole characters.
    #[test]
    fn token_spans_cover_the_source(source in "\\PC{0,60}") {
        let tokens = lexer::tokenize(&source);
        let mut end = 0;
        for token in &tokens {
            prop_assert!(token.span.start >= end && token.span.end <= source.len());
            prop_assert!(source.is_char_boundary(token.span.start) && source.is_char_boundary(token.span.end));
            end = token.span.end;
        }
        prop_assert_eq!(tokens.last().map(|t| t.kind), Some(lexer::TokenKind::Eof));
    }
}

/// A random condition in the grammar, as text, built from comparisons and functions joined by
/// AND, OR, NOT and parentheses.
fn condition_text() -> impl Strategy<Value = String> {
    let operand = prop::sample::select(vec!["a", "b", "n[1]", "#n", "#m", ":v", ":n", "size(b)"]);
    let comparator = prop::sample::select(vec!["=", "<>", "<", "<=", ">", ">="]);
    let leaf = prop_oneof![
        (operand.clone(), comparator, operand.clone()).prop_map(|(a, op, b)| format!("{a} {op} {b}")),
        (operand.clone(), operand.clone(), operand.clone())
            .prop_map(|(a, b, c)| format!("{a} BETWEEN {b} AND {c}")),
        (operand.clone(), prop::collection::vec(operand, 1..4))
            .prop_map(|(a, list)| format!("{a} IN ({})", list.join(", "))),
        Just("attribute_exists(a)".to_string()),
        Just("attribute_not_exists(#m)".to_string()),
        Just("begins_with(b, :v)".to_string()),
        Just("contains(n, :n)".to_string()),
    ];
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} AND {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a} OR {b}")),
            inner.clone().prop_map(|a| format!("NOT {a}")),
            inner.prop_map(|a| format!("({a})")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn generated_conditions_parse_and_round_trip(source in condition_text()) {
        let tree = parse_condition(ExpressionKind::Condition, &source).expect("generated condition parses");
        let printed = tree.to_string();
        let reparsed = parse_condition(ExpressionKind::Condition, &printed).expect("printed condition parses");
        prop_assert_eq!(reparsed.dump(false), tree.dump(false));
        run_everything(&source);
    }

    /// `NOT c` is the negation of `c`, on an item and on no item.
    #[test]
    fn not_negates(source in condition_text()) {
        let mut p = placeholders();
        let negated = format!("NOT ({source})");
        if let (Ok(c), Ok(n)) = (p.condition(ExpressionKind::Condition, &source), p.condition(ExpressionKind::Condition, &negated)) {
            prop_assert_eq!(n.evaluate(Some(&item())), !c.evaluate(Some(&item())));
            prop_assert_eq!(n.evaluate(None), !c.evaluate(None));
        }
    }

    /// Comparisons of numbers agree with the exact decimal order.
    #[test]
    fn number_comparisons_follow_the_number_order(x in -1_000_000i64..1_000_000, y in -1_000_000i64..1_000_000, scale in 0u32..6) {
        let number = |v: i64| Number::parse(&format!("{v}E-{scale}")).expect("number");
        let values = BTreeMap::from([(":x".to_string(), AttributeValue::N(number(x))), (":y".to_string(), AttributeValue::N(number(y)))]);
        let mut p = Placeholders::new(None, Some(values)).expect("valid maps");
        for (op, expected) in [("<", x < y), ("<=", x <= y), (">", x > y), (">=", x >= y), ("=", x == y), ("<>", x != y)] {
            let c = p.condition(ExpressionKind::Condition, &format!(":x {op} :y")).expect("valid condition");
            prop_assert_eq!(c.evaluate(None), expected, "{} {} {}", x, op, y);
        }
    }

    /// `ADD a :n` then `ADD a :m` is `ADD a :(n+m)`, and SET with + agrees with ADD.
    #[test]
    fn add_and_plus_agree(start in -1000i64..1000, n in -1000i64..1000) {
        let values = BTreeMap::from([(":n".to_string(), AttributeValue::N(Number::from(n)))]);
        let mut p = Placeholders::new(None, Some(values)).expect("valid maps");
        let mut old = Item::new();
        old.insert("a".into(), AttributeValue::N(Number::from(start)));
        let added = p.update("ADD a :n").expect("valid").apply(Some(&old), &Item::new()).expect("applies");
        let summed = p.update("SET a = a + :n").expect("valid").apply(Some(&old), &Item::new()).expect("applies");
        prop_assert_eq!(&added, &summed);
        prop_assert_eq!(added.get("a"), Some(&AttributeValue::N(Number::from(start + n))));
    }
}

/// Deeply nested input is refused or accepted without exhausting a 2 MiB test-thread stack.
#[test]
fn deep_nesting_stays_on_the_stack() {
    let cases = [
        format!("{}a = :v{}", "(".repeat(2000), ")".repeat(2000)),
        format!("{}a = :v", "NOT ".repeat(1000)),
        format!("{}a{} = :v", "size(".repeat(1000), ")".repeat(1000)),
        format!("a = {}:v{}", "(".repeat(2000), ")".repeat(2000)),
        format!("SET a = {}:v{}", "if_not_exists(a, ".repeat(600), ")".repeat(600)),
        format!("{}a = :v{}", "(a = :v AND ".repeat(300), ")".repeat(300)),
        "(".repeat(4096),
    ];
    for source in &cases {
        run_everything(source);
    }
    // Nesting that is deep but not redundant parses, up to the guard of 256 levels.
    let deep = |levels: usize| format!("{}a = :v{}", "NOT (".repeat(levels), ")".repeat(levels));
    assert!(parse_condition(ExpressionKind::Condition, &deep(256)).is_ok());
    let error = parse_condition(ExpressionKind::Condition, &deep(257)).expect_err("too deep");
    assert!(
        error
            .message
            .starts_with("Invalid ConditionExpression: Syntax error; token: \"(\"")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A key condition matches exactly the items the same expression, evaluated as a
    /// condition, accepts.
    #[test]
    fn key_conditions_match_like_conditions(
        sort_key in -50i64..50,
        partition in prop::sample::select(vec!["k", "other"]),
        low in -50i64..50,
        high in -50i64..50,
        op in prop::sample::select(vec!["=", "<", "<=", ">", ">=", "BETWEEN"]),
    ) {
        let (low, high) = (low.min(high), low.max(high));
        let values = BTreeMap::from([
            (":p".to_string(), AttributeValue::S("k".into())),
            (":low".to_string(), AttributeValue::N(Number::from(low))),
            (":high".to_string(), AttributeValue::N(Number::from(high))),
        ]);
        let source = if op == "BETWEEN" {
            "pk = :p AND sk BETWEEN :low AND :high".to_string()
        } else {
            format!("pk = :p AND sk {op} :low AND :high = :high")
        };
        let key_source = if op == "BETWEEN" { source.clone() } else { format!("pk = :p AND sk {op} :low") };
        let schema = KeySchema::simple(
            KeyElement { name: "pk", scalar_type: ScalarAttributeType::S },
            Some(KeyElement { name: "sk", scalar_type: ScalarAttributeType::N }),
        );
        let mut p = Placeholders::new(None, Some(values)).expect("valid maps");
        let key = p.key_condition(&key_source, &schema).expect("valid key condition");
        let condition = p.condition(ExpressionKind::Condition, &source).expect("valid condition");
        let mut item = Item::new();
        item.insert("pk".into(), AttributeValue::S(partition.into()));
        item.insert("sk".into(), AttributeValue::N(Number::from(sort_key)));
        prop_assert_eq!(key.matches(&item), condition.evaluate(Some(&item)));
    }
}
