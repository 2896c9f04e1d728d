//! From a parsed statement and the table's schema to a plan in terms of the engine's own
//! operations: which GetItem, Query or Scan a SELECT becomes, and which PutItem, UpdateItem,
//! DeleteItem (or transaction action) a write becomes.
//!
//! SELECT (DG `ql-reference.select.html`): a WHERE clause that fixes the partition key — an
//! equality, an `IN [...]`, or an OR of equalities — reads those item collections, each with
//! the first sort-key condition it finds (`=`, `<`, `<=`, `>`, `>=`, `BETWEEN`, `begins_with`);
//! a collection fixed down to one item (its full primary key, on the table) is a GetItem.
//! Anything else is a Scan. The whole WHERE clause is then evaluated on every item read, so the
//! key conditions only ever narrow what is read, never what matches; and, as with Query and
//! Scan, what is read is what is charged (rule B.2, "PartiQL SELECT").
//!
//! INSERT, UPDATE and DELETE (DG `ql-reference.insert.html`, `.update.html`, `.delete.html`)
//! name exactly one item: their WHERE clause must hold an equality on every key attribute.
//! INSERT must not overwrite (`attribute_not_exists` on the partition key), UPDATE must find the
//! item (`attribute_exists`), and DELETE of a missing item succeeds, so the rest of its WHERE
//! clause applies only when the item exists.

use std::sync::Arc;

use dynotable_expr::PathStep;
use dynotable_types::{AttributeValue, Item};

use super::ast::{CompareOp, Expr, Path, Returning, Select, Statement, Target, UpdateAction, Value};
use super::error;
use super::render::{Binder, Placeholders, Renderer};
use crate::catalog::{IndexKind, KeySchema, TableSchema};
use crate::{ApiError, Engine};

/// Why a SELECT is planned: alone it may read anything; inside BatchExecuteStatement and
/// ExecuteTransaction it must name one item by its full primary key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purpose {
    Statement,
    Batch,
    Transaction,
}

/// A SELECT, planned.
pub(crate) struct ReadPlan {
    pub table: Arc<TableSchema>,
    pub index: Option<(String, IndexKind)>,
    pub reads: Reads,
    /// The WHERE clause, evaluated on every item read: its top-level conjuncts, each its own
    /// condition (so no one of them meets the 4 KB expression limit an 8 KB statement could).
    pub filter: Option<(Vec<String>, Placeholders)>,
    /// The select list; `None` for `*`.
    pub projection: Option<Vec<Path>>,
    /// `ScanIndexForward` for each collection read.
    pub forward: bool,
}

pub(crate) enum Reads {
    /// One read per item collection, in this order.
    Partitions(Vec<Read>),
    Scan,
}

pub(crate) enum Read {
    /// The item with this primary key (GetItem).
    Get(Item),
    /// A collection, or a slice of it (Query with this KeyConditionExpression).
    Query(String, Placeholders),
}

