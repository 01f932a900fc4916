//! The transposition table: a fixed number of 64-byte buckets of four entries, sized from a
//! memory budget and never grown. A position is stored under its exact 64-bit key (the side
//! to move's pieces and the other side's pieces), so a hit is never a different position.
//! Entries hold bounds on the score; when a bucket is full the entry that cost the least work
//! to compute (from an older search first) makes way.

/// Bounds on a position's score (see [`crate::solver::Score`]), the best move found and bookkeeping.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct TableEntry {
    /// `me | opp << 32`; 0 marks an empty slot (no position to solve has no pieces at all).
    pub key: u64,
    /// The best move's squares as a set (0: none known).
    pub best: u32,
    /// The score is at least `lo` ...
    pub lo: i8,
    /// ... and at most `hi`.
    pub hi: i8,
    /// The search that wrote the entry.
    pub generation: u8,
    /// log2 of the nodes searched to find the bounds, for replacement.
    pub work: u8,
}

const WAYS: usize = 4;

/// A fixed-size transposition table.
#[derive(Clone, Debug)]
pub struct Table {
    slots: Vec<[TableEntry; WAYS]>,
    mask: usize,
    generation: u8,
    stores: u64,
}

/// The bytes one bucket takes.
pub const BUCKET_BYTES: usize = std::mem::size_of::<[TableEntry; WAYS]>();

impl Table {
    /// A table using at most `bytes` of memory (at least one bucket; a power of two of
    /// buckets).
    #[must_use]
    pub fn with_bytes(bytes: usize) -> Table {
        let buckets = (bytes / BUCKET_BYTES).max(1);
        let buckets = if buckets.is_power_of_two() {
            buckets
        } else {
            buckets.next_power_of_two() / 2
        };
        Table {
            slots: vec![[TableEntry::default(); WAYS]; buckets],
            mask: buckets - 1,
            generation: 0,
            stores: 0,
        }
    }

    /// The memory the entries take, in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.slots.len() * BUCKET_BYTES
    }

    /// Starts a new search: its entries are preferred over older ones when a bucket is full.
    /// Older entries stay valid (a position's value never changes).
    pub fn new_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        for b in &mut self.slots {
            *b = [TableEntry::default(); WAYS];
        }
        self.stores = 0;
    }

    /// How many stores were made.
    #[must_use]
    pub fn stores(&self) -> u64 {
        self.stores
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        let h = (key ^ (key >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 32) as usize & self.mask
    }

    /// The entry of `key`, if stored.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<&TableEntry> {
        let b = &self.slots[self.index(key)];
        b.iter().find(|e| e.key == key)
    }

    /// Prefetch hint: touch the bucket of `key` (a cheap read that warms the cache line).
    #[inline]
    #[must_use]
    pub fn peek_key(&self, key: u64) -> u64 {
        self.slots[self.index(key)][0].key
    }

    /// Stores bounds for `key`, merging with bounds already there.
    #[inline]
    pub fn store(&mut self, key: u64, lo: i8, hi: i8, best: u32, work: u8) {
        self.stores += 1;
        let generation = self.generation;
        let i = self.index(key);
        let b = &mut self.slots[i];
        if let Some(e) = b.iter_mut().find(|e| e.key == key) {
            e.lo = e.lo.max(lo);
            e.hi = e.hi.min(hi);
            if best != 0 {
                e.best = best;
            }
            e.generation = generation;
            e.work = e.work.max(work);
            return;
        }
        // Replace an empty slot, else the cheapest entry, entries of older searches first.
        let mut victim = 0;
        let mut victim_cost = u32::MAX;
        for (j, e) in b.iter().enumerate() {
            let cost = if e.key == 0 {
                0
            } else {
                u32::from(e.work) + 1 + if e.generation == generation { 64 } else { 0 }
            };
            if cost < victim_cost {
                victim = j;
                victim_cost = cost;
            }
        }
        b[victim] = TableEntry {
            key,
            best,
            lo,
            hi,
            generation,
            work,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_is_one_cache_line() {
        assert_eq!(BUCKET_BYTES, 64);
    }

    #[test]
    fn store_probe_merge_and_bounded_size() {
        let mut t = Table::with_bytes(1000);
        assert!(t.bytes() <= 1000);
        t.store(5, -10, 10, 0, 1);
        t.store(5, 0, 20, 4, 1);
        let e = t.probe(5).unwrap();
        assert_eq!((e.lo, e.hi, e.best), (0, 10, 4));
        // Many more keys than slots: the table keeps its size and finds what it keeps.
        for k in 1..10_000u64 {
            t.store(k << 20, 1, 1, 0, (k % 7) as u8);
        }
        assert!(t.bytes() <= 1000);
        assert!(t.probe(9_999 << 20).is_some());
    }
}
