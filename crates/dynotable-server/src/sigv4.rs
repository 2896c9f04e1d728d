//! SigV4 verification for `dynotable-local --auth ACCESS_KEY:SECRET` (and the app's share port
//! with a key set): the server recomputes the signature of each request, as the service does,
//! and refuses what does not match with the service's exceptions.
//!
//! # What is checked, in the service's order
//!
//! The order and the wording are the service's as recorded by dynalite from the live service
//! (`docs/compatibility.md`, "Wire protocol"); every refusal is a 400 with a
//! `com.amazon.coral.service#<Name>` body.
//!
//! 1. An `Authorization` header that starts with `AWS4-`: otherwise
//!    `MissingAuthenticationTokenException` ("Request is missing Authentication Token").
//! 2. Its `Credential`, `Signature` and `SignedHeaders` parameters, and an `X-Amz-Date` header:
//!    otherwise `IncompleteSignatureException`, one sentence per missing piece, then the header.
//! 3. The date: ISO 8601 basic format, and within 15 minutes of the server's clock either way
//!    (`InvalidSignatureException`, "Signature expired: … is now earlier than …" or "Signature
//!    not yet current: … is still later than …").
//! 4. `host` among the signed headers.
//! 5. The algorithm, `AWS4-HMAC-SHA256`.
//! 6. The credential scope: `KEY/YYYYMMDD/REGION/dynamodb/aws4_request`, its date the request's.
//! 7. The access key: the configured one, or `UnrecognizedClientException` ("The security token
//!    included in the request is invalid.").
//! 8. The signature: the canonical request (method, path, query, the signed headers' canonical
//!    values, the SHA-256 of the body as sent), the string to sign, and the HMAC-SHA256 chain of
//!    the secret over date, region, service and `aws4_request`. A different one is
//!    `InvalidSignatureException` ("The request signature we calculated does not match …").
//!
//! The comparison of the signatures takes the same time wherever they differ. A session token
//! (`X-Amz-Security-Token`) is not checked beyond being covered by the signature when signed:
//! there are no temporary credentials to check it against.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::http::{HeaderMap, Method, Uri};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// The one algorithm SigV4 has.
const ALGORITHM: &str = "AWS4-HMAC-SHA256";

/// How far a request's date may be from the server's clock, either way.
pub const CLOCK_SKEW: Duration = Duration::from_secs(15 * 60);

/// The service name a DynamoDB (and DynamoDB Streams) credential scope carries.
const SERVICE: &str = "dynamodb";

/// The access key and secret a server accepts.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    pub access_key: String,
    pub secret: String,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The secret never reaches a log.
        f.debug_struct("Credentials")
            .field("access_key", &self.access_key)
            .finish_non_exhaustive()
    }
}

impl std::str::FromStr for Credentials {
    type Err = String;

    /// `ACCESS_KEY:SECRET`, both non-empty; the secret may itself contain `:`.
    fn from_str(text: &str) -> Result<Credentials, String> {
        match text.split_once(':') {
            Some((access_key, secret)) if !access_key.is_empty() && !secret.is_empty() => Ok(Credentials {
                access_key: access_key.to_owned(),
                secret: secret.to_owned(),
            }),
            _ => Err("expected ACCESS_KEY:SECRET".to_owned()),
        }
    }
}

/// Why a request was refused: the exception's name and its message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub name: &'static str,
    pub message: String,
}

impl Refusal {
    fn new(name: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            name,
            message: message.into(),
        }
    }

    fn missing_token() -> Refusal {
        Refusal::new(
            "MissingAuthenticationTokenException",
            "Request is missing Authentication Token",
        )
    }

    fn incomplete(message: impl Into<String>) -> Refusal {
        Refusal::new("IncompleteSignatureException", message)
    }

    fn invalid(message: impl Into<String>) -> Refusal {
        Refusal::new("InvalidSignatureException", message)
    }

    /// The `__type` of the error body.
    pub fn error_type(&self) -> String {
        format!("com.amazon.coral.service#{}", self.name)
    }
}

/// The message of a signature that does not match, the service's.
pub const SIGNATURE_MISMATCH: &str = "The request signature we calculated does not match the signature you provided. \
     Check your AWS Secret Access Key and signing method. Consult the service documentation for details.";

/// The message of an unknown access key, the service's.
pub const UNKNOWN_KEY: &str = "The security token included in the request is invalid.";

/// The parts of a request the signature covers.
pub struct Signed<'a> {
    pub method: &'a Method,
    pub uri: &'a Uri,
    pub headers: &'a HeaderMap,
    /// The body as it came over the wire (compressed, if it was sent compressed).
    pub body: &'a [u8],
}

