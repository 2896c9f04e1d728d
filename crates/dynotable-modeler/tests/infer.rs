//! The inference of a model from a table's sample (`dynotable_modeler::infer`), table-driven:
//! the sort-key prefixes and attribute sets each sample groups into, the key templates and
//! generators read back from the values, the counts scaled to the table, and the patterns the
//! history's reads become. The same sample gives the same model, and the model is one the
//! modeler accepts and generates sample data for.

use dynotable_modeler::generate::{Generator, generate};
use dynotable_modeler::infer::{ObservedRead, ObservedSort, SortOp, infer};
use dynotable_modeler::model::{FieldRange, IndexModel, KeyAttr, Projection, TableModel};
use dynotable_modeler::validate::validate;
use dynotable_types::{AttributeValue, Item, Number, ScalarAttributeType};

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_owned())
}

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(Number::parse(text).unwrap())
}

fn item(pairs: &[(&str, AttributeValue)]) -> Item {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect()
}

fn key(name: &str, ty: ScalarAttributeType) -> KeyAttr {
    KeyAttr {
        name: name.into(),
        ty,
    }
}

/// The demo's Telemetry: vehicleId / recordedAt, GSI ByDepot (depotCode / recordedAt).
fn telemetry() -> TableModel {
    TableModel {
        name: "Telemetry".into(),
        partition_key: key("vehicleId", ScalarAttributeType::S),
        sort_key: Some(key("recordedAt", ScalarAttributeType::S)),
        billing: Default::default(),
        global_indexes: vec![IndexModel {
            name: "ByDepot".into(),
            partition_key: key("depotCode", ScalarAttributeType::S),
            sort_key: Some(key("recordedAt", ScalarAttributeType::S)),
            projection: Projection::All,
        }],
        local_indexes: vec![],
        items: vec![],
    }
}

/// Three vehicles with a META item each; V-7741 reports six times, the others once; one
/// reading in four was taken in the yard and has no depotCode.
fn telemetry_sample() -> Vec<Item> {
    let mut items = Vec::new();
    for (v, depot, plate) in [
        ("V-7741", "DEP-N", "KX-7741"),
        ("V-7748", "DEP-S", "KX-7748"),
        ("V-7755", "DEP-N", "KX-7755"),
    ] {
        items.push(item(&[
            ("vehicleId", s(&format!("VEH#{v}"))),
            ("recordedAt", s("META")),
            ("plate", s(plate)),
            ("depotCode", s(depot)),
            ("commissioned", n(if v == "V-7748" { "2019" } else { "2023" })),
        ]));
    }
    let readings = [
        ("V-7741", "2025-03-14T08:00:00Z", true),
        ("V-7741", "2025-03-14T08:01:00Z", true),
        ("V-7741", "2025-03-14T08:02:00Z", false),
        ("V-7741", "2025-03-14T08:03:00Z", true),
        ("V-7741", "2025-03-14T08:04:00Z", true),
        ("V-7741", "2025-03-14T08:05:00Z", true),
        ("V-7748", "2025-03-14T09:00:00Z", true),
        ("V-7755", "2025-03-14T10:00:00Z", false),
    ];
    for (i, (v, at, depot)) in readings.into_iter().enumerate() {
        let mut reading = item(&[
            ("vehicleId", s(&format!("VEH#{v}"))),
            ("recordedAt", s(&format!("TS#{at}"))),
            ("speedKph", n(&(40 + i * 7).to_string())),
            ("coolantC", n(&format!("8{i}.5"))),
        ]);
        if depot {
            reading.insert(
                "depotCode".into(),
                s(if v == "V-7748" { "DEP-S" } else { "DEP-N" }),
            );
        }
        items.push(reading);
    }
    items
}

