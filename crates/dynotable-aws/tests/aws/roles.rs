//! A profile's role as the AWS CLI assumes it: `credential_source` instead of `source_profile`,
//! `external_id`, `role_session_name` and `duration_seconds` read from the files and sent to
//! STS (a loopback stand-in answering in STS's XML, which records each AssumeRole's form
//! fields and the key that signed it). The files are temporary; the real home is never read.

use std::ffi::OsStr;
use std::sync::{Arc, Mutex};

use aws_types::os_shim_internal::{Env, Fs};
use dynotable_aws::client::{Target, client};
use dynotable_aws::files::AwsFiles;
use dynotable_aws::mfa::{assume_role_with_mfa, mfa_challenge, source_config};
use dynotable_aws::profiles::DiscoverError;
use dynotable_aws::roles::{RoleSettings, RoleSource, role_settings_with};

/// STS and DynamoDB on one loopback port: AssumeRole answers `ASIAFROM<signer>`; ListTables
/// answers `signed-by-<signer>`. Every AssumeRole form is kept in `seen` with its signer.
async fn sts_and_dynamodb(seen: Arc<Mutex<Vec<(String, String)>>>) -> String {
    use axum::body::{Body, to_bytes};
    use axum::http::{Request, Response};
    use dynotable_stand_ins::{is_dynamodb, serve, signer, sts};
    serve(axum::Router::new().fallback(move |request: Request<Body>| {
        let seen = seen.clone();
        async move {
            let signer = signer(request.headers()).unwrap_or_default();
            let dynamodb = is_dynamodb(request.headers());
            let body = to_bytes(request.into_body(), usize::MAX).await.unwrap();
            let form = String::from_utf8_lossy(&body).to_string();
            let (content_type, answer) = if dynamodb {
                (
                    "application/x-amz-json-1.0",
                    format!(r#"{{"TableNames":["signed-by-{signer}"]}}"#),
                )
            } else {
                seen.lock().unwrap().push((signer.clone(), form));
                (
                    "text/xml",
                    sts::assumed_role("Reader", &format!("ASIAFROM{signer}"), "s", "t"),
                )
            };
            Response::builder()
                .header("content-type", content_type)
                .body(Body::from(answer))
                .unwrap()
        }
    }))
    .await
}

fn files_in(dir: &std::path::Path, config: &str, credentials: &str) -> AwsFiles {
    std::fs::write(dir.join("config"), config).unwrap();
    std::fs::write(dir.join("credentials"), credentials).unwrap();
    AwsFiles::Given {
        config: dir.join("config"),
        credentials: dir.join("credentials"),
    }
}

#[tokio::test]
async fn every_key_of_a_role_profile_is_read_and_a_wrong_one_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config");
    std::fs::write(
        &config,
        "[profile ci]\nrole_arn = arn:aws:iam::111122223333:role/Ci\ncredential_source = Ec2InstanceMetadata\n\
         external_id = partner-42\nrole_session_name = build-7\nduration_seconds = 7200\n\
         mfa_serial = arn:aws:iam::111122223333:mfa/ci\n\n\
         [profile odd]\nrole_arn = arn:aws:iam::111122223333:role/Ci\ncredential_source = Laptop\n\n\
         [profile short]\nrole_arn = arn:aws:iam::111122223333:role/Ci\nsource_profile = ci\nduration_seconds = 60\n\n\
         [profile plain]\nregion = eu-west-1\n",
    )
    .unwrap();
    let env = Env::from_slice(&[
        ("HOME", dir.path().to_str().unwrap()),
        ("AWS_CONFIG_FILE", config.to_str().unwrap()),
        (
            "AWS_SHARED_CREDENTIALS_FILE",
            dir.path().join("none").to_str().unwrap(),
        ),
    ]);
    let read = |name: &'static str| {
        let env = env.clone();
        async move { role_settings_with(&Fs::real(), &env, name).await }
    };
    assert_eq!(
        read("ci").await.unwrap(),
        Some(RoleSettings {
            profile: "ci".into(),
            role_arn: "arn:aws:iam::111122223333:role/Ci".into(),
            source: RoleSource::Ec2InstanceMetadata,
            mfa_serial: Some("arn:aws:iam::111122223333:mfa/ci".into()),
            external_id: Some("partner-42".into()),
            session_name: Some("build-7".into()),
            duration_seconds: Some(7200),
        })
    );
    assert_eq!(read("plain").await.unwrap(), None);
    match read("odd").await.unwrap_err() {
        DiscoverError::Invalid { key, value, .. } => {
            assert_eq!((key.as_str(), value.as_str()), ("credential_source", "Laptop"));
        }
        other => panic!("{other:?}"),
    }
    match read("short").await.unwrap_err() {
        DiscoverError::Invalid { key, .. } => assert_eq!(key, "duration_seconds"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_role_with_duration_seconds_is_assumed_for_that_long_with_its_external_id_and_session_name() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let url = sts_and_dynamodb(seen.clone()).await;
    let dir = tempfile::tempdir().unwrap();
    let files = files_in(
        dir.path(),
        &format!(
            "[profile base]\nendpoint_url = {url}\n\n\
             [profile reader]\nrole_arn = arn:aws:iam::111122223333:role/Reader\nsource_profile = base\n\
             external_id = partner-42\nrole_session_name = alice-laptop\nduration_seconds = 1800\n\
             endpoint_url = {url}\n"
        ),
        "[base]\naws_access_key_id = AKIABASEKEY\naws_secret_access_key = s\n",
    );
    let client = client(&files, Target::Profile { name: "reader" }, "eu-west-1").await;
    let output = client.list_tables().send().await.unwrap();
    assert_eq!(output.table_names(), ["signed-by-ASIAFROMAKIABASEKEY"]);
    let (signer, form) = seen.lock().unwrap()[0].clone();
    assert_eq!(signer, "AKIABASEKEY");
    for field in [
        "Action=AssumeRole",
        "RoleArn=arn%3Aaws%3Aiam%3A%3A111122223333%3Arole%2FReader",
        "DurationSeconds=1800",
        "ExternalId=partner-42",
        "RoleSessionName=alice-laptop",
    ] {
        assert!(form.contains(field), "{field} not in {form}");
    }
}

/// `credential_source = Environment` reads the process's `AWS_ACCESS_KEY_ID`, so the body runs
/// in a child process with those variables set (see `in_child_with_env`).
#[tokio::test]
async fn a_role_behind_mfa_with_credential_source_environment_is_assumed_with_the_environments_keys() {
    let variables: [(&str, &OsStr); 3] = [
        ("AWS_ACCESS_KEY_ID", OsStr::new("AKIAFROMENVIRONMENT")),
        ("AWS_SECRET_ACCESS_KEY", OsStr::new("environment-secret")),
        ("AWS_SESSION_TOKEN", OsStr::new("")),
    ];
    if !dynotable_stand_ins::in_child_with_env(
        "a_role_behind_mfa_with_credential_source_environment_is_assumed_with_the_environments_keys",
        &variables,
    ) {
        return;
    }
    let seen = Arc::new(Mutex::new(Vec::new()));
    let url = sts_and_dynamodb(seen.clone()).await;
    let dir = tempfile::tempdir().unwrap();
    let files = files_in(
        dir.path(),
        &format!(
            "[profile admin]\nrole_arn = arn:aws:iam::111122223333:role/Admin\ncredential_source = Environment\n\
             mfa_serial = arn:aws:iam::111122223333:mfa/me\nrole_session_name = alice\nendpoint_url = {url}\n"
        ),
        "",
    );
    let challenge = mfa_challenge(&files, "admin")
        .await
        .unwrap()
        .expect("a role with credential_source and mfa_serial asks for a code");
    assert_eq!(challenge.role.source, RoleSource::Environment);
    let source = source_config(&files, &challenge, "eu-west-1").await;
    let assumed = assume_role_with_mfa(&source, &challenge, "123456").await.unwrap();
    assert_eq!(assumed.access_key_id, "ASIAFROMAKIAFROMENVIRONMENT");
    let (signer, form) = seen.lock().unwrap()[0].clone();
    assert_eq!(signer, "AKIAFROMENVIRONMENT");
    assert!(form.contains("RoleSessionName=alice"), "{form}");
}
