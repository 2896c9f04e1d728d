//! Stand-ins for AWS services, for tests that must not reach AWS: DynamoDB and STS answered by a
//! router on a loopback port, written in each test for the case it checks.
//!
//! Each test builds its own [`axum::Router`] (what the service answers is the point of the test)
//! and hands it to [`serve`]. What is common lives here: where a request's SigV4 signature says it
//! comes from ([`signer`], [`signing_region`]) and the XML STS answers AssumeRole with
//! ([`sts`]).

use axum::http::HeaderMap;

/// Serves `router` on an ephemeral loopback port for the rest of the test; returns its URL.
pub async fn serve(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let address = listener.local_addr().expect("the port's address");
    tokio::spawn(async move { axum::serve(listener, router).await });
    format!("http://{address}")
}

/// The SigV4 credential scope of a request: `AKID/20250101/<region>/<service>/aws4_request`.
fn credential_scope(headers: &HeaderMap) -> Option<&str> {
    headers
        .get("authorization")?
        .to_str()
        .ok()?
        .split("Credential=")
        .nth(1)?
        .split(',')
        .next()
}

/// The access key id that signed the request.
pub fn signer(headers: &HeaderMap) -> Option<String> {
    credential_scope(headers)?.split('/').next().map(str::to_owned)
}

/// The region the request was signed for.
pub fn signing_region(headers: &HeaderMap) -> Option<String> {
    credential_scope(headers)?.split('/').nth(2).map(str::to_owned)
}

/// Whether the request is a DynamoDB call (JSON protocol, `X-Amz-Target`) rather than a
/// form-encoded STS one.
pub fn is_dynamodb(headers: &HeaderMap) -> bool {
    headers.contains_key("x-amz-target")
}

/// Runs the calling test again, alone, in a child process of the same test binary with `vars`
/// in its environment — for the parts of aws-config that read the process's environment
/// (`AWS_ACCESS_KEY_ID` for `credential_source = Environment`, `HOME` for the SSO token
/// cache), since tests may not change their own environment (`unsafe_code` is forbidden, and
/// other tests share the process). `test` is the test function's name.
///
/// Returns `true` in the child, which runs the test's body; in the parent it waits for the
/// child, fails the test with the child's output if the child failed, and returns `false`.
///
/// The child is chosen by `test` as a substring filter, not `--exact`: in a test binary of
/// several modules the full name has the module's path before it (`sso::a_sign_in_…`). The child
/// must then run exactly one test, or the parent fails.
pub fn in_child_with_env(test: &str, vars: &[(&str, &std::ffi::OsStr)]) -> bool {
    const MARK: &str = "DYNOTABLE_STAND_IN_CHILD";
    if std::env::var(MARK).as_deref() == Ok(test) {
        return true;
    }
    let output = std::process::Command::new(std::env::current_exe().expect("the test binary"))
        .args([test, "--nocapture", "--test-threads=1"])
        .env(MARK, test)
        .envs(vars.iter().map(|(k, v)| (*k, *v)))
        .output()
        .expect("the test binary runs again");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("test result: ok. 1 passed"),
        "the test failed in its child process:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    false
}

/// STS's answers, in its XML.
pub mod sts {
    /// The answer to a successful AssumeRole of `role` with these temporary credentials, valid
    /// until 2099.
    pub fn assumed_role(
        role: &str,
        access_key_id: &str,
        secret_access_key: &str,
        session_token: &str,
    ) -> String {
        format!(
            r#"<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleResult>
    <Credentials>
      <AccessKeyId>{access_key_id}</AccessKeyId>
      <SecretAccessKey>{secret_access_key}</SecretAccessKey>
      <SessionToken>{session_token}</SessionToken>
      <Expiration>2099-01-01T00:00:00Z</Expiration>
    </Credentials>
    <AssumedRoleUser>
      <AssumedRoleId>AROAEXAMPLE:dynotable</AssumedRoleId>
      <Arn>arn:aws:sts::111122223333:assumed-role/{role}/dynotable</Arn>
    </AssumedRoleUser>
  </AssumeRoleResult>
  <ResponseMetadata><RequestId>stand-in</RequestId></ResponseMetadata>
</AssumeRoleResponse>"#
        )
    }

