//! Long operations (scans, exports, imports) run under an id the UI chooses, so the UI can cancel
//! one by id while it runs. Each holds a flag the operation checks between requests.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::{CommandError, ErrorCode};

/// The cancel flags of running operations, by id.
#[derive(Debug, Default)]
pub(crate) struct Running(Mutex<HashMap<String, Arc<AtomicBool>>>);

impl Running {
    /// Registers `id`; refused while another operation runs under it.
    pub fn register(&self, id: &str) -> Result<Arc<AtomicBool>, CommandError> {
        let mut running = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if running.contains_key(id) {
            return Err(CommandError::new(
                ErrorCode::Validation,
                format!("An operation with id {id} is already running."),
            ));
        }
        let flag = Arc::new(AtomicBool::new(false));
        running.insert(id.to_owned(), flag.clone());
        Ok(flag)
    }

    pub fn remove(&self, id: &str) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    }

    /// Sets the cancel flag of `id`; `false` when nothing runs under it.
    pub fn cancel(&self, id: &str) -> bool {
        match self.0.lock().unwrap_or_else(|e| e.into_inner()).get(id) {
            Some(flag) => {
                flag.store(true, Ordering::SeqCst);
                true
            }
            None => false,
        }
    }
}

impl crate::App {
    /// Asks the running scan, export or import `id` to stop after its current request. `false`
    /// when nothing runs under that id (it may just have ended).
    pub fn cancel_operation(&self, id: &str) -> bool {
        self.inner.running.cancel(id)
    }
}
