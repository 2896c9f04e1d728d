//! DynamoDB Streams through `aws_sdk_dynamodbstreams::Client` on the server's one endpoint: one
//! record per real change, in order, from every iterator type; the images each view type
//! carries; and Time to Live (enabled, described; expired items readable until swept).

use std::collections::HashMap;
use std::time::{SystemTime, UNIX_EPOCH};

use aws_sdk_dynamodb::error::ProvideErrorMetadata;
use aws_sdk_dynamodb::operation::update_time_to_live::UpdateTimeToLiveError;
use aws_sdk_dynamodb::types::{StreamViewType, TimeToLiveSpecification, TimeToLiveStatus};
use aws_sdk_dynamodbstreams::operation::describe_stream::DescribeStreamError;
use aws_sdk_dynamodbstreams::types::{
    AttributeValue as StreamValue, OperationType, Record, ShardIteratorType, StreamStatus,
    StreamViewType as StreamsViewType,
};

use crate::server::Server;
use crate::{Item, create_with_stream, item, n, s, service_error};

type StreamItem = HashMap<String, StreamValue>;

/// A stream image from `(name, string value)` pairs.
fn image<const N: usize>(attributes: [(&str, &str); N]) -> StreamItem {
    attributes
        .into_iter()
        .map(|(k, v)| (k.to_owned(), StreamValue::S(v.to_owned())))
        .collect()
}

async fn put(client: &aws_sdk_dynamodb::Client, table: &str, value: Item) {
    client
        .put_item()
        .table_name(table)
        .set_item(Some(value))
        .send()
        .await
        .unwrap();
}

async fn delete(client: &aws_sdk_dynamodb::Client, table: &str, id: &str) {
    client
        .delete_item()
        .table_name(table)
        .key("id", s(id))
        .send()
        .await
        .unwrap();
}

/// The table's one stream ARN and its one shard id, through ListStreams and DescribeStream.
async fn stream_and_shard(streams: &aws_sdk_dynamodbstreams::Client, table: &str) -> (String, String) {
    let listed = streams.list_streams().table_name(table).send().await.unwrap();
    assert_eq!(listed.streams().len(), 1, "{listed:?}");
    let arn = listed.streams()[0].stream_arn().unwrap().to_owned();
    let described = streams.describe_stream().stream_arn(&arn).send().await.unwrap();
    let description = described.stream_description().unwrap();
    let shards = description.shards();
    assert_eq!(shards.len(), 1, "{description:?}");
    (arn, shards[0].shard_id().unwrap().to_owned())
}

async fn iterator(
    streams: &aws_sdk_dynamodbstreams::Client,
    (arn, shard): &(String, String),
    kind: ShardIteratorType,
    sequence_number: Option<&str>,
) -> String {
    streams
        .get_shard_iterator()
        .stream_arn(arn)
        .shard_id(shard)
        .shard_iterator_type(kind)
        .set_sequence_number(sequence_number.map(str::to_owned))
        .send()
        .await
        .unwrap()
        .shard_iterator()
        .expect("an iterator")
        .to_owned()
}

/// Every record from `iterator` on, page by page, until a page comes back empty.
async fn drain(streams: &aws_sdk_dynamodbstreams::Client, mut iterator: String) -> Vec<Record> {
    let mut records = Vec::new();
    loop {
        let page = streams
            .get_records()
            .shard_iterator(&iterator)
            .send()
            .await
            .unwrap();
        if page.records().is_empty() {
            return records;
        }
        records.extend(page.records().iter().cloned());
        iterator = page
            .next_shard_iterator()
            .expect("an open shard has a next iterator")
            .to_owned();
    }
}

