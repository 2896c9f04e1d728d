//! The service's errors as the SDK surfaces them: typed variants where DynamoDB's model has one
//! (`ConditionalCheckFailedException` with its `Item`, `ResourceNotFoundException`,
//! `ResourceInUseException`), and code + message for `ValidationException`, which the model leaves
//! to the generic error metadata.

use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::operation::batch_write_item::BatchWriteItemError;
use aws_sdk_dynamodb::operation::create_table::CreateTableError;
use aws_sdk_dynamodb::operation::delete_item::DeleteItemError;
use aws_sdk_dynamodb::operation::delete_table::DeleteTableError;
use aws_sdk_dynamodb::operation::describe_table::DescribeTableError;
use aws_sdk_dynamodb::operation::get_item::GetItemError;
use aws_sdk_dynamodb::operation::put_item::PutItemError;
use aws_sdk_dynamodb::operation::query::QueryError;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::{
    DeleteRequest, KeysAndAttributes, ReturnValuesOnConditionCheckFailure, WriteRequest,
};

use crate::server::Server;
use crate::{create_pets, item, n, s};

/// The service error of a call that must fail (a transport or parse failure fails the test).
macro_rules! service_error {
    ($call:expr) => {
        match $call {
            Ok(output) => panic!("expected an error, got {output:?}"),
            Err(err) => match err.as_service_error() {
                Some(_) => err.into_service_error(),
                None => panic!(
                    "not a service error: {}",
                    aws_sdk_dynamodb::error::DisplayErrorContext(&err)
                ),
            },
        }
    };
}

async fn pets_with_fido() -> (Server, aws_sdk_dynamodb::Client) {
    let server = Server::in_memory();
    let client = server.client();
    create_pets(&client).await;
    client
        .put_item()
        .table_name("Pets")
        .set_item(Some(item([
            ("AnimalType", s("Dog")),
            ("Name", s("Fido")),
            ("Age", n(3)),
        ])))
        .send()
        .await
        .unwrap();
    (server, client)
}

#[tokio::test]
async fn failed_conditions_are_typed_and_carry_the_item_when_asked() {
    let (_server, client) = pets_with_fido().await;
    let put = || {
        client
            .put_item()
            .table_name("Pets")
            .set_item(Some(item([
                ("AnimalType", s("Dog")),
                ("Name", s("Fido")),
                ("Age", n(1)),
            ])))
            .condition_expression("attribute_not_exists(AnimalType)")
    };

    let err = service_error!(
        put()
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .send()
            .await
    );
    assert_eq!(err.message(), Some("The conditional request failed"));
    let PutItemError::ConditionalCheckFailedException(failed) = err else {
        panic!("typed ConditionalCheckFailedException, got {err:?}");
    };
    assert_eq!(
        failed.item(),
        Some(&item([
            ("AnimalType", s("Dog")),
            ("Name", s("Fido")),
            ("Age", n(3))
        ])),
        "the current item rides on the exception"
    );

    let err = service_error!(put().send().await);
    let PutItemError::ConditionalCheckFailedException(failed) = err else {
        panic!("typed ConditionalCheckFailedException, got {err:?}");
    };
    assert_eq!(failed.item(), None, "not asked for");

    let err = service_error!(
        client
            .update_item()
            .table_name("Pets")
            .key("AnimalType", s("Dog"))
            .key("Name", s("Fido"))
            .update_expression("SET Age = :new")
            .condition_expression("Age = :old")
            .expression_attribute_values(":new", n(5))
            .expression_attribute_values(":old", n(4))
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .send()
            .await
    );
    let UpdateItemError::ConditionalCheckFailedException(failed) = err else {
        panic!("typed ConditionalCheckFailedException, got {err:?}");
    };
    assert_eq!(failed.item().and_then(|i| i.get("Age")), Some(&n(3)));

    let err = service_error!(
        client
            .delete_item()
            .table_name("Pets")
            .key("AnimalType", s("Dog"))
            .key("Name", s("Fido"))
            .condition_expression("attribute_exists(Guardian)")
            .send()
            .await
    );
    assert!(err.is_conditional_check_failed_exception(), "{err:?}");

    // Nothing changed.
    let got = client
        .get_item()
        .table_name("Pets")
        .key("AnimalType", s("Dog"))
        .key("Name", s("Fido"))
        .send()
        .await
        .unwrap();
    assert_eq!(got.item().and_then(|i| i.get("Age")), Some(&n(3)));
}

