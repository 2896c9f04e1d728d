//! DeleteTable: removes the table, its indexes and every item in one transaction, and returns
//! the table's last description with status DELETING, without the schema members the service
//! leaves out of it (`DeletedTableDescription`).

use crate::api::table::{DeleteTableOutput, TableNameInput};
use crate::{ApiError, Engine, begin_write, ops, storage};

pub async fn run(engine: &Engine, input: TableNameInput) -> Result<DeleteTableOutput, ApiError> {
    let name = ops::describe_table::table_name_shape(&input)?;
    let mut writer = engine.writer().await;
    let table = engine.table_or(&name, ApiError::table_not_found)?;
    if table.deletion_protection {
        // Unverified wording.
        return Err(ApiError::validation(format!(
            "Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first. Table: {}",
            table.name
        )));
    }
    let description = ops::describe_table::describe(&mut writer, &table, "DELETING").await?;
    // Every item of the table goes: the item cache is bypassed until the delete is committed,
    // and holds nothing of the table's or its indexes' keyspaces after (item_cache, "Strong
    // consistency"); other tables' cached items stay.
    let dropped: Vec<i64> = std::iter::once(table.keyspace)
        .chain(table.indexes.iter().map(|index| index.keyspace))
        .collect();
    let marks = writer.mark_all_items(&dropped).await;
    let mut tx = begin_write(&mut writer).await?;
    storage::delete_table(&mut tx, &table).await?;
    tx.commit().await?;
    engine.catalog_mut().remove(&table.name);
    drop(marks);
    Ok(DeleteTableOutput {
        table_description: description.into(),
    })
}
