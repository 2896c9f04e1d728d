//! A plain CSV file (a header of bare names, as another tool writes it) imported into a table on
//! the embedded engine, from a real file: the preview types each column (key attributes by the
//! table's and its indexes' attribute definitions, the others by their first rows), the import
//! reads every cell with the types chosen, numbers keep every digit, and a cell that does not fit
//! its type stops the import, naming its row and column, before anything is written.

use dynotable_app::dto::{AttributeValue, Item};
use dynotable_app::profiles::EMBEDDED_ID;
use dynotable_app::transfer::csv_types::TypeSource;
use dynotable_app::transfer::{CsvColumnChoice, CsvColumnType, FileFormat};
use dynotable_app::{App, ErrorCode};

use crate::chosen_files::{app, open};

/// `Sensors`: a partition key `sensorId` of type N, and a GSI `ByZone` keyed by `zone` of type S.
async fn create_sensors(app: &App) {
    let body = r#"{"TableName":"Sensors","BillingMode":"PAY_PER_REQUEST",
        "AttributeDefinitions":[{"AttributeName":"sensorId","AttributeType":"N"},{"AttributeName":"zone","AttributeType":"S"}],
        "KeySchema":[{"AttributeName":"sensorId","KeyType":"HASH"}],
        "GlobalSecondaryIndexes":[{"IndexName":"ByZone","KeySchema":[{"AttributeName":"zone","KeyType":"HASH"}],
            "Projection":{"ProjectionType":"ALL"}}]}"#;
    app.engine()
        .await
        .unwrap()
        .call("CreateTable", body.as_bytes())
        .await
        .unwrap();
}

const BIG: &str = "12345678901234567890123456789012345678";

/// A plain CSV: no types in its header.
fn plain_csv() -> String {
    format!(
        "sensorId,zone,reading,active,note\n\
         1,7,{BIG},true,\n\
         2,north,-0.5,FALSE,\"calibrated, twice\"\n"
    )
}

async fn sensor(app: &App, id: &str) -> Option<Item> {
    let key = Item::from([("sensorId".to_owned(), AttributeValue::N(id.into()))]);
    app.get_item(EMBEDDED_ID, "Sensors", key, true).await.unwrap().0
}

async fn item_count(app: &App) -> usize {
    let mut count = 0;
    for id in ["1", "2", "3"] {
        count += usize::from(sensor(app, id).await.is_some());
    }
    count
}

fn choice(header: &str, ty: CsvColumnType) -> CsvColumnChoice {
    CsvColumnChoice {
        header: header.into(),
        ty,
    }
}

#[tokio::test]
async fn a_plain_csv_is_previewed_with_inferred_types_and_imports_numbers_as_numbers() {
    let (dir, app) = app().await;
    create_sensors(&app).await;
    let path = dir.path().join("sensors.csv");
    std::fs::write(&path, plain_csv()).unwrap();
    let file = open(&app, &path);

    let preview = app
        .preview_import_file(EMBEDDED_ID, "Sensors", &file)
        .await
        .unwrap();
    let types: Vec<_> = preview
        .columns
        .iter()
        .map(|c| (c.name.as_str(), c.ty, c.source))
        .collect();
    assert_eq!(
        types,
        [
            ("sensorId", CsvColumnType::N, TypeSource::Key),
            // The index's key is a string, though its first cell looks like a number.
            ("zone", CsvColumnType::S, TypeSource::Key),
            ("reading", CsvColumnType::N, TypeSource::Inferred),
            ("active", CsvColumnType::Bool, TypeSource::Inferred),
            ("note", CsvColumnType::S, TypeSource::Inferred),
        ]
    );
    assert_eq!(preview.rows.len(), 2);
    assert_eq!(preview.rows[1][4], "calibrated, twice");
    assert!(preview.missing_keys.is_empty());

    // As the panel sends them, untouched.
    let summary = app
        .import(
            EMBEDDED_ID,
            "csv",
            "Sensors",
            FileFormat::Csv,
            &file,
            Some(preview.choices()),
            |_| {},
        )
        .await
        .unwrap();
    assert_eq!(summary.progress.items, 2);
    let first = sensor(&app, "1").await.expect("sensor 1 was imported");
    assert_eq!(first["reading"], AttributeValue::N(BIG.into()), "every digit");
    assert_eq!(first["zone"], AttributeValue::S("7".into()));
    assert_eq!(first["active"], AttributeValue::BOOL(true));
    assert!(
        !first.contains_key("note"),
        "an empty cell is an absent attribute"
    );
    let second = sensor(&app, "2").await.expect("sensor 2 was imported");
    assert_eq!(second["reading"], AttributeValue::N("-0.5".into()));
    assert_eq!(second["active"], AttributeValue::BOOL(false));
    assert_eq!(second["note"], AttributeValue::S("calibrated, twice".into()));
}

#[tokio::test]
async fn without_chosen_types_an_import_uses_the_previews_and_the_estimate_agrees() {
    let (dir, app) = app().await;
    create_sensors(&app).await;
    let path = dir.path().join("sensors.csv");
    std::fs::write(&path, plain_csv()).unwrap();
    let file = open(&app, &path);
    let estimate = app
        .estimate_import_file(EMBEDDED_ID, "Sensors", FileFormat::Csv, &file, None)
        .await
        .unwrap();
    assert_eq!(estimate.items, 2.0);
    app.import(
        EMBEDDED_ID,
        "csv",
        "Sensors",
        FileFormat::Csv,
        &file,
        None,
        |_| {},
    )
    .await
    .unwrap();
    let first = sensor(&app, "1").await.unwrap();
    assert_eq!(first["reading"], AttributeValue::N(BIG.into()));
}