    /// [`assumed_role`], its credentials valid until `expiration` (ISO 8601, UTC).
    pub fn assumed_role_until(
        role: &str,
        access_key_id: &str,
        secret_access_key: &str,
        session_token: &str,
        expiration: &str,
    ) -> String {
        assumed_role(role, access_key_id, secret_access_key, session_token)
            .replace("2099-01-01T00:00:00Z", expiration)
    }

    /// The instant `after` from now in whole seconds, and how STS writes it in an Expiration
    /// (ISO 8601, UTC).
    pub fn expiration_in(after: std::time::Duration) -> (std::time::SystemTime, String) {
        let seconds = (std::time::SystemTime::now() + after)
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970")
            .as_secs();
        let text = aws_smithy_types::DateTime::from_secs(seconds as i64)
            .fmt(aws_smithy_types::date_time::Format::DateTime)
            .expect("a date STS can write");
        (
            std::time::UNIX_EPOCH + std::time::Duration::from_secs(seconds),
            text,
        )
    }

    /// STS's refusal of an AssumeRole with a wrong MFA code (HTTP 403).
    pub const MFA_REFUSED: &str = r#"<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <Error><Type>Sender</Type><Code>AccessDenied</Code><Message>MultiFactorAuthentication failed with invalid MFA one time pass code.</Message></Error>
  <RequestId>stand-in</RequestId>
</ErrorResponse>"#;
}

/// IAM Identity Center's answers: SSO OIDC (RegisterClient, StartDeviceAuthorization,
/// CreateToken) and the portal's GetRoleCredentials, in their JSON (REST-JSON protocol: the
/// operation is the request's path, an error is named by its `__type`).
pub mod identity_center {
    /// The answer to RegisterClient (`POST /client/register`).
    pub fn registered(client_id: &str, client_secret: &str, secret_expires_at: i64) -> String {
        format!(
            r#"{{"clientId":"{client_id}","clientSecret":"{client_secret}","clientIdIssuedAt":1700000000,"clientSecretExpiresAt":{secret_expires_at}}}"#
        )
    }

    /// The answer to StartDeviceAuthorization (`POST /device_authorization`).
    pub fn device_authorization(
        device_code: &str,
        user_code: &str,
        verification_uri: &str,
        interval: i32,
    ) -> String {
        format!(
            r#"{{"deviceCode":"{device_code}","userCode":"{user_code}","verificationUri":"{verification_uri}","verificationUriComplete":"{verification_uri}?user_code={user_code}","expiresIn":600,"interval":{interval}}}"#
        )
    }

    /// The answer to CreateToken (`POST /token`) that grants a token.
    pub fn token(access_token: &str, refresh_token: &str, expires_in: i32) -> String {
        format!(
            r#"{{"accessToken":"{access_token}","tokenType":"Bearer","expiresIn":{expires_in},"refreshToken":"{refresh_token}"}}"#
        )
    }

    /// A CreateToken refusal (HTTP 400): `AuthorizationPendingException`, `SlowDownException`,
    /// `AccessDeniedException`, `ExpiredTokenException`…
    pub fn refusal(kind: &str, error: &str) -> String {
        format!(r#"{{"__type":"{kind}","error":"{error}","error_description":"stand-in"}}"#)
    }

    /// What the user does in the browser with a device authorization.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Approval {
        Approve,
        Deny,
        /// Never decides: CreateToken stays pending.
        Never,
    }

    /// A request IAM Identity Center's stand-in saw: its path, and its bearer token or body.
    pub type Seen = std::sync::Arc<std::sync::Mutex<Vec<(String, String)>>>;

