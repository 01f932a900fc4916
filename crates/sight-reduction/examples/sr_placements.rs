//! The size of the placement phase of Sight Reduction's deterministic set-up: the number of
//! distinct positions after each number of placements, with transpositions merged (the same
//! pieces on the same squares, reached in any order) and the board's symmetries merged
//! (mirroring the files, the ranks, or both), as far as memory allows; with the largest
//! level's time per position. `cargo run --release -p boardlab-sight-reduction --example
//! sr_placements -- [PLIES]` (default 7).

use boardlab_core::{Game, Rules as _};
use boardlab_sight_reduction::solver::placement::canonical;
use boardlab_sight_reduction::{SightReduction, BLACK, WHITE};
use std::collections::HashMap;
use std::time::Instant;

fn main() {
    let plies: usize = std::env::args()
        .nth(1)
        .map_or(7, |s| s.parse().expect("PLIES: a number"));
    let options = SightReduction::info()
        .parse_options("setup=deterministic")
        .expect("valid options");
    let start = SightReduction::new(&options, 0).expect("a game");
    // Each position with the number of placement sequences that reach it (or its images).
    let mut level: HashMap<(u32, u32), (SightReduction, u128)> = HashMap::new();
    level.insert((0, 0), (start, 1));
    let mut moves = Vec::new();
    println!("placements  positions (symmetries merged)  move sequences  seconds");
    for k in 1..=plies {
        let t = Instant::now();
        let mut next: HashMap<(u32, u32), (SightReduction, u128)> =
            HashMap::with_capacity(level.len() * 8);
        for (game, count) in level.values() {
            game.legal_moves(&mut moves);
            for &m in &moves {
                let mut g = game.clone();
                g.play_unchecked(m);
                let key = canonical(g.pieces(WHITE), g.pieces(BLACK)).0;
                next.entry(key).or_insert((g, 0)).1 += count;
            }
        }
        let sequences: u128 = next.values().map(|(_, c)| c).sum();
        level = next;
        println!(
            "{k:10}  {:>30}  {:>14}  {:.2}",
            level.len(),
            sequences,
            t.elapsed().as_secs_f64()
        );
    }
}
