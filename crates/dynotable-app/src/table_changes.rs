//! Changing a table from its Settings: billing mode and throughput, a GSI added or deleted, the
//! stream and time to live on or off, tags.
//!
//! The life of a change: the UI sends one [`TableChange`]; a read-only connection is refused
//! before anything else; the change becomes the one request DynamoDB has for it (UpdateTable,
//! UpdateTimeToLive, TagResource / UntagResource) on the connection's SDK client, the embedded
//! engine's or AWS's alike, and the service's answer comes back as it is (its exception and
//! message); then a fresh DescribeTable is returned, so the UI shows what the service now says —
//! a new GSI as `CREATING` while AWS backfills it, which the UI follows until it is `ACTIVE`.

use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, CreateGlobalSecondaryIndexAction, DeleteGlobalSecondaryIndexAction,
    GlobalSecondaryIndexUpdate, ProvisionedThroughput, ScalarAttributeType, StreamSpecification,
    StreamViewType, Tag, TimeToLiveSpecification, UpdateGlobalSecondaryIndexAction,
};

use crate::dto::{Billing, IndexKind, NewIndex, ScalarType, TableDescription, TableTag};
use crate::{App, CommandError, ErrorCode};

/// One change to a table.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, specta::Type)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum TableChange {
    /// On-demand, or provisioned with these units (the table's GSIs get the same).
    Billing {
        billing: Billing,
    },
    /// A new GSI, backfilled from the table's items.
    AddIndex {
        index: NewIndex,
    },
    DeleteIndex {
        name: String,
    },
    /// The stream on with this view type, or off (`None`).
    #[serde(rename_all = "camelCase")]
    Stream {
        view_type: Option<String>,
    },
    /// Time to live on this attribute, or off (`None`).
    TimeToLive {
        attribute: Option<String>,
    },
    /// Tags to set (added or overwritten) and tag keys to remove.
    Tags {
        set: Vec<TableTag>,
        remove: Vec<String>,
    },
}

fn internal(err: impl std::fmt::Display) -> CommandError {
    CommandError::new(ErrorCode::Internal, err.to_string())
}

fn throughput(read: u32, write: u32) -> Result<ProvisionedThroughput, CommandError> {
    ProvisionedThroughput::builder()
        .read_capacity_units(i64::from(read))
        .write_capacity_units(i64::from(write))
        .build()
        .map_err(internal)
}

fn sdk_type(ty: ScalarType) -> ScalarAttributeType {
    match ty {
        ScalarType::S => ScalarAttributeType::S,
        ScalarType::N => ScalarAttributeType::N,
        ScalarType::B => ScalarAttributeType::B,
    }
}

