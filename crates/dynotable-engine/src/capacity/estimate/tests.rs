//! The estimator against DynamoDB's documented examples (rules B.1–B.3, docs/dynamodb-rules.md),
//! the seed articles' examples and the live-service captures the rules file records.

use dynotable_types::{AttributeValue, Item, ScalarAttributeType, item_size};

use super::read::{QueryInput, Way, batch_get, estimate_query, get_item, pages, transact_get};
use super::reconcile::reconcile;
use super::write::{WriteInput, WriteKind, WriteMode, estimate_import, estimate_write};
use super::{IndexShape, RequestCost, SizeProfile, TableShape, bytes, counted};
use crate::api::{Capacity, ConsumedCapacity};
use crate::capacity::{CapacityReport, PAGE_BYTES, ReadKind};
use crate::catalog::{IndexKind, KeyAttribute, KeySchema, ProjectionSchema};

const KB: u64 = 1024;

fn key(partition: &str, sort: Option<&str>) -> KeySchema {
    let attribute = |name: &str| KeyAttribute {
        name: name.to_owned(),
        ty: ScalarAttributeType::S,
    };
    KeySchema::simple(attribute(partition), sort.map(attribute))
}

/// The seed articles' telemetry table: `vehicleId`/`recordedAt`, a GSI on
/// `depotCode`/`recordedAt` projecting INCLUDE `speedKph`, and an LSI on `vehicleId`/`fuelPct`
/// projecting KEYS_ONLY.
fn telemetry() -> TableShape {
    TableShape {
        name: "Telemetry".into(),
        key: key("vehicleId", Some("recordedAt")),
        indexes: vec![
            IndexShape {
                name: "ByDepot".into(),
                kind: IndexKind::Global,
                key: key("depotCode", Some("recordedAt")),
                projection: ProjectionSchema::Include(vec!["speedKph".into()]),
            },
            IndexShape {
                name: "ByFuel".into(),
                kind: IndexKind::Local,
                key: key("vehicleId", Some("fuelPct")),
                projection: ProjectionSchema::KeysOnly,
            },
        ],
    }
}

fn s(value: &str) -> AttributeValue {
    AttributeValue::S(value.to_owned())
}

fn item(pairs: &[(&str, AttributeValue)]) -> Item {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect()
}

fn pad(n: usize) -> AttributeValue {
    s(&"x".repeat(n))
}

fn query(table: TableShape, index: Option<&str>, selected: SizeProfile) -> QueryInput {
    QueryInput {
        table,
        index: index.map(str::to_owned),
        selected,
        base_items: None,
        limit: None,
        fetch_from_table: false,
        scanned: None,
        partitions: 1,
    }
}

fn way(estimate: &super::read::ReadEstimate, way: Way) -> &super::read::ReadWay {
    estimate.alternatives.iter().find(|w| w.way == way).unwrap()
}

#[test]
fn ten_two_kilobyte_readings_cost_what_the_seed_article_says() {
    // 10 readings × 2 KB in one collection = 20 KB → five 4 KB blocks.
    for selected in [
        SizeProfile::Exact {
            sizes: vec![2 * KB; 10],
        },
        SizeProfile::Summary {
            item_count: 10,
            total_bytes: 20 * KB,
        },
    ] {
        let estimate = estimate_query(&query(telemetry(), None, selected)).unwrap();
        assert_eq!(estimate.query[0].kind, ReadKind::Eventual);
        assert_eq!(estimate.query[0].capacity_units, 2.5);
        assert_eq!(estimate.query[1].kind, ReadKind::Strong);
        assert_eq!(estimate.query[1].capacity_units, 5.0);
        assert!(estimate.query[0].exact);
        assert_eq!(estimate.query[0].pages.len(), 1);
        // Ten GetItems: each 2 KB item rounds up to 4 KB on its own.
        let gets = way(&estimate, Way::GetItems);
        assert_eq!(
            (gets.requests, gets.eventual, gets.strong),
            (10, Some(5.0), Some(10.0))
        );
        let batch = way(&estimate, Way::BatchGetItem);
        assert_eq!(
            (batch.requests, batch.eventual, batch.strong),
            (1, Some(5.0), Some(10.0))
        );
        let transact = way(&estimate, Way::TransactGetItems);
        assert_eq!(transact.transactional, Some(20.0));
        assert!(
            estimate.query[0].pages[0]
                .lines
                .iter()
                .all(|l| l.rule.as_deref() == Some("B.2"))
        );
    }
}

