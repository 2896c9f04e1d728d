//! On an AWS connection (dynalite here, as a custom endpoint) the Collections view draws a box's
//! first rows from what the statistics scan read, not a Query of its own, when those rows are
//! exactly what the Query returns; a write from the app forgets them; a scan stopped in the
//! middle of a collection does not serve that collection.

use crate::aws_statistics::{READINGS, VEHICLES, fleet, request};

use dynotable_app::Expectation;
use dynotable_app::dto::{AttributeValue, Item, PageStop, QueryInput, QueryPage};

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_owned())
}

/// The Collections view's Query of a box: its first `limit` rows, forward, eventually
/// consistent (`boxQuery` in `useCollections.ts`).
fn box_query(index: Option<&str>, value: &str, limit: u32, start: Option<Item>) -> QueryInput {
    QueryInput {
        table: "Fleet".into(),
        index: index.map(str::to_owned),
        partition_value: s(value),
        more_partition_values: Vec::new(),
        sort_equal_values: Vec::new(),
        sort_condition: None,
        scan_index_forward: true,
        limit: Some(limit),
        consistent_read: false,
        projection: None,
        filter: None,
        filter_names: None,
        filter_values: None,
        exclusive_start_key: start,
    }
}

/// The items a page returned, by their sort key.
fn sort_keys(page: &QueryPage) -> Vec<String> {
    page.items
        .iter()
        .map(|item| item["recordedAt"].display_text())
        .collect()
}

#[tokio::test]
async fn a_box_is_drawn_from_the_rows_the_statistics_scan_kept_and_reads_on_with_a_query() {
    let (_dynalite, _dir, app, profile) = fleet().await;
    // Before any statistics scan, a box is read with a Query.
    let before = app
        .collection_page(&profile, &box_query(None, "VEH#V-007", 20, None))
        .await
        .unwrap();
    assert_eq!(before.kept_from_scan, None);
    assert!(before.consumed_capacity.is_some());

    let stats = app
        .gather_statistics(&profile, "k1", request(None, None, false), |_| {})
        .await
        .unwrap();
    assert!(stats.scan.unwrap().complete);

    // The whole collection (META and nine readings) from the scan: no read sent, nothing
    // consumed, the same items in the same order as the Query returned (META sorts before TS#).
    let kept = app
        .collection_page(&profile, &box_query(None, "VEH#V-007", 20, None))
        .await
        .unwrap();
    assert!(kept.kept_from_scan.is_some(), "{kept:?}");
    assert_eq!(kept.consumed_capacity, None);
    assert_eq!(kept.items, before.items);
    assert_eq!(kept.items.len(), READINGS + 1);
    assert_eq!(sort_keys(&kept)[0], "META");
    assert_eq!((kept.count, kept.scanned_count), (10, 10));
    assert_eq!(kept.last_evaluated_key, None);
    assert_eq!(kept.stop, PageStop::End);

    // A Limit that cuts the collection: the first four, and the fourth's key to read on from.
    let cut = app
        .collection_page(&profile, &box_query(None, "VEH#V-007", 4, None))
        .await
        .unwrap();
    assert!(cut.kept_from_scan.is_some());
    assert_eq!(sort_keys(&cut), ["META", "TS#00", "TS#01", "TS#02"]);
    assert_eq!(cut.stop, PageStop::Limit);
    let last = cut.last_evaluated_key.clone().expect("a key to read on from");
    assert_eq!(
        last,
        Item::from([
            ("vehicleId".to_owned(), s("VEH#V-007")),
            ("recordedAt".to_owned(), s("TS#02")),
        ])
    );
    // Reading on is a Query from that key, sent to the service: it returns the rest, exactly.
    let rest = app
        .collection_page(&profile, &box_query(None, "VEH#V-007", 20, Some(last)))
        .await
        .unwrap();
    assert_eq!(rest.kept_from_scan, None);
    assert!(rest.consumed_capacity.is_some());
    let mut both = cut.items.clone();
    both.extend(rest.items);
    assert_eq!(both, before.items);

    // A Query the user runs from the bar is always sent, kept rows or not.
    let ran = app
        .query(&profile, box_query(None, "VEH#V-007", 20, None))
        .await
        .unwrap();
    assert_eq!(ran.kept_from_scan, None);
    assert!(ran.consumed_capacity.is_some());

    // Other shapes of Query are sent too: newest first, or strongly consistent.
    let mut newest = box_query(None, "VEH#V-007", 20, None);
    newest.scan_index_forward = false;
    assert_eq!(
        app.collection_page(&profile, &newest)
            .await
            .unwrap()
            .kept_from_scan,
        None
    );
    let mut strong = box_query(None, "VEH#V-007", 20, None);
    strong.consistent_read = true;
    assert_eq!(
        app.collection_page(&profile, &strong)
            .await
            .unwrap()
            .kept_from_scan,
        None
    );
}

#[tokio::test]
async fn a_write_from_the_app_forgets_the_kept_rows_of_its_table() {
    let (_dynalite, _dir, app, profile) = fleet().await;
    app.gather_statistics(&profile, "k2", request(None, None, false), |_| {})
        .await
        .unwrap();
    app.gather_statistics(&profile, "k3", request(Some("ByDepot"), None, false), |_| {})
        .await
        .unwrap();
    let page = |value: &'static str, index: Option<&'static str>| {
        let app = app.clone();
        let profile = profile.clone();
        async move {
            app.collection_page(&profile, &box_query(index, value, 20, None))
                .await
                .unwrap()
        }
    };
    assert!(page("VEH#V-012", None).await.kept_from_scan.is_some());
    assert!(page("DEPOT#0", Some("ByDepot")).await.kept_from_scan.is_some());

    let reading = Item::from([
        ("vehicleId".to_owned(), s("VEH#V-012")),
        ("recordedAt".to_owned(), s("TS#99")),
        ("payload".to_owned(), s("new")),
    ]);
    app.put_item(&profile, "Fleet", reading, Expectation::Absent)
        .await
        .unwrap();
    // The box is read again, and shows the new reading; the index's rows are forgotten too.
    let after = page("VEH#V-012", None).await;
    assert_eq!(after.kept_from_scan, None);
    assert_eq!(sort_keys(&after).last().map(String::as_str), Some("TS#99"));
    assert_eq!(page("DEPOT#0", Some("ByDepot")).await.kept_from_scan, None);
}

