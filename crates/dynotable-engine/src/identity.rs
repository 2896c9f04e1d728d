//! Who a request speaks for, as the ARNs it is answered with report it: the region the client
//! signed for and the account.
//!
//! DynamoDB's tables live in one account and one region, and every ARN names both
//! (`arn:aws:dynamodb:REGION:ACCOUNT:table/NAME`). DynoTable keeps one table namespace for every
//! region (docs/compatibility.md): a table created by a request signed for `eu-west-1` is read
//! by one signed for `us-east-1` too, and each ARN — TableArn, IndexArn, LatestStreamArn,
//! StreamArn, a stream record's `awsRegion` — reports the region of the request that reads it.
//! The account is the engine's (`Options::account_id`).
//!
//! The identity is held for the length of one call ([`scope`], from `Engine::call_as`), so the
//! code that makes ARNs deep inside an operation reads it without every operation passing it on;
//! outside a call (the engine's own work) it is [`Identity::default`].

use std::future::Future;

/// The region a request is reported in when it names none (an unsigned request, the app's
/// embedded engine).
pub const DEFAULT_REGION: &str = "local";
/// The account id the engine reports unless configured otherwise.
pub const DEFAULT_ACCOUNT: &str = "000000000000";

/// The region and account of one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub region: String,
    pub account: String,
}

impl Default for Identity {
    fn default() -> Identity {
        Identity {
            region: DEFAULT_REGION.to_owned(),
            account: DEFAULT_ACCOUNT.to_owned(),
        }
    }
}

impl Identity {
    /// The ARN of a table of this region and account.
    pub fn table_arn(&self, table: &str) -> String {
        format!("arn:aws:dynamodb:{}:{}:table/{table}", self.region, self.account)
    }
}

tokio::task_local! {
    static CURRENT: Identity;
    static OPERATION: String;
}

/// Runs `call` as `identity`.
pub(crate) async fn scope<F: Future>(identity: Identity, call: F) -> F::Output {
    CURRENT.scope(identity, call).await
}

/// Runs `call`, the DynamoDB operation `operation`, as `identity`.
pub(crate) async fn scope_operation<F: Future>(identity: Identity, operation: &str, call: F) -> F::Output {
    OPERATION
        .scope(operation.to_owned(), CURRENT.scope(identity, call))
        .await
}

/// Refuses a table ARN given as a TableName that names no table of the caller's region and
/// account, as the service does: another region's is `ValidationException: 1 validation error
/// detected: Invalid AWS region in '<arn>'` (the service's sentence, quoted in public reports of
/// UpdateContinuousBackups and DescribeContinuousBackups), another account's is
/// `AccessDeniedException` with the IAM sentence (no resource-based policy here lets another
/// account in; the principal is this account's root, as requests are not authenticated). A value
/// that is not an ARN passes.
pub(crate) fn check_table_arn(name: &str) -> Result<(), crate::ApiError> {
    let mut parts = name.splitn(6, ':');
    if parts.next() != Some("arn") {
        return Ok(());
    }
    let (region, account) = (parts.nth(2), parts.next());
    let caller = current();
    if region.is_some_and(|region| region != caller.region) {
        return Err(crate::ApiError::validation(format!(
            "1 validation error detected: Invalid AWS region in '{name}'"
        )));
    }
    if account.is_some_and(|account| account != caller.account) {
        let operation = OPERATION.try_with(String::clone).unwrap_or_default();
        return Err(crate::ApiError::new(
            crate::ErrorKind::AccessDeniedException,
            format!(
                "User: arn:aws:iam::{}:root is not authorized to perform: dynamodb:{operation} on resource: {name} because no resource-based policy allows the dynamodb:{operation} action",
                caller.account
            ),
        ));
    }
    Ok(())
}

/// The identity of the call in progress, or the default one outside a call.
pub(crate) fn current() -> Identity {
    CURRENT.try_with(Identity::clone).unwrap_or_default()
}

