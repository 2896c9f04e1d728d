//! Tags on a table (TagResource, UntagResource, ListTagsOfResource), DescribeLimits and
//! DescribeEndpoints through the SDK.

use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::operation::list_tags_of_resource::ListTagsOfResourceError;
use aws_sdk_dynamodb::types::Tag;

use crate::server::Server;
use crate::{create_pets, service_error};

fn tag(key: &str, value: &str) -> Tag {
    Tag::builder().key(key).value(value).build().unwrap()
}

#[tokio::test]
async fn tables_are_tagged_retagged_and_untagged_by_arn() {
    let server = Server::in_memory();
    let client = server.client();
    let arn = create_pets(&client)
        .await
        .table_description()
        .and_then(|t| t.table_arn())
        .unwrap()
        .to_owned();
    let tags = || async {
        let listed = client
            .list_tags_of_resource()
            .resource_arn(&arn)
            .send()
            .await
            .unwrap();
        assert_eq!(listed.next_token(), None);
        listed
            .tags()
            .iter()
            .map(|t| (t.key().to_owned(), t.value().to_owned()))
            .collect::<Vec<_>>()
    };
    assert!(tags().await.is_empty());

    client
        .tag_resource()
        .resource_arn(&arn)
        .tags(tag("team", "data"))
        .tags(tag("env", "dev"))
        .send()
        .await
        .unwrap();
    client
        .tag_resource()
        .resource_arn(&arn)
        .tags(tag("env", "prod"))
        .send()
        .await
        .unwrap();
    let mut got = tags().await;
    got.sort();
    assert_eq!(
        got,
        [
            ("env".to_owned(), "prod".to_owned()),
            ("team".to_owned(), "data".to_owned())
        ],
        "a key tagged again takes the new value"
    );

    client
        .untag_resource()
        .resource_arn(&arn)
        .tag_keys("team")
        .tag_keys("absent")
        .send()
        .await
        .unwrap();
    assert_eq!(tags().await, [("env".to_owned(), "prod".to_owned())]);

    let missing = arn.replace("table/Pets", "table/Nope");
    let err = service_error(client.list_tags_of_resource().resource_arn(&missing).send().await);
    assert!(
        matches!(err, ListTagsOfResourceError::ResourceNotFoundException(_)),
        "{err:?}"
    );
    let err = service_error(
        client
            .tag_resource()
            .resource_arn(&arn)
            .tags(tag("", "x"))
            .send()
            .await,
    );
    assert_eq!(err.code(), Some("ValidationException"));
    // The service's own wording for a tag key it refuses, empty ones included
    // (crates/dynotable-engine/src/ops/tags.rs), not the shape-constraint list.
    assert_eq!(err.message(), Some("The Tag Key provided is invalid, Key: "));
}

#[tokio::test]
async fn describe_limits_reports_the_default_quotas() {
    let server = Server::in_memory();
    let limits = server.client().describe_limits().send().await.unwrap();
    assert_eq!(limits.account_max_read_capacity_units(), Some(80_000));
    assert_eq!(limits.account_max_write_capacity_units(), Some(80_000));
    assert_eq!(limits.table_max_read_capacity_units(), Some(40_000));
    assert_eq!(limits.table_max_write_capacity_units(), Some(40_000));
}

#[tokio::test]
async fn describe_endpoints_reports_the_servers_own_address() {
    let server = Server::in_memory();
    let described = server.client().describe_endpoints().send().await.unwrap();
    let host_port = server.endpoint.strip_prefix("http://").expect("an http endpoint");
    let endpoints: Vec<(&str, i64)> = described
        .endpoints()
        .iter()
        .map(|e| (e.address(), e.cache_period_in_minutes()))
        .collect();
    assert_eq!(endpoints, [(host_port, 1440)]);
}
