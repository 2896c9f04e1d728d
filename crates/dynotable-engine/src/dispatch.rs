//! From an operation name to the operation: the top of the engine, above every operation (`ops`,
//! `ttl`, `partiql`). A request's body becomes its input shape and the output its body in
//! `api::body`, which the operations that run a request themselves (TransactWriteItems'
//! idempotency, the streams API) use too, without coming back here.

use crate::api::body::{run, run_page, run_to_body};
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
