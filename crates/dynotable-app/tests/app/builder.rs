//! The expression and query builder's commands, headless, against the embedded engine with its
//! demo data: requests built from builder state run through the connection's SDK client and
//! return what the explorer's own Query returns; typed text parses back into the same state;
//! what DynamoDB would refuse is refused before sending, with the engine's own message; saved
//! expressions survive a restart.

use std::collections::BTreeMap;
use std::sync::Arc;

use dynotable_app::builder::{
    CodeTarget, ExpressionState, KeyType, ParseOutcome, ReadOperation, ReadRequest, ReturnConsumedCapacity,
    SavedBuilderContent, SortKeyOperator, TypedRequest,
};
use dynotable_app::dto::{AttributeValue, PageStop, QueryInput, SortKeyCondition as ExplorerSortKey};
use dynotable_app::history::HistoryRequest;
use dynotable_app::profiles::EMBEDDED_ID;
use dynotable_app::secrets::MemoryStore;
use dynotable_app::{App, ErrorCode};
use dynotable_builder::{
    AttributePath, Comparator, ConditionState, Direction, ExpressionParameter, ExpressionText,
    KeyConditionState, ProjectionState, SortKeyCondition,
};
use dynotable_types::AttributeValue as Value;

fn start(dir: &std::path::Path) -> App {
    App::start_with("test", dir, Arc::new(MemoryStore::default()))
}

fn reading_key(minute: u32) -> String {
    let total = 8 * 60 + minute;
    format!("TS#2025-03-14T{:02}:{:02}:00Z", total / 60, total % 60)
}

fn number(text: &str) -> Value {
    Value::N(text.parse().unwrap())
}

/// The seed's time window: `vehicleId = :v AND recordedAt BETWEEN :from AND :to`.
fn window_condition(from: u32, to: u32) -> KeyConditionState {
    KeyConditionState {
        more_partition: Vec::new(),
        sort_equal: Vec::new(),
        partition_key: "vehicleId".into(),
        partition_value: Value::S("VEH#V-7741".into()),
        sort: Some(SortKeyCondition::Between {
            name: "recordedAt".into(),
            low: Value::S(reading_key(from)),
            high: Value::S(reading_key(to)),
        }),
    }
}

fn query(table: &str, key_condition: KeyConditionState) -> ReadRequest {
    ReadRequest {
        operation: ReadOperation::Query,
        table_name: table.into(),
        index_name: None,
        key_condition: Some(key_condition),
        filter: None,
        projection: None,
        direction: Direction::Ascending,
        limit: None,
        consistent_read: false,
        return_consumed_capacity: None,
    }
}

/// Every page of a builder request, and why each ended.
async fn run_all(app: &App, request: &ReadRequest) -> (Vec<BTreeMap<String, AttributeValue>>, Vec<PageStop>) {
    let mut items = Vec::new();
    let mut stops = Vec::new();
    let mut start = None;
    loop {
        let page = app
            .run_read_request(EMBEDDED_ID, request, start.take())
            .await
            .unwrap();
        items.extend(page.items);
        stops.push(page.stop);
        match page.last_evaluated_key {
            Some(key) => start = Some(key),
            None => return (items, stops),
        }
    }
}

