//! Finds the moves that change the exact result in Sight Reduction game records:
//! `sr_blunders DIR` (every `*.txt` record in it).

use boardlab_ai::knowledge::Endgame;
use boardlab_core::Budget;
use boardlab_core::Rules;
use boardlab_core::{Game, GameRecord};
use boardlab_sight_reduction::ai::SolverEndgame;
use boardlab_sight_reduction::SightReduction;

fn main() {
    let dir = std::env::args().nth(1).expect("a folder of records");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let mut eg = SolverEndgame::default();
    for p in paths {
        let rec = GameRecord::parse(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let (_, moves) = rec.replay::<SightReduction>().unwrap();
        let mut g =
            SightReduction::new(&rec.options_for::<SightReduction>().unwrap(), rec.seed).unwrap();
        let mut line = format!(
            "{} first={} second={} result={:?}:",
            p.file_name().unwrap().to_string_lossy(),
            rec.seats.first,
            rec.seats.second,
            rec.result
        );
        let mut prev: Option<bool> = None; // mover wins?
        for (i, m) in moves.iter().enumerate() {
            let mut n = 0;
            let v = eg
                .solve(&g, Budget::nodes(50_000_000), &mut n)
                .map(|(p, _)| p.wins(g.to_move()));
            if let (Some(before), Some(now)) = (prev, v) {
                // before: previous mover wins; now: current mover wins. A correct move keeps before == !now.
                if before == now {
                    line += &format!(" ply{}:{}", i, if before { "blunder-by-prev" } else { "?" });
                }
            }
            if i == 0 {
                line += &format!(
                    " start={}",
                    match v {
                        Some(true) => "first wins",
                        Some(false) => "second wins",
                        None => "unknown",
                    }
                );
            }
            prev = v;
            g.play_unchecked(*m);
        }
        println!("{line}");
    }
}
