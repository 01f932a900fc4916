//! How often a bot converts won Sight Reduction boards against another bot:
//! `sr_convert WINNER_SPEC LOSER_SPEC BOARDS [FIRST_SEED]`. For each board the winner spec
//! takes the seat that wins with perfect play. Prints the conversion rate and, per piece
//! count, the winner's turns, how many of its moves were winning and its blunders.

use boardlab_ai::{new_bot, BotSpec};
use boardlab_core::Game;
use boardlab_core::Rules;
use boardlab_sight_reduction::solver::{Solver, SolverConfig};
use boardlab_sight_reduction::SightReduction;
use std::sync::atomic::AtomicBool;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let win_spec: BotSpec = args[1].parse().unwrap();
    let lose_spec: BotSpec = args[2].parse().unwrap();
    let boards: u64 = args[3].parse().unwrap();
    let first: u64 = args.get(4).map_or(0, |s| s.parse().unwrap());
    let opts = SightReduction::info().default_options();
    let mut solver = Solver::new(SolverConfig::default());
    let stop = AtomicBool::new(false);
    let (mut converted, mut played) = (0, 0);
    // per piece count: turns, sum of move counts, sum of winning moves, blunders
    let mut stats = [[0u64; 4]; 33];
    for seed in first..first + boards {
        let mut g = SightReduction::new(&opts, seed).unwrap();
        let winner = g.to_move();
        let winner = if solver.solve_game(&g).unwrap().wins(g.to_move()) {
            winner
        } else {
            winner.other()
        };
        let mut wb = new_bot::<SightReduction>(&win_spec, seed).unwrap();
        let mut lb = new_bot::<SightReduction>(&lose_spec, seed ^ 0xabc).unwrap();
        let mut lost_at = None;
        while g.outcome().is_none() {
            let seat = g.to_move();
            if seat == winner {
                let vals = solver.game_move_values(&g, false).unwrap();
                let wins = vals.iter().filter(|(_, v)| v.wins(seat)).count();
                let pieces = g.occupied().count_ones() as usize;
                let r = wb.search(&g, &stop);
                let ok = vals.iter().any(|(m, v)| *m == r.best && v.wins(seat));
                let s = &mut stats[pieces];
                s[0] += 1;
                s[1] += vals.len() as u64;
                if lost_at.is_none() {
                    s[2] += wins as u64;
                    if !ok {
                        s[3] += 1;
                        lost_at = Some(pieces);
                    }
                }
                g.play(r.best).unwrap();
            } else {
                let r = lb.search(&g, &stop);
                g.play(r.best).unwrap();
            }
        }
        played += 1;
        let won = g.outcome().unwrap().for_seat(winner).score() > 0.5;
        if won {
            converted += 1;
        }
        println!("seed {seed}: winner {winner} converted {won} lost_at {lost_at:?}");
    }
    println!("converted {converted}/{played}");
    println!("pieces turns avg_moves avg_winning blunders");
    for (p, s) in stats.iter().enumerate() {
        if s[0] > 0 {
            println!(
                "{p:2} {:5} {:5.1} {:5.1} {}",
                s[0],
                s[1] as f64 / s[0] as f64,
                s[2] as f64 / s[0] as f64,
                s[3]
            );
        }
    }
}
