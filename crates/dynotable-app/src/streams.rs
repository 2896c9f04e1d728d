//! The stream viewer: a live tail of a table's DynamoDB stream, on the embedded engine and on AWS
//! connections alike (the connection's DynamoDB Streams client: in-process for the embedded
//! engine, the service or the endpoint otherwise). Reading a stream writes nothing, so a
//! read-only connection may tail one.
//!
//! The life of a tail:
//! 1. [`App::stream_info`] says whether the table has a stream (DescribeTable's
//!    `LatestStreamArn` and `StreamSpecification`) and how many shards it has (DescribeStream,
//!    every page). No stream: the UI says so and points to Settings.
//! 2. [`App::tail_stream`] runs under an id the UI chooses, like a scan (`cancellation.rs`):
//!    it asks each shard for an iterator — `TRIM_HORIZON` from the shards without a parent (the
//!    oldest records kept, 24 hours), or `LATEST` on the open shards — and pages through
//!    GetRecords with each answer's `NextShardIterator`. A shard read to its end (no next
//!    iterator: closed) is dropped and its children, found by describing the stream again, are
//!    read from their start, so no record is skipped when the service splits a shard.
//! 3. Records are converted to the app's DynamoDB JSON (exact numbers), filtered by the
//!    [`StreamFilter`] in force (key values, TTL deletions only) and sent to `on_update` in
//!    batches. A record whose `userIdentity` is `{ type: "Service", principalId:
//!    "dynamodb.amazonaws.com" }` is a Time to Live deletion (DG `time-to-live-ttl-streams.html`)
//!    and is marked so.
//! 4. [`App::control_stream_tail`] pauses or resumes the tail, or changes its filter, while it
//!    runs. A paused tail delivers nothing and its readers stay where they were; the tail says
//!    at once that it is paused, and a copy of its readers reads on only to count the records
//!    waiting (after the filter in force when each is read: [`TailUpdate::held`]), so the UI can
//!    say how many a resume will show (the same requests as a running tail). On resume the
//!    readers go on from where they stopped; an iterator older than 15 minutes
//!    (`ExpiredIteratorException`) is asked for again after the last record read, so a pause
//!    loses nothing the stream still holds.
//! 5. The tail ends when it is cancelled ([`App::cancel_operation`]) or when every shard is
//!    closed and the stream is no longer enabled (the stream was turned off).
//!
//! Memory is bounded here by one GetRecords page per shard; the UI keeps a ring of the last
//! records it was sent.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use aws_sdk_dynamodbstreams::types::{
    AttributeValue as StreamValue, Record, Shard, ShardIteratorType, StreamStatus,
};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};

use crate::dto::{AttributeValue, Item};
use crate::sessions::Session;
use crate::{App, CommandError, ErrorCode};

/// GetRecords returns at most 1,000 records (Streams API Reference, GetRecords: Limit).
const PAGE_LIMIT: i32 = 1000;
/// How long an idle tail waits between polls of its shards: the embedded engine is in-process;
/// the service allows five GetRecords per shard per second (DG `Streams.html`, "no more than two
/// processes reading from the same shard at the same time").
const EMBEDDED_POLL: Duration = Duration::from_millis(250);
const REMOTE_POLL: Duration = Duration::from_millis(1000);
/// An idle tail still tells the UI it is alive this often.
const HEARTBEAT: Duration = Duration::from_secs(2);

/// The principal DynamoDB names as the user of a Time to Live deletion in a stream record
/// (DG `time-to-live-ttl-streams.html`).
pub const TTL_PRINCIPAL: &str = "dynamodb.amazonaws.com";

/// What a table's stream is.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct StreamInfo {
    pub table: String,
    /// Whether the table's stream is on now.
    pub enabled: bool,
    /// `NEW_AND_OLD_IMAGES`, `NEW_IMAGE`, `OLD_IMAGE` or `KEYS_ONLY`, when the stream is on.
    pub view_type: Option<String>,
    /// The latest stream's ARN (a stream turned off stays readable for 24 hours).
    pub stream_arn: Option<String>,
    pub label: Option<String>,
    /// `ENABLING`, `ENABLED`, `DISABLING` or `DISABLED`, as DescribeStream says.
    pub status: Option<String>,
    pub shards: u32,
    /// Shards still written to (no ending sequence number).
    pub open_shards: u32,
}