#[test]
fn telemetry_groups_into_meta_and_ts_with_their_templates() {
    let inference = infer(&telemetry(), &telemetry_sample(), 1_100, &[]);
    let model = &inference.model;
    // The constant sort key's entity first: the readings refer to its vehicles.
    let names: Vec<&str> = model.entities.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["META", "TS"]);

    // (entity, attribute, template, presence)
    let expected = [
        ("META", "vehicleId", "VEH#{vehicleId}", 1.0),
        ("META", "recordedAt", "META", 1.0),
        ("META", "depotCode", "{depotCode}", 1.0),
        ("TS", "vehicleId", "VEH#{vehicleId}", 1.0),
        ("TS", "recordedAt", "TS#{recordedAt}", 1.0),
        // The ByDepot GSI is sparse: 6 of the 8 readings carry depotCode.
        ("TS", "depotCode", "{depotCode}", 0.75),
    ];
    for (entity, attribute, template, presence) in expected {
        let fill = model.entity(entity).unwrap().key(attribute).unwrap();
        assert_eq!(
            (fill.template.as_str(), fill.presence),
            (template, presence),
            "{entity}.{attribute}"
        );
    }

    let meta = model.entity("META").unwrap();
    // Every vehicle once, a counter: it starts at the hottest vehicle, so the readings' skewed
    // reference picks V-7741 most.
    assert_eq!(
        meta.field("vehicleId").unwrap().generator,
        Generator::Sequence {
            prefix: "V-".into(),
            start: 7741,
            step: 7,
            width: 4
        }
    );
    assert_eq!(
        meta.field("depotCode").unwrap().generator,
        Generator::Choice {
            values: vec!["DEP-N".into(), "DEP-S".into()],
            weights: vec![2.0, 1.0]
        }
    );
    assert_eq!(
        meta.field("commissioned").unwrap().generator,
        Generator::Number {
            min: 2019,
            max: 2023,
            decimals: 0
        }
    );
    assert_eq!(
        meta.field("plate").unwrap().generator,
        Generator::Sequence {
            prefix: "KX-".into(),
            start: 7741,
            step: 7,
            width: 4
        }
    );

    let ts = model.entity("TS").unwrap();
    assert_eq!(
        ts.field("vehicleId").unwrap().generator,
        Generator::Ref {
            entity: "META".into(),
            field: "vehicleId".into(),
            skew: Some(dynotable_modeler::generate::Skew { hot: 1, factor: 6.0 })
        }
    );
    assert_eq!(
        ts.field("recordedAt").unwrap().generator,
        Generator::Time {
            start: 1_741_939_200,
            step_seconds: 60,
            jitter_seconds: 0,
            per: Some("vehicleId".into())
        }
    );
    assert_eq!(
        ts.field("coolantC").unwrap().generator,
        Generator::Number {
            min: 80,
            max: 88,
            decimals: 1
        }
    );

    // Counts: 3 and 8 of 11 sampled, scaled to the table's 1,100 items.
    let scaled: Vec<(&str, u64, f64, u64)> = inference
        .entities
        .iter()
        .map(|e| {
            (
                e.name.as_str(),
                e.sampled,
                e.estimated,
                model.entity(&e.name).unwrap().count,
            )
        })
        .collect();
    assert_eq!(scaled, [("META", 3, 300.0, 300), ("TS", 8, 800.0, 800)]);

    // The modeler accepts the model and makes its sample data.
    validate(model).unwrap();
    let sample = generate(model, 7).unwrap();
    assert_eq!(sample.entity("TS").unwrap().items.len(), 800);
}

#[test]
fn the_same_sample_infers_the_same_model() {
    let a = infer(&telemetry(), &telemetry_sample(), 1_100, &[]);
    let mut reversed = telemetry_sample();
    reversed.reverse();
    let b = infer(&telemetry(), &reversed, 1_100, &[]);
    assert_eq!(
        a.model.to_json(),
        infer(&telemetry(), &telemetry_sample(), 1_100, &[])
            .model
            .to_json()
    );
    // Entities and their fields do not depend on the order items were read in.
    let shape = |i: &dynotable_modeler::infer::Inference| {
        i.model
            .entities
            .iter()
            .map(|e| (e.name.clone(), e.keys.clone(), e.count))
            .collect::<Vec<_>>()
    };
    assert_eq!(shape(&a), shape(&b));
}

