//! Round trips: builder state → text (with generated placeholders) → state keeps the meaning.
//!
//! For random states — attribute names that are reserved words, start with a digit or hold
//! dots, dashes, spaces and non-ASCII characters; nested paths with list indexes; values of
//! every type — the generated text must be accepted by `dynotable-expr` (the engine's rules), and:
//! - parsing it back gives the same state in normal form (groups merged, update actions by
//!   clause);
//! - the text written again from the parsed state resolves to the same placeholder-free tree as
//!   the first text: the same condition, update or projection for the engine;
//! - for conditions, both evaluate alike on random items.

use dynotable_builder::{
    AttributePath, Comparator, ConditionState, ExpressionParameter, ExpressionState, KeyAttribute,
    KeyConditionState, KeyEquality, KeySchemaState, KeyType, Operand, PathStep, ProjectionState,
    SetValueState, SortKeyCondition, TypeDescriptor, UpdateActionState, UpdateOperandState, UpdateState,
    generate, parse,
};
use dynotable_expr::{ExpressionKind, Placeholders};
use dynotable_types::{AttributeValue, Item, Number, Set};
use proptest::prelude::*;

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-zA-Z0-9_]{0,5}",
        prop::sample::select(vec![
            "status", "name", "date", "data", "count", "Name", "size", "value", "list", "key"
        ])
        .prop_map(String::from),
        "[0-9][a-z]{1,3}",
        "[a-z]{1,3}[.\\- ][a-z]{1,3}",
        "_[a-z]{1,3}",
        "[éü日][a-z]{0,2}",
    ]
}

fn path() -> impl Strategy<Value = AttributePath> {
    (
        name(),
        prop::collection::vec(
            prop_oneof![
                name().prop_map(PathStep::Key),
                (0u32..4).prop_map(PathStep::Index)
            ],
            0..3,
        ),
    )
        .prop_map(|(first, rest)| {
            let mut steps = vec![PathStep::Key(first)];
            steps.extend(rest);
            AttributePath(steps)
        })
}

fn number() -> impl Strategy<Value = Number> {
    prop_oneof![
        (-1000i64..1000).prop_map(|n| n.to_string()),
        (-1000i64..1000, 1u32..99).prop_map(|(n, f)| format!("{n}.{f}")),
    ]
    .prop_map(|text| text.parse().expect("a valid number"))
}

fn scalar() -> impl Strategy<Value = AttributeValue> {
    prop_oneof![
        "\\PC{0,6}".prop_map(AttributeValue::S),
        number().prop_map(AttributeValue::N),
        prop::collection::vec(any::<u8>(), 0..4).prop_map(AttributeValue::B),
    ]
}

fn value() -> impl Strategy<Value = AttributeValue> {
    let leaf = prop_oneof![
        scalar(),
        any::<bool>().prop_map(AttributeValue::BOOL),
        Just(AttributeValue::NULL),
        prop::collection::btree_set("[a-z]{0,3}", 1..3)
            .prop_map(|s| AttributeValue::SS(Set::new(s.into_iter().collect()).expect("a set"))),
        prop::collection::btree_set(-50i64..50, 1..3).prop_map(|s| AttributeValue::NS(
            Set::new(s.into_iter().map(|n| n.to_string().parse().expect("n")).collect()).expect("a set")
        )),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(AttributeValue::L),
            prop::collection::btree_map(name(), inner, 0..3).prop_map(AttributeValue::M),
        ]
    })
}

fn comparator() -> impl Strategy<Value = Comparator> {
    prop::sample::select(Comparator::ALL.to_vec())
}

fn leaf_condition() -> impl Strategy<Value = ConditionState> {
    prop_oneof![
        (path(), comparator(), scalar()).prop_map(|(p, op, v)| ConditionState::compare(p, op, v)),
        (
            path(),
            prop_oneof![Just(Comparator::Eq), Just(Comparator::Ne)],
            value()
        )
            .prop_map(|(p, op, v)| ConditionState::compare(p, op, v)),
        (path(), -100i64..100, 0i64..100).prop_map(|(p, low, width)| ConditionState::Between {
            operand: Operand::path(p),
            low: Operand::value(AttributeValue::N(low.to_string().parse().expect("n"))),
            high: Operand::value(AttributeValue::N((low + width).to_string().parse().expect("n"))),
        }),
        (path(), prop::collection::vec(value(), 1..5)).prop_map(|(p, list)| ConditionState::In {
            operand: Operand::path(p),
            list: list.into_iter().map(Operand::value).collect(),
        }),
        path().prop_map(|path| ConditionState::AttributeExists { path }),
        path().prop_map(|path| ConditionState::AttributeNotExists { path }),
        (
            path(),
            prop::sample::select(vec![
                TypeDescriptor::S,
                TypeDescriptor::N,
                TypeDescriptor::SS,
                TypeDescriptor::M
            ])
        )
            .prop_map(|(p, t)| ConditionState::AttributeType {
                operand: Operand::path(p),
                attribute_type: t,
            }),
        (path(), "\\PC{0,4}").prop_map(|(p, prefix)| ConditionState::BeginsWith {
            operand: Operand::path(p),
            prefix: Operand::value(AttributeValue::S(prefix)),
        }),
        (path(), value()).prop_map(|(p, v)| ConditionState::Contains {
            operand: Operand::path(p),
            element: Operand::value(v),
        }),
        (path(), comparator(), number()).prop_map(|(p, op, n)| ConditionState::Compare {
            left: Operand::Size {
                operand: Box::new(Operand::path(p)),
            },
            op,
            right: Operand::value(AttributeValue::N(n)),
        }),
    ]
}

