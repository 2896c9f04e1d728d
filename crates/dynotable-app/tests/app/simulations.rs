//! The embedded engine's simulations as the app's settings (issue 18.7): switched at once,
//! kept in the data folder for the next launch, and the throttled requests counted.

use std::sync::Arc;

use dynotable_app::dto::SimulationSettings;
use dynotable_app::profiles::{ConnectionInput, EMBEDDED_ID, ProfileInput, SecretInput};
use dynotable_app::secrets::MemoryStore;
use dynotable_app::{App, ErrorCode};
use dynotable_engine::{ErrorKind, EventualLag, Simulations};

/// An app on a fresh data folder whose demo tables count as loaded (none are).
fn app_in(dir: &std::path::Path) -> App {
    std::fs::create_dir_all(dir.join("embedded")).unwrap();
    std::fs::write(dir.join("embedded").join("demo-loaded"), "").unwrap();
    App::start_with("test", dir, Arc::new(MemoryStore::default()))
}

#[tokio::test]
async fn switching_throttling_on_throttles_the_embedded_engine_and_counts_it() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(dir.path());
    let status = app.simulations(EMBEDDED_ID).await.unwrap();
    assert_eq!(status.settings, SimulationSettings::default());
    assert_eq!(status.throttled_requests, 0);

    let settings = SimulationSettings {
        enforce_capacity: true,
        eventual_lag_ms: Some(250),
        seed: 7,
    };
    let status = app.set_simulations(EMBEDDED_ID, settings).await.unwrap();
    assert_eq!(status.settings, settings);
    let engine = app.engine().await.unwrap();
    assert_eq!(
        engine.simulations(),
        Simulations {
            enforce_capacity: true,
            eventual_lag: Some(EventualLag {
                max_seconds: 0.25,
                seed: 7
            }),
        }
    );
    // Kept for the next launch.
    let saved: SimulationSettings =
        serde_json::from_slice(&std::fs::read(dir.path().join("embedded").join("simulations.json")).unwrap())
            .unwrap();
    assert_eq!(saved, settings);

    // A one-unit table: its 300 banked write units, then throttled.
    engine
        .call(
            "CreateTable",
            br#"{"TableName":"Tbl","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
                "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
                "ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}"#,
        )
        .await
        .unwrap();
    let put = |n: u32| {
        let engine = engine.clone();
        async move {
            let body = format!(r#"{{"TableName":"Tbl","Item":{{"pk":{{"S":"k{n}"}}}}}}"#);
            engine.call("PutItem", body.as_bytes()).await
        }
    };
    let mut throttled = None;
    for n in 0..1000 {
        if let Err(err) = put(n).await {
            throttled = Some((n, err));
            break;
        }
    }
    let (n, err) = throttled.expect("throttled");
    assert!(n >= 300, "{n}");
    assert_eq!(err.kind, ErrorKind::ProvisionedThroughputExceededException);
    assert_eq!(app.simulations(EMBEDDED_ID).await.unwrap().throttled_requests, 1);

    // Off: served again, the count kept.
    let status = app
        .set_simulations(EMBEDDED_ID, SimulationSettings::default())
        .await
        .unwrap();
    assert_eq!(status.settings, SimulationSettings::default());
    put(n).await.unwrap();
    assert_eq!(status.throttled_requests, 1);
}

#[tokio::test]
async fn the_engine_starts_with_the_settings_left_in_the_data_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("embedded")).unwrap();
    std::fs::write(
        dir.path().join("embedded").join("simulations.json"),
        r#"{"enforceCapacity": true, "eventualLagMs": 1000, "seed": 3}"#,
    )
    .unwrap();
    let app = app_in(dir.path());
    let status = app.simulations(EMBEDDED_ID).await.unwrap();
    assert_eq!(
        status.settings,
        SimulationSettings {
            enforce_capacity: true,
            eventual_lag_ms: Some(1000),
            seed: 3,
        }
    );
}

