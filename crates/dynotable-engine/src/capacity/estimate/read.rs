//! Read estimates: GetItem, a Query page by page, and the same items read other ways (rule B.2;
//! see the specification in [`super`]).

use serde::{Deserialize, Serialize};

use super::{Line, RequestCost, SizeProfile, TableShape, bytes, counted, units};
use crate::ApiError;
use crate::capacity::{
    self, BATCH_GET_KEYS, Charge, PAGE_BYTES, READ_BLOCK_BYTES, ReadKind, ReadUnits, TRANSACTION_ACTIONS,
};
use crate::catalog::IndexKind;

/// GetItem of one item of `size` bytes (`None`: no item at the key) with `kind` consistency.
pub fn get_item(table: &TableShape, size: Option<u64>, kind: ReadKind) -> RequestCost {
    let charge = capacity::item_read(size, kind);
    let text = match size {
        Some(size) => format!(
            "GetItem: the item's {} round up to {} of 4 KB on their own; {} → {} RCU",
            bytes(size),
            counted(capacity::read_blocks(size), "block", "blocks"),
            kind_name(kind),
            units(charge.as_f64())
        ),
        None => format!(
            "GetItem of a key with no item still costs one 4 KB block: {} RCU {}",
            units(charge.as_f64()),
            kind_name(kind)
        ),
    };
    RequestCost::new(
        &table.name,
        Some(Charge::Read(charge)),
        Vec::new(),
        true,
        vec![Line::rule("B.2", text)],
    )
}

/// One table's part of a BatchGetItem: each key's item (`None`: no item) read with `kind`
/// consistency, rounded to 4 KB on its own (rule B.2).
pub fn batch_get(table: &TableShape, sizes: &[Option<u64>], kind: ReadKind) -> Result<RequestCost, ApiError> {
    if sizes.len() as u64 > BATCH_GET_KEYS {
        return Err(ApiError::validation("BatchGetItem takes at most 100 keys"));
    }
    let parts: Vec<RequestCost> = sizes.iter().map(|size| get_item(table, *size, kind)).collect();
    RequestCost::sum(&parts)
}

/// One table's part of a TransactGetItems: two units per 4 KB block, each item rounded on its
/// own before the ×2 (rule B.2).
pub fn transact_get(table: &TableShape, sizes: &[Option<u64>]) -> Result<RequestCost, ApiError> {
    if sizes.len() as u64 > TRANSACTION_ACTIONS {
        return Err(ApiError::validation("TransactGetItems takes at most 100 actions"));
    }
    let parts: Vec<RequestCost> = sizes
        .iter()
        .map(|size| get_item(table, *size, ReadKind::Transactional).transactional())
        .collect();
    RequestCost::sum(&parts)
}

/// A Query (or a read of selected items) to estimate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QueryInput {
    pub table: TableShape,
    /// The index queried; `None` for the table.
    pub index: Option<String>,
    /// What the key condition selects, in read order: the table's items, or the index's
    /// entries (their projected size) on an index.
    pub selected: SizeProfile,
    /// The base-table items behind the selected entries, when the read is on an index: what an
    /// LSI fetches and what GetItem would read. Defaults to `selected`.
    pub base_items: Option<SizeProfile>,
    /// The request's `Limit`.
    pub limit: Option<u64>,
    /// An LSI query asking for attributes the index does not project (each returned item is
    /// then read from the table as well).
    #[serde(default)]
    pub fetch_from_table: bool,
    /// Everything a Scan of the table (or index) would read, for the Scan-with-filter
    /// comparison; `None` leaves that comparison out.
    pub scanned: Option<SizeProfile>,
    /// How many partitions a Scan touches (at least one); on the embedded engine, one.
    #[serde(default = "one")]
    pub partitions: u64,
}

fn one() -> u64 {
    1
}

/// What a Query costs and what the same items cost read other ways.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadEstimate {
    /// One entry per consistency the target allows: eventual, then strong (not on a GSI).
    pub query: Vec<QueryCost>,
    /// The same items read as N GetItems, BatchGetItem, TransactGetItems and a filtered Scan.
    pub alternatives: Vec<ReadWay>,
    pub lines: Vec<Line>,
}