impl App {
    /// Applies one change to `table` and returns what DescribeTable says afterwards.
    pub async fn change_table(
        &self,
        profile_id: &str,
        table: &str,
        change: TableChange,
    ) -> Result<TableDescription, CommandError> {
        let session = self.writing(profile_id, Some(table)).await?;
        let client = &session.client;
        match change {
            TableChange::Billing { billing } => {
                let current = self.describe_table(profile_id, table).await?;
                let mut call = client.update_table().table_name(table);
                match billing {
                    Billing::OnDemand => call = call.billing_mode(BillingMode::PayPerRequest),
                    Billing::Provisioned {
                        read_units,
                        write_units,
                    } => {
                        call = call
                            .billing_mode(BillingMode::Provisioned)
                            .provisioned_throughput(throughput(read_units, write_units)?);
                        // A provisioned table's GSIs need throughput of their own.
                        for index in current.indexes.iter().filter(|i| i.kind == IndexKind::Global) {
                            call = call.global_secondary_index_updates(
                                GlobalSecondaryIndexUpdate::builder()
                                    .update(
                                        UpdateGlobalSecondaryIndexAction::builder()
                                            .index_name(&index.name)
                                            .provisioned_throughput(throughput(read_units, write_units)?)
                                            .build()
                                            .map_err(internal)?,
                                    )
                                    .build(),
                            );
                        }
                    }
                }
                call.send().await.map_err(|err| CommandError::from_sdk(&err))?;
            }
            TableChange::AddIndex { index } => {
                let current = self.describe_table(profile_id, table).await?;
                let mut create = CreateGlobalSecondaryIndexAction::builder()
                    .index_name(&index.name)
                    .set_key_schema(Some(crate::new_table::sdk_key_schema(&index.keys)?))
                    .projection(crate::new_table::sdk_projection(&index.projection));
                if let Some((read, write)) = current.provisioned {
                    create = create.provisioned_throughput(throughput(read as u32, write as u32)?);
                }
                let mut call = client
                    .update_table()
                    .table_name(table)
                    .global_secondary_index_updates(
                        GlobalSecondaryIndexUpdate::builder()
                            .create(create.build().map_err(internal)?)
                            .build(),
                    );
                for key in std::iter::once(&index.keys.partition_key).chain(index.keys.sort_key.as_ref()) {
                    call = call.attribute_definitions(
                        AttributeDefinition::builder()
                            .attribute_name(&key.name)
                            .attribute_type(sdk_type(key.ty))
                            .build()
                            .map_err(internal)?,
                    );
                }
                call.send().await.map_err(|err| CommandError::from_sdk(&err))?;
            }
            TableChange::DeleteIndex { name } => {
                client
                    .update_table()
                    .table_name(table)
                    .global_secondary_index_updates(
                        GlobalSecondaryIndexUpdate::builder()
                            .delete(
                                DeleteGlobalSecondaryIndexAction::builder()
                                    .index_name(&name)
                                    .build()
                                    .map_err(internal)?,
                            )
                            .build(),
                    )
                    .send()
                    .await
                    .map_err(|err| CommandError::from_sdk(&err))?;
            }
            TableChange::Stream { view_type } => {
                let spec = match &view_type {
                    Some(view_type) => StreamSpecification::builder()
                        .stream_enabled(true)
                        .stream_view_type(StreamViewType::from(view_type.as_str())),
                    None => StreamSpecification::builder().stream_enabled(false),
                };
                client
                    .update_table()
                    .table_name(table)
                    .stream_specification(spec.build().map_err(internal)?)
                    .send()
                    .await
                    .map_err(|err| CommandError::from_sdk(&err))?;
            }
            TableChange::TimeToLive { attribute } => {
                // Turning TTL off names the attribute it is on.
                let (enabled, attribute) = match attribute {
                    Some(attribute) => (true, attribute),
                    None => {
                        let current = self.describe_table(profile_id, table).await?;
                        let attribute = current.ttl_attribute.ok_or_else(|| {
                            CommandError::new(
                                ErrorCode::Validation,
                                format!("Time to live is already off on {table}."),
                            )
                        })?;
                        (false, attribute)
                    }
                };
                client
                    .update_time_to_live()
                    .table_name(table)
                    .time_to_live_specification(
                        TimeToLiveSpecification::builder()
                            .enabled(enabled)
                            .attribute_name(attribute)
                            .build()
                            .map_err(internal)?,
                    )
                    .send()
                    .await
                    .map_err(|err| CommandError::from_sdk(&err))?;
            }
            TableChange::Tags { set, remove } => {
                let arn = self.table_arn(profile_id, table).await?;
                if !set.is_empty() {
                    let mut call = client.tag_resource().resource_arn(&arn);
                    for tag in &set {
                        call = call.tags(
                            Tag::builder()
                                .key(&tag.key)
                                .value(&tag.value)
                                .build()
                                .map_err(internal)?,
                        );
                    }
                    call.send().await.map_err(|err| CommandError::from_sdk(&err))?;
                }
                if !remove.is_empty() {
                    client
                        .untag_resource()
                        .resource_arn(&arn)
                        .set_tag_keys(Some(remove))
                        .send()
                        .await
                        .map_err(|err| CommandError::from_sdk(&err))?;
                }
            }
        }
        self.describe_table(profile_id, table).await
    }

    /// The tags of `table` (ListTagsOfResource, every page).
    pub async fn table_tags(&self, profile_id: &str, table: &str) -> Result<Vec<TableTag>, CommandError> {
        let session = self.session(profile_id).await?;
        let arn = self.table_arn(profile_id, table).await?;
        let mut tags = Vec::new();
        let mut next: Option<String> = None;
        loop {
            let page = session
                .client
                .list_tags_of_resource()
                .resource_arn(&arn)
                .set_next_token(next.take())
                .send()
                .await
                .map_err(|err| CommandError::from_sdk(&err))?;
            tags.extend(page.tags().iter().map(|t| TableTag {
                key: t.key().to_owned(),
                value: t.value().to_owned(),
            }));
            match page.next_token() {
                Some(token) => next = Some(token.to_owned()),
                None => return Ok(tags),
            }
        }
    }

    async fn table_arn(&self, profile_id: &str, table: &str) -> Result<String, CommandError> {
        self.describe_table(profile_id, table).await?.arn.ok_or_else(|| {
            CommandError::new(
                ErrorCode::Internal,
                format!("DescribeTable gave no ARN for {table}."),
            )
        })
    }
}
