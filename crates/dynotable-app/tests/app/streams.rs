//! The stream viewer's and the TTL view's commands: a live tail of a table's stream (from
//! LATEST or TRIM_HORIZON, paused and resumed, filtered by key, cancelled), TTL deletions marked
//! as the service marks them, the items due to expire and the embedded engine's sweep — on the
//! embedded engine and on `dynotable-local` served on a loopback port and reached as an endpoint
//! connection (the code path of every AWS connection), and on dynalite, which has no Streams API
//! and no UpdateTimeToLive: there the views say what is off. A read-only connection may read the
//! stream but not sweep.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use dynotable_app::dto::{AttributeValue, Billing, Item, KeyAttribute, KeySchema, NewTable, ScalarType};
use dynotable_app::profiles::{ConnectionInput, EMBEDDED_ID, ProfileInput, SecretInput};
use dynotable_app::secrets::MemoryStore;
use dynotable_app::streams::{
    StreamFilter, StreamRecord, TailControl, TailEnd, TailInput, TailStart, TailSummary, TailUpdate,
};
use dynotable_app::ttl::{ExpiringInput, ExpiryState};
use dynotable_app::{App, CommandError, ErrorCode, Expectation};
use tokio::sync::mpsc;

use crate::support;

fn app() -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().unwrap();
    let app = App::start_with("test", dir.path(), Arc::new(MemoryStore::default()));
    (dir, app)
}

/// Deliveries: vehicles by time, a stream with both images and a TTL attribute.
fn deliveries(name: &str, stream: Option<&str>) -> NewTable {
    NewTable {
        name: name.into(),
        keys: KeySchema {
            partition_key: KeyAttribute {
                name: "vehicleId".into(),
                ty: ScalarType::S,
            },
            sort_key: Some(KeyAttribute {
                name: "at".into(),
                ty: ScalarType::N,
            }),
            more_partition_keys: Vec::new(),
            more_sort_keys: Vec::new(),
        },
        billing: Billing::OnDemand,
        indexes: vec![],
        stream_view_type: stream.map(str::to_owned),
        ttl_attribute: Some("expiresAt".into()),
        tags: vec![],
    }
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(text.into())
}

fn item(pairs: &[(&str, AttributeValue)]) -> Item {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect()
}

fn key(vehicle: &str, at: &str) -> Item {
    item(&[("vehicleId", s(vehicle)), ("at", n(at))])
}

fn now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}

/// A tail running in its own task: its updates arrive on `updates`, its end on `done`.
struct RunningTail {
    id: String,
    updates: mpsc::UnboundedReceiver<TailUpdate>,
    done: tokio::task::JoinHandle<Result<TailSummary, CommandError>>,
}

impl RunningTail {
    fn start(app: &App, profile: &str, table: &str, start: TailStart, filter: StreamFilter) -> RunningTail {
        let (sender, updates) = mpsc::unbounded_channel();
        let id = format!("tail-{table}-{}", rand_suffix());
        let input = TailInput {
            tail_id: id.clone(),
            table: table.into(),
            start,
            filter,
        };
        let (app, profile) = (app.clone(), profile.to_owned());
        let done = tokio::spawn(async move {
            app.tail_stream(&profile, input, move |update| {
                let _ = sender.send(update);
            })
            .await
        });
        RunningTail { id, updates, done }
    }

    /// Waits for the first update (the tail has its iterators: later writes are seen).
    async fn started(&mut self) -> TailUpdate {
        tokio::time::timeout(Duration::from_secs(20), self.updates.recv())
            .await
            .expect("the tail reports within 20 s")
            .expect("the tail is running")
    }

    /// The next `count` records delivered, waiting at most 20 s.
    async fn records(&mut self, count: usize) -> Vec<StreamRecord> {
        let mut records = Vec::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        while records.len() < count {
            let update = tokio::time::timeout_at(deadline, self.updates.recv())
                .await
                .unwrap_or_else(|_| panic!("waited 20 s for {count} records, got {records:?}"))
                .expect("the tail is running");
            records.extend(update.records);
        }
        records
    }

    /// The first update that `wanted` accepts, waiting at most 20 s, with every record
    /// delivered up to it (that one's included).
    async fn until(
        &mut self,
        what: &str,
        wanted: impl Fn(&TailUpdate) -> bool,
    ) -> (TailUpdate, Vec<StreamRecord>) {
        let mut records = Vec::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            let update = tokio::time::timeout_at(deadline, self.updates.recv())
                .await
                .unwrap_or_else(|_| panic!("waited 20 s for {what}, got {records:?}"))
                .expect("the tail is running");
            records.extend(update.records.iter().cloned());
            if wanted(&update) {
                return (update, records);
            }
        }
    }

    async fn cancel(self, app: &App) -> TailSummary {
        assert!(app.cancel_operation(&self.id));
        tokio::time::timeout(Duration::from_secs(20), self.done)
            .await
            .expect("the tail ends within 20 s of its cancel")
            .unwrap()
            .unwrap()
    }
}