#[tokio::test]
async fn the_types_the_user_chose_are_the_ones_imported() {
    let (dir, app) = app().await;
    create_sensors(&app).await;
    let path = dir.path().join("sensors.csv");
    std::fs::write(&path, plain_csv()).unwrap();
    let file = open(&app, &path);
    let columns = vec![
        choice("sensorId", CsvColumnType::N),
        choice("zone", CsvColumnType::S),
        choice("reading", CsvColumnType::S),
        choice("active", CsvColumnType::Skip),
        choice("note", CsvColumnType::S),
    ];
    app.import(
        EMBEDDED_ID,
        "csv",
        "Sensors",
        FileFormat::Csv,
        &file,
        Some(columns),
        |_| {},
    )
    .await
    .unwrap();
    let first = sensor(&app, "1").await.unwrap();
    assert_eq!(first["reading"], AttributeValue::S(BIG.into()));
    assert!(!first.contains_key("active"), "a skipped column is not imported");
}

#[tokio::test]
async fn a_cell_that_does_not_fit_its_type_stops_the_import_with_its_row_and_column() {
    let (dir, app) = app().await;
    create_sensors(&app).await;
    let path = dir.path().join("sensors.csv");
    std::fs::write(&path, "sensorId,reading\n1,10\n2,about twelve\n3,14\n").unwrap();
    let file = open(&app, &path);
    let columns = vec![
        choice("sensorId", CsvColumnType::N),
        choice("reading", CsvColumnType::N),
    ];
    let err = app
        .import(
            EMBEDDED_ID,
            "csv",
            "Sensors",
            FileFormat::Csv,
            &file,
            Some(columns.clone()),
            |_| {},
        )
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::Validation);
    assert_eq!(
        err.message,
        "sensors.csv: row 2, column reading: \"about twelve\" is not a DynamoDB number (not a decimal number). Nothing was imported."
    );
    assert_eq!(item_count(&app).await, 0, "nothing was imported");
    let err = app
        .estimate_import_file(EMBEDDED_ID, "Sensors", FileFormat::Csv, &file, Some(columns))
        .await
        .unwrap_err();
    assert!(err.message.contains("row 2, column reading"), "{}", err.message);

    // A key cell that is not a number: the same, where the old import wrote every cell as a
    // string and the key's type was the only complaint.
    std::fs::write(&path, "sensorId,reading\nS-1,10\n").unwrap();
    let err = app
        .import(
            EMBEDDED_ID,
            "csv",
            "Sensors",
            FileFormat::Csv,
            &file,
            None,
            |_| {},
        )
        .await
        .unwrap_err();
    assert!(
        err.message
            .starts_with("sensors.csv: row 1, column sensorId: \"S-1\" is not a DynamoDB number"),
        "{}",
        err.message
    );
}

#[tokio::test]
async fn rows_past_the_preview_are_checked_before_anything_is_written() {
    let (dir, app) = app().await;
    create_sensors(&app).await;
    let path = dir.path().join("many.csv");
    let mut text = String::from("sensorId,reading\n");
    for i in 0..dynotable_app::transfer::csv_types::INFER_ROWS {
        text.push_str(&format!("{i},{i}.5\n"));
    }
    text.push_str("5000,n/a\n");
    std::fs::write(&path, text).unwrap();
    let file = open(&app, &path);
    let preview = app
        .preview_import_file(EMBEDDED_ID, "Sensors", &file)
        .await
        .unwrap();
    assert!(preview.more_rows);
    assert_eq!(preview.columns[1].ty, CsvColumnType::N, "from the rows read");
    let err = app
        .import(
            EMBEDDED_ID,
            "csv",
            "Sensors",
            FileFormat::Csv,
            &file,
            Some(preview.choices()),
            |_| {},
        )
        .await
        .unwrap_err();
    assert!(
        err.message.contains("row 1001, column reading"),
        "{}",
        err.message
    );
    assert_eq!(item_count(&app).await, 0, "nothing was imported");
}

#[tokio::test]
async fn types_chosen_for_other_columns_or_another_format_are_refused() {
    let (dir, app) = app().await;
    create_sensors(&app).await;
    let path = dir.path().join("sensors.csv");
    std::fs::write(&path, plain_csv()).unwrap();
    let file = open(&app, &path);
    // The file changed since its preview: its header is not the one the types were chosen for.
    let err = app
        .import(
            EMBEDDED_ID,
            "csv",
            "Sensors",
            FileFormat::Csv,
            &file,
            Some(vec![
                choice("sensorId", CsvColumnType::N),
                choice("reading", CsvColumnType::N),
            ]),
            |_| {},
        )
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::Validation);
    assert!(err.message.contains("choose the file again"), "{}", err.message);
    assert_eq!(item_count(&app).await, 0);

    let json = dir.path().join("sensors.jsonl");
    std::fs::write(&json, "{\"sensorId\":1}\n").unwrap();
    let err = app
        .import(
            EMBEDDED_ID,
            "json",
            "Sensors",
            FileFormat::JsonLines,
            &open(&app, &json),
            Some(vec![choice("sensorId", CsvColumnType::N)]),
            |_| {},
        )
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::Validation);
    assert!(err.message.contains("CSV files only"), "{}", err.message);

    // And the preview, like the import, reads only a file the dialog granted for reading.
    let err = app
        .preview_import_file(EMBEDDED_ID, "Sensors", path.to_str().unwrap())
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::FileNotChosen);
}