    /// IAM Identity Center and DynamoDB on one loopback port (every profile's `endpoint_url`
    /// points at it). CreateToken with the device code answers "pending" once, then does what
    /// `approval` says: `access-1` (refreshable with `refresh-1`, expiring in `first_lifetime`
    /// seconds) when approved. CreateToken with `refresh-1` grants `access-2`.
    /// GetRoleCredentials answers the key `ASIAWITH-<bearer token>`; DynamoDB's ListTables
    /// answers `signed-by-<signer>`. Returns the URL and what was seen.
    pub async fn serve(first_lifetime: i32, approval: Approval) -> (String, Seen) {
        use axum::body::{Body, to_bytes};
        use axum::http::{Request, Response, StatusCode};
        let seen = Seen::default();
        let polls = std::sync::Arc::new(std::sync::Mutex::new(0));
        let recorded = seen.clone();
        let url = super::serve(axum::Router::new().fallback(move |request: Request<Body>| {
            let (seen, polls) = (recorded.clone(), polls.clone());
            async move {
                let path = request.uri().path().to_owned();
                let dynamodb = super::is_dynamodb(request.headers());
                let who = super::signer(request.headers()).unwrap_or_default();
                let bearer = request
                    .headers()
                    .get("x-amz-sso_bearer_token")
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned);
                let body = to_bytes(request.into_body(), usize::MAX)
                    .await
                    .unwrap_or_default();
                let body = String::from_utf8_lossy(&body).to_string();
                seen.lock()
                    .expect("the record")
                    .push((path.clone(), bearer.clone().unwrap_or(body.clone())));
                let ok = |json: String| (StatusCode::OK, json);
                let (status, json) = if dynamodb {
                    ok(format!(r#"{{"TableNames":["signed-by-{who}"]}}"#))
                } else {
                    match path.as_str() {
                        "/client/register" => ok(registered("client-1", "client-secret-1", 4_070_908_800)),
                        "/device_authorization" => ok(device_authorization(
                            "device-code-1",
                            "ABCD-EFGH",
                            "https://device.sso.example/",
                            1,
                        )),
                        "/token" if body.contains("refresh-1") => ok(token("access-2", "refresh-2", 28_800)),
                        "/token" => {
                            let mut polls = polls.lock().expect("the count");
                            *polls += 1;
                            let pending = refusal("AuthorizationPendingException", "authorization_pending");
                            match approval {
                                _ if *polls == 1 => (StatusCode::BAD_REQUEST, pending),
                                Approval::Never => (StatusCode::BAD_REQUEST, pending),
                                Approval::Deny => (
                                    StatusCode::BAD_REQUEST,
                                    refusal("AccessDeniedException", "access_denied"),
                                ),
                                Approval::Approve => ok(token("access-1", "refresh-1", first_lifetime)),
                            }
                        }
                        "/federation/credentials" => ok(role_credentials(
                            &format!("ASIAWITH-{}", bearer.unwrap_or_default()),
                            "role-secret",
                            "role-token",
                        )),
                        other => (
                            StatusCode::NOT_FOUND,
                            format!(r#"{{"__type":"NotFound","message":"{other}"}}"#),
                        ),
                    }
                };
                Response::builder()
                    .status(status)
                    .header("content-type", "application/json")
                    .body(Body::from(json))
                    .expect("a response")
            }
        }))
        .await;
        (url, seen)
    }

    /// The answer to GetRoleCredentials (`GET /federation/credentials`), valid until 2099.
    pub fn role_credentials(access_key_id: &str, secret_access_key: &str, session_token: &str) -> String {
        format!(
            r#"{{"roleCredentials":{{"accessKeyId":"{access_key_id}","secretAccessKey":"{secret_access_key}","sessionToken":"{session_token}","expiration":4070908800000}}}}"#
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_says_who_signed_for_which_region() {
        let mut headers = HeaderMap::new();
        headers.insert(
            "authorization",
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/eu-west-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00"
                .parse()
                .unwrap(),
        );
        assert_eq!(signer(&headers).as_deref(), Some("AKIDEXAMPLE"));
        assert_eq!(signing_region(&headers).as_deref(), Some("eu-west-1"));
        assert!(!is_dynamodb(&headers));
        assert_eq!(signer(&HeaderMap::new()), None);
    }
}
