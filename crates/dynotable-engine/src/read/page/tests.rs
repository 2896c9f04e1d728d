//! Tests of a page's reading and assembly: stored bodies against decoded items, batches, the
//! 1 MB page boundary.

use crate::{Engine, Location};

/// An in-memory engine with no item cache and no sweep, so every read goes to SQLite.
async fn uncached_engine() -> Engine {
    let mut options = crate::Options::new(Location::InMemory);
    options.sweep_interval = None;
    options.item_cache_bytes = 0;
    Engine::open_with(options).await.unwrap()
}

/// Calls `op` with a JSON body; the answer, which must be a success, as JSON.
async fn call_json(engine: &Engine, op: &'static str, body: serde_json::Value) -> serde_json::Value {
    let out = engine.call(op, body.to_string().as_bytes()).await.unwrap();
    serde_json::from_slice(&out).unwrap()
}

/// The wire path splices stored bodies; PartiQL's path decodes them. Both must say the same.
#[tokio::test]
async fn stored_items_serialise_as_the_decoded_items_do() {
    let mut options = crate::Options::new(Location::InMemory);
    options.sweep_interval = None;
    let engine = Engine::open_with(options).await.unwrap();
    let call = |op: &'static str, body: String| {
        let engine = engine.clone();
        async move { engine.call(op, body.as_bytes()).await.unwrap() }
    };
    call(
        "CreateTable",
        r#"{"TableName":"Tbl","KeySchema":[{"AttributeName":"p","KeyType":"HASH"},{"AttributeName":"s","KeyType":"RANGE"}],
            "AttributeDefinitions":[{"AttributeName":"p","AttributeType":"S"},{"AttributeName":"s","AttributeType":"N"}],
            "BillingMode":"PAY_PER_REQUEST"}"#
            .to_owned(),
    )
    .await;
    for s in 0..5 {
        call(
            "PutItem",
            format!(
                r#"{{"TableName":"Tbl","Item":{{"p":{{"S":"a"}},"s":{{"N":"{s}"}},"n":{{"N":"1.50"}},"l":{{"L":[{{"S":"x"}},{{"BOOL":true}}]}},"m":{{"M":{{"z":{{"NULL":true}}}}}}}}}}"#
            ),
        )
        .await;
    }
    let query = r#"{"TableName":"Tbl","KeyConditionExpression":"p = :p","ExpressionAttributeValues":{":p":{"S":"a"}},"Limit":3,"ScanIndexForward":false,"ReturnConsumedCapacity":"TOTAL"}"#;
    let input = || serde_json::from_str(query).unwrap();
    let decoded = crate::ops::query::run(&engine, input()).await.unwrap();
    assert!(decoded.stored_items.is_none());
    let spliced = crate::ops::query::respond(&engine, input()).await.unwrap();
    assert!(spliced.stored_items.is_some() && spliced.items.is_none());
    let json = |v: crate::api::item::ReadPageOutput| {
        serde_json::from_slice::<serde_json::Value>(&v.into_json().unwrap()).unwrap()
    };
    let (spliced, decoded) = (json(spliced), json(decoded));
    assert_eq!(spliced["Items"].as_array().map(Vec::len), Some(3));
    assert_eq!(spliced, decoded);
    assert!(spliced["LastEvaluatedKey"].is_object());
    // A page with no items splices an empty array.
    let none = r#"{"TableName":"Tbl","KeyConditionExpression":"p = :p","ExpressionAttributeValues":{":p":{"S":"b"}}}"#;
    let empty = crate::ops::query::respond(&engine, serde_json::from_str(none).unwrap())
        .await
        .unwrap();
    let empty = json(empty);
    assert_eq!(empty["Items"], serde_json::json!([]));
    assert_eq!(empty["Count"], 0);

    let get = r#"{"TableName":"Tbl","Key":{"p":{"S":"a"},"s":{"N":"2"}}}"#;
    let input = || serde_json::from_str(get).unwrap();
    let decoded = crate::ops::get_item::run(&engine, input()).await.unwrap();
    let spliced = crate::ops::get_item::respond(&engine, input()).await.unwrap();
    assert!(spliced.stored_item.is_some() && spliced.item.is_none());
    assert_eq!(
        serde_json::to_value(&spliced).unwrap(),
        serde_json::to_value(&decoded).unwrap()
    );
}

