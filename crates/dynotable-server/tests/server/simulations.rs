//! The simulations of issue 18.7 as the AWS SDK for Rust meets them, on an engine served in
//! this process with a manual clock: throttled requests retried by the SDK's own retry loop
//! until they succeed or it gives up (`Options::enforce_capacity`, rule B.19), and eventually
//! consistent reads that see writes late (`Options::eventual_lag`, rule B.20).
//!
//! The SDK's back-off sleeps return at once (they are recorded), and each retry moves the
//! engine's clock half a second: what the buckets hold at each attempt is exact, whatever the
//! SDK's jitter drew.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::interceptors::{
    BeforeTransmitInterceptorContextMut, BeforeTransmitInterceptorContextRef,
};
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::timeout::TimeoutConfig;
use aws_sdk_dynamodb::config::{
    AsyncSleep, BehaviorVersion, ConfigBag, Credentials, Intercept, Region, RuntimeComponents,
    SharedAsyncSleep, Sleep, StalledStreamProtectionConfig,
};
use aws_sdk_dynamodb::error::BoxError;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, KeySchemaElement, KeyType, ProvisionedThroughput,
};
use dynotable_engine::{Engine, EventualLag, Location, ManualClock, Options};

const START: f64 = 1_700_000_000.0;
/// How far the engine's clock moves before each retry.
const RETRY_STEP_SECONDS: f64 = 0.5;

/// The SDK's sleeps: recorded, over at once.
#[derive(Debug, Clone, Default)]
struct RecordedSleep {
    slept: Arc<Mutex<Vec<Duration>>>,
}

impl AsyncSleep for RecordedSleep {
    fn sleep(&self, duration: Duration) -> Sleep {
        self.slept.lock().unwrap().push(duration);
        Sleep::new(async {})
    }
}

/// Counts the SDK's attempts and moves the engine's clock before every retry (every attempt
/// of an operation but its first).
#[derive(Debug)]
struct RetryClock {
    clock: Arc<ManualClock>,
    /// Attempts of every operation.
    attempts: Arc<AtomicUsize>,
    /// Attempts of the operation in progress (the tests make one at a time).
    this_operation: AtomicUsize,
}

impl Intercept for RetryClock {
    fn name(&self) -> &'static str {
        "RetryClock"
    }

    fn modify_before_retry_loop(
        &self,
        _context: &mut BeforeTransmitInterceptorContextMut<'_>,
        _components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        self.this_operation.store(0, Ordering::SeqCst);
        Ok(())
    }

    fn read_before_attempt(
        &self,
        _context: &BeforeTransmitInterceptorContextRef<'_>,
        _components: &RuntimeComponents,
        _cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        self.attempts.fetch_add(1, Ordering::SeqCst);
        if self.this_operation.fetch_add(1, Ordering::SeqCst) > 0 {
            self.clock.advance(RETRY_STEP_SECONDS);
        }
        Ok(())
    }
}

/// An engine on a manual clock, served on a loopback port, and an SDK client of it that makes
/// at most `max_attempts` attempts per call.
struct Local {
    engine: Engine,
    clock: Arc<ManualClock>,
    attempts: Arc<AtomicUsize>,
    slept: Arc<Mutex<Vec<Duration>>>,
    client: Client,
}

impl Local {
    async fn start(enforce_capacity: bool, lag: Option<EventualLag>, max_attempts: u32) -> Local {
        let clock = Arc::new(ManualClock::new(START));
        let mut options = Options::new(Location::InMemory);
        options.clock = clock.clone();
        options.sweep_interval = None;
        options.enforce_capacity = enforce_capacity;
        options.eventual_lag = lag;
        let engine = Engine::open_with(options).await.unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(dynotable_server::serve(
            listener,
            engine.clone(),
            std::future::pending(),
        ));
        let attempts = Arc::new(AtomicUsize::new(0));
        let sleep = RecordedSleep::default();
        let slept = sleep.slept.clone();
        let config = aws_sdk_dynamodb::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new("eu-west-1"))
            .credentials_provider(Credentials::new("local", "local", None, None, "simulations"))
            .endpoint_url(url)
            .retry_config(RetryConfig::standard().with_max_attempts(max_attempts))
            // No timeouts and no stall detection: their timers would be the recorded sleeps.
            .timeout_config(TimeoutConfig::disabled())
            .stalled_stream_protection(StalledStreamProtectionConfig::disabled())
            .sleep_impl(SharedAsyncSleep::new(sleep))
            .interceptor(RetryClock {
                clock: clock.clone(),
                attempts: attempts.clone(),
                this_operation: AtomicUsize::new(0),
            })
            .build();
        Local {
            engine,
            clock,
            attempts,
            slept,
            client: Client::from_conf(config),
        }
    }

    /// Table `Tbl` keyed by `pk` (S) and `sk` (N), with 1 read and 1 write unit provisioned.
    async fn create_table(&self) {
        self.client
            .create_table()
            .table_name("Tbl")
            .attribute_definitions(definition("pk", "S"))
            .attribute_definitions(definition("sk", "N"))
            .key_schema(key("pk", KeyType::Hash))
            .key_schema(key("sk", KeyType::Range))
            .provisioned_throughput(
                ProvisionedThroughput::builder()
                    .read_capacity_units(1)
                    .write_capacity_units(1)
                    .build()
                    .unwrap(),
            )
            .send()
            .await
            .unwrap();
    }

    async fn put(
        &self,
        sk: u64,
        v: &str,
    ) -> Result<(), aws_sdk_dynamodb::error::SdkError<aws_sdk_dynamodb::operation::put_item::PutItemError>>
    {
        self.client
            .put_item()
            .table_name("Tbl")
            .item("pk", AttributeValue::S("a".into()))
            .item("sk", AttributeValue::N(sk.to_string()))
            .item("v", AttributeValue::S(v.into()))
            .send()
            .await
            .map(|_| ())
    }

    /// Forgets the attempts and sleeps counted so far.
    fn reset_counts(&self) {
        self.attempts.store(0, Ordering::SeqCst);
        self.slept.lock().unwrap().clear();
    }
}