/// Where a tail starts reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TailStart {
    /// The oldest records the stream keeps (the last 24 hours).
    TrimHorizon,
    /// Only records written from now on.
    Latest,
}

/// Which records a tail delivers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct StreamFilter {
    /// Key attributes a record's `Keys` must hold with exactly these values (empty: any key).
    pub key: Item,
    /// Only the deletions made by Time to Live.
    pub ttl_only: bool,
}

impl StreamFilter {
    fn admits(&self, record: &StreamRecord) -> bool {
        (!self.ttl_only || record.ttl_deletion)
            && self
                .key
                .iter()
                .all(|(name, value)| record.keys.get(name) == Some(value))
    }
}

/// A tail to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TailInput {
    /// Chosen by the caller; [`App::cancel_operation`] and [`App::control_stream_tail`] take it.
    pub tail_id: String,
    pub table: String,
    pub start: TailStart,
    pub filter: StreamFilter,
}

/// Who made a change, as the stream record says (only Time to Live deletions carry one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct UserIdentity {
    #[serde(rename = "type")]
    pub kind: String,
    pub principal_id: String,
}

/// One stream record.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct StreamRecord {
    pub event_id: String,
    /// `INSERT`, `MODIFY` or `REMOVE`.
    pub event_name: String,
    pub shard_id: String,
    pub sequence_number: String,
    /// When the change was made, in seconds since the epoch (the service rounds it).
    #[specta(type = Option<specta_typescript::Number>)]
    pub created_at: Option<f64>,
    pub keys: Item,
    pub new_image: Option<Item>,
    pub old_image: Option<Item>,
    #[specta(type = Option<specta_typescript::Number>)]
    pub size_bytes: Option<f64>,
    pub user_identity: Option<UserIdentity>,
    /// A deletion by Time to Live (the service is its user).
    pub ttl_deletion: bool,
}

/// What a running tail sends: the records read since the last update (after the filter), and
/// running totals.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TailUpdate {
    pub tail_id: String,
    pub records: Vec<StreamRecord>,
    /// Records read so far (before the filter).
    #[specta(type = specta_typescript::Number)]
    pub read: f64,
    /// Records delivered so far (after the filter).
    #[specta(type = specta_typescript::Number)]
    pub delivered: f64,
    /// Shards being read now.
    pub shards: u32,
    /// Whether the tail has paused (it sends an update as soon as it pauses or resumes).
    pub paused: bool,
    /// While paused: the new records found past where the tail stopped (after the filter),
    /// which it delivers on resume; 0 while it runs.
    #[specta(type = specta_typescript::Number)]
    pub held: f64,
    /// Something the user should know about the reading itself (records trimmed, iterators
    /// renewed).
    pub notice: Option<String>,
}

/// How a tail ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum TailEnd {
    Cancelled,
    /// Every shard was read to its end and the stream is off.
    StreamClosed,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TailSummary {
    pub end: TailEnd,
    #[specta(type = specta_typescript::Number)]
    pub read: f64,
    #[specta(type = specta_typescript::Number)]
    pub delivered: f64,
}

/// What the UI may change on a running tail.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TailControl {
    pub paused: bool,
    pub filter: StreamFilter,
}

/// The controls of running tails, by id.
#[derive(Debug, Default)]
pub(crate) struct Tails(Mutex<HashMap<String, Arc<Mutex<TailControl>>>>);

impl Tails {
    fn register(&self, id: &str, control: TailControl) -> Arc<Mutex<TailControl>> {
        let control = Arc::new(Mutex::new(control));
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_owned(), control.clone());
        control
    }

    fn remove(&self, id: &str) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    }

    fn set(&self, id: &str, control: TailControl) -> bool {
        match self.0.lock().unwrap_or_else(|e| e.into_inner()).get(id) {
            Some(running) => {
                *running.lock().unwrap_or_else(|e| e.into_inner()) = control;
                true
            }
            None => false,
        }
    }
}

fn stream_off(table: &str) -> CommandError {
    CommandError::new(
        ErrorCode::StreamOff,
        format!(
            "The table {table} has no stream: turn it on in the table's Settings to see its changes here."
        ),
    )
}

/// One shard being read.
#[derive(Clone)]
struct ShardReader {
    shard_id: String,
    iterator: Option<String>,
    /// How the first iterator is asked for.
    start: ShardIteratorType,
    /// The last record read: a renewed iterator starts after it.
    last_sequence: Option<String>,
    /// For a shard started at `LATEST` with nothing read yet: when its iterator was taken, so
    /// an iterator renewed from the shard's start skips what came before.
    since: Option<f64>,
}