/// An entry as written: `(pk, sk, tail, body, size)`.
type Written<'a> = (&'a [u8], &'a [u8], &'a [u8], &'a [u8], u64);

/// What SQLite's `char` writes for `n` (UTF-8, surrogates included; U+FFFD past 0x10FFFF).
fn sqlite_char(n: u64) -> Vec<u8> {
    let c = if n > 0x10_ffff { 0xfffd } else { n as u32 };
    match c {
        0..0x80 => vec![c as u8],
        0x80..0x800 => vec![0xc0 | (c >> 6) as u8, 0x80 | (c & 0x3f) as u8],
        0x800..0x1_0000 => vec![
            0xe0 | (c >> 12) as u8,
            0x80 | (c >> 6 & 0x3f) as u8,
            0x80 | (c & 0x3f) as u8,
        ],
        _ => vec![
            0xf0 | (c >> 18) as u8,
            0x80 | (c >> 12 & 0x3f) as u8,
            0x80 | (c >> 6 & 0x3f) as u8,
            0x80 | (c & 0x3f) as u8,
        ],
    }
}

/// `entries` joined as [`crate::read::batch::BATCH_SQL_ROW`] and `group_concat` join them, in the order given.
fn joined(entries: &[Written]) -> Vec<u8> {
    let mut data = Vec::new();
    for (pk, sk, tail, body, size) in entries {
        let len = |part: &[u8]| part.len() as u64;
        for n in [
            len(pk),
            len(sk),
            len(tail),
            len(body) & 0xf_ffff,
            len(body) >> 20,
            size & 0xf_ffff,
            size >> 20,
        ] {
            data.extend(sqlite_char(n));
        }
        data.extend_from_slice(&[*pk, *sk, *tail, *body].concat());
    }
    data
}

/// A batch joined out of order is put back in key order, in either direction.
#[test]
fn a_batch_joined_out_of_order_is_sorted() {
    let data = joined(&[
        (b"a", &[0, 2], b"", b"2", 2),
        (b"a", &[0, 0, 1], b"", b"1", 1),
        (b"a", &[0xff], b"", b"3", 3),
    ]);
    let bodies_of = |batch: &crate::read::batch::Batch| -> Vec<(String, u64)> {
        batch
            .entries()
            .iter()
            .map(|e| (String::from_utf8(e.body.to_vec()).unwrap(), e.size))
            .collect()
    };
    let mut batch = crate::read::batch::Batch::from_bytes(data.clone()).unwrap();
    batch.in_order(true);
    assert_eq!(
        bodies_of(&batch),
        [("1".into(), 1), ("2".into(), 2), ("3".into(), 3)]
    );
    let mut batch = crate::read::batch::Batch::from_bytes(data).unwrap();
    batch.in_order(false);
    assert_eq!(
        bodies_of(&batch),
        [("3".into(), 3), ("2".into(), 2), ("1".into(), 1)]
    );
}

/// Every length `char` can carry reads back as written, at each width of its UTF-8 (1 to 4
/// bytes, surrogates included), and body lengths and sizes past 20 bits through their second
/// character.
#[test]
fn lengths_read_back_at_every_width() {
    for n in [
        0, 1, 0x7f, 0x80, 0x7ff, 0x800, 0xd800, 0xdfff, 0xffff, 0x1_0000, 0x10_ffff,
    ] {
        let data = sqlite_char(n);
        assert_eq!(
            crate::read::batch::char_at(&data),
            Some((n as u32, data.len())),
            "{n:#x}"
        );
    }
    let body = vec![b'x'; (1 << 20) + 3];
    let sk = vec![0xff; 0x800];
    let data = joined(&[(&[0xc3], &sk, b"", &body, (5 << 20) + 7)]);
    let batch = crate::read::batch::Batch::from_bytes(data).unwrap();
    let entries = batch.entries();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].pk, &[0xc3]);
    assert_eq!(entries[0].sk, sk.as_slice());
    assert_eq!(entries[0].body.len(), body.len());
    assert_eq!(entries[0].size, (5 << 20) + 7);
}

