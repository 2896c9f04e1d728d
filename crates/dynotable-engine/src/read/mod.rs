//! Reading entries in key order, for Query and Scan (and the caches that hold what they read):
//! the layer between the entries (`entry`) and the operations (`ops::query`, `ops::scan`).
//!
//! The life of a read, from the operation's side:
//!
//! 1. The operation names what it reads ([`ReadTarget::of`]: the table, or one of its indexes)
//!    and checks `Select` and `ExclusiveStartKey` against it ([`check_select`], [`start_key`]).
//! 2. It describes the walk as a [`Range`]: a keyspace, one collection (Query) or all of them
//!    (Scan), sort-key [`Bound`]s, a direction, the [`EntryPosition`] to resume after and, for a
//!    parallel scan, a segment ([`segment_of`]).
//! 3. [`read_page`] (or [`read_page_from`] a collection the item cache holds, [`CollectionRows`])
//!    walks it under the page's [`PageRules`] — Limit, the 1 MB page of rule B.4, the filter and
//!    the projection — fetching entries from SQLite a [`Batch`] at a time, each batch one row
//!    ([`batch`]).
//! 4. The [`Page`] becomes the response ([`ReadTarget::page_output`]), with the
//!    LastEvaluatedKey of where it stopped and the capacity it consumed (rule B.2).
//!
//! Nothing here knows an operation: `ops` and `eventual_lag` sit above it, `item_cache` keeps
//! its batches, `entry` decodes what it reads.

pub(crate) mod batch;
mod page;
mod target;

pub(crate) use batch::{Batch, EntryRef, fetch};
pub(crate) use page::{
    Bound, CollectionRows, EntryPosition, Page, PageRules, Range, Rows, read_page, read_page_from, segment_of,
};
pub(crate) use target::{
    ReadTarget, Reader, check_select, projection_parameter, shape_select, shape_target, start_key,
    start_key_invalid,
};
