//! ListTables: table names in order, at most `Limit` (1–100, default 100) a page, continuing
//! after `ExclusiveStartTableName`; `LastEvaluatedTableName` is set when the page is full and
//! more names may follow.

use crate::api::table::{ListTablesInput, ListTablesOutput};
use crate::shape::Shape;
use crate::{ApiError, Engine};

const MAX_LIMIT: i64 = 100;

pub async fn run(engine: &Engine, input: ListTablesInput) -> Result<ListTablesOutput, ApiError> {
    // Rule B.15: the service lists limit before exclusiveStartTableName (dynalite's recording).
    let mut shape = Shape::new();
    shape.at_least("limit", input.limit, 1);
    if let Some(limit) = input.limit
        && limit > MAX_LIMIT
    {
        shape.push(dynotable_types::ConstraintViolation {
            field: "limit".into(),
            value: Some(limit.to_string()),
            constraint: format!("Member must have value less than or equal to {MAX_LIMIT}"),
        });
    }
    if let Some(start) = &input.exclusive_start_table_name {
        shape.name("exclusiveStartTableName", Some(start));
    }
    shape.finish()?;

    let limit = input.limit.unwrap_or(MAX_LIMIT) as usize;
    let catalog = engine.catalog();
    let mut names = catalog
        .keys()
        .filter(|name| match &input.exclusive_start_table_name {
            Some(start) => name.as_str() > start.as_str(),
            None => true,
        });
    let table_names: Vec<String> = names.by_ref().take(limit).cloned().collect();
    let more = names.next().is_some();
    let last_evaluated_table_name = if more { table_names.last().cloned() } else { None };
    Ok(ListTablesOutput {
        table_names,
        last_evaluated_table_name,
    })
}
