//! Runs the real `dynotable-local` binary on an ephemeral loopback port and builds SDK clients
//! for it.
//!
//! # Finding the binary
//!
//! `env!("CARGO_BIN_EXE_dynotable-local")` only exists inside the package that owns the binary,
//! and cargo has no stable way to make one package's binary an artifact of another
//! (`-Z bindeps` is nightly). Putting these tests in dynotable-server instead would make that
//! crate compile the AWS SDK, which the workspace keeps out of `crates/` (scripts/check-headless).
//! So this crate finds the binary where cargo puts it, beside the `deps/` folder holding this test
//! executable (`target/debug/dynotable-local`):
//!
//! - `cargo test --workspace` (what `make test` runs) builds it before any test runs, because
//!   dynotable-server has integration tests of its own.
//! - `cargo test -p dynotable-blackbox` alone does not; when the binary is missing, or older than
//!   a source file of the crates it is made of, this module runs
//!   `cargo build -p dynotable-server --bin dynotable-local` once (cargo releases its build lock
//!   before it runs tests, so this does not deadlock).
//! - `DYNOTABLE_LOCAL_BIN=/path/to/dynotable-local` overrides all of this.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{OnceLock, mpsc};
use std::time::{Duration, SystemTime};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::timeout::TimeoutConfig;
use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};