fn now_seconds() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

impl App {
    /// The table's stream: on or off, its view type, ARN and shards.
    pub async fn stream_info(&self, profile_id: &str, table: &str) -> Result<StreamInfo, CommandError> {
        let session = self.session(profile_id).await?;
        let (arn, view_type) = latest_stream(&session, table).await?;
        let mut info = StreamInfo {
            table: table.to_owned(),
            enabled: view_type.is_some(),
            view_type,
            stream_arn: arn.clone(),
            label: None,
            status: None,
            shards: 0,
            open_shards: 0,
        };
        let Some(arn) = arn else {
            return Ok(info);
        };
        let streams = self.streams_client(&session).await?;
        let (shards, status, label) = describe_stream(&streams, &arn).await?;
        info.shards = u32::try_from(shards.len()).unwrap_or(u32::MAX);
        info.open_shards = u32::try_from(shards.iter().filter(|s| is_open(s)).count()).unwrap_or(u32::MAX);
        info.status = status;
        info.label = label;
        Ok(info)
    }

    /// Changes a running tail: pause or resume it, or read with another filter from now on.
    /// `false` when no tail runs under `id` (it may just have ended).
    pub fn control_stream_tail(&self, id: &str, control: TailControl) -> bool {
        self.inner.tails.set(id, control)
    }

    /// Tails the table's stream, calling `on_update` with each batch of records, until the tail
    /// is cancelled or the stream is turned off and read to its end.
    pub async fn tail_stream(
        &self,
        profile_id: &str,
        input: TailInput,
        mut on_update: impl FnMut(TailUpdate) + Send,
    ) -> Result<TailSummary, CommandError> {
        let session = self.session(profile_id).await?;
        let (arn, _) = latest_stream(&session, &input.table).await?;
        let arn = arn.ok_or_else(|| stream_off(&input.table))?;
        let streams = self.streams_client(&session).await?;
        let poll = if session.is_embedded() {
            EMBEDDED_POLL
        } else {
            REMOTE_POLL
        };
        let cancelled = self.inner.running.register(&input.tail_id)?;
        let control = self.inner.tails.register(
            &input.tail_id,
            TailControl {
                paused: false,
                filter: input.filter.clone(),
            },
        );
        let tail = Tail {
            streams: &streams,
            arn: &arn,
            id: &input.tail_id,
            poll,
            cancelled: &cancelled,
            control: &control,
        };
        let result = tail.run(input.start, &mut on_update).await;
        self.inner.running.remove(&input.tail_id);
        self.inner.tails.remove(&input.tail_id);
        result
    }
}

/// The table's latest stream ARN (`None`: it never had one) and its view type when it is on.
async fn latest_stream(
    session: &Session,
    table: &str,
) -> Result<(Option<String>, Option<String>), CommandError> {
    let output = session
        .client
        .describe_table()
        .table_name(table)
        .send()
        .await
        .map_err(|err| CommandError::from_sdk(&err))?;
    let description = output
        .table()
        .ok_or_else(|| CommandError::new(ErrorCode::Internal, "DescribeTable returned no table."))?;
    let view_type = description
        .stream_specification()
        .filter(|s| s.stream_enabled())
        .and_then(|s| s.stream_view_type())
        .map(|v| v.as_str().to_owned());
    Ok((description.latest_stream_arn().map(str::to_owned), view_type))
}

fn is_open(shard: &Shard) -> bool {
    shard
        .sequence_number_range()
        .is_none_or(|r| r.ending_sequence_number().is_none())
}

/// Every shard of the stream (DescribeStream, page by page), its status and label.
async fn describe_stream(
    streams: &aws_sdk_dynamodbstreams::Client,
    arn: &str,
) -> Result<(Vec<Shard>, Option<String>, Option<String>), CommandError> {
    let mut shards = Vec::new();
    let mut start: Option<String> = None;
    loop {
        let output = streams
            .describe_stream()
            .stream_arn(arn)
            .set_exclusive_start_shard_id(start.take())
            .send()
            .await
            .map_err(|err| CommandError::from_sdk(&err))?;
        let Some(description) = output.stream_description() else {
            return Ok((shards, None, None));
        };
        shards.extend(description.shards().iter().cloned());
        match description.last_evaluated_shard_id() {
            Some(last) => start = Some(last.to_owned()),
            None => {
                return Ok((
                    shards,
                    description.stream_status().map(|s| s.as_str().to_owned()),
                    description.stream_label().map(str::to_owned),
                ));
            }
        }
    }
}

