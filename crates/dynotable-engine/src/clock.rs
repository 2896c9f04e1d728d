//! Where the engine reads the time. Tests inject a [`ManualClock`] so that creation dates, and
//! later TTL expiry and stream retention, are deterministic; a [`RequestClock`] moves with the
//! requests the engine receives (`dynotable-local --clock-step`, for black-box tests).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

pub trait Clock: Send + Sync + std::fmt::Debug + 'static {
    /// Seconds since the Unix epoch, with fractions.
    fn now_seconds(&self) -> f64;

    /// Told of each request as it reaches the engine, before it runs ([`Engine::call_in`],
    /// [`Engine::call_streams_in`]). A clock that follows time ignores it.
    ///
    /// [`Engine::call_in`]: crate::Engine::call_in
    /// [`Engine::call_streams_in`]: crate::Engine::call_streams_in
    fn request_arrived(&self) {}
}

/// The system's wall clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now_seconds(&self) -> f64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs_f64())
            .unwrap_or(0.0)
    }
}

/// A clock that only moves when told to.
#[derive(Debug, Default)]
pub struct ManualClock {
    now: Mutex<f64>,
}

impl ManualClock {
    pub fn new(now_seconds: f64) -> ManualClock {
        ManualClock {
            now: Mutex::new(now_seconds),
        }
    }

    pub fn set(&self, now_seconds: f64) {
        *self.now.lock().unwrap_or_else(|p| p.into_inner()) = now_seconds;
    }

    pub fn advance(&self, seconds: f64) {
        *self.now.lock().unwrap_or_else(|p| p.into_inner()) += seconds;
    }
}

impl Clock for ManualClock {
    fn now_seconds(&self) -> f64 {
        *self.now.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A clock that moves only as requests arrive: `step` seconds as each one reaches the engine,
/// before it runs (0 stands it still). What the engine times — the refill of the throttling
/// buckets, how late an eventually consistent read may be, TTL expiry, stream record times —
/// then depends on how many requests came, never on how fast the machine served them: a test
/// aid (`dynotable-local --clock-step`), not a model of real time.
#[derive(Debug)]
pub struct RequestClock {
    start: f64,
    step: f64,
    requests: AtomicU64,
}

impl RequestClock {
    /// A clock at `start` seconds since the epoch that moves `step` seconds a request.
    pub fn new(start: f64, step: f64) -> RequestClock {
        RequestClock {
            start,
            step,
            requests: AtomicU64::new(0),
        }
    }
}

impl Clock for RequestClock {
    fn now_seconds(&self) -> f64 {
        // A product, not a running sum: whole steps from a whole start stay exact.
        self.start + self.step * self.requests.load(Ordering::Acquire) as f64
    }

    fn request_arrived(&self) {
        self.requests.fetch_add(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_clock_moves_one_step_per_request() {
        let clock = RequestClock::new(1_700_000_000.0, 0.5);
        assert_eq!(clock.now_seconds(), 1_700_000_000.0);
        clock.request_arrived();
        clock.request_arrived();
        clock.request_arrived();
        assert_eq!(clock.now_seconds(), 1_700_000_001.5);
        let frozen = RequestClock::new(1_700_000_000.0, 0.0);
        frozen.request_arrived();
        assert_eq!(frozen.now_seconds(), 1_700_000_000.0);
    }
}
