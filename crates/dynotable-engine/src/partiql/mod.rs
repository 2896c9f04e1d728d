//! PartiQL: ExecuteStatement, BatchExecuteStatement and ExecuteTransaction (DG
//! `ql-reference.html` and the pages it links; API reference `API_ExecuteStatement.html`,
//! `API_BatchExecuteStatement.html`, `API_ExecuteTransaction.html`).
//!
//! # The life of a statement
//!
//! Take `ExecuteStatement` with `Statement: SELECT title FROM "Music" WHERE artist = ? AND
//! year > 2000` and `Parameters: [{"S": "Acme"}]`.
//!
//! 1. **Shape** (this module): the request's members are checked as every operation checks them
//!    (`Statement` 1–8192 characters, `Limit` at least 1, enumerations), and the parameters'
//!    values as attribute values.
//! 2. **Tokens** ([`lexer`]): words, `"quoted identifiers"`, `'strings'`, numbers, `?`,
//!    operators, each with its byte span.
//! 3. **Syntax tree** ([`parser`], [`ast`]): recursive descent; the first token that cannot
//!    continue is the error, `Statement wasn't well formed, can't be processed: ...` with its
//!    line, column and length ([`error`]). The parser also counts the `?`s, which must match
//!    `Parameters` one for one.
//! 4. **Plan** ([`plan`]): with the table's schema from the catalog, the statement becomes the
//!    engine's own requests. `artist = ?` fixes the partition key and `year > 2000` is a
//!    sort-key condition, so this SELECT is one Query of the `Acme` collection; a SELECT naming a
//!    full primary key is a GetItem; one fixing no partition is a Scan. An INSERT becomes a
//!    PutItem under `attribute_not_exists`, an UPDATE an UpdateItem under `attribute_exists`, a
//!    DELETE a DeleteItem; their WHERE clause must name the whole primary key. Values are bound
//!    and conditions written in DynamoDB's expression language ([`render`]).
//! 5. **Run** ([`select`], [`write`]): the requests go through the engine's operations, so every
//!    rule they apply — validation, conditions, the 1 MB page, capacity (rule B.2 "PartiQL
//!    SELECT"), index upkeep, collection statistics — applies once, the same way. A SELECT then
//!    evaluates its whole WHERE clause on each item read and applies its select list.
//! 6. **Answer**: `Items`, and for a SELECT that stopped early a `NextToken` ([`token`]) and the
//!    `LastEvaluatedKey`; `ConsumedCapacity` when asked for.
//!
//! BatchExecuteStatement ([`batch`]) runs up to 25 statements, all reads or all writes, each on
//! its own, and reports each one's item or error. ExecuteTransaction ([`transaction`]) turns up
//! to 100 statements into one TransactGetItems or TransactWriteItems, all or nothing, with the
//! latter's ClientRequestToken idempotency.

mod ast;
mod batch;
mod error;
mod lexer;
mod parser;
mod plan;
mod render;
mod select;
mod token;
mod transaction;
mod write;

use dynotable_types::AttributeValue;

use crate::api::ConsumedCapacity;
use crate::api::partiql::{ExecuteStatementInput, ExecuteStatementOutput};
use crate::params::CapacityReport;
use crate::shape::Shape;
use crate::{ApiError, Engine};

pub(crate) use batch::batch_execute_statement;
pub(crate) use transaction::execute_transaction;

use ast::Statement;
use parser::Parsed;
use plan::Purpose;
use render::Binder;

/// The longest statement (API reference: `Statement` is 1–8192 characters).
const MAX_STATEMENT: usize = 8192;
/// The longest NextToken (1–32768 characters).
const MAX_NEXT_TOKEN: usize = 32768;