/// Bytes that do not hold whole entries are an error, never a panic or a guess: a length past
/// the end, a character cut short or with a bad continuation byte, a byte no character starts
/// with.
#[test]
fn a_malformed_batch_is_an_error() {
    let parse = |data: &[u8]| crate::read::batch::Batch::from_bytes(data.to_vec()).map(|b| b.len());
    let whole = joined(&[(b"a", b"b", b"", b"{}", 9)]);
    assert_eq!(parse(&whole).unwrap(), 1);
    assert_eq!(parse(b"").unwrap(), 0);
    assert!(
        parse(&whole[..whole.len() - 1]).is_err(),
        "bytes short of the lengths"
    );
    assert!(parse(&whole[..3]).is_err(), "numbers cut short");
    assert!(
        parse(&[whole.as_slice(), b"x"].concat()).is_err(),
        "bytes beyond the entries"
    );
    let long = joined(&[(b"a", b"b", b"", &[b'x'; 0x900], 9)]);
    assert_eq!(parse(&long).unwrap(), 1);
    assert!(parse(&long[..4]).is_err(), "a two-byte character cut short");
    let mut bad = long.clone();
    bad[4] = b'x';
    assert!(parse(&bad).is_err(), "a continuation byte that is not one");
    assert!(
        parse(&[0xff, 0, 0, 0, 0, 0, 0]).is_err(),
        "no character starts with 0xff"
    );
    assert!(
        parse(&[0x80, 0, 0, 0, 0, 0, 0]).is_err(),
        "nor with a continuation byte"
    );
}

