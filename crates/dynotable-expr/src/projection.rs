//! ProjectionExpression: which attributes, or parts of attributes, to return.
//!
//! [`resolve_projection`] parses, then checks in the service's order (Rule B.6,
//! docs/dynamodb-rules.md): bare reserved words, undefined `#names`, overlapping paths (`a, a.b` or
//! `a, a`), conflicting paths (`a.b, a[1]`). Paths are compared as written, whatever the item.
//!
//! Applying a projection keeps the item's shape (behaviour checked against the live service by
//! the ScyllaDB Alternator tests): `a.b[2].y` of `{a: {b: [2, 4, {x, y}]}}` is
//! `{a: {b: [{y}]}}`; elements picked from one list come back in list order with no gaps
//! (`a.b[0], a.b[2]` gives a two-element list); a path that leads nowhere — a missing attribute,
//! an index past the end, a map addressed as a list — contributes nothing.

use std::collections::BTreeMap;
use std::fmt;

use dynotable_types::{AttributeValue, Item};

use crate::error::{Error, ExpressionKind, Result, Span};
use crate::parser::parse_projection;
use crate::path::{DocumentPath, PathStep, clash_message, first_clash, step_into};
use crate::reserved;
use crate::resolve::{Placeholders, resolve_path};

/// A resolved ProjectionExpression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Projection {
    pub paths: Vec<DocumentPath>,
}

/// Parses and resolves a ProjectionExpression, recording the placeholders it uses.
pub fn resolve_projection(source: &str, placeholders: &mut Placeholders) -> Result<Projection> {
    let kind = ExpressionKind::Projection;
    let tree = parse_projection(source)?;
    reserved::check_paths(kind, &tree.paths)?;
    let mut paths: Vec<(DocumentPath, Span)> = Vec::with_capacity(tree.paths.len());
    for path in &tree.paths {
        paths.push((resolve_path(kind, path, placeholders)?, path.span));
    }
    if let Some((clash, i, j)) = first_clash(&paths) {
        return Err(Error::invalid(
            kind,
            paths[j].1,
            clash_message(clash, &paths[i].0, &paths[j].0),
        ));
    }
    Ok(Projection {
        paths: paths.into_iter().map(|(path, _)| path).collect(),
    })
}

impl Projection {
    /// The parts of `item` the projection names.
    pub fn apply(&self, item: &Item) -> Item {
        project(item, self.paths.iter())
    }
}

impl fmt::Display for Projection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, path) in self.paths.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{path}")?;
        }
        Ok(())
    }
}

/// What is picked at one place of the item.
enum Pick {
    Whole(AttributeValue),
    Map(BTreeMap<String, Pick>),
    List(BTreeMap<usize, Pick>),
}

impl Pick {
    fn into_value(self) -> AttributeValue {
        match self {
            Pick::Whole(value) => value,
            Pick::Map(map) => AttributeValue::M(map.into_iter().map(|(k, p)| (k, p.into_value())).collect()),
            Pick::List(list) => AttributeValue::L(list.into_values().map(Pick::into_value).collect()),
        }
    }
}

/// The parts of `item` at `paths`, shaped as in the item. Paths that overlap or conflict are
/// refused when a ProjectionExpression is resolved; given anyway, the first one wins.
pub fn project<'a>(item: &Item, paths: impl IntoIterator<Item = &'a DocumentPath>) -> Item {
    let mut top: BTreeMap<String, Pick> = BTreeMap::new();
    for path in paths {
        let Some(value) = path.get(item) else { continue };
        let (first, rest) = match path.steps().split_first() {
            Some((PathStep::Attribute(name), rest)) => (name, rest),
            _ => continue,
        };
        let Some(mut source) = item.get(first) else {
            continue;
        };
        let mut pick = top.entry(first.clone()).or_insert_with(|| match rest.first() {
            None => Pick::Whole(value.clone()),
            Some(PathStep::Attribute(_)) => Pick::Map(BTreeMap::new()),
            Some(PathStep::Index(_)) => Pick::List(BTreeMap::new()),
        });
        for (i, step) in rest.iter().enumerate() {
            let Some(next_source) = step_into(source, step) else {
                break;
            };
            source = next_source;
            let fresh = || match rest.get(i + 1) {
                None => Pick::Whole(source.clone()),
                Some(PathStep::Attribute(_)) => Pick::Map(BTreeMap::new()),
                Some(PathStep::Index(_)) => Pick::List(BTreeMap::new()),
            };
            pick = match (pick, step) {
                (Pick::Map(map), PathStep::Attribute(name)) => map.entry(name.clone()).or_insert_with(fresh),
                (Pick::List(list), PathStep::Index(index)) => list.entry(*index).or_insert_with(fresh),
                _ => break,
            };
        }
    }
    top.into_iter()
        .map(|(name, pick)| (name, pick.into_value()))
        .collect()
}