pub(crate) async fn execute_statement(
    engine: &Engine,
    input: ExecuteStatementInput,
) -> Result<ExecuteStatementOutput, ApiError> {
    let mut shape = Shape::new();
    check_statement(&mut shape, "statement", input.statement.as_ref());
    check_parameters(&mut shape, "parameters", input.parameters.as_ref());
    shape.at_least("limit", input.limit, 1);
    CapacityReport::check(&mut shape, input.return_consumed_capacity.as_ref());
    shape.one_of(
        "returnValuesOnConditionCheckFailure",
        input.return_values_on_condition_check_failure.as_ref(),
        &["ALL_OLD", "NONE"],
    );
    if let Some(token) = &input.next_token {
        shape.length("nextToken", token, 1, MAX_NEXT_TOKEN);
    }
    shape.finish()?;

    let source = input.statement.unwrap_or_default();
    let parameters = parameters(input.parameters)?;
    let parsed = parse(&source, &parameters)?;
    let binder = Binder {
        source: &source,
        parameters: &parameters,
    };
    match &parsed.statement {
        Statement::Select(select) => {
            let plan = plan::plan_select(engine, select, &binder, Purpose::Statement)?;
            let fingerprint = token::fingerprint(&source, &parameters);
            let resume = input
                .next_token
                .as_deref()
                .map(|t| token::decode(t, &fingerprint))
                .transpose()?;
            let page = select::read(
                engine,
                &plan,
                select::ReadOptions {
                    limit: input.limit.map(|l| l as usize),
                    consistent: input.consistent_read.unwrap_or(false),
                    report: input.return_consumed_capacity,
                    resume,
                },
            )
            .await?;
            Ok(ExecuteStatementOutput {
                items: page.items,
                next_token: page.next.map(|r| token::encode(&fingerprint, r)),
                consumed_capacity: page.consumed,
                last_evaluated_key: page.last_evaluated_key,
            })
        }
        Statement::Exists(_) => Err(ApiError::validation(error::EXISTS_OUTSIDE_TRANSACTION)),
        statement => {
            let plan = plan::plan_write(engine, statement, &binder)?;
            let written = write::write(
                engine,
                plan,
                input.return_consumed_capacity,
                input.return_values_on_condition_check_failure,
            )
            .await?;
            Ok(ExecuteStatementOutput {
                items: written.item.into_iter().collect(),
                consumed_capacity: written.consumed,
                ..Default::default()
            })
        }
    }
}

/// `Statement`: present, 1–8192 characters.
fn check_statement(shape: &mut Shape, field: &str, statement: Option<&String>) {
    if shape.required(field, statement)
        && let Some(statement) = statement
    {
        shape.length(field, statement, 1, MAX_STATEMENT);
    }
}

/// `Parameters`: when given, at least one.
fn check_parameters<T>(
    shape: &mut Shape,
    field: &str,
    parameters: Option<&dynotable_types::Checked<Vec<T>>>,
) {
    if let Some(dynotable_types::Checked(Ok(list))) = parameters
        && list.is_empty()
    {
        shape.list_length(field, "[]", 0, 1, usize::MAX);
    }
}

/// The request's parameters, their values checked.
fn parameters(
    parameters: Option<dynotable_types::Checked<Vec<AttributeValue>>>,
) -> Result<Vec<AttributeValue>, ApiError> {
    Ok(parameters
        .map(|p| p.into_result())
        .transpose()?
        .unwrap_or_default())
}

/// Parses a statement and checks its `?`s against the parameters given.
fn parse(source: &str, parameters: &[AttributeValue]) -> Result<Parsed, ApiError> {
    let parsed = parser::parse(source).map_err(|e| e.into_api(source))?;
    if parsed.parameters != parameters.len() {
        return Err(ApiError::validation(error::PARAMETER_COUNT));
    }
    Ok(parsed)
}

/// Adds one operation's ConsumedCapacity to a running total for the same table.
fn add_capacity(total: &mut Option<ConsumedCapacity>, add: Option<ConsumedCapacity>) {
    let Some(add) = add else {
        return;
    };
    let Some(sum) = total else {
        *total = Some(add);
        return;
    };
    let plus = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
    };
    let add_part = |a: &mut crate::api::Capacity, b: &crate::api::Capacity| {
        a.capacity_units += b.capacity_units;
        a.read_capacity_units = plus(a.read_capacity_units, b.read_capacity_units);
        a.write_capacity_units = plus(a.write_capacity_units, b.write_capacity_units);
    };
    sum.capacity_units += add.capacity_units;
    sum.read_capacity_units = plus(sum.read_capacity_units, add.read_capacity_units);
    sum.write_capacity_units = plus(sum.write_capacity_units, add.write_capacity_units);
    if let Some(table) = &add.table {
        add_part(sum.table.get_or_insert_with(Default::default), table);
    }
    for (mine, theirs) in [
        (&mut sum.global_secondary_indexes, &add.global_secondary_indexes),
        (&mut sum.local_secondary_indexes, &add.local_secondary_indexes),
    ] {
        for (name, capacity) in theirs.iter().flatten() {
            add_part(
                mine.get_or_insert_with(Default::default)
                    .entry(name.clone())
                    .or_default(),
                capacity,
            );
        }
    }
}

