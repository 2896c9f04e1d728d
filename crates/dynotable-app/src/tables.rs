//! Table commands: list and describe (creating is `new_table`, deleting `deletion`), and the statistics of a table's item collections.

use aws_sdk_dynamodb::types::{
    KeySchemaElement, KeyType, Projection as SdkProjection, ProjectionType as SdkProjectionType,
    ScalarAttributeType, TableDescription as SdkTable, TimeToLiveStatus,
};

use crate::dto::{
    AttributeValue, CollectionStat, CollectionStats, IndexKind, IndexSummary, KeyAttribute, KeySchema,
    Projection, ProjectionType, ScalarType, TableDescription, TableList,
};
use crate::{App, CommandError, ErrorCode};

/// The tables of one region.
#[derive(Debug, Clone, PartialEq, serde::Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct RegionTables {
    pub region: String,
    pub names: Vec<String>,
    /// Why the region could not be listed (the names listed before the failure are kept).
    pub error: Option<CommandError>,
}

/// Most collections the statistics list (the map draws the largest).
pub const STATS_COLLECTIONS: usize = 500;

impl App {
    /// One page of table names (up to 100, ListTables' maximum), starting after `start`.
    pub async fn list_tables(
        &self,
        profile_id: &str,
        start: Option<String>,
    ) -> Result<TableList, CommandError> {
        let session = self.session(profile_id).await?;
        let output = session
            .client
            .list_tables()
            .set_exclusive_start_table_name(start)
            .send()
            .await
            .map_err(|err| CommandError::from_sdk(&err))?;
        Ok(TableList {
            names: output.table_names().to_vec(),
            next_start: output.last_evaluated_table_name().map(str::to_owned),
        })
    }

    /// Every table name of the connection in each of `regions` (all pages), region by region; a
    /// region that fails says why instead of failing the others. The embedded engine has one
    /// region: its tables are listed once, under the profile's region.
    pub async fn list_tables_in_regions(
        &self,
        profile_id: &str,
        regions: Vec<String>,
    ) -> Result<Vec<RegionTables>, CommandError> {
        let session = self.session(profile_id).await?;
        let regions = if session.is_embedded() {
            vec![session.profile.region.clone()]
        } else {
            regions
        };
        let mut listed = Vec::with_capacity(regions.len());
        for region in regions {
            let client: aws_sdk_dynamodb::Client = self.client_for(&session.profile, &region).await?;
            let mut names = Vec::new();
            let mut start: Option<String> = None;
            let error = loop {
                match client
                    .list_tables()
                    .set_exclusive_start_table_name(start.take())
                    .send()
                    .await
                {
                    Ok(page) => {
                        names.extend(page.table_names().iter().cloned());
                        match page.last_evaluated_table_name() {
                            Some(last) => start = Some(last.to_owned()),
                            None => break None,
                        }
                    }
                    Err(err) => break Some(CommandError::from_sdk(&err)),
                }
            };
            listed.push(RegionTables { region, names, error });
        }
        Ok(listed)
    }

    /// The key schema of `table`, or of its index `index` (`NOT_FOUND` for an unknown index),
    /// from the session's kept description when it has one (one DescribeTable per table and
    /// session, not one per request).
    pub(crate) async fn key_schema_of(
        &self,
        profile_id: &str,
        table: &str,
        index: Option<&str>,
    ) -> Result<KeySchema, CommandError> {
        let session = self.session(profile_id).await?;
        let kept = session
            .descriptions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(table)
            .cloned();
        let fits = |d: &TableDescription| index.is_none_or(|name| d.indexes.iter().any(|i| i.name == name));
        let description = match kept.filter(fits) {
            Some(description) => description,
            None => {
                let output = session
                    .client
                    .describe_table()
                    .table_name(table)
                    .send()
                    .await
                    .map_err(|err| CommandError::from_sdk(&err))?;
                let description = output
                    .table()
                    .ok_or_else(|| CommandError::new(ErrorCode::Internal, "DescribeTable returned no table."))
                    .and_then(|t| table_description(t, None))?;
                session
                    .descriptions
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(table.to_owned(), description.clone());
                description
            }
        };
        match index {
            None => Ok(description.keys),
            Some(name) => description
                .indexes
                .into_iter()
                .find(|i| i.name == name)
                .map(|i| i.keys)
                .ok_or_else(|| {
                    CommandError::new(
                        ErrorCode::NotFound,
                        format!("The table {table} has no index named {name}."),
                    )
                }),
        }
    }