/// The batch query on SQLite's `entries` table, against entries written straight into it with
/// every byte the format must carry as content: NULs, commas, semicolons, digits and 0xff in
/// keys and bodies, empty sort keys and tails, one body near 400 KB. Walked in batches of
/// several sizes, forward and backward, over the whole keyspace and over one collection, with
/// the cursor of each batch's last entry, the entries come back whole, once each, in key order.
#[tokio::test]
async fn the_batch_query_carries_any_bytes_in_key_order() {
    use super::{Bound, EntryPosition, Range, fetch};
    use sqlx::Connection as _;
    let mut conn = sqlx::SqliteConnection::connect("sqlite::memory:").await.unwrap();
    sqlx::raw_sql(include_str!("../../../migrations/0001_catalog.sql"))
        .execute(&mut conn)
        .await
        .unwrap();
    type Entry = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>, u64);
    let mut entries: Vec<Entry> = Vec::new();
    let awkward: [&[u8]; 6] = [b"", b"0", &[0], &[0, 0, 0xff], b",;1,2;", &[0xff, b',', 0, b';']];
    for (i, pk) in [b"p".as_slice(), &[0, b','], &[0xff, 0, 0], b"9;9"]
        .iter()
        .enumerate()
    {
        for (j, sk) in awkward.iter().enumerate() {
            for (k, tail) in awkward.iter().take(3).enumerate() {
                let n = i * 100 + j * 10 + k;
                let body = [
                    &b"{\"n\":"[..],
                    n.to_string().as_bytes(),
                    b",",
                    awkward[n % 6],
                    b"\0}",
                ]
                .concat();
                entries.push((pk.to_vec(), sk.to_vec(), tail.to_vec(), body, n as u64 * 3));
            }
        }
    }
    let big = [b"{".as_slice(), &[0, b',', b';'].repeat(133_000), b"}"].concat();
    entries.push((b"q".to_vec(), Vec::new(), Vec::new(), big, 399 * 1024));
    entries.push((b"q".to_vec(), vec![1], Vec::new(), Vec::new(), 0));
    for (pk, sk, tail, body, size) in &entries {
        sqlx::query("INSERT INTO entries (keyspace, pk, sk, tail, body, size) VALUES (7, ?, ?, ?, ?, ?)")
            .bind(pk)
            .bind(sk)
            .bind(tail)
            .bind(body)
            .bind(*size as i64)
            .execute(&mut conn)
            .await
            .unwrap();
    }
    // Another keyspace's entries are never read.
    sqlx::query("INSERT INTO entries VALUES (8, X'00', X'', X'', X'7B7D', 1)")
        .execute(&mut conn)
        .await
        .unwrap();
    entries.sort();
    let key = |e: &Entry| (e.0.clone(), e.1.clone(), e.2.clone());
    for pk in [None, Some(b"p".to_vec()), Some(vec![0, b','])] {
        for forward in [true, false] {
            for wanted in [1, 5, 17, 1024] {
                let mut expected: Vec<Entry> = entries
                    .iter()
                    .filter(|e| pk.as_ref().is_none_or(|p| &e.0 == p))
                    .cloned()
                    .collect();
                if !forward {
                    expected.reverse();
                }
                let range = Range {
                    keyspace: 7,
                    pk: pk.clone(),
                    lower: Bound::Unbounded,
                    upper: Bound::Unbounded,
                    forward,
                    start_after: None,
                    segment: None,
                };
                let mut got: Vec<Entry> = Vec::new();
                let mut cursor: Option<EntryPosition> = None;
                loop {
                    let batch = fetch(&mut conn, &range, cursor.as_ref(), wanted).await.unwrap();
                    let read: Vec<Entry> = batch
                        .entries()
                        .iter()
                        .map(|e| {
                            (
                                e.pk.to_vec(),
                                e.sk.to_vec(),
                                e.tail.to_vec(),
                                e.body.to_vec(),
                                e.size,
                            )
                        })
                        .collect();
                    assert!(read.len() as i64 <= wanted);
                    if let Some(last) = batch.entries().last() {
                        cursor = Some(last.position());
                    }
                    got.extend(read.iter().cloned());
                    if (read.len() as i64) < wanted {
                        break;
                    }
                }
                assert_eq!(got.len(), expected.len(), "{pk:?} {forward} {wanted}");
                for (got, expected) in got.iter().zip(&expected) {
                    assert_eq!(key(got), key(expected), "{pk:?} {forward} {wanted}");
                    assert!(got == expected, "{:?}: body or size differs", key(expected));
                }
            }
        }
    }
}

