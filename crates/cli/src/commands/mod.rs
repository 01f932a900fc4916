//! Command-line definitions and the code of each command.

mod bench;
mod games;
mod moves;
mod perft;
mod play;
mod replay;
mod select;
mod show;

use anyhow::Result;
use clap::{Parser, Subcommand};

pub use select::Selectors;

/// Play, analyse and solve Obsidio, Opprimo, Sight Reduction and assideum.
#[derive(Debug, Parser)]
#[command(name = "boardlab", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List every game with its options, allowed values, defaults and descriptions.
    Games(games::Args),
    /// Count move sequences of a given length (the last line is the bare count).
    Perft(perft::Args),
    /// List the legal moves, one per line, in canonical notation and the game's fixed order.
    Moves(moves::Args),
    /// Draw the position with coordinates, whose turn it is or the result, and its position text.
    Show(show::Args),
    /// Play a game in the terminal, against a person or the computer.
    Play(play::Args),
    /// Check a game record (JSON or text form) and show the final position and result.
    Replay(replay::Args),
    /// Measure random playouts/s, plies/s and perft nodes/s on one core.
    Bench(bench::Args),
}

/// Runs a parsed command line.
///
/// # Errors
/// Anything the command reports: bad arguments, options, positions, moves or files.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Games(a) => games::run(&a),
        Command::Perft(a) => perft::run(a),
        Command::Moves(a) => moves::run(a),
        Command::Show(a) => show::run(a),
        Command::Play(a) => play::run(a),
        Command::Replay(a) => replay::run(&a),
        Command::Bench(a) => bench::run(a),
    }
}