/// An INSERT, UPDATE, DELETE or EXISTS, planned as one write on one item.
pub(crate) struct WritePlan {
    pub table: Arc<TableSchema>,
    pub kind: WriteKind,
    /// The item's primary key (for INSERT, taken from the item).
    pub key: Item,
    /// INSERT's item.
    pub item: Option<Item>,
    pub update: Option<String>,
    pub condition: Option<String>,
    pub placeholders: Placeholders,
    pub returning: Option<Returning>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WriteKind {
    Insert,
    Update,
    Delete,
    /// EXISTS: a ConditionCheck.
    Check,
}

/// The table a statement names, checked.
pub(crate) fn table_of(engine: &Engine, target: &Target) -> Result<Arc<TableSchema>, ApiError> {
    let valid = |name: &str| {
        (3..=255).contains(&name.chars().count())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
    };
    if !valid(&target.table) {
        return Err(ApiError::validation(error::INVALID_TABLE_NAME));
    }
    engine.table(&target.table)
}

pub(crate) fn plan_select(
    engine: &Engine,
    select: &Select,
    binder: &Binder<'_>,
    purpose: Purpose,
) -> Result<ReadPlan, ApiError> {
    let table = table_of(engine, &select.from)?;
    let position = match &select.from.index {
        None => None,
        Some(_) if purpose == Purpose::Transaction => {
            return Err(ApiError::validation(error::TRANSACTION_READ_ON_INDEX));
        }
        Some(_) if purpose == Purpose::Batch => {
            return Err(ApiError::validation(error::BATCH_SELECT_NEEDS_KEY));
        }
        Some(name) => Some(
            table
                .indexes
                .iter()
                .position(|i| &i.name == name)
                .ok_or_else(|| {
                    ApiError::validation(format!("The table does not have the specified index: {name}"))
                })?,
        ),
    };
    let index = position.map(|p| (table.indexes[p].name.clone(), table.indexes[p].kind));
    let key = position.map_or(&table.key, |p| &table.indexes[p].key);

    let mut filter = None;
    if let Some(expr) = &select.filter {
        let mut renderer = Renderer::new(binder);
        let mut texts = Vec::new();
        for conjunct in expr.conjuncts() {
            texts.push(renderer.condition(conjunct)?);
        }
        filter = Some((texts, renderer.finish()));
    }

    let reads = if purpose == Purpose::Statement {
        // A multi-attribute GSI key (rule B.18) is read by a filtered scan of the index, not by
        // partition (docs/compatibility.md).
        let ranges = match &select.filter {
            Some(_) if key.is_multi_attribute() => None,
            Some(expr) => partitions(expr, key, binder)?,
            None => None,
        };
        match ranges {
            None => Reads::Scan,
            Some(mut ranges) => {
                order_partitions(select, key, &mut ranges)?;
                let is_table = index.is_none();
                Reads::Partitions(
                    ranges
                        .into_iter()
                        .map(|r| r.into_read(key, is_table, binder))
                        .collect(),
                )
            }
        }
    } else {
        let needs_key = if purpose == Purpose::Batch {
            error::BATCH_SELECT_NEEDS_KEY
        } else {
            error::TRANSACTION_SELECT_NEEDS_KEY
        };
        let Some(expr) = &select.filter else {
            return Err(ApiError::validation(needs_key));
        };
        let (key, _) = key_equalities(expr, &table.key, binder).map_err(|err| {
            if err.message == error::INCOMPLETE_KEY {
                ApiError::validation(needs_key)
            } else {
                err
            }
        })?;
        Reads::Partitions(vec![Read::Get(key)])
    };
    if !select.order_by.is_empty() && matches!(reads, Reads::Scan) {
        return Err(ApiError::validation(if select.filter.is_none() {
            error::ORDER_BY_WITHOUT_WHERE
        } else {
            error::ORDER_BY_WITHOUT_HASH_KEY
        }));
    }
    let forward = !select.order_by.iter().any(|k| {
        key.sort
            .as_ref()
            .is_some_and(|s| k.path.as_attribute() == Some(&s.name))
            && k.descending
    });
    Ok(ReadPlan {
        table,
        index,
        reads,
        filter,
        projection: select.projection.clone(),
        forward,
    })
}

pub(crate) fn plan_write(
    engine: &Engine,
    statement: &Statement,
    binder: &Binder<'_>,
) -> Result<WritePlan, ApiError> {
    let target = statement.target();
    let table = table_of(engine, target)?;
    if target.index.is_some() {
        return Err(ApiError::validation(
            if matches!(statement, Statement::Exists(_)) {
                error::TRANSACTION_WRITE_ON_INDEX
            } else {
                error::NOT_ON_INDEX
            },
        ));
    }
    let mut renderer = Renderer::new(binder);
    let pk = table.key.partition.name.as_str();
    let mut plan = WritePlan {
        table: table.clone(),
        kind: WriteKind::Insert,
        key: Item::new(),
        item: None,
        update: None,
        condition: None,
        placeholders: Placeholders::default(),
        returning: statement.returning(),
    };
    match statement {
        Statement::Insert(insert) => {
            let AttributeValue::M(item) = binder.value(&insert.item)? else {
                unreachable!("the parser accepts only a tuple after VALUE")
            };
            for attribute in table.key.attributes() {
                let value = item
                    .get(&attribute.name)
                    .ok_or_else(|| ApiError::validation(error::key_absent(&attribute.name)))?;
                if value.as_key_ref().map(|k| k.scalar_type()) != Some(attribute.ty) {
                    return Err(ApiError::validation(error::key_type_mismatch(&attribute.name)));
                }
                plan.key.insert(attribute.name.clone(), value.clone());
            }
            plan.item = Some(item);
            plan.condition = Some(format!("attribute_not_exists({})", renderer.name(pk)));
        }
        Statement::Update(update) => {
            plan.kind = WriteKind::Update;
            let filter = update
                .filter
                .as_ref()
                .ok_or_else(|| ApiError::validation(error::INCOMPLETE_KEY))?;
            let (key, rest) = key_equalities(filter, &table.key, binder)?;
            plan.key = key;
            plan.update = Some(update_expression(&update.actions, binder, &mut renderer)?);
            let exists = format!("attribute_exists({})", renderer.name(pk));
            plan.condition = Some(conjunction(exists, &rest, &mut renderer)?);
        }
        Statement::Delete(delete) => {
            plan.kind = WriteKind::Delete;
            let filter = delete
                .filter
                .as_ref()
                .ok_or_else(|| ApiError::validation(error::INCOMPLETE_KEY))?;
            let (key, rest) = key_equalities(filter, &table.key, binder)?;
            plan.key = key;
            if let Some(returning) = delete.returning
                && returning != Returning::AllOld
            {
                return Err(ApiError::validation(format!(
                    "Invalid returning clause: RETURNING {} *. Only RETURNING ALL OLD * is allowed in DELETE statements.",
                    returning.keywords()
                )));
            }
            if !rest.is_empty() {
                let missing = format!("attribute_not_exists({})", renderer.name(pk));
                let rest = renderer.conjuncts(&rest)?;
                plan.condition = Some(format!("{missing} OR ({rest})"));
            }
        }
        Statement::Exists(select) => {
            plan.kind = WriteKind::Check;
            let filter = select
                .filter
                .as_ref()
                .ok_or_else(|| ApiError::validation(error::EXISTS_NEEDS_KEY))?;
            let (key, rest) = key_equalities(filter, &table.key, binder).map_err(|err| {
                if err.message == error::INCOMPLETE_KEY {
                    ApiError::validation(error::EXISTS_NEEDS_KEY)
                } else {
                    err
                }
            })?;
            plan.key = key;
            let exists = format!("attribute_exists({})", renderer.name(pk));
            plan.condition = Some(conjunction(exists, &rest, &mut renderer)?);
        }
        Statement::Select(_) => unreachable!("a SELECT is planned by plan_select"),
    }
    plan.placeholders = renderer.finish();
    Ok(plan)
}

/// `first AND rest...`.
fn conjunction(first: String, rest: &[&Expr], renderer: &mut Renderer<'_>) -> Result<String, ApiError> {
    if rest.is_empty() {
        return Ok(first);
    }
    Ok(format!("{first} AND {}", renderer.conjuncts(rest)?))
}

/// SET, REMOVE, `set_add` and `set_delete` as an UpdateExpression's SET, REMOVE, ADD and DELETE
/// clauses (DG `ql-reference.update.html`, `ql-reference.data-types.html`).
fn update_expression(
    actions: &[UpdateAction],
    binder: &Binder<'_>,
    renderer: &mut Renderer<'_>,
) -> Result<String, ApiError> {
    let (mut set, mut remove, mut add, mut delete) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for action in actions {
        match action {
            UpdateAction::Remove(path) => remove.push(renderer.path(path)),
            UpdateAction::Set(path, Expr::Call { name, args, .. })
                if name.eq_ignore_ascii_case("set_add") || name.eq_ignore_ascii_case("set_delete") =>
            {
                let operation = name.to_ascii_uppercase();
                let operation = operation.trim_start_matches("SET_");
                if args.len() != 2 {
                    return Err(ApiError::validation(format!(
                        "SET_{operation} must have exactly two arguments"
                    )));
                }
                if !matches!(&args[0], Expr::Path(first) if first.steps == path.steps) {
                    return Err(ApiError::validation(format!(
                        "The first argument to SET_{operation} must equal the assignment value"
                    )));
                }
                let value = binder
                    .value(&args[1])
                    .ok()
                    .filter(AttributeValue::is_set)
                    .ok_or_else(|| {
                        ApiError::validation(format!(
                            "The second argument to SET_{operation} must be a value with type SET"
                        ))
                    })?;
                let clause = format!("{} {}", renderer.path(path), renderer.value(value));
                if operation == "ADD" {
                    add.push(clause);
                } else {
                    delete.push(clause);
                }
            }
            UpdateAction::Set(path, value) => {
                let path = renderer.path(path);
                let value = renderer.update_value(value)?;
                set.push(format!("{path} = {value}"));
            }
        }
    }
    let mut clauses = Vec::new();
    for (keyword, parts) in [("SET", set), ("REMOVE", remove), ("ADD", add), ("DELETE", delete)] {
        if !parts.is_empty() {
            clauses.push(format!("{keyword} {}", parts.join(", ")));
        }
    }
    Ok(clauses.join(" "))
}

/// The key a write's WHERE clause names — one equality per key attribute among its top-level
/// conjuncts — and the conjuncts left over.
fn key_equalities<'e>(
    filter: &'e Expr,
    key: &KeySchema,
    binder: &Binder<'_>,
) -> Result<(Item, Vec<&'e Expr>), ApiError> {
    let mut found = Item::new();
    let mut rest = Vec::new();
    for conjunct in filter.conjuncts() {
        match equality(conjunct).filter(|(name, _)| key.contains(name)) {
            Some((name, value)) => {
                if found.contains_key(name) {
                    return Err(ApiError::validation(error::multiple_key_conditions(name)));
                }
                found.insert(name.to_owned(), binder.value(value)?);
            }
            None => rest.push(conjunct),
        }
    }
    if key.attributes().any(|a| !found.contains_key(&a.name)) {
        return Err(ApiError::validation(error::INCOMPLETE_KEY));
    }
    Ok((found, rest))
}

