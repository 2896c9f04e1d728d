//! The cost commands and the indexes-side-by-side view on the embedded demo data: estimates
//! before a request, the ConsumedCapacity the app's own query and put commands then report, the
//! seed articles' examples, money, hot partitions, and the layout of items across indexes.

use std::collections::BTreeMap;
use std::sync::Arc;

use dynotable_app::dto::cost::{
    KeySpread, ReadConsistency, ReadWayKind, TrafficInput, Workload, WriteEstimateInput, WriteKindInput,
    WriteModeInput,
};
use dynotable_app::dto::index_view::ViewSource;
use dynotable_app::dto::{AttributeValue, Item, QueryInput, SortKeyCondition};
use dynotable_app::profiles::EMBEDDED_ID;
use dynotable_app::secrets::MemoryStore;
use dynotable_app::{App, ErrorCode, Expectation};

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_owned())
}

async fn app() -> (App, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    app.engine().await.unwrap();
    (app, dir)
}

fn query(table: &str, index: Option<&str>, partition: AttributeValue, consistent: bool) -> QueryInput {
    QueryInput {
        more_partition_values: Vec::new(),
        sort_equal_values: Vec::new(),
        table: table.into(),
        index: index.map(str::to_owned),
        partition_value: partition,
        sort_condition: None,
        scan_index_forward: true,
        limit: None,
        consistent_read: consistent,
        projection: None,
        filter: None,
        filter_names: None,
        filter_values: None,
        exclusive_start_key: None,
    }
}

fn size(item: &Item) -> usize {
    dynotable_types::item_size(&dynotable_app::dto::attribute::item_to_engine(item).unwrap())
}

/// A SensorReadings reading of exactly `bytes` bytes by DynamoDB's item-size rule.
fn reading(device: &str, ts: u32, bytes: usize) -> Item {
    let mut item: Item = BTreeMap::from([
        ("deviceId".to_owned(), s(device)),
        ("readingTs".to_owned(), AttributeValue::N(ts.to_string())),
        ("samples".to_owned(), s("")),
    ]);
    let pad = bytes - size(&item);
    item.insert("samples".to_owned(), s(&"7".repeat(pad)));
    assert_eq!(size(&item), bytes);
    item
}

#[tokio::test]
async fn ten_two_kilobyte_readings_cost_what_the_seed_article_says_before_and_after() {
    let (app, _dir) = app().await;
    for ts in 0..10 {
        app.put_item(
            EMBEDDED_ID,
            "SensorReadings",
            reading("DEV#seed", ts, 2048),
            Expectation::Anything,
        )
        .await
        .unwrap();
    }
    let input = query("SensorReadings", None, s("DEV#seed"), false);
    let estimate = app.estimate_query(EMBEDDED_ID, input.clone()).await.unwrap();
    assert_eq!(estimate.item_count, 10.0);
    assert_eq!(estimate.total_bytes, 20_480.0);
    let units = |c: ReadConsistency| {
        estimate
            .query
            .iter()
            .find(|q| q.consistency == c)
            .unwrap()
            .capacity_units
    };
    assert_eq!(units(ReadConsistency::Eventual), 2.5);
    assert_eq!(units(ReadConsistency::Strong), 5.0);
    let gets = estimate
        .alternatives
        .iter()
        .find(|w| w.way == ReadWayKind::GetItems)
        .unwrap();
    assert_eq!(
        (gets.requests, gets.eventual, gets.strong),
        (10.0, Some(5.0), Some(10.0))
    );
    assert!(!gets.lines.is_empty(), "each way says why");
    let scan = estimate
        .alternatives
        .iter()
        .find(|w| w.way == ReadWayKind::ScanWithFilter)
        .unwrap();
    assert!(
        scan.eventual.unwrap() > 100.0,
        "a filtered scan reads the whole table: {scan:?}"
    );

    // The app's query command then reports exactly the estimate, in both consistencies.
    for (consistent, expected) in [(false, 2.5), (true, 5.0)] {
        let mut input = input.clone();
        input.consistent_read = consistent;
        let estimate = app.estimate_query(EMBEDDED_ID, input.clone()).await.unwrap();
        assert_eq!(estimate.first_page.total, expected);
        let page = app.query(EMBEDDED_ID, input.clone()).await.unwrap();
        let actual = page.consumed_capacity.unwrap();
        assert_eq!(actual.total, expected);
        let reconciled = app.reconcile_query(EMBEDDED_ID, input, actual).await.unwrap();
        assert!(reconciled.matches, "{reconciled:?}");
        assert!(
            reconciled.rows.iter().all(|r| r.difference == Some(0.0)),
            "{reconciled:?}"
        );
    }
}