#[tokio::test]
async fn the_time_window_built_from_state_runs_newest_first_like_the_explorer_query() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path());
    let mut request = query("Telemetry", window_condition(60, 69));
    request.direction = Direction::Descending;
    request.limit = Some(4);
    request.consistent_read = true;
    request.return_consumed_capacity = Some(ReturnConsumedCapacity::TOTAL);

    let built = app.build_read_request(&request, None).unwrap();
    assert_eq!(
        built.request.key_condition_expression.as_deref(),
        Some("vehicleId = :vehicleId AND recordedAt BETWEEN :recordedAt_from AND :recordedAt_to")
    );
    assert_eq!(built.request.scan_index_forward, Some(false));
    assert!(built.diagnostics.is_empty(), "{:?}", built.diagnostics);
    let body: serde_json::Value = serde_json::from_str(&built.body).unwrap();
    assert_eq!(body["TableName"], "Telemetry");
    assert_eq!(
        body["ExpressionAttributeValues"][":recordedAt_to"]["S"],
        reading_key(69)
    );
    assert_eq!(body["ReturnConsumedCapacity"], "TOTAL");

    let first = app.run_read_request(EMBEDDED_ID, &request, None).await.unwrap();
    let capacity = first.consumed_capacity.expect("TOTAL asks for the capacity");
    assert!(capacity.total > 0.0, "{capacity:?}");

    let (items, stops) = run_all(&app, &request).await;
    let seen: Vec<AttributeValue> = items.iter().map(|i| i["recordedAt"].clone()).collect();
    let expected: Vec<AttributeValue> = (60..70)
        .rev()
        .map(|m| AttributeValue::S(reading_key(m)))
        .collect();
    assert_eq!(seen, expected);
    assert_eq!(stops, [PageStop::Limit, PageStop::Limit, PageStop::End]);

    // The explorer's Query of the same window returns the same items.
    let explorer = app
        .query(
            EMBEDDED_ID,
            QueryInput {
                more_partition_values: Vec::new(),
                sort_equal_values: Vec::new(),
                table: "Telemetry".into(),
                index: None,
                partition_value: AttributeValue::S("VEH#V-7741".into()),
                sort_condition: Some(ExplorerSortKey::Between {
                    low: AttributeValue::S(reading_key(60)),
                    high: AttributeValue::S(reading_key(69)),
                }),
                scan_index_forward: false,
                limit: None,
                consistent_read: true,
                projection: None,
                filter: None,
                filter_names: None,
                filter_values: None,
                exclusive_start_key: None,
            },
        )
        .await
        .unwrap();
    assert_eq!(explorer.items, items);
}

