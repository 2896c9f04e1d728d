//! Profile resolution end to end: a client built from a named profile in temporary config files
//! signs its DynamoDB calls with the credentials that profile resolves to — static keys, a
//! `credential_process`, and an assume-role chain through STS (`source_profile`). A loopback
//! endpoint plays both STS and DynamoDB (each profile's `endpoint_url` points at it) and answers
//! ListTables with the access key that signed the call.

use std::path::Path;

use dynotable_aws::client::{Target, client};
use dynotable_aws::files::AwsFiles;

async fn signer_echo() -> String {
    use axum::body::{Body, to_bytes};
    use axum::http::{Request, Response};
    use dynotable_stand_ins::{is_dynamodb, serve, signer, sts};
    serve(axum::Router::new().fallback(|request: Request<Body>| async move {
        let signer = signer(request.headers()).unwrap_or_else(|| "unsigned".to_owned());
        let is_dynamodb = is_dynamodb(request.headers());
        let body = to_bytes(request.into_body(), usize::MAX).await.unwrap();
        let form = String::from_utf8_lossy(&body).to_string();
        let (content_type, answer) = if is_dynamodb {
            (
                "application/x-amz-json-1.0",
                format!(r#"{{"TableNames":["signed-by-{signer}"]}}"#),
            )
        } else {
            assert!(form.contains("Action=AssumeRole"), "{form}");
            assert!(
                form.contains("RoleArn=arn%3Aaws%3Aiam%3A%3A111122223333%3Arole%2FReader"),
                "{form}"
            );
            (
                "text/xml",
                sts::assumed_role("Reader", &format!("ASIAFROM{signer}"), "s", "t"),
            )
        };
        Response::builder()
            .header("content-type", content_type)
            .body(Body::from(answer))
            .unwrap()
    }))
    .await
}

async fn signer_of(profile: &str, config: &Path, credentials: &Path) -> String {
    let files = AwsFiles::Given {
        config: config.to_owned(),
        credentials: credentials.to_owned(),
    };
    let client = client(&files, Target::Profile { name: profile }, "eu-west-1").await;
    let output = client
        .list_tables()
        .send()
        .await
        .unwrap_or_else(|err| panic!("{profile}: {err:?}"));
    output.table_names()[0]
        .trim_start_matches("signed-by-")
        .to_owned()
}

#[tokio::test]
async fn each_kind_of_profile_signs_with_the_credentials_it_resolves_to() {
    let url = signer_echo().await;
    let dir = tempfile::tempdir().unwrap();
    let process = dir.path().join("creds.sh");
    std::fs::write(
        &process,
        "#!/bin/sh\necho '{\"Version\": 1, \"AccessKeyId\": \"AKIAFROMPROCESS\", \"SecretAccessKey\": \"p\"}'\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&process, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let config = dir.path().join("config");
    std::fs::write(
        &config,
        format!(
            "[profile static]\nendpoint_url = {url}\n\n\
             [profile tool]\ncredential_process = {}\nendpoint_url = {url}\n\n\
             [profile reader]\nrole_arn = arn:aws:iam::111122223333:role/Reader\nsource_profile = static\nendpoint_url = {url}\n",
            process.display()
        ),
    )
    .unwrap();
    let credentials = dir.path().join("credentials");
    std::fs::write(
        &credentials,
        "[static]\naws_access_key_id = AKIASTATICKEY\naws_secret_access_key = s\n",
    )
    .unwrap();

    assert_eq!(signer_of("static", &config, &credentials).await, "AKIASTATICKEY");
    assert_eq!(signer_of("tool", &config, &credentials).await, "AKIAFROMPROCESS");
    // The role is assumed with the source profile's keys, then its credentials sign DynamoDB.
    assert_eq!(
        signer_of("reader", &config, &credentials).await,
        "ASIAFROMAKIASTATICKEY"
    );
}

#[tokio::test]
async fn credentials_obtained_for_a_profile_sign_its_calls_to_its_endpoint() {
    // A role behind MFA: DynoTable assumes it itself, then the profile's endpoint_url must still
    // be where its DynamoDB calls go, signed with the temporary credentials.
    let url = signer_echo().await;
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config");
    std::fs::write(
        &config,
        format!(
            "[profile admin]\nrole_arn = arn:aws:iam::111122223333:role/Admin\nsource_profile = base\n\
             mfa_serial = arn:aws:iam::111122223333:mfa/me\nendpoint_url = {url}\n\n[profile base]\n"
        ),
    )
    .unwrap();
    let credentials = dir.path().join("credentials");
    std::fs::write(&credentials, "").unwrap();
    let files = AwsFiles::Given {
        config: config.clone(),
        credentials: credentials.clone(),
    };
    let client = client(
        &files,
        Target::ProfileWithCredentials {
            name: "admin",
            access_key_id: "ASIAFROMMFA",
            secret_access_key: "s",
            session_token: Some("t"),
        },
        "eu-west-1",
    )
    .await;
    let output = client.list_tables().send().await.unwrap();
    assert_eq!(output.table_names(), ["signed-by-ASIAFROMMFA"]);
}