#[tokio::test]
async fn a_lag_out_of_bounds_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(dir.path());
    for ms in [0, 3_600_001] {
        let err = app
            .set_simulations(
                EMBEDDED_ID,
                SimulationSettings {
                    enforce_capacity: true,
                    eventual_lag_ms: Some(ms),
                    seed: 0,
                },
            )
            .await
            .unwrap_err();
        assert!(err.message.contains("from 1 to 3600000 ms"), "{}", err.message);
    }
    assert_eq!(
        app.simulations(EMBEDDED_ID).await.unwrap().settings,
        SimulationSettings::default()
    );
    assert!(!dir.path().join("embedded").join("simulations.json").exists());
}

/// A one-unit provisioned table `Tbl` on the embedded engine, written until a put is throttled.
async fn throttle_a_table(engine: &dynotable_engine::Engine) {
    engine
        .call(
            "CreateTable",
            br#"{"TableName":"Tbl","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
                "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
                "ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}"#,
        )
        .await
        .unwrap();
    for n in 0..1000 {
        let body = format!(r#"{{"TableName":"Tbl","Item":{{"pk":{{"S":"k{n}"}}}}}}"#);
        if engine.call("PutItem", body.as_bytes()).await.is_err() {
            return;
        }
    }
    panic!("1,000 puts on a one-unit table were never throttled");
}

#[tokio::test]
async fn a_table_reports_the_requests_throttled_on_it_with_the_settings() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(dir.path());
    let engine = app.engine().await.unwrap();
    let on = SimulationSettings {
        enforce_capacity: true,
        eventual_lag_ms: None,
        seed: 0,
    };
    app.set_simulations(EMBEDDED_ID, on).await.unwrap();
    throttle_a_table(&engine).await;
    engine
        .call(
            "CreateTable",
            br#"{"TableName":"Calm","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
                "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}"#,
        )
        .await
        .unwrap();

    let tbl = app.table_simulations(EMBEDDED_ID, "Tbl").await.unwrap();
    assert_eq!(tbl.table, "Tbl");
    assert_eq!(tbl.settings, on);
    assert_eq!(tbl.throttled_requests, 1);
    assert_eq!(tbl.lagged_reads, 0);
    assert_eq!(tbl.throttled_on_every_table, 1);
    let calm = app.table_simulations(EMBEDDED_ID, "Calm").await.unwrap();
    assert_eq!(calm.throttled_requests, 0);
    assert_eq!(calm.throttled_on_every_table, 1);

    let err = app.table_simulations(EMBEDDED_ID, "Missing").await.unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
}

#[tokio::test]
async fn another_connection_has_no_simulations_and_is_told_so() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_in(dir.path());
    let aws = app
        .create_profile(ProfileInput {
            name: "prod keys".into(),
            color: "#3366ff".into(),
            region: "eu-west-1".into(),
            read_only: false,
            connection: ConnectionInput::AccessKeys {
                access_key_id: "AKIAIOSFODNN7EXAMPLE".into(),
                secret_access_key: SecretInput::new("not-a-real-secret"),
                session_token: None,
            },
        })
        .await
        .unwrap();
    let refused = [
        app.simulations(&aws.id).await.unwrap_err(),
        app.set_simulations(
            &aws.id,
            SimulationSettings {
                enforce_capacity: true,
                ..Default::default()
            },
        )
        .await
        .unwrap_err(),
        app.table_simulations(&aws.id, "Tbl").await.unwrap_err(),
    ];
    for err in refused {
        assert_eq!(err.code, ErrorCode::EmbeddedOnly, "{err:?}");
        assert!(
            err.message.starts_with("prod keys is not the embedded engine."),
            "{}",
            err.message
        );
    }
    // Nothing was switched.
    assert_eq!(
        app.simulations(EMBEDDED_ID).await.unwrap().settings,
        SimulationSettings::default()
    );
    assert!(!dir.path().join("embedded").join("simulations.json").exists());
}
