//! Counting and listing claim moves without building them all.
//!
//! With `k` claimable targets and room for at most `m + 1` control tokens, a claim move is a
//! target claimed last plus a set of at most `m` of the other `k − 1` targets. Moves are
//! ordered by the last target, then by the set of the others read as a binary number (the
//! first of them in square order is the lowest bit). [`unrank`] finds the set with a given
//! rank directly, so a random claim needs no list.

/// `AT_MOST[i][m]`: the number of subsets of an `i`-element set with at most `m` elements.
const AT_MOST: [[u64; 26]; 26] = {
    let mut choose = [[0u64; 26]; 26];
    let mut i = 0;
    while i < 26 {
        choose[i][0] = 1;
        let mut j = 1;
        while j <= i {
            choose[i][j] = choose[i - 1][j - 1] + if j < i { choose[i - 1][j] } else { 0 };
            j += 1;
        }
        i += 1;
    }
    let mut out = [[0u64; 26]; 26];
    let mut i = 0;
    while i < 26 {
        let mut sum = 0;
        let mut m = 0;
        while m < 26 {
            sum += choose[i][m];
            out[i][m] = sum;
            m += 1;
        }
        i += 1;
    }
    out
};

/// The number of subsets of an `i`-element set (`i ≤ 25`) with at most `m` elements.
#[inline]
#[must_use]
pub fn at_most(i: u32, m: u32) -> u64 {
    AT_MOST[i as usize][m.min(25) as usize]
}

/// The subset of rank `rank` (from 0) among the subsets of `len` bits with at most `m` set
/// bits, in increasing order as binary numbers.
#[inline]
#[must_use]
pub fn unrank(mut rank: u64, len: u32, mut m: u32) -> u32 {
    debug_assert!(rank < at_most(len, m));
    let mut set = 0u32;
    for i in (0..len).rev() {
        // Subsets with bit i clear (all smaller) come first.
        let below = at_most(i, m);
        if rank >= below {
            rank -= below;
            set |= 1 << i;
            m -= 1;
        }
    }
    set
}

/// Spreads the bits of `compact` onto the set bits of `mask`, lowest first: bit j of
/// `compact` selects the j-th set bit of `mask`.
#[inline]
#[must_use]
pub fn deposit(mut compact: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    while compact != 0 && mask != 0 {
        let low = mask & mask.wrapping_neg();
        if compact & 1 != 0 {
            out |= low;
        }
        compact >>= 1;
        mask ^= low;
    }
    out
}

/// How many claim moves exist with `claimable` targets and `supply` tokens (`supply ≥ 1`),
/// and how many of them share each last target.
#[inline]
#[must_use]
pub fn count(claimable: u32, supply: u32) -> (u64, u64) {
    let k = claimable.count_ones();
    if k == 0 || supply == 0 {
        return (0, 0);
    }
    let group = at_most(k - 1, supply.min(k) - 1);
    (u64::from(k) * group, group)
}

/// The claim move of rank `rank` (below `count(...).0`): the set of targets and the last one.
#[inline]
#[must_use]
pub fn nth(claimable: u32, supply: u32, group: u64, rank: u64) -> (u32, u8) {
    let k = claimable.count_ones();
    let m = supply.min(k) - 1;
    let li = (rank / group) as u32;
    let last_bit = deposit(1 << li, claimable);
    let others = deposit(unrank(rank % group, k - 1, m), claimable & !last_bit);
    (others | last_bit, last_bit.trailing_zeros() as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unrank_lists_small_subsets_in_increasing_order() {
        for len in 0..9u32 {
            for m in 0..=len {
                let expected: Vec<u32> = (0..1u32 << len).filter(|s| s.count_ones() <= m).collect();
                assert_eq!(at_most(len, m), expected.len() as u64);
                let got: Vec<u32> = (0..expected.len() as u64)
                    .map(|r| unrank(r, len, m))
                    .collect();
                assert_eq!(got, expected, "len {len} m {m}");
            }
        }
    }

    #[test]
    fn claim_counts() {
        // k targets, unlimited supply: k · 2^(k−1).
        assert_eq!(count(0b1011, 99).0, 3 * 4);
        // Supply 1: one move per target.
        assert_eq!(count(0b1011, 1).0, 3);
        // Supply 2 of 4 targets: singles 4 + ordered... 4 + 4·3 = 16.
        assert_eq!(count(0b1111, 2).0, 16);
        assert_eq!(deposit(0b101, 0b1101_0000), 0b1000_0000 | 0b0001_0000);
        assert_eq!(nth(0b1011, 99, 4, 0), (0b0001, 0));
        assert_eq!(nth(0b1011, 99, 4, 11), (0b1011, 3));
    }
}