#[tokio::test]
async fn a_filter_and_a_projection_are_applied_and_reserved_words_get_placeholders() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path());
    // The whole day of the hot vehicle, fast readings only, two attributes.
    let mut request = query(
        "Telemetry",
        KeyConditionState {
            more_partition: Vec::new(),
            sort_equal: Vec::new(),
            partition_key: "vehicleId".into(),
            partition_value: Value::S("VEH#V-7741".into()),
            sort: Some(SortKeyCondition::BeginsWith {
                name: "recordedAt".into(),
                prefix: Value::S("TS#".into()),
            }),
        },
    );
    let (all, _) = run_all(&app, &request).await;
    assert_eq!(all.len(), 1440);
    let fast = |item: &BTreeMap<String, AttributeValue>| match &item["speedKph"] {
        AttributeValue::N(n) => n.parse::<u32>().unwrap() >= 100,
        other => panic!("speedKph is {other:?}"),
    };
    let expected: Vec<AttributeValue> = all
        .iter()
        .filter(|i| fast(i))
        .map(|i| i["recordedAt"].clone())
        .collect();
    assert!(!expected.is_empty());

    request.filter = Some(ConditionState::compare(
        AttributePath::attribute("speedKph"),
        Comparator::Ge,
        number("100"),
    ));
    request.projection = Some(ProjectionState {
        paths: vec![
            AttributePath::attribute("recordedAt"),
            AttributePath::attribute("speedKph"),
        ],
    });
    let (items, _) = run_all(&app, &request).await;
    assert_eq!(
        items.iter().map(|i| i["recordedAt"].clone()).collect::<Vec<_>>(),
        expected
    );
    assert!(
        items.iter().all(|i| i.len() == 2 && fast(i)),
        "{:?}",
        items.first()
    );

    // A Scan of Pets filtered on Age, projecting Name — a reserved word, so `#Name`.
    let scan = ReadRequest {
        operation: ReadOperation::Scan,
        table_name: "Pets".into(),
        index_name: None,
        key_condition: None,
        filter: Some(ConditionState::Between {
            operand: dynotable_builder::Operand::path(AttributePath::attribute("Age")),
            low: dynotable_builder::Operand::value(number("2")),
            high: dynotable_builder::Operand::value(number("5")),
        }),
        projection: Some(ProjectionState {
            paths: vec![AttributePath::attribute("Name")],
        }),
        direction: Direction::Ascending,
        limit: None,
        consistent_read: false,
        return_consumed_capacity: Some(ReturnConsumedCapacity::INDEXES),
    };
    let built = app.build_read_request(&scan, None).unwrap();
    assert_eq!(built.request.projection_expression.as_deref(), Some("#Name"));
    assert_eq!(
        built.request.expression_attribute_names,
        Some(BTreeMap::from([("#Name".to_owned(), "Name".to_owned())]))
    );
    let (pets, _) = run_all(&app, &scan).await;
    let mut names: Vec<String> = pets
        .iter()
        .map(|p| match &p["Name"] {
            AttributeValue::S(s) => s.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    names.sort();
    assert_eq!(names, ["Bella", "Rover", "Thumper", "Tweety", "Whiskers"]);
}

#[tokio::test]
async fn a_query_of_an_index_is_checked_against_the_index_keys() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path());
    let schema = app
        .read_key_schema(EMBEDDED_ID, "Telemetry", Some("ByDepot"))
        .await
        .unwrap();
    assert_eq!(schema.partition_key.name, "depotCode");
    let meta = app
        .run_read_request(
            EMBEDDED_ID,
            &query(
                "Telemetry",
                KeyConditionState {
                    more_partition: Vec::new(),
                    sort_equal: Vec::new(),
                    partition_key: "vehicleId".into(),
                    partition_value: Value::S("VEH#V-7741".into()),
                    sort: Some(SortKeyCondition::Compare {
                        name: "recordedAt".into(),
                        op: Comparator::Eq,
                        value: Value::S("META".into()),
                    }),
                },
            ),
            None,
        )
        .await
        .unwrap();
    let depot = meta.items[0]["depotCode"].clone();
    let AttributeValue::S(depot_code) = &depot else {
        panic!("{depot:?}")
    };

    let mut by_depot = query(
        "Telemetry",
        KeyConditionState {
            more_partition: Vec::new(),
            sort_equal: Vec::new(),
            partition_key: "depotCode".into(),
            partition_value: Value::S(depot_code.clone()),
            sort: None,
        },
    );
    by_depot.index_name = Some("ByDepot".into());
    by_depot.limit = Some(50);
    let page = app.run_read_request(EMBEDDED_ID, &by_depot, None).await.unwrap();
    assert_eq!(page.count, 50);
    assert!(page.items.iter().all(|i| i["depotCode"] == depot));

    // The table's partition key is no key of the index: refused before sending.
    let mut wrong = query("Telemetry", window_condition(0, 1));
    wrong.index_name = Some("ByDepot".into());
    let err = app.run_read_request(EMBEDDED_ID, &wrong, None).await.unwrap_err();
    assert_eq!(err.code, ErrorCode::Validation);
    assert_eq!(err.exception.as_deref(), Some("ValidationException"));
}

/// What the engine answers when the request is sent to it directly.
async fn engine_answer(app: &App, request: &ReadRequest) -> String {
    let built = app.build_read_request(request, None).unwrap();
    let engine = app.engine().await.unwrap();
    let operation = match request.operation {
        ReadOperation::Query => "Query",
        ReadOperation::Scan => "Scan",
    };
    match engine.call(operation, built.body.as_bytes()).await {
        Ok(_) => panic!("the engine accepted {}", built.body),
        Err(err) => err.message,
    }
}