/// `name = value` or `value = name`, for a top-level attribute name.
fn equality(expr: &Expr) -> Option<(&str, &Expr)> {
    let Expr::Compare(left, CompareOp::Eq, right, _) = expr else {
        return None;
    };
    match (left.as_ref(), right.as_ref()) {
        (Expr::Path(path), value @ Expr::Value(..)) | (value @ Expr::Value(..), Expr::Path(path)) => {
            Some((path.as_attribute()?, value))
        }
        _ => None,
    }
}

/// One item collection to read, and the sort-key condition narrowing it.
struct Range {
    partition: AttributeValue,
    sort: Option<SortCondition>,
}

#[derive(Clone, PartialEq)]
enum SortCondition {
    Compare(CompareOp, AttributeValue),
    Between(AttributeValue, AttributeValue),
    BeginsWith(AttributeValue),
}

impl Range {
    fn into_read(self, key: &KeySchema, is_table: bool, binder: &Binder<'_>) -> Read {
        let sort_name = key.sort.as_ref().map(|s| s.name.as_str());
        if is_table {
            let full_key = match (&self.sort, sort_name) {
                (_, None) => Some(Item::from([(key.partition.name.clone(), self.partition.clone())])),
                (Some(SortCondition::Compare(CompareOp::Eq, value)), Some(sort)) => Some(Item::from([
                    (key.partition.name.clone(), self.partition.clone()),
                    (sort.to_owned(), value.clone()),
                ])),
                _ => None,
            };
            if let Some(full_key) = full_key {
                return Read::Get(full_key);
            }
        }
        let mut renderer = Renderer::new(binder);
        let pk = renderer.name(&key.partition.name);
        let value = renderer.value(self.partition);
        let mut text = format!("{pk} = {value}");
        if let (Some(sort), Some(name)) = (self.sort, sort_name) {
            let sk = renderer.name(name);
            let condition = match sort {
                SortCondition::Compare(op, v) => format!("{sk} {} {}", op.symbol(), renderer.value(v)),
                SortCondition::Between(low, high) => {
                    format!(
                        "{sk} BETWEEN {} AND {}",
                        renderer.value(low),
                        renderer.value(high)
                    )
                }
                SortCondition::BeginsWith(prefix) => format!("begins_with({sk}, {})", renderer.value(prefix)),
            };
            text = format!("{text} AND {condition}");
        }
        Read::Query(text, renderer.finish())
    }
}

