//! Document paths after placeholder substitution: `a.#b[2]` with `#b = "x.y"` becomes the steps
//! `a`, `x.y`, `[2]` — a name from a placeholder is always one step, dots included (Rule B.6,
//! docs/dynamodb-rules.md: "a dot is otherwise parsed as a document-path separator").
//!
//! Also here: reading a path out of an item, and the rule that two paths in one update or
//! projection may neither overlap nor conflict.

use std::fmt;

use dynotable_types::{AttributeValue, Item};

use crate::error::Span;

/// One step of a resolved path.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathStep {
    /// A map key (or, first, a top-level attribute name).
    Attribute(String),
    /// A list index.
    Index(usize),
}

/// A resolved document path: at least one step, the first an attribute name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DocumentPath {
    steps: Vec<PathStep>,
}

impl DocumentPath {
    /// A path from steps; `None` if empty or if it starts with an index.
    pub fn new(steps: Vec<PathStep>) -> Option<DocumentPath> {
        matches!(steps.first(), Some(PathStep::Attribute(_))).then_some(DocumentPath { steps })
    }

    /// A one-step path naming a top-level attribute.
    pub fn attribute(name: impl Into<String>) -> DocumentPath {
        DocumentPath {
            steps: vec![PathStep::Attribute(name.into())],
        }
    }

    pub fn steps(&self) -> &[PathStep] {
        &self.steps
    }

    /// The top-level attribute the path starts at.
    pub fn top_level(&self) -> &str {
        match self.steps.first() {
            Some(PathStep::Attribute(name)) => name,
            _ => "",
        }
    }

    /// Whether the path goes below a top-level attribute.
    pub fn is_nested(&self) -> bool {
        self.steps.len() > 1
    }

    /// The value at this path in `item`, if every step exists and has the right shape.
    pub fn get<'a>(&self, item: &'a Item) -> Option<&'a AttributeValue> {
        let (first, rest) = self.steps.split_first()?;
        let PathStep::Attribute(name) = first else {
            return None;
        };
        let mut value = item.get(name)?;
        for step in rest {
            value = step_into(value, step)?;
        }
        Some(value)
    }

    /// The path as the service prints it in messages: `[a, b, [2]]`.
    pub fn service_form(&self) -> String {
        let steps: Vec<String> = self
            .steps
            .iter()
            .map(|step| match step {
                PathStep::Attribute(name) => name.clone(),
                PathStep::Index(index) => format!("[{index}]"),
            })
            .collect();
        format!("[{}]", steps.join(", "))
    }
}

/// One step down from `value`: a map key of an `M`, an element of an `L`.
pub(crate) fn step_into<'a>(value: &'a AttributeValue, step: &PathStep) -> Option<&'a AttributeValue> {
    match (value, step) {
        (AttributeValue::M(map), PathStep::Attribute(name)) => map.get(name),
        (AttributeValue::L(list), PathStep::Index(index)) => list.get(*index),
        _ => None,
    }
}

impl fmt::Display for DocumentPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.steps.iter().enumerate() {
            match step {
                PathStep::Attribute(name) if i == 0 => f.write_str(name)?,
                PathStep::Attribute(name) => write!(f, ".{name}")?,
                PathStep::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

/// How two paths relate (Rule B.6): one containing the other overlaps (`a` and `a.b`, or the
/// same path twice); the same position addressed once as a map key and once as a list index
/// conflicts (`a.b` and `a[1]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Clash {
    Overlap,
    Conflict,
}

fn clash(one: &DocumentPath, two: &DocumentPath) -> Option<Clash> {
    for (a, b) in one.steps.iter().zip(&two.steps) {
        match (a, b) {
            (PathStep::Attribute(_), PathStep::Index(_)) | (PathStep::Index(_), PathStep::Attribute(_)) => {
                return Some(Clash::Conflict);
            }
            _ if a != b => return None,
            _ => {}
        }
    }
    Some(Clash::Overlap)
}

/// The service's message for a clash, naming the earlier path first.
pub(crate) fn clash_message(clash: Clash, one: &DocumentPath, two: &DocumentPath) -> String {
    let verb = match clash {
        Clash::Overlap => "overlap",
        Clash::Conflict => "conflict",
    };
    format!(
        "Two document paths {verb} with each other; must remove or rewrite one of these paths; path one: {}, path two: {}",
        one.service_form(),
        two.service_form()
    )
}

/// The first overlap among `paths` (each compared with every earlier one), or else the first
/// conflict: the service reports an overlap anywhere before a conflict anywhere.
pub(crate) fn first_clash(paths: &[(DocumentPath, Span)]) -> Option<(Clash, usize, usize)> {
    let mut conflict = None;
    for (j, (two, _)) in paths.iter().enumerate() {
        for (i, (one, _)) in paths[..j].iter().enumerate() {
            match clash(one, two) {
                Some(Clash::Overlap) => return Some((Clash::Overlap, i, j)),
                Some(Clash::Conflict) if conflict.is_none() => conflict = Some((Clash::Conflict, i, j)),
                _ => {}
            }
        }
    }
    conflict
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(steps: &[&str]) -> DocumentPath {
        DocumentPath::new(
            steps
                .iter()
                .map(|s| match s.parse::<usize>() {
                    Ok(i) => PathStep::Index(i),
                    Err(_) => PathStep::Attribute((*s).to_string()),
                })
                .collect(),
        )
        .expect("valid path")
    }

    #[test]
    fn overlap_and_conflict() {
        assert_eq!(clash(&path(&["a"]), &path(&["a", "b"])), Some(Clash::Overlap));
        assert_eq!(
            clash(&path(&["a", "1"]), &path(&["a", "1"])),
            Some(Clash::Overlap)
        );
        assert_eq!(
            clash(&path(&["a", "b"]), &path(&["a", "1"])),
            Some(Clash::Conflict)
        );
        assert_eq!(clash(&path(&["a", "b"]), &path(&["a", "c"])), None);
        assert_eq!(clash(&path(&["a", "1"]), &path(&["a", "2"])), None);
        assert_eq!(path(&["a", "1", "c"]).service_form(), "[a, [1], c]");
        assert_eq!(path(&["a", "1", "c"]).to_string(), "a[1].c");
    }

    #[test]
    fn an_overlap_anywhere_wins_over_an_earlier_conflict() {
        let paths: Vec<(DocumentPath, Span)> = [&["d", "1"][..], &["d", "b"], &["c", "1", "a"], &["c"]]
            .iter()
            .map(|p| (path(p), Span::default()))
            .collect();
        assert_eq!(first_clash(&paths), Some((Clash::Overlap, 2, 3)));
        assert_eq!(first_clash(&paths[..2]), Some((Clash::Conflict, 0, 1)));
    }
}
