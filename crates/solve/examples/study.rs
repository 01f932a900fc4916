//! Runs a study from the command line (the `boardlab study` command does the same).
use boardlab_core::Game;
use boardlab_sight_reduction::SightReduction;
use boardlab_solve::study::{run, StudyConfig};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let setups: u64 = args.get(1).map_or(100, |s| s.parse().unwrap());
    let threads: usize = args.get(2).map_or(1, |s| s.parse().unwrap());
    let out = args.get(3).cloned().unwrap_or_else(|| "study".into());
    let cfg = StudyConfig {
        options: SightReduction::info().default_options(),
        setups,
        seed: 0,
        threads,
        table_bytes: 64 << 20,
        out: out.into(),
        shard: None,
        depth: boardlab_solve::study::Depth::FirstMoves,
    };
    let t0 = Instant::now();
    let summary = run(&cfg, |done, total| {
        if done % 100 == 0 || done == total {
            eprintln!("{done}/{total} {:.0}s", t0.elapsed().as_secs_f64());
        }
    })
    .unwrap();
    print!("{}", summary.report());
}
