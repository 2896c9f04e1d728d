//! Waiting for a transaction's last query without going to sleep, when nothing else is going on.
//!
//! sqlx's SQLite thread sends each statement's result of a query back as a message of its own,
//! and each message wakes the task that awaits the query. A BatchWriteItem of new items is one
//! query of five statements (`BEGIN IMMEDIATE`, the entries, the collections, the keyspaces,
//! `COMMIT`), so at concurrency 1 — one request at a time, the runtime's threads idle while
//! SQLite works — the query woke a sleeping runtime thread five times, and the last wake-up,
//! after `COMMIT`, came ~20–30 µs after the result was sent (a halted vCPU woken through the
//! host on this benchmark's VM; `perf sched timehist`, bench/README.md, session 2026-12-08).
//! SQLite's thread itself paid for each wake-up (a `futex` call, an inter-processor interrupt)
//! in the middle of the transaction.
//!
//! So in memory (a database file's load was measured no faster), when the transaction's last
//! query is the engine's only work in flight ([`SharedWriter::alone`]: one call, no writer
//! queued), the runtime thread that sent it does not sleep: it polls the query, yields its CPU
//! (`sched_yield`), and polls again, until the query is done. The results then find the task
//! running (a wake-up of a running task is a flag, not a system call), and the answer is on its
//! way as soon as `COMMIT` returns. Between two polls the yield lets any
//! thread that is ready run first — SQLite's own thread, when both share a CPU.
//!
//! It is bounded like the server's busy-poll after an answer (`dynotable-server`'s
//! `busy_poll`): it stops, and the task waits as usual, as soon as another call starts or a
//! writer queues, after [`MAX_SPIN`], or when a yield took longer than [`CONTENDED_GAP`] (another
//! thread wanted the CPU for a whole time slice: the machine is busy; then no spin starts for
//! [`CONTENDED_BACK_OFF`]). It blocks its runtime
//! thread meanwhile, which is why it needs the engine otherwise idle, and a runtime with other
//! threads (a current-thread runtime never spins).

use std::future::Future;
use std::task::Poll;
use std::time::{Duration, Instant};

use tokio::runtime::{Handle, RuntimeFlavor};

use crate::writer::SharedWriter;

/// The longest spin: longer than a batch's transaction takes (~0.45 ms), short enough that a
/// slow one costs little CPU.
const MAX_SPIN: Duration = Duration::from_millis(2);

/// A yield that took longer than this gave the CPU to another thread for a time slice (the
/// scheduler's are 0.75 ms or more): the machine is busy, and the spin stops.
const CONTENDED_GAP: Duration = Duration::from_micros(250);

/// How long no spin starts after one found the machine busy: on a busy machine a spinning
/// thread takes a CPU from the others without being first in line for its result anyway.
const CONTENDED_BACK_OFF: Duration = Duration::from_secs(1);

/// Awaits `sent`, a query handed to SQLite's thread, spinning while `shared` says this is the
/// engine's only work (module documentation).
pub(crate) async fn spin_while_alone<F: Future>(sent: F, shared: &SharedWriter) -> F::Output {
    let multi_threaded =
        Handle::try_current().is_ok_and(|runtime| runtime.runtime_flavor() == RuntimeFlavor::MultiThread);
    let mut sent = std::pin::pin!(sent);
    let mut spinning = multi_threaded && shared.may_spin();
    let start = Instant::now();
    std::future::poll_fn(|cx| {
        loop {
            let polled = sent.as_mut().poll(cx);
            if polled.is_ready() || !spinning {
                return polled;
            }
            if start.elapsed() > MAX_SPIN || !shared.alone() {
                spinning = false;
                return Poll::Pending;
            }
            let before = Instant::now();
            std::thread::yield_now();
            if before.elapsed() > CONTENDED_GAP {
                // Polled once more below, then waited for as usual.
                spinning = false;
                shared.hold_spins_off(CONTENDED_BACK_OFF);
            }
        }
    })
    .await
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::spin_while_alone;
    use crate::writer::{SharedWriter, Writer};

    async fn shared() -> Arc<SharedWriter> {
        let conn = <sqlx::SqliteConnection as sqlx::Connection>::connect("sqlite::memory:")
            .await
            .expect("an in-memory connection");
        Arc::new(
            SharedWriter::new(Writer::new(conn, None), Arc::new(tokio::sync::Notify::new()), 4)
                .spinning_for_results(),
        )
    }

    /// A result that another thread sends a little later, as SQLite's thread sends a query's.
    fn sent_later() -> tokio::sync::oneshot::Receiver<u32> {
        let (result, received) = tokio::sync::oneshot::channel();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(1));
            let _ = result.send(7);
        });
        received
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn alone_it_returns_the_output_of_what_it_waited_for() {
        let shared = shared().await;
        let _call = shared.call_started();
        assert!(shared.alone());
        assert_eq!(spin_while_alone(sent_later(), &shared).await, Ok(7));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn with_another_call_in_flight_it_waits_as_usual() {
        let shared = shared().await;
        let _call = shared.call_started();
        let _other = shared.call_started();
        assert!(!shared.alone());
        assert_eq!(spin_while_alone(sent_later(), &shared).await, Ok(7));
    }

    #[tokio::test]
    async fn on_a_current_thread_runtime_it_waits_as_usual() {
        let shared = shared().await;
        let _call = shared.call_started();
        assert_eq!(spin_while_alone(sent_later(), &shared).await, Ok(7));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn held_off_it_waits_as_usual_until_the_back_off_has_passed() {
        let shared = shared().await;
        let _call = shared.call_started();
        shared.hold_spins_off(std::time::Duration::from_secs(3600));
        assert!(!shared.may_spin());
        assert_eq!(spin_while_alone(sent_later(), &shared).await, Ok(7));
        shared.hold_spins_off(std::time::Duration::ZERO);
        assert!(shared.may_spin());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_writer_not_set_to_spin_never_does() {
        let conn = <sqlx::SqliteConnection as sqlx::Connection>::connect("sqlite::memory:")
            .await
            .expect("an in-memory connection");
        let shared = SharedWriter::new(Writer::new(conn, None), Arc::new(tokio::sync::Notify::new()), 4);
        let _call = shared.call_started();
        assert!(!shared.may_spin());
        assert_eq!(spin_while_alone(sent_later(), &shared).await, Ok(7));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_finished_call_is_no_longer_counted() {
        let shared = shared().await;
        let call = shared.call_started();
        drop(shared.call_started());
        assert!(shared.alone());
        drop(call);
        assert!(shared.alone());
    }
}
