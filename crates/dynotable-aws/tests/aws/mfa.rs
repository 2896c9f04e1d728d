//! A role that needs MFA: the challenge is read from the profile files, and AssumeRole goes to
//! STS (a loopback stand-in that answers as STS does, in its XML) with the device's serial and
//! the code, signed with the source profile's credentials.

use std::sync::{Arc, Mutex};

use aws_config::BehaviorVersion;
use aws_sdk_dynamodb::config::Credentials;
use aws_types::os_shim_internal::{Env, Fs};
use aws_types::region::Region;
use dynotable_aws::mfa::{MfaChallenge, MfaError, assume_role_with_mfa, mfa_challenge_with};
use dynotable_aws::roles::{RoleSettings, RoleSource};

const CONFIG: &str = r#"
[profile base]
region = eu-west-1

[profile admin]
role_arn = arn:aws:iam::111122223333:role/Admin
source_profile = base
mfa_serial = arn:aws:iam::111122223333:mfa/me
duration_seconds = 1800

[profile no-mfa]
role_arn = arn:aws:iam::111122223333:role/Reader
source_profile = base
"#;

#[tokio::test]
async fn the_challenge_comes_from_the_profile_files() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config");
    std::fs::write(&config, CONFIG).unwrap();
    let env = Env::from_slice(&[
        ("HOME", dir.path().to_str().unwrap()),
        ("AWS_CONFIG_FILE", config.to_str().unwrap()),
        (
            "AWS_SHARED_CREDENTIALS_FILE",
            dir.path().join("none").to_str().unwrap(),
        ),
    ]);
    let found = mfa_challenge_with(&Fs::real(), &env, "admin")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(found, challenge());
    assert_eq!(
        mfa_challenge_with(&Fs::real(), &env, "no-mfa").await.unwrap(),
        None
    );
    assert_eq!(
        mfa_challenge_with(&Fs::real(), &env, "missing").await.unwrap(),
        None
    );
}

/// STS on loopback: AssumeRole with the right code returns credentials, any other is refused as
/// STS refuses it. Records each request's form fields and the access key that signed it.
async fn fake_sts(seen: Arc<Mutex<Vec<(String, String)>>>) -> String {
    use axum::body::{Body, to_bytes};
    use axum::http::{Request, Response, StatusCode};
    use dynotable_stand_ins::{serve, signer, sts};
    serve(axum::Router::new().fallback(move |request: Request<Body>| {
        let seen = seen.clone();
        async move {
            let signer = signer(request.headers()).unwrap_or_default();
            let body = to_bytes(request.into_body(), usize::MAX).await.unwrap();
            let form = String::from_utf8(body.to_vec()).unwrap();
            seen.lock().unwrap().push((signer, form.clone()));
            let (status, xml) = if form.contains("TokenCode=123456") {
                let assumed =
                    sts::assumed_role("Admin", "ASIATEMPORARYKEY", "temporary-secret", "temporary-token");
                (StatusCode::OK, assumed)
            } else {
                (StatusCode::FORBIDDEN, sts::MFA_REFUSED.to_owned())
            };
            Response::builder()
                .status(status)
                .header("content-type", "text/xml")
                .body(Body::from(xml))
                .unwrap()
        }
    }))
    .await
}

fn challenge() -> MfaChallenge {
    MfaChallenge {
        role: RoleSettings {
            profile: "admin".into(),
            role_arn: "arn:aws:iam::111122223333:role/Admin".into(),
            source: RoleSource::Profile("base".into()),
            mfa_serial: Some("arn:aws:iam::111122223333:mfa/me".into()),
            external_id: None,
            session_name: None,
            duration_seconds: Some(1800),
        },
        mfa_serial: "arn:aws:iam::111122223333:mfa/me".into(),
    }
}

#[tokio::test]
async fn assume_role_sends_the_serial_and_code_signed_by_the_source_profile() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let url = fake_sts(seen.clone()).await;
    let source = aws_config::defaults(BehaviorVersion::latest())
        .region(Region::new("eu-west-1"))
        .credentials_provider(Credentials::new("AKIABASEKEY", "base-secret", None, None, "test"))
        .endpoint_url(&url)
        .load()
        .await;

    let assumed = assume_role_with_mfa(&source, &challenge(), " 123456 ")
        .await
        .unwrap();
    assert_eq!(assumed.access_key_id, "ASIATEMPORARYKEY");
    assert_eq!(assumed.session_token, "temporary-token");
    assert!(assumed.is_fresh(std::time::SystemTime::now()));
    assert!(!format!("{assumed:?}").contains("temporary-secret"));

    let (signer, form) = seen.lock().unwrap()[0].clone();
    assert_eq!(signer, "AKIABASEKEY");
    for field in [
        "Action=AssumeRole",
        "RoleArn=arn%3Aaws%3Aiam%3A%3A111122223333%3Arole%2FAdmin",
        "SerialNumber=arn%3Aaws%3Aiam%3A%3A111122223333%3Amfa%2Fme",
        "TokenCode=123456",
        "DurationSeconds=1800",
        "RoleSessionName=dynotable",
    ] {
        assert!(form.contains(field), "{field} not in {form}");
    }

    let refused = assume_role_with_mfa(&source, &challenge(), "654321")
        .await
        .unwrap_err();
    assert_eq!(
        refused,
        MfaError::Refused {
            role_arn: "arn:aws:iam::111122223333:role/Admin".into(),
            message: "MultiFactorAuthentication failed with invalid MFA one time pass code.".into()
        }
    );
    // A malformed code is refused before anything is sent.
    let before = seen.lock().unwrap().len();
    assert_eq!(
        assume_role_with_mfa(&source, &challenge(), "12 34")
            .await
            .unwrap_err(),
        MfaError::MalformedCode
    );
    assert_eq!(seen.lock().unwrap().len(), before);
}

#[tokio::test]
async fn assume_role_with_mfa_sends_the_profiles_external_id_and_session_name() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let url = fake_sts(seen.clone()).await;
    let source = aws_config::defaults(BehaviorVersion::latest())
        .region(Region::new("eu-west-1"))
        .credentials_provider(Credentials::new("AKIABASEKEY", "base-secret", None, None, "test"))
        .endpoint_url(&url)
        .load()
        .await;
    let mut with_keys = challenge();
    with_keys.role.external_id = Some("partner-42".into());
    with_keys.role.session_name = Some("alice-laptop".into());
    assume_role_with_mfa(&source, &with_keys, "123456").await.unwrap();
    let (_, form) = seen.lock().unwrap()[0].clone();
    for field in ["ExternalId=partner-42", "RoleSessionName=alice-laptop"] {
        assert!(form.contains(field), "{field} not in {form}");
    }
    assert!(!form.contains("RoleSessionName=dynotable"), "{form}");
}