/// The item collections a WHERE clause confines a SELECT to, or `None` for a Scan.
fn partitions(filter: &Expr, key: &KeySchema, binder: &Binder<'_>) -> Result<Option<Vec<Range>>, ApiError> {
    let conjuncts = filter.conjuncts();
    let pk = key.partition.name.as_str();
    let mut ranges = Vec::new();
    let mut found = false;
    // An equality on the partition key, then an IN list, then an OR of equalities.
    for conjunct in &conjuncts {
        if let Some((_, value)) = equality(conjunct).filter(|(name, _)| *name == pk) {
            let sort = sort_condition(&conjuncts, key, binder)?;
            ranges.push(range(binder.value(value)?, sort, key));
            found = true;
            break;
        }
    }
    if !found {
        for conjunct in &conjuncts {
            if let Expr::In {
                operand,
                list,
                negated: false,
                ..
            } = conjunct
                && matches!(operand.as_ref(), Expr::Path(p) if p.as_attribute() == Some(pk))
            {
                let sort = sort_condition(&conjuncts, key, binder)?;
                for member in list {
                    ranges.push(range(binder.value(member)?, sort.clone(), key));
                }
                found = true;
                break;
            }
        }
    }
    if !found {
        'conjuncts: for conjunct in &conjuncts {
            let Expr::Or(..) = conjunct else { continue };
            let mut candidates = Vec::new();
            for disjunct in conjunct.disjuncts() {
                let mut inner = disjunct.conjuncts();
                let Some(value) = inner
                    .iter()
                    .find_map(|c| equality(c).filter(|(name, _)| *name == pk).map(|(_, v)| v))
                else {
                    continue 'conjuncts;
                };
                inner.extend(conjuncts.iter().copied());
                let sort = sort_condition(&inner, key, binder)?;
                candidates.push(range(binder.value(value)?, sort, key));
            }
            ranges = candidates;
            found = true;
            break;
        }
    }
    if !found {
        return Ok(None);
    }
    // One read per collection; a collection named twice with different sort conditions is read
    // whole. A value no key of this type can hold matches nothing and is not read at all.
    let mut merged: Vec<Range> = Vec::new();
    for range in ranges.into_iter().flatten() {
        match merged.iter_mut().find(|r| r.partition == range.partition) {
            Some(existing) if existing.sort != range.sort => existing.sort = None,
            Some(_) => {}
            None => merged.push(range),
        }
    }
    Ok(Some(merged))
}

