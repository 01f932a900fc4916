//! Measures how long the Sight Reduction exact search takes from fresh random boards.

use boardlab_ai::knowledge::Endgame;
use boardlab_core::Budget;
use boardlab_core::Game;
use boardlab_core::Rules;
use boardlab_sight_reduction::ai::SolverEndgame;
use boardlab_sight_reduction::SightReduction;
use std::time::Instant;

fn main() {
    let opts = std::env::args().nth(1).unwrap_or_default();
    let o = SightReduction::info().parse_options(&opts).unwrap();
    let mut total = 0.0f64;
    let mut worst = 0.0f64;
    let mut wins = 0;
    for seed in 0..6 {
        let g = SightReduction::new(&o, seed).unwrap();
        let mut eg = SolverEndgame::default();
        let t = Instant::now();
        let mut nodes = 0;
        let r = eg.solve(&g, Budget::nodes(u64::MAX), &mut nodes);
        let s = t.elapsed().as_secs_f64();
        total += s;
        worst = worst.max(s);
        if r.is_some_and(|(p, _)| p.wins(g.to_move())) {
            wins += 1;
        }
        println!("seed {seed}: {r:?} nodes {nodes} {s:.3}s");
    }
    println!(
        "mean {:.3}s worst {worst:.3}s first-player wins {wins}/20",
        total / 20.0
    );
}
