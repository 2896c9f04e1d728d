//! What a throttled batch or transaction answers: a transaction is cancelled with a reason for
//! each action, a batch runs without its throttled requests and returns them unprocessed (rule
//! B.19.6, docs/dynamodb-rules.md).

use super::{Draw, Empty, KEY_RANGE_MESSAGE};
use crate::{ApiError, CancellationReason};

/// The `TransactionCanceledException` of a transaction some of whose actions (`throttled`, by
/// position) were throttled: `ProvisionedThroughputExceeded` with the table's or index's message,
/// or `ThrottlingError` with the hot-key message, for those, `None` for the others, in request order (rule B.10).
pub(super) fn canceled(actions: &[(String, Vec<Draw>)], throttled: &[Empty]) -> ApiError {
    ApiError::transaction_canceled(
        actions
            .iter()
            .map(
                |(position, _)| match throttled.iter().find(|e| e.name == *position) {
                    Some(empty) => CancellationReason {
                        // The API Reference's codes: a provisioned table or index over its
                        // capacity is `ProvisionedThroughputExceeded`, a partition over its
                        // ceiling (a hot key) `ThrottlingError`, with the hot-key message.
                        code: if empty.err.message == KEY_RANGE_MESSAGE {
                            "ThrottlingError"
                        } else {
                            "ProvisionedThroughputExceeded"
                        }
                        .into(),
                        message: Some(empty.err.message.clone()),
                        item: None,
                    },
                    None => CancellationReason::none(),
                },
            )
            .collect(),
    )
}

/// A batch's requests taken out of the request: `(table name, its requests)`, in the shape of
/// `UnprocessedItems` (the list of write requests) or `UnprocessedKeys` (the table's member with
/// only those `Keys`).
type SetAside = Vec<(String, serde_json::Value)>;

/// `body` (a batch request) without the tables of `whole` and the requests at `positions`
/// (table name, position in its list), what was taken out, and how many requests are left;
/// `None` if the body is not a batch's JSON.
pub(super) fn set_aside_requests(
    body: &[u8],
    operation: &str,
    whole: &[&str],
    positions: &[(String, usize)],
) -> Option<(Vec<u8>, SetAside, usize)> {
    let mut request: serde_json::Value = serde_json::from_slice(body).ok()?;
    let items = request.get_mut("RequestItems")?.as_object_mut()?;
    let mut aside: SetAside = whole
        .iter()
        .filter_map(|name| Some(((*name).to_owned(), items.remove(*name)?)))
        .collect();
    let mut emptied = Vec::new();
    for (name, member) in items.iter_mut() {
        let taken: Vec<usize> = positions
            .iter()
            .filter(|(t, _)| t == name)
            .map(|(_, p)| *p)
            .collect();
        if taken.is_empty() {
            continue;
        }
        let list = if operation == "BatchWriteItem" {
            member.as_array_mut()
        } else {
            member.get_mut("Keys").and_then(serde_json::Value::as_array_mut)
        };
        let Some(list) = list else { continue };
        let (out, kept): (Vec<_>, Vec<_>) = std::mem::take(list)
            .into_iter()
            .enumerate()
            .partition(|(position, _)| taken.contains(position));
        *list = kept.into_iter().map(|(_, request)| request).collect();
        let out: Vec<serde_json::Value> = out.into_iter().map(|(_, request)| request).collect();
        let remaining = list.len();
        let unprocessed = if operation == "BatchWriteItem" {
            serde_json::Value::Array(out)
        } else {
            let mut table = member.clone();
            table["Keys"] = serde_json::Value::Array(out);
            table
        };
        aside.push((name.clone(), unprocessed));
        if remaining == 0 {
            emptied.push(name.clone());
        }
    }
    for name in emptied {
        items.remove(&name);
    }
    let left = items
        .values()
        .map(|member| {
            let list = if operation == "BatchWriteItem" {
                member.as_array()
            } else {
                member.get("Keys").and_then(serde_json::Value::as_array)
            };
            list.map_or(0, Vec::len)
        })
        .sum();
    Some((serde_json::to_vec(&request).ok()?, aside, left))
}

/// A batch's `answer` with the requests set aside added to its `UnprocessedItems`
/// (BatchWriteItem) or `UnprocessedKeys` (BatchGetItem), as the service returns throttled ones.
pub(super) fn with_unprocessed(answer: Vec<u8>, operation: &str, aside: SetAside) -> Vec<u8> {
    let write = operation == "BatchWriteItem";
    let member = if write {
        "UnprocessedItems"
    } else {
        "UnprocessedKeys"
    };
    let Ok(serde_json::Value::Object(mut response)) = serde_json::from_slice(&answer) else {
        return answer;
    };
    let unprocessed = response
        .entry(member)
        .or_insert_with(|| serde_json::Value::Object(Default::default()));
    if let Some(unprocessed) = unprocessed.as_object_mut() {
        for (name, requests) in aside {
            match unprocessed.get_mut(&name) {
                // Requests of the table already unprocessed: the lists are joined.
                Some(existing) => {
                    let (to, from) = if write {
                        (existing.as_array_mut(), requests.as_array().cloned())
                    } else {
                        (
                            existing.get_mut("Keys").and_then(serde_json::Value::as_array_mut),
                            requests
                                .get("Keys")
                                .and_then(serde_json::Value::as_array)
                                .cloned(),
                        )
                    };
                    if let (Some(to), Some(from)) = (to, from) {
                        to.extend(from);
                    }
                }
                None => {
                    unprocessed.insert(name, requests);
                }
            }
        }
    }
    serde_json::to_vec(&response).unwrap_or(answer)
}