#[tokio::test]
async fn query_estimates_equal_what_the_query_command_reports_on_the_demo_tables() {
    let (app, _dir) = app().await;
    let telemetry_window = QueryInput {
        more_partition_values: Vec::new(),
        sort_equal_values: Vec::new(),
        sort_condition: Some(SortKeyCondition::Between {
            low: s("TS#2025-03-14T09:00:00Z"),
            high: s("TS#2025-03-14T09:09:00Z"),
        }),
        ..query("Telemetry", None, s("VEH#V-7741"), true)
    };
    let cases = vec![
        query("Pets", None, s("Dog"), false),
        query("Telemetry", None, s("VEH#V-1007"), true),
        telemetry_window,
        // The big device's 700 readings: two 1 MB pages.
        query("SensorReadings", None, s("DEV#a1b2"), false),
        query("Telemetry", Some("ByDepot"), s("DEP-N"), false),
        // An LSI projecting only `total`: what it projects is read from the index alone...
        query("CustomerOrders", Some("ByOrderDate"), s("CUST#001"), true),
        QueryInput {
            more_partition_values: Vec::new(),
            sort_equal_values: Vec::new(),
            projection: Some("total".into()),
            ..query("CustomerOrders", Some("ByOrderDate"), s("CUST#002"), false)
        },
        // ...asking for more fetches each item from the table too, charged to the table.
        QueryInput {
            more_partition_values: Vec::new(),
            sort_equal_values: Vec::new(),
            projection: Some("total, status".into()),
            ..query("CustomerOrders", Some("ByOrderDate"), s("CUST#003"), true)
        },
        QueryInput {
            more_partition_values: Vec::new(),
            sort_equal_values: Vec::new(),
            projection: Some("lines".into()),
            sort_condition: Some(SortKeyCondition::BeginsWith { value: s("2025") }),
            ..query("CustomerOrders", Some("ByOrderDate"), s("CUST#004"), false)
        },
        query("Music", Some("GenreAlbumTitle"), s("Rock"), false),
    ];
    for input in cases {
        let estimate = app.estimate_query(EMBEDDED_ID, input.clone()).await.unwrap();
        let page = app.query(EMBEDDED_ID, input.clone()).await.unwrap();
        let actual = page.consumed_capacity.clone().unwrap();
        let reconciled = app
            .reconcile_query(EMBEDDED_ID, input.clone(), actual.clone())
            .await
            .unwrap();
        assert!(
            reconciled.matches,
            "{} {:?}: estimated {:?}, reported {actual:?}: {reconciled:?}",
            input.table, input.index, estimate.first_page
        );
        assert_eq!(estimate.first_page.total, actual.total, "{input:?}");
        if input.projection.as_deref().is_some_and(|p| p != "total") {
            assert!(
                actual.table.unwrap() > 0.0,
                "the LSI fetched from the table: {actual:?}"
            );
        }
        // An index-only read reports the table at 0; the estimate leaves it out.
        assert_eq!(
            estimate.first_page.table.unwrap_or(0.0),
            actual.table.unwrap_or(0.0),
            "{input:?}"
        );
        for index in &actual.indexes {
            let estimated = estimate
                .first_page
                .indexes
                .iter()
                .find(|i| i.name == index.name)
                .unwrap();
            assert_eq!(estimated.units, index.units, "{input:?}");
        }
    }
}

#[tokio::test]
async fn a_continued_page_and_a_sparse_lsi_are_explained_not_hidden() {
    let (app, _dir) = app().await;
    let mut input = query("SensorReadings", None, s("DEV#a1b2"), false);
    let first = app.query(EMBEDDED_ID, input.clone()).await.unwrap();
    input.exclusive_start_key = first.last_evaluated_key.clone();
    let second = app.query(EMBEDDED_ID, input.clone()).await.unwrap();
    let reconciled = app
        .reconcile_query(EMBEDDED_ID, input, second.consumed_capacity.unwrap())
        .await
        .unwrap();
    assert!(
        reconciled.lines.iter().any(|l| l.text.contains("continued page")),
        "{reconciled:?}"
    );
    // A GSI refuses strong consistency: the estimate says so and gives the eventual figure.
    let estimate = app
        .estimate_query(EMBEDDED_ID, query("Telemetry", Some("ByDepot"), s("DEP-N"), true))
        .await
        .unwrap();
    assert_eq!(estimate.requested, ReadConsistency::Eventual);
    assert_eq!(estimate.query.len(), 1);
    assert!(
        estimate
            .lines
            .iter()
            .any(|l| l.text.contains("GSI is read eventually"))
    );
}

