//! Running a planned SELECT: the GetItem, Query or Scan requests it stands for, run by the
//! engine's own operations (so their rules — key conditions, the 1 MB page, `Limit`,
//! ConsumedCapacity — apply unchanged), then the WHERE clause and the select list applied to
//! each item read.
//!
//! `Limit` counts items evaluated, before the WHERE clause, as Query's and Scan's `Limit` does
//! (API reference `API_ExecuteStatement.html`). A SELECT over several item collections reads them
//! in order and stops where a read stops (its page is full or the limit is reached); the
//! NextToken says which collection to continue with, and after which key.

use dynotable_expr::{Condition, DocumentPath, ExpressionKind, PathStep};
use dynotable_types::{Checked, Item};

use super::ast::Path;
use super::error;
use super::plan::{Read, ReadPlan, Reads, top_level_names};
use super::token::Resume;
use crate::api::ConsumedCapacity;
use crate::api::item::{GetItemInput, QueryInput, ScanInput};
use crate::capacity::ReadUnits;
use crate::catalog::IndexKind;
use crate::ops::{get_item, query, scan};
use crate::params::{self, CapacityReport, Charge};
use crate::shape::Shape;
use crate::{ApiError, Engine};

/// How a SELECT is read.
pub(crate) struct ReadOptions {
    pub limit: Option<usize>,
    pub consistent: bool,
    pub report: Option<String>,
    pub resume: Option<Resume>,
}

/// One page of a SELECT's result.
pub(crate) struct Page {
    pub items: Vec<Item>,
    /// Where the next page starts, if the read stopped early.
    pub next: Option<Resume>,
    pub last_evaluated_key: Option<Item>,
    pub consumed: Option<ConsumedCapacity>,
}

pub(crate) async fn read(engine: &Engine, plan: &ReadPlan, options: ReadOptions) -> Result<Page, ApiError> {
    if options.consistent && matches!(plan.index, Some((_, IndexKind::Global))) {
        return Err(ApiError::validation(error::CONSISTENT_READ_ON_GSI));
    }
    let matcher = Matcher::new(plan)?;
    let fetch = lsi_fetch(plan, &matcher.filter);
    let mut page = Page {
        items: Vec::new(),
        next: None,
        last_evaluated_key: None,
        consumed: None,
    };
    let keep = |items: Vec<Item>, page: &mut Page| {
        page.items
            .extend(items.into_iter().filter_map(|i| matcher.apply(i)))
    };
    let table_name = Some(plan.table.name.clone());
    let index_name = plan.index.as_ref().map(|(name, _)| name.clone());
    let (projection_expression, projection_names) = match &fetch {
        Some((text, names)) => (Some(text.clone()), Some(names.clone())),
        None => (None, None),
    };

    let reads = match &plan.reads {
        Reads::Scan => {
            if options.resume.as_ref().is_some_and(|r| r.partition != 0) {
                return Err(ApiError::validation(error::INVALID_NEXT_TOKEN));
            }
            let output = scan::run(
                engine,
                ScanInput {
                    table_name,
                    index_name,
                    limit: options.limit.map(|l| l as i64),
                    exclusive_start_key: options.resume.and_then(|r| r.key).map(|k| Checked(Ok(k))),
                    consistent_read: Some(options.consistent),
                    return_consumed_capacity: options.report.clone(),
                    projection_expression,
                    expression_attribute_names: projection_names,
                    ..Default::default()
                },
            )
            .await?;
            keep(output.items.unwrap_or_default(), &mut page);
            page.consumed = output.consumed_capacity;
            page.next = output.last_evaluated_key.clone().map(|key| Resume {
                partition: 0,
                key: Some(key),
            });
            page.last_evaluated_key = output.last_evaluated_key;
            return Ok(page);
        }
        Reads::Partitions(reads) => reads,
    };

    let start = options.resume.as_ref().map_or(0, |r| r.partition);
    if start > reads.len() || (start == reads.len() && !reads.is_empty()) {
        return Err(ApiError::validation(error::INVALID_NEXT_TOKEN));
    }
    let mut start_key = options.resume.and_then(|r| r.key);
    let mut remaining = options.limit;
    for (position, read) in reads.iter().enumerate().skip(start) {
        let (items, evaluated, last_key, consumed) = match read {
            Read::Get(key) => {
                let output = get_item::run(
                    engine,
                    GetItemInput {
                        table_name: table_name.clone(),
                        key: Some(Checked(Ok(key.clone()))),
                        consistent_read: Some(options.consistent),
                        return_consumed_capacity: options.report.clone(),
                        ..Default::default()
                    },
                )
                .await?;
                (
                    output.item.into_iter().collect(),
                    1,
                    None,
                    output.consumed_capacity,
                )
            }
            Read::Query(condition, placeholders) => {
                let mut names = placeholders.names().unwrap_or_default();
                names.extend(projection_names.clone().unwrap_or_default());
                let output = query::run(
                    engine,
                    QueryInput {
                        table_name: table_name.clone(),
                        index_name: index_name.clone(),
                        key_condition_expression: Some(condition.clone()),
                        expression_attribute_names: Some(names),
                        expression_attribute_values: placeholders.values().map(|v| Checked(Ok(v))),
                        projection_expression: projection_expression.clone(),
                        scan_index_forward: Some(plan.forward),
                        limit: remaining.map(|l| l as i64),
                        exclusive_start_key: start_key.take().map(|k| Checked(Ok(k))),
                        consistent_read: Some(options.consistent),
                        return_consumed_capacity: options.report.clone(),
                        ..Default::default()
                    },
                )
                .await?;
                let evaluated = output.scanned_count as usize;
                (
                    output.items.unwrap_or_default(),
                    evaluated,
                    output.last_evaluated_key,
                    output.consumed_capacity,
                )
            }
        };
        keep(items, &mut page);
        super::add_capacity(&mut page.consumed, consumed);
        remaining = remaining.map(|l| l.saturating_sub(evaluated));
        if let Some(key) = last_key {
            page.last_evaluated_key = Some(key.clone());
            page.next = Some(Resume {
                partition: position,
                key: Some(key),
            });
            break;
        }
        if remaining == Some(0) && position + 1 < reads.len() {
            page.next = Some(Resume {
                partition: position + 1,
                key: None,
            });
            break;
        }
    }
    if page.consumed.is_none()
        && let Some(report) = &options.report
    {
        // Nothing was read (no collection could match): nothing is charged.
        let report = CapacityReport::check(&mut Shape::new(), Some(report));
        page.consumed = params::consumed_capacity(
            report,
            &plan.table,
            &plan.table.name,
            Some(Charge::Read(ReadUnits(0))),
            &[],
        );
    }
    Ok(page)
}

