//! The solver benchmark: random full-board set-ups (game seeds 0, 1, …) solved exactly on
//! one thread, with the default options unless others are given (see
//! [`boardlab_solve::bench`]; `boardlab bench sight-reduction` runs the same).
//!
//! `cargo run --release -p boardlab-solve --example solve_bench -- [SETUPS] [win|distance] [OPTIONS]`
//! (the table size in MiB from the environment variable `TABLE_MB`, default 8, as
//! `boardlab bench`)
//!
//! Prints the total wall time and the process CPU time (Linux), positions visited and the
//! slowest set-up.

use boardlab_core::Game;
use boardlab_sight_reduction::SightReduction;
use boardlab_solve::bench::bench;
use boardlab_solve::SolverConfig;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let setups: u64 = args
        .get(1)
        .map_or(200, |s| s.parse().expect("SETUPS is a number"));
    let distance = args.get(2).is_some_and(|s| s == "distance");
    let options = SightReduction::info()
        .parse_options(args.get(3).map_or("", String::as_str))
        .expect("valid options");
    let table_mb: usize =
        std::env::var("TABLE_MB").map_or(8, |s| s.parse().expect("TABLE_MB is a number"));
    let config = SolverConfig {
        table_bytes: table_mb << 20,
        ..SolverConfig::default()
    };
    let r = bench(&options, 0, setups, distance, config).expect("a match in its removal phase");
    let cpu = r.cpu_seconds;
    println!(
        "{setups} set-ups ({}, {}): first player wins {}",
        if distance {
            "with distance"
        } else {
            "win/loss"
        },
        if options.non_default().next().is_none() {
            "default options".to_string()
        } else {
            options.to_string()
        },
        r.first_wins
    );
    println!(
        "wall {:.3} s, cpu {} s, {} positions ({:.0}/s), slowest {:.3} s (seed {})",
        r.seconds,
        cpu.map_or("?".to_string(), |c| format!("{c:.3}")),
        r.stats.nodes,
        r.stats.nodes as f64 / r.seconds,
        r.slowest.0,
        r.slowest.1
    );
    println!(
        "decided by the table {}, by the count bounds {}",
        r.stats.tt_cuts, r.stats.bound_cuts
    );
}
