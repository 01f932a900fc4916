//! Zobrist keys: fixed pseudo-random 64-bit numbers, generated at compile time from a seed so
//! that every build and platform hashes the same position to the same value.

/// SplitMix64 step, usable in `const` context.
#[must_use]
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// `N` keys from `seed`.
#[must_use]
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, z) = splitmix64(state);
        state = s;
        out[i] = z;
        i += 1;
    }
    out
}