fn condition() -> impl Strategy<Value = ConditionState> {
    leaf_condition().prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 1..4)
                .prop_map(|conditions| ConditionState::And { conditions }),
            prop::collection::vec(inner.clone(), 1..4)
                .prop_map(|conditions| ConditionState::Or { conditions }),
            inner.prop_map(|c| ConditionState::Not {
                condition: Box::new(c)
            }),
        ]
    })
}

/// Top-level names that differ per action, so no two update or projection paths overlap.
fn distinct(base: &str, i: usize) -> String {
    format!("{base}{i}")
}

fn update_action(i: usize) -> impl Strategy<Value = UpdateActionState> {
    let base = prop::sample::select(vec!["status-", "n", "1x", "a.b", "data_", "count"]);
    (
        base,
        prop::collection::vec(
            prop_oneof![
                name().prop_map(PathStep::Key),
                (0u32..4).prop_map(PathStep::Index)
            ],
            0..2,
        ),
    )
        .prop_flat_map(move |(base, rest)| {
            let mut steps = vec![PathStep::Key(distinct(base, i))];
            steps.extend(rest);
            let target = AttributePath(steps);
            let t = target.clone();
            let n = || {
                number().prop_map(|n| UpdateOperandState::Value {
                    value: AttributeValue::N(n),
                })
            };
            prop_oneof![
                value().prop_map({
                    let t = t.clone();
                    move |v| UpdateActionState::Set {
                        path: t.clone(),
                        value: SetValueState::Operand {
                            operand: UpdateOperandState::Value { value: v },
                        },
                    }
                }),
                (path(), n()).prop_map({
                    let t = t.clone();
                    move |(p, right)| UpdateActionState::Set {
                        path: t.clone(),
                        value: SetValueState::Plus {
                            left: UpdateOperandState::Path { path: p },
                            right,
                        },
                    }
                }),
                (n(), n()).prop_map({
                    let t = t.clone();
                    move |(left, right)| UpdateActionState::Set {
                        path: t.clone(),
                        value: SetValueState::Minus {
                            left: UpdateOperandState::IfNotExists {
                                path: t.clone(),
                                fallback: Box::new(left),
                            },
                            right,
                        },
                    }
                }),
                prop::collection::vec(value(), 0..3).prop_map({
                    let t = t.clone();
                    move |list| UpdateActionState::Set {
                        path: t.clone(),
                        value: SetValueState::Operand {
                            operand: UpdateOperandState::ListAppend {
                                first: Box::new(UpdateOperandState::Path { path: t.clone() }),
                                second: Box::new(UpdateOperandState::Value {
                                    value: AttributeValue::L(list),
                                }),
                            },
                        },
                    }
                }),
                Just(UpdateActionState::Remove { path: t.clone() }),
                number().prop_map({
                    let t = t.clone();
                    move |n| UpdateActionState::Add {
                        path: t.clone(),
                        value: AttributeValue::N(n),
                    }
                }),
                prop::collection::btree_set("[a-z]{1,3}", 1..3).prop_map(move |s| {
                    UpdateActionState::Delete {
                        path: target.clone(),
                        value: AttributeValue::SS(Set::new(s.into_iter().collect()).expect("a set")),
                    }
                }),
            ]
        })
}

fn update() -> impl Strategy<Value = UpdateState> {
    (1usize..6)
        .prop_flat_map(|n| (0..n).map(update_action).collect::<Vec<_>>())
        .prop_map(|actions| UpdateState { actions })
}

fn item() -> impl Strategy<Value = Item> {
    prop::collection::btree_map(
        prop::sample::select(vec!["status", "name", "a", "1x", "data", "n", "count"]).prop_map(String::from),
        value(),
        0..5,
    )
}