#[test]
fn a_large_table_is_modelled_by_at_most_two_thousand_sample_items() {
    let inference = infer(&telemetry(), &telemetry_sample(), 11_000_000, &[]);
    let estimated: Vec<f64> = inference.entities.iter().map(|e| e.estimated).collect();
    assert_eq!(estimated, [3_000_000.0, 8_000_000.0]);
    let counts: Vec<u64> = inference.model.entities.iter().map(|e| e.count).collect();
    assert_eq!(counts, [545, 1455]);
}

#[test]
fn prefixes_and_attribute_sets_group_table_driven() {
    // (sort-key values with their extra attribute, expected entity names with their templates)
    type Case = (
        &'static [(&'static str, &'static str)],
        &'static [(&'static str, &'static str)],
    );
    let cases: &[Case] = &[
        // One prefix, one attribute set.
        (
            &[("ORDER#1", "total"), ("ORDER#2", "total")],
            &[("ORDER", "ORDER#{sk}")],
        ),
        // A value without a `#` is its own group and a literal.
        (
            &[("PROFILE", "email"), ("ORDER#9", "total")],
            &[("ORDER", "ORDER#{sk}"), ("PROFILE", "PROFILE")],
        ),
        // One prefix, two attribute sets: two entities.
        (
            &[("ITEM#1", "sku"), ("ITEM#2", "sku"), ("ITEM#3", "note")],
            &[("ITEM", "ITEM#{sk}"), ("ITEM_2", "ITEM#{sk}")],
        ),
        // The same constant value twice is a literal even with a `#`.
        (&[("V#1", "a"), ("V#1", "a")], &[("V", "V#1")]),
    ];
    for (values, expected) in cases {
        let table = TableModel {
            name: "T".into(),
            partition_key: key("pk", ScalarAttributeType::S),
            sort_key: Some(key("sk", ScalarAttributeType::S)),
            billing: Default::default(),
            global_indexes: vec![],
            local_indexes: vec![],
            items: vec![],
        };
        let sample: Vec<Item> = values
            .iter()
            .enumerate()
            .map(|(i, (sk, extra))| item(&[("pk", s(&format!("P#{i}"))), ("sk", s(sk)), (extra, s("x"))]))
            .collect();
        let model = infer(&table, &sample, 0, &[]).model;
        let mut got: Vec<(String, String)> = model
            .entities
            .iter()
            .map(|e| (e.name.clone(), e.key("sk").unwrap().template.clone()))
            .collect();
        got.sort();
        let want: Vec<(String, String)> = expected.iter().map(|(a, b)| ((*a).into(), (*b).into())).collect();
        assert_eq!(got, want, "{values:?}");
    }

    // Numbers are one group, named after the table, with an N field of their range.
    let table = TableModel {
        name: "SensorReadings".into(),
        partition_key: key("deviceId", ScalarAttributeType::S),
        sort_key: Some(key("readingTs", ScalarAttributeType::N)),
        billing: Default::default(),
        global_indexes: vec![],
        local_indexes: vec![],
        items: vec![],
    };
    let sample: Vec<Item> = (0..4)
        .map(|i| {
            item(&[
                ("deviceId", s("DEV#a1b2")),
                ("readingTs", n(&(1_741_939_200 + i * 60).to_string())),
            ])
        })
        .collect();
    let model = infer(&table, &sample, 4, &[]).model;
    assert_eq!(model.entities.len(), 1);
    let entity = &model.entities[0];
    assert_eq!(entity.name, "SensorReadings");
    assert_eq!(entity.key("readingTs").unwrap().template, "{readingTs}");
    assert_eq!(
        entity.field("readingTs").unwrap().generator,
        Generator::Number {
            min: 1_741_939_200,
            max: 1_741_939_380,
            decimals: 0
        }
    );
    // One device in all four items: a constant key, still a field.
    assert_eq!(entity.key("deviceId").unwrap().template, "DEV#{deviceId}");
    validate(&model).unwrap();
}