    /// DescribeTable and DescribeTimeToLive, as one description.
    pub async fn describe_table(
        &self,
        profile_id: &str,
        table: &str,
    ) -> Result<TableDescription, CommandError> {
        let session = self.session(profile_id).await?;
        let output = session
            .client
            .describe_table()
            .table_name(table)
            .send()
            .await
            .map_err(|err| CommandError::from_sdk(&err))?;
        let description = output
            .table()
            .ok_or_else(|| CommandError::new(ErrorCode::Internal, "DescribeTable returned no table."))?;
        // TTL is a separate call; a service that lacks it (some emulators) just shows TTL off.
        let ttl_attribute = match session
            .client
            .describe_time_to_live()
            .table_name(table)
            .send()
            .await
        {
            Ok(ttl) => ttl
                .time_to_live_description()
                .filter(|d| d.time_to_live_status() == Some(&TimeToLiveStatus::Enabled))
                .and_then(|d| d.attribute_name().map(str::to_owned)),
            Err(err) => {
                tracing::debug!(error = %CommandError::from_sdk(&err), "DescribeTimeToLive failed");
                None
            }
        };
        let description = table_description(description, ttl_attribute)?;
        session
            .descriptions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(table.to_owned(), description.clone());
        Ok(description)
    }

    /// The item collections of a table or index, largest first. For the embedded engine they come
    /// from the statistics it keeps with every write, without reading the items.
    pub async fn collection_stats(
        &self,
        profile_id: &str,
        table: &str,
        index: Option<&str>,
    ) -> Result<CollectionStats, CommandError> {
        let session = self.session(profile_id).await?;
        if !session.is_embedded() {
            return self
                .gathered_statistics(profile_id, table, index)
                .await
                .map(crate::statistics::largest_only);
        }
        let engine = self.engine().await?;
        let stats = engine
            .collection_stats(table, index, STATS_COLLECTIONS)
            .await
            .map_err(|err| CommandError::from_engine(&err))?;
        let collections = stats
            .largest
            .into_iter()
            .map(|c| {
                let json = serde_json::to_value(&c.partition_key).map_err(internal)?;
                let partition_value: AttributeValue = serde_json::from_value(json).map_err(internal)?;
                Ok(CollectionStat {
                    partition_value,
                    item_count: c.item_count as f64,
                    size_bytes: c.size_bytes as f64,
                    limited_size_bytes: c.limited_size_bytes.map(|b| b as f64),
                })
            })
            .collect::<Result<Vec<_>, CommandError>>()?;
        Ok(CollectionStats {
            table: table.to_owned(),
            index: index.map(str::to_owned),
            distinct_partition_keys: stats.distinct_partition_keys as f64,
            item_count: stats.item_count as f64,
            size_bytes: stats.size_bytes as f64,
            collections,
            collection_size_limit: stats.collection_size_limit.map(|b| b as f64),
            gathered_at: None,
            scan: None,
        })
    }
}

fn internal(err: impl std::fmt::Display) -> CommandError {
    CommandError::new(ErrorCode::Internal, err.to_string())
}