/// The account of a resource ARN (`arn:PARTITION:SERVICE:REGION:ACCOUNT:RESOURCE`), if it has
/// that shape.
pub(crate) fn account_of_arn(arn: &str) -> Option<&str> {
    let mut parts = arn.splitn(6, ':');
    (parts.next() == Some("arn")).then_some(())?;
    parts.nth(3)
}

/// The region a SigV4 `Authorization` header was signed for: the third field of its credential
/// scope (`AWS4-HMAC-SHA256 Credential=AKID/20250101/eu-west-1/dynamodb/aws4_request, ...`).
pub fn region_of_authorization(header: &str) -> Option<&str> {
    let credential = header.split_once("Credential=")?.1;
    let scope = credential.split([',', ' ']).next()?;
    let region = scope.split('/').nth(2)?;
    (!region.is_empty()).then_some(region)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_region_is_the_credential_scope_s_third_field() {
        let header = "AWS4-HMAC-SHA256 Credential=AKID/20250101/eu-west-1/dynamodb/aws4_request, \
                      SignedHeaders=host;x-amz-date, Signature=abc";
        assert_eq!(region_of_authorization(header), Some("eu-west-1"));
        assert_eq!(
            region_of_authorization(
                "AWS4-HMAC-SHA256 Credential=AKID/20250101/ap-south-2/dynamodb/aws4_request"
            ),
            Some("ap-south-2")
        );
        assert_eq!(region_of_authorization("Bearer token"), None);
        assert_eq!(
            region_of_authorization("AWS4-HMAC-SHA256 Credential=AKID/20250101"),
            None
        );
        assert_eq!(
            region_of_authorization("AWS4-HMAC-SHA256 Credential=AKID/20250101//dynamodb/x"),
            None
        );
    }

    #[test]
    fn the_account_of_an_arn() {
        assert_eq!(
            account_of_arn("arn:aws:dynamodb:us-east-1:123456789012:table/T"),
            Some("123456789012")
        );
        assert_eq!(account_of_arn("arn:aws:dynamodb:us-east-1"), None);
        assert_eq!(account_of_arn("table/T"), None);
    }

    #[tokio::test]
    async fn a_table_arn_of_another_region_or_account_is_refused() {
        let identity = Identity {
            region: "eu-west-1".into(),
            account: "123456789012".into(),
        };
        let check = |name: &'static str| {
            scope_operation(identity.clone(), "GetItem", async move { check_table_arn(name) })
        };
        assert!(check("Pets").await.is_ok());
        assert!(
            check("arn:aws:dynamodb:eu-west-1:123456789012:table/Pets")
                .await
                .is_ok()
        );
        let other_region = check("arn:aws:dynamodb:us-east-1:123456789012:table/Pets")
            .await
            .unwrap_err();
        assert_eq!(
            other_region.message,
            "1 validation error detected: Invalid AWS region in 'arn:aws:dynamodb:us-east-1:123456789012:table/Pets'"
        );
        let other_account = check("arn:aws:dynamodb:eu-west-1:111122223333:table/Pets")
            .await
            .unwrap_err();
        assert_eq!(other_account.kind, crate::ErrorKind::AccessDeniedException);
        assert_eq!(
            other_account.message,
            "User: arn:aws:iam::123456789012:root is not authorized to perform: dynamodb:GetItem on resource: arn:aws:dynamodb:eu-west-1:111122223333:table/Pets because no resource-based policy allows the dynamodb:GetItem action"
        );
    }

    #[tokio::test]
    async fn a_call_sees_its_identity_and_the_rest_the_default() {
        let identity = Identity {
            region: "eu-west-1".into(),
            account: "123456789012".into(),
        };
        let seen = scope(identity.clone(), async { current() }).await;
        assert_eq!(seen, identity);
        assert_eq!(current(), Identity::default());
        assert_eq!(
            identity.table_arn("T"),
            "arn:aws:dynamodb:eu-west-1:123456789012:table/T"
        );
    }
}
