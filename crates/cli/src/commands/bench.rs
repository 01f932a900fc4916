//! `boardlab bench GAME`: random playouts/s, plies/s, perft nodes/s and MCTS iterations/s on
//! one core; for Sight Reduction also the exact solver on random set-ups.

use super::Selectors;
use anyhow::Result;
use boardlab_solve::bench::bench;
use boardlab_solve::SolverConfig;
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub select: Selectors,
    /// Seconds to spend on each measurement.
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,
    /// Perft depth to time (default: the deepest that fits in the time).
    #[arg(long)]
    pub perft_depth: Option<u32>,
    /// Sight Reduction: random set-ups (seeds from --seed on) for the exact solver to decide
    /// who wins, one after another on one thread (0: skip).
    #[arg(long, default_value_t = 200, value_name = "N")]
    pub solve_setups: u64,
    /// Sight Reduction: measure the exact solver only (no playouts, perft or MCTS), so that
    /// the process's own CPU time is the solver's, as when comparing with another solver.
    #[arg(long)]
    pub solve_only: bool,
    /// Sight Reduction: the solver's transposition table, in MiB. One set-up's who-wins
    /// search keeps well within the default; a larger table only costs address translations.
    #[arg(long, default_value_t = 8, value_name = "MIB")]
    pub table_mb: u32,
}

pub fn run(args: &Args) -> Result<()> {
    if !(args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= 3600.0) {
        anyhow::bail!("--seconds must be a number of seconds between 0 and 3600");
    }
    if !(1..=65_536).contains(&args.table_mb) {
        anyhow::bail!("--table-mb must be between 1 and 65536");
    }
    args.measure()
}

impl Args {
    fn measure(&self) -> Result<()> {
        let game = self.select.game()?;
        if self.solve_only {
            if !super::has_exact_solver(game.kind()) {
                anyhow::bail!(
                    "--solve-only: {} has no exact solver",
                    game.kind().info().name
                );
            }
            return self.solver();
        }
        let budget = Duration::from_secs_f64(self.seconds);
        outln!(
            "{} (options: {}), one thread, {:.1} s per measurement",
            game.kind().info().name,
            game.options(),
            self.seconds
        )?;
        let (games, plies, secs) = game.random_playouts(budget, self.select.seed);
        outln!(
            "random playouts: {:.0}/s ({games} playouts in {secs:.2} s)",
            games as f64 / secs
        )?;
        outln!(
            "plies: {:.0}/s ({:.1} plies per playout)",
            plies as f64 / secs,
            plies as f64 / games.max(1) as f64
        )?;

        let (depth, nodes, secs) = match self.perft_depth {
            Some(d) => {
                let t = Instant::now();
                let n = game.perft(d);
                (d, n, t.elapsed().as_secs_f64())
            }
            None => {
                // Deepen while the next depth is predicted to fit in the budget.
                let mut best = (0, 1, 1e-9);
                let mut prev_secs = 0.0f64;
                for d in 1..=64 {
                    let t = Instant::now();
                    let n = game.perft(d);
                    let s = t.elapsed().as_secs_f64();
                    best = (d, n, s);
                    let growth = if prev_secs > 1e-4 {
                        s / prev_secs
                    } else {
                        30.0
                    };
                    prev_secs = s;
                    if n == 0 || s * growth.max(2.0) > self.seconds {
                        break;
                    }
                }
                best
            }
        };
        outln!(
            "perft: {:.0} nodes/s (perft({depth}) = {nodes} in {secs:.3} s)",
            nodes as f64 / secs.max(1e-9)
        )?;
        if game.outcome().is_none() {
            for spec in ["mcts:plain", "mcts"] {
                let spec: boardlab_ai::BotSpec = spec.parse()?;
                match boardlab_ai::bench_mcts(&*game, &spec, budget, self.select.seed) {
                    Ok((iterations, secs)) => outln!(
                        "{spec}: {:.0} iterations/s ({iterations} iterations in {secs:.2} s, one thread)",
                        iterations as f64 / secs.max(1e-9)
                    )?,
                    Err(e) => outln!("{spec}: {e}")?,
                }
            }
        }
        if super::has_exact_solver(game.kind()) && self.solve_setups > 0 {
            self.solver()?;
        }
        Ok(())
    }

    /// The exact solver on `--solve-setups` random set-ups, who wins only.
    fn solver(&self) -> Result<()> {
        let options = self.select.options()?;
        let (first, n) = (self.select.seed, self.solve_setups);
        if n == 0 {
            anyhow::bail!("--solve-setups must be at least 1 to measure the solver");
        }
        let last = first.saturating_add(n - 1);
        let config = SolverConfig {
            table_bytes: (self.table_mb as usize) << 20,
            ..SolverConfig::default()
        };
        match bench(&options, first, n, false, config) {
            Ok(r) => outln!(
                "exact solver, who wins: {n} set-ups (seeds {first}-{last}) in {:.3} s{}, \
                 {} positions ({:.0}/s), first player wins {}, slowest {:.3} s (seed {}), \
                 {} MiB table",
                r.seconds,
                r.cpu_seconds
                    .map_or(String::new(), |c| format!(" (CPU time {c:.2} s)")),
                r.stats.nodes,
                r.stats.nodes as f64 / r.seconds.max(1e-9),
                r.first_wins,
                r.slowest.0,
                r.slowest.1,
                self.table_mb
            )?,
            Err(e) => outln!("exact solver: {e}")?,
        }
        Ok(())
    }
}