fn telemetry_reading(minute: u32, depot: Option<&str>) -> Item {
    let mut item: Item = BTreeMap::from([
        ("vehicleId".to_owned(), s("VEH#T-1")),
        (
            "recordedAt".to_owned(),
            s(&format!("TS#2025-06-01T10:{minute:02}:00Z")),
        ),
        ("speedKph".to_owned(), AttributeValue::N("61".into())),
        ("notes".to_owned(), s(&"x".repeat(1500))),
    ]);
    if let Some(depot) = depot {
        item.insert("depotCode".to_owned(), s(depot));
    }
    item
}

#[tokio::test]
async fn write_estimates_equal_what_the_put_and_delete_commands_report() {
    let (app, _dir) = app().await;
    let new = telemetry_reading(1, Some("DEP-NORTH"));
    let put = WriteEstimateInput {
        kind: WriteKindInput::Put,
        existing: None,
        new_item: Some(new.clone()),
        mode: WriteModeInput::Single,
        condition_fails: false,
    };
    let estimate = app
        .estimate_write(EMBEDDED_ID, "Telemetry", put.clone())
        .await
        .unwrap();
    // ~1.6 KB: 2 WCU on the table, 2 on the GSI (one new entry of the same size).
    assert_eq!(estimate.table_units, 2.0);
    assert_eq!(estimate.indexes[0].writes, 1);
    assert_eq!(estimate.cost.total, 4.0);
    let outcome = app
        .put_item(EMBEDDED_ID, "Telemetry", new.clone(), Expectation::Absent)
        .await
        .unwrap();
    let actual = outcome.consumed_capacity.unwrap();
    assert_eq!(actual.total, estimate.cost.total);
    let reconciled = app
        .reconcile_write(EMBEDDED_ID, "Telemetry", put, actual)
        .await
        .unwrap();
    assert!(reconciled.matches, "{reconciled:?}");

    // Moving the reading to another depot: the GSI key changes, two index writes.
    let moved = telemetry_reading(1, Some("DEP-SOUTH"));
    let update = WriteEstimateInput {
        kind: WriteKindInput::Put,
        existing: Some(new.clone()),
        new_item: Some(moved.clone()),
        mode: WriteModeInput::Single,
        condition_fails: false,
    };
    let estimate = app
        .estimate_write(EMBEDDED_ID, "Telemetry", update.clone())
        .await
        .unwrap();
    assert_eq!(estimate.indexes[0].writes, 2);
    let actual = app
        .put_item(
            EMBEDDED_ID,
            "Telemetry",
            moved.clone(),
            Expectation::Unchanged { original: new },
        )
        .await
        .unwrap()
        .consumed_capacity
        .unwrap();
    assert_eq!(actual.total, estimate.cost.total);
    assert!(
        app.reconcile_write(EMBEDDED_ID, "Telemetry", update, actual)
            .await
            .unwrap()
            .matches
    );

    // Transactional doubles the table's units; a failed condition writes nothing and is
    // charged on the larger of the existing and the attempted item, no index touched.
    let transactional = app
        .estimate_write(
            EMBEDDED_ID,
            "Telemetry",
            WriteEstimateInput {
                kind: WriteKindInput::Put,
                existing: Some(moved.clone()),
                new_item: Some(telemetry_reading(1, None)),
                mode: WriteModeInput::Transactional,
                condition_fails: false,
            },
        )
        .await
        .unwrap();
    assert_eq!(transactional.table_units, 4.0);
    assert_eq!(transactional.indexes[0].writes, 1, "the entry disappears");
    let failed = app
        .estimate_write(
            EMBEDDED_ID,
            "Telemetry",
            WriteEstimateInput {
                kind: WriteKindInput::Put,
                existing: Some(moved.clone()),
                new_item: Some(moved.clone()),
                mode: WriteModeInput::Single,
                condition_fails: true,
            },
        )
        .await
        .unwrap();
    assert_eq!(failed.cost.total, 2.0);
    assert!(failed.cost.indexes.iter().all(|i| i.units == 0.0));

    // Delete: the item and its GSI entry.
    let delete = WriteEstimateInput {
        kind: WriteKindInput::Delete,
        existing: Some(moved.clone()),
        new_item: None,
        mode: WriteModeInput::Single,
        condition_fails: false,
    };
    let estimate = app
        .estimate_write(EMBEDDED_ID, "Telemetry", delete.clone())
        .await
        .unwrap();
    let key: Item = moved
        .iter()
        .filter(|(n, _)| *n == "vehicleId" || *n == "recordedAt")
        .map(|(n, v)| (n.clone(), v.clone()))
        .collect();
    let actual = app
        .delete_item(EMBEDDED_ID, "Telemetry", key, Expectation::Anything)
        .await
        .unwrap()
        .consumed_capacity
        .unwrap();
    assert_eq!(actual.total, estimate.cost.total);
    assert!(
        app.reconcile_write(EMBEDDED_ID, "Telemetry", delete, actual)
            .await
            .unwrap()
            .matches
    );
}