#[tokio::test]
async fn what_dynamodb_refuses_is_refused_before_sending_with_the_engine_message() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path());
    // A key condition on an attribute that is not a key.
    let not_a_key = query(
        "Telemetry",
        KeyConditionState {
            more_partition: Vec::new(),
            sort_equal: Vec::new(),
            partition_key: "speedKph".into(),
            partition_value: number("3"),
            sort: None,
        },
    );
    // begins_with on a number sort key (SensorReadings: deviceId / readingTs N).
    let begins_with_number = query(
        "SensorReadings",
        KeyConditionState {
            more_partition: Vec::new(),
            sort_equal: Vec::new(),
            partition_key: "deviceId".into(),
            partition_value: Value::S("DEV#a1b2".into()),
            sort: Some(SortKeyCondition::BeginsWith {
                name: "readingTs".into(),
                prefix: number("17"),
            }),
        },
    );
    // A sort key compared with a value of the wrong type.
    let wrong_type = query(
        "Telemetry",
        KeyConditionState {
            more_partition: Vec::new(),
            sort_equal: Vec::new(),
            partition_key: "vehicleId".into(),
            partition_value: Value::S("VEH#V-7741".into()),
            sort: Some(SortKeyCondition::Compare {
                name: "recordedAt".into(),
                op: Comparator::Gt,
                value: number("5"),
            }),
        },
    );
    for request in [not_a_key, begins_with_number, wrong_type] {
        let err = app
            .run_read_request(EMBEDDED_ID, &request, None)
            .await
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::Validation, "{err:?}");
        assert_eq!(err.exception.as_deref(), Some("ValidationException"));
        assert_eq!(err.message, engine_answer(&app, &request).await);
    }
    // A builder state with no expression at all is refused in plain words.
    let mut scan = query("Telemetry", window_condition(0, 1));
    scan.operation = ReadOperation::Scan;
    let err = app.run_read_request(EMBEDDED_ID, &scan, None).await.unwrap_err();
    assert_eq!(err.code, ErrorCode::Validation);
    assert!(
        err.message.contains("Scan has no key condition"),
        "{}",
        err.message
    );
}

#[tokio::test]
async fn typed_text_parses_into_the_state_or_points_at_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path());
    let schema = app.read_key_schema(EMBEDDED_ID, "Telemetry", None).await.unwrap();
    let typed = |text: &str| TypedRequest {
        expressions: vec![ExpressionText {
            parameter: ExpressionParameter::KeyConditionExpression,
            text: text.into(),
        }],
        expression_attribute_names: None,
        expression_attribute_values: Some(BTreeMap::from([
            (":v".to_owned(), Value::S("VEH#V-7741".into())),
            (":from".to_owned(), Value::S(reading_key(60))),
            (":to".to_owned(), Value::S(reading_key(69))),
        ])),
    };
    let outcome = app.parse_expressions(
        &typed("vehicleId = :v AND recordedAt BETWEEN :from AND :to"),
        Some(&schema),
    );
    assert_eq!(
        outcome,
        ParseOutcome::Parsed {
            states: vec![ExpressionState::KeyConditionExpression(window_condition(60, 69))]
        }
    );

    let text = "vehicleId = :v AND recordedAt BETWIXT :from AND :to";
    let ParseOutcome::Invalid { diagnostics } = app.parse_expressions(&typed(text), Some(&schema)) else {
        panic!("a syntax error parsed")
    };
    let diagnostic = &diagnostics[0];
    assert_eq!(diagnostic.exception, "ValidationException");
    assert!(
        diagnostic
            .message
            .starts_with("Invalid KeyConditionExpression: Syntax error; token: \"BETWIXT\""),
        "{}",
        diagnostic.message
    );
    let span = diagnostic.span.expect("a syntax error has a position");
    assert_eq!(&text[span.start as usize..span.end as usize], "BETWIXT");

    // An unused value is reported for the request as a whole, without a span.
    let diagnostics = app.check_expressions(&typed("vehicleId = :v"), Some(&schema));
    assert_eq!(diagnostics.len(), 1);
    assert!(
        diagnostics[0].message.contains("unused in expressions"),
        "{}",
        diagnostics[0].message
    );
    assert_eq!(diagnostics[0].span, None);

    // What the builder offers on a sort key follows its type (rule B.5).
    assert!(
        app.sort_key_operators(KeyType::S)
            .contains(&SortKeyOperator::BeginsWith)
    );
    assert!(
        !app.sort_key_operators(KeyType::N)
            .contains(&SortKeyOperator::BeginsWith)
    );

    // The generated expression of a filter with reserved words.
    let generated = app
        .generate_expression(&ExpressionState::FilterExpression(ConditionState::compare(
            AttributePath::attribute("status").key("date"),
            Comparator::Eq,
            Value::S("x".into()),
        )))
        .unwrap();
    assert_eq!(generated.expression, "#status.#date = :date");
}

