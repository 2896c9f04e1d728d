//! UpdateTable: change the billing mode or provisioned throughput, turn deletion protection on
//! or off, or create, update or delete one global secondary index.
//!
//! A new GSI is backfilled from the table's items inside the same transaction, so it is ACTIVE
//! (and complete) when the call returns; the service backfills in the background with
//! `IndexStatus: CREATING` and `Backfilling: true` (docs/compatibility.md).

use std::sync::Arc;

use sqlx::{Row, SqliteConnection};

use crate::api::table::{GlobalSecondaryIndexUpdate, UpdateTableInput, UpdateTableOutput};
use crate::catalog::{Billing, IndexKind, IndexSchema, KeyAttribute, TableSchema};
use crate::entry::{self, StorageKey, decode_entry};
use crate::items;
use crate::ops::create_table::{self, billing, check_projected_count, throughput_of, throughput_shape};
use crate::shape::Shape;
use crate::write_tx::StatementBatch;
use crate::{ApiError, Engine, ErrorKind, begin_write, ops, storage};

/// Rule B.7: at most 20 GSIs per table; one GSI created or deleted per UpdateTable.
const MAX_GSIS: usize = 20;

pub async fn run(engine: &Engine, input: UpdateTableInput) -> Result<UpdateTableOutput, ApiError> {
    validate_shape(&input)?;
    let name = input.table_name.clone().unwrap_or_default();

    let updates = input
        .global_secondary_index_updates
        .as_deref()
        .unwrap_or_default();
    // Rule B.15: a request that asks for no change is refused before the table is looked up, in
    // the words dynalite recorded from the service.
    if input.billing_mode.is_none()
        && input.provisioned_throughput.is_none()
        && updates.is_empty()
        && input.deletion_protection_enabled.is_none()
        && input.table_class.is_none()
        && input.stream_specification.is_none()
    {
        return Err(ApiError::validation(
            "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required",
        ));
    }
    // BillingMode PROVISIONED names its throughput, whatever the table's mode (a 2026-10 live
    // probe: also on a table already provisioned; dynalite checks it before the table too).
    if input.billing_mode.as_deref() == Some("PROVISIONED") && input.provisioned_throughput.is_none() {
        return Err(ApiError::validation(
            "One or more parameter values were invalid: ProvisionedThroughput must be specified when BillingMode is PROVISIONED",
        ));
    }
    // Rule B.15, step 2: what the request says on its own is checked before the table is looked
    // up: the stream specification and each new index's projection.
    create_table::stream_view_type(input.stream_specification.as_ref())?;
    for create in updates.iter().filter_map(|u| u.create.as_ref()) {
        create_table::projection_of(
            create.projection.as_ref(),
            create.index_name.as_deref().unwrap_or_default(),
        )?;
    }
    let mut writer = engine.writer().await;
    let current = engine.table_or(&name, ApiError::table_not_found)?;
    let mut table: TableSchema = (*current).clone();
    let stream_change = match &input.stream_specification {
        None => None,
        Some(spec) => {
            let view_type = create_table::stream_view_type(Some(spec))?;
            // Unverified wordings.
            match (&view_type, table.active_stream()) {
                (Some(_), Some(active)) => {
                    return Err(ApiError::validation(format!(
                        "Table already has an enabled stream: {}",
                        table.stream_arn(active)
                    )));
                }
                (None, None) => return Err(ApiError::validation("Table does not have an enabled stream")),
                _ => {}
            }
            Some(view_type)
        }
    };
    if updates
        .iter()
        .filter(|u| u.create.is_some() || u.delete.is_some())
        .count()
        > 1
    {
        return Err(ApiError::new(
            ErrorKind::LimitExceededException,
            "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table",
        ));
    }

    // Billing mode and the table's throughput.
    let new_mode = input.billing_mode.as_deref().unwrap_or(match table.billing {
        Billing::PayPerRequest => "PAY_PER_REQUEST",
        Billing::Provisioned(_) => "PROVISIONED",
    });
    let switching_to_provisioned = new_mode == "PROVISIONED"
        && table.billing == Billing::PayPerRequest
        && input.provisioned_throughput.is_some();
    match (new_mode, &input.provisioned_throughput) {
        // A provisioned table asked nothing about its mode (refused above when it was).
        ("PROVISIONED", None) => {}
        (mode, throughput) => {
            let new_billing = billing(Some(mode), throughput.as_ref())?;
            if let (Billing::Provisioned(old), Billing::Provisioned(new)) = (table.billing, new_billing)
                && old == new
                && updates.is_empty()
            {
                return Err(ApiError::validation(format!(
                    "The provisioned throughput for the table will not change. The requested value equals the current value. Current ReadCapacityUnits provisioned for the table: {}. Requested ReadCapacityUnits: {}. Current WriteCapacityUnits provisioned for the table: {}. Requested WriteCapacityUnits: {}. Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.",
                    old.read, new.read, old.write, new.write
                )));
            }
            table.billing = new_billing;
        }
    }
    // GSIs follow the table's billing mode.
    for index in table.indexes.iter_mut().filter(|i| i.kind == IndexKind::Global) {
        match table.billing {
            Billing::PayPerRequest => index.throughput = None,
            Billing::Provisioned(_) if index.throughput.is_none() => {
                let update = updates
                    .iter()
                    .filter_map(|u| u.update.as_ref())
                    .find(|u| u.index_name.as_deref() == Some(&index.name));
                match update.and_then(|u| u.provisioned_throughput.as_ref()) {
                    Some(t) => index.throughput = Some(throughput_of(t)?),
                    None if switching_to_provisioned || input.billing_mode.is_some() => {
                        return Err(ApiError::validation(format!(
                            "One or more parameter values were invalid: ProvisionedThroughput must be specified for index: {}",
                            index.name
                        )));
                    }
                    None => {}
                }
            }
            Billing::Provisioned(_) => {}
        }
    }
    if let Some(protection) = input.deletion_protection_enabled {
        table.deletion_protection = protection;
    }
    if let Some(class) = &input.table_class {
        table.table_class = class.clone();
    }

    let mut tx = begin_write(&mut writer).await?;
    for update in updates {
        apply_index_update(&mut tx, &mut table, update, &input).await?;
    }
    match stream_change {
        Some(Some(view_type)) => {
            create_table::enable_stream(&mut tx, &mut table, view_type, engine.now()).await?
        }
        Some(None) => {
            if let Some(stream) = table.streams.last_mut() {
                stream.enabled = false;
            }
        }
        None => {}
    }
    create_table::check_throughput_quota(&table)?;
    storage::save_table(&mut tx, &table).await?;
    tx.commit().await?;
    let table = Arc::new(table);
    engine.catalog_mut().insert(table.name.clone(), table.clone());
    let description = ops::describe_table::describe(&mut writer, &table, "UPDATING").await?;
    Ok(UpdateTableOutput {
        table_description: description,
    })
}