#[tokio::test]
async fn an_import_is_estimated_in_batches_of_25_with_index_units() {
    let (app, _dir) = app().await;
    let sample: Vec<Item> = (0..10)
        .map(|m| telemetry_reading(m, (m % 2 == 0).then_some("DEP-EAST")))
        .collect();
    let estimate = app
        .estimate_import(EMBEDDED_ID, "Telemetry", sample.clone(), 10.0)
        .await
        .unwrap();
    assert!(estimate.exact);
    assert_eq!(estimate.requests, 1.0);
    assert_eq!(estimate.table_units, 20.0, "ten ~1.6 KB items, 2 WCU each");
    assert_eq!(estimate.indexes[0].units, 10.0, "five entries in the sparse GSI");
    let scaled = app
        .estimate_import(EMBEDDED_ID, "Telemetry", sample, 1000.0)
        .await
        .unwrap();
    assert_eq!(scaled.requests, 40.0);
    assert!(!scaled.exact);
    assert_eq!(scaled.table_units, 2000.0);
    let err = app
        .estimate_import(EMBEDDED_ID, "Telemetry", Vec::new(), -1.0)
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::Validation);
}

#[tokio::test]
async fn ten_thousand_writes_a_second_over_fifty_keys_is_about_200_wcu_per_key() {
    let (app, _dir) = app().await;
    let traffic = |spread, writes| TrafficInput {
        reads_per_second: 0.0,
        read_units_per_request: 0.5,
        writes_per_second: writes,
        write_units_per_request: 1.0,
        spread,
    };
    let report = app
        .hot_partitions(
            EMBEDDED_ID,
            "Telemetry",
            traffic(KeySpread::Uniform { keys: 50.0 }, 10_000.0),
        )
        .await
        .unwrap();
    assert_eq!(report.table_write_units, 10_000.0);
    assert_eq!(report.keys[0].keys, 50.0);
    assert!((report.keys[0].write_units - 200.0).abs() < 1e-9, "{report:?}");
    assert_eq!(report.throttling_keys, 0.0);
    assert_eq!(report.partition_write_units, 1000.0);

    // By the demo's statistics, the vehicle reporting every minute takes most of the writes.
    let report = app
        .hot_partitions(
            EMBEDDED_ID,
            "Telemetry",
            traffic(KeySpread::ByItemCount, 10_000.0),
        )
        .await
        .unwrap();
    let hottest = &report.keys[0];
    assert_eq!(hottest.partition_value, Some(s("VEH#V-7741")));
    assert_eq!(hottest.label, "VEH#V-7741");
    assert!(hottest.throttles, "{hottest:?}");
    assert!(report.throttling_keys >= 1.0);
}

