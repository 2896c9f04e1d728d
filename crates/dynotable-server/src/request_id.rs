//! The `x-amzn-RequestId` of each response: a version-4 UUID, as before, but without a system
//! call per request.
//!
//! `Uuid::new_v4` asks the kernel for 16 random bytes every time (`getrandom`), about a
//! microsecond on a virtual machine, for an id that only has to be unique. Here each thread
//! asks once, for a 128-bit seed, and then numbers its ids: id *n* of a thread is the seed's two
//! halves each mixed with *n* by SplitMix64's finaliser (a bijection of 64-bit words, so a
//! thread never repeats an id before 2^64 of them), laid out as a version-4, variant-1 UUID.
//! Two threads' ids collide only if their random seeds happen to line up, which is as unlikely
//! as two `new_v4` ids colliding.

use std::cell::Cell;

use uuid::Uuid;

thread_local! {
    /// This thread's seed and how many ids it has handed out.
    static SEQUENCE: Cell<(u64, u64, u64)> = Cell::new({
        let (high, low) = Uuid::new_v4().as_u64_pair();
        (high, low, 0)
    });
}

/// SplitMix64's output function: a bijection that spreads every input bit over the output.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A fresh request id, e.g. `9b2f6c1e-4d0a-4f3e-8a71-2c5d9e0b7f14`.
pub(crate) fn new_request_id() -> String {
    let (high, low, n) = SEQUENCE.get();
    SEQUENCE.set((high, low, n.wrapping_add(1)));
    let bytes = ((u128::from(mix(high.wrapping_add(n))) << 64) | u128::from(mix(low ^ n))).to_be_bytes();
    uuid::Builder::from_random_bytes(bytes)
        .into_uuid()
        .hyphenated()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_ids_are_distinct_version_4_uuids() {
        let mut seen = std::collections::HashSet::new();
        for _ in 0..100_000 {
            let id = new_request_id();
            let uuid = Uuid::parse_str(&id).unwrap();
            assert_eq!(uuid.get_version(), Some(uuid::Version::Random), "{id}");
            assert_eq!(uuid.get_variant(), uuid::Variant::RFC4122, "{id}");
            assert_eq!(id.len(), 36);
            assert!(seen.insert(id));
        }
    }

    #[test]
    fn threads_draw_different_sequences() {
        let here: Vec<String> = (0..1000).map(|_| new_request_id()).collect();
        let there = std::thread::spawn(|| (0..1000).map(|_| new_request_id()).collect::<Vec<_>>())
            .join()
            .unwrap();
        let here: std::collections::HashSet<_> = here.into_iter().collect();
        assert!(there.iter().all(|id| !here.contains(id)));
    }
}
