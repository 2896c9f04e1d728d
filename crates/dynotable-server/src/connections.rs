//! The connection loop: accepts under a connection cap, serves each connection with hyper's
//! HTTP/1.1 server (header-read timeout, bounded request head), closes a connection whose answer
//! stops moving, and shuts down gracefully.
//!
//! What a client can hold, and for how long ([`Limits`], all set by `dynotable-local` flags):
//! - **Connections**: at most `max_connections` are served at once. The next one is not accepted
//!   (it waits in the kernel's backlog) until one closes, so a flood of idle connections cannot
//!   take more than that many descriptors and tasks.
//! - **The request head** must arrive within `header_timeout`, counted from when the connection
//!   starts waiting for it: a client sending its headers a byte at a time is cut off, and so is
//!   a kept-alive connection that sends no next request (hyper's `header_read_timeout`). A head
//!   above `max_header_bytes` is answered `431` and the connection closed, by hyper.
//! - **The body** must arrive within `body_timeout` (the API handler's, see the crate docs).
//! - **An answer** that moves no byte for `idle_timeout` (a client that stopped reading) closes
//!   the connection ([`Watched`]).
//! - **Requests in flight** (past their head, until their answer is ready) are bounded by
//!   `max_in_flight`, a semaphore in front of the API: more wait for a turn.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{Semaphore, watch};

use crate::busy_poll::{SpinningListener, SpinningStream};

/// The bounds a local endpoint puts on its clients (module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    pub max_connections: usize,
    pub max_in_flight: usize,
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    pub idle_timeout: Duration,
    pub max_header_bytes: usize,
}

/// hyper's own default header-read timeout.
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(30);
/// The default bound on connections: far more than any client pool opens, far fewer than a
/// descriptor limit of 20,000 allows; each idle connection costs a task and a small buffer.
pub const DEFAULT_MAX_CONNECTIONS: usize = 8192;
/// The default bound on requests in flight: many more than the cores, so a burst of slow reads
/// queues inside the engine rather than here, but few enough that 16 MB bodies cannot exhaust
/// memory (at most 4 GB of bodies at once).
pub const DEFAULT_MAX_IN_FLIGHT: usize = 256;
/// The largest request head (request line and headers) accepted; an SDK's is about 1 to 2 KB,
/// with a session token.
pub const DEFAULT_MAX_HEADER_BYTES: usize = 16 * 1024;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: Duration::from_secs(60),
            idle_timeout: Duration::from_secs(60),
            max_header_bytes: DEFAULT_MAX_HEADER_BYTES,
        }
    }
}

/// hyper's read buffer: the head must fit, and a body is read in pieces of at most this.
const MAX_READ_BUFFER: usize = 64 * 1024;

/// Serves `app` on `listener` until `shutdown` completes, then lets the connections finish their
/// requests in flight (idle ones close at once).
pub(crate) async fn serve(
    mut listener: SpinningListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let (stop_tx, stop_rx) = watch::channel(false);
    // Every connection task holds a receiver; `closed()` completes when all are gone.
    let (open_tx, open_rx) = watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        let (stream, _) = tokio::select! {
            accepted = axum::serve::Listener::accept(&mut listener) => accepted,
            () = &mut shutdown => break,
        };
        let app = app.clone();
        let limits = limits.clone();
        let stop = stop_rx.clone();
        let open = open_rx.clone();
        tokio::spawn(async move {
            serve_connection(stream, app, &limits, stop).await;
            drop(slot);
            drop(open);
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    drop(open_rx);
    open_tx.closed().await;
}

/// One connection, to its end: closed by the client, by a timeout, or by the shutdown.
async fn serve_connection(
    stream: SpinningStream,
    app: Router,
    limits: &Limits,
    mut stop: watch::Receiver<bool>,
) {
    let stalled_since = Arc::new(AtomicU64::new(NOT_STALLED));
    let io = TokioIo::new(Watched {
        inner: stream,
        stalled_since: stalled_since.clone(),
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_buf_size(MAX_READ_BUFFER.max(limits.max_header_bytes + 1024))
        .max_header_size(limits.max_header_bytes)
        .keep_alive(true);
    let connection = builder.serve_connection(io, TowerToHyperService::new(app));
    let mut connection = std::pin::pin!(connection);
    let mut stopping = false;
    loop {
        // Wakes once per idle timeout while answers go through (no cost for an idle
        // connection beyond that), and when a stalled answer reaches the timeout.
        let stalled = stalled_for(&stalled_since);
        let next_look = limits
            .idle_timeout
            .saturating_sub(stalled)
            .max(Duration::from_millis(10));
        tokio::select! {
            served = connection.as_mut() => {
                if let Err(err) = served {
                    tracing::debug!(%err, "connection ended with an error");
                }
                return;
            }
            _ = stop.wait_for(|stop| *stop), if !stopping => {
                stopping = true;
                connection.as_mut().graceful_shutdown();
            }
            () = tokio::time::sleep(next_look) => {
                if stalled_for(&stalled_since) >= limits.idle_timeout {
                    tracing::debug!("closing a connection whose answer has not moved for {:?}", limits.idle_timeout);
                    return;
                }
            }
        }
    }
}

/// The value of a stall clock while writes are going through.
const NOT_STALLED: u64 = u64::MAX;

/// How long the writes of the connection whose clock this is have been stuck.
fn stalled_for(stalled_since: &AtomicU64) -> Duration {
    match stalled_since.load(Ordering::Relaxed) {
        NOT_STALLED => Duration::ZERO,
        since => Duration::from_micros(micros_now().saturating_sub(since)),
    }
}

fn micros_now() -> u64 {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let epoch = *EPOCH.get_or_init(Instant::now);
    u64::try_from(epoch.elapsed().as_micros()).unwrap_or(NOT_STALLED - 1)
}

/// A connection whose writes are watched: the time since the first write that could not go
/// through (the client's receive window full) and has not gone through since.
pub(crate) struct Watched<T> {
    inner: T,
    stalled_since: Arc<AtomicU64>,
}

impl<T> Watched<T> {
    fn record<R>(&self, written: &Poll<R>) {
        match written {
            Poll::Pending => {
                let _ = self.stalled_since.compare_exchange(
                    NOT_STALLED,
                    micros_now(),
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                );
            }
            Poll::Ready(_) => self.stalled_since.store(NOT_STALLED, Ordering::Relaxed),
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Watched<T> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Watched<T> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.inner).poll_write(cx, data);
        this.record(&written);
        written
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.inner).poll_write_vectored(cx, data);
        this.record(&written);
        written
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}
