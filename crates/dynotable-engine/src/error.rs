//! The engine's errors.
//!
//! Two kinds, kept apart on purpose:
//! - [`ApiError`]: what a DynamoDB client is told — an exception named after the service's own
//!   ([`ErrorKind`]), its message, and the extra members some exceptions carry. The server turns it
//!   into the wire format (`{"__type": ..., "message": ...}`) in one place.
//! - [`EngineError`]: the engine could not open or use its storage. Seen by the host, not by a
//!   DynamoDB client; when it happens during a request it becomes an `InternalServerError`.

use std::path::PathBuf;

use dynotable_types::{ConstraintViolation, Item, ValidationError};

/// The DynamoDB exceptions the engine raises. The variant name is the exception's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    ValidationException,
    SerializationException,
    AccessDeniedException,
    UnknownOperationException,
    ResourceNotFoundException,
    TableNotFoundException,
    ResourceInUseException,
    ConditionalCheckFailedException,
    ItemCollectionSizeLimitExceededException,
    LimitExceededException,
    TransactionCanceledException,
    TransactionConflictException,
    TransactionInProgressException,
    IdempotentParameterMismatchException,
    ExpiredIteratorException,
    TrimmedDataAccessException,
    DuplicateItemException,
    ProvisionedThroughputExceededException,
    InternalServerError,
}

impl ErrorKind {
    /// The exception's name, as the wire's `__type` ends.
    pub fn name(self) -> &'static str {
        match self {
            Self::ValidationException => "ValidationException",
            Self::SerializationException => "SerializationException",
            Self::AccessDeniedException => "AccessDeniedException",
            Self::UnknownOperationException => "UnknownOperationException",
            Self::ResourceNotFoundException => "ResourceNotFoundException",
            Self::TableNotFoundException => "TableNotFoundException",
            Self::ResourceInUseException => "ResourceInUseException",
            Self::ConditionalCheckFailedException => "ConditionalCheckFailedException",
            Self::ItemCollectionSizeLimitExceededException => "ItemCollectionSizeLimitExceededException",
            Self::LimitExceededException => "LimitExceededException",
            Self::TransactionCanceledException => "TransactionCanceledException",
            Self::TransactionConflictException => "TransactionConflictException",
            Self::TransactionInProgressException => "TransactionInProgressException",
            Self::IdempotentParameterMismatchException => "IdempotentParameterMismatchException",
            Self::ExpiredIteratorException => "ExpiredIteratorException",
            Self::TrimmedDataAccessException => "TrimmedDataAccessException",
            Self::DuplicateItemException => "DuplicateItemException",
            Self::ProvisionedThroughputExceededException => "ProvisionedThroughputExceededException",
            Self::InternalServerError => "InternalServerError",
        }
    }

    /// The namespace the service puts before `#` in `__type`. Validation, serialization and
    /// unknown-operation errors come from the service framework ("coral"), the rest from DynamoDB.
    pub fn namespace(self) -> &'static str {
        match self {
            Self::ValidationException => "com.amazon.coral.validate",
            Self::SerializationException | Self::UnknownOperationException | Self::AccessDeniedException => {
                "com.amazon.coral.service"
            }
            _ => "com.amazonaws.dynamodb.v20120810",
        }
    }

    /// The HTTP status: 500 only for a real internal fault, 400 for everything the client caused.
    pub fn http_status(self) -> u16 {
        match self {
            Self::InternalServerError => 500,
            _ => 400,
        }
    }
}

/// An error a DynamoDB client receives.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    pub kind: ErrorKind,
    pub message: String,
    /// The item a `ConditionalCheckFailedException` carries when the request asked for it with
    /// `ReturnValuesOnConditionCheckFailure = ALL_OLD`.
    pub item: Option<Item>,
    /// A `TransactionCanceledException`'s reasons, one per action in request order.
    pub cancellation_reasons: Option<Vec<CancellationReason>>,
    /// What a failed request was still charged, when it asked for `ReturnConsumedCapacity`: a
    /// write whose condition was false consumes capacity (rule B.3) although DynamoDB's error
    /// response does not say how much. The wire format leaves it out, as the service does; the
    /// desktop app shows it beside its estimate.
    pub consumed_capacity: Option<Box<crate::api::ConsumedCapacity>>,
    /// Why a `ProvisionedThroughputExceededException` was raised, as today's service says it
    /// (`ThrottlingReasons`, rules B.10 and B.19 in docs/dynamodb-rules.md).
    pub throttling_reasons: Option<Vec<ThrottlingReason>>,
}

/// One reason a request was throttled (`ThrottlingReason` in the API): `reason` is
/// `{Table|Index}{Read|Write}{ProvisionedThroughputExceeded|KeyRangeThroughputExceeded|...}`,
/// `resource` the ARN of the table or index.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ThrottlingReason {
    pub reason: String,
    pub resource: String,
}