/// Checks `request`'s signature against `credentials` at time `now`: steps 1 to 8 of the module
/// documentation.
pub fn verify(request: &Signed<'_>, credentials: &Credentials, now: SystemTime) -> Result<(), Refusal> {
    let header = request
        .headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .map(str::trim)
        .filter(|value| value.starts_with("AWS4-"))
        .ok_or_else(Refusal::missing_token)?;
    let authorization = Authorization::parse(header);
    let date = request
        .headers
        .get("x-amz-date")
        .and_then(|value| value.to_str().ok());

    let mut missing = String::new();
    for (name, value) in [
        ("Credential", authorization.credential),
        ("Signature", authorization.signature),
        ("SignedHeaders", authorization.signed_headers),
    ] {
        if value.is_none_or(str::is_empty) {
            missing.push_str(&format!("Authorization header requires '{name}' parameter. "));
        }
    }
    if date.is_none() {
        missing.push_str(
            "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ",
        );
    }
    if !missing.is_empty() {
        return Err(Refusal::incomplete(format!("{missing}Authorization={header}")));
    }
    let (Some(credential), Some(signature), Some(signed_headers), Some(date)) = (
        authorization.credential,
        authorization.signature,
        authorization.signed_headers,
        date,
    ) else {
        return Err(Refusal::incomplete(format!("Authorization={header}")));
    };

    let signed_at = parse_amz_date(date).ok_or_else(|| {
        Refusal::incomplete(format!(
            "Date must be in ISO-8601 'basic format'. Got '{date}'. See http://en.wikipedia.org/wiki/ISO_8601"
        ))
    })?;
    check_clock(signed_at, now)?;

    let signed_names: Vec<&str> = signed_headers.split(';').collect();
    if !signed_names.iter().any(|name| name.eq_ignore_ascii_case("host")) {
        return Err(Refusal::invalid(
            "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.",
        ));
    }
    if authorization.algorithm != ALGORITHM {
        return Err(Refusal::incomplete(format!(
            "Unsupported AWS 'algorithm': '{}' (only AWS4-HMAC-SHA256 for now). ",
            authorization.algorithm
        )));
    }

    let scope: Vec<&str> = credential.trim_end_matches('/').split('/').collect();
    let [access_key, scope_date, region, service, terminator] = scope[..] else {
        return Err(Refusal::incomplete(format!(
            "Credential must have exactly 5 slash-delimited elements, e.g. keyid/date/region/service/term, got '{credential}'"
        )));
    };
    let mut wrong_scope = String::new();
    if region.is_empty() {
        wrong_scope.push_str(&format!(
            "Credential should be scoped to a valid region, not '{region}'. "
        ));
    }
    if service != SERVICE {
        wrong_scope.push_str(&format!(
            "Credential should be scoped to correct service: '{SERVICE}'. "
        ));
    }
    if terminator != "aws4_request" {
        wrong_scope.push_str(&format!(
            "Credential should be scoped with a valid terminator: 'aws4_request', not '{terminator}'. "
        ));
    }
    if scope_date != &date[..8] {
        wrong_scope.push_str(&format!(
            "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '{scope_date}' != '{}', from '{date}'. ",
            &date[..8]
        ));
    }
    if !wrong_scope.is_empty() {
        return Err(Refusal::invalid(wrong_scope.trim_end().to_owned()));
    }

    if access_key != credentials.access_key {
        return Err(Refusal::new("UnrecognizedClientException", UNKNOWN_KEY));
    }

    let canonical = canonical_request(request, &signed_names);
    let scope = format!("{scope_date}/{region}/{service}/{terminator}");
    let string_to_sign = format!(
        "{ALGORITHM}\n{date}\n{scope}\n{}",
        hex::encode(Sha256::digest(canonical.as_bytes()))
    );
    let key = signing_key(&credentials.secret, scope_date, region, service);
    let expected = hmac(&key, string_to_sign.as_bytes());
    let given = hex::decode(signature).unwrap_or_default();
    if !constant_time_eq(&expected, &given) {
        return Err(Refusal::invalid(SIGNATURE_MISMATCH));
    }
    Ok(())
}

/// The `Authorization` header's algorithm and its `Credential`, `SignedHeaders` and `Signature`
/// parameters (separated by commas, spaces or both).
struct Authorization<'a> {
    algorithm: &'a str,
    credential: Option<&'a str>,
    signed_headers: Option<&'a str>,
    signature: Option<&'a str>,
}

