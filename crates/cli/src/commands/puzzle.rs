//! `boardlab puzzle sight-reduction [--count N] [--seed S] [--difficulty easy|medium|hard]
//! [--option …]`: solvable solitaire puzzles, each printed as position text with a
//! solution, graded by how many first moves lead to dead ends.

use anyhow::Result;
use boardlab_core::Game as _;
use boardlab_solve::puzzle::{generate, Difficulty};
use boardlab_solve::{SightReduction, SolverConfig};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game (sight-reduction).
    pub game: String,
    /// A game option as KEY=VALUE (repeatable); mode=solitaire is implied, e.g.
    /// --option enemy-sight=true or --option keep=b2,c7.
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Number of puzzles.
    #[arg(long, default_value_t = 1)]
    pub count: usize,
    /// Seed of the run (the same seed always gives the same puzzles).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Only puzzles of this grade: easy (under a quarter of the first moves are dead ends),
    /// medium (under half), hard (half or more).
    #[arg(long)]
    pub difficulty: Option<String>,
    /// Random set-ups to try at most before giving up.
    #[arg(long, default_value_t = 10_000)]
    pub max_tries: u64,
    /// The most positions one search may visit; set-ups needing more are skipped.
    #[arg(long, default_value_t = 2_000_000, value_name = "N")]
    pub max_nodes: u64,
    /// Print the puzzles as JSON lines.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> Result<()> {
    super::sight_reduction_only(args.game.parse()?, "are no puzzles", "puzzle")?;
    let difficulty = args
        .difficulty
        .as_deref()
        .map(str::parse::<Difficulty>)
        .transpose()
        .map_err(anyhow::Error::msg)?;
    if args.count == 0 || args.count > 100_000 {
        anyhow::bail!("--count must be from 1 to 100000");
    }
    let options = super::game_options(
        SightReduction::info(),
        vec![("mode".to_string(), "solitaire".to_string())],
        &args.options,
    )?;
    let config = SolverConfig {
        table_bytes: 16 << 20,
        node_limit: args.max_nodes,
    };
    let bar = super::progress_bar(
        args.count as u64,
        "{bar:30} {pos}/{len} puzzles, {msg} [{elapsed}]",
    );
    let puzzles = generate(
        &options,
        args.count,
        args.seed,
        difficulty,
        args.max_tries,
        config,
        |found, tried| {
            bar.set_position(found as u64);
            bar.set_message(format!("{tried} set-ups tried"));
        },
    )
    .map_err(anyhow::Error::msg)?;
    bar.finish_and_clear();
    let game_options = options.to_string();
    for (i, p) in puzzles.iter().enumerate() {
        if args.json {
            outln!("{}", serde_json::to_string(p)?)?;
            continue;
        }
        if i > 0 {
            outln!()?;
        }
        outln!(
            "puzzle {} ({}: {} of {} first moves are dead ends)",
            i + 1,
            p.difficulty,
            p.dead_ends,
            p.first_moves
        )?;
        outln!("options: {game_options}")?;
        outln!("position: {}", p.position)?;
        outln!(
            "from: seed {} after {} removals along a solution",
            p.seed,
            p.plies
        )?;
        outln!("solution: {}", p.solution.join(" "))?;
    }
    if puzzles.len() < args.count {
        anyhow::bail!(
            "found {} of {} puzzles in {} set-ups; raise --max-tries or change --difficulty",
            puzzles.len(),
            args.count,
            args.max_tries
        );
    }
    Ok(())
}
