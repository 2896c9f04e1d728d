//! Read commands: a Query of one item collection (of the table or of an index) page by page, and
//! GetItem. Every request asks for ConsumedCapacity (INDEXES), so each page shows its cost.
//!
//! The Query is not written here: [`crate::requests`] turns the collection view's input into a
//! `dynotable-builder` request, whose placeholders cover every name and value (rule B.6,
//! docs/dynamodb-rules.md: reserved words and odd names need `#name`, values are always `:value`),
//! and sends it as generated. A typed filter is parsed by the engine's expression parser first.

use aws_sdk_dynamodb::types::{ConsumedCapacity as SdkCapacity, ReturnConsumedCapacity};

use crate::dto::attribute::{item_from_sdk, item_to_sdk};
use crate::dto::{CapacityFigure, ConsumedCapacity, Item, PageStop, QueryInput, QueryPage};
use crate::history::HistoryRequest;
use crate::requests;
use crate::{App, CommandError, ErrorCode};

impl App {
    /// One page of a Query of one collection that the user ran, sent as [`App::collection_page`]
    /// sends it (never answered from kept rows: the user asked for a read); its first page goes
    /// into the query history.
    pub async fn query(&self, profile_id: &str, input: QueryInput) -> Result<QueryPage, CommandError> {
        let page = self.send_query(profile_id, &input).await?;
        if input.exclusive_start_key.is_none() {
            let units = page.consumed_capacity.as_ref().map_or(0.0, |c| c.total);
            // History is a convenience: a failure to record it must not fail the query.
            let ran = HistoryRequest::Collection { request: input };
            if let Err(err) = self.record_query(profile_id, &ran, page.count, units).await {
                tracing::warn!(%err, "the query could not be added to the history");
            }
        }
        Ok(page)
    }

    /// One page of a Query of one collection, as the Collections view reads a box: on AWS (or any
    /// endpoint) a box's first rows come from what a statistics scan kept of them when they are
    /// exactly what the Query returns (`crate::kept_rows`); otherwise the Query is sent. Nothing
    /// goes into the query history: the view reads each box it draws this way, hundreds in a
    /// scroll, and those reads would push the user's own queries out of it (and skew what the
    /// modeler infers from it).
    pub async fn collection_page(
        &self,
        profile_id: &str,
        input: &QueryInput,
    ) -> Result<QueryPage, CommandError> {
        if !self.session(profile_id).await?.is_embedded() {
            let table_keys = self.key_schema_of(profile_id, &input.table, None).await?;
            if let Some(page) = self.kept_page(profile_id, input, &table_keys).await? {
                return Ok(page);
            }
        }
        self.send_query(profile_id, input).await
    }

    /// One page of a Query of one collection, written by `dynotable-builder` (see
    /// [`crate::requests`]): the key condition, filter and projection get the builder's
    /// placeholders, and the request is sent as generated.
    async fn send_query(&self, profile_id: &str, input: &QueryInput) -> Result<QueryPage, CommandError> {
        let session = self.session(profile_id).await?;
        let keys = self
            .key_schema_of(profile_id, &input.table, input.index.as_deref())
            .await?;
        let request = requests::query_request(input, &keys)?;
        let generated = requests::generate(&request)?;
        requests::send(
            &session.client,
            &generated,
            input.exclusive_start_key.as_ref(),
            None,
        )
        .await
    }

    /// GetItem of `key`; `None` when there is no such item.
    pub async fn get_item(
        &self,
        profile_id: &str,
        table: &str,
        key: Item,
        consistent_read: bool,
    ) -> Result<(Option<Item>, Option<ConsumedCapacity>), CommandError> {
        let session = self.session(profile_id).await?;
        let output = session
            .client
            .get_item()
            .table_name(table)
            .set_key(Some(item_to_sdk(&key).map_err(validation)?))
            .consistent_read(consistent_read)
            .return_consumed_capacity(ReturnConsumedCapacity::Indexes)
            .send()
            .await
            .map_err(|err| CommandError::from_sdk(&err))?;
        Ok((
            output.item().map(item_from_sdk),
            output.consumed_capacity().map(consumed_capacity),
        ))
    }
}

/// Why a page ended (rule B.4): no LastEvaluatedKey means the end; otherwise the Limit when as
/// many items were evaluated as it allowed, else the 1 MB a page reads at most.
pub fn page_stop(has_last_key: bool, limit: Option<u32>, scanned_count: u32) -> PageStop {
    if !has_last_key {
        PageStop::End
    } else if limit.is_some_and(|l| scanned_count >= l) {
        PageStop::Limit
    } else {
        PageStop::Size
    }
}

/// The SDK's ConsumedCapacity as the UI shows it.
pub fn consumed_capacity(capacity: &SdkCapacity) -> ConsumedCapacity {
    let mut indexes: Vec<CapacityFigure> = capacity
        .global_secondary_indexes()
        .into_iter()
        .flatten()
        .chain(capacity.local_secondary_indexes().into_iter().flatten())
        .map(|(name, c)| CapacityFigure {
            name: name.clone(),
            units: c.capacity_units().unwrap_or(0.0),
        })
        .collect();
    indexes.sort_by(|a, b| a.name.cmp(&b.name));
    ConsumedCapacity {
        total: capacity.capacity_units().unwrap_or(0.0),
        table: capacity.table().and_then(|t| t.capacity_units()),
        indexes,
    }
}

fn validation(message: String) -> CommandError {
    CommandError::new(ErrorCode::Validation, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_stop_says_why_a_page_ended() {
        assert_eq!(page_stop(false, Some(10), 10), PageStop::End);
        assert_eq!(page_stop(true, Some(10), 10), PageStop::Limit);
        assert_eq!(page_stop(true, Some(10), 7), PageStop::Size);
        assert_eq!(page_stop(true, None, 4000), PageStop::Size);
    }
}