/// A running `dynotable-local`. Dropping it kills the process (also when a test panics).
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`, from the ready line.
    pub endpoint: String,
    log: PathBuf,
    _logs: tempfile::TempDir,
}

impl Server {
    /// A server with an in-memory database.
    pub fn in_memory() -> Server {
        Server::start(&["--in-memory"])
    }

    /// A server on a database file (created if missing).
    pub fn on_file(db: &Path) -> Server {
        Server::start(&["--db", db.to_str().expect("a UTF-8 path")])
    }

    fn start(args: &[&str]) -> Server {
        let logs = tempfile::tempdir().unwrap();
        let log = logs.path().join("dynotable-local.stderr");
        let mut child = Command::new(binary())
            .args(["--host", "127.0.0.1", "--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("dynotable-local starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        // Owned by the guard from here on: a failed check below still kills the process.
        let mut server = Server {
            endpoint: String::new(),
            child,
            log,
            _logs: logs,
        };
        let line = rx.recv_timeout(Duration::from_secs(30)).unwrap_or_default();
        let Some(address) = line.trim_end().strip_prefix("dynotable-local listening on ") else {
            panic!(
                "dynotable-local printed {line:?} instead of its ready line; stderr:\n{}",
                server.logs()
            );
        };
        assert!(
            address.starts_with("http://127.0.0.1:"),
            "loopback only: {address}"
        );
        server.endpoint = address.to_owned();
        server
    }

    /// A client with static credentials, us-east-1, this server as its endpoint, and no retries
    /// (a test must see every failure).
    pub fn client(&self) -> Client {
        client_for(&self.endpoint)
    }

    /// A DynamoDB Streams client for this server (same endpoint, same settings as [`client`]).
    ///
    /// [`client`]: Server::client
    pub fn streams_client(&self) -> aws_sdk_dynamodbstreams::Client {
        streams_client_for(&self.endpoint)
    }

    /// `kill -9`: no signal handler runs, nothing is flushed or closed.
    pub fn kill(&mut self) {
        self.child.kill().expect("SIGKILL");
        let status = self.child.wait().unwrap();
        assert!(!status.success(), "killed, not exited: {status:?}");
    }

    /// What the server logged (stderr).
    pub fn logs(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An SDK client for `endpoint`.
pub fn client_for(endpoint: &str) -> Client {
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new(
            "AKIDBLACKBOX",
            "blackbox-secret",
            None,
            None,
            "blackbox",
        ))
        .endpoint_url(endpoint)
        .retry_config(RetryConfig::disabled())
        .timeout_config(
            TimeoutConfig::builder()
                .connect_timeout(Duration::from_secs(5))
                .operation_timeout(Duration::from_secs(30))
                .build(),
        )
        .build();
    Client::from_conf(config)
}

/// A DynamoDB Streams client for `endpoint`: the `DynamoDBStreams_20120810` target is served on
/// the same endpoint as DynamoDB itself.
pub fn streams_client_for(endpoint: &str) -> aws_sdk_dynamodbstreams::Client {
    use aws_sdk_dynamodbstreams::config as streams;
    let config = aws_sdk_dynamodbstreams::Config::builder()
        .behavior_version(streams::BehaviorVersion::latest())
        .region(streams::Region::new("us-east-1"))
        .credentials_provider(streams::Credentials::new(
            "AKIDBLACKBOX",
            "blackbox-secret",
            None,
            None,
            "blackbox",
        ))
        .endpoint_url(endpoint)
        .retry_config(streams::retry::RetryConfig::disabled())
        .timeout_config(
            streams::timeout::TimeoutConfig::builder()
                .connect_timeout(Duration::from_secs(5))
                .operation_timeout(Duration::from_secs(30))
                .build(),
        )
        .build();
    aws_sdk_dynamodbstreams::Client::from_conf(config)
}

/// The `dynotable-local` binary to test; see the module documentation.
pub fn binary() -> PathBuf {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(locate_binary).clone()
}

fn locate_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("DYNOTABLE_LOCAL_BIN") {
        return PathBuf::from(path);
    }
    // target/<profile>/deps/sdk-<hash> → target/<profile>
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps");
    let binary = profile_dir.join(format!("dynotable-local{}", std::env::consts::EXE_SUFFIX));
    if is_fresh(&binary) {
        return binary;
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut build = Command::new(cargo);
    build
        .current_dir(workspace_root())
        .args(["build", "-p", "dynotable-server", "--bin", "dynotable-local"])
        .env("CARGO_TARGET_DIR", profile_dir.parent().unwrap());
    if profile_dir.file_name().is_some_and(|name| name == "release") {
        build.arg("--release");
    }
    let status = build.status().expect("cargo runs");
    assert!(status.success(), "cargo build -p dynotable-server failed");
    assert!(binary.exists(), "{} was not built", binary.display());
    binary
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The binary exists and is newer than every source of the crates it is built from.
fn is_fresh(binary: &Path) -> bool {
    let Ok(built) = binary.metadata().and_then(|m| m.modified()) else {
        return false;
    };
    let root = workspace_root();
    let mut newest = SystemTime::UNIX_EPOCH;
    for krate in [
        "dynotable-server",
        "dynotable-engine",
        "dynotable-expr",
        "dynotable-types",
    ] {
        for part in ["src", "migrations", "Cargo.toml"] {
            newest_in(&root.join("crates").join(krate).join(part), &mut newest);
        }
    }
    built >= newest
}

fn newest_in(path: &Path, newest: &mut SystemTime) {
    let Ok(metadata) = path.metadata() else { return };
    if metadata.is_dir() {
        for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
            newest_in(&entry.path(), newest);
        }
    } else if let Ok(modified) = metadata.modified() {
        *newest = (*newest).max(modified);
    }
}

/// The crash tests' kill: waits until `acknowledged()` reaches `threshold` (failing if any writer
/// stops early or `patience` runs out), marks `killed`, kills the server with SIGKILL, and waits
/// for the writers, which must end at their first failed write after the kill.
pub async fn kill_mid_load(
    server: &mut Server,
    writers: Vec<tokio::task::JoinHandle<()>>,
    killed: &std::sync::atomic::AtomicBool,
    threshold: usize,
    patience: Duration,
    acknowledged: impl Fn() -> usize,
) {
    let deadline = std::time::Instant::now() + patience;
    while acknowledged() < threshold {
        assert!(
            std::time::Instant::now() < deadline,
            "the load did not get going: {}",
            server.logs()
        );
        for writer in &writers {
            assert!(!writer.is_finished(), "a writer stopped early");
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    killed.store(true, std::sync::atomic::Ordering::SeqCst);
    server.kill();
    for writer in writers {
        writer.await.expect("writer task");
    }
}
