//! The `dynotable-local` command: arguments, start-up, the ready line, and shutdown on a signal.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use dynotable_engine::{Clock as _, Durability, Engine, Location, RequestClock, SystemClock};

use crate::ServerError;

/// How long requests in flight may take to finish once a shutdown signal has arrived.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// A local DynamoDB endpoint on DynoTable's embedded engine.
///
/// Point any AWS SDK or the AWS CLI at it with `--endpoint-url http://127.0.0.1:8000` and any
/// credentials and region: requests are signed the usual way, but the signature is checked only
/// with `--auth`, and every access key and region sees the same tables (ARNs report the region a
/// request was signed for). Requests must name this server in their Host header (localhost,
/// 127.0.0.1, [::1], the --host address, or an --allow-host name).
#[derive(Debug, Clone, PartialEq, Eq, Parser)]
#[command(name = "dynotable-local", version)]
pub struct Args {
    /// Address to listen on. Anything but loopback exposes the database (use --auth).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on; 0 picks a free one (see the ready line for which).
    #[arg(long, short, default_value_t = 8000)]
    pub port: u16,
    /// The SQLite database file, created (with its folder) if it does not exist.
    #[arg(
        long,
        value_name = "FILE",
        default_value = "local.db",
        conflicts_with = "in_memory"
    )]
    pub db: PathBuf,
    /// Keep the data in memory only; it is gone when the server stops.
    #[arg(long)]
    pub in_memory: bool,
    /// Megabytes of items kept in memory for GetItem and BatchGetItem by key (strongly
    /// consistent: every write invalidates them); 0 turns the cache off. The cache assumes no
    /// other process writes the same database file.
    #[arg(long, value_name = "MB", default_value_t = dynotable_engine::DEFAULT_ITEM_CACHE_BYTES / (1024 * 1024))]
    pub cache_mb: u64,
    /// What an acknowledged write survives (file databases): `process` — a crash or `kill -9`
    /// of this server (the write-ahead log is not synced at every commit; an OS crash or power
    /// cut may lose the last writes); `power-loss` — a power cut too (an fsync per commit).
    #[arg(long, value_name = "LEVEL", default_value = "process", value_parser = parse_durability)]
    pub durability: Durability,
    /// Megabytes at the start of the database file that readers map into memory (SQLite's
    /// `mmap_size`): reads there copy no pages; the mapped pages a read touched count in the
    /// server's RSS. 0 turns the map off.
    #[arg(long, value_name = "MB", default_value_t = dynotable_engine::DEFAULT_READER_MMAP_BYTES / (1024 * 1024))]
    pub mmap_mb: u64,
    /// Megabytes of SQLite page cache each reader connection keeps of its own (up to eight
    /// readers): the pages a read found outside the memory map (`--mmap-mb`).
    #[arg(long, value_name = "MB", default_value_t = dynotable_engine::DEFAULT_READER_CACHE_BYTES / (1024 * 1024))]
    pub reader_cache_mb: u64,
    /// Microseconds a connection keeps polling its socket after each answer before it sleeps,
    /// so that a client's next request within that time costs no wake-up. Only a client taking
    /// turns with the server makes it spin (at most 2 connections open, none being served or
    /// waiting), and spins stop for a while when the CPU is wanted elsewhere; 0 never spins.
    #[arg(long, value_name = "MICROSECONDS", default_value_t = DEFAULT_SPIN_US)]
    pub spin_us: u64,
    /// The item-collection size limit, in bytes, on tables with a local secondary index: a
    /// write that would take one partition key's items and LSI entries past it fails with
    /// ItemCollectionSizeLimitExceededException. DynamoDB's is 10 GB; set it lower to see how
    /// an application handles reaching it.
    #[arg(long, value_name = "BYTES", default_value_t = dynotable_engine::DEFAULT_COLLECTION_SIZE_LIMIT)]
    pub collection_size_limit: u64,
    /// The 12-digit account id the ARNs report (`arn:aws:dynamodb:REGION:ACCOUNT:table/NAME`);
    /// their region is the one each request was signed for.
    #[arg(long, value_name = "ID", default_value = dynotable_engine::identity::DEFAULT_ACCOUNT, value_parser = parse_account_id)]
    pub account_id: String,
    /// Check every request's SigV4 signature against this access key and secret, with DynamoDB's
    /// errors (UnrecognizedClientException for another key, InvalidSignatureException for a
    /// wrong signature or a clock more than 15 minutes off). Without it any signature is
    /// accepted.
    #[arg(long, value_name = "ACCESS_KEY:SECRET")]
    pub auth: Option<crate::Credentials>,
    /// Another host name requests may name in their Host header (repeatable); loopback names
    /// and the --host address are always answered, any other name is refused (DNS rebinding).
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,
    /// Refuse to decompress `Content-Encoding: gzip` request bodies (they are read as sent).
    #[arg(long)]
    pub no_gzip: bool,
    /// Answer no CORS preflight and send no Access-Control-* headers, so that no browser page
    /// can read this server's answers.
    #[arg(long)]
    pub no_cors: bool,
    /// Another origin whose pages may call this server from a browser (repeatable; `*` for any).
    /// Pages on loopback origins (http://localhost:PORT, 127.0.0.1, [::1]) always may, unless
    /// --no-cors.
    #[arg(long = "cors-origin", value_name = "ORIGIN")]
    pub cors_origins: Vec<String>,
    /// Connections served at once; more wait to be accepted until one closes.
    #[arg(long, value_name = "N", default_value_t = crate::connections::DEFAULT_MAX_CONNECTIONS, value_parser = parse_positive)]
    pub max_connections: usize,
    /// Requests served at once (from their headers to their answer); more wait their turn.
    #[arg(long, value_name = "N", default_value_t = crate::connections::DEFAULT_MAX_IN_FLIGHT, value_parser = parse_positive)]
    pub max_in_flight: usize,
    /// Seconds a request's headers may take to arrive, counted from when the connection waits
    /// for them (so also how long an idle kept-alive connection stays open).
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = parse_seconds)]
    pub header_timeout: Duration,
    /// Seconds a request's body may take to arrive.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = parse_seconds)]
    pub body_timeout: Duration,
    /// Seconds an answer may go without a byte taken by the client before the connection is
    /// closed.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = parse_seconds)]
    pub idle_timeout: Duration,
    /// The largest request head (request line and headers), in bytes; a larger one is answered
    /// 431.
    #[arg(long, value_name = "BYTES", default_value_t = crate::connections::DEFAULT_MAX_HEADER_BYTES, value_parser = parse_header_bytes)]
    pub max_header_bytes: usize,
    /// Throttle requests as DynamoDB does, so that SDK retry and back-off code can be tested:
    /// a provisioned table or index serves its read and write units per second plus up to 300
    /// seconds of unused capacity (burst), and any table at most 3,000 read and 1,000 write
    /// units per second per partition-key value. A throttled request fails with
    /// ProvisionedThroughputExceededException and changes nothing. Off by default.
    #[arg(long)]
    pub enforce_capacity: bool,
    /// Let eventually consistent GetItem, BatchGetItem, Query and Scan reads (of GSIs too, and
    /// PartiQL SELECTs, which run as these) see writes up to this many milliseconds late (how
    /// late is drawn per read from --seed), so that read-after-write bugs show up locally.
    /// Strongly consistent reads stay exact. Off by default.
    #[arg(long, value_name = "MS", value_parser = parse_lag_ms)]
    pub eventual_lag: Option<u64>,
    /// The seed of --eventual-lag's draws: the same seed and the same requests give the same
    /// answers.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "eventual_lag")]
    pub seed: u64,
    /// A test aid, hidden from --help: the engine's clock starts at the whole second the server
    /// starts and then moves only as requests arrive, this many seconds at each (0 stands it
    /// still). Throttling's refill, --eventual-lag, TTL expiry and stream record times then
    /// depend on how many requests came, never on how fast the machine served them
    /// (`RequestClock`; tests/blackbox/test_boto3_simulations.py).
    #[arg(long, value_name = "SECONDS", value_parser = parse_clock_step, hide = true)]
    pub clock_step: Option<Duration>,
    /// A test aid, hidden from --help: how long a write waits for SQLite's lock on the database
    /// file when another process holds it, before it fails (10 s unless set). A test that holds
    /// the lock itself to keep a transaction ongoing sets it past its own length
    /// (tests/blackbox/test_boto3_transaction_conflicts.py).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds, hide = true)]
    pub busy_timeout: Duration,
}