impl<'a> Authorization<'a> {
    fn parse(header: &'a str) -> Authorization<'a> {
        let mut parts = header.split([',', ' ']).filter(|part| !part.is_empty());
        let algorithm = parts.next().unwrap_or_default();
        let mut authorization = Authorization {
            algorithm,
            credential: None,
            signed_headers: None,
            signature: None,
        };
        for part in parts {
            let Some((name, value)) = part.trim().split_once('=') else {
                continue;
            };
            match name {
                "Credential" => authorization.credential = Some(value),
                "SignedHeaders" => authorization.signed_headers = Some(value),
                "Signature" => authorization.signature = Some(value),
                _ => {}
            }
        }
        authorization
    }
}

/// Refuses a date more than [`CLOCK_SKEW`] from `now`, in the service's words.
fn check_clock(signed_at: u64, now: SystemTime) -> Result<(), Refusal> {
    let now = now.duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
    let skew = CLOCK_SKEW.as_secs();
    if signed_at + skew < now {
        return Err(Refusal::invalid(format!(
            "Signature expired: {} is now earlier than {} ({} - 15 min.)",
            format_amz_date(signed_at),
            format_amz_date(now - skew),
            format_amz_date(now)
        )));
    }
    if signed_at > now + skew {
        return Err(Refusal::invalid(format!(
            "Signature not yet current: {} is still later than {} ({} + 15 min.)",
            format_amz_date(signed_at),
            format_amz_date(now + skew),
            format_amz_date(now)
        )));
    }
    Ok(())
}

/// The canonical request of SigV4: method, canonical path, canonical query, the signed headers
/// with their canonical values, the list of signed headers, and the hex SHA-256 of the body.
fn canonical_request(request: &Signed<'_>, signed_names: &[&str]) -> String {
    let mut canonical = String::with_capacity(512);
    canonical.push_str(request.method.as_str());
    canonical.push('\n');
    canonical.push_str(&encode(request.uri.path(), false));
    canonical.push('\n');
    canonical.push_str(&canonical_query(request.uri.query().unwrap_or_default()));
    canonical.push('\n');
    let mut names: Vec<String> = signed_names
        .iter()
        .map(|name| name.to_ascii_lowercase())
        .collect();
    names.sort();
    for name in &names {
        canonical.push_str(name);
        canonical.push(':');
        let values: Vec<String> = request
            .headers
            .get_all(name.as_str())
            .iter()
            .map(|value| collapse_spaces(&String::from_utf8_lossy(value.as_bytes())))
            .collect();
        canonical.push_str(&values.join(","));
        canonical.push('\n');
    }
    canonical.push('\n');
    canonical.push_str(&names.join(";"));
    canonical.push('\n');
    canonical.push_str(&hex::encode(Sha256::digest(request.body)));
    canonical
}

/// A header value as SigV4 signs it: trimmed, runs of spaces made one.
fn collapse_spaces(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The query string's parameters, each name and value percent-encoded as SigV4 encodes them,
/// sorted by name and then value.
fn canonical_query(query: &str) -> String {
    let mut pairs: Vec<(String, String)> = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (encode(&decode(name), true), encode(&decode(value), true))
        })
        .collect();
    pairs.sort();
    pairs
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect::<Vec<_>>()
        .join("&")
}

/// SigV4's percent-encoding: every byte but `A-Z a-z 0-9 - _ . ~` (and `/` in a path) as `%XX`.
/// Applied to the path as it came over the wire, which the SDKs sign encoded once more.
fn encode(text: &str, slash_too: bool) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric()
            || matches!(byte, b'-' | b'_' | b'.' | b'~')
            || (byte == b'/' && !slash_too)
        {
            encoded.push(byte as char);
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    encoded
}

/// Percent-decoding of a query name or value (`+` stays `+`, as SigV4 has it).
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Some(byte) = std::str::from_utf8(&bytes[i + 1..i + 3])
                .ok()
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            decoded.push(byte);
            i += 3;
        } else {
            decoded.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

fn hmac(key: &[u8], data: &[u8]) -> Vec<u8> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(data);
    mac.finalize().into_bytes().to_vec()
}

/// The signing key: HMAC-SHA256 of `AWS4<secret>` over the date, then the region, the service
/// and `aws4_request`.
pub fn signing_key(secret: &str, date: &str, region: &str, service: &str) -> Vec<u8> {
    let key = hmac(format!("AWS4{secret}").as_bytes(), date.as_bytes());
    let key = hmac(&key, region.as_bytes());
    let key = hmac(&key, service.as_bytes());
    hmac(&key, b"aws4_request")
}

