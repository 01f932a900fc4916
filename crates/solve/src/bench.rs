//! The solver benchmark: random set-ups (game seeds `first_seed`, `first_seed + 1`, …)
//! solved one after another on the calling thread, with one table kept throughout. Used by
//! `boardlab bench sight-reduction` and the `solve_bench` example.

use crate::{SolveError, Solver, SolverConfig, Stats};
use boardlab_core::Rules as _;
use boardlab_core::{Game, NewGameError, Options};
use boardlab_sight_reduction::SightReduction;
use thiserror::Error;
use web_time::Instant;

/// What a benchmark run measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchResult {
    /// Set-ups solved.
    pub setups: u64,
    /// How many the first player wins.
    pub first_wins: u64,
    /// Wall time for all of them, in seconds.
    pub seconds: f64,
    /// The CPU time (user and system) the process spent meanwhile, in seconds, where the
    /// system tells it (Linux): steadier than wall time on a shared machine, and what a
    /// comparison with another program measures.
    pub cpu_seconds: Option<f64>,
    /// The solver's counters over the run.
    pub stats: Stats,
    /// The slowest set-up: its seconds and its seed.
    pub slowest: (f64, u64),
}

/// Why a benchmark could not run.
#[derive(Debug, Error)]
pub enum BenchError {
    /// The options do not give a game (a bad option value).
    #[error("set-up {seed}: {source}")]
    Setup {
        /// The set-up's seed.
        seed: u64,
        /// What went wrong.
        source: NewGameError,
    },
    /// The set-up is not a match in its removal phase (`setup=fair`, `mode=solitaire`).
    #[error("{0}")]
    Solve(#[from] SolveError),
}

/// Solves `setups` random set-ups with `options` exactly, who wins only or with `distance`.
///
/// # Errors
/// Options that do not give a two-player game starting in its removal phase.
pub fn bench(
    options: &Options,
    first_seed: u64,
    setups: u64,
    distance: bool,
    config: SolverConfig,
) -> Result<BenchResult, BenchError> {
    let cpu_start = cpu_seconds();
    let mut solver = Solver::new(config);
    let mut first_wins = 0;
    let mut slowest = (0.0, first_seed);
    let start = Instant::now();
    for seed in first_seed..first_seed.saturating_add(setups) {
        let game = SightReduction::new(options, seed)
            .map_err(|source| BenchError::Setup { seed, source })?;
        let t = Instant::now();
        let value = if distance {
            solver.solve_game_distance(&game)?
        } else {
            solver.solve_game(&game)?
        };
        let dt = t.elapsed().as_secs_f64();
        if dt > slowest.0 {
            slowest = (dt, seed);
        }
        first_wins += u64::from(value.wins(game.to_move()));
    }
    Ok(BenchResult {
        setups,
        first_wins,
        seconds: start.elapsed().as_secs_f64(),
        cpu_seconds: cpu_seconds().zip(cpu_start).map(|(end, start)| end - start),
        stats: solver.stats(),
        slowest,
    })
}

/// The CPU time (user and system) this process has used so far, in seconds, from
/// `/proc/self/stat` (`None` where there is none: other systems, the browser).
#[must_use]
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (in parentheses, which may hold spaces): utime and
    // stime are the 12th and 13th, in clock ticks of 1/100 s.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_first_player_wins_and_refuses_a_solitaire() {
        let options = SightReduction::info().default_options();
        let r = bench(&options, 0, 3, false, SolverConfig::default()).unwrap();
        let mut solver = Solver::new(SolverConfig::default());
        let wins = (0..3)
            .filter(|&s| {
                let g = SightReduction::new(&options, s).unwrap();
                solver.solve_game(&g).unwrap().wins(g.to_move())
            })
            .count() as u64;
        assert_eq!((r.setups, r.first_wins), (3, wins));
        assert!(r.stats.nodes > 0);
        if cfg!(target_os = "linux") {
            assert!(r.cpu_seconds.is_some_and(|c| c >= 0.0));
        }
        let solitaire = SightReduction::info()
            .parse_options("mode=solitaire")
            .unwrap();
        assert!(matches!(
            bench(&solitaire, 0, 1, false, SolverConfig::default()),
            Err(BenchError::Solve(SolveError::WrongMode(_)))
        ));
    }
}