#[test]
fn item_size_counts_attribute_names() {
    // DG ServiceQuotas: `shirt-color` = "R" and `shirt-size` = "M" → 23 bytes; one GetItem
    // of it is one block.
    let shirt = item(&[("shirt-color", s("R")), ("shirt-size", s("M"))]);
    assert_eq!(item_size(&shirt), 23);
    let cost = get_item(&telemetry(), Some(23), ReadKind::Eventual);
    assert_eq!(cost.capacity_units, 0.5);
    assert_eq!(get_item(&telemetry(), None, ReadKind::Strong).capacity_units, 1.0);
}

#[test]
fn a_query_sums_then_rounds_once() {
    // Rule B.2: 40.8 KB read → 44 KB → 11 strong units; 1,500 × 64 B = 96,000 B → 24 blocks.
    let estimate = estimate_query(&query(
        telemetry(),
        None,
        SizeProfile::Summary {
            item_count: 3,
            total_bytes: 41_779,
        },
    ))
    .unwrap();
    assert_eq!(estimate.query[1].capacity_units, 11.0);
    let small = estimate_query(&query(
        telemetry(),
        None,
        SizeProfile::Exact {
            sizes: vec![64; 1500],
        },
    ))
    .unwrap();
    assert_eq!(small.query[0].capacity_units, 12.0);
    // Read one by one, the same items cost a block each.
    assert_eq!(way(&small, Way::GetItems).eventual, Some(750.0));
}

#[test]
fn batch_get_rounds_every_item() {
    // Rule B.2: 1.5 KB + 6.5 KB → 4 KB + 8 KB = 12 KB → 3 strong units, where one Query of
    // the same 8 KB would cost 2.
    let estimate = estimate_query(&query(
        telemetry(),
        None,
        SizeProfile::Exact {
            sizes: vec![1536, 6656],
        },
    ))
    .unwrap();
    assert_eq!(way(&estimate, Way::BatchGetItem).strong, Some(3.0));
    assert_eq!(estimate.query[1].capacity_units, 2.0);
}

#[test]
fn a_gsi_query_is_eventual_and_charged_to_the_index() {
    // GSI.md: 8 entries × 2,000 B = 16,000 B → 16 KB → 0.5 × 4 = 2 RCU.
    let estimate = estimate_query(&query(
        telemetry(),
        Some("ByDepot"),
        SizeProfile::Exact { sizes: vec![2000; 8] },
    ))
    .unwrap();
    assert_eq!(estimate.query.len(), 1, "no strongly consistent reads on a GSI");
    let page = &estimate.query[0].pages[0];
    assert_eq!(page.capacity_units, 2.0);
    assert_eq!(page.table_units, None);
    assert_eq!(page.indexes[0].name, "ByDepot");
    let consumed = page.consumed_capacity(CapacityReport::Indexes).unwrap();
    assert_eq!(consumed.capacity_units, 2.0);
    assert_eq!(consumed.table, Some(Capacity::default()));
    assert_eq!(
        consumed.global_secondary_indexes.unwrap()["ByDepot"].capacity_units,
        2.0
    );
}

#[test]
fn an_lsi_query_for_unprojected_attributes_fetches_each_item_from_the_table() {
    // Rule B.2 LSI example: 4 entries of 200 B (one 4 KB block together) plus 4 base items of
    // 300 B fetched one by one (4 × 4 KB) = 20 KB.
    let mut input = query(
        telemetry(),
        Some("ByFuel"),
        SizeProfile::Exact { sizes: vec![200; 4] },
    );
    input.base_items = Some(SizeProfile::Exact { sizes: vec![300; 4] });
    input.fetch_from_table = true;
    let estimate = estimate_query(&input).unwrap();
    let strong = &estimate.query[1].pages[0];
    assert_eq!(strong.indexes[0].capacity_units, 1.0);
    assert_eq!(strong.table_units, Some(4.0));
    assert_eq!(strong.capacity_units, 5.0);
    assert_eq!(estimate.query[0].capacity_units, 2.5);
    let consumed = strong.consumed_capacity(CapacityReport::Indexes).unwrap();
    assert_eq!(
        consumed.local_secondary_indexes.unwrap()["ByFuel"].capacity_units,
        1.0
    );
    assert_eq!(consumed.table.unwrap().capacity_units, 4.0);
}