/// A SELECT's WHERE clause and select list, ready to apply to the items read.
pub(crate) struct Matcher<'p> {
    plan: &'p ReadPlan,
    /// The WHERE clause's conjuncts.
    filter: Vec<Condition>,
}

impl<'p> Matcher<'p> {
    pub fn new(plan: &'p ReadPlan) -> Result<Matcher<'p>, ApiError> {
        let mut filter = Vec::new();
        if let Some((texts, placeholders)) = &plan.filter {
            let mut resolver = placeholders.resolver()?;
            for text in texts {
                filter.push(resolver.condition(ExpressionKind::Filter, text)?);
            }
        }
        Ok(Matcher { plan, filter })
    }

    /// The item as the SELECT returns it, if it matches the WHERE clause.
    pub fn apply(&self, item: Item) -> Option<Item> {
        if !self.filter.iter().all(|f| f.evaluate(Some(&item))) {
            return None;
        }
        Some(match &self.plan.projection {
            Some(paths) => project(&item, paths),
            None => item,
        })
    }
}

/// A read of an LSI that selects attributes outside the index's projection goes back to the
/// table for them (rule B.2, "LSI query"): the read asks Query for every top-level attribute
/// the select list and the WHERE clause name. Returns the ProjectionExpression and its names.
fn lsi_fetch(
    plan: &ReadPlan,
    filter: &[Condition],
) -> Option<(String, std::collections::BTreeMap<String, String>)> {
    if !matches!(plan.index, Some((_, IndexKind::Local))) {
        return None;
    }
    let selected = plan.projection.as_ref()?;
    let filter_paths: Vec<_> = filter.iter().flat_map(|f| f.paths()).collect();
    let names = top_level_names(
        selected
            .iter()
            .map(|p| p.steps.as_slice())
            .chain(filter_paths.iter().map(|p| p.steps())),
    );
    let placeholders: std::collections::BTreeMap<String, String> = names
        .into_iter()
        .enumerate()
        .map(|(i, name)| (format!("#p{i}"), name))
        .collect();
    let text = placeholders.keys().cloned().collect::<Vec<_>>().join(", ");
    Some((text, placeholders))
}

/// The select list applied to an item. Each path's value is returned under the name of its last
/// attribute step, followed by the list indexes after it: `a.b[1]` is returned as `b[1]` (the
/// unnesting DynamoDB's PartiQL applies to document paths).
pub(crate) fn project(item: &Item, paths: &[Path]) -> Item {
    let mut out = Item::new();
    for path in paths {
        let Some(document) = DocumentPath::new(path.steps.clone()) else {
            continue;
        };
        if let Some(value) = document.get(item) {
            out.insert(output_name(&path.steps), value.clone());
        }
    }
    out
}

fn output_name(steps: &[PathStep]) -> String {
    let last = steps
        .iter()
        .rposition(|s| matches!(s, PathStep::Attribute(_)))
        .unwrap_or(0);
    let mut name = String::new();
    for step in &steps[last..] {
        match step {
            PathStep::Attribute(attribute) => name.push_str(attribute),
            PathStep::Index(index) => name.push_str(&format!("[{index}]")),
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use dynotable_types::AttributeValue;

    #[test]
    fn document_paths_are_unnested() {
        let s = |v: &str| AttributeValue::S(v.into());
        let item = Item::from([
            (
                "a".to_owned(),
                AttributeValue::M(Item::from([(
                    "b".to_owned(),
                    AttributeValue::L(vec![s("x"), s("y")]),
                )])),
            ),
            ("c".to_owned(), s("z")),
        ]);
        let path = |steps: Vec<PathStep>| Path {
            steps,
            span: Default::default(),
        };
        let projected = project(
            &item,
            &[
                path(vec![
                    PathStep::Attribute("a".into()),
                    PathStep::Attribute("b".into()),
                    PathStep::Index(1),
                ]),
                path(vec![PathStep::Attribute("c".into())]),
                path(vec![PathStep::Attribute("missing".into())]),
            ],
        );
        assert_eq!(
            projected,
            Item::from([("b[1]".to_owned(), s("y")), ("c".to_owned(), s("z"))])
        );
    }
}