/// Why one action of a transaction did not go through (`CancellationReason` in the API).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct CancellationReason {
    /// `None`, `ConditionalCheckFailed`, `ValidationError`, `ItemCollectionSizeLimitExceeded`, ...
    pub code: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<Item>,
}

/// The message of `TransactionConflictException` and of a `TransactionConflict` cancellation
/// reason (API reference, `TransactionCanceledException`: "Code: TransactionConflict. Message:
/// Transaction is ongoing for the item"; written without the final period, as the service sends
/// its other reason messages).
const TRANSACTION_CONFLICT_MESSAGE: &str = "Transaction is ongoing for the item";

impl CancellationReason {
    /// An action that did not fail itself (`None`, no message).
    pub fn none() -> CancellationReason {
        CancellationReason {
            code: "None".into(),
            message: None,
            item: None,
        }
    }

    /// An action whose item another ongoing request holds.
    pub fn transaction_conflict() -> CancellationReason {
        CancellationReason {
            code: "TransactionConflict".into(),
            message: Some(TRANSACTION_CONFLICT_MESSAGE.into()),
            item: None,
        }
    }
}

impl ApiError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> ApiError {
        ApiError {
            kind,
            message: message.into(),
            item: None,
            cancellation_reasons: None,
            consumed_capacity: None,
            throttling_reasons: None,
        }
    }

    /// A `ValidationException` with the service's message.
    pub fn validation(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorKind::ValidationException, message)
    }

    /// The error as today's service words the request checks of PutItem, UpdateItem and
    /// DeleteItem (rule B.16): a ValidationException's sentence inside the one-error envelope
    /// (`1 validation error detected: ExpressionAttributeValues must not be empty`). A message
    /// already in an envelope, and every other error, is left as it is.
    pub fn enveloped(mut self) -> ApiError {
        if self.kind == ErrorKind::ValidationException && !is_envelope(&self.message) {
            self.message = format!("1 validation error detected: {}", self.message);
        }
        self
    }

    /// The `N validation errors detected: ...` envelope for failed member constraints.
    pub fn constraints(violations: Vec<ConstraintViolation>) -> ApiError {
        ApiError::validation(ValidationError::Constraints(violations).message())
    }

    /// `ResourceNotFoundException` as data-plane operations report it today (rules B.10).
    pub fn resource_not_found() -> ApiError {
        ApiError::new(
            ErrorKind::ResourceNotFoundException,
            "Requested resource not found",
        )
    }

    /// `ResourceNotFoundException` as control-plane operations word it (rules B.10).
    pub fn table_not_found(table: &str) -> ApiError {
        ApiError::new(
            ErrorKind::ResourceNotFoundException,
            format!("Requested resource not found: Table: {table} not found"),
        )
    }

    /// `ConditionalCheckFailedException`, with the current item when the request asked for it.
    pub fn conditional_check_failed(item: Option<Item>) -> ApiError {
        ApiError {
            kind: ErrorKind::ConditionalCheckFailedException,
            message: "The conditional request failed".into(),
            item,
            cancellation_reasons: None,
            consumed_capacity: None,
            throttling_reasons: None,
        }
    }

    /// `TransactionCanceledException` with its reasons (rule B.10): the message lists each
    /// action's code in request order.
    pub fn transaction_canceled(reasons: Vec<CancellationReason>) -> ApiError {
        let codes: Vec<&str> = reasons.iter().map(|r| r.code.as_str()).collect();
        ApiError {
            kind: ErrorKind::TransactionCanceledException,
            message: format!(
                "Transaction cancelled, please refer cancellation reasons for specific reasons [{}]",
                codes.join(", ")
            ),
            item: None,
            cancellation_reasons: Some(reasons),
            consumed_capacity: None,
            throttling_reasons: None,
        }
    }

    /// `TransactionConflictException`: a PutItem, UpdateItem or DeleteItem met an item that an
    /// ongoing TransactWriteItems includes (DG `transaction-apis.html`, "Transaction conflict
    /// handling in DynamoDB"; message: rules table, docs/dynamodb-rules.md).
    pub fn transaction_conflict() -> ApiError {
        ApiError::new(
            ErrorKind::TransactionConflictException,
            TRANSACTION_CONFLICT_MESSAGE,
        )
    }

    /// `TransactionCanceledException` for a transaction some of whose items (`held[i]`) another
    /// request holds: `TransactionConflict` for those, `None` for the others, in request order.
    pub fn transaction_conflicts(held: &[bool]) -> ApiError {
        ApiError::transaction_canceled(
            held.iter()
                .map(|held| {
                    if *held {
                        CancellationReason::transaction_conflict()
                    } else {
                        CancellationReason::none()
                    }
                })
                .collect(),
        )
    }

    pub fn internal(err: impl std::fmt::Display) -> ApiError {
        tracing::error!(%err, "internal error while serving a request");
        ApiError::new(ErrorKind::InternalServerError, "Internal server error")
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for ApiError {}

impl From<ValidationError> for ApiError {
    fn from(err: ValidationError) -> ApiError {
        ApiError::validation(err.message())
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(err: sqlx::Error) -> ApiError {
        // SQLITE_FULL (13): an in-memory database at its cap (just under 2 GiB, SQLite's `memdb`:
        // docs/compatibility.md) or a database file whose disk is full. DynamoDB has no such
        // limit, so no exception of its own fits; the request is refused with a 400 that says
        // what happened and what to do, rather than a 500 the SDKs would retry.
        if err
            .as_database_error()
            .and_then(|db| db.code())
            .is_some_and(|code| code == "13")
        {
            tracing::error!(%err, "the database is full");
            return ApiError::new(
                ErrorKind::LimitExceededException,
                "The local database is full: an in-memory database holds at most about 2 GiB, \
                 and a database file at most what its disk has free. Delete items or tables, or \
                 run with a database file on a larger disk.",
            );
        }
        ApiError::internal(err)
    }
}

/// The engine could not open or use its storage.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("cannot create the data folder {path}: {source}")]
    CreateFolder { path: PathBuf, source: std::io::Error },
    #[error(
        "the database {path} is already open in another DynoTable engine (dynotable-local or the desktop app); \
         a database file is used by one process at a time"
    )]
    InUse { path: PathBuf },
    #[error("cannot lock the database with {path}: {source}")]
    Lock { path: PathBuf, source: std::io::Error },
    #[error("the database could not be opened: {0}")]
    Open(#[source] sqlx::Error),
    #[error("the database could not be migrated: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("the database failed: {0}")]
    Storage(#[from] sqlx::Error),
    #[error("the catalog holds a table definition that cannot be read: {0}")]
    Catalog(String),
}

/// Whether a message is already an `N validation error(s) detected: ` envelope.
fn is_envelope(message: &str) -> bool {
    let digits = message.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0
        && (message[digits..].starts_with(" validation error detected: ")
            || message[digits..].starts_with(" validation errors detected: "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_validation_sentence_is_put_in_the_one_error_envelope() {
        let err = ApiError::validation("ExpressionAttributeValues must not be empty").enveloped();
        assert_eq!(
            err.message,
            "1 validation error detected: ExpressionAttributeValues must not be empty"
        );
    }

    #[test]
    fn a_message_already_in_an_envelope_is_not_wrapped_twice() {
        for message in [
            "1 validation error detected: Value null at 'key' failed to satisfy constraint: Member must not be null",
            "12 validation errors detected: a; b",
        ] {
            assert_eq!(ApiError::validation(message).enveloped().message, message);
        }
    }

    #[test]
    fn other_exceptions_keep_their_message() {
        let err = ApiError::resource_not_found().enveloped();
        assert_eq!(err.message, "Requested resource not found");
        let err = ApiError::conditional_check_failed(None).enveloped();
        assert_eq!(err.message, "The conditional request failed");
    }

    /// A write past what the database may hold (here a real SQLite capped with max_page_count)
    /// is a LimitExceededException that says so, not an InternalServerError.
    #[tokio::test]
    async fn a_full_database_is_a_clear_refusal() {
        use sqlx::Connection;
        let mut conn = sqlx::SqliteConnection::connect("sqlite::memory:").await.unwrap();
        sqlx::query("CREATE TABLE t (v BLOB)")
            .execute(&mut conn)
            .await
            .unwrap();
        sqlx::query("PRAGMA max_page_count = 3")
            .execute(&mut conn)
            .await
            .unwrap();
        let full = sqlx::query("INSERT INTO t VALUES (zeroblob(100000))")
            .execute(&mut conn)
            .await
            .unwrap_err();
        let err = ApiError::from(full);
        assert_eq!(err.kind, ErrorKind::LimitExceededException);
        assert!(
            err.message.starts_with("The local database is full"),
            "{}",
            err.message
        );
        // Any other storage failure stays an internal error.
        let other = sqlx::query("SELECT * FROM missing")
            .execute(&mut conn)
            .await
            .unwrap_err();
        assert_eq!(ApiError::from(other).kind, ErrorKind::InternalServerError);
    }

    #[test]
    fn a_sentence_that_starts_with_a_number_is_still_enveloped() {
        let err = ApiError::validation("10 items is too many").enveloped();
        assert_eq!(err.message, "1 validation error detected: 10 items is too many");
    }
}