#[tokio::test]
async fn an_index_box_is_drawn_from_kept_rows_only_when_the_whole_collection_was_kept() {
    let (_dynalite, _dir, app, profile) = fleet().await;
    app.gather_statistics(&profile, "k4", request(Some("ByDepot"), None, false), |_| {})
        .await
        .unwrap();
    // DEPOT#1 holds vehicles 4, 16, 28 (v % 4 == 0 and v % 3 == 1): three META items.
    let sent = app
        .query(&profile, box_query(Some("ByDepot"), "DEPOT#1", 20, None))
        .await
        .unwrap();
    let kept = app
        .collection_page(&profile, &box_query(Some("ByDepot"), "DEPOT#1", 20, None))
        .await
        .unwrap();
    assert!(kept.kept_from_scan.is_some());
    assert_eq!(kept.stop, PageStop::End);
    let vehicles = |page: &QueryPage| {
        let mut v: Vec<String> = page.items.iter().map(|i| i["vehicleId"].display_text()).collect();
        v.sort();
        v
    };
    assert_eq!(vehicles(&kept), ["VEH#V-004", "VEH#V-016", "VEH#V-028"]);
    assert_eq!(vehicles(&kept), vehicles(&sent));
    // A Limit that would cut an index's collection: the Query is sent (items of equal index
    // keys have no documented order to continue from).
    let cut = app
        .collection_page(&profile, &box_query(Some("ByDepot"), "DEPOT#1", 2, None))
        .await
        .unwrap();
    assert_eq!(cut.kept_from_scan, None);
    assert_eq!(cut.items.len(), 2);
}

#[tokio::test]
async fn a_stopped_scan_does_not_serve_the_collection_it_stopped_in() {
    let (_dynalite, _dir, app, profile) = fleet().await;
    let partial = app
        .gather_statistics(&profile, "k5", request(None, Some(8.0), false), |_| {})
        .await
        .unwrap();
    let scan = partial.scan.unwrap();
    assert!(!scan.complete);
    let open = scan
        .open_collection
        .expect("the collection read last")
        .display_text();
    let whole = partial
        .collections
        .iter()
        .map(|c| c.partition_value.display_text())
        .find(|v| *v != open)
        .expect("a collection the scan read whole");
    let served = app
        .collection_page(&profile, &box_query(None, &whole, 20, None))
        .await
        .unwrap();
    assert!(served.kept_from_scan.is_some());
    assert_eq!(served.items.len(), READINGS + 1);
    let open_page = app
        .collection_page(&profile, &box_query(None, &open, 20, None))
        .await
        .unwrap();
    assert_eq!(open_page.kept_from_scan, None);
    assert_eq!(open_page.items.len(), READINGS + 1);
    // Continued to the end, the scan keeps the rest: the open collection is served whole.
    app.gather_statistics(&profile, "k6", request(None, None, true), |_| {})
        .await
        .unwrap();
    let resumed = app
        .collection_page(&profile, &box_query(None, &open, 20, None))
        .await
        .unwrap();
    assert!(resumed.kept_from_scan.is_some());
    assert_eq!(resumed.items, open_page.items);
    // Every collection is now served from kept rows.
    for v in 0..VEHICLES {
        let page = app
            .collection_page(&profile, &box_query(None, &format!("VEH#V-{v:03}"), 20, None))
            .await
            .unwrap();
        assert!(page.kept_from_scan.is_some(), "VEH#V-{v:03}");
        assert_eq!(page.items.len(), READINGS + 1);
    }
}

#[tokio::test]
async fn rows_of_more_than_a_query_page_are_left_to_the_query() {
    let (_dynalite, _dir, app, profile) = fleet().await;
    // Five readings of 300 KB: 1.5 MB, past the 1 MB a Query's page reads (rule B.4).
    for r in 0..5 {
        let reading = Item::from([
            ("vehicleId".to_owned(), s("VEH#BIG")),
            ("recordedAt".to_owned(), s(&format!("TS#{r:02}"))),
            ("payload".to_owned(), s(&"x".repeat(300 * 1024))),
        ]);
        app.put_item(&profile, "Fleet", reading, Expectation::Absent)
            .await
            .unwrap();
    }
    app.gather_statistics(&profile, "k7", request(None, None, false), |_| {})
        .await
        .unwrap();
    let big = app
        .collection_page(&profile, &box_query(None, "VEH#BIG", 20, None))
        .await
        .unwrap();
    assert_eq!(big.kept_from_scan, None);
    assert!(big.consumed_capacity.is_some());
    // Three of them (900 KB) fit: those are served.
    let three = app
        .collection_page(&profile, &box_query(None, "VEH#BIG", 3, None))
        .await
        .unwrap();
    assert!(three.kept_from_scan.is_some());
    assert_eq!(sort_keys(&three), ["TS#00", "TS#01", "TS#02"]);
    // A collection of small items beside it is still served.
    let small = app
        .collection_page(&profile, &box_query(None, "VEH#V-001", 20, None))
        .await
        .unwrap();
    assert!(small.kept_from_scan.is_some());
}