/// A range, unless its values cannot be keys of this schema (then nothing can match).
fn range(partition: AttributeValue, sort: Option<SortCondition>, key: &KeySchema) -> Option<Range> {
    let fits = |value: &AttributeValue, ty| {
        value
            .as_key_ref()
            .is_some_and(|k| k.scalar_type() == ty && !k.is_empty())
    };
    if !fits(&partition, key.partition.ty) {
        return None;
    }
    if let (Some(sort), Some(schema)) = (&sort, &key.sort) {
        let ok = match sort {
            SortCondition::Compare(_, v) => fits(v, schema.ty),
            SortCondition::Between(low, high) => {
                fits(low, schema.ty)
                    && fits(high, schema.ty)
                    && low.as_key_ref().map(|k| k.encode()) <= high.as_key_ref().map(|k| k.encode())
            }
            SortCondition::BeginsWith(prefix) => {
                matches!(prefix, AttributeValue::S(_) | AttributeValue::B(_)) && fits(prefix, schema.ty)
            }
        };
        if !ok {
            return None;
        }
    }
    Some(Range { partition, sort })
}

/// The first condition among `conjuncts` a KeyConditionExpression can hold on the sort key.
fn sort_condition(
    conjuncts: &[&Expr],
    key: &KeySchema,
    binder: &Binder<'_>,
) -> Result<Option<SortCondition>, ApiError> {
    let Some(sort) = &key.sort else {
        return Ok(None);
    };
    let is_sort = |e: &Expr| matches!(e, Expr::Path(p) if p.as_attribute() == Some(sort.name.as_str()));
    let is_value = |e: &Expr| matches!(e, Expr::Value(v, _) if !matches!(v, Value::Missing));
    for conjunct in conjuncts {
        match conjunct {
            Expr::Compare(left, op, right, _) if *op != CompareOp::Ne => {
                if is_sort(left) && is_value(right) {
                    return Ok(Some(SortCondition::Compare(*op, binder.value(right)?)));
                }
                if is_value(left) && is_sort(right) {
                    return Ok(Some(SortCondition::Compare(op.flipped(), binder.value(left)?)));
                }
            }
            Expr::Between {
                operand,
                low,
                high,
                negated: false,
                ..
            } if is_sort(operand) && is_value(low) && is_value(high) => {
                return Ok(Some(SortCondition::Between(
                    binder.value(low)?,
                    binder.value(high)?,
                )));
            }
            Expr::Call { name, args, .. }
                if name.eq_ignore_ascii_case("begins_with")
                    && args.len() == 2
                    && is_sort(&args[0])
                    && is_value(&args[1]) =>
            {
                return Ok(Some(SortCondition::BeginsWith(binder.value(&args[1])?)));
            }
            _ => {}
        }
    }
    Ok(None)
}