#[tokio::test]
async fn code_is_exported_for_every_target_with_the_request_expressions() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path());
    let mut request = query("Telemetry", window_condition(60, 69));
    request.direction = Direction::Descending;
    for target in [
        CodeTarget::AwsCli,
        CodeTarget::JavaScriptClient,
        CodeTarget::JavaScriptDocumentClient,
        CodeTarget::PythonClient,
        CodeTarget::PythonResource,
        CodeTarget::Rust,
        CodeTarget::Go,
        CodeTarget::Java,
    ] {
        let code = app.export_code(&request, target).unwrap();
        assert!(
            code.contains("recordedAt BETWEEN :recordedAt_from AND :recordedAt_to"),
            "{target:?}:\n{code}"
        );
        assert!(code.contains("Telemetry"), "{target:?}");
    }
    let mut empty = request.clone();
    empty.table_name.clear();
    assert_eq!(
        app.export_code(&empty, CodeTarget::Rust).unwrap_err().code,
        ErrorCode::Validation
    );
}

#[tokio::test]
async fn saved_expressions_are_kept_per_table_across_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path());
    let filter = ExpressionState::FilterExpression(ConditionState::compare(
        AttributePath::attribute("speedKph"),
        Comparator::Gt,
        number("90"),
    ));
    let first = app
        .save_expression(
            EMBEDDED_ID,
            "Telemetry",
            "fast",
            SavedBuilderContent::Expression {
                state: filter.clone(),
            },
        )
        .await
        .unwrap();
    let window = query("Telemetry", window_condition(60, 69));
    app.save_expression(
        EMBEDDED_ID,
        "Telemetry",
        "nine o'clock",
        SavedBuilderContent::Request {
            request: window.clone(),
        },
    )
    .await
    .unwrap();
    app.save_expression(
        EMBEDDED_ID,
        "Pets",
        "old",
        SavedBuilderContent::Expression {
            state: filter.clone(),
        },
    )
    .await
    .unwrap();
    // Saving under a name again replaces it and keeps its id.
    let slower = ExpressionState::FilterExpression(ConditionState::compare(
        AttributePath::attribute("speedKph"),
        Comparator::Gt,
        number("100"),
    ));
    let replaced = app
        .save_expression(
            EMBEDDED_ID,
            "Telemetry",
            " fast ",
            SavedBuilderContent::Expression {
                state: slower.clone(),
            },
        )
        .await
        .unwrap();
    assert_eq!(replaced.id, first.id);

    // A request saved under another table, and a blank name, are refused.
    for (table, name) in [("Pets", "window"), ("Telemetry", "  ")] {
        let err = app
            .save_expression(
                EMBEDDED_ID,
                table,
                name,
                SavedBuilderContent::Request {
                    request: window.clone(),
                },
            )
            .await
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::Validation);
    }

    drop(app);
    let again = start(dir.path());
    let saved = again
        .saved_expressions(EMBEDDED_ID, Some("Telemetry"))
        .await
        .unwrap();
    let names: Vec<&str> = saved.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["fast", "nine o'clock"]);
    assert_eq!(
        saved[0].content,
        SavedBuilderContent::Expression { state: slower }
    );
    assert_eq!(saved[1].content, SavedBuilderContent::Request { request: window });
    assert_eq!(again.saved_expressions(EMBEDDED_ID, None).await.unwrap().len(), 3);
    assert!(again.saved_expressions("another", None).await.unwrap().is_empty());

    again.delete_saved_expression(&first.id).await.unwrap();
    let left = again
        .saved_expressions(EMBEDDED_ID, Some("Telemetry"))
        .await
        .unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].name, "nine o'clock");
}