/// The state's text and maps, checked by the engine's resolver.
fn written(state: &ExpressionState) -> dynotable_builder::GeneratedExpression {
    generate(state).expect("the state has text")
}

fn placeholders(g: &dynotable_builder::GeneratedExpression) -> Placeholders {
    Placeholders::new(g.attributes.names(), g.attributes.values()).expect("generated maps are valid")
}

fn round_trip(
    state: &ExpressionState,
    schema: Option<&KeySchemaState>,
) -> Result<ExpressionState, TestCaseError> {
    let first = written(state);
    let back = parse(
        first.parameter,
        &first.expression,
        first.attributes.names(),
        first.attributes.values(),
        schema,
    )
    .map_err(|d| TestCaseError::fail(format!("{} rejected: {d}", first.expression)))?;
    prop_assert_eq!(
        back.normalised(),
        state.normalised(),
        "text: {}",
        first.expression
    );
    Ok(back)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn conditions_keep_their_meaning(state in condition(), items in prop::collection::vec(item(), 4)) {
        let expression = ExpressionState::FilterExpression(state);
        let back = round_trip(&expression, None)?;
        let (first, second) = (written(&expression), written(&back));
        let one = placeholders(&first).condition(ExpressionKind::Filter, &first.expression).expect("resolves");
        let two = placeholders(&second).condition(ExpressionKind::Filter, &second.expression).expect("resolves");
        prop_assert_eq!(&one, &two);
        for item in &items {
            prop_assert_eq!(one.evaluate(Some(item)), two.evaluate(Some(item)));
        }
    }

    #[test]
    fn updates_keep_their_meaning(state in update()) {
        let expression = ExpressionState::UpdateExpression(state);
        let back = round_trip(&expression, None)?;
        let (first, second) = (written(&expression), written(&back));
        let one = placeholders(&first).update(&first.expression).expect("resolves");
        let two = placeholders(&second).update(&second.expression).expect("resolves");
        let strip = |u: &dynotable_expr::Update| -> Vec<String> { u.actions.iter().map(|a| format!("{:?}", (a.path(), std::mem::discriminant(a)))).collect() };
        prop_assert_eq!(strip(&one), strip(&two));
    }

    #[test]
    fn projections_keep_their_meaning(bases in prop::collection::vec(name(), 1..5), nested in path()) {
        let mut paths: Vec<AttributePath> =
            bases.iter().enumerate().map(|(i, b)| AttributePath::attribute(distinct(b, i))).collect();
        let mut deep = vec![PathStep::Key("nested-".to_string())];
        deep.extend(nested.0);
        paths.push(AttributePath(deep));
        let expression = ExpressionState::ProjectionExpression(ProjectionState { paths });
        let back = round_trip(&expression, None)?;
        let (first, second) = (written(&expression), written(&back));
        prop_assert_eq!(
            placeholders(&first).projection(&first.expression).expect("resolves"),
            placeholders(&second).projection(&second.expression).expect("resolves")
        );
    }

    #[test]
    fn key_conditions_keep_their_meaning(
        pk in name(), sk in name(), pv in "\\PC{1,6}", low in -100i64..100, width in 0i64..50,
        form in 0usize..4, prefix in "[a-z]{1,3}",
    ) {
        prop_assume!(pk != sk);
        let schema = KeySchemaState { more_partition_keys: Vec::new(), more_sort_keys: Vec::new(),
            partition_key: KeyAttribute { name: pk.clone(), key_type: KeyType::S },
            sort_key: Some(KeyAttribute { name: sk.clone(), key_type: if form == 3 { KeyType::S } else { KeyType::N } }),
        };
        let n = |v: i64| AttributeValue::N(v.to_string().parse().expect("n"));
        let sort = match form {
            0 => None,
            1 => Some(SortKeyCondition::Compare { name: sk.clone(), op: Comparator::Ge, value: n(low) }),
            2 => Some(SortKeyCondition::Between { name: sk.clone(), low: n(low), high: n(low + width) }),
            _ => Some(SortKeyCondition::BeginsWith { name: sk.clone(), prefix: AttributeValue::S(prefix) }),
        };
        let state = KeyConditionState { more_partition: Vec::new(), sort_equal: Vec::new(), partition_key: pk, partition_value: AttributeValue::S(pv), sort };
        state.check(&schema).map_err(|d| TestCaseError::fail(d.to_string()))?;
        let back = round_trip(&ExpressionState::KeyConditionExpression(state), Some(&schema))?;
        prop_assert_eq!(back.parameter(), ExpressionParameter::KeyConditionExpression);
    }
}