#[test]
fn monthly_cost_uses_the_editable_price_table() {
    let prices = dynotable_app::costs::default_prices();
    assert_eq!(prices[0].as_of, "2024-11-01");
    let workload = Workload {
        reads_per_second: 100.0,
        read_units_per_request: 0.5,
        writes_per_second: 10.0,
        write_units_per_request: 2.0,
        target_utilisation: 1.0,
        stored_bytes: 0.0,
    };
    let cost = dynotable_app::costs::monthly_cost(prices[0].clone(), workload.clone()).unwrap();
    // 50 RRU/s for 730 hours at $0.125 per million.
    let reads = 50.0 * 3600.0 * 730.0 / 1e6 * 0.125;
    assert!((cost.on_demand.reads - reads).abs() < 1e-6, "{cost:?}");
    assert_eq!(cost.provisioned_rcu, 50.0);
    assert_eq!(cost.provisioned_wcu, 20.0);
    let mut doubled = prices[0].clone();
    doubled.on_demand_read_per_million *= 2.0;
    let dearer = dynotable_app::costs::monthly_cost(doubled, workload.clone()).unwrap();
    assert!((dearer.on_demand.reads - 2.0 * reads).abs() < 1e-6);
    let bad = Workload {
        reads_per_second: -1.0,
        ..workload
    };
    assert!(dynotable_app::costs::monthly_cost(prices[0].clone(), bad).is_err());
}

#[tokio::test]
async fn the_sparse_gsi_shows_which_items_are_absent_and_why() {
    let (app, _dir) = app().await;
    let view = app
        .indexes_side_by_side(
            EMBEDDED_ID,
            "Telemetry",
            ViewSource::Partition {
                value: s("VEH#V-1007"),
                limit: 31,
            },
        )
        .await
        .unwrap();
    assert_eq!(view.items.len(), 31);
    assert_eq!(view.columns.len(), 2);
    assert_eq!(view.columns[0].index, None);
    assert_eq!(view.columns[0].collections.len(), 1, "one base collection");
    let gsi = &view.columns[1];
    assert_eq!(gsi.index.as_deref(), Some("ByDepot"));
    let present: usize = gsi.collections.iter().map(|c| c.entries.len()).sum();
    assert!(!gsi.absent.is_empty(), "the demo's yard readings lack depotCode");
    assert_eq!(present + gsi.absent.len(), 31);
    for absent in &gsi.absent {
        assert_eq!(absent.missing, vec!["depotCode".to_owned()]);
        assert!(absent.reason.contains("depotCode"));
        assert!(!view.items[absent.item_id as usize].item.contains_key("depotCode"));
    }
    // Every item has a place (or an absence) in every column, and the places agree.
    for (id, places) in view.placements.iter().enumerate() {
        assert_eq!(places.len(), 2);
        let base = &view.columns[0].collections[places[0].collection.unwrap() as usize];
        assert_eq!(
            base.entries[places[0].position.unwrap() as usize].item_id,
            id as u32
        );
    }
    // Entries are in sort-key order inside each GSI collection.
    for collection in &gsi.collections {
        let keys: Vec<_> = collection
            .entries
            .iter()
            .map(|e| e.sort_value.clone().unwrap().display_text())
            .collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
    }
    assert!(view.collection_limits.is_none(), "no LSI, no 10 GB gauge");
}

#[tokio::test]
async fn projections_and_the_lsi_collection_gauge_are_shown() {
    let (app, _dir) = app().await;
    let music = app
        .indexes_side_by_side(EMBEDDED_ID, "Music", ViewSource::Scan { limit: 60 })
        .await
        .unwrap();
    let keys_only = &music.columns[1];
    assert_eq!(
        keys_only.query_returns,
        vec!["AlbumTitle", "Artist", "Genre", "SongTitle"],
        "a KEYS_ONLY GSI returns the table's and the index's keys"
    );
    assert!(keys_only.query_note.contains("ValidationException"));

    let orders = app
        .indexes_side_by_side(
            EMBEDDED_ID,
            "CustomerOrders",
            ViewSource::Partition {
                value: s("CUST#big"),
                limit: 20,
            },
        )
        .await
        .unwrap();
    let lsi = &orders.columns[1];
    assert_eq!(
        lsi.query_returns,
        vec!["customerId", "orderDate", "orderId", "total"]
    );
    assert!(lsi.query_note.contains("fetches each item from the table"));
    let limits = orders.collection_limits.unwrap();
    assert_eq!(limits.limit_bytes, 10.0 * 1024.0 * 1024.0 * 1024.0);
    assert_eq!(limits.collections[0].partition_value, s("CUST#big"));
    assert!(limits.collections[0].size_bytes > 0.0);
    assert!(!limits.collections[0].warning);
    assert!(orders.truncated);
    assert!(orders.read_units.unwrap() > 0.0);
}
