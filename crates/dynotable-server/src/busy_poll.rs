//! A bounded busy-poll after each answer: the connection that has just answered a request keeps
//! looking at its socket for a short window before it goes back to sleep in the runtime.
//!
//! # Why
//!
//! At concurrency 1 a client and the server take turns: the server answers, then waits for the
//! next request, which arrives a few microseconds later. A tokio worker with nothing to do parks
//! in `epoll_wait`, and the next request then has to wake it; on a virtual machine whose idle
//! vCPUs halt (this project's benchmark machine, bench/README.md "GetItem at concurrency 1"),
//! that wake-up goes through the host and costs more than the whole request. A server that never
//! sleeps answered about three times as many GetItems per second at concurrency 1 as the same
//! server sleeping; this module buys most of that for a bounded amount of CPU.
//!
//! # How
//!
//! [`SpinningListener`] accepts like tokio's listener and wraps each connection in a
//! [`SpinningStream`]. A write marks the connection as having answered. The next read that finds
//! the socket empty (hyper asks for the next request right after writing a response) first spins
//! for at most the window: it peeks at the socket (`recv` with `MSG_PEEK`, non-blocking, through
//! `socket2` on the socket's own descriptor, with no waker registered) until a byte, the end of
//! the stream or an error shows up. A request that arrives in the window is read at once, on the
//! worker that is already running, with no wake-up; the end of the stream ends the connection as
//! a read of 0 bytes would. When the window passes, the read goes to tokio as before and the
//! worker sleeps. An idle server therefore burns at most one window per answer, then nothing.
//!
//! Reading past tokio's readiness state is safe: every arrival of data raises an edge that the
//! runtime records, so a later read through tokio sees the socket readable and tries; it clears
//! readiness only after a read that would block.
//!
//! # When it does not spin
//!
//! The spin runs on the worker thread, inside the connection task's poll, so it must not hold up
//! other work, and on a machine with few cores it must not hold up the client either. It starts,
//! and goes on, only while all of these hold:
//!
//! - at most [`MAX_OPEN_CONNECTIONS_TO_SPIN`] connections are open (a client taking turns with
//!   the server uses one; concurrent clients keep the workers busy without a spin);
//! - no other connection is spinning (one spinner per process: with two or more workers, one is
//!   always free);
//! - no request is being served ([`RequestInFlight`]), no connection's task has been woken by
//!   its request's arrival without having read it yet ([`CountedWaker`]: such a task may be
//!   queued behind this one on the same worker), the latest request to arrive came on this
//!   connection, and no task waits in the runtime's global queue (work from outside the
//!   workers, such as an engine call woken by SQLite's thread).
//!
//! Between two looks at the socket the spinner yields its CPU (`sched_yield`): a thread ready
//! to run there (the client, or anything else on a busy machine) runs first; with none, the
//! yield returns at once and the CPU does not go idle. A gap between two looks longer than
//! [`CONTENDED_GAP`] (a yield that let another thread run a time slice, or a preemption) means
//! other threads want the CPU: on such a busy machine the spinner is no longer first in line
//! when the request arrives (a thread woken from sleep is), so spins stop, for every
//! connection of the listener, for [`CONTENDED_BACK_OFF`]. A window of zero turns all of this
//! off and the connection reads exactly as tokio's would.

use std::io::{self, Read};
use std::mem::MaybeUninit;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll, Wake, Waker};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// Requests being served now, process-wide (see [`RequestInFlight`]).
static REQUESTS_IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);
/// Connections spinning now, process-wide: 0 or 1.
static SPINNERS: AtomicUsize = AtomicUsize::new(0);
/// The id of the connection whose request arrived last, process-wide (0: none yet).
static LAST_REQUEST_ON: AtomicU64 = AtomicU64::new(0);
/// Connections whose read was woken (their request has arrived) and whose task has not yet
/// read it: requests waiting for a worker, which a spin must not keep waiting.
static READS_WOKEN: AtomicUsize = AtomicUsize::new(0);
/// Connections open now, process-wide.
static OPEN_CONNECTIONS: AtomicUsize = AtomicUsize::new(0);
/// No connection spins while more than this many are open: a client that takes turns with the
/// server talks on one connection (and perhaps one more, idle in its pool); many connections
/// mean concurrent clients, which keep the workers busy without a spin, and a spin there only
/// takes a core from them (or, on a small machine, from the client itself).
const MAX_OPEN_CONNECTIONS_TO_SPIN: usize = 2;
/// A gap longer than this between two looks at the socket means another thread had the
/// spinner's CPU for a whole time slice (the scheduler's are 0.75 ms or more): the machine is
/// busy. A shorter one may have let the client itself run, answering or sending its next
/// request, which is no reason to stop.
const CONTENDED_GAP: Duration = Duration::from_micros(250);
/// How long no connection spins after a spinner found its CPU wanted by another thread.
const CONTENDED_BACK_OFF: Duration = Duration::from_secs(1);
/// The last connection id handed out.
static CONNECTIONS: AtomicU64 = AtomicU64::new(0);

