//! DynamoDB Streams: change records written with every change, and the Streams API
//! (`DynamoDBStreams_20120810`: ListStreams, DescribeStream, GetShardIterator, GetRecords).
//!
//! The life of a change record:
//! 1. A write (`items::write_item`) on a table with an enabled stream calls [`record_change`]
//!    inside its transaction: one record per real change — INSERT, MODIFY (only if the item
//!    differs), REMOVE — with the keys and the images the stream's view type asks for. A write
//!    that changes nothing leaves no record. Commit makes the item and its record durable
//!    together, so a stream has no gaps.
//! 2. A reader lists the table's streams, describes one (a stream has one shard here), asks for
//!    a shard iterator (TRIM_HORIZON, LATEST, AT_/AFTER_SEQUENCE_NUMBER) and pages through
//!    GetRecords, each answer carrying the next iterator.
//! 3. Records older than 24 hours are trimmed by the engine's sweep ([`trim`]); iterators expire
//!    after 15 minutes.

mod api;
mod ops;

use dynotable_types::{Item, item_size};
use serde_json::json;
use sqlx::SqliteConnection;

pub(crate) use ops::call;

use crate::ApiError;
use crate::catalog::TableSchema;
use crate::entry::key_of;
use crate::write_tx::StatementBatch;

/// Rule (DG `Streams.html`): stream records are kept for 24 hours.
pub(crate) const RETENTION_SECONDS: f64 = 24.0 * 3600.0;

/// Who made a change: a request, or Time to Live deleting an expired item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    Request,
    TimeToLive,
}

/// Writes the stream record of a change to `table`'s item, if the table has an enabled stream
/// and the item really changed. Runs in the caller's transaction.
pub(crate) fn record_change(
    batch: &mut StatementBatch,
    table: &TableSchema,
    now: f64,
    origin: Origin,
    old: Option<&Item>,
    new: Option<&Item>,
) -> Result<(), ApiError> {
    let Some(stream) = table.active_stream() else {
        return Ok(());
    };
    let event = match (old, new) {
        (None, Some(_)) => "INSERT",
        (Some(o), Some(n)) if o != n => "MODIFY",
        (Some(_), None) => "REMOVE",
        _ => return Ok(()),
    };
    let Some(keys) = new.or(old).map(|item| key_of(&table.key, item)) else {
        return Ok(());
    };
    let (with_new, with_old) = match stream.view_type.as_str() {
        "NEW_IMAGE" => (true, false),
        "OLD_IMAGE" => (false, true),
        "NEW_AND_OLD_IMAGES" => (true, true),
        _ => (false, false),
    };
    let new_image = new.filter(|_| with_new);
    let old_image = old.filter(|_| with_old);
    // SizeBytes: the keys and images carried, by the item-size rules (rule B.1).
    let size = item_size(&keys) + new_image.map_or(0, item_size) + old_image.map_or(0, item_size);
    let mut record = json!({
        "ApproximateCreationDateTime": now.floor(),
        "Keys": keys,
        "SizeBytes": size,
        "StreamViewType": stream.view_type,
    });
    if let Some(image) = new_image {
        record["NewImage"] = serde_json::to_value(image).map_err(ApiError::internal)?;
    }
    if let Some(image) = old_image {
        record["OldImage"] = serde_json::to_value(image).map_err(ApiError::internal)?;
    }
    let removal = origin == Origin::TimeToLive;
    batch.push(
        "INSERT INTO stream_records (stream_id, event_name, created_at, record, service_removal) VALUES (?, ?, ?, ?, ?)",
        |b| {
            b.bind(stream.id);
            b.bind(event);
            b.bind(now);
            b.bind(record.to_string());
            b.bind(removal);
        },
    );
    Ok(())
}

/// Deletes stream records past the 24-hour retention.
pub(crate) async fn trim(conn: &mut SqliteConnection, now: f64) -> Result<u64, ApiError> {
    let result = sqlx::query("DELETE FROM stream_records WHERE created_at < ?")
        .bind(now - RETENTION_SECONDS)
        .execute(&mut *conn)
        .await?;
    Ok(result.rows_affected())
}

/// A stream label for a creation time: `YYYY-MM-DDThh:mm:ss.sss` (UTC), as the service forms it.
pub(crate) fn label_for(seconds: f64) -> String {
    let millis = (seconds * 1000.0).round() as i64;
    let (days, ms_of_day) = (millis.div_euclid(86_400_000), millis.rem_euclid(86_400_000));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (h, m, s, ms) = (
        ms_of_day / 3_600_000,
        ms_of_day / 60_000 % 60,
        ms_of_day / 1000 % 60,
        ms_of_day % 1000,
    );
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{ms:03}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn labels_are_utc_timestamps_with_milliseconds() {
        assert_eq!(super::label_for(0.0), "1970-01-01T00:00:00.000");
        assert_eq!(super::label_for(1_700_000_000.25), "2023-11-14T22:13:20.250");
        assert_eq!(super::label_for(951_782_400.0), "2000-02-29T00:00:00.000");
    }
}