fn rand_suffix() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    format!("{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::SeqCst))
}

/// A tail from LATEST sees an INSERT, a MODIFY with both images and a REMOVE, in order; paused,
/// it delivers nothing until resumed and then loses nothing; a filter keeps one key's records.
async fn live_tail(app: &App, profile: &str, table: &str) {
    app.create_table(profile, deliveries(table, Some("NEW_AND_OLD_IMAGES")))
        .await
        .unwrap();
    // A record written before the tail starts is not seen from LATEST.
    let early = item(&[("vehicleId", s("VEH#1")), ("at", n("1")), ("speed", n("10"))]);
    app.put_item(profile, table, early.clone(), Expectation::Anything)
        .await
        .unwrap();

    let info = app.stream_info(profile, table).await.unwrap();
    assert!(info.enabled, "{info:?}");
    assert_eq!(info.view_type.as_deref(), Some("NEW_AND_OLD_IMAGES"));
    assert!(info.stream_arn.is_some());
    assert_eq!((info.shards, info.open_shards), (1, 1), "{info:?}");

    let mut tail = RunningTail::start(app, profile, table, TailStart::Latest, StreamFilter::default());
    tail.started().await;

    let new = item(&[("vehicleId", s("VEH#2")), ("at", n("2")), ("speed", n("12.5"))]);
    app.put_item(profile, table, new.clone(), Expectation::Absent)
        .await
        .unwrap();
    let mut changed = new.clone();
    changed.insert("speed".into(), n("99.000000000000000000000000000000000001"));
    app.put_item(profile, table, changed.clone(), Expectation::Anything)
        .await
        .unwrap();
    app.delete_item(profile, table, key("VEH#2", "2"), Expectation::Anything)
        .await
        .unwrap();
    let records = tail.records(3).await;
    let events: Vec<&str> = records.iter().map(|r| r.event_name.as_str()).collect();
    assert_eq!(events, ["INSERT", "MODIFY", "REMOVE"], "{records:?}");
    assert_eq!(records[0].keys, key("VEH#2", "2"));
    assert_eq!(records[0].new_image.as_ref(), Some(&new));
    assert_eq!(records[0].old_image, None);
    // Numbers stay exact (38 digits) in both images.
    assert_eq!(records[1].old_image.as_ref(), Some(&new));
    assert_eq!(records[1].new_image.as_ref(), Some(&changed));
    assert_eq!(records[2].old_image.as_ref(), Some(&changed));
    assert_eq!(records[2].new_image, None);
    assert!(
        records
            .iter()
            .all(|r| !r.ttl_deletion && r.user_identity.is_none())
    );
    assert!(
        records
            .windows(2)
            .all(|w| w[0].sequence_number < w[1].sequence_number),
        "{records:?}"
    );

    // Paused: the tail says so at once; what is written meanwhile it counts as held for the
    // resume and does not deliver; resumed, what was written meanwhile arrives.
    assert!(app.control_stream_tail(
        &tail.id,
        TailControl {
            paused: true,
            filter: StreamFilter::default()
        }
    ));
    let (paused, records) = tail.until("the tail to say it paused", |u| u.paused).await;
    assert_eq!((paused.held, records), (0.0, vec![]), "{paused:?}");
    app.put_item(
        profile,
        table,
        item(&[("vehicleId", s("VEH#3")), ("at", n("3"))]),
        Expectation::Absent,
    )
    .await
    .unwrap();
    // The tail has read VEH#3's INSERT when it counts it: delivered by then, or never.
    let (held, records) = tail.until("VEH#3's INSERT held", |u| u.held > 0.0).await;
    assert!(held.paused, "{held:?}");
    assert_eq!(held.held, 1.0, "{held:?}");
    assert_eq!(records, vec![], "a paused tail delivers nothing");
    // Resumed with a filter on VEH#4: VEH#3's INSERT (read now) is filtered out, VEH#4's kept.
    assert!(app.control_stream_tail(
        &tail.id,
        TailControl {
            paused: false,
            filter: StreamFilter {
                key: item(&[("vehicleId", s("VEH#4"))]),
                ttl_only: false
            }
        }
    ));
    app.put_item(
        profile,
        table,
        item(&[("vehicleId", s("VEH#4")), ("at", n("4"))]),
        Expectation::Absent,
    )
    .await
    .unwrap();
    let records = tail.records(1).await;
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0].keys, key("VEH#4", "4"));

    let summary = tail.cancel(app).await;
    assert_eq!(summary.end, TailEnd::Cancelled);
    assert_eq!(summary.read, 5.0, "{summary:?}");
    assert_eq!(summary.delivered, 4.0, "{summary:?}");
    assert!(!app.control_stream_tail("tail-that-ended", TailControl::default()));

    // From TRIM_HORIZON: every record kept, the one before the first tail too.
    let mut all = RunningTail::start(
        app,
        profile,
        table,
        TailStart::TrimHorizon,
        StreamFilter::default(),
    );
    let records = all.records(6).await;
    assert_eq!(records[0].keys, key("VEH#1", "1"));
    assert_eq!(records[0].new_image.as_ref(), Some(&early));
    assert_eq!(records.len(), 6, "{records:?}");
    all.cancel(app).await;
}

