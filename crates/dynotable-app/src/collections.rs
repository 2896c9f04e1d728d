//! The key-ordered run of a table's item collections, as the Collections view scrolls through it.
//!
//! The view asks for a stretch of the run (`offset`, `limit`) whenever boxes come into sight it
//! has not listed yet, and for the position of one collection when the user jumps to it (a click
//! on the map). The run is in the order of the partition-key values (rule B.9 in
//! `docs/dynamodb-rules.md`: numbers by value, strings and binaries byte by byte):
//! - on the embedded engine, from the statistics it keeps with every write
//!   ([`dynotable_engine::Engine::collection_range`]), for the table or any index, without reading
//!   an item;
//! - elsewhere (AWS, any endpoint), from the statistics a Scan of the table or the index gathered
//!   ([`crate::statistics`]), sorted here; `NOT_FOUND` until one is gathered.

use dynotable_types::KeyValue;

use crate::dto::{AttributeValue, CollectionRange, CollectionStat};
use crate::{App, CommandError, ErrorCode};

/// The longest stretch one call lists.
pub const RANGE_LIMIT: u32 = 1000;

impl App {
    /// Up to `limit` collections of `table` (or of its index `index`) from position `offset` of
    /// the key-ordered run.
    pub async fn collection_range(
        &self,
        profile_id: &str,
        table: &str,
        index: Option<&str>,
        offset: u64,
        limit: u32,
    ) -> Result<CollectionRange, CommandError> {
        let limit = limit.clamp(1, RANGE_LIMIT) as usize;
        let session = self.session(profile_id).await?;
        if session.is_embedded() {
            let engine = self.engine().await?;
            let stats = engine
                .collection_stats(table, index, 0)
                .await
                .map_err(|err| CommandError::from_engine(&err))?;
            let run = engine
                .collection_range(table, index, offset, limit)
                .await
                .map_err(|err| CommandError::from_engine(&err))?;
            let collections = run
                .into_iter()
                .map(|c| {
                    Ok(CollectionStat {
                        partition_value: from_engine(&c.partition_key)?,
                        item_count: c.item_count as f64,
                        size_bytes: c.size_bytes as f64,
                        limited_size_bytes: c.limited_size_bytes.map(|b| b as f64),
                    })
                })
                .collect::<Result<Vec<_>, CommandError>>()?;
            return Ok(CollectionRange {
                table: table.to_owned(),
                index: index.map(str::to_owned),
                offset: offset as f64,
                total: stats.distinct_partition_keys as f64,
                collections,
            });
        }
        let all = self.gathered_run(profile_id, table, index).await?;
        Ok(stretch(all, table, index, offset, limit))
    }

    /// Where the collection of `partition_value` stands in the key-ordered run: how many come
    /// before it. `None` when the table (or index) has no such collection.
    pub async fn collection_position(
        &self,
        profile_id: &str,
        table: &str,
        index: Option<&str>,
        partition_value: &AttributeValue,
    ) -> Result<Option<u64>, CommandError> {
        let session = self.session(profile_id).await?;
        if session.is_embedded() {
            let value = partition_value.to_engine().map_err(validation)?;
            let engine = self.engine().await?;
            return engine
                .collection_position(table, index, &value)
                .await
                .map_err(|err| CommandError::from_engine(&err));
        }
        let all = self.gathered_run(profile_id, table, index).await?;
        Ok(all
            .iter()
            .position(|c| &c.partition_value == partition_value)
            .map(|at| at as u64))
    }