/// Seconds of --clock-step: 0 (a clock that stands still) to a day.
fn parse_clock_step(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(seconds) if (0.0..=86_400.0).contains(&seconds) => Ok(Duration::from_secs_f64(seconds)),
        _ => Err("expected seconds, from 0 to 86400".to_owned()),
    }
}

/// Milliseconds of --eventual-lag: more than 0, at most an hour.
fn parse_lag_ms(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(ms) if ms > 0 && ms <= 3_600_000 => Ok(ms),
        _ => Err("expected milliseconds from 1 to 3600000".to_owned()),
    }
}

/// A count of at least 1.
fn parse_positive(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err("expected a whole number of at least 1".to_owned()),
    }
}

/// Seconds, decimals allowed, more than 0 and at most a day.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= 86_400.0 => Ok(Duration::from_secs_f64(seconds)),
        _ => Err("expected seconds, more than 0 and at most 86400".to_owned()),
    }
}

/// A head size hyper can hold: at least 1 KB, at most 1 MB.
fn parse_header_bytes(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1024..=1024 * 1024).contains(&n) => Ok(n),
        _ => Err("expected bytes, from 1024 to 1048576".to_owned()),
    }
}

/// The default of `--spin-us` (bench/README.md, "GetItem at concurrency 1").
pub const DEFAULT_SPIN_US: u64 = 50;

