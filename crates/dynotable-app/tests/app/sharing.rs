//! Sharing the embedded engine on loopback: another client (here the SDK for Rust, as the
//! user's own application would be) sees the same tables, and stopping closes the port.

use std::sync::Arc;

use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use dynotable_app::secrets::MemoryStore;
use dynotable_app::{App, ErrorCode};

fn client(url: &str) -> aws_sdk_dynamodb::Client {
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("local", "local", None, None, "test"))
        .endpoint_url(url)
        .build();
    aws_sdk_dynamodb::Client::from_conf(config)
}

#[tokio::test]
async fn a_shared_engine_serves_the_same_tables_on_loopback_until_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    assert_eq!(app.shared_engine().await, None);

    let shared = app.share_engine(0).await.unwrap();
    assert!(shared.url.starts_with("http://127.0.0.1:"), "{}", shared.url);
    assert_eq!(app.shared_engine().await, Some(shared.clone()));

    let outside = client(&shared.url);
    let tables = outside.list_tables().send().await.unwrap();
    assert!(tables.table_names().contains(&"Telemetry".to_owned()));

    // A write from outside is what the app sees.
    outside
        .put_item()
        .table_name("Pets")
        .set_item(Some(
            serde_json::from_str::<dynotable_app::dto::Item>(
                r#"{"AnimalType":{"S":"Axolotl"},"Name":{"S":"Shared"}}"#,
            )
            .map(|item| dynotable_app::dto::attribute::item_to_sdk(&item).unwrap())
            .unwrap(),
        ))
        .send()
        .await
        .unwrap();
    let key = serde_json::from_str(r#"{"AnimalType":{"S":"Axolotl"},"Name":{"S":"Shared"}}"#).unwrap();
    let (seen, _) = app
        .get_item(dynotable_app::profiles::EMBEDDED_ID, "Pets", key, true)
        .await
        .unwrap();
    assert!(
        seen.is_some(),
        "the app sees the item written through the shared port"
    );

    // The port is taken while shared: sharing a second app there is refused in plain words.
    let other_dir = tempfile::tempdir().unwrap();
    let other = App::start_with("test", other_dir.path(), Arc::new(MemoryStore::default()));
    let err = other.share_engine(shared.port).await.unwrap_err();
    assert_eq!(err.code, ErrorCode::PortUnavailable);
    assert!(err.message.contains(&shared.port.to_string()));

    app.stop_sharing().await;
    assert_eq!(app.shared_engine().await, None);
    assert!(
        tokio::net::TcpStream::connect(("127.0.0.1", shared.port))
            .await
            .is_err()
    );
}

fn signed_client(url: &str, access_key: &str, secret: &str) -> aws_sdk_dynamodb::Client {
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new(access_key, secret, None, None, "test"))
        .endpoint_url(url)
        .retry_config(aws_sdk_dynamodb::config::retry::RetryConfig::disabled())
        .build();
    aws_sdk_dynamodb::Client::from_conf(config)
}

/// With a key set the share port checks signatures as `dynotable-local --auth` does, and like
/// every share it refuses a request naming another host (DNS rebinding) and answers no CORS.
#[tokio::test]
async fn a_share_with_a_key_serves_only_requests_signed_with_it() {
    use dynotable_app::sharing::ShareSettings;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    let settings = ShareSettings {
        auth: Some("AKIDSHARE:share-secret".parse().unwrap()),
    };
    let shared = app.share_engine_with(0, settings.clone()).await.unwrap();

    let right = signed_client(&shared.url, "AKIDSHARE", "share-secret");
    let tables = right.list_tables().send().await.unwrap();
    assert!(tables.table_names().contains(&"Telemetry".to_owned()));
    let err = signed_client(&shared.url, "AKIDSHARE", "wrong")
        .list_tables()
        .send()
        .await
        .unwrap_err()
        .into_service_error();
    assert_eq!(
        aws_sdk_dynamodb::error::ProvideErrorMetadata::code(&err),
        Some("InvalidSignatureException")
    );

    let ask = |request: String| async move {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", shared.port))
            .await
            .unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = vec![0u8; 4096];
        let n = stream.read(&mut answer).await.unwrap();
        String::from_utf8_lossy(&answer[..n]).into_owned()
    };
    let rebound = ask(format!(
        "POST / HTTP/1.1\r\nHost: rebound.example:{}\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n\
         Content-Type: application/x-amz-json-1.0\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}",
        shared.port
    ))
    .await;
    assert!(rebound.starts_with("HTTP/1.1 400"), "{rebound}");
    assert!(rebound.contains("AccessDeniedException"), "{rebound}");
    let preflight = ask(
        "OPTIONS / HTTP/1.1\r\nHost: localhost\r\nOrigin: http://page.example\r\nAccess-Control-Request-Method: POST\r\n\
         Connection: close\r\n\r\n"
            .to_owned(),
    )
    .await;
    assert!(preflight.starts_with("HTTP/1.1 404"), "{preflight}");
    assert!(
        !preflight
            .to_ascii_lowercase()
            .contains("access-control-allow-origin"),
        "{preflight}"
    );

    // The same port without the key: any signature again.
    let open = app
        .share_engine_with(shared.port, ShareSettings::default())
        .await
        .unwrap();
    assert_eq!(open.port, shared.port);
    signed_client(&open.url, "anyone", "anything")
        .list_tables()
        .send()
        .await
        .unwrap();
    app.stop_sharing().await;
}