/// Equality that takes the same time wherever two equal-length values differ.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// `YYYYMMDDTHHMMSSZ` as seconds since the epoch.
fn parse_amz_date(date: &str) -> Option<u64> {
    let bytes = date.as_bytes();
    if bytes.len() != 16 || bytes[8] != b'T' || bytes[15] != b'Z' {
        return None;
    }
    let digits = |range: std::ops::Range<usize>| -> Option<u64> {
        let text = date.get(range)?;
        text.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| text.parse().ok())?
    };
    let (year, month, day) = (digits(0..4)?, digits(4..6)?, digits(6..8)?);
    let (hour, minute, second) = (digits(9..11)?, digits(11..13)?, digits(13..15)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let days = days_from_civil(year as i64, month as i64, day as i64);
    u64::try_from(days * 86_400)
        .ok()
        .map(|at| at + hour * 3600 + minute * 60 + second)
}

/// Seconds since the epoch as `YYYYMMDDTHHMMSSZ`.
pub fn format_amz_date(at: u64) -> String {
    let days = (at / 86_400) as i64;
    let seconds = at % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}{month:02}{day:02}T{:02}{:02}{:02}Z",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The date of a day since 1970-01-01 (the inverse of [`days_from_civil`]).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    const KEY: &str = "AKIDEXAMPLE";
    const SECRET: &str = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

    fn credentials() -> Credentials {
        Credentials {
            access_key: KEY.into(),
            secret: SECRET.into(),
        }
    }

    /// A request signed the way the SDKs sign it, at `date`, with `secret`.
    fn signed(date: &str, key: &str, secret: &str, body: &[u8]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("host", HeaderValue::from_static("127.0.0.1:8000"));
        headers.insert(
            "content-type",
            HeaderValue::from_static("application/x-amz-json-1.0"),
        );
        headers.insert("x-amz-date", HeaderValue::from_str(date).unwrap());
        headers.insert(
            "x-amz-target",
            HeaderValue::from_static("DynamoDB_20120810.ListTables"),
        );
        let names = ["content-type", "host", "x-amz-date", "x-amz-target"];
        let uri: Uri = "/".parse().unwrap();
        let request = Signed {
            method: &Method::POST,
            uri: &uri,
            headers: &headers,
            body,
        };
        let canonical = canonical_request(&request, &names);
        let scope = format!("{}/eu-west-1/dynamodb/aws4_request", &date[..8]);
        let string_to_sign = format!(
            "{ALGORITHM}\n{date}\n{scope}\n{}",
            hex::encode(Sha256::digest(canonical.as_bytes()))
        );
        let signature = hex::encode(hmac(
            &signing_key(secret, &date[..8], "eu-west-1", "dynamodb"),
            string_to_sign.as_bytes(),
        ));
        let authorization = format!(
            "{ALGORITHM} Credential={key}/{scope}, SignedHeaders={}, Signature={signature}",
            names.join(";")
        );
        headers.insert("authorization", HeaderValue::from_str(&authorization).unwrap());
        headers
    }

    fn check(headers: &HeaderMap, body: &[u8], now: &str) -> Result<(), Refusal> {
        let uri: Uri = "/".parse().unwrap();
        let now = UNIX_EPOCH + Duration::from_secs(parse_amz_date(now).unwrap());
        verify(
            &Signed {
                method: &Method::POST,
                uri: &uri,
                headers,
                body,
            },
            &credentials(),
            now,
        )
    }

    #[test]
    fn the_signing_key_is_the_documented_chain() {
        // The AWS General Reference's example: secret, 20150830, us-east-1, iam.
        let key = signing_key(SECRET, "20150830", "us-east-1", "iam");
        assert_eq!(
            hex::encode(key),
            "c4afb1cc5771d871763a393e44b703571b55cc28424d1a5e86da6ed3c154a4b9"
        );
    }

    #[test]
    fn a_request_signed_with_the_secret_passes() {
        let headers = signed("20261201T120000Z", KEY, SECRET, b"{}");
        assert_eq!(check(&headers, b"{}", "20261201T120500Z"), Ok(()));
    }

    #[test]
    fn another_secret_or_another_body_is_a_signature_mismatch() {
        let headers = signed("20261201T120000Z", KEY, "not-the-secret", b"{}");
        let refusal = check(&headers, b"{}", "20261201T120000Z").unwrap_err();
        assert_eq!(
            (refusal.name, refusal.message.as_str()),
            ("InvalidSignatureException", SIGNATURE_MISMATCH)
        );
        let headers = signed("20261201T120000Z", KEY, SECRET, b"{}");
        let refusal = check(&headers, br#"{"Limit":1}"#, "20261201T120000Z").unwrap_err();
        assert_eq!(refusal.name, "InvalidSignatureException");
    }

    #[test]
    fn an_unknown_key_is_unrecognized() {
        let headers = signed("20261201T120000Z", "AKIDOTHER", SECRET, b"{}");
        let refusal = check(&headers, b"{}", "20261201T120000Z").unwrap_err();
        assert_eq!(
            refusal,
            Refusal::new(
                "UnrecognizedClientException",
                "The security token included in the request is invalid."
            )
        );
    }

    #[test]
    fn a_clock_more_than_15_minutes_off_is_refused_in_the_services_words() {
        let headers = signed("20261201T120000Z", KEY, SECRET, b"{}");
        assert_eq!(check(&headers, b"{}", "20261201T121500Z"), Ok(()));
        assert_eq!(check(&headers, b"{}", "20261201T114500Z"), Ok(()));
        let late = check(&headers, b"{}", "20261201T121501Z").unwrap_err();
        assert_eq!(
            late,
            Refusal::invalid(
                "Signature expired: 20261201T120000Z is now earlier than 20261201T120001Z (20261201T121501Z - 15 min.)"
            )
        );
        let early = check(&headers, b"{}", "20261201T114459Z").unwrap_err();
        assert_eq!(
            early,
            Refusal::invalid(
                "Signature not yet current: 20261201T120000Z is still later than 20261201T115959Z (20261201T114459Z + 15 min.)"
            )
        );
    }

    #[test]
    fn a_missing_or_incomplete_authorization_is_refused() {
        let mut headers = HeaderMap::new();
        assert_eq!(
            check(&headers, b"{}", "20261201T120000Z").unwrap_err(),
            Refusal::missing_token()
        );
        headers.insert("authorization", HeaderValue::from_static("AWS4-"));
        assert_eq!(
            check(&headers, b"{}", "20261201T120000Z").unwrap_err(),
            Refusal::incomplete(
                "Authorization header requires 'Credential' parameter. Authorization header requires 'Signature' parameter. \
                 Authorization header requires 'SignedHeaders' parameter. Authorization header requires existence of \
                 either a 'X-Amz-Date' or a 'Date' header. Authorization=AWS4-"
            )
        );
    }

    #[test]
    fn host_must_be_signed_and_the_scope_must_be_dynamodbs() {
        let mut headers = signed("20261201T120000Z", KEY, SECRET, b"{}");
        let authorization = headers["authorization"]
            .to_str()
            .unwrap()
            .replace("content-type;host;", "content-type;");
        headers.insert("authorization", HeaderValue::from_str(&authorization).unwrap());
        assert_eq!(
            check(&headers, b"{}", "20261201T120000Z").unwrap_err().message,
            "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization."
        );
        let mut headers = signed("20261201T120000Z", KEY, SECRET, b"{}");
        let authorization = headers["authorization"]
            .to_str()
            .unwrap()
            .replace("/dynamodb/", "/s3/");
        headers.insert("authorization", HeaderValue::from_str(&authorization).unwrap());
        assert_eq!(
            check(&headers, b"{}", "20261201T120000Z").unwrap_err(),
            Refusal::invalid("Credential should be scoped to correct service: 'dynamodb'.")
        );
    }

    #[test]
    fn dates_round_trip() {
        for date in [
            "19700101T000000Z",
            "20000229T235959Z",
            "20261201T232758Z",
            "21000301T010203Z",
        ] {
            assert_eq!(format_amz_date(parse_amz_date(date).unwrap()), date);
        }
        assert_eq!(parse_amz_date("20261201T232758Z"), Some(1_796_167_678));
        assert_eq!(parse_amz_date("2026-12-01T23:27:58Z"), None);
        assert_eq!(parse_amz_date("20261301T000000Z"), None);
    }

    #[test]
    fn credentials_parse_from_key_and_secret() {
        let parsed: Credentials = "AKID:se:cret".parse().unwrap();
        assert_eq!(
            (parsed.access_key.as_str(), parsed.secret.as_str()),
            ("AKID", "se:cret")
        );
        assert!("AKID".parse::<Credentials>().is_err());
        assert!(":secret".parse::<Credentials>().is_err());
        assert!(!format!("{parsed:?}").contains("cret"));
    }
}
