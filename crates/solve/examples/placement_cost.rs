//! What solving the placement set-up costs: positions reached by random placements from the
//! empty board, with `EMPTY` squares left, solved exactly by the placement solver (who wins,
//! every placement searched, every full board reached settled by the removal solver).
//!
//! `cargo run --release -p boardlab-solve --example placement_cost -- [EMPTY…] [--samples N] [--option KEY=VALUE …]`
//! (default 6 8 10 12, 5 samples each). Prints, for each number of empty squares, the mean
//! seconds, full boards and placement positions per position, and the growth from the row
//! before.

use boardlab_core::{Game, Rules as _};
use boardlab_sight_reduction::solver::placement::PlacementSolver;
use boardlab_sight_reduction::SightReduction;
use boardlab_solve::placement::frontier;
use boardlab_solve::SolverConfig;
use rand::{Rng, SeedableRng};
use std::time::Instant;

fn main() {
    let mut empties = Vec::new();
    let mut samples = 5usize;
    let mut options = vec![("setup".to_string(), "deterministic".to_string())];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--samples" => {
                samples = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .expect("--samples N")
            }
            "--option" => {
                let kv = args.next().expect("--option KEY=VALUE");
                let (k, v) = kv.split_once('=').expect("KEY=VALUE");
                options.push((k.into(), v.into()));
            }
            n => empties.push(n.parse::<u32>().expect("EMPTY: a number of empty squares")),
        }
    }
    if empties.is_empty() {
        empties = vec![6, 8, 10, 12];
    }
    let options = SightReduction::info()
        .options_from_pairs(options)
        .expect("valid options");
    let start = SightReduction::new(&options, 0).expect("a game");
    // The distinct positions after one placement: the root's jobs for a split of 1.
    println!(
        "the empty board: {} distinct first placements",
        frontier(&start, 1).len()
    );
    println!("empty  positions  mean s  mean boards  mean placement nodes  growth (s)");
    let mut last: Option<f64> = None;
    for &empty in &empties {
        let (mut secs, mut boards, mut nodes) = (0.0, 0u64, 0u64);
        for s in 0..samples {
            let mut rng = rand::rngs::StdRng::seed_from_u64(u64::from(empty) * 1000 + s as u64);
            let mut game = start.clone();
            let mut moves = Vec::new();
            while 32 - game.occupied().count_ones() > empty {
                game.legal_moves(&mut moves);
                let m = moves[rng.random_range(0..moves.len())];
                game.play_unchecked(m);
            }
            // A fresh solver each time: nothing learnt from the other samples.
            let mut solver = PlacementSolver::new(SolverConfig {
                table_bytes: 128 << 20,
                ..SolverConfig::default()
            });
            let t = Instant::now();
            solver.solve(&game).expect("a placement position");
            secs += t.elapsed().as_secs_f64();
            let st = solver.stats();
            boards += st.boards;
            nodes += st.nodes;
        }
        let n = samples as f64;
        let mean = secs / n;
        let growth = last.map_or(String::from("-"), |l| format!("{:.1}×", mean / l));
        println!(
            "{empty:5}  {samples:9}  {mean:6.3}  {:11.0}  {:20.0}  {growth}",
            boards as f64 / n,
            nodes as f64 / n
        );
        last = Some(mean);
    }
}