/// ORDER BY (DG `ql-reference.select.html`): only key attributes, a partition-key condition
/// required; the partition key orders the collections, the sort key each collection.
fn order_partitions(select: &Select, key: &KeySchema, ranges: &mut [Range]) -> Result<(), ApiError> {
    let mut by_partition = None;
    for order in &select.order_by {
        let name = order.path.as_attribute().unwrap_or_default();
        if !key.contains(name) {
            return Err(ApiError::validation(format!(
                "Variable reference {} in ORDER BY clause must be part of the primary key",
                order.path.display()
            )));
        }
        if name == key.partition.name {
            by_partition = Some(order.descending);
        }
    }
    if !select.order_by.is_empty() && ranges.len() > 1 && by_partition.is_none() {
        return Err(ApiError::validation(error::ORDER_BY_NEEDS_HASH_KEY));
    }
    if let Some(descending) = by_partition {
        ranges.sort_by_key(|r| r.partition.as_key_ref().map(|k| k.encode()).unwrap_or_default());
        if descending {
            ranges.reverse();
        }
    }
    Ok(())
}

/// The top-level attribute names `paths` start at.
pub(crate) fn top_level_names<'p>(paths: impl IntoIterator<Item = &'p [PathStep]>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for steps in paths {
        if let Some(PathStep::Attribute(name)) = steps.first()
            && !names.contains(name)
        {
            names.push(name.clone());
        }
    }
    names
}
