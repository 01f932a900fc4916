//! Experiment: in lost positions of games between plain MCTS (winning seat) and `best`,
//! how likely plain MCTS is to throw the win after each of the loser's moves.
//! `sr_headroom ITER RUNS BOARDS [MIN_PIECES]`.

use boardlab_ai::mcts::Mcts;
use boardlab_ai::spec::MctsSpec;
use boardlab_ai::{new_bot, Bot, BotSpec};
use boardlab_core::Game;
use boardlab_core::Rules;
use boardlab_sight_reduction::solver::{Solver, SolverConfig};
use boardlab_sight_reduction::SightReduction;
use std::sync::atomic::AtomicBool;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let iter: u64 = args[1].parse().unwrap();
    let runs: u64 = args[2].parse().unwrap();
    let boards: u64 = args[3].parse().unwrap();
    let min_pieces: u32 = args.get(4).map_or(20, |s| s.parse().unwrap());
    let opts = SightReduction::info().default_options();
    let mut solver = Solver::new(SolverConfig::default());
    let stop = AtomicBool::new(false);
    let best: BotSpec = "best:time=200ms".parse().unwrap();
    let plain: BotSpec = format!("mcts:plain,iterations={iter}").parse().unwrap();
    let (mut sum_max, mut sum_chosen, mut sum_mean, mut npos) = (0.0, 0.0, 0.0, 0);
    for seed in 0..boards {
        let mut g = SightReduction::new(&opts, seed).unwrap();
        let first = g.to_move();
        let winner = if solver.solve_game(&g).unwrap().wins(first) {
            first
        } else {
            first.other()
        };
        let mut wb = new_bot::<SightReduction>(&plain, seed).unwrap();
        let mut lb = new_bot::<SightReduction>(&best, seed).unwrap();
        while g.outcome().is_none() {
            let pieces = g.occupied().count_ones();
            if g.to_move() == winner {
                let r = wb.search(&g, &stop);
                g.play(r.best).unwrap();
                continue;
            }
            if !solver
                .game_move_values(&g, false)
                .unwrap()
                .iter()
                .all(|(_, v)| !v.wins(g.to_move()))
            {
                break; // the winner already threw it
            }
            let chosen = lb.search(&g, &stop).best;
            if pieces >= min_pieces {
                let mut moves = Vec::new();
                g.legal_moves(&mut moves);
                let mut probs = Vec::new();
                for &m in &moves {
                    let mut c = g.clone();
                    c.play_unchecked(m);
                    let vals = solver.game_move_values(&c, false).unwrap();
                    let mut thrown = 0;
                    if vals.iter().any(|(_, v)| !v.wins(c.to_move())) {
                        for k in 0..runs {
                            let mut b = Mcts::<SightReduction>::new(
                                MctsSpec {
                                    iterations: Some(iter),
                                    ..MctsSpec::PLAIN
                                },
                                seed * 1000 + k + 17,
                            );
                            let r = b.search(&c, &stop);
                            if vals
                                .iter()
                                .any(|&(x, v)| x == r.best && !v.wins(c.to_move()))
                            {
                                thrown += 1;
                            }
                        }
                    }
                    probs.push((
                        m,
                        thrown as f64 / runs as f64,
                        vals.iter().filter(|(_, v)| !v.wins(c.to_move())).count(),
                        vals.len(),
                    ));
                }
                let max = probs.iter().map(|p| p.1).fold(0.0, f64::max);
                let mean = probs.iter().map(|p| p.1).sum::<f64>() / probs.len() as f64;
                let ch = probs.iter().find(|p| p.0 == chosen).unwrap().1;
                println!(
                    "seed {seed} pieces {pieces}: max {max:.2} chosen {ch:.2} mean {mean:.2} [{}]",
                    probs
                        .iter()
                        .map(|p| format!("{:.2}({}/{})", p.1, p.2, p.3))
                        .collect::<Vec<_>>()
                        .join(" ")
                );
                sum_max += max;
                sum_chosen += ch;
                sum_mean += mean;
                npos += 1;
            }
            g.play(chosen).unwrap();
        }
    }
    println!("positions {npos}: sum max {sum_max:.2} chosen {sum_chosen:.2} mean {sum_mean:.2}");
}
