//! `boardlab solve sight-reduction [selectors] [--distance] [--all-moves]`: the exact value
//! of a position (the last line is `win` or `loss`, or `win in N` / `loss in N` with
//! `--distance`, from the view of the side to move). With `--option mode=solitaire`: a
//! solution of the puzzle, or the proof that none exists and the lowest score reachable.

use super::select::status_line;
use super::Selectors;
use anyhow::{Context, Result};
use boardlab_core::{Game, GameRecord, Proven, Seat, Wdl};
use boardlab_core::{Notation, Rules};
use boardlab_solve::{solitaire, SightReduction, Solver, SolverConfig};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub select: Selectors,
    /// Also how fast: the winner wins as fast as possible, the loser holds out as long as
    /// possible (plies to the end).
    #[arg(long)]
    pub distance: bool,
    /// First list every legal move with its value for the side to move.
    #[arg(long)]
    pub all_moves: bool,
    /// Memory for the solver's table, in MiB.
    #[arg(long, default_value_t = 64, value_name = "MIB")]
    pub table_mb: usize,
    /// Solitaire: the most positions to search before giving up (the answer is then
    /// undecided).
    #[arg(long, default_value_t = 2_000_000_000, value_name = "N")]
    pub max_nodes: u64,
    /// Solitaire: save the solution (or the best line) as a game record (JSON if the name
    /// ends in .json, else the text form).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<()> {
    super::sight_reduction_only(args.select.kind()?, "is no exact solver", "solve")?;
    let table_bytes = super::table_bytes(args.table_mb)?;
    let game: SightReduction = args.select.typed_game()?;
    let config = SolverConfig {
        table_bytes,
        node_limit: args.max_nodes,
    };
    if game.is_solitaire() {
        return solve_solitaire(&args, &game, config);
    }
    let mut solver = Solver::new(config);
    let start = Instant::now();
    if args.all_moves {
        for (mv, value) in solver.game_move_values(&game, args.distance)? {
            outln!(
                "{} {}",
                game.format_move(mv),
                side_to_move_words(value, game.to_move())
            )?;
        }
    }
    let value = if args.distance {
        solver.solve_game_distance(&game)?
    } else {
        solver.solve_game(&game)?
    };
    eprintln!(
        "{}; {} positions in {:.3} s",
        status_line(&game),
        solver.stats().nodes,
        start.elapsed().as_secs_f64()
    );
    outln!("{}", side_to_move_words(value, game.to_move()))?;
    Ok(())
}

/// A result in this command's words, for `seat`, the side to move: `win`, `loss`, `win in N`,
/// `loss in N` (no draws exist in Sight Reduction).
fn side_to_move_words(value: Proven, seat: Seat) -> String {
    let value = value.for_seat(seat);
    let word = match value.result {
        Wdl::Win => "win",
        Wdl::Loss => "loss",
        Wdl::Draw => "draw",
    };
    match value.plies {
        Some(n) => format!("{word} in {n}"),
        None => word.to_string(),
    }
}

fn solve_solitaire(args: &Args, game: &SightReduction, config: SolverConfig) -> Result<()> {
    if args.distance || args.all_moves {
        anyhow::bail!(
            "--distance and --all-moves apply to two-player games, not to mode=solitaire"
        );
    }
    let start = Instant::now();
    let result = solitaire::solve(game, config)?;
    let moves: Vec<String> = result.moves.iter().map(|m| game.format_move(*m)).collect();
    eprintln!(
        "{} positions in {:.3} s",
        result.nodes,
        start.elapsed().as_secs_f64()
    );
    if !moves.is_empty() {
        outln!("moves: {}", moves.join(" "))?;
    }
    if let Some(path) = &args.record {
        let mut end = game.clone();
        for m in &result.moves {
            end.play(*m).context("the solution replays")?;
        }
        // The record starts where the solution starts: the set-up of the seed, or the
        // position given (after --moves).
        let start_position = (args.select.position.is_some() || args.select.moves.is_some())
            .then(|| game.position_text());
        let mut record = GameRecord::new(game, args.select.seed, start_position);
        record.seats.first = "boardlab solve".into();
        record.moves = moves.clone();
        record.set_outcome(end.outcome());
        let text = if path.extension().is_some_and(|e| e == "json") {
            record.to_json()
        } else {
            record.to_text()
        };
        std::fs::write(path, text)
            .with_context(|| format!("cannot write the record to {}", path.display()))?;
        eprintln!("record saved to {}", path.display());
    }
    if result.solved {
        outln!(
            "solved: {} pieces left in {} moves",
            result.score,
            moves.len()
        )?;
    } else if result.exhaustive {
        outln!(
            "no solution exists; the fewest pieces left is {} (line above)",
            result.score
        )?;
    } else if result.score == u32::MAX {
        outln!(
            "undecided: no ending found within --max-nodes {} positions",
            args.max_nodes
        )?;
    } else {
        outln!(
            "undecided within --max-nodes {} positions; best line found leaves {} pieces",
            args.max_nodes,
            result.score
        )?;
    }
    Ok(())
}