/// Member constraints, in one list before anything else (rules B.15, B.21), in the API model's
/// order: the attribute definitions first, as CreateTable lists them.
fn validate_shape(input: &UpdateTableInput) -> Result<(), ApiError> {
    let mut shape = Shape::new();
    for (i, d) in input.attribute_definitions.iter().flatten().enumerate() {
        create_table::attribute_definition_shape(&mut shape, i + 1, d);
    }
    shape.table("tableName", input.table_name.as_ref());
    shape.one_of(
        "billingMode",
        input.billing_mode.as_ref(),
        &["PROVISIONED", "PAY_PER_REQUEST"],
    );
    if let Some(t) = &input.provisioned_throughput {
        throughput_shape(&mut shape, "provisionedThroughput", t);
    }
    for (i, update) in input.global_secondary_index_updates.iter().flatten().enumerate() {
        let prefix = format!("globalSecondaryIndexUpdates.{}.member", i + 1);
        if let Some(create) = &update.create {
            shape.name(&format!("{prefix}.create.indexName"), create.index_name.as_ref());
            create_table::key_schema_shape(
                &mut shape,
                &format!("{prefix}.create.keySchema"),
                create.key_schema.as_deref(),
                create_table::MAX_GSI_KEY_SCHEMA,
            );
            create_table::projection_shape(
                &mut shape,
                &format!("{prefix}.create.projection"),
                create.projection.as_ref(),
            );
            if let Some(t) = &create.provisioned_throughput {
                throughput_shape(&mut shape, &format!("{prefix}.create.provisionedThroughput"), t);
            }
        }
        if let Some(delete) = &update.delete {
            shape.name(&format!("{prefix}.delete.indexName"), delete.index_name.as_ref());
        }
        if let Some(u) = &update.update {
            shape.name(&format!("{prefix}.update.indexName"), u.index_name.as_ref());
            if let Some(t) = &u.provisioned_throughput {
                throughput_shape(&mut shape, &format!("{prefix}.update.provisionedThroughput"), t);
            }
        }
    }
    if let Some(spec) = &input.stream_specification {
        shape.required("streamSpecification.streamEnabled", spec.stream_enabled.as_ref());
        shape.one_of(
            "streamSpecification.streamViewType",
            spec.stream_view_type.as_ref(),
            create_table::STREAM_VIEW_TYPES,
        );
    }
    create_table::table_class_shape(&mut shape, input.table_class.as_ref());
    shape.finish()
}