    /// Up to `limit` collections of the key-ordered run from the first whose partition-key value
    /// is `from` or after it: the query bar completes a typed start of a key from this stretch
    /// (a string sorts before every longer string it begins).
    pub async fn collections_from(
        &self,
        profile_id: &str,
        table: &str,
        index: Option<&str>,
        from: &AttributeValue,
        limit: u32,
    ) -> Result<CollectionRange, CommandError> {
        let session = self.session(profile_id).await?;
        if session.is_embedded() {
            let value = from.to_engine().map_err(validation)?;
            let engine = self.engine().await?;
            let offset = engine
                .collection_lower_bound(table, index, &value)
                .await
                .map_err(|err| CommandError::from_engine(&err))?;
            return self
                .collection_range(profile_id, table, index, offset, limit)
                .await;
        }
        // The gathered run is read once, for the place and the stretch.
        let all = self.gathered_run(profile_id, table, index).await?;
        let from = order_key(from);
        let offset = all.partition_point(|c| order_key(&c.partition_value) < from) as u64;
        Ok(stretch(
            all,
            table,
            index,
            offset,
            limit.clamp(1, RANGE_LIMIT) as usize,
        ))
    }

    /// Every gathered collection of `table` (or of its index `index`), in key order.
    async fn gathered_run(
        &self,
        profile_id: &str,
        table: &str,
        index: Option<&str>,
    ) -> Result<Vec<CollectionStat>, CommandError> {
        let mut all = self
            .gathered_statistics(profile_id, table, index)
            .await?
            .collections;
        all.sort_by_cached_key(|c| order_key(&c.partition_value));
        Ok(all)
    }
}

/// Up to `limit` collections of a gathered run from position `offset`.
fn stretch(
    mut all: Vec<CollectionStat>,
    table: &str,
    index: Option<&str>,
    offset: u64,
    limit: usize,
) -> CollectionRange {
    let total = all.len();
    let start = usize::try_from(offset).unwrap_or(usize::MAX).min(total);
    let collections: Vec<CollectionStat> = all.drain(start..).take(limit).collect();
    CollectionRange {
        table: table.to_owned(),
        index: index.map(str::to_owned),
        offset: start as f64,
        total: total as f64,
        collections,
    }
}

/// The bytes that order partition-key values as DynamoDB does (the engine's order-preserving key
/// encoding); a value that is not a key type sorts last, by its text.
pub(crate) fn order_key(value: &AttributeValue) -> (bool, Vec<u8>) {
    match value.to_engine().ok().and_then(|v| KeyValue::try_from(v).ok()) {
        Some(key) => (false, key.encode()),
        None => (true, value.display_text().into_bytes()),
    }
}

/// The engine's value as the UI's: both are DynamoDB JSON.
fn from_engine(value: &dynotable_types::AttributeValue) -> Result<AttributeValue, CommandError> {
    let json = serde_json::to_value(value).map_err(internal)?;
    serde_json::from_value(json).map_err(internal)
}

fn internal(err: impl std::fmt::Display) -> CommandError {
    CommandError::new(ErrorCode::Internal, err.to_string())
}

fn validation(err: impl std::fmt::Display) -> CommandError {
    CommandError::new(ErrorCode::Validation, err.to_string())
}

#[cfg(test)]
mod tests {
    use super::order_key;
    use crate::dto::AttributeValue;

    /// Gathered runs sort numbers by value and strings by their bytes, as the engine's run does.
    #[test]
    fn gathered_collections_sort_in_key_order() {
        let n = |s: &str| AttributeValue::N(s.to_owned());
        let mut numbers = vec![n("10"), n("-2.5"), n("9"), n("-10"), n("0.001")];
        numbers.sort_by_cached_key(order_key);
        assert_eq!(numbers, vec![n("-10"), n("-2.5"), n("0.001"), n("9"), n("10")]);
        let s = |s: &str| AttributeValue::S(s.to_owned());
        let mut strings = vec![s("VEH#V-7741"), s("VEH#V-100"), s("DEPOT#Zürich"), s("VEH#V-139")];
        strings.sort_by_cached_key(order_key);
        assert_eq!(
            strings,
            vec![s("DEPOT#Zürich"), s("VEH#V-100"), s("VEH#V-139"), s("VEH#V-7741")]
        );
    }
}