/// An AWS account id is 12 decimal digits.
fn parse_account_id(text: &str) -> Result<String, String> {
    if text.len() == 12 && text.bytes().all(|b| b.is_ascii_digit()) {
        Ok(text.to_owned())
    } else {
        Err("an account id is 12 digits".to_owned())
    }
}

fn parse_durability(text: &str) -> Result<Durability, String> {
    text.parse()
}

impl Args {
    /// How the listener serves (everything but the engine's own settings).
    pub fn serve_options(&self) -> crate::ServeOptions {
        crate::ServeOptions {
            spin: Duration::from_micros(self.spin_us),
            limits: crate::Limits {
                max_connections: self.max_connections,
                max_in_flight: self.max_in_flight,
                header_timeout: self.header_timeout,
                body_timeout: self.body_timeout,
                idle_timeout: self.idle_timeout,
                max_header_bytes: self.max_header_bytes,
            },
            auth: self.auth.clone(),
            allow_hosts: self.allow_hosts.clone(),
            gzip: !self.no_gzip,
            cors: !self.no_cors,
            cors_origins: self.cors_origins.clone(),
        }
    }

    /// Where the engine keeps its data.
    pub fn location(&self) -> Location {
        if self.in_memory {
            Location::InMemory
        } else {
            Location::File(self.db.clone())
        }
    }
}

/// The whole program: parses the arguments, serves until SIGINT/SIGTERM, exits 0, or prints the
/// reason and exits 1 when it cannot start.
pub fn main() -> ExitCode {
    let args = Args::parse();
    init_logging();
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => return fail(&ServerError::Serve(err)),
    };
    match runtime.block_on(run(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => fail(&err),
    }
}

fn fail(err: &ServerError) -> ExitCode {
    eprintln!("dynotable-local: {err}");
    ExitCode::FAILURE
}