#[tokio::test]
async fn a_live_tail_on_the_embedded_engine() {
    let (_dir, app) = app();
    live_tail(&app, EMBEDDED_ID, "Deliveries").await;
}

/// `dynotable-local`: an engine of its own served on a loopback port (no background sweep: the
/// test sweeps when it means to).
async fn local_server() -> (tempfile::TempDir, dynotable_engine::Engine, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut options =
        dynotable_engine::Options::new(dynotable_engine::Location::File(dir.path().join("local.db")));
    options.sweep_interval = None;
    let engine = dynotable_engine::Engine::open_with(options).await.unwrap();
    let url = dynotable_stand_ins::serve(dynotable_server::router(engine.clone())).await;
    (dir, engine, url)
}

fn endpoint(name: &str, url: &str, read_only: bool) -> ProfileInput {
    ProfileInput {
        name: name.into(),
        color: "#3366ff".into(),
        region: "us-east-1".into(),
        read_only,
        connection: ConnectionInput::CustomEndpoint {
            endpoint_url: url.into(),
            access_key_id: "AKIDEXAMPLE".into(),
            secret_access_key: SecretInput::new("local-secret"),
        },
    }
}

#[tokio::test]
async fn a_live_tail_on_dynotable_local_as_an_endpoint_connection() {
    let (_dir, app) = app();
    let (_data, _engine, url) = local_server().await;
    let profile = app.create_profile(endpoint("local", &url, false)).await.unwrap();
    live_tail(&app, &profile.id, "Deliveries").await;
}

#[tokio::test]
async fn a_table_without_a_stream_says_so() {
    let (_dir, app) = app();
    app.create_table(EMBEDDED_ID, deliveries("Quiet", None))
        .await
        .unwrap();
    let info = app.stream_info(EMBEDDED_ID, "Quiet").await.unwrap();
    assert!(!info.enabled);
    assert_eq!((info.stream_arn, info.shards), (None, 0));
    let err = app
        .tail_stream(
            EMBEDDED_ID,
            TailInput {
                tail_id: "quiet".into(),
                table: "Quiet".into(),
                start: TailStart::Latest,
                filter: StreamFilter::default(),
            },
            |_| {},
        )
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::StreamOff, "{err:?}");
    assert!(err.message.contains("Settings"), "{err:?}");
    let err = app.stream_info(EMBEDDED_ID, "Nope").await.unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
}

#[tokio::test]
async fn turning_the_stream_off_ends_the_tail_once_its_records_are_read() {
    let (_dir, app) = app();
    app.create_table(EMBEDDED_ID, deliveries("Closing", Some("KEYS_ONLY")))
        .await
        .unwrap();
    let mut tail = RunningTail::start(
        &app,
        EMBEDDED_ID,
        "Closing",
        TailStart::Latest,
        StreamFilter::default(),
    );
    tail.started().await;
    app.put_item(EMBEDDED_ID, "Closing", key("VEH#9", "9"), Expectation::Absent)
        .await
        .unwrap();
    app.change_table(
        EMBEDDED_ID,
        "Closing",
        dynotable_app::table_changes::TableChange::Stream { view_type: None },
    )
    .await
    .unwrap();
    let records = tail.records(1).await;
    assert_eq!(records[0].keys, key("VEH#9", "9"));
    assert_eq!(records[0].new_image, None, "KEYS_ONLY carries no image");
    let summary = tokio::time::timeout(Duration::from_secs(20), tail.done)
        .await
        .expect("the tail ends by itself")
        .unwrap()
        .unwrap();
    assert_eq!(summary.end, TailEnd::StreamClosed);
    assert!(!app.stream_info(EMBEDDED_ID, "Closing").await.unwrap().enabled);
}