/// Counts one request as being served while it lives; a spin neither starts nor goes on while
/// any is. Held by the API handler from the start of a request to its response.
pub(crate) struct RequestInFlight(());

impl RequestInFlight {
    pub(crate) fn start() -> RequestInFlight {
        REQUESTS_IN_FLIGHT.fetch_add(1, Ordering::Relaxed);
        RequestInFlight(())
    }
}

impl Drop for RequestInFlight {
    fn drop(&mut self) {
        REQUESTS_IN_FLIGHT.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The right to spin, held by at most one connection at a time.
struct SpinTurn(());

impl SpinTurn {
    fn claim() -> Option<SpinTurn> {
        SPINNERS
            .compare_exchange(0, 1, Ordering::Acquire, Ordering::Relaxed)
            .ok()
            .map(|_| SpinTurn(()))
    }
}

impl Drop for SpinTurn {
    fn drop(&mut self) {
        SPINNERS.store(0, Ordering::Release);
    }
}

/// Whether something else wants the worker, seen from connection `id`: more connections open
/// than [`MAX_OPEN_CONNECTIONS_TO_SPIN`], a request being served,
/// a connection's task woken by its request's arrival and not yet run, a request that arrived on
/// another connection since this one's, or a task waiting in the runtime's global queue.
fn work_elsewhere(id: u64, runtime: Option<&tokio::runtime::Handle>) -> bool {
    REQUESTS_IN_FLIGHT.load(Ordering::Relaxed) > 0
        || OPEN_CONNECTIONS.load(Ordering::Relaxed) > MAX_OPEN_CONNECTIONS_TO_SPIN
        || READS_WOKEN.load(Ordering::Relaxed) > 0
        || LAST_REQUEST_ON.load(Ordering::Relaxed) != id
        || runtime.is_some_and(|runtime| runtime.metrics().global_queue_depth() > 0)
}

/// The instant the spin's clock counts from (the first use).
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn micros_since_epoch(at: Instant) -> u64 {
    u64::try_from(at.saturating_duration_since(epoch()).as_micros()).unwrap_or(u64::MAX)
}

/// How the connections of one listener spin, and their shared back-off.
pub(crate) struct SpinPolicy {
    /// How long a connection spins after each answer; zero never spins.
    window: Duration,
    /// A gap between two looks longer than this means the CPU is contended ([`CONTENDED_GAP`]).
    contended_gap: Duration,
    /// Microseconds since [`epoch`] before which no connection spins.
    no_spin_until_us: AtomicU64,
}

impl SpinPolicy {
    pub(crate) fn new(window: Duration) -> Arc<SpinPolicy> {
        SpinPolicy::with_contended_gap(window, CONTENDED_GAP)
    }

    fn with_contended_gap(window: Duration, contended_gap: Duration) -> Arc<SpinPolicy> {
        Arc::new(SpinPolicy {
            window,
            contended_gap,
            no_spin_until_us: AtomicU64::new(0),
        })
    }

    /// Whether spins are off for now, because a spinner lately found its CPU contended.
    fn backing_off(&self, now: Instant) -> bool {
        micros_since_epoch(now) < self.no_spin_until_us.load(Ordering::Relaxed)
    }

    /// Turns spins off for [`CONTENDED_BACK_OFF`] from `now`.
    fn back_off(&self, now: Instant) {
        self.no_spin_until_us
            .store(micros_since_epoch(now + CONTENDED_BACK_OFF), Ordering::Relaxed);
    }
}

/// tokio's TCP listener, handing out [`SpinningStream`]s with `TCP_NODELAY` set.
pub(crate) struct SpinningListener {
    listener: TcpListener,
    policy: Arc<SpinPolicy>,
}

impl SpinningListener {
    /// `window`: how long a connection spins after each answer; zero never spins.
    pub(crate) fn new(listener: TcpListener, window: Duration) -> SpinningListener {
        SpinningListener {
            listener,
            policy: SpinPolicy::new(window),
        }
    }
}

impl axum::serve::Listener for SpinningListener {
    type Io = SpinningStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (SpinningStream, SocketAddr) {
        // axum's own accept loop for TCP: it retries (and backs off on) failed accepts.
        let (tcp, addr) = axum::serve::Listener::accept(&mut self.listener).await;
        // Small request/response pairs on a kept-alive connection must not wait for Nagle.
        if let Err(err) = tcp.set_nodelay(true) {
            tracing::debug!(%err, "could not set TCP_NODELAY");
        }
        (SpinningStream::new(tcp, self.policy.clone()), addr)
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

/// A TCP connection that spins for up to its window on the first read after each write.
pub(crate) struct SpinningStream {
    tcp: TcpStream,
    /// This connection's id, for [`LAST_REQUEST_ON`].
    id: u64,
    policy: Arc<SpinPolicy>,
    /// `policy.window`, at hand.
    window: Duration,
    /// A write happened since the last read: the next read may spin.
    answered: bool,
    /// The waker of the last read that found nothing, as registered with tokio.
    read_waker: Option<Arc<CountedWaker>>,
}

/// The waker a read registers with tokio: the task's own, counting in [`READS_WOKEN`] that
/// the task has something to read until it reads.
struct CountedWaker {
    task: Waker,
    /// Woken, or retired by the read that followed: either way, counted no more.
    done: AtomicBool,
}

impl CountedWaker {
    /// The read that follows: takes the waker out of the count if its wake-up put it in.
    fn retire(&self) {
        if self.done.swap(true, Ordering::AcqRel) {
            // Woken before: it was counted.
            READS_WOKEN.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

impl Wake for CountedWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        if !self.done.swap(true, Ordering::AcqRel) {
            READS_WOKEN.fetch_add(1, Ordering::Relaxed);
        }
        self.task.wake_by_ref();
    }
}

impl SpinningStream {
    pub(crate) fn new(tcp: TcpStream, policy: Arc<SpinPolicy>) -> SpinningStream {
        OPEN_CONNECTIONS.fetch_add(1, Ordering::Relaxed);
        SpinningStream {
            tcp,
            id: CONNECTIONS.fetch_add(1, Ordering::Relaxed) + 1,
            window: policy.window,
            policy,
            answered: false,
            read_waker: None,
        }
    }

    /// Waits, spinning, for the socket to have something to read, for at most the window.
    /// `Some` is the read's outcome (bytes in `buf`, nothing for the end of the stream, or an
    /// error); `None` means the window passed empty, or the spin did not or could not go on.
    fn spin(&mut self, buf: &mut ReadBuf<'_>) -> Option<io::Result<()>> {
        let runtime = tokio::runtime::Handle::try_current().ok();
        if work_elsewhere(self.id, runtime.as_ref()) || self.policy.backing_off(Instant::now()) {
            return None;
        }
        let _turn = SpinTurn::claim()?;
        let socket = socket2::SockRef::from(&self.tcp);
        let mut last = Instant::now();
        let deadline = last + self.window;
        let mut probe = [MaybeUninit::<u8>::uninit(); 1];
        loop {
            match socket.peek(&mut probe) {
                // The client closed the connection: a read of nothing tells hyper so.
                Ok(0) => return Some(Ok(())),
                Ok(_) => {
                    let read = (&*socket).read(buf.initialize_unfilled());
                    return Some(read.map(|n| buf.advance(n)));
                }
                Err(err) if err.kind() == io::ErrorKind::WouldBlock => {}
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Some(Err(err)),
            }
            let now = Instant::now();
            if now.saturating_duration_since(last) > self.policy.contended_gap {
                // Another thread had this CPU for a while (a yield that let it run, or a
                // preemption): a busy machine, where a spinning worker, no longer first in line
                // when the request comes, answers later than a sleeping one woken for it.
                self.policy.back_off(now);
                return None;
            }
            if now >= deadline || work_elsewhere(self.id, runtime.as_ref()) {
                return None;
            }
            // Any other thread ready to run on this CPU (the client, on a machine with few cores)
            // runs first; with none, this returns at once and the CPU does not go idle.
            std::thread::yield_now();
            last = now;
        }
    }
}

impl Drop for SpinningStream {
    fn drop(&mut self) {
        OPEN_CONNECTIONS.fetch_sub(1, Ordering::Relaxed);
        if let Some(waker) = self.read_waker.take() {
            waker.retire();
        }
    }
}

impl AsyncRead for SpinningStream {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Some(waker) = this.read_waker.take() {
            waker.retire();
        }
        let before = buf.filled().len();
        let mut read = None;
        if std::mem::take(&mut this.answered) && !this.window.is_zero() && buf.remaining() > 0 {
            read = this.spin(buf).map(Poll::Ready);
        }
        // With spins impossible (off, or too many connections open) a read is tokio's alone:
        // no counted waker, no bookkeeping (a task woken now is not counted when the
        // connections drop back, which can let one spin start within a window of it).
        let may_spin = !this.window.is_zero()
            && OPEN_CONNECTIONS.load(Ordering::Relaxed) <= MAX_OPEN_CONNECTIONS_TO_SPIN;
        let read = read.unwrap_or_else(|| {
            if !may_spin {
                return Pin::new(&mut this.tcp).poll_read(cx, buf);
            }
            let waker = Arc::new(CountedWaker {
                task: cx.waker().clone(),
                done: AtomicBool::new(false),
            });
            let counted = Waker::from(waker.clone());
            let read = Pin::new(&mut this.tcp).poll_read(&mut Context::from_waker(&counted), buf);
            if read.is_pending() {
                this.read_waker = Some(waker);
            } else {
                // tokio may have registered it and still read (readiness that came while it
                // registered): a later wake-up of it must not count as a waiting request.
                waker.retire();
            }
            read
        });
        if may_spin && buf.filled().len() > before {
            LAST_REQUEST_ON.store(this.id, Ordering::Relaxed);
        }
        read
    }
}

impl AsyncWrite for SpinningStream {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.tcp).poll_write(cx, data);
        if matches!(written, Poll::Ready(Ok(_))) {
            this.answered = true;
        }
        written
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = Pin::new(&mut this.tcp).poll_write_vectored(cx, data);
        if matches!(written, Poll::Ready(Ok(_))) {
            this.answered = true;
        }
        written
    }

    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().tcp).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// The spin is process-wide (one spinner, no spin while a request is in flight): these tests
    /// take turns.
    static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

    /// A server-side `SpinningStream` with `window`, the client's blocking socket, and a first
    /// request read and answered (so the next read may spin).
    async fn answered_pair(window: Duration) -> (SpinningStream, std::net::TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let client = tokio::task::spawn_blocking(move || std::net::TcpStream::connect(addr));
        let (tcp, _) = listener.accept().await.unwrap();
        let mut client = client.await.unwrap().unwrap();
        // Never backing off: these tests check what a spin does, on a machine that may be busy.
        let mut server = SpinningStream::new(tcp, SpinPolicy::with_contended_gap(window, Duration::MAX));
        client.write_all(b"request").unwrap();
        let mut request = [0u8; 7];
        server.read_exact(&mut request).await.unwrap();
        assert_eq!(&request, b"request");
        server.write_all(b"answer").await.unwrap();
        let mut answer = [0u8; 6];
        std::io::Read::read_exact(&mut client, &mut answer).unwrap();
        assert_eq!(&answer, b"answer");
        (server, client)
    }

    /// Polls one read once, with a waker that does nothing: `Ready` only if the bytes were
    /// there, or arrived while the read spun.
    fn poll_once(server: &mut SpinningStream, into: &mut [u8]) -> Poll<io::Result<usize>> {
        let mut buf = ReadBuf::new(into);
        let mut cx = Context::from_waker(std::task::Waker::noop());
        let read = Pin::new(&mut *server).poll_read(&mut cx, &mut buf);
        read.map(|done| done.map(|()| buf.filled().len()))
    }

    /// Sends `bytes` (or closes the connection, for `None`) from another thread after `delay`.
    fn later(mut client: std::net::TcpStream, delay: Duration, bytes: Option<&'static [u8]>) {
        std::thread::spawn(move || {
            std::thread::sleep(delay);
            match bytes {
                Some(bytes) => client.write_all(bytes).unwrap(),
                None => drop(client),
            }
        });
    }

    #[tokio::test]
    async fn a_request_arriving_within_the_window_is_read_by_the_spin() {
        let _turn = ONE_AT_A_TIME.lock().await;
        let (mut server, client) = answered_pair(Duration::from_secs(10)).await;
        later(client, Duration::from_millis(20), Some(b"next request"));
        let mut into = [0u8; 64];
        let started = Instant::now();
        let Poll::Ready(Ok(n)) = poll_once(&mut server, &mut into) else {
            panic!("the read did not wait for the request in its window");
        };
        assert_eq!(&into[..n], b"next request");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }

    #[tokio::test]
    async fn a_request_after_the_window_is_read_once_the_runtime_wakes_the_task() {
        let _turn = ONE_AT_A_TIME.lock().await;
        let (mut server, client) = answered_pair(Duration::from_millis(5)).await;
        later(client, Duration::from_millis(200), Some(b"late request"));
        let mut into = [0u8; 64];
        let started = Instant::now();
        // Pending: the spin ended before the request came at 200 ms; and not before its window.
        assert!(poll_once(&mut server, &mut into).is_pending());
        let spun = started.elapsed();
        assert!(spun >= Duration::from_millis(5), "{spun:?}");
        let n = tokio::time::timeout(Duration::from_secs(10), server.read(&mut into))
            .await
            .expect("the late request is read")
            .unwrap();
        assert_eq!(&into[..n], b"late request");
    }

    #[tokio::test]
    async fn a_connection_closed_during_the_spin_reads_as_its_end() {
        let _turn = ONE_AT_A_TIME.lock().await;
        let (mut server, client) = answered_pair(Duration::from_secs(10)).await;
        later(client, Duration::from_millis(20), None);
        let mut into = [0u8; 64];
        assert!(matches!(poll_once(&mut server, &mut into), Poll::Ready(Ok(0))));
        // The turn to spin is given back: the next connection spins.
        let (mut next, client) = answered_pair(Duration::from_secs(10)).await;
        later(client, Duration::from_millis(20), Some(b"x"));
        assert!(matches!(poll_once(&mut next, &mut into), Poll::Ready(Ok(1))));
    }

    #[tokio::test]
    async fn no_spin_before_the_first_answer_or_with_a_zero_window() {
        let _turn = ONE_AT_A_TIME.lock().await;
        let (mut server, _client) = answered_pair(Duration::from_secs(10)).await;
        server.answered = false;
        let started = Instant::now();
        assert!(poll_once(&mut server, &mut [0u8; 8]).is_pending());
        let (mut off, _client) = answered_pair(Duration::ZERO).await;
        assert!(poll_once(&mut off, &mut [0u8; 8]).is_pending());
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }

    #[tokio::test]
    async fn no_spin_while_a_request_is_being_served_or_another_connection_spins() {
        let _turn = ONE_AT_A_TIME.lock().await;
        let started = Instant::now();
        let (mut server, _client) = answered_pair(Duration::from_secs(10)).await;
        let in_flight = RequestInFlight::start();
        assert!(poll_once(&mut server, &mut [0u8; 8]).is_pending());
        drop(in_flight);
        let (mut server, _client) = answered_pair(Duration::from_secs(10)).await;
        let other = SpinTurn::claim().expect("nobody else spins");
        assert!(poll_once(&mut server, &mut [0u8; 8]).is_pending());
        drop(other);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }

    #[tokio::test]
    async fn no_spin_when_the_latest_request_came_on_another_connection() {
        let _turn = ONE_AT_A_TIME.lock().await;
        let started = Instant::now();
        let (mut first, _client) = answered_pair(Duration::from_secs(10)).await;
        let (_second, _other) = answered_pair(Duration::from_secs(10)).await;
        assert!(poll_once(&mut first, &mut [0u8; 8]).is_pending());
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }

    #[tokio::test]
    async fn no_spin_while_more_than_two_connections_are_open() {
        let _turn = ONE_AT_A_TIME.lock().await;
        let started = Instant::now();
        let others = [
            answered_pair(Duration::ZERO).await,
            answered_pair(Duration::ZERO).await,
        ];
        let (mut server, _client) = answered_pair(Duration::from_secs(10)).await;
        assert!(poll_once(&mut server, &mut [0u8; 8]).is_pending());
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        // With the other two closed, the same connection spins again after its next answer.
        drop(others);
        let (mut server, client) = answered_pair(Duration::from_secs(10)).await;
        later(client, Duration::from_millis(20), Some(b"x"));
        assert!(matches!(
            poll_once(&mut server, &mut [0u8; 8]),
            Poll::Ready(Ok(1))
        ));
    }

    #[tokio::test]
    async fn a_spin_stops_when_a_request_arrives_on_another_connection() {
        let _turn = ONE_AT_A_TIME.lock().await;
        let (other, _other_client) = answered_pair(Duration::from_secs(10)).await;
        let (mut server, _client) = answered_pair(Duration::from_secs(10)).await;
        // What the other connection's read records when its next request arrives, on the
        // other worker, while this one spins.
        let other_id = other.id;
        let elsewhere = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            LAST_REQUEST_ON.store(other_id, Ordering::Relaxed);
        });
        let started = Instant::now();
        assert!(poll_once(&mut server, &mut [0u8; 8]).is_pending());
        let spun = started.elapsed();
        assert!(
            spun >= Duration::from_millis(50) && spun < Duration::from_secs(5),
            "{spun:?}"
        );
        elsewhere.join().unwrap();
    }

    #[test]
    fn a_counted_waker_counts_from_its_wake_up_to_the_read_that_follows() {
        let _turn = ONE_AT_A_TIME.blocking_lock();
        let counted = || {
            Arc::new(CountedWaker {
                task: Waker::noop().clone(),
                done: AtomicBool::new(false),
            })
        };
        let before = READS_WOKEN.load(Ordering::Relaxed);
        let woken = counted();
        Waker::from(woken.clone()).wake_by_ref();
        Waker::from(woken.clone()).wake();
        assert_eq!(
            READS_WOKEN.load(Ordering::Relaxed),
            before + 1,
            "one wake-up counts once"
        );
        woken.retire();
        assert_eq!(READS_WOKEN.load(Ordering::Relaxed), before);
        // Retired before any wake-up (the read did not need it): a late wake-up does not count.
        let unused = counted();
        unused.retire();
        Waker::from(unused).wake();
        assert_eq!(READS_WOKEN.load(Ordering::Relaxed), before);
    }

    #[tokio::test]
    async fn a_contended_cpu_stops_the_spin_and_the_next_ones_for_a_while() {
        let _turn = ONE_AT_A_TIME.lock().await;
        let started = Instant::now();
        let (mut server, _client) = answered_pair(Duration::from_secs(10)).await;
        // Every gap counts as contended: the first one ends the spin, and the policy backs off.
        server.policy = SpinPolicy::with_contended_gap(Duration::from_secs(10), Duration::ZERO);
        assert!(poll_once(&mut server, &mut [0u8; 8]).is_pending());
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        assert!(server.policy.backing_off(Instant::now()));
        assert!(!server.policy.backing_off(Instant::now() + CONTENDED_BACK_OFF));
        // While it backs off, an answered connection of the same listener does not spin at all.
        let (mut next, client) = answered_pair(Duration::from_secs(10)).await;
        next.policy = server.policy.clone();
        later(client, Duration::from_millis(100), Some(b"x"));
        // Pending: a spin of its 10 s window would have read the byte sent at 100 ms.
        assert!(poll_once(&mut next, &mut [0u8; 8]).is_pending());
    }

    #[tokio::test]
    async fn a_spin_stops_when_a_request_starts_being_served() {
        let _turn = ONE_AT_A_TIME.lock().await;
        let (mut server, _client) = answered_pair(Duration::from_secs(10)).await;
        // The request elsewhere starts after 50 ms and is served until this test has looked (or
        // has failed: the sender is dropped then).
        let (looked_tx, looked_rx) = std::sync::mpsc::channel::<()>();
        let elsewhere = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            let in_flight = RequestInFlight::start();
            let _ = looked_rx.recv();
            drop(in_flight);
        });
        let started = Instant::now();
        assert!(poll_once(&mut server, &mut [0u8; 8]).is_pending());
        assert!(
            REQUESTS_IN_FLIGHT.load(Ordering::Relaxed) > 0,
            "the spin ended before the request started"
        );
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        let _ = looked_tx.send(());
        elsewhere.join().unwrap();
    }
}
