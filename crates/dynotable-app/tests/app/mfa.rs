//! A named AWS profile whose role asks for MFA, end to end through the app's commands: the
//! profile is discovered in the AWS files, opening it asks for the code (`MFA_REQUIRED`), a wrong
//! code is refused as STS refuses it, the right one buys temporary credentials, and from then on
//! the connection's DynamoDB calls are signed with them and go to the profile's `endpoint_url`.
//!
//! One loopback server plays both services: STS (form-encoded AssumeRole, answered in STS's XML)
//! and DynamoDB (`X-Amz-Target`, answering ListTables with the access key that signed it). The
//! AWS files are temporary files handed to the app; the real home directory is never read.

use std::sync::{Arc, Mutex};

use axum::body::{Body, to_bytes};
use axum::http::{Request, Response, StatusCode};
use dynotable_app::profiles::{ConnectionInput, ProfileInput};
use dynotable_app::secrets::MemoryStore;
use dynotable_app::{App, ErrorCode};
use dynotable_aws::files::AwsFiles;
use dynotable_stand_ins::{is_dynamodb, serve, signer, sts};

/// A request the stand-in saw: which service, the access key that signed it, its body.
#[derive(Debug, Clone)]
struct Seen {
    dynamodb: bool,
    signer: String,
    body: String,
}

async fn sts_and_dynamodb(seen: Arc<Mutex<Vec<Seen>>>) -> String {
    serve(axum::Router::new().fallback(move |request: Request<Body>| {
        let seen = seen.clone();
        async move {
            let signer = signer(request.headers()).unwrap_or_default();
            let dynamodb = is_dynamodb(request.headers());
            let body = to_bytes(request.into_body(), usize::MAX).await.unwrap();
            let body = String::from_utf8(body.to_vec()).unwrap();
            seen.lock().unwrap().push(Seen {
                dynamodb,
                signer: signer.clone(),
                body: body.clone(),
            });
            let (status, content_type, answer) = if dynamodb {
                let tables = format!(r#"{{"TableNames":["signed-by-{signer}"]}}"#);
                (StatusCode::OK, "application/x-amz-json-1.0", tables)
            } else if body.contains("TokenCode=123456") {
                let assumed =
                    sts::assumed_role("Admin", "ASIATEMPORARYKEY", "temporary-secret", "temporary-token");
                (StatusCode::OK, "text/xml", assumed)
            } else {
                (StatusCode::FORBIDDEN, "text/xml", sts::MFA_REFUSED.to_owned())
            };
            Response::builder()
                .status(status)
                .header("content-type", content_type)
                .body(Body::from(answer))
                .unwrap()
        }
    }))
    .await
}

#[tokio::test]
async fn a_role_behind_mfa_asks_for_the_code_then_signs_with_the_credentials_it_bought() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let url = sts_and_dynamodb(seen.clone()).await;
    let aws = tempfile::tempdir().unwrap();
    let config = aws.path().join("config");
    let credentials = aws.path().join("credentials");
    std::fs::write(
        &config,
        format!(
            "[profile base]\nregion = eu-west-1\nendpoint_url = {url}\n\n\
             [profile admin]\nrole_arn = arn:aws:iam::111122223333:role/Admin\nsource_profile = base\n\
             mfa_serial = arn:aws:iam::111122223333:mfa/me\nendpoint_url = {url}\n"
        ),
    )
    .unwrap();
    std::fs::write(
        &credentials,
        "[base]\naws_access_key_id = AKIABASEKEY\naws_secret_access_key = base-secret\n",
    )
    .unwrap();
    let data = tempfile::tempdir().unwrap();
    let app = App::start_with_aws_files(
        "test",
        data.path(),
        Arc::new(MemoryStore::default()),
        AwsFiles::Given { config, credentials },
    );

    // Discovered in the given files, ready to open.
    let names: Vec<String> = app
        .aws_profiles()
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.name)
        .collect();
    assert_eq!(names, ["admin", "base"]);
    let profile = app
        .create_profile(ProfileInput {
            name: "admin".into(),
            color: "#cc3333".into(),
            region: "eu-west-1".into(),
            read_only: false,
            connection: ConnectionInput::AwsProfile {
                profile_name: "admin".into(),
            },
        })
        .await
        .unwrap();

    // Opening it asks for the code; nothing has been sent yet.
    let asked = app.list_tables(&profile.id, None).await.unwrap_err();
    assert_eq!(asked.code, ErrorCode::MfaRequired, "{asked:?}");
    assert!(
        asked.message.contains("arn:aws:iam::111122223333:role/Admin")
            && asked.message.contains("arn:aws:iam::111122223333:mfa/me"),
        "{}",
        asked.message
    );
    assert!(seen.lock().unwrap().is_empty());

    // A wrong code: STS's refusal, in its words.
    let refused = app.provide_mfa_code(&profile.id, "654321").await.unwrap_err();
    assert_eq!(refused.code, ErrorCode::AccessDenied, "{refused:?}");
    assert!(
        refused.message.contains("MultiFactorAuthentication failed"),
        "{}",
        refused.message
    );
    assert_eq!(
        app.list_tables(&profile.id, None).await.unwrap_err().code,
        ErrorCode::MfaRequired
    );

    // The right code: AssumeRole signed by the source profile, with the serial and the code.
    app.provide_mfa_code(&profile.id, "123456").await.unwrap();
    let assume = seen.lock().unwrap().last().cloned().unwrap();
    assert!(!assume.dynamodb);
    assert_eq!(assume.signer, "AKIABASEKEY");
    for field in [
        "Action=AssumeRole",
        "RoleArn=arn%3Aaws%3Aiam%3A%3A111122223333%3Arole%2FAdmin",
        "SerialNumber=arn%3Aaws%3Aiam%3A%3A111122223333%3Amfa%2Fme",
        "TokenCode=123456",
    ] {
        assert!(assume.body.contains(field), "{field} not in {}", assume.body);
    }

    // Now the connection works: DynamoDB at the profile's endpoint, signed with the role's
    // temporary key.
    let tables = app.list_tables(&profile.id, None).await.unwrap();
    assert_eq!(tables.names, ["signed-by-ASIATEMPORARYKEY"]);
    let last = seen.lock().unwrap().last().cloned().unwrap();
    assert!(last.dynamodb && last.signer == "ASIATEMPORARYKEY", "{last:?}");
}

