//! Every item's Time to Live expiry, kept in the `expiries` table inside the transaction of the
//! write that changes the item (`items::write_item`, step 3), so that the sweep (`ttl`) reads
//! only what has expired.
//!
//! Rule (DG `TTL.html`; rule B.3 "TTL deletions"): the TTL attribute holds an expiry in epoch
//! seconds as a Number; items whose attribute is missing or not a number are never touched.

use dynotable_types::{AttributeValue, Item};

use crate::catalog::TableSchema;
use crate::entry::StorageKey;
use crate::write_tx::StatementBatch;

/// The expiry an item carries under `attribute`, if it is a number.
fn expiry_of(item: &Item, attribute: &str) -> Option<f64> {
    match item.get(attribute) {
        Some(AttributeValue::N(n)) => Some(n.to_f64()),
        _ => None,
    }
}

/// Keeps the `expiries` row of the item at `key` in step with its new version (`None`: deleted).
pub(crate) fn track_expiry(
    batch: &mut StatementBatch,
    table: &TableSchema,
    key: &StorageKey,
    had_expiry: bool,
    new: Option<&Item>,
) {
    let Some(ttl) = table.ttl.as_ref().filter(|t| t.enabled) else {
        return;
    };
    let keyspace = table.keyspace;
    match new.and_then(|item| expiry_of(item, &ttl.attribute_name)) {
        Some(expires_at) => batch.push(
            "INSERT OR REPLACE INTO expiries (keyspace, pk, sk, expires_at) VALUES (?, ?, ?, ?)",
            |b| {
                b.bind(keyspace);
                b.bind(key.pk.clone());
                b.bind(key.sk.clone());
                b.bind(expires_at);
            },
        ),
        None if had_expiry || new.is_none() => batch.push(
            "DELETE FROM expiries WHERE keyspace = ? AND pk = ? AND sk = ?",
            |b| {
                b.bind(keyspace);
                b.bind(key.pk.clone());
                b.bind(key.sk.clone());
            },
        ),
        None => {}
    }
}

/// Whether an item had an expiry row before a write (its old version carries the attribute).
pub(crate) fn has_expiry(table: &TableSchema, item: Option<&Item>) -> bool {
    match (&table.ttl, item) {
        (Some(ttl), Some(item)) if ttl.enabled => expiry_of(item, &ttl.attribute_name).is_some(),
        _ => false,
    }
}