#[test]
fn history_reads_become_named_patterns() {
    let reads = vec![
        // Twice the same read: one pattern.
        ObservedRead {
            index: None,
            partition_key: "vehicleId".into(),
            partition_value: s("VEH#V-7741"),
            sort: Some(("recordedAt".into(), ObservedSort::BeginsWith(s("TS#")))),
            descending: true,
            limit: Some(20),
            consistent: false,
        },
        ObservedRead {
            index: None,
            partition_key: "vehicleId".into(),
            partition_value: s("VEH#V-7748"),
            sort: Some(("recordedAt".into(), ObservedSort::BeginsWith(s("TS#")))),
            descending: true,
            limit: Some(20),
            consistent: false,
        },
        ObservedRead {
            index: None,
            partition_key: "vehicleId".into(),
            partition_value: s("VEH#V-7741"),
            sort: Some((
                "recordedAt".into(),
                ObservedSort::Between(s("TS#2025-03-14T08:10:00Z"), s("TS#2025-03-14T08:29:59Z")),
            )),
            descending: false,
            limit: None,
            consistent: true,
        },
        ObservedRead {
            index: None,
            partition_key: "vehicleId".into(),
            partition_value: s("VEH#V-7748"),
            sort: Some(("recordedAt".into(), ObservedSort::Compare(SortOp::Eq, s("META")))),
            descending: false,
            limit: None,
            consistent: true,
        },
        ObservedRead {
            index: Some("ByDepot".into()),
            partition_key: "depotCode".into(),
            partition_value: s("DEP-N"),
            sort: None,
            descending: true,
            limit: Some(50),
            consistent: false,
        },
    ];
    let model = infer(&telemetry(), &telemetry_sample(), 11, &reads).model;
    // (name, entity, given, order by)
    type Summary<'a> = (&'a str, &'a str, Vec<(&'a str, &'a str)>, Option<&'a str>);
    let summary: Vec<Summary> = model
        .patterns
        .iter()
        .map(|p| {
            (
                p.name.as_str(),
                p.entity.as_str(),
                p.given.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect(),
                p.order_by.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            // Two runs, one pattern; its example is the vehicle the history reads most (V-7741
            // and V-7748 twice each: the one read last).
            (
                "TS by vehicleId, newest first",
                "TS",
                vec![("vehicleId", "V-7748")],
                Some("recordedAt")
            ),
            (
                "TS by vehicleId and a range of recordedAt",
                "TS",
                vec![("vehicleId", "V-7741")],
                None
            ),
            ("META by vehicleId", "META", vec![("vehicleId", "V-7748")], None),
            (
                "TS by depotCode on ByDepot, newest first",
                "TS",
                vec![("depotCode", "DEP-N")],
                Some("recordedAt")
            ),
        ]
    );
    assert_eq!(
        model.patterns[1].range,
        Some(FieldRange::Between {
            field: "recordedAt".into(),
            low: "2025-03-14T08:10:00Z".into(),
            high: "2025-03-14T08:29:59Z".into()
        })
    );
    assert_eq!(model.patterns[0].limit, Some(20));
    // Each pattern resolves against the model's sample, the depot's on its GSI.
    validate(&model).unwrap();
    let sample = generate(&model, 7).unwrap();
    let resolved = dynotable_modeler::patterns::resolve_all(&model, &sample).unwrap();
    assert_eq!(resolved[3].operation, "Query");
    assert_eq!(resolved[3].target.index.as_deref(), Some("ByDepot"));
}

#[test]
fn the_counter_of_vehicles_starts_at_the_one_the_history_reads_most() {
    let read = |vehicle: &str| ObservedRead {
        index: None,
        partition_key: "vehicleId".into(),
        partition_value: s(vehicle),
        sort: None,
        descending: false,
        limit: None,
        consistent: false,
    };
    let start = |reads: &[ObservedRead]| match &infer(&telemetry(), &telemetry_sample(), 11, reads)
        .model
        .entity("META")
        .unwrap()
        .field("vehicleId")
        .unwrap()
        .generator
    {
        Generator::Sequence { start, .. } => *start,
        other => panic!("{other:?}"),
    };
    // No history: the sample's hottest vehicle.
    assert_eq!(start(&[]), 7741);
    // A vehicle outside the sample, on the counter's steps of 7: read twice, it wins.
    assert_eq!(
        start(&[read("VEH#V-7762"), read("VEH#V-7748"), read("VEH#V-7762")]),
        7762
    );
    // Off the counter's steps: the sample's minimum.
    assert_eq!(start(&[read("VEH#V-7743")]), 7741);
}