/// Logs go to stderr (stdout carries only the ready line); `RUST_LOG` sets the level, e.g.
/// `RUST_LOG=dynotable_server=debug` logs every request.
fn init_logging() {
    use tracing_subscriber::EnvFilter;
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn,dynotable_server=info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr)
        .try_init();
}

/// Descriptors kept for the database, the listener, logs and the runtime beside the connections.
const OTHER_DESCRIPTORS: usize = 256;

/// Raises the soft limit on open descriptors (up to the hard limit) so that `--max-connections`
/// connections fit; says so when they cannot.
fn raise_descriptor_limit(max_connections: usize) {
    #[cfg(unix)]
    {
        let wanted = max_connections.saturating_add(OTHER_DESCRIPTORS) as u64;
        match rlimit::increase_nofile_limit(wanted) {
            Ok(limit) if limit < wanted => tracing::warn!(
                limit,
                "the descriptor limit allows about {} connections, fewer than --max-connections {max_connections}",
                limit.saturating_sub(OTHER_DESCRIPTORS as u64)
            ),
            Ok(_) => {}
            Err(err) => tracing::warn!(%err, "the descriptor limit could not be read or raised"),
        }
    }
    #[cfg(not(unix))]
    let _ = max_connections;
}

/// Opens the engine, binds, prints the ready line, serves until a signal, closes the engine.
pub async fn run(args: Args) -> Result<(), ServerError> {
    raise_descriptor_limit(args.max_connections);
    let address = format!("{}:{}", args.host, args.port);
    let listener = tokio::net::TcpListener::bind((args.host.as_str(), args.port))
        .await
        .map_err(|source| ServerError::Bind {
            address: address.clone(),
            source,
        })?;
    let local = listener
        .local_addr()
        .map_err(|source| ServerError::Bind { address, source })?;
    // DescribeEndpoints answers with the address this server listens on.
    let mut options = dynotable_engine::Options::new(args.location());
    options.endpoint_address = local.to_string();
    options.item_cache_bytes = args.cache_mb.saturating_mul(1024 * 1024);
    options.durability = args.durability;
    options.reader_mmap_bytes = args.mmap_mb.saturating_mul(1024 * 1024);
    options.reader_cache_bytes = args.reader_cache_mb.saturating_mul(1024 * 1024);
    options.collection_size_limit = args.collection_size_limit;
    options.account_id = args.account_id.clone();
    options.enforce_capacity = args.enforce_capacity;
    options.eventual_lag = args.eventual_lag.map(|ms| dynotable_engine::EventualLag {
        max_seconds: ms as f64 / 1000.0,
        seed: args.seed,
    });
    options.busy_timeout = args.busy_timeout;
    if let Some(step) = args.clock_step {
        let start = SystemClock.now_seconds().floor();
        options.clock = std::sync::Arc::new(RequestClock::new(start, step.as_secs_f64()));
    }
    let engine = Engine::open_with(options).await?;
    // Registered before the ready line, so a signal sent right after it is never the default
    // (abrupt) one.
    let signal = shutdown_signal().map_err(ServerError::Serve)?;

    // The one line on stdout. A closed stdout is not a reason to stop serving.
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "dynotable-local listening on http://{local}");
    let _ = stdout.flush();
    drop(stdout);
    tracing::info!(location = ?args.location(), %local, auth = args.auth.is_some(), "serving");

    let (signalled, mut signal_seen) = tokio::sync::watch::channel(false);
    let shutdown = async move {
        signal.await;
        tracing::info!("shutting down");
        let _ = signalled.send(true);
    };
    let grace_over = async move {
        let _ = signal_seen.wait_for(|seen| *seen).await;
        tokio::time::sleep(SHUTDOWN_GRACE).await;
    };
    tokio::select! {
        served = crate::serve_with(listener, engine.clone(), args.serve_options(), shutdown) => served?,
        () = grace_over => tracing::warn!("requests still in flight after {SHUTDOWN_GRACE:?}; stopping anyway"),
    }
    engine.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// A future that completes on the first SIGINT or SIGTERM (Ctrl-C elsewhere). The handlers are