/// A Query read to the end of its selection, page by page.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QueryCost {
    pub kind: ReadKind,
    pub capacity_units: f64,
    pub pages: Vec<RequestCost>,
    pub exact: bool,
}

/// One way of reading the selected items.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadWay {
    pub way: Way,
    /// Requests it takes.
    pub requests: u64,
    /// Units eventually consistent, strongly consistent and transactional (`None` where the way
    /// cannot read so).
    pub eventual: Option<f64>,
    pub strong: Option<f64>,
    pub transactional: Option<f64>,
    pub exact: bool,
    /// When not exact: the fewest and most 4 KB blocks the items can round to, whatever their
    /// individual sizes (multiply by ½, 1 or 2 for the consistency).
    pub blocks_range: Option<[u64; 2]>,
    pub lines: Vec<Line>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Way {
    Query,
    GetItems,
    BatchGetItem,
    TransactGetItems,
    ScanWithFilter,
}

/// Where a read's pages stop, as the engine's page reader stops them (rule B.4): after the item
/// that brings the page to 1 MB, or after `limit` items. Returns each page's item sizes; a page
/// that stopped exactly at the last item is followed by an empty page (the service cannot know
/// the selection ended, so it returns a LastEvaluatedKey and the next request reads nothing).
pub fn pages(sizes: &[u64], limit: Option<u64>) -> Vec<Vec<u64>> {
    let mut pages = Vec::new();
    let mut page: Vec<u64> = Vec::new();
    let mut page_bytes = 0;
    for size in sizes {
        page.push(*size);
        page_bytes += size;
        if limit.is_some_and(|l| page.len() as u64 >= l) || page_bytes >= PAGE_BYTES {
            pages.push(std::mem::take(&mut page));
            page_bytes = 0;
        }
    }
    // The last page: whatever is left, or the empty page after a page that stopped at the end.
    pages.push(page);
    pages
}

/// One page of a Query: `entries` read on the target, `fetched` base items read again from the
/// table (LSI queries asking for non-projected attributes).
pub fn query_page(
    table: &TableShape,
    index: Option<&str>,
    entries: &[u64],
    fetched: Option<&[u64]>,
    kind: ReadKind,
) -> Result<RequestCost, ApiError> {
    let read_bytes: u64 = entries.iter().sum();
    let read = capacity::range_read(read_bytes, kind);
    let mut lines = vec![Line::rule(
        "B.2",
        format!(
            "{}, {} summed, round up once to {} of 4 KB; {} → {} RCU",
            counted(entries.len() as u64, "item", "items"),
            bytes(read_bytes),
            counted(capacity::read_blocks(read_bytes), "block", "blocks"),
            kind_name(kind),
            units(read.as_f64())
        ),
    )];
    if entries.is_empty() {
        lines.push(Line::rule(
            "B.2",
            "An empty page still costs the minimum of one block per partition",
        ));
    }
    let (table_charge, index_charges) = match index {
        None => (Some(Charge::Read(read)), Vec::new()),
        Some(name) => {
            let shape = table.require_index(name)?;
            let fetch = fetched.map(|sizes| {
                sizes.iter().fold(ReadUnits(0), |sum, size| {
                    sum + capacity::item_read(Some(*size), kind)
                })
            });
            if let (Some(sizes), Some(units_fetched)) = (fetched, fetch) {
                lines.push(Line::rule(
                    "B.2",
                    format!(
                        "The LSI does not project every attribute asked for: {} base-table read(s), each rounded to 4 KB on its own → {} RCU charged to the table",
                        sizes.len(),
                        units(units_fetched.as_f64())
                    ),
                ));
            }
            lines.push(Line::rule(
                "B.2",
                match shape.kind {
                    IndexKind::Global => {
                        format!("Charged to the GSI {name}'s own capacity, on its entries' sizes")
                    }
                    IndexKind::Local => {
                        format!("Sized on the LSI {name}'s entries; LSI reads consume the table's capacity")
                    }
                },
            ));
            (
                fetch.map(Charge::Read),
                vec![(name.to_owned(), shape.kind, Charge::Read(read))],
            )
        }
    };
    Ok(RequestCost::new(
        &table.name,
        table_charge,
        index_charges,
        true,
        lines,
    ))
}

