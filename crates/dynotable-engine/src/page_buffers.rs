//! Buffers for large response bodies, kept for the next response instead of freed.
//!
//! A Scan or Query page of 1 MB (rule B.4, docs/dynamodb-rules.md) is a response body of one to two
//! megabytes. Allocated afresh for each page, such a buffer is new memory every time: the
//! allocator hands out pages the kernel has to fault in and zero (mimalloc asks for huge pages,
//! so a fault zeroes 2 MiB at once), and returns them to the kernel soon after the body is
//! sent. That was a quarter of the CPU of a full Scan (bench/README.md, "The full Scan's
//! response buffers"). A page's body is instead written into a buffer from this pool
//! ([`crate::api::item::StoredItems`]), and the server gives the buffer back once the body has
//! been written to the socket ([`PageBuffers::give_back`]), so a Scan's pages reuse the same
//! few megabytes, already in memory.
//!
//! Only large buffers are kept, and only a few: the pool never holds more than
//! [`KEPT_BUFFERS`] × [`MAX_KEPT_BYTES`], and holds nothing until a large page has been served
//! (idle RSS does not change). Small responses never come here: they are what the allocator
//! serves well.

use std::sync::Mutex;

/// A body that grows past this many bytes moves into a pool buffer: past the few kilobytes of
/// a typical Query page, and early in a 1 MB page (each step of a growing buffer is fresh
/// memory too).
pub const LARGE_BODY_BYTES: usize = 64 * 1024;
/// The capacity of a buffer the pool allocates: a 1 MB page of small items is ~1.5–2 MB of
/// JSON (the type descriptors and quotes around each value).
pub const NEW_BUFFER_BYTES: usize = 2 * 1024 * 1024;
/// Buffers larger than this are freed rather than kept.
pub const MAX_KEPT_BYTES: usize = 8 * 1024 * 1024;
/// How many buffers the pool keeps at most (concurrent large pages beyond this allocate).
pub const KEPT_BUFFERS: usize = 4;

/// The pool (one per engine).
#[derive(Debug, Default)]
pub struct PageBuffers {
    free: Mutex<Vec<Vec<u8>>>,
}

impl PageBuffers {
    pub fn new() -> PageBuffers {
        PageBuffers::default()
    }

    fn free(&self) -> std::sync::MutexGuard<'_, Vec<Vec<u8>>> {
        self.free.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// An empty buffer with room for at least `capacity` bytes: a kept one if there is one,
    /// else a new one of at least [`NEW_BUFFER_BYTES`].
    pub fn take(&self, capacity: usize) -> Vec<u8> {
        let kept = self.free().pop();
        let mut buffer = kept.unwrap_or_default();
        buffer.clear();
        buffer.reserve(capacity.max(NEW_BUFFER_BYTES));
        buffer
    }

    /// Whether a buffer of this capacity is one the pool keeps: at least [`NEW_BUFFER_BYTES`]
    /// (the pool's own, and larger bodies), at most [`MAX_KEPT_BYTES`].
    pub fn keeps(capacity: usize) -> bool {
        (NEW_BUFFER_BYTES..=MAX_KEPT_BYTES).contains(&capacity)
    }

    /// Returns a body's buffer once the body is no longer needed. It is kept if it is a large
    /// one ([`PageBuffers::keeps`]) and the pool is not full; otherwise it is freed.
    pub fn give_back(&self, buffer: Vec<u8>) {
        if !PageBuffers::keeps(buffer.capacity()) {
            return;
        }
        let mut free = self.free();
        if free.len() < KEPT_BUFFERS {
            free.push(buffer);
        }
    }

    /// How many buffers the pool holds now.
    pub fn kept(&self) -> usize {
        self.free().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_buffers_are_kept_and_handed_out_again_empty() {
        let pool = PageBuffers::new();
        let mut buffer = pool.take(10);
        assert!(buffer.capacity() >= NEW_BUFFER_BYTES);
        buffer.extend_from_slice(b"body");
        let at = buffer.as_ptr();
        pool.give_back(buffer);
        assert_eq!(pool.kept(), 1);
        let again = pool.take(10);
        assert_eq!(again.as_ptr(), at, "the kept buffer is reused");
        assert!(again.is_empty());
        assert_eq!(pool.kept(), 0);
        // A request for more than a kept buffer holds grows it.
        pool.give_back(again);
        assert!(pool.take(3 * NEW_BUFFER_BYTES).capacity() >= 3 * NEW_BUFFER_BYTES);
    }

    #[test]
    fn small_huge_and_surplus_buffers_are_freed() {
        let pool = PageBuffers::new();
        pool.give_back(Vec::with_capacity(NEW_BUFFER_BYTES - 1));
        pool.give_back(Vec::with_capacity(MAX_KEPT_BYTES + 1));
        assert_eq!(pool.kept(), 0);
        for _ in 0..KEPT_BUFFERS + 2 {
            pool.give_back(Vec::with_capacity(NEW_BUFFER_BYTES));
        }
        assert_eq!(pool.kept(), KEPT_BUFFERS);
    }
}