/// installed when this returns, not when the future is first polled.
fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()> + Send + 'static> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        Ok(async move {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Args, clap::Error> {
        Args::try_parse_from(std::iter::once("dynotable-local").chain(args.iter().copied()))
    }

    #[test]
    fn defaults_are_loopback_8000_and_a_file() {
        let args = parse(&[]).unwrap();
        assert_eq!(args.host, "127.0.0.1");
        assert_eq!(args.port, 8000);
        assert_eq!(args.location(), Location::File(PathBuf::from("local.db")));
    }

    #[test]
    fn the_simulations_are_off_unless_asked_for() {
        let args = parse(&[]).unwrap();
        assert!(!args.enforce_capacity);
        assert_eq!(args.eventual_lag, None);
        let args = parse(&["--enforce-capacity", "--eventual-lag", "250", "--seed", "42"]).unwrap();
        assert!(args.enforce_capacity);
        assert_eq!((args.eventual_lag, args.seed), (Some(250), 42));
        // A seed means nothing without a lag; a lag of 0 or past an hour is refused.
        assert!(parse(&["--seed", "42"]).is_err());
        assert!(parse(&["--eventual-lag", "0"]).is_err());
        assert!(parse(&["--eventual-lag", "3600001"]).is_err());
    }

    #[test]
    fn the_test_aids_are_off_unless_asked_for() {
        let args = parse(&[]).unwrap();
        assert_eq!(args.clock_step, None);
        assert_eq!(args.busy_timeout, dynotable_engine::DEFAULT_BUSY_TIMEOUT);
        let args = parse(&["--clock-step", "0.5", "--busy-timeout", "3600"]).unwrap();
        assert_eq!(args.clock_step, Some(Duration::from_millis(500)));
        assert_eq!(args.busy_timeout, Duration::from_secs(3600));
        assert_eq!(
            parse(&["--clock-step", "0"]).unwrap().clock_step,
            Some(Duration::ZERO)
        );
        for bad in [
            ["--clock-step", "-1"],
            ["--clock-step", "NaN"],
            ["--clock-step", "86401"],
            ["--busy-timeout", "0"],
        ] {
            assert!(parse(&bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn in_memory_and_port_zero() {
        let args = parse(&["--port", "0", "--in-memory"]).unwrap();
        assert_eq!(args.port, 0);
        assert_eq!(args.location(), Location::InMemory);
    }

    #[test]
    fn db_and_in_memory_conflict() {
        assert!(parse(&["--db", "x.db", "--in-memory"]).is_err());
        let args = parse(&["--db", "data/x.db", "--host", "::1", "-p", "9000"]).unwrap();
        assert_eq!(args.location(), Location::File(PathBuf::from("data/x.db")));
        assert_eq!((args.host.as_str(), args.port), ("::1", 9000));
    }

    #[test]
    fn mmap_mb_defaults_to_256_and_zero_turns_it_off() {
        assert_eq!(parse(&[]).unwrap().mmap_mb, 256);
        assert_eq!(parse(&["--mmap-mb", "0"]).unwrap().mmap_mb, 0);
        assert_eq!(parse(&["--mmap-mb", "2048"]).unwrap().mmap_mb, 2048);
        assert!(parse(&["--mmap-mb", "-1"]).is_err());
    }

    #[test]
    fn the_account_id_defaults_to_zeros_and_is_12_digits() {
        assert_eq!(parse(&[]).unwrap().account_id, "000000000000");
        assert_eq!(
            parse(&["--account-id", "123456789012"]).unwrap().account_id,
            "123456789012"
        );
        assert!(parse(&["--account-id", "12345"]).is_err());
        assert!(parse(&["--account-id", "12345678901x"]).is_err());
    }

    #[test]
    fn collection_size_limit_defaults_to_10_gb() {
        assert_eq!(parse(&[]).unwrap().collection_size_limit, 10 * 1024 * 1024 * 1024);
        assert_eq!(
            parse(&["--collection-size-limit", "6144"])
                .unwrap()
                .collection_size_limit,
            6144
        );
        assert!(parse(&["--collection-size-limit", "ten"]).is_err());
    }

    #[test]
    fn reader_cache_mb_defaults_to_16() {
        assert_eq!(parse(&[]).unwrap().reader_cache_mb, 16);
        assert_eq!(parse(&["--reader-cache-mb", "2"]).unwrap().reader_cache_mb, 2);
    }

    #[test]
    fn cache_mb_defaults_to_64_and_zero_turns_it_off() {
        assert_eq!(parse(&[]).unwrap().cache_mb, 64);
        assert_eq!(parse(&["--cache-mb", "0"]).unwrap().cache_mb, 0);
        assert_eq!(parse(&["--cache-mb", "256"]).unwrap().cache_mb, 256);
        assert!(parse(&["--cache-mb", "-1"]).is_err());
    }

    #[test]
    fn durability_defaults_to_process_and_power_loss_is_accepted() {
        assert_eq!(parse(&[]).unwrap().durability, Durability::Process);
        assert_eq!(
            parse(&["--durability", "process"]).unwrap().durability,
            Durability::Process
        );
        assert_eq!(
            parse(&["--durability", "power-loss"]).unwrap().durability,
            Durability::PowerLoss
        );
        let err = parse(&["--durability", "fsync"]).unwrap_err().to_string();
        assert!(err.contains("expected `process` or `power-loss`"), "{err}");
    }

    #[test]
    fn spin_us_defaults_to_the_measured_window_and_zero_turns_it_off() {
        assert_eq!(parse(&[]).unwrap().spin_us, DEFAULT_SPIN_US);
        assert_eq!(parse(&["--spin-us", "0"]).unwrap().spin_us, 0);
        assert_eq!(parse(&["--spin-us", "100"]).unwrap().spin_us, 100);
        assert!(parse(&["--spin-us", "-5"]).is_err());
    }

    #[test]
    fn auth_hosts_gzip_cors_and_limits() {
        let defaults = parse(&[]).unwrap().serve_options();
        assert_eq!(defaults.auth, None);
        assert!(defaults.gzip && defaults.cors);
        assert_eq!(defaults.limits, crate::Limits::default());
        let args = parse(&[
            "--auth",
            "AKID:secret:with:colons",
            "--allow-host",
            "dynamo.test",
            "--no-gzip",
            "--no-cors",
            "--max-connections",
            "100",
            "--max-in-flight",
            "8",
            "--header-timeout",
            "1.5",
            "--body-timeout",
            "2",
            "--idle-timeout",
            "3",
            "--max-header-bytes",
            "4096",
        ])
        .unwrap();
        let options = args.serve_options();
        let auth = options.auth.unwrap();
        assert_eq!(
            (auth.access_key.as_str(), auth.secret.as_str()),
            ("AKID", "secret:with:colons")
        );
        assert_eq!(options.allow_hosts, ["dynamo.test"]);
        assert!(!options.gzip && !options.cors);
        assert_eq!(
            options.limits,
            crate::Limits {
                max_connections: 100,
                max_in_flight: 8,
                header_timeout: Duration::from_millis(1500),
                body_timeout: Duration::from_secs(2),
                idle_timeout: Duration::from_secs(3),
                max_header_bytes: 4096,
            }
        );
        assert!(parse(&["--auth", "nosecret"]).is_err());
        assert!(parse(&["--max-connections", "0"]).is_err());
        assert!(parse(&["--header-timeout", "0"]).is_err());
        assert!(parse(&["--max-header-bytes", "100"]).is_err());
    }

    #[test]
    fn bad_port_is_refused() {
        assert!(parse(&["--port", "70000"]).is_err());
        assert!(parse(&["--port", "x"]).is_err());
    }
}