#[test]
fn pages_stop_after_the_item_that_reaches_one_megabyte() {
    let sizes = vec![300 * KB; 5];
    let split = pages(&sizes, None);
    assert_eq!(split.iter().map(Vec::len).collect::<Vec<_>>(), vec![4, 1]);
    // A selection that ends exactly at a page boundary is followed by an empty page.
    let exact = vec![PAGE_BYTES / 2; 2];
    assert_eq!(
        pages(&exact, None).iter().map(Vec::len).collect::<Vec<_>>(),
        vec![2, 0]
    );
    assert_eq!(
        pages(&[10; 5], Some(2)).iter().map(Vec::len).collect::<Vec<_>>(),
        vec![2, 2, 1]
    );
    let estimate = estimate_query(&query(telemetry(), None, SizeProfile::Exact { sizes: exact })).unwrap();
    // 1 MB = 256 blocks, then the empty page's minimum.
    assert_eq!(estimate.query[0].capacity_units, 128.5);
}

#[test]
fn a_filtered_scan_pays_for_everything_and_one_block_per_partition() {
    let mut input = query(
        telemetry(),
        None,
        SizeProfile::Exact {
            sizes: vec![2 * KB; 10],
        },
    );
    input.scanned = Some(SizeProfile::Summary {
        item_count: 1000,
        total_bytes: 1000 * 2 * KB,
    });
    input.partitions = 1;
    let estimate = estimate_query(&input).unwrap();
    let scan = way(&estimate, Way::ScanWithFilter);
    // 2,000 KB in two pages: 1,024 KB (256 blocks) and 976 KB (244 blocks).
    assert_eq!(scan.requests, 2);
    assert_eq!(scan.eventual, Some(250.0));
    assert_eq!(scan.strong, Some(500.0));
    // An empty table spread over 4 partitions still costs a block on each.
    input.scanned = Some(SizeProfile::Exact { sizes: vec![] });
    input.partitions = 4;
    let empty = estimate_query(&input).unwrap();
    assert_eq!(way(&empty, Way::ScanWithFilter).eventual, Some(2.0));
}

fn write(kind: WriteKind, existing: Option<Item>, new_item: Option<Item>) -> WriteInput {
    WriteInput {
        table: telemetry(),
        kind,
        existing,
        new_item,
        mode: WriteMode::Single,
        condition_fails: false,
    }
}

fn reading(extra: &[(&str, AttributeValue)]) -> Item {
    let mut pairs = vec![
        ("vehicleId", s("VEH#V-7741")),
        ("recordedAt", s("TS#2026-06-23T09:00:01Z")),
    ];
    pairs.extend(extra.iter().cloned());
    item(&pairs)
}

#[test]
fn a_new_item_is_one_write_per_index_it_enters_sized_on_the_entry() {
    // A 3 KB item whose GSI entry holds only keys and `speedKph`: table 3, GSI 1 (capture S1:
    // attributes the index does not project cost it nothing). No `fuelPct`: not in the LSI.
    let new = reading(&[
        ("depotCode", s("DEP-LON-3")),
        ("speedKph", s("88")),
        ("notes", pad(2900)),
    ]);
    let estimate = estimate_write(&write(WriteKind::Put, None, Some(new))).unwrap();
    assert_eq!(estimate.table.capacity_units, 3.0);
    let gsi = &estimate.indexes[0];
    assert_eq!((gsi.writes, gsi.capacity_units), (1, 1.0));
    assert!(gsi.entry_after_bytes.unwrap() < 1024);
    assert_eq!(
        gsi.storage_after_bytes,
        Some(gsi.entry_after_bytes.unwrap() + 100)
    );
    let lsi = &estimate.indexes[1];
    assert_eq!((lsi.writes, lsi.capacity_units), (0, 0.0));
    assert_eq!(estimate.cost.capacity_units, 4.0);
    let consumed = estimate.cost.consumed_capacity(CapacityReport::Indexes).unwrap();
    assert_eq!(consumed.table.unwrap().capacity_units, 3.0);
    assert_eq!(
        consumed.global_secondary_indexes.unwrap()["ByDepot"].capacity_units,
        1.0
    );
    assert_eq!(consumed.local_secondary_indexes, None);
}