async fn apply_index_update(
    conn: &mut SqliteConnection,
    table: &mut TableSchema,
    update: &GlobalSecondaryIndexUpdate,
    input: &UpdateTableInput,
) -> Result<(), ApiError> {
    match (&update.create, &update.update, &update.delete) {
        (Some(create), None, None) => {
            let name = create.index_name.clone().unwrap_or_default();
            if table.index(&name).is_some() {
                return Err(ApiError::validation(format!(
                    "One or more parameter values were invalid: Attempting to create an index which already exists: {name}"
                )));
            }
            if table
                .indexes
                .iter()
                .filter(|i| i.kind == IndexKind::Global)
                .count()
                >= MAX_GSIS
            {
                // Rule B.7: the service's wording for it on UpdateTable (a live probe of
                // 2026-10-08; CreateTable's is a ValidationException).
                return Err(ApiError::new(
                    ErrorKind::LimitExceededException,
                    format!(
                        "Subscriber limit exceeded: Number of global secondary indexes exceeds per-table limit of {MAX_GSIS}"
                    ),
                ));
            }
            // The new index's key attributes come from the request's definitions or the table's.
            let mut definitions = table.attribute_definitions.clone();
            for d in input.attribute_definitions.iter().flatten() {
                let attr = KeyAttribute {
                    name: d.attribute_name.clone().unwrap_or_default(),
                    ty: dynotable_types::ScalarAttributeType::from_descriptor(
                        d.attribute_type.as_deref().unwrap_or("S"),
                    )
                    .unwrap_or(dynotable_types::ScalarAttributeType::S),
                };
                match definitions.iter().find(|a| a.name == attr.name) {
                    Some(existing) if existing.ty != attr.ty => {
                        return Err(ApiError::validation(format!(
                            "One or more parameter values were invalid: Cannot change the type of attribute {} in AttributeDefinitions",
                            attr.name
                        )));
                    }
                    Some(_) => {}
                    None => definitions.push(attr),
                }
            }
            // Rule B.18: a new GSI may have a multi-attribute key.
            let key =
                create_table::gsi_key_schema(create.key_schema.as_deref().unwrap_or_default(), &definitions)?;
            let projection = create_table::projection_of(create.projection.as_ref(), &name)?;
            let throughput = match (table.billing, &create.provisioned_throughput) {
                (Billing::PayPerRequest, None) => None,
                (Billing::PayPerRequest, Some(_)) => {
                    return Err(ApiError::validation(format!(
                        "One or more parameter values were invalid: ProvisionedThroughput should not be specified for index: {name} when BillingMode is PAY_PER_REQUEST"
                    )));
                }
                (Billing::Provisioned(_), None) => {
                    return Err(ApiError::validation(format!(
                        "One or more parameter values were invalid: ProvisionedThroughput must be specified for index: {name}"
                    )));
                }
                (Billing::Provisioned(_), Some(t)) => Some(throughput_of(t)?),
            };
            let keyspace = storage::allocate_keyspace(conn, &table.name, Some(&name)).await?;
            let index = IndexSchema {
                name,
                kind: IndexKind::Global,
                keyspace,
                key,
                projection,
                throughput,
            };
            table.indexes.push(index);
            check_projected_count(&table.indexes)?;
            table.attribute_definitions = definitions;
            retain_used_definitions(table);
            backfill(conn, table, table.indexes.len() - 1).await
        }
        (None, Some(u), None) => {
            let name = u.index_name.clone().unwrap_or_default();
            let is_provisioned = matches!(table.billing, Billing::Provisioned(_));
            let index = table
                .indexes
                .iter_mut()
                .find(|i| i.name == name && i.kind == IndexKind::Global)
                .ok_or_else(|| {
                    ApiError::new(
                        ErrorKind::ResourceNotFoundException,
                        format!("Requested resource not found: Index: {name} not found"),
                    )
                })?;
            if let Some(t) = &u.provisioned_throughput {
                if !is_provisioned {
                    return Err(ApiError::validation(
                        "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST",
                    ));
                }
                index.throughput = Some(throughput_of(t)?);
            }
            Ok(())
        }
        (None, None, Some(d)) => {
            let name = d.index_name.clone().unwrap_or_default();
            let position = table
                .indexes
                .iter()
                .position(|i| i.name == name && i.kind == IndexKind::Global)
                .ok_or_else(|| {
                    ApiError::new(
                        ErrorKind::ResourceNotFoundException,
                        format!("Requested resource not found: Index: {name} not found"),
                    )
                })?;
            let index = table.indexes.remove(position);
            storage::drop_keyspace(conn, index.keyspace).await?;
            retain_used_definitions(table);
            Ok(())
        }
        _ => Err(ApiError::validation(
            "One or more parameter values were invalid: One of GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Update or GlobalSecondaryIndexUpdate.Delete must be specified",
        )),
    }
}