/// Items due to expire listed earliest first; the sweep deletes the expired ones, and the stream
/// marks each deletion as the service's (`userIdentity` Service / dynamodb.amazonaws.com).
async fn ttl_life(app: &App, profile: &str, sweep: impl AsyncFnOnce() -> u64) {
    app.create_table(profile, deliveries("Expiring", Some("NEW_AND_OLD_IMAGES")))
        .await
        .unwrap();
    let now = now().floor();
    let expires = |vehicle: &str, at: f64| {
        item(&[
            ("vehicleId", s(vehicle)),
            ("at", n("1")),
            ("expiresAt", n(&format!("{at}"))),
        ])
    };
    for (vehicle, at) in [
        ("VEH#later", now + 3600.0),
        ("VEH#gone", now - 60.0),
        ("VEH#soon", now + 60.0),
    ] {
        app.put_item(profile, "Expiring", expires(vehicle, at), Expectation::Absent)
            .await
            .unwrap();
    }
    // An expiry that is not a Number is no expiry; one five years past is never deleted.
    app.put_item(
        profile,
        "Expiring",
        item(&[
            ("vehicleId", s("VEH#text")),
            ("at", n("1")),
            ("expiresAt", s("tomorrow")),
        ]),
        Expectation::Absent,
    )
    .await
    .unwrap();
    app.put_item(
        profile,
        "Expiring",
        expires("VEH#ancient", 1000.0),
        Expectation::Absent,
    )
    .await
    .unwrap();

    let found = app
        .expiring_items(
            profile,
            ExpiringInput {
                table: "Expiring".into(),
                limit: 3,
                max_pages: 10,
            },
        )
        .await
        .unwrap();
    let listed: Vec<(&AttributeValue, ExpiryState)> = found
        .items
        .iter()
        .map(|i| (&i.keys["vehicleId"], i.state))
        .collect();
    assert_eq!(
        listed,
        [
            (&s("VEH#ancient"), ExpiryState::TooOld),
            (&s("VEH#gone"), ExpiryState::Due),
            (&s("VEH#soon"), ExpiryState::Pending),
        ],
        "the three earliest of four expiries: {found:?}"
    );
    assert_eq!(
        (found.scanned, found.with_expiry, found.expired),
        (5.0, 4.0, 2.0),
        "{found:?}"
    );
    assert!(found.complete);
    assert_eq!(found.items[1].keys, key("VEH#gone", "1"), "the keys only");
    assert_eq!(found.items[1].expiry_text, format!("{}", now - 60.0));

    let mut deletions = RunningTail::start(
        app,
        profile,
        "Expiring",
        TailStart::TrimHorizon,
        StreamFilter {
            key: BTreeMap::new(),
            ttl_only: true,
        },
    );
    deletions.started().await;
    app.delete_item(profile, "Expiring", key("VEH#later", "1"), Expectation::Anything)
        .await
        .unwrap();
    assert_eq!(sweep().await, 1, "only the item expired less than five years ago");
    let records = deletions.records(1).await;
    assert_eq!(
        records.len(),
        1,
        "the user's own delete is not a TTL deletion: {records:?}"
    );
    let record = &records[0];
    assert_eq!(record.event_name, "REMOVE");
    assert_eq!(record.keys, key("VEH#gone", "1"));
    assert!(record.ttl_deletion);
    let identity = record.user_identity.as_ref().unwrap();
    assert_eq!(
        (identity.kind.as_str(), identity.principal_id.as_str()),
        ("Service", "dynamodb.amazonaws.com")
    );
    assert_eq!(record.old_image.as_ref(), Some(&expires("VEH#gone", now - 60.0)));
    deletions.cancel(app).await;
}

#[tokio::test]
async fn ttl_on_the_embedded_engine_lists_expiries_sweeps_on_demand_and_marks_its_deletions() {
    let (_dir, app) = app();
    let overview = app.ttl_overview(EMBEDDED_ID, "Telemetry").await.unwrap();
    assert!(overview.embedded);
    assert_eq!(overview.sweep_interval_seconds, Some(30.0));
    let next = overview
        .next_sweep_at
        .expect("the embedded engine sweeps on a schedule");
    assert!(
        next > overview.now - 1.0 && next <= overview.now + 30.0,
        "{overview:?}"
    );

    let swept = app.clone();
    ttl_life(&app, EMBEDDED_ID, async move || {
        let outcome = swept.sweep_expired(EMBEDDED_ID).await.unwrap();
        assert!(outcome.next_sweep_at.is_some());
        outcome.deleted as u64
    })
    .await;
    let overview = app.ttl_overview(EMBEDDED_ID, "Expiring").await.unwrap();
    assert_eq!(overview.attribute.as_deref(), Some("expiresAt"));
}