fn table_description(
    table: &SdkTable,
    ttl_attribute: Option<String>,
) -> Result<TableDescription, CommandError> {
    let definitions: Vec<KeyAttribute> = table
        .attribute_definitions()
        .iter()
        .map(|d| KeyAttribute {
            name: d.attribute_name().to_owned(),
            ty: scalar_type(d.attribute_type()),
        })
        .collect();
    let keys = |schema: &[KeySchemaElement]| key_schema(schema, &definitions);
    let mut indexes = Vec::new();
    for gsi in table.global_secondary_indexes() {
        indexes.push(IndexSummary {
            name: gsi.index_name().unwrap_or_default().to_owned(),
            kind: IndexKind::Global,
            keys: keys(gsi.key_schema())?,
            projection: projection(gsi.projection()),
            item_count: gsi.item_count().map(|n| n as f64),
            size_bytes: gsi.index_size_bytes().map(|n| n as f64),
            status: gsi.index_status().map(|s| s.as_str().to_owned()),
            backfilling: gsi.backfilling(),
        });
    }
    for lsi in table.local_secondary_indexes() {
        indexes.push(IndexSummary {
            name: lsi.index_name().unwrap_or_default().to_owned(),
            kind: IndexKind::Local,
            keys: keys(lsi.key_schema())?,
            projection: projection(lsi.projection()),
            item_count: lsi.item_count().map(|n| n as f64),
            size_bytes: lsi.index_size_bytes().map(|n| n as f64),
            status: None,
            backfilling: None,
        });
    }
    let billing_mode = table
        .billing_mode_summary()
        .and_then(|b| b.billing_mode())
        .map(|m| m.as_str().to_owned())
        .unwrap_or_else(|| "PROVISIONED".to_owned());
    let provisioned = table
        .provisioned_throughput()
        .filter(|_| billing_mode == "PROVISIONED")
        .map(|p| {
            (
                p.read_capacity_units().unwrap_or(0) as f64,
                p.write_capacity_units().unwrap_or(0) as f64,
            )
        });
    Ok(TableDescription {
        name: table.table_name().unwrap_or_default().to_owned(),
        status: table
            .table_status()
            .map(|s| s.as_str().to_owned())
            .unwrap_or_default(),
        keys: keys(table.key_schema())?,
        attribute_definitions: definitions.clone(),
        billing_mode,
        provisioned,
        item_count: table.item_count().unwrap_or(0) as f64,
        size_bytes: table.table_size_bytes().unwrap_or(0) as f64,
        indexes,
        stream_view_type: table
            .stream_specification()
            .filter(|s| s.stream_enabled())
            .and_then(|s| s.stream_view_type())
            .map(|v| v.as_str().to_owned()),
        ttl_attribute,
        created_at: table.creation_date_time().map(|t| t.as_secs_f64()),
        arn: table.table_arn().map(str::to_owned),
    })
}

fn scalar_type(ty: &ScalarAttributeType) -> ScalarType {
    match ty {
        ScalarAttributeType::N => ScalarType::N,
        ScalarAttributeType::B => ScalarType::B,
        _ => ScalarType::S,
    }
}

/// Every HASH element, then every RANGE element, in key-schema order (rule B.18: a GSI may have
/// up to four of each).
fn key_schema(schema: &[KeySchemaElement], definitions: &[KeyAttribute]) -> Result<KeySchema, CommandError> {
    let attributes = |role: KeyType| -> Vec<KeyAttribute> {
        schema
            .iter()
            .filter(|k| *k.key_type() == role)
            .filter_map(|k| definitions.iter().find(|d| d.name == k.attribute_name()).cloned())
            .collect()
    };
    let mut partition = attributes(KeyType::Hash).into_iter();
    let mut sort = attributes(KeyType::Range).into_iter();
    let partition_key = partition.next().ok_or_else(|| {
        CommandError::new(
            ErrorCode::Internal,
            "DescribeTable returned a key schema without a defined HASH key.",
        )
    })?;
    Ok(KeySchema {
        partition_key,
        sort_key: sort.next(),
        more_partition_keys: partition.collect(),
        more_sort_keys: sort.collect(),
    })
}

fn projection(projection: Option<&SdkProjection>) -> Projection {
    let ty = match projection.and_then(|p| p.projection_type()) {
        Some(SdkProjectionType::KeysOnly) => ProjectionType::KeysOnly,
        Some(SdkProjectionType::Include) => ProjectionType::Include,
        _ => ProjectionType::All,
    };
    Projection {
        ty,
        attributes: projection
            .map(|p| p.non_key_attributes().to_vec())
            .unwrap_or_default(),
    }
}