/// Pages read through the one-row batches: binary keys with NUL and 0xff bytes, bodies with
/// quotes and non-ASCII text, pages longer than a batch (the cursor between batches), Limit
/// pages, an index, and a parallel Scan's segments; the items come back once each, in key
/// order.
#[tokio::test]
async fn batches_keep_every_entry_whole_and_in_order() {
    use base64::Engine as _;
    let engine = uncached_engine().await;
    let call = |op: &'static str, body: serde_json::Value| call_json(&engine, op, body);
    let b = |bytes: &[u8]| serde_json::json!({"B": base64::engine::general_purpose::STANDARD.encode(bytes)});
    call(
        "CreateTable",
        serde_json::json!({"TableName": "Bin", "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": [{"AttributeName": "p", "KeyType": "HASH"}, {"AttributeName": "s", "KeyType": "RANGE"}],
            "AttributeDefinitions": [{"AttributeName": "p", "AttributeType": "B"}, {"AttributeName": "s", "AttributeType": "B"},
                                     {"AttributeName": "g", "AttributeType": "B"}, {"AttributeName": "t", "AttributeType": "B"}],
            "GlobalSecondaryIndexes": [{"IndexName": "ByG",
                "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}, {"AttributeName": "t", "KeyType": "RANGE"}],
                "Projection": {"ProjectionType": "ALL"}}]}),
    )
    .await;
    const N: usize = 300;
    for chunk in (0..N).collect::<Vec<_>>().chunks(25) {
        let puts: Vec<serde_json::Value> = chunk
            .iter()
            .map(|&i| {
                let (hi, lo) = ((i >> 8) as u8, (i & 0xff) as u8);
                serde_json::json!({"PutRequest": {"Item": {
                    "p": b(&[0, 0xff, 0]), "s": b(&[0, hi, 0, lo]),
                    "g": b(&[0xff, 0]), "t": b(&[0, 0xff - hi, 0, 0xff - lo]),
                    "n": {"N": i.to_string()},
                    "v": {"S": format!("\"é,;{}", "x".repeat(i % 13))}}}})
            })
            .collect();
        call(
            "BatchWriteItem",
            serde_json::json!({"RequestItems": {"Bin": puts}}),
        )
        .await;
    }
    let numbers = |pages: &[serde_json::Value]| -> Vec<usize> {
        pages
            .iter()
            .flat_map(|page| page["Items"].as_array().unwrap().clone())
            .map(|item| {
                let n: usize = item["n"]["N"].as_str().unwrap().parse().unwrap();
                assert_eq!(item["v"]["S"], format!("\"é,;{}", "x".repeat(n % 13)));
                n
            })
            .collect()
    };
    let pages = |mut request: serde_json::Value, op: &'static str| {
        let call = &call;
        async move {
            let mut pages = Vec::new();
            loop {
                let page = call(op, request.clone()).await;
                let next = page.get("LastEvaluatedKey").cloned();
                pages.push(page);
                match next {
                    Some(key) => request["ExclusiveStartKey"] = key,
                    None => return pages,
                }
            }
        }
    };
    let ascending: Vec<usize> = (0..N).collect();
    let descending: Vec<usize> = (0..N).rev().collect();
    for (index, key, forward_order) in [
        (None, [0u8, 0xff, 0].as_slice(), &ascending),
        (Some("ByG"), [0xff, 0].as_slice(), &descending),
    ] {
        let name = if index.is_some() { "g" } else { "p" };
        for forward in [true, false] {
            for limit in [None, Some(7), Some(200)] {
                let mut query = serde_json::json!({"TableName": "Bin", "KeyConditionExpression": format!("{name} = :k"),
                    "ExpressionAttributeValues": {":k": b(key)}, "ScanIndexForward": forward});
                if let Some(index) = index {
                    query["IndexName"] = serde_json::json!(index);
                }
                if let Some(limit) = limit {
                    query["Limit"] = serde_json::json!(limit);
                }
                let got = pages(query.clone(), "Query").await;
                let mut expected = forward_order.clone();
                if !forward {
                    expected.reverse();
                }
                assert_eq!(numbers(&got), expected, "{query}");
                if let Some(limit) = limit {
                    assert!(got.iter().all(|p| p["Count"].as_u64().unwrap() <= limit as u64));
                }
            }
        }
    }
    let mut seen = Vec::new();
    for segment in 0..3 {
        let scan =
            serde_json::json!({"TableName": "Bin", "Segment": segment, "TotalSegments": 3, "Limit": 50});
        seen.extend(numbers(&pages(scan, "Scan").await));
    }
    seen.sort_unstable();
    assert_eq!(seen, ascending);
}

