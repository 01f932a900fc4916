//! Times boardlab-solve's who-wins search and this crate's exact endgame (the value with the
//! distance and a move, from the same solver) on positions of random games, by the number of
//! pieces left: `solve_sizes`.

use boardlab_ai::knowledge::Endgame;
use boardlab_core::rand::{rngs::SmallRng, SeedableRng};
use boardlab_core::Budget;
use boardlab_core::Game;
use boardlab_core::Rules as _;
use boardlab_sight_reduction::ai::SolverEndgame;
use boardlab_sight_reduction::kernel::RuleSet;
use boardlab_sight_reduction::solver::{Position, Solver, SolverConfig};
use boardlab_sight_reduction::SightReduction;
use std::time::Instant;

fn main() {
    let o = SightReduction::info().default_options();
    let mut rng = SmallRng::seed_from_u64(1);
    let mut buf = Vec::new();
    for pieces in [30u32, 28, 26, 24, 22, 20] {
        let (mut worst_a, mut sum_a, mut worst_b, mut sum_b, mut n) = (0f64, 0f64, 0f64, 0f64, 0);
        for seed in 0..12 {
            let mut g = SightReduction::new(&o, 1000 + seed).unwrap();
            while g.outcome().is_none() && g.occupied().count_ones() > pieces {
                let m = g.random_move(&mut rng, &mut buf).unwrap();
                g.play_unchecked(m);
            }
            if g.outcome().is_some() {
                continue;
            }
            let mut solver = Solver::new(SolverConfig {
                table_bytes: 32 << 20,
                ..SolverConfig::default()
            });
            let t = Instant::now();
            let v = solver.solve(RuleSet::of(g.config()), Position::of(&g).unwrap());
            let a = t.elapsed().as_secs_f64();
            let mut eg = SolverEndgame::default();
            let t = Instant::now();
            let mut nodes = 0;
            let r = eg.solve(&g, Budget::nodes(u64::MAX), &mut nodes);
            let b = t.elapsed().as_secs_f64();
            assert_eq!(
                v.wins(g.to_move()),
                r.is_some_and(|(p, _)| p.wins(g.to_move()))
            );
            worst_a = worst_a.max(a);
            worst_b = worst_b.max(b);
            sum_a += a;
            sum_b += b;
            n += 1;
        }
        println!("{pieces} pieces: who wins mean {:.4}s worst {:.4}s; endgame mean {:.4}s worst {:.4}s ({n} positions)", sum_a / n as f64, worst_a, sum_b / n as f64, worst_b);
    }
}
