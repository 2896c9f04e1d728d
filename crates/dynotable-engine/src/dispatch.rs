//! From an operation name and a JSON body to the operation, and back to JSON.

use std::future::Future;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::{ApiError, Engine, ErrorKind, ops};

pub(crate) async fn call(engine: &Engine, operation: &str, body: &[u8]) -> Result<Vec<u8>, ApiError> {
    match operation {
        "CreateTable" => run(body, |input| ops::create_table::run(engine, input)).await,
        "DescribeTable" => run(body, |input| ops::describe_table::run(engine, input)).await,
        "ListTables" => run(body, |input| ops::list_tables::run(engine, input)).await,
        "DeleteTable" => run(body, |input| ops::delete_table::run(engine, input)).await,
        "UpdateTable" => run(body, |input| ops::update_table::run(engine, input)).await,
        "PutItem" => run(body, |input| ops::put_item::run(engine, input)).await,
        "GetItem" => run_to_body(body, |input| ops::get_item::respond_body(engine, input)).await,
        "UpdateItem" => run(body, |input| ops::update_item::run(engine, input)).await,
        "DeleteItem" => run(body, |input| ops::delete_item::run(engine, input)).await,
        "Query" => run_page(body, |input| ops::query::respond(engine, input)).await,
        "Scan" => run_page(body, |input| ops::scan::respond(engine, input)).await,
        "BatchGetItem" => run(body, |input| ops::batch_get_item::run(engine, input)).await,
        "BatchWriteItem" => run(body, |input| ops::batch_write_item::run(engine, input)).await,
        "UpdateTimeToLive" => run(body, |input| crate::ttl::update_time_to_live(engine, input)).await,
        "DescribeTimeToLive" => run(body, |input| crate::ttl::describe_time_to_live(engine, input)).await,
        "TagResource" => run(body, |input| ops::tags::tag_resource(engine, input)).await,
        "UntagResource" => run(body, |input| ops::tags::untag_resource(engine, input)).await,
        "ListTagsOfResource" => run(body, |input| ops::tags::list_tags_of_resource(engine, input)).await,
        "DescribeContinuousBackups" => {
            run(body, |input| ops::continuous_backups::describe(engine, input)).await
        }
        "DescribeLimits" => run(body, |input| ops::account::describe_limits(engine, input)).await,
        "DescribeEndpoints" => run(body, |input| ops::account::describe_endpoints(engine, input)).await,
        "TransactWriteItems" => ops::transact_write_items::call(engine, body).await,
        "TransactGetItems" => run(body, |input| ops::transact_get_items::run(engine, input)).await,
        "ExecuteStatement" => run(body, |input| crate::partiql::execute_statement(engine, input)).await,
        "BatchExecuteStatement" => run(body, |i| crate::partiql::batch_execute_statement(engine, i)).await,
        "ExecuteTransaction" => run(body, |input| crate::partiql::execute_transaction(engine, input)).await,
        _ => Err(ApiError::new(ErrorKind::UnknownOperationException, "")),
    }
}

/// Deserialises the request, runs the operation, serialises its response.
pub(crate) async fn run<I, O, F>(body: &[u8], operation: impl FnOnce(I) -> F) -> Result<Vec<u8>, ApiError>
where
    I: DeserializeOwned,
    O: Serialize,
    F: Future<Output = Result<O, ApiError>>,
{
    let output = operation(input_of(body)?).await?;
    serde_json::to_vec(&output).map_err(ApiError::internal)
}

/// The request a body holds; an empty body is an empty request, as the service treats it.
pub(crate) fn input_of<I: DeserializeOwned>(body: &[u8]) -> Result<I, ApiError> {
    let body = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}".as_slice()
    } else {
        body
    };
    serde_json::from_slice(body).map_err(|err| serialization_error(body, err))
}

/// Deserialises the request and runs an operation that writes its own response body.
pub(crate) async fn run_to_body<I, F>(
    body: &[u8],
    operation: impl FnOnce(I) -> F,
) -> Result<Vec<u8>, ApiError>
where
    I: DeserializeOwned,
    F: Future<Output = Result<Vec<u8>, ApiError>>,
{
    operation(input_of(body)?).await
}

/// [`run`] for Query and Scan, whose pages may carry their items as stored
/// (`ReadPageOutput::into_json`).
async fn run_page<I, F>(body: &[u8], operation: impl FnOnce(I) -> F) -> Result<Vec<u8>, ApiError>
where
    I: DeserializeOwned,
    F: Future<Output = Result<crate::api::item::ReadPageOutput, ApiError>>,
{
    let body = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}".as_slice()
    } else {
        body
    };
    let input: I = serde_json::from_slice(body).map_err(|err| serialization_error(body, err))?;
    let output = operation(input).await?;
    output.into_json().map_err(ApiError::internal)
}

/// A body that is not JSON, or a member of the wrong JSON type. Values that are well-formed JSON
/// but not valid DynamoDB (an `N` that is not a number) are validated later, by the operation.
///
/// A body that does not parse as JSON at all is answered as the service answers it: a
/// `SerializationException` with no message (`{"__type":
/// "com.amazon.coral.service#SerializationException"}`, as dynalite recorded it from the
/// service; the wire leaves an empty message out). JSON of the wrong shape keeps a message.
fn serialization_error(body: &[u8], err: serde_json::Error) -> ApiError {
    if serde_json::from_slice::<serde::de::IgnoredAny>(body).is_err() {
        return ApiError::new(ErrorKind::SerializationException, "");
    }
    let message = match err.classify() {
        serde_json::error::Category::Syntax
        | serde_json::error::Category::Eof
        | serde_json::error::Category::Io => "Start of structure or map found where not expected.".to_owned(),
        serde_json::error::Category::Data => err.to_string(),
    };
    ApiError::new(ErrorKind::SerializationException, message)
}