#[test]
fn moving_an_index_key_is_two_writes_each_rounded() {
    // Capture S4: a 1,517 B entry moving to another key → 2 + 2 = 4.
    let old = reading(&[("depotCode", s("A")), ("speedKph", pad(1440))]);
    let new = reading(&[("depotCode", s("B")), ("speedKph", pad(1440))]);
    let estimate = estimate_write(&write(WriteKind::Update, Some(old), Some(new))).unwrap();
    let gsi = &estimate.indexes[0];
    assert!(gsi.entry_before_bytes.unwrap() > 1024 && gsi.entry_before_bytes.unwrap() <= 2048);
    assert_eq!((gsi.writes, gsi.capacity_units), (2, 4.0));
}

#[test]
fn removing_an_index_key_deletes_the_entry_and_unchanged_entries_cost_nothing() {
    // Capture S7: removing the GSI key of an item with a ~3 KB entry → 3.
    let old = reading(&[("depotCode", s("A")), ("speedKph", pad(2950))]);
    let new = reading(&[("speedKph", pad(2950))]);
    let estimate = estimate_write(&write(WriteKind::Update, Some(old.clone()), Some(new))).unwrap();
    assert_eq!(
        (estimate.indexes[0].writes, estimate.indexes[0].capacity_units),
        (1, 3.0)
    );
    // Changing an attribute the GSI does not project leaves its entry as it was: 0.
    let mut changed = old.clone();
    changed.insert("notes".into(), s("new"));
    let estimate = estimate_write(&write(WriteKind::Update, Some(old.clone()), Some(changed))).unwrap();
    assert_eq!(
        (estimate.indexes[0].writes, estimate.indexes[0].capacity_units),
        (0, 0.0)
    );
    // Changing a projected attribute in place: one write of the larger entry.
    let mut grown = old.clone();
    grown.insert("speedKph".into(), pad(100));
    let estimate = estimate_write(&write(WriteKind::Update, Some(old.clone()), Some(grown))).unwrap();
    assert_eq!(
        (estimate.indexes[0].writes, estimate.indexes[0].capacity_units),
        (1, 3.0)
    );
    // Deleting the item removes its entry: one write of the entry's size.
    let estimate = estimate_write(&write(WriteKind::Delete, Some(old), None)).unwrap();
    assert_eq!(estimate.indexes[0].capacity_units, 3.0);
    assert_eq!(estimate.table.capacity_units, 3.0);
}

#[test]
fn lsi_writes_are_charged_to_the_table_and_reported_under_the_lsi() {
    let new = reading(&[("fuelPct", s("42"))]);
    let estimate = estimate_write(&write(WriteKind::Put, None, Some(new))).unwrap();
    let lsi = &estimate.indexes[1];
    assert!(lsi.charged_to_table);
    assert_eq!((lsi.writes, lsi.capacity_units), (1, 1.0));
    let consumed = estimate.cost.consumed_capacity(CapacityReport::Indexes).unwrap();
    assert_eq!(
        consumed.local_secondary_indexes.unwrap()["ByFuel"].capacity_units,
        1.0
    );
}

#[test]
fn transactions_double_the_table_not_the_indexes() {
    let new = reading(&[("depotCode", s("A")), ("notes", pad(1500))]);
    let mut input = write(WriteKind::Put, None, Some(new));
    input.mode = WriteMode::Transactional;
    let estimate = estimate_write(&input).unwrap();
    assert_eq!(estimate.table.capacity_units, 4.0);
    assert_eq!(estimate.indexes[0].capacity_units, 1.0);
    assert_eq!(estimate.cost.capacity_units, 5.0);
}

#[test]
fn a_failed_condition_writes_nothing_and_still_charges_the_table() {
    let old = reading(&[("depotCode", s("A")), ("notes", pad(2500))]);
    let new = reading(&[("depotCode", s("B"))]);
    let mut input = write(WriteKind::Put, Some(old), Some(new.clone()));
    input.condition_fails = true;
    let estimate = estimate_write(&input).unwrap();
    assert_eq!(estimate.cost.capacity_units, 3.0);
    assert!(estimate.cost.indexes.is_empty());
    assert!(estimate.indexes.iter().all(|i| i.writes == 0));
    // No item at the key: one unit.
    let mut input = write(WriteKind::Put, None, Some(new));
    input.condition_fails = true;
    assert_eq!(estimate_write(&input).unwrap().cost.capacity_units, 1.0);
}