#[tokio::test]
async fn missing_tables_are_resource_not_found() {
    let server = Server::in_memory();
    let client = server.client();

    let err = service_error!(client.describe_table().table_name("Nope").send().await);
    assert_eq!(
        err.message(),
        Some("Requested resource not found: Table: Nope not found")
    );
    assert!(
        matches!(err, DescribeTableError::ResourceNotFoundException(_)),
        "{err:?}"
    );

    let err = service_error!(client.delete_table().table_name("Nope").send().await);
    assert!(
        matches!(err, DeleteTableError::ResourceNotFoundException(_)),
        "{err:?}"
    );

    let err = service_error!(client.get_item().table_name("Nope").key("k", s("v")).send().await);
    assert_eq!(err.message(), Some("Requested resource not found"));
    assert!(
        matches!(err, GetItemError::ResourceNotFoundException(_)),
        "{err:?}"
    );

    let err = service_error!(
        client
            .put_item()
            .table_name("Nope")
            .item("k", s("v"))
            .send()
            .await
    );
    assert!(
        matches!(err, PutItemError::ResourceNotFoundException(_)),
        "{err:?}"
    );

    let err = service_error!(
        client
            .query()
            .table_name("Nope")
            .key_condition_expression("k = :v")
            .expression_attribute_values(":v", s("v"))
            .send()
            .await
    );
    assert!(matches!(err, QueryError::ResourceNotFoundException(_)), "{err:?}");

    let delete = WriteRequest::builder()
        .delete_request(DeleteRequest::builder().key("k", s("v")).build().unwrap())
        .build();
    let err = service_error!(
        client
            .batch_write_item()
            .request_items("Nope", vec![delete])
            .send()
            .await
    );
    assert!(
        matches!(err, BatchWriteItemError::ResourceNotFoundException(_)),
        "{err:?}"
    );

    let err = service_error!(
        client
            .delete_item()
            .table_name("Nope")
            .key("k", s("v"))
            .send()
            .await
    );
    assert!(
        matches!(err, DeleteItemError::ResourceNotFoundException(_)),
        "{err:?}"
    );
}

#[tokio::test]
async fn an_existing_table_is_resource_in_use() {
    let server = Server::in_memory();
    let client = server.client();
    create_pets(&client).await;
    let err = service_error!(
        client
            .create_table()
            .table_name("Pets")
            .billing_mode(aws_sdk_dynamodb::types::BillingMode::PayPerRequest)
            .attribute_definitions(
                aws_sdk_dynamodb::types::AttributeDefinition::builder()
                    .attribute_name("id")
                    .attribute_type(aws_sdk_dynamodb::types::ScalarAttributeType::S)
                    .build()
                    .unwrap()
            )
            .key_schema(
                aws_sdk_dynamodb::types::KeySchemaElement::builder()
                    .attribute_name("id")
                    .key_type(aws_sdk_dynamodb::types::KeyType::Hash)
                    .build()
                    .unwrap()
            )
            .send()
            .await
    );
    assert_eq!(err.message(), Some("Table already exists: Pets"));
    assert!(
        matches!(err, CreateTableError::ResourceInUseException(_)),
        "{err:?}"
    );
}

#[tokio::test]
async fn validation_errors_carry_the_services_message() {
    let (_server, client) = pets_with_fido().await;

    let err = service_error!(
        client
            .put_item()
            .table_name("Pets")
            .item("AnimalType", s("Dog"))
            .send()
            .await
    );
    assert_eq!(err.code(), Some("ValidationException"));
    assert_eq!(
        err.message(),
        Some("One or more parameter values were invalid: Missing the key Name in the item")
    );

    let err = service_error!(
        client
            .get_item()
            .table_name("Pets")
            .key("AnimalType", s("Dog"))
            .send()
            .await
    );
    assert_eq!(err.code(), Some("ValidationException"));
    assert_eq!(
        err.message(),
        Some("The provided key element does not match the schema")
    );

    let err = service_error!(
        client
            .query()
            .table_name("Pets")
            .key_condition_expression("AnimalType = :a AND Name = :n")
            .expression_attribute_values(":a", s("Dog"))
            .expression_attribute_values(":n", s("Fido"))
            .send()
            .await
    );
    assert_eq!(err.code(), Some("ValidationException"));
    assert_eq!(
        err.message(),
        Some("Invalid KeyConditionExpression: Attribute name is a reserved keyword; reserved keyword: Name")
    );

    let err = service_error!(
        client
            .update_item()
            .table_name("Pets")
            .key("AnimalType", s("Dog"))
            .key("Name", s("Fido"))
            .update_expression("SET AnimalType = :a")
            .expression_attribute_values(":a", s("Cat"))
            .send()
            .await
    );
    assert_eq!(err.code(), Some("ValidationException"));
    assert_eq!(
        err.message(),
        Some(
            "One or more parameter values were invalid: Cannot update attribute AnimalType. This attribute is part of the key"
        )
    );

    let err = service_error!(client.scan().table_name("Pets").limit(0).send().await);
    assert_eq!(
        err.message(),
        Some(
            "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"
        )
    );

    let key = item([("AnimalType", s("Dog")), ("Name", s("Fido"))]);
    let err = service_error!(
        client
            .batch_get_item()
            .request_items(
                "Pets",
                KeysAndAttributes::builder()
                    .keys(key.clone())
                    .keys(key)
                    .build()
                    .unwrap()
            )
            .send()
            .await
    );
    assert_eq!(err.code(), Some("ValidationException"));
    assert_eq!(
        err.message(),
        Some("Provided list of item keys contains duplicates")
    );

    let err = service_error!(client.create_table().table_name("ab").send().await);
    assert_eq!(err.code(), Some("ValidationException"));
    assert!(
        err.message()
            .unwrap()
            .contains("TableName must be at least 3 characters long and at most 255 characters long"),
        "{:?}",
        err.message()
    );
}

#[tokio::test]
async fn an_operation_the_engine_lacks_is_unknown() {
    let server = Server::in_memory();
    let client = server.client();
    // ListGlobalTables (global tables version 2017) is not planned for the local engine.
    let err = service_error!(client.list_global_tables().send().await);
    assert_eq!(err.code(), Some("UnknownOperationException"));
    // The server stays usable.
    client.list_tables().send().await.unwrap();
}
