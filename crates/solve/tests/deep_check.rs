//! A longer comparison with the reference solver on bigger positions; run with
//! `cargo test --release -p boardlab-solve --test deep_check -- --ignored`.

mod common;

use boardlab_core::Proven;
use boardlab_core::{Notation, Rules as _};
use boardlab_solve::{Solver, SolverConfig};
use std::collections::HashMap;

#[test]
#[ignore = "minutes in a release build"]
fn distances_match_the_reference_on_bigger_positions() {
    let pieces: u32 = std::env::var("DEEP_PIECES").map_or(18, |s| s.parse().unwrap());
    let count: usize = std::env::var("DEEP_COUNT").map_or(40, |s| s.parse().unwrap());
    for (i, options) in common::rule_options().iter().enumerate() {
        let mut solver = Solver::new(SolverConfig::default());
        let mut memo = HashMap::new();
        for g in common::random_positions(options, count, pieces, 900 + i as u64) {
            let (w, n) = common::value(&g, &mut memo);
            let want = if w {
                Proven::win_in(g.to_move(), n)
            } else {
                Proven::loss_in(g.to_move(), n)
            };
            assert_eq!(
                solver.solve_game_distance(&g).unwrap(),
                want,
                "{options} {}",
                g.position_text()
            );
            assert_eq!(solver.solve_game(&g).unwrap().wins(g.to_move()), w);
        }
    }
}