#[test]
fn batch_writes_round_each_item_and_refuse_updates() {
    // Rule B.3: 500 B + 3.5 KB in one BatchWriteItem → 1 + 4 = 5 units.
    let table = TableShape {
        name: "Plain".into(),
        key: key("pk", None),
        indexes: vec![],
    };
    let small = item(&[("pk", s("a")), ("v", pad(496))]);
    let large = item(&[("pk", s("b")), ("v", pad(3580))]);
    assert_eq!(item_size(&small), 500);
    assert_eq!(item_size(&large), 3584);
    let import = estimate_import(&table, &[small, large], 2).unwrap();
    assert_eq!(import.table_units, 5.0);
    assert_eq!(import.requests, 1);
    assert!(import.exact);
    let mut input = write(WriteKind::Update, None, Some(reading(&[])));
    input.mode = WriteMode::Batch;
    assert!(estimate_write(&input).is_err());
}

#[test]
fn an_import_counts_calls_and_index_fan_out() {
    let items: Vec<Item> = (0..10)
        .map(|i| {
            item(&[
                ("vehicleId", s(&format!("V{i}"))),
                ("recordedAt", s("TS")),
                ("depotCode", s("D")),
                ("notes", pad(600)),
            ])
        })
        .collect();
    // Ten sampled items stand for a thousand.
    let import = estimate_import(&telemetry(), &items, 1000).unwrap();
    assert_eq!(import.requests, 40);
    assert_eq!(import.table_units, 1000.0);
    assert_eq!(
        import.index_units,
        vec![("ByDepot".into(), 1000.0), ("ByFuel".into(), 0.0)]
    );
    assert!(!import.exact);
}

#[test]
fn reconciliation_explains_lsi_fetches_and_partition_minimums() {
    // Estimated without fetches; the engine fetched four items from the table.
    let input = query(
        telemetry(),
        Some("ByFuel"),
        SizeProfile::Exact { sizes: vec![200; 4] },
    );
    let estimate = estimate_query(&input).unwrap();
    let page = &estimate.query[1].pages[0];
    let mut actual = page.consumed_capacity(CapacityReport::Indexes).unwrap();
    assert!(reconcile(page, &actual).matches);
    actual.table = Some(Capacity {
        capacity_units: 4.0,
        ..Default::default()
    });
    actual.capacity_units = 5.0;
    let result = reconcile(page, &actual);
    assert!(!result.matches);
    assert!(
        result
            .lines
            .iter()
            .any(|l| l.text.starts_with("Base-table fetches"))
    );

    // A Scan estimated on one partition that touched three.
    let scan = get_item(&telemetry(), None, ReadKind::Eventual);
    let actual = ConsumedCapacity {
        table_name: "Telemetry".into(),
        capacity_units: 1.5,
        ..Default::default()
    };
    let result = reconcile(&scan, &actual);
    assert!(
        result
            .lines
            .iter()
            .any(|l| l.text.starts_with("Per-partition minimum"))
    );
}

#[test]
fn inputs_and_outputs_are_plain_json() {
    // What the app receives from the UI: camelCase, items in DynamoDB JSON.
    let table = serde_json::to_value(telemetry()).unwrap();
    let input: QueryInput = serde_json::from_value(serde_json::json!({
        "table": table,
        "index": null,
        "selected": {"kind": "summary", "itemCount": 10, "totalBytes": 20480},
        "baseItems": null,
        "limit": null,
        "scanned": null,
    }))
    .unwrap();
    assert_eq!(input.partitions, 1);
    let estimate = serde_json::to_value(estimate_query(&input).unwrap()).unwrap();
    assert_eq!(estimate["query"][0]["capacityUnits"], 2.5);
    assert_eq!(
        estimate["alternatives"][1]["blocksRange"],
        serde_json::json!([10, 15])
    );

    let write: WriteInput = serde_json::from_value(serde_json::json!({
        "table": serde_json::to_value(telemetry()).unwrap(),
        "kind": "Put",
        "existing": null,
        "newItem": {"vehicleId": {"S": "V"}, "recordedAt": {"S": "T"}, "depotCode": {"S": "D"}},
    }))
    .unwrap();
    let estimate = serde_json::to_value(estimate_write(&write).unwrap()).unwrap();
    assert_eq!(estimate["cost"]["capacityUnits"], 2.0);
    // vehicleId + V, recordedAt + T, depotCode + D: 10 + 11 + 10 bytes.
    assert_eq!(estimate["indexes"][0]["entryAfterBytes"], 31);
}