/// Estimates a Query over `input.selected` and the same items read other ways.
pub fn estimate_query(input: &QueryInput) -> Result<ReadEstimate, ApiError> {
    let index = match &input.index {
        Some(name) => Some(input.table.require_index(name)?),
        None => None,
    };
    let kinds: &[ReadKind] = match index {
        Some(i) if i.kind == IndexKind::Global => &[ReadKind::Eventual],
        _ => &[ReadKind::Eventual, ReadKind::Strong],
    };
    let entries = input.selected.sizes();
    let base = input.base_items.as_ref().unwrap_or(&input.selected);
    if base.item_count() != input.selected.item_count() {
        return Err(ApiError::validation(format!(
            "The base items ({}) must be as many as the selected entries ({})",
            base.item_count(),
            input.selected.item_count()
        )));
    }
    let base_sizes = base.sizes();
    let exact = input.selected.is_exact() && base.is_exact();
    let fetch = input.fetch_from_table && index.is_some_and(|i| i.kind == IndexKind::Local);

    let page_sizes = pages(&entries, input.limit);
    let mut query = Vec::new();
    for kind in kinds {
        let mut costs = Vec::new();
        let mut offset = 0;
        for page in &page_sizes {
            let fetched = fetch.then(|| {
                &base_sizes[offset.min(base_sizes.len())..(offset + page.len()).min(base_sizes.len())]
            });
            let mut cost = query_page(&input.table, input.index.as_deref(), page, fetched, *kind)?;
            // A single page is exact from the total; several pages depend on where they break.
            cost.exact = exact || page_sizes.len() == 1;
            costs.push(cost);
            offset += page.len();
        }
        query.push(QueryCost {
            kind: *kind,
            capacity_units: costs.iter().map(|c| c.capacity_units).sum(),
            exact: exact || page_sizes.len() == 1,
            pages: costs,
        });
    }

    let mut lines = vec![input.selected.basis_line()];
    lines.push(Line::rule(
        "B.4",
        format!(
            "{}: a page stops after the item that reaches 1 MB{}",
            counted(page_sizes.len() as u64, "page", "pages"),
            input
                .limit
                .map(|l| format!(" or after Limit = {l} items"))
                .unwrap_or_default()
        ),
    ));
    if page_sizes.last().is_some_and(|p| p.is_empty()) && page_sizes.len() > 1 {
        lines.push(Line::rule(
            "B.4",
            "The last page is empty: the one before stopped exactly at the end, returned a LastEvaluatedKey, and the next request still costs the minimum",
        ));
    }

    let query_way = ReadWay {
        way: Way::Query,
        requests: page_sizes.len() as u64,
        eventual: query
            .iter()
            .find(|q| q.kind == ReadKind::Eventual)
            .map(|q| q.capacity_units),
        strong: query
            .iter()
            .find(|q| q.kind == ReadKind::Strong)
            .map(|q| q.capacity_units),
        transactional: None,
        exact: exact || page_sizes.len() == 1,
        blocks_range: None,
        lines: vec![Line::rule(
            "B.2",
            "One Query sums the items it reads and rounds up to 4 KB once per page",
        )],
    };
    let mut alternatives = vec![query_way];
    alternatives.extend(item_by_item(base));
    if let Some(scanned) = &input.scanned {
        alternatives.push(scan_with_filter(
            scanned,
            input.partitions.max(1),
            index.map(|i| i.kind),
        ));
    }
    Ok(ReadEstimate {
        query,
        alternatives,
        lines,
    })
}

