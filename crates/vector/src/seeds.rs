//! Seeds derived from the base seed and an env's index, so that every env's games, bot moves
//! and random actions are the same whatever the number of threads.

/// SplitMix64's finaliser: a well-mixed 64-bit value of `x`.
#[must_use]
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The seed of a stream `stream` (game set-ups, bot moves, sampled actions…) of env `index`'s
/// episode `episode`, under the base seed `base`.
#[must_use]
pub fn derive(base: u64, stream: u64, index: u64, episode: u64) -> u64 {
    mix(mix(mix(base ^ stream.rotate_left(48)) ^ index) ^ episode)
}

/// The stream of game set-ups.
pub const GAMES: u64 = 1;
/// The stream of the bot's moves.
pub const BOT: u64 = 2;
/// The stream of [`crate::VecEnv::sample_actions`].
pub const SAMPLES: u64 = 3;
/// The stream of the random playouts that value leaves when a search has no evaluator.
pub const PLAYOUTS: u64 = 4;
/// The stream of the Dirichlet noise at search roots.
pub const NOISE: u64 = 5;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_indices_and_episodes_give_different_seeds() {
        let mut seen = std::collections::HashSet::new();
        for stream in 1..=5 {
            for index in 0..50 {
                for episode in 0..50 {
                    assert!(seen.insert(derive(7, stream, index, episode)));
                }
            }
        }
    }
}