#[test]
fn batch_and_transaction_requests_add_their_items() {
    // Rule B.2: BatchGetItem of 1.5 KB + 6.5 KB + a missing key → 4 KB + 8 KB + 4 KB, strong.
    let batch = batch_get(&telemetry(), &[Some(1536), Some(6656), None], ReadKind::Strong).unwrap();
    assert_eq!(batch.capacity_units, 4.0);
    let consumed = batch.consumed_capacity(CapacityReport::Total).unwrap();
    assert_eq!(
        (consumed.capacity_units, consumed.read_capacity_units),
        (4.0, None)
    );
    // TransactGetItems: ×2 per block, each item rounded first; units mirrored as read units.
    let transact = transact_get(&telemetry(), &[Some(1536), Some(6656)]).unwrap();
    let consumed = transact.consumed_capacity(CapacityReport::Indexes).unwrap();
    assert_eq!(
        (consumed.capacity_units, consumed.read_capacity_units),
        (6.0, Some(6.0))
    );
    assert!(batch_get(&telemetry(), &[None; 101], ReadKind::Eventual).is_err());

    // A transaction of two puts: each ×2 on the table, index arms once, write units mirrored.
    let mut parts = Vec::new();
    for depot in ["A", "B"] {
        let mut input = write(
            WriteKind::Put,
            None,
            Some(reading(&[("depotCode", s(depot)), ("notes", pad(1100))])),
        );
        input.mode = WriteMode::Transactional;
        parts.push(estimate_write(&input).unwrap().cost);
    }
    let transaction = RequestCost::sum(&parts).unwrap();
    let consumed = transaction.consumed_capacity(CapacityReport::Indexes).unwrap();
    assert_eq!(consumed.table.unwrap().capacity_units, 8.0);
    assert_eq!(
        consumed.global_secondary_indexes.unwrap()["ByDepot"].capacity_units,
        2.0
    );
    assert_eq!(
        (consumed.capacity_units, consumed.write_capacity_units),
        (10.0, Some(10.0))
    );
    // Reads and writes do not add up into one request.
    assert!(RequestCost::sum(&[parts[0].clone(), batch]).is_err());
    assert!(RequestCost::sum(&[]).is_err());
}

#[test]
fn counts_are_said_with_their_noun_and_grouped_by_thousands() {
    assert_eq!(counted(0, "item", "items"), "0 items");
    assert_eq!(counted(1, "item", "items"), "1 item");
    assert_eq!(counted(2, "block", "blocks"), "2 blocks");
    assert_eq!(counted(999, "page", "pages"), "999 pages");
    assert_eq!(counted(1_000, "byte", "bytes"), "1,000 bytes");
    assert_eq!(counted(10_710, "item", "items"), "10,710 items");
    assert_eq!(counted(988_741, "byte", "bytes"), "988,741 bytes");
    assert_eq!(
        counted(u64::MAX, "byte", "bytes"),
        "18,446,744,073,709,551,615 bytes"
    );
}

#[test]
fn the_ways_to_read_sixty_items_name_their_requests_and_blocks_in_words() {
    // The Cost view's "same items, other ways" lines, for the seed's sixty readings of 92 bytes.
    let text: Vec<String> = super::read::item_by_item(&SizeProfile::Exact { sizes: vec![92; 60] })
        .into_iter()
        .flat_map(|way| way.lines.into_iter().map(|line| line.text))
        .collect();
    assert!(
        text.contains(&"60 GetItem requests, one per item".to_owned()),
        "{text:?}"
    );
    assert!(
        text.contains(&"1 request of at most 100 keys".to_owned()),
        "{text:?}"
    );
    assert!(
        text.contains(&"Each of the 60 items rounds up to 4 KB on its own: 60 blocks in all".to_owned()),
        "{text:?}"
    );
}

#[test]
fn byte_counts_read_as_the_ui_writes_them_grouped_with_their_size_beside() {
    assert_eq!(bytes(1000), "1,000 B");
    assert_eq!(bytes(2150), "2,150 B (2.1 KB)");
    assert_eq!(bytes(988_740), "988,740 B (966 KB)");
    assert_eq!(bytes(3 * 1024 * 1024), "3,145,728 B (3.0 MB)");
}