/// Adds one operation's ConsumedCapacity to a list with one entry per table.
fn add_table_capacity(list: &mut Vec<ConsumedCapacity>, add: Option<ConsumedCapacity>) {
    let Some(add) = add else {
        return;
    };
    match list.iter_mut().find(|c| c.table_name == add.table_name) {
        Some(existing) => {
            let mut total = Some(std::mem::take(existing));
            add_capacity(&mut total, Some(add));
            *existing = total.unwrap_or_default();
        }
        None => list.push(add),
    }
}

#[cfg(test)]
mod tests {
    //! Statements made of PartiQL's own words in random order get a DynamoDB error or an
    //! answer, never a panic or an internal error.

    use proptest::prelude::*;

    use crate::{Engine, ErrorKind, Location};

    const WORDS: &[&str] = &[
        "SELECT",
        "*",
        "FROM",
        "Music",
        "\\\"Music\\\".\\\"ByGenre\\\"",
        "WHERE",
        "Artist",
        "SongTitle",
        "Genre",
        "Year",
        "a.b[1]",
        "=",
        "<>",
        "<",
        ">=",
        "'x'",
        "1",
        "-2.5",
        "?",
        "AND",
        "OR",
        "NOT",
        "IN",
        "[",
        "]",
        "(",
        ")",
        "BETWEEN",
        "IS",
        "MISSING",
        "NULL",
        "TRUE",
        "UPDATE",
        "SET",
        "REMOVE",
        "DELETE",
        "INSERT",
        "INTO",
        "VALUE",
        "{",
        "}",
        ":",
        ",",
        "<<",
        ">>",
        "ORDER",
        "BY",
        "DESC",
        "RETURNING",
        "ALL",
        "OLD",
        "NEW",
        "MODIFIED",
        "begins_with",
        "size",
        "set_add",
        "list_append",
        "+",
        "-",
        ".",
        "EXISTS",
        ";",
    ];

    fn engine(runtime: &tokio::runtime::Runtime) -> Engine {
        runtime.block_on(async {
            let engine = Engine::open(Location::InMemory).await.unwrap();
            let table = r#"{"TableName":"Music","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"Artist","AttributeType":"S"},{"AttributeName":"SongTitle","AttributeType":"S"},{"AttributeName":"Genre","AttributeType":"S"},{"AttributeName":"Year","AttributeType":"N"}],"KeySchema":[{"AttributeName":"Artist","KeyType":"HASH"},{"AttributeName":"SongTitle","KeyType":"RANGE"}],"GlobalSecondaryIndexes":[{"IndexName":"ByGenre","KeySchema":[{"AttributeName":"Genre","KeyType":"HASH"},{"AttributeName":"Year","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"}}]}"#;
            engine.call("CreateTable", table.as_bytes()).await.unwrap();
            let item = r#"{"TableName":"Music","Item":{"Artist":{"S":"x"},"SongTitle":{"S":"x"},"Genre":{"S":"x"},"Year":{"N":"1"},"a":{"M":{"b":{"L":[{"N":"1"},{"N":"2"}]}}}}}"#;
            engine.call("PutItem", item.as_bytes()).await.unwrap();
            engine
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn statements_never_fail_internally(
            prefix in prop::sample::select(vec!["", "SELECT * FROM Music WHERE ", "UPDATE Music SET ", "DELETE FROM Music WHERE Artist = 'x' AND "]),
            words in prop::collection::vec(prop::sample::select(WORDS), 0..14),
            parameters in 0usize..3,
        ) {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            let engine = engine(&runtime);
            let statement = format!("{prefix}{}", words.join(" "));
            let parameters: Vec<String> = (0..parameters).map(|i| format!(r#"{{"S":"p{i}"}}"#)).collect();
            let parameters = if parameters.is_empty() { String::new() } else { format!(r#","Parameters":[{}]"#, parameters.join(",")) };
            let one = format!(r#"{{"Statement":"{statement}"{parameters}}}"#);
            let bodies = [
                ("ExecuteStatement", format!(r#"{{"Statement":"{statement}"{parameters},"Limit":1,"ReturnConsumedCapacity":"INDEXES"}}"#)),
                ("BatchExecuteStatement", format!(r#"{{"Statements":[{one},{one}]}}"#)),
                ("ExecuteTransaction", format!(r#"{{"TransactStatements":[{one}]}}"#)),
            ];
            for (operation, body) in bodies {
                let result = runtime.block_on(engine.call(operation, body.as_bytes()));
                if let Err(err) = result {
                    prop_assert_ne!(err.kind, ErrorKind::InternalServerError, "{} {}: {}", operation, body, err.message);
                }
            }
        }
    }
}