/// STS and DynamoDB as AWS treat a role session that runs out: each AssumeRole with the right
/// code returns a new key (`ASIAKEY1`, `ASIAKEY2`, …) valid for `lifetime`, and DynamoDB refuses
/// a key past its expiry with `ExpiredTokenException`.
async fn expiring_sts_and_dynamodb(lifetime: std::time::Duration) -> String {
    use std::collections::HashMap;
    use std::time::SystemTime;
    let issued: Arc<Mutex<HashMap<String, SystemTime>>> = Arc::default();
    serve(axum::Router::new().fallback(move |request: Request<Body>| {
        let issued = issued.clone();
        async move {
            let signer = signer(request.headers()).unwrap_or_default();
            let dynamodb = is_dynamodb(request.headers());
            let body = to_bytes(request.into_body(), usize::MAX).await.unwrap();
            let body = String::from_utf8(body.to_vec()).unwrap();
            let (status, content_type, answer) = if dynamodb {
                let expired = issued
                    .lock()
                    .unwrap()
                    .get(&signer)
                    .is_none_or(|until| *until <= SystemTime::now());
                if expired {
                    let refusal = r#"{"__type":"com.amazon.coral.service#ExpiredTokenException","message":"The security token included in the request is expired"}"#;
                    (StatusCode::BAD_REQUEST, "application/x-amz-json-1.0", refusal.to_owned())
                } else {
                    let tables = format!(r#"{{"TableNames":["signed-by-{signer}"]}}"#);
                    (StatusCode::OK, "application/x-amz-json-1.0", tables)
                }
            } else if body.contains("TokenCode=123456") {
                let mut issued = issued.lock().unwrap();
                let key = format!("ASIAKEY{}", issued.len() + 1);
                // The key lives until the instant the answer names.
                let (until, expiration) = sts::expiration_in(lifetime);
                issued.insert(key.clone(), until);
                let assumed = sts::assumed_role_until("Admin", &key, "secret", "token", &expiration);
                (StatusCode::OK, "text/xml", assumed)
            } else {
                (StatusCode::FORBIDDEN, "text/xml", sts::MFA_REFUSED.to_owned())
            };
            Response::builder()
                .status(status)
                .header("content-type", content_type)
                .body(Body::from(answer))
                .unwrap()
        }
    }))
    .await
}

#[tokio::test]
async fn when_the_role_session_expires_the_code_is_asked_for_again() {
    // The role's credentials last ten seconds past the app's margin before their expiry: the
    // first calls below, made at once, come well inside that on a loaded machine too.
    let fresh_for = std::time::Duration::from_secs(10);
    let lifetime = dynotable_aws::mfa::EXPIRY_MARGIN + fresh_for;
    let url = expiring_sts_and_dynamodb(lifetime).await;
    let aws = tempfile::tempdir().unwrap();
    let config = aws.path().join("config");
    let credentials = aws.path().join("credentials");
    std::fs::write(
        &config,
        format!(
            "[profile base]\nendpoint_url = {url}\n\n\
             [profile admin]\nrole_arn = arn:aws:iam::111122223333:role/Admin\nsource_profile = base\n\
             mfa_serial = arn:aws:iam::111122223333:mfa/me\nendpoint_url = {url}\n"
        ),
    )
    .unwrap();
    std::fs::write(
        &credentials,
        "[base]\naws_access_key_id = AKIABASEKEY\naws_secret_access_key = base-secret\n",
    )
    .unwrap();
    let data = tempfile::tempdir().unwrap();
    let app = App::start_with_aws_files(
        "test",
        data.path(),
        Arc::new(MemoryStore::default()),
        AwsFiles::Given { config, credentials },
    );
    let profile = app
        .create_profile(ProfileInput {
            name: "admin".into(),
            color: "#cc3333".into(),
            region: "eu-west-1".into(),
            read_only: false,
            connection: ConnectionInput::AwsProfile {
                profile_name: "admin".into(),
            },
        })
        .await
        .unwrap();

    app.provide_mfa_code(&profile.id, "123456").await.unwrap();
    let tables = app.list_tables(&profile.id, None).await.unwrap();
    assert_eq!(tables.names, ["signed-by-ASIAKEY1"]);

    // The session runs out: the open connection asks for a new code rather than failing with
    // AWS's expired-token error on every call.
    tokio::time::sleep(fresh_for + std::time::Duration::from_millis(1_100)).await;
    let asked = app.list_tables(&profile.id, None).await.unwrap_err();
    assert_eq!(asked.code, ErrorCode::MfaRequired, "{asked:?}");
    assert!(asked.message.contains("expired"), "{}", asked.message);
    // Asked again, not once: until a code is given.
    assert_eq!(
        app.list_tables(&profile.id, None).await.unwrap_err().code,
        ErrorCode::MfaRequired
    );

    app.provide_mfa_code(&profile.id, "123456").await.unwrap();
    let tables = app.list_tables(&profile.id, None).await.unwrap();
    assert_eq!(tables.names, ["signed-by-ASIAKEY2"]);
}