/// `(event, key id, old image, new image)` of each record.
fn summary(records: &[Record]) -> Vec<(OperationType, String, Option<&StreamItem>, Option<&StreamItem>)> {
    records
        .iter()
        .map(|r| {
            let change = r.dynamodb().unwrap();
            let id = change.keys().unwrap()["id"].as_s().unwrap().clone();
            (
                r.event_name().unwrap().clone(),
                id,
                change.old_image(),
                change.new_image(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_stream_records_each_real_change_once_in_order() {
    let server = Server::in_memory();
    let client = server.client();
    let streams = server.streams_client();
    let created = create_with_stream(&client, "Sessions", StreamViewType::NewAndOldImages).await;
    let table = created.table_description().unwrap();
    let latest_arn = table.latest_stream_arn().expect("LatestStreamArn").to_owned();
    assert!(
        // The region the client signed for (us-east-1), not "local" (docs/compatibility.md).
        latest_arn.starts_with("arn:aws:dynamodb:us-east-1:000000000000:table/Sessions/stream/"),
        "{latest_arn}"
    );
    assert_eq!(
        latest_arn.rsplit('/').next(),
        table.latest_stream_label(),
        "the label ends the ARN"
    );

    put(&client, "Sessions", item([("id", s("s1")), ("user", s("ana"))])).await;
    client
        .update_item()
        .table_name("Sessions")
        .key("id", s("s1"))
        .update_expression("SET #u = :u")
        .expression_attribute_names("#u", "user")
        .expression_attribute_values(":u", s("bea"))
        .send()
        .await
        .unwrap();
    // The same item again, and a delete of nothing: no change, no record.
    put(&client, "Sessions", item([("id", s("s1")), ("user", s("bea"))])).await;
    put(&client, "Sessions", item([("id", s("s2")), ("user", s("cai"))])).await;
    delete(&client, "Sessions", "s2").await;
    delete(&client, "Sessions", "nobody").await;

    let described = streams
        .describe_stream()
        .stream_arn(&latest_arn)
        .send()
        .await
        .unwrap();
    let description = described.stream_description().unwrap();
    assert_eq!(description.stream_status(), Some(&StreamStatus::Enabled));
    assert_eq!(
        description.stream_view_type(),
        Some(&StreamsViewType::NewAndOldImages)
    );
    assert_eq!(description.table_name(), Some("Sessions"));
    assert_eq!(description.key_schema()[0].attribute_name(), "id");
    let shard = stream_and_shard(&streams, "Sessions").await;
    assert_eq!(shard.0, latest_arn, "ListStreams names the table's latest stream");

    let records = drain(
        &streams,
        iterator(&streams, &shard, ShardIteratorType::TrimHorizon, None).await,
    )
    .await;
    assert_eq!(
        summary(&records),
        [
            (
                OperationType::Insert,
                "s1".to_owned(),
                None,
                Some(&image([("id", "s1"), ("user", "ana")]))
            ),
            (
                OperationType::Modify,
                "s1".to_owned(),
                Some(&image([("id", "s1"), ("user", "ana")])),
                Some(&image([("id", "s1"), ("user", "bea")]))
            ),
            (
                OperationType::Insert,
                "s2".to_owned(),
                None,
                Some(&image([("id", "s2"), ("user", "cai")]))
            ),
            (
                OperationType::Remove,
                "s2".to_owned(),
                Some(&image([("id", "s2"), ("user", "cai")])),
                None
            ),
        ]
    );
    let sequence: Vec<&str> = records
        .iter()
        .map(|r| r.dynamodb().unwrap().sequence_number().unwrap())
        .collect();
    let mut sorted = sequence.clone();
    sorted.sort_by_key(|s| (s.len(), s.to_string()));
    sorted.dedup();
    assert_eq!(sequence, sorted, "sequence numbers strictly increase");
    for record in &records {
        assert_eq!(record.event_source(), Some("aws:dynamodb"));
        let change = record.dynamodb().unwrap();
        assert!(change.size_bytes().unwrap() > 0, "{record:?}");
        assert!(change.approximate_creation_date_time().is_some(), "{record:?}");
        assert_eq!(change.stream_view_type(), Some(&StreamsViewType::NewAndOldImages));
    }
    let event_ids: std::collections::HashSet<_> = records.iter().map(|r| r.event_id().unwrap()).collect();
    assert_eq!(event_ids.len(), records.len(), "eventIDs are unique");

    // AT and AFTER a sequence number; one record a page with Limit.
    let at = drain(
        &streams,
        iterator(
            &streams,
            &shard,
            ShardIteratorType::AtSequenceNumber,
            Some(sequence[1]),
        )
        .await,
    )
    .await;
    assert_eq!(at.len(), 3);
    assert_eq!(at[0].dynamodb().unwrap().sequence_number(), Some(sequence[1]));
    let after = drain(
        &streams,
        iterator(
            &streams,
            &shard,
            ShardIteratorType::AfterSequenceNumber,
            Some(sequence[1]),
        )
        .await,
    )
    .await;
    assert_eq!(after.len(), 2);
    assert_eq!(after[0].dynamodb().unwrap().sequence_number(), Some(sequence[2]));
    let first = streams
        .get_records()
        .shard_iterator(iterator(&streams, &shard, ShardIteratorType::TrimHorizon, None).await)
        .limit(1)
        .send()
        .await
        .unwrap();
    assert_eq!(first.records().len(), 1);
    let rest = drain(&streams, first.next_shard_iterator().unwrap().to_owned()).await;
    assert_eq!(rest.len(), 3, "the next iterator continues after the first page");

    // LATEST starts after the last record: it sees only what is written from now on.
    let latest = iterator(&streams, &shard, ShardIteratorType::Latest, None).await;
    let empty = streams
        .get_records()
        .shard_iterator(&latest)
        .send()
        .await
        .unwrap();
    assert!(empty.records().is_empty(), "{empty:?}");
    put(&client, "Sessions", item([("id", s("s3")), ("user", s("dov"))])).await;
    let new = drain(&streams, empty.next_shard_iterator().unwrap().to_owned()).await;
    assert_eq!(
        summary(&new),
        [(
            OperationType::Insert,
            "s3".to_owned(),
            None,
            Some(&image([("id", "s3"), ("user", "dov")]))
        )]
    );
}

#[tokio::test]
async fn each_view_type_carries_its_images() {
    let server = Server::in_memory();
    let client = server.client();
    let streams = server.streams_client();
    let s1 = || image([("id", "k"), ("v", "1")]);
    let s2 = || image([("id", "k"), ("v", "2")]);
    // (view, what INSERT, MODIFY and REMOVE carry as (old, new))
    type Images = (Option<StreamItem>, Option<StreamItem>);
    let cases: [(StreamViewType, StreamsViewType, [Images; 3]); 4] = [
        (
            StreamViewType::KeysOnly,
            StreamsViewType::KeysOnly,
            [(None, None), (None, None), (None, None)],
        ),
        (
            StreamViewType::NewImage,
            StreamsViewType::NewImage,
            [(None, Some(s1())), (None, Some(s2())), (None, None)],
        ),
        (
            StreamViewType::OldImage,
            StreamsViewType::OldImage,
            [(None, None), (Some(s1()), None), (Some(s2()), None)],
        ),
        (
            StreamViewType::NewAndOldImages,
            StreamsViewType::NewAndOldImages,
            [(None, Some(s1())), (Some(s1()), Some(s2())), (Some(s2()), None)],
        ),
    ];
    for (view, streams_view, expected) in cases {
        let table = format!("T{}", view.as_str().replace('_', ""));
        create_with_stream(&client, &table, view.clone()).await;
        put(&client, &table, item([("id", s("k")), ("v", s("1"))])).await;
        put(&client, &table, item([("id", s("k")), ("v", s("2"))])).await;
        delete(&client, &table, "k").await;

        let shard = stream_and_shard(&streams, &table).await;
        let records = drain(
            &streams,
            iterator(&streams, &shard, ShardIteratorType::TrimHorizon, None).await,
        )
        .await;
        let got: Vec<(OperationType, Images)> = records
            .iter()
            .map(|r| {
                let change = r.dynamodb().unwrap();
                assert_eq!(change.stream_view_type(), Some(&streams_view), "{view:?}");
                assert_eq!(
                    change.keys(),
                    Some(&image([("id", "k")])),
                    "{view:?}: the keys are always there"
                );
                (
                    r.event_name().unwrap().clone(),
                    (change.old_image().cloned(), change.new_image().cloned()),
                )
            })
            .collect();
        let [insert, modify, remove] = expected;
        assert_eq!(
            got,
            [
                (OperationType::Insert, insert),
                (OperationType::Modify, modify),
                (OperationType::Remove, remove)
            ],
            "{view:?}"
        );
    }
}

#[tokio::test]
async fn stream_errors_are_the_services() {
    let server = Server::in_memory();
    let client = server.client();
    let streams = server.streams_client();
    create_with_stream(&client, "Sessions", StreamViewType::KeysOnly).await;

    let err = service_error(
        streams
            .describe_stream()
            .stream_arn("arn:aws:dynamodb:local:000000000000:table/Sessions/stream/nope")
            .send()
            .await,
    );
    assert!(
        matches!(err, DescribeStreamError::ResourceNotFoundException(_)),
        "{err:?}"
    );
    assert_eq!(
        err.message(),
        Some(
            "Requested resource not found: Stream: \
             arn:aws:dynamodb:local:000000000000:table/Sessions/stream/nope not found"
        )
    );

    let err = service_error(
        streams
            .get_records()
            .shard_iterator("bm90IGFuIGl0ZXJhdG9y")
            .send()
            .await,
    );
    assert_eq!(err.code(), Some("ValidationException"));
    assert_eq!(err.message(), Some("Invalid ShardIterator"));

    // A table without a stream lists none.
    crate::create_pets(&client).await;
    let listed = streams.list_streams().table_name("Pets").send().await.unwrap();
    assert!(listed.streams().is_empty(), "{listed:?}");
}

#[tokio::test]
async fn time_to_live_is_enabled_and_expired_items_stay_readable_until_swept() {
    let server = Server::in_memory();
    let client = server.client();
    create_with_stream(&client, "Sessions", StreamViewType::KeysOnly).await;

    let before = client
        .describe_time_to_live()
        .table_name("Sessions")
        .send()
        .await
        .unwrap();
    assert_eq!(
        before
            .time_to_live_description()
            .and_then(|d| d.time_to_live_status()),
        Some(&TimeToLiveStatus::Disabled)
    );

    let spec = || {
        TimeToLiveSpecification::builder()
            .enabled(true)
            .attribute_name("expiresAt")
            .build()
            .unwrap()
    };
    let updated = client
        .update_time_to_live()
        .table_name("Sessions")
        .time_to_live_specification(spec())
        .send()
        .await
        .unwrap();
    assert_eq!(updated.time_to_live_specification(), Some(&spec()));
    let described = client
        .describe_time_to_live()
        .table_name("Sessions")
        .send()
        .await
        .unwrap();
    let description = described.time_to_live_description().unwrap();
    assert_eq!(
        description.time_to_live_status(),
        Some(&TimeToLiveStatus::Enabled)
    );
    assert_eq!(description.attribute_name(), Some("expiresAt"));

    // Expired an hour ago; the sweep (every 30 s, first after 30 s) has not run: still readable.
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs();
    let expired = item([("id", s("old")), ("expiresAt", n(now - 3600))]);
    put(&client, "Sessions", expired.clone()).await;
    let got = client
        .get_item()
        .table_name("Sessions")
        .key("id", s("old"))
        .send()
        .await
        .unwrap();
    assert_eq!(got.item(), Some(&expired));

    // Changing TTL again within the hour is refused.
    let err = service_error(
        client
            .update_time_to_live()
            .table_name("Sessions")
            .time_to_live_specification(
                TimeToLiveSpecification::builder()
                    .enabled(false)
                    .attribute_name("expiresAt")
                    .build()
                    .unwrap(),
            )
            .send()
            .await,
    );
    assert_eq!(err.code(), Some("ValidationException"));
    assert_eq!(
        err.message(),
        Some("Time to live has been modified multiple times within a fixed interval")
    );

    let err = service_error(
        client
            .update_time_to_live()
            .table_name("Nope")
            .time_to_live_specification(spec())
            .send()
            .await,
    );
    assert!(
        matches!(err, UpdateTimeToLiveError::ResourceNotFoundException(_)),
        "{err:?}"
    );
}
