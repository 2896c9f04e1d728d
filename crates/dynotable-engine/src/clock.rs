//! Where the engine reads the time. Tests inject a [`ManualClock`] so that creation dates, and
//! later TTL expiry and stream retention, are deterministic.

use std::sync::Mutex;

pub trait Clock: Send + Sync + std::fmt::Debug + 'static {
    /// Seconds since the Unix epoch, with fractions.
    fn now_seconds(&self) -> f64;
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