/// Attribute definitions only list key attributes of the table or an index.
fn retain_used_definitions(table: &mut TableSchema) {
    let used: Vec<String> = table
        .key
        .attributes()
        .chain(table.indexes.iter().flat_map(|i| i.key.attributes()))
        .map(|a| a.name.clone())
        .collect();
    table.attribute_definitions.retain(|a| used.contains(&a.name));
}

/// Writes the entries of the table's existing items into the new index at `position`. Items
/// whose index key has the wrong type or is empty are left out of the index (the service
/// reports them as violations of the backfill; docs/compatibility.md).
async fn backfill(conn: &mut SqliteConnection, table: &TableSchema, position: usize) -> Result<(), ApiError> {
    const BATCH: i64 = 512;
    let index = &table.indexes[position];
    let mut cursor: Option<(Vec<u8>, Vec<u8>)> = None;
    loop {
        let rows = match &cursor {
            None => sqlx::query("SELECT pk, sk, body, size FROM entries WHERE keyspace = ? ORDER BY pk, sk LIMIT ?")
                .bind(table.keyspace)
                .bind(BATCH)
                .fetch_all(&mut *conn)
                .await?,
            Some((pk, sk)) => sqlx::query(
                "SELECT pk, sk, body, size FROM entries WHERE keyspace = ? AND (pk, sk) > (?, ?) ORDER BY pk, sk LIMIT ?",
            )
            .bind(table.keyspace)
            .bind(pk)
            .bind(sk)
            .bind(BATCH)
            .fetch_all(&mut *conn)
            .await?,
        };
        let done = (rows.len() as i64) < BATCH;
        let mut batch = StatementBatch::new();
        for row in rows {
            let key = StorageKey {
                pk: row.get(0),
                sk: row.get(1),
            };
            let stored = decode_entry(row.get::<&[u8], _>(2), row.get(3))?;
            if let Ok(Some(entry)) = entry::index_entry(table, index, &stored.item) {
                items::put_index_entry(&mut batch, index, &key, &entry, &stored.item)?;
            }
            cursor = Some((key.pk, key.sk));
        }
        batch.execute(conn).await?;
        if done {
            return Ok(());
        }
    }
}
