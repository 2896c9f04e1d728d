//! "Test connection" with the real SDK against loopback endpoints that answer as DynamoDB would
//! in each case: success, refused credentials, access denied, expired token, nothing listening,
//! and something that is not DynamoDB.

use dynotable_aws::client::{ConnectionProblem, Target, client, test_connection};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// Serves every request on a loopback port with `status` and a DynamoDB JSON `body`.
async fn answering(status: u16, body: &'static str) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(async move {
                let mut buffer = vec![0u8; 65536];
                let mut read = 0;
                // Read the head and the body announced by Content-Length.
                loop {
                    let Ok(n) = socket.read(&mut buffer[read..]).await else {
                        return;
                    };
                    if n == 0 {
                        return;
                    }
                    read += n;
                    let text = String::from_utf8_lossy(&buffer[..read]).to_lowercase();
                    if let Some(end) = text.find("\r\n\r\n") {
                        let length = text
                            .lines()
                            .find_map(|l| {
                                l.strip_prefix("content-length:")
                                    .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                            })
                            .unwrap_or(0);
                        if read >= end + 4 + length {
                            break;
                        }
                    }
                }
                let response = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: application/x-amz-json-1.0\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(response.as_bytes()).await;
            });
        }
    });
    format!("http://{address}")
}

async fn test(url: &str) -> dynotable_aws::client::ConnectionTest {
    let client = client(
        &dynotable_aws::files::AwsFiles::User,
        Target::Endpoint {
            url,
            access_key_id: "AKIAIOSFODNN7EXAMPLE",
            secret_access_key: "secret",
        },
        "us-east-1",
    )
    .await;
    test_connection(&client, Some("prod")).await
}

#[tokio::test]
async fn a_dynamodb_answer_is_a_working_connection() {
    let url = answering(200, r#"{"TableNames":["Pets"]}"#).await;
    let result = test(&url).await;
    assert!(result.ok, "{result:?}");
    assert_eq!(result.sample_table.as_deref(), Some("Pets"));
}

#[tokio::test]
async fn refused_credentials_are_bad_credentials() {
    let url = answering(400, r#"{"__type":"com.amazon.coral.service#UnrecognizedClientException","message":"The security token included in the request is invalid."}"#).await;
    let result = test(&url).await;
    assert_eq!(
        result.problem,
        Some(ConnectionProblem::BadCredentials),
        "{result:?}"
    );
}

#[tokio::test]
async fn access_denied_names_the_action() {
    let url = answering(400, r#"{"__type":"com.amazon.coral.service#AccessDeniedException","message":"User is not authorized to perform: dynamodb:ListTables"}"#).await;
    let result = test(&url).await;
    assert_eq!(
        result.problem,
        Some(ConnectionProblem::AccessDenied),
        "{result:?}"
    );
    assert!(result.message.contains("dynamodb:ListTables"));
}

#[tokio::test]
async fn an_expired_token_says_how_to_renew_it() {
    let url = answering(400, r#"{"__type":"com.amazon.coral.service#ExpiredTokenException","message":"The security token included in the request is expired"}"#).await;
    let result = test(&url).await;
    assert_eq!(
        result.problem,
        Some(ConnectionProblem::ExpiredCredentials),
        "{result:?}"
    );
    assert!(
        result.message.contains("aws sso login --profile prod"),
        "{}",
        result.message
    );
}

#[tokio::test]
async fn nothing_listening_is_unreachable() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let result = test(&url).await;
    assert_eq!(result.problem, Some(ConnectionProblem::Unreachable), "{result:?}");
}

#[tokio::test]
async fn a_web_server_is_not_dynamodb() {
    let url = answering(404, "<html>Not Found</html>").await;
    let result = test(&url).await;
    assert!(
        matches!(
            result.problem,
            Some(ConnectionProblem::NotDynamoDb | ConnectionProblem::Other)
        ),
        "{result:?}"
    );
    assert!(!result.ok);
}