#[tokio::test]
async fn ttl_on_dynotable_local_as_an_endpoint_connection() {
    let (_dir, app) = app();
    let (_data, engine, url) = local_server().await;
    let profile = app.create_profile(endpoint("local", &url, false)).await.unwrap();
    let overview = app.ttl_overview(&profile.id, "Nope").await.unwrap_err();
    assert_eq!(overview.code, ErrorCode::NotFound);
    // The service sweeps on its own schedule: the app cannot, and does not say when.
    ttl_life(&app, &profile.id, async move || engine.sweep().await.unwrap()).await;
    let overview = app.ttl_overview(&profile.id, "Expiring").await.unwrap();
    assert!(!overview.embedded);
    assert_eq!(
        (overview.next_sweep_at, overview.sweep_interval_seconds),
        (None, None)
    );
    let err = app.sweep_expired(&profile.id).await.unwrap_err();
    assert_eq!(err.code, ErrorCode::Validation);
}

#[tokio::test]
async fn a_read_only_connection_reads_the_stream_but_does_not_sweep() {
    let (_dir, app) = app();
    let (_data, _engine, url) = local_server().await;
    let writer = app.create_profile(endpoint("local", &url, false)).await.unwrap();
    let watcher = app
        .create_profile(endpoint("watch only", &url, true))
        .await
        .unwrap();
    app.create_table(&writer.id, deliveries("Watched", Some("NEW_IMAGE")))
        .await
        .unwrap();
    let mut tail = RunningTail::start(
        &app,
        &watcher.id,
        "Watched",
        TailStart::Latest,
        StreamFilter::default(),
    );
    tail.started().await;
    app.put_item(&writer.id, "Watched", key("VEH#5", "5"), Expectation::Absent)
        .await
        .unwrap();
    let records = tail.records(1).await;
    assert_eq!(records[0].new_image.as_ref(), Some(&key("VEH#5", "5")));
    assert_eq!(records[0].old_image, None, "NEW_IMAGE carries no old image");
    tail.cancel(&app).await;
    let err = app.sweep_expired(&watcher.id).await.unwrap_err();
    assert_eq!(err.code, ErrorCode::ReadOnly);
    let found = app
        .expiring_items(
            &watcher.id,
            ExpiringInput {
                table: "Watched".into(),
                limit: 10,
                max_pages: 1,
            },
        )
        .await
        .unwrap();
    assert_eq!(found.items, vec![]);
}

/// dynalite (a DynamoDB nobody here wrote) has neither the Streams API nor UpdateTimeToLive: it
/// keeps no stream for a table created with one, and the views say so in plain words instead of
/// failing.
#[tokio::test]
async fn on_dynalite_without_streams_or_ttl_the_views_say_what_is_off() {
    let (_dir, app) = app();
    let dynalite = support::Dynalite::start_with(&["--createTableMs", "0"]);
    let profile = app
        .create_profile(endpoint(
            "dynalite",
            &format!("http://127.0.0.1:{}", dynalite.port),
            false,
        ))
        .await
        .unwrap();
    let mut table = deliveries("Plain", Some("NEW_AND_OLD_IMAGES"));
    table.ttl_attribute = None;
    app.create_table(&profile.id, table).await.unwrap();
    app.put_item(&profile.id, "Plain", key("VEH#1", "1"), Expectation::Absent)
        .await
        .unwrap();

    let info = app.stream_info(&profile.id, "Plain").await.unwrap();
    assert!(!info.enabled, "{info:?}");
    assert_eq!(info.stream_arn, None);
    let err = app
        .tail_stream(
            &profile.id,
            TailInput {
                tail_id: "plain".into(),
                table: "Plain".into(),
                start: TailStart::TrimHorizon,
                filter: StreamFilter::default(),
            },
            |_| {},
        )
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::StreamOff);

    let overview = app.ttl_overview(&profile.id, "Plain").await.unwrap();
    assert_eq!((overview.attribute, overview.embedded), (None, false));
    let err = app
        .expiring_items(
            &profile.id,
            ExpiringInput {
                table: "Plain".into(),
                limit: 10,
                max_pages: 1,
            },
        )
        .await
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::Validation);
    assert!(err.message.contains("Time to live is off on Plain"), "{err:?}");
}