#[tokio::test]
async fn builder_runs_are_in_the_query_history_with_their_expressions_written_out() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path());
    let mut request = query("Telemetry", window_condition(0, 9));
    request.direction = Direction::Descending;
    request.limit = Some(4);
    request.filter = Some(ConditionState::compare(
        AttributePath::attribute("speedKph"),
        Comparator::Ge,
        number("10"),
    ));
    // Every page is read; only the first one is a new entry.
    let (items, stops) = run_all(&app, &request).await;
    assert!(stops.len() > 1, "{stops:?}");
    // A request DynamoDB refuses is not sent, so it is not history either.
    let mut refused = query("Telemetry", window_condition(0, 9));
    refused.key_condition.as_mut().unwrap().partition_key = "recordedAt".into();
    assert!(app.run_read_request(EMBEDDED_ID, &refused, None).await.is_err());

    drop(app);
    let again = start(dir.path());
    let history = again.query_history(EMBEDDED_ID, Some("Telemetry")).await.unwrap();
    assert_eq!(history.len(), 1, "{history:?}");
    match &history[0].request {
        HistoryRequest::Builder {
            request: recorded,
            summary,
        } => {
            assert_eq!(recorded, &request);
            assert_eq!(
                summary,
                &format!(
                    "Query · vehicleId = \"VEH#V-7741\" AND recordedAt BETWEEN \"{}\" AND \"{}\" · \
                     filter speedKph >= 10 · descending · Limit 4",
                    reading_key(0),
                    reading_key(9)
                )
            );
        }
        other => panic!("a builder run was recorded as {other:?}"),
    }
    // The first page's count, not the whole result's.
    assert!(history[0].item_count <= 4 && items.len() >= history[0].item_count as usize);
}

#[tokio::test]
async fn history_rows_written_before_builder_runs_were_recorded_still_read() {
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path());
    // Opens (and migrates) the app database.
    assert_eq!(app.query_history(EMBEDDED_ID, None).await.unwrap(), []);
    let old_row = serde_json::json!({
        "table": "Telemetry", "index": null, "partitionValue": {"S": "VEH#V-7741"},
        "sortCondition": null, "scanIndexForward": true, "limit": 10, "consistentRead": false,
        "projection": null, "filter": null, "filterNames": null, "filterValues": null,
        "exclusiveStartKey": null
    });
    let pool = sqlx::SqlitePool::connect(&format!(
        "sqlite://{}",
        dir.path().join("dynotable.sqlite").display()
    ))
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO query_history (profile_id, table_name, request, ran_at, item_count, capacity) \
         VALUES (?, 'Telemetry', ?, 1.0, 10, 0.5)",
    )
    .bind(EMBEDDED_ID)
    .bind(old_row.to_string())
    .execute(&pool)
    .await
    .unwrap();
    let history = app.query_history(EMBEDDED_ID, Some("Telemetry")).await.unwrap();
    match &history[..] {
        [entry] => match &entry.request {
            HistoryRequest::Collection { request } => {
                assert_eq!(request.partition_value, AttributeValue::S("VEH#V-7741".into()));
                assert_eq!(request.limit, Some(10));
            }
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn the_apps_own_read_of_a_request_is_not_in_the_history() {
    // The items a filter dropped are read back with the same request unfiltered: the user ran
    // the filtered one, which is in the history; the read back is not.
    let dir = tempfile::tempdir().unwrap();
    let app = start(dir.path());
    let request = query("Telemetry", window_condition(0, 9));
    let page = app.read_request_page(EMBEDDED_ID, &request, None).await.unwrap();
    assert!(page.count > 0);
    assert_eq!(
        app.query_history(EMBEDDED_ID, Some("Telemetry")).await.unwrap(),
        []
    );
    app.run_read_request(EMBEDDED_ID, &request, None).await.unwrap();
    assert_eq!(
        app.query_history(EMBEDDED_ID, Some("Telemetry"))
            .await
            .unwrap()
            .len(),
        1
    );
}