fn definition(name: &str, ty: &str) -> AttributeDefinition {
    AttributeDefinition::builder()
        .attribute_name(name)
        .attribute_type(ty.into())
        .build()
        .unwrap()
}

fn key(name: &str, ty: KeyType) -> KeySchemaElement {
    KeySchemaElement::builder()
        .attribute_name(name)
        .key_type(ty)
        .build()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sdk_retries_a_throttled_write_until_the_bucket_refills() {
    let local = Local::start(true, None, 10).await;
    local.create_table().await;
    // 300 one-unit writes empty the burst of a 1-unit table.
    for sk in 0..300 {
        local.put(sk, "x").await.unwrap();
    }
    assert_eq!(local.engine.throttled_requests(), 0);
    local.reset_counts();
    // Throttled at 0 and 0.5 units; the third attempt, a second later, finds one.
    local.put(300, "x").await.unwrap();
    assert_eq!(local.attempts.load(Ordering::SeqCst), 3);
    assert_eq!(local.engine.throttled_requests(), 2);
    // A back-off before each retry (the SDK may sleep for its own reasons too).
    let slept = local.slept.lock().unwrap().clone();
    assert!(
        slept.iter().filter(|d| **d > Duration::ZERO).count() >= 2,
        "{slept:?}"
    );
    let item = local
        .client
        .get_item()
        .table_name("Tbl")
        .key("pk", AttributeValue::S("a".into()))
        .key("sk", AttributeValue::N("300".into()))
        .consistent_read(true)
        .send()
        .await
        .unwrap();
    assert!(item.item.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sdk_gives_up_with_the_exception_when_its_attempts_run_out() {
    let local = Local::start(true, None, 3).await;
    local.create_table().await;
    // A 350 KB item leaves the 1-unit table about 50 units in debt.
    local.put(0, &"x".repeat(350 * 1024)).await.unwrap();
    local.reset_counts();
    let err = local.put(1, "x").await.unwrap_err();
    let service = err.as_service_error().expect("a service error");
    assert!(
        service.is_provisioned_throughput_exceeded_exception(),
        "{service:?}"
    );
    assert_eq!(
        service.meta().message(),
        Some(
            "The level of configured provisioned throughput for the table was exceeded. Consider increasing \
             your provisioning level with the UpdateTable API."
        )
    );
    assert_eq!(local.attempts.load(Ordering::SeqCst), 3);
    assert_eq!(local.engine.throttled_requests(), 3);
    let slept = local.slept.lock().unwrap().clone();
    assert!(
        slept.iter().filter(|d| **d > Duration::ZERO).count() >= 2,
        "{slept:?}"
    );
    // Once the debt is refilled the same write goes through.
    local.clock.advance(120.0);
    local.put(1, "x").await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eventually_consistent_sdk_reads_see_writes_late_and_consistent_ones_never() {
    let lag = EventualLag {
        max_seconds: 1.0,
        seed: 7,
    };
    let local = Local::start(false, Some(lag), 1).await;
    local.create_table().await;
    local.put(1, "one").await.unwrap();
    local.clock.advance(10.0);
    local.put(1, "two").await.unwrap();
    local.clock.advance(0.5);
    let read = |consistent: bool| {
        local
            .client
            .get_item()
            .table_name("Tbl")
            .key("pk", AttributeValue::S("a".into()))
            .key("sk", AttributeValue::N("1".into()))
            .consistent_read(consistent)
            .send()
    };
    let mut seen = Vec::new();
    for _ in 0..60 {
        let item = read(false).await.unwrap().item.unwrap();
        seen.push(item["v"].as_s().unwrap().clone());
    }
    assert!(seen.iter().any(|v| v == "one"), "{seen:?}");
    assert!(seen.iter().any(|v| v == "two"), "{seen:?}");
    for _ in 0..60 {
        let item = read(true).await.unwrap().item.unwrap();
        assert_eq!(item["v"].as_s().unwrap(), "two");
    }
}