/// A running tail's fixed parts.
struct Tail<'a> {
    streams: &'a aws_sdk_dynamodbstreams::Client,
    arn: &'a str,
    id: &'a str,
    poll: Duration,
    cancelled: &'a Arc<AtomicBool>,
    control: &'a Arc<Mutex<TailControl>>,
}

impl Tail<'_> {
    fn control(&self) -> TailControl {
        self.control.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    async fn run(
        &self,
        start: TailStart,
        on_update: &mut (impl FnMut(TailUpdate) + Send),
    ) -> Result<TailSummary, CommandError> {
        let (shards, _, _) = describe_stream(self.streams, self.arn).await?;
        let known: HashSet<&str> = shards.iter().filter_map(|s| s.shard_id()).collect();
        let mut readers: Vec<ShardReader> = shards
            .iter()
            .filter(|s| match start {
                // The roots: shards whose parent is no longer kept (or never was).
                TailStart::TrimHorizon => s.parent_shard_id().is_none_or(|p| !known.contains(p)),
                TailStart::Latest => is_open(s),
            })
            .filter_map(|s| s.shard_id())
            .map(|id| ShardReader {
                shard_id: id.to_owned(),
                iterator: None,
                start: match start {
                    TailStart::TrimHorizon => ShardIteratorType::TrimHorizon,
                    TailStart::Latest => ShardIteratorType::Latest,
                },
                last_sequence: None,
                since: None,
            })
            .collect();
        let mut finished: HashSet<String> = HashSet::new();
        let (mut read, mut delivered) = (0u64, 0u64);
        let mut last_update: Option<Instant> = None;
        let mut notice: Option<String> = None;
        // While paused: the copy of the readers that counts what waits, and its count.
        let mut scouts: Option<Vec<ShardReader>> = None;
        let mut held = 0u64;
        // What the last update said of `paused` and `held`: a change is sent at once.
        let mut reported: Option<(bool, u64)> = None;
        loop {
            if self.cancelled.load(Ordering::SeqCst) {
                return Ok(TailSummary {
                    end: TailEnd::Cancelled,
                    read: read as f64,
                    delivered: delivered as f64,
                });
            }
            let control = self.control();
            let mut records = Vec::new();
            let mut full_page = false;
            let mut closed_any = false;
            if control.paused {
                let scouts = scouts.get_or_insert_with(|| readers.clone());
                let (count, full) = self.count_ahead(scouts, &control.filter).await?;
                held += count;
                full_page = full;
            } else {
                scouts = None;
                held = 0;
                for reader in &mut readers {
                    let page = self.read_shard(reader, &mut notice).await?;
                    full_page |= page.records.len() >= PAGE_LIMIT as usize;
                    read += page.records.len() as u64;
                    for record in page.records {
                        if control.filter.admits(&record) {
                            records.push(record);
                        }
                    }
                    if page.closed {
                        closed_any = true;
                        finished.insert(reader.shard_id.clone());
                    }
                }
                readers.retain(|r| !finished.contains(&r.shard_id));
            }
            if closed_any || (readers.is_empty() && !control.paused) {
                // Children of the shards read to their end are read from their start.
                let (shards, status, _) = describe_stream(self.streams, self.arn).await?;
                for shard in &shards {
                    let (Some(id), Some(parent)) = (shard.shard_id(), shard.parent_shard_id()) else {
                        continue;
                    };
                    if finished.contains(parent)
                        && !finished.contains(id)
                        && readers.iter().all(|r| r.shard_id != id)
                    {
                        readers.push(ShardReader {
                            shard_id: id.to_owned(),
                            iterator: None,
                            start: ShardIteratorType::TrimHorizon,
                            last_sequence: None,
                            since: None,
                        });
                    }
                }
                if readers.is_empty() && status.as_deref() != Some(StreamStatus::Enabled.as_str()) {
                    if !records.is_empty() {
                        delivered += records.len() as u64;
                        on_update(self.update(records, read, delivered, 0, &control, 0, notice.take()));
                    }
                    return Ok(TailSummary {
                        end: TailEnd::StreamClosed,
                        read: read as f64,
                        delivered: delivered as f64,
                    });
                }
            }
            let heartbeat = last_update.is_none_or(|at| at.elapsed() >= HEARTBEAT);
            let changed = reported != Some((control.paused, held));
            if !records.is_empty() || heartbeat || notice.is_some() || changed {
                delivered += records.len() as u64;
                let shards = u32::try_from(readers.len()).unwrap_or(u32::MAX);
                on_update(self.update(records, read, delivered, shards, &control, held, notice.take()));
                last_update = Some(Instant::now());
                reported = Some((control.paused, held));
            }
            if !full_page {
                tokio::time::sleep(self.poll).await;
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn update(
        &self,
        records: Vec<StreamRecord>,
        read: u64,
        delivered: u64,
        shards: u32,
        control: &TailControl,
        held: u64,
        notice: Option<String>,
    ) -> TailUpdate {
        TailUpdate {
            tail_id: self.id.to_owned(),
            records,
            read: read as f64,
            delivered: delivered as f64,
            shards,
            paused: control.paused,
            held: held as f64,
            notice,
        }
    }

    /// Step 4, paused: one page of each of `scouts` (the copy of the readers made at the pause),
    /// counting the records `filter` admits; a scout whose shard closed is dropped (a child of
    /// it is counted from the resume on, when the readers find it). The count, and whether a
    /// page was full (more is waiting now).
    async fn count_ahead(
        &self,
        scouts: &mut Vec<ShardReader>,
        filter: &StreamFilter,
    ) -> Result<(u64, bool), CommandError> {
        let (mut count, mut full) = (0u64, false);
        let mut closed = HashSet::new();
        // The readers say what is trimmed when they get there.
        let mut notice = None;
        for scout in scouts.iter_mut() {
            let page = self.read_shard(scout, &mut notice).await?;
            full |= page.records.len() >= PAGE_LIMIT as usize;
            count += page.records.iter().filter(|r| filter.admits(r)).count() as u64;
            if page.closed {
                closed.insert(scout.shard_id.clone());
            }
        }
        scouts.retain(|s| !closed.contains(&s.shard_id));
        Ok((count, full))
    }

    /// A fresh iterator for `reader`: after its last record, or as it started.
    async fn iterator(
        &self,
        reader: &mut ShardReader,
        notice: &mut Option<String>,
    ) -> Result<Option<String>, CommandError> {
        let (kind, sequence) = match &reader.last_sequence {
            Some(sequence) => (ShardIteratorType::AfterSequenceNumber, Some(sequence.clone())),
            // A LATEST shard whose first iterator expired before anything was read: from its
            // start, skipping what came before the tail looked (`since`).
            None if reader.since.is_some() => (ShardIteratorType::TrimHorizon, None),
            None => (reader.start.clone(), None),
        };
        if reader.start == ShardIteratorType::Latest
            && reader.since.is_none()
            && reader.last_sequence.is_none()
        {
            reader.since = Some(now_seconds().floor() - 1.0);
        }
        let answer = self
            .streams
            .get_shard_iterator()
            .stream_arn(self.arn)
            .shard_id(&reader.shard_id)
            .shard_iterator_type(kind)
            .set_sequence_number(sequence)
            .send()
            .await;
        match answer {
            Ok(output) => Ok(output.shard_iterator().map(str::to_owned)),
            Err(err) => {
                let err = CommandError::from_sdk(&err);
                match err.exception.as_deref() {
                    // The records after the last one read are gone (past 24 hours): read on from
                    // the oldest kept, and say so.
                    Some("TrimmedDataAccessException") => {
                        *notice = Some(
                            "Some records were trimmed from the stream (older than 24 hours) before they could be read.".into(),
                        );
                        reader.last_sequence = None;
                        reader.since = None;
                        reader.start = ShardIteratorType::TrimHorizon;
                        let output = self
                            .streams
                            .get_shard_iterator()
                            .stream_arn(self.arn)
                            .shard_id(&reader.shard_id)
                            .shard_iterator_type(ShardIteratorType::TrimHorizon)
                            .send()
                            .await
                            .map_err(|err| CommandError::from_sdk(&err))?;
                        Ok(output.shard_iterator().map(str::to_owned))
                    }
                    _ => Err(err),
                }
            }
        }
    }

    /// One GetRecords of `reader`'s shard.
    async fn read_shard(
        &self,
        reader: &mut ShardReader,
        notice: &mut Option<String>,
    ) -> Result<ShardPage, CommandError> {
        if reader.iterator.is_none() {
            reader.iterator = self.iterator(reader, notice).await?;
        }
        let Some(iterator) = reader.iterator.clone() else {
            return Ok(ShardPage {
                records: Vec::new(),
                closed: true,
            });
        };
        let output = match self
            .streams
            .get_records()
            .shard_iterator(iterator)
            .limit(PAGE_LIMIT)
            .send()
            .await
        {
            Ok(output) => output,
            Err(err) => {
                let err = CommandError::from_sdk(&err);
                if err.exception.as_deref() == Some("ExpiredIteratorException") {
                    // Iterators live 15 minutes (a long pause): ask again after the last record.
                    reader.iterator = None;
                    return Ok(ShardPage {
                        records: Vec::new(),
                        closed: false,
                    });
                }
                return Err(err);
            }
        };
        let mut records = Vec::with_capacity(output.records().len());
        for record in output.records() {
            let Some(record) = stream_record(&reader.shard_id, record) else {
                continue;
            };
            reader.last_sequence = Some(record.sequence_number.clone());
            if let Some(since) = reader.since
                && record.created_at.is_some_and(|at| at < since)
            {
                continue;
            }
            records.push(record);
        }
        if reader.last_sequence.is_some() {
            reader.since = None;
        }
        reader.iterator = output.next_shard_iterator().map(str::to_owned);
        Ok(ShardPage {
            closed: reader.iterator.is_none(),
            records,
        })
    }
}

struct ShardPage {
    records: Vec<StreamRecord>,
    closed: bool,
}

/// A Streams API value as DynamoDB JSON (the app's model). `None` for a kind this SDK version does
/// not know.
fn value_of(value: &StreamValue) -> Option<AttributeValue> {
    let base64 = |blob: &aws_sdk_dynamodbstreams::primitives::Blob| STANDARD.encode(blob.as_ref());
    Some(match value {
        StreamValue::S(s) => AttributeValue::S(s.clone()),
        StreamValue::N(n) => AttributeValue::N(n.clone()),
        StreamValue::B(b) => AttributeValue::B(base64(b)),
        StreamValue::Ss(v) => AttributeValue::SS(v.clone()),
        StreamValue::Ns(v) => AttributeValue::NS(v.clone()),
        StreamValue::Bs(v) => AttributeValue::BS(v.iter().map(base64).collect()),
        StreamValue::M(m) => AttributeValue::M(item_of(m)),
        StreamValue::L(l) => AttributeValue::L(l.iter().filter_map(value_of).collect()),
        StreamValue::Null(b) => AttributeValue::NULL(*b),
        StreamValue::Bool(b) => AttributeValue::BOOL(*b),
        _ => return None,
    })
}

fn item_of(item: &HashMap<String, StreamValue>) -> Item {
    item.iter()
        .filter_map(|(k, v)| value_of(v).map(|v| (k.clone(), v)))
        .collect::<BTreeMap<_, _>>()
}

/// A record of the Streams API as the app sends it to the UI.
fn stream_record(shard_id: &str, record: &Record) -> Option<StreamRecord> {
    let change = record.dynamodb()?;
    let user_identity = record.user_identity().map(|identity| UserIdentity {
        kind: identity.r#type().unwrap_or_default().to_owned(),
        principal_id: identity.principal_id().unwrap_or_default().to_owned(),
    });
    let ttl_deletion = user_identity
        .as_ref()
        .is_some_and(|u| u.kind == "Service" && u.principal_id == TTL_PRINCIPAL);
    Some(StreamRecord {
        event_id: record.event_id().unwrap_or_default().to_owned(),
        event_name: record
            .event_name()
            .map(|e| e.as_str().to_owned())
            .unwrap_or_default(),
        shard_id: shard_id.to_owned(),
        sequence_number: change.sequence_number()?.to_owned(),
        created_at: change.approximate_creation_date_time().map(|t| t.as_secs_f64()),
        keys: change.keys().map(item_of).unwrap_or_default(),
        new_image: change.new_image().map(item_of),
        old_image: change.old_image().map(item_of),
        size_bytes: change.size_bytes().map(|n| n as f64),
        user_identity,
        ttl_deletion,
    })
}