/// A multi-attribute GSI key (rule B.18.5): the builder writes an equality on every partition
/// attribute and the sort conditions left to right, the engine's checks accept it, and parsing it
/// back against the key schema gives the same state; a skipped sort attribute gets the service's
/// message.
#[test]
fn multi_attribute_key_conditions_are_written_left_to_right() {
    let key = |name: &str, key_type| KeyAttribute {
        name: name.into(),
        key_type,
    };
    let schema = KeySchemaState {
        partition_key: key("tournamentId", KeyType::S),
        sort_key: Some(key("round", KeyType::N)),
        more_partition_keys: vec![key("region", KeyType::S)],
        more_sort_keys: vec![key("bracket", KeyType::S)],
    };
    let equality = |name: &str, value: AttributeValue| KeyEquality {
        name: name.into(),
        value,
    };
    let state = KeyConditionState {
        partition_key: "tournamentId".into(),
        partition_value: AttributeValue::S("WINTER2024".into()),
        more_partition: vec![equality("region", AttributeValue::S("NA-EAST".into()))],
        sort_equal: vec![equality("round", AttributeValue::N("1".parse().expect("n")))],
        sort: Some(SortKeyCondition::BeginsWith {
            name: "bracket".into(),
            prefix: AttributeValue::S("UP".into()),
        }),
    };
    state.check(&schema).expect("the engine's rules accept it");
    let expression = ExpressionState::KeyConditionExpression(state.clone());
    let generated = generate(&expression).expect("writes");
    assert_eq!(
        generated.expression,
        "tournamentId = :tournamentId AND #region = :region AND round = :round AND begins_with(bracket, :bracket_prefix)"
    );
    let back = parse(
        ExpressionParameter::KeyConditionExpression,
        &generated.expression,
        generated.attributes.names(),
        generated.attributes.values(),
        Some(&schema),
    )
    .expect("parses back");
    assert_eq!(back, expression);

    let skipped = KeyConditionState {
        sort_equal: Vec::new(),
        sort: Some(SortKeyCondition::Compare {
            name: "bracket".into(),
            op: Comparator::Eq,
            value: AttributeValue::S("UPPER".into()),
        }),
        ..state
    };
    let diagnostic = skipped.check(&schema).expect_err("round is skipped");
    assert_eq!(
        diagnostic.message,
        "Query condition missed key schema element: round"
    );
}

/// The seed's time-window query turns into exactly the expression the articles show, with
/// generated placeholder names.
#[test]
fn seed_time_window_query() {
    let state = ExpressionState::KeyConditionExpression(KeyConditionState {
        more_partition: Vec::new(),
        sort_equal: Vec::new(),
        partition_key: "vehicleId".into(),
        partition_value: AttributeValue::S("VEH#V-7741".into()),
        sort: Some(SortKeyCondition::Between {
            name: "recordedAt".into(),
            low: AttributeValue::S("TS#2024-03-01T00:00:00Z".into()),
            high: AttributeValue::S("TS#2024-03-01T23:59:59Z".into()),
        }),
    });
    let generated = generate(&state).expect("writes");
    assert_eq!(
        generated.expression,
        "vehicleId = :vehicleId AND recordedAt BETWEEN :recordedAt_from AND :recordedAt_to"
    );
    assert_eq!(generated.attributes.names(), None);
    let values = generated.attributes.values().expect("values");
    assert_eq!(values.len(), 3);
    assert_eq!(values[":vehicleId"], AttributeValue::S("VEH#V-7741".into()));
    let keys: Vec<&String> = values.keys().collect::<Vec<_>>();
    assert_eq!(keys, [":recordedAt_from", ":recordedAt_to", ":vehicleId"]);
}

/// All 573 reserved words (the engine's list), in any case, are written through placeholders,
/// and the engine accepts the result: no `Attribute name is a reserved keyword` error.
#[test]
fn every_reserved_word_gets_a_placeholder() {
    let words: Vec<&str> = include_str!("../../dynotable-expr/src/reserved-words.txt")
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect();
    assert_eq!(words.len(), 573);
    for chunk in words.chunks(100) {
        for case in [str::to_lowercase, str::to_uppercase] {
            let paths: Vec<AttributePath> = chunk.iter().map(|w| AttributePath::attribute(case(w))).collect();
            let state = ExpressionState::ProjectionExpression(ProjectionState { paths });
            let generated = generate(&state).expect("writes");
            let names = generated
                .attributes
                .names()
                .expect("every word has a placeholder");
            assert_eq!(names.len(), chunk.len());
            assert!(generated.expression.split(", ").all(|p| p.starts_with('#')));
            let back = parse(
                ExpressionParameter::ProjectionExpression,
                &generated.expression,
                Some(names),
                None,
                None,
            )
            .expect("the engine accepts it");
            assert_eq!(back, state);
        }
    }
}
