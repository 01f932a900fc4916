//! How the arranger of Sight Reduction's fair set-up fares with perfect play: for fresh
//! boards (seeds `0..N`), whether ending the arrangement at once wins, or one swap, or two,
//! or none (the last needs the whole two-swap search). The arranger wins a board exactly when
//! the same player, first or second to remove, wins it whichever colour removes first.
//!
//! `cargo run --release -p boardlab-ai --example sr_fair_setup -- [N] [OPTIONS]`

use boardlab_ai::knowledge::Endgame;
use boardlab_core::Budget;
use boardlab_core::Game;
use boardlab_sight_reduction::ai::SolverEndgame;
use boardlab_sight_reduction::{Move, SightReduction};
use std::time::Instant;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .map_or(1000, |s| s.parse().expect("N: a number of boards"));
    let extra = std::env::args().nth(2).unwrap_or_default();
    let opts = if extra.is_empty() {
        "setup=fair".to_string()
    } else {
        format!("setup=fair,{extra}")
    };
    let o = SightReduction::info()
        .parse_options(&opts)
        .expect("valid options");
    let unlimited = Budget::nodes(u64::MAX);
    let mut eg = SolverEndgame::default();
    let mut counts = [0u64; 4];
    let start = Instant::now();
    for seed in 0..n {
        let g = SightReduction::new(&o, seed).expect("a fair set-up");
        let mut nodes = 0;
        let swaps = match eg.decide(&g, unlimited, &mut nodes) {
            Some((true, Move::Done)) => 0,
            Some((true, m)) => {
                let mut c = g.clone();
                c.play(m).expect("a legal swap");
                match eg.decide(&c, unlimited, &mut nodes) {
                    Some((true, Move::Done)) => 1,
                    _ => 2,
                }
            }
            _ => 3,
        };
        counts[swaps] += 1;
    }
    let pct = |k: u64| 100.0 * k as f64 / n as f64;
    println!(
        "{n} boards ({opts}), {:.1} s",
        start.elapsed().as_secs_f64()
    );
    println!(
        "arranger wins with no swap:   {:5} ({:.1}%)",
        counts[0],
        pct(counts[0])
    );
    println!(
        "arranger needs one swap:      {:5} ({:.1}%)",
        counts[1],
        pct(counts[1])
    );
    println!(
        "arranger needs two swaps:     {:5} ({:.1}%)",
        counts[2],
        pct(counts[2])
    );
    println!(
        "arranger loses (no two swaps): {:4} ({:.1}%)",
        counts[3],
        pct(counts[3])
    );
}
