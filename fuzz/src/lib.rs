//! What the fuzz targets share: an in-memory engine with two tables and a few items, the runtime
//! that drives it, and the check every target makes of an engine's answer.
//!
//! The engine lives for the whole run, so requests that write (PutItem, CreateTable, INSERT)
//! change what later inputs see. To keep a long run bounded and close to reproducible, it is
//! replaced by a fresh one every [`REFRESH_EVERY`] inputs. A crash found this way is first
//! re-run alone (`target/fuzz/x86_64-unknown-linux-gnu/release/TARGET ARTIFACT`), on a fresh
//! engine; if it does not crash then, what earlier inputs wrote matters, and lowering
//! `REFRESH_EVERY` to 1 while fuzzing again finds a crash that needs no earlier input.

use std::cell::RefCell;

use dynotable_engine::{ApiError, Engine, ErrorKind, Location};

/// How many inputs one engine serves before it is replaced by a fresh one.
pub const REFRESH_EVERY: u32 = 2_000;

/// The tables and items every fresh engine starts with: `Music` (a string partition key, a
/// number sort key, a global and a local secondary index, a stream) and `Counters` (a number
/// partition key only). The seed corpora name them.
const SETUP: &[(&str, &str)] = &[
    (
        "CreateTable",
        r#"{"TableName":"Music","BillingMode":"PAY_PER_REQUEST",
            "AttributeDefinitions":[{"AttributeName":"artist","AttributeType":"S"},
              {"AttributeName":"year","AttributeType":"N"},{"AttributeName":"title","AttributeType":"S"},
              {"AttributeName":"label","AttributeType":"S"}],
            "KeySchema":[{"AttributeName":"artist","KeyType":"HASH"},{"AttributeName":"year","KeyType":"RANGE"}],
            "GlobalSecondaryIndexes":[{"IndexName":"ByTitle","KeySchema":[{"AttributeName":"title","KeyType":"HASH"}],
              "Projection":{"ProjectionType":"ALL"}}],
            "LocalSecondaryIndexes":[{"IndexName":"ByLabel","KeySchema":[{"AttributeName":"artist","KeyType":"HASH"},
              {"AttributeName":"label","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}],
            "StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}"#,
    ),
    (
        "CreateTable",
        r#"{"TableName":"Counters","BillingMode":"PAY_PER_REQUEST",
            "AttributeDefinitions":[{"AttributeName":"id","AttributeType":"N"}],
            "KeySchema":[{"AttributeName":"id","KeyType":"HASH"}]}"#,
    ),
    (
        "PutItem",
        r#"{"TableName":"Music","Item":{"artist":{"S":"Acme"},"year":{"N":"1999"},"title":{"S":"Blue"},
            "label":{"S":"Ink"},"tags":{"SS":["a","b"]},"plays":{"N":"12345678901234567890123456789012345678"},
            "meta":{"M":{"l":{"L":[{"N":"1"},{"NULL":true},{"B":"AAEC"}]},"ok":{"BOOL":true}}}}}"#,
    ),
    (
        "PutItem",
        r#"{"TableName":"Music","Item":{"artist":{"S":"Acme"},"year":{"N":"2001.5"},"title":{"S":"Red"},
            "ns":{"NS":["1","-2.5","3E10"]},"bs":{"BS":["AA==","AQ=="]}}}"#,
    ),
    (
        "PutItem",
        r#"{"TableName":"Music","Item":{"artist":{"S":"Zed"},"year":{"N":"-7"},"title":{"S":"Blue"}}}"#,
    ),
    (
        "PutItem",
        r#"{"TableName":"Counters","Item":{"id":{"N":"1"},"n":{"N":"0"},"s":{"S":"x"}}}"#,
    ),
];

struct Harness {
    runtime: tokio::runtime::Runtime,
    engine: Option<(Engine, axum::Router)>,
    served: u32,
}

thread_local! {
    static HARNESS: RefCell<Option<Harness>> = const { RefCell::new(None) };
}

/// Runs `f` with the shared engine on the shared runtime (both made on first use).
pub fn with_engine<T>(f: impl AsyncFnOnce(&Engine) -> T) -> T {
    with_both(async |engine, _| f(engine).await)
}

/// Runs `f` with `dynotable-local`'s application in front of the shared engine (the router the
/// app's in-process client uses: no Host, signature or CORS layers).
pub fn with_router<T>(f: impl AsyncFnOnce(axum::Router) -> T) -> T {
    with_both(async |_, router| f(router.clone()).await)
}

fn with_both<T>(f: impl AsyncFnOnce(&Engine, &axum::Router) -> T) -> T {
    HARNESS.with(|cell| {
        let mut slot = cell.borrow_mut();
        let harness = slot.get_or_insert_with(|| Harness {
            runtime: tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a tokio runtime"),
            engine: None,
            served: 0,
        });
        if harness.served >= REFRESH_EVERY {
            if let Some((old, router)) = harness.engine.take() {
                drop(router);
                harness.runtime.block_on(old.close());
            }
            harness.served = 0;
        }
        harness.served += 1;
        let Harness { runtime, engine, .. } = harness;
        runtime.block_on(async {
            if engine.is_none() {
                let fresh = fresh_engine().await;
                let router = dynotable_server::router(fresh.clone());
                *engine = Some((fresh, router));
            }
            let (engine, router) = engine.as_ref().expect("opened above");
            f(engine, router).await
        })
    })
}

async fn fresh_engine() -> Engine {
    let engine = Engine::open(Location::InMemory)
        .await
        .expect("an in-memory engine opens");
    for (operation, body) in SETUP {
        if let Err(err) = engine.call(operation, body.as_bytes()).await {
            panic!("setup {operation} failed: {err:?}");
        }
    }
    engine
}

/// The check on every engine answer: a success is JSON; an error is a client error (4xx), never
/// `InternalServerError` — which is what a bug that panics or a broken invariant turns into.
pub fn check_answer(what: &str, answer: &Result<Vec<u8>, ApiError>) {
    match answer {
        Ok(body) => {
            if let Err(err) = serde_json::from_slice::<serde_json::Value>(body) {
                panic!(
                    "{what}: a success whose body is not JSON ({err}): {:?}",
                    String::from_utf8_lossy(body)
                );
            }
        }
        Err(err) => {
            assert!(
                err.kind != ErrorKind::InternalServerError && err.kind.http_status() < 500,
                "{what}: a server error: {err:?}"
            );
        }
    }
}