/// A Scan without Limit, over ~3 MB of items of varied sizes (so the batches' size estimates
/// miss both ways), with every attribute type, non-ASCII text and escapes: each page stops at
/// the first item that brings what it read to 1 MB (rule B.4: that item is returned, and its
/// key is the LastEvaluatedKey), the pages hold every item once in key order, and each spliced
/// page is byte for byte the page the decoding path writes.
#[tokio::test]
async fn scan_pages_end_at_1_mb_and_splice_every_type_exactly() {
    use dynotable_types::{Item, item_size};
    use serde_json::{Value, json};
    let engine = uncached_engine().await;
    let call = |op: &'static str, body: Value| call_json(&engine, op, body);
    call(
        "CreateTable",
        json!({"TableName": "Big", "BillingMode": "PAY_PER_REQUEST",
            "KeySchema": [{"AttributeName": "p", "KeyType": "HASH"}, {"AttributeName": "s", "KeyType": "RANGE"}],
            "AttributeDefinitions": [{"AttributeName": "p", "AttributeType": "S"}, {"AttributeName": "s", "AttributeType": "N"}]}),
    )
    .await;
    const N: usize = 2_400;
    let item = |i: usize| -> Value {
        let text = format!("é\"\\\n\u{1}😀{}", "x".repeat(100 + (i * 7919) % 2_000));
        let mut item = json!({
            "p": {"S": format!("p{}", i % 40)}, "s": {"N": format!("{}.5", i)},
            "t": {"S": text}, "n": {"N": "-12.3400"}, "b": {"B": "AAEC/w=="},
            "yes": {"BOOL": i.is_multiple_of(2)}, "nothing": {"NULL": true},
            "l": {"L": [{"S": "ü"}, {"N": "1e3"}, {"M": {"k": {"SS": ["a", "b"]}}}]},
            "m": {"M": {"ns": {"NS": ["1", "2.5"]}, "bs": {"BS": ["AA==", "AQ=="]}, "e": {"S": ""}}},
        });
        if i.is_multiple_of(3) {
            item["extra"] = json!({"S": "z".repeat(3_000)});
        }
        item
    };
    for chunk in (0..N).collect::<Vec<_>>().chunks(25) {
        let puts: Vec<Value> = chunk
            .iter()
            .map(|&i| json!({"PutRequest": {"Item": item(i)}}))
            .collect();
        call("BatchWriteItem", json!({"RequestItems": {"Big": puts}})).await;
    }
    // Every item in key order, with its size, from a Limit-paged Scan (pages of 50, no 1 MB).
    let mut all: Vec<Value> = Vec::new();
    let mut request = json!({"TableName": "Big", "Limit": 50});
    loop {
        let page = call("Scan", request.clone()).await;
        all.extend(page["Items"].as_array().unwrap().iter().cloned());
        match page.get("LastEvaluatedKey") {
            Some(key) => request["ExclusiveStartKey"] = key.clone(),
            None => break,
        }
    }
    assert_eq!(all.len(), N);
    let sizes: Vec<u64> = all
        .iter()
        .map(|v| item_size(&serde_json::from_value::<Item>(v.clone()).unwrap()) as u64)
        .collect();
    let total: u64 = sizes.iter().sum();
    assert!(
        total > 2 * crate::capacity::PAGE_BYTES,
        "{total} bytes: at least three pages"
    );

    let (mut at, mut pages) = (0usize, 0);
    let mut request = json!({"TableName": "Big"});
    loop {
        let input = || serde_json::from_value(request.clone()).unwrap();
        let spliced = crate::ops::scan::respond(&engine, input()).await.unwrap();
        assert!(spliced.stored_items.is_some());
        let decoded = crate::ops::scan::run(&engine, input()).await.unwrap();
        let (spliced, decoded) = (spliced.into_json().unwrap(), decoded.into_json().unwrap());
        assert_eq!(
            String::from_utf8(spliced.clone()).unwrap(),
            String::from_utf8(decoded).unwrap()
        );
        let wire = engine.call("Scan", request.to_string().as_bytes()).await.unwrap();
        assert_eq!(wire, spliced, "the wire answer is the spliced page");
        let page: Value = serde_json::from_slice(&spliced).unwrap();
        pages += 1;
        // Rule B.4: read until 1 MB is reached, the item that reaches it included.
        let mut end = at;
        let mut read = 0;
        while end < N && read < crate::capacity::PAGE_BYTES {
            read += sizes[end];
            end += 1;
        }
        let items = page["Items"].as_array().unwrap();
        assert_eq!(items.as_slice(), &all[at..end], "page {pages}");
        assert_eq!(page["Count"], json!(end - at));
        assert_eq!(page["ScannedCount"], json!(end - at));
        match page.get("LastEvaluatedKey") {
            Some(key) => {
                let last = &all[end - 1];
                assert_eq!(key, &json!({"p": last["p"], "s": last["s"]}));
                request["ExclusiveStartKey"] = key.clone();
            }
            None => {
                assert_eq!(end, N, "no LastEvaluatedKey only at the end");
                break;
            }
        }
        at = end;
    }
    assert!(pages >= 3);
}