/// GetItem × N, BatchGetItem and TransactGetItems over items of `sizes`: each item rounded to
/// 4 KB on its own (rule B.2).
pub(super) fn item_by_item(profile: &SizeProfile) -> Vec<ReadWay> {
    let sizes = profile.sizes();
    let exact = profile.is_exact();
    let n = sizes.len() as u64;
    // Each item is at least one block, and rounds up by less than one block: between
    // max(n, ⌈total / 4 KB⌉) and n + ⌊total / 4 KB⌋ blocks, whatever the sizes.
    let total = profile.total_bytes();
    let blocks_range = (!exact).then(|| {
        [
            n.max(total.div_ceil(READ_BLOCK_BYTES)),
            n + total / READ_BLOCK_BYTES,
        ]
    });
    let per_item = |kind| {
        sizes
            .iter()
            .fold(ReadUnits(0), |sum, size| {
                sum + capacity::item_read(Some(*size), kind)
            })
            .as_f64()
    };
    let blocks: u64 = sizes.iter().map(|s| capacity::read_blocks(*s)).sum();
    let rounding = if n == 1 {
        format!(
            "The item rounds up to 4 KB on its own: {}",
            counted(blocks, "block", "blocks")
        )
    } else {
        format!(
            "Each of the {} rounds up to 4 KB on its own: {} in all",
            counted(n, "item", "items"),
            counted(blocks, "block", "blocks")
        )
    };
    vec![
        ReadWay {
            way: Way::GetItems,
            requests: n,
            eventual: Some(per_item(ReadKind::Eventual)),
            strong: Some(per_item(ReadKind::Strong)),
            transactional: None,
            exact,
            blocks_range,
            lines: vec![
                Line::rule(
                    "B.2",
                    format!(
                        "{}, one per item",
                        counted(n, "GetItem request", "GetItem requests")
                    ),
                ),
                Line::rule("B.2", rounding.clone()),
            ],
        },
        ReadWay {
            way: Way::BatchGetItem,
            requests: n.div_ceil(BATCH_GET_KEYS),
            eventual: Some(per_item(ReadKind::Eventual)),
            strong: Some(per_item(ReadKind::Strong)),
            transactional: None,
            exact,
            blocks_range,
            lines: vec![
                Line::rule(
                    "B.7",
                    format!(
                        "{} of at most 100 keys",
                        counted(n.div_ceil(BATCH_GET_KEYS), "request", "requests")
                    ),
                ),
                Line::rule(
                    "B.2",
                    format!("{rounding}; fewer round trips than GetItem, the same units"),
                ),
            ],
        },
        ReadWay {
            way: Way::TransactGetItems,
            requests: n.div_ceil(TRANSACTION_ACTIONS),
            eventual: None,
            strong: None,
            transactional: Some(per_item(ReadKind::Transactional)),
            exact,
            blocks_range,
            lines: vec![Line::rule(
                "B.2",
                format!("{rounding}, two units per block (prepare + commit)"),
            )],
        },
    ]
}

/// A Scan with a filter over everything in `scanned`: the filter does not reduce what is read.
fn scan_with_filter(scanned: &SizeProfile, partitions: u64, index: Option<IndexKind>) -> ReadWay {
    let sizes = scanned.sizes();
    let page_sizes = pages(&sizes, None);
    let cost = |kind: ReadKind| {
        let units: u64 = page_sizes
            .iter()
            .map(|p| capacity::range_read(p.iter().sum(), kind).0)
            .sum();
        // Rule B.2: at least one block per partition touched.
        ReadUnits(units.max(partitions * kind.halves_per_block())).as_f64()
    };
    let total = scanned.total_bytes();
    let mut lines = vec![
        scanned.basis_line(),
        Line::rule(
            "B.2",
            format!(
                "A Scan reads every item — {} in {} — and the filter applies after the read, so it saves no units",
                bytes(total),
                counted(page_sizes.len() as u64, "page", "pages")
            ),
        ),
    ];
    if partitions > 1 {
        lines.push(Line::rule(
            "B.2",
            format!("At least one block for each of the {partitions} partitions touched"),
        ));
    }
    let strong = (index != Some(IndexKind::Global)).then(|| cost(ReadKind::Strong));
    ReadWay {
        way: Way::ScanWithFilter,
        requests: page_sizes.len() as u64,
        eventual: Some(cost(ReadKind::Eventual)),
        strong,
        transactional: None,
        // One page is exact from the total alone.
        exact: scanned.is_exact() || total < PAGE_BYTES,
        blocks_range: None,
        lines,
    }
}

fn kind_name(kind: ReadKind) -> &'static str {
    match kind {
        ReadKind::Eventual => "eventually consistent (half a unit per block)",
        ReadKind::Strong => "strongly consistent (one unit per block)",
        ReadKind::Transactional => "transactional (two units per block)",
    }
}
