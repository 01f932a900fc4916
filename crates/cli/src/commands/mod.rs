//! Command-line definitions and the code of each command.
//!
//! Commands print with `outln!` and `out!` rather than `println!`/`print!`: a failed write
//! to standard output is an error the command returns, so a reader that stops early
//! (`boardlab replay FILE --verbose | head -1`) ends the command quietly instead of a panic
//! (see `main`).

/// `println!` returning the write error (an [`std::io::Result`]) instead of panicking.
macro_rules! outln {
    () => {
        $crate::commands::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::commands::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` returning the write error (an [`std::io::Result`]) instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::commands::write_out(format_args!($($arg)*))
    };
}

/// Writes to standard output.
///
/// # Errors
/// The write failed: mostly a reader that closed the pipe.
pub fn write_out(args: std::fmt::Arguments<'_>) -> std::io::Result<()> {
    use std::io::Write;
    std::io::stdout().lock().write_fmt(args)
}

mod abuse;
mod analyze;
mod arena;
mod bench;
mod games;
mod loadtest;
mod moves;
mod perft;
mod play;
mod puzzle;
mod replay;
mod report;
mod review;
mod select;
mod serve;
mod show;
mod site;
mod solve;
mod study;
mod ugi;

use anyhow::Result;
use clap::{Parser, Subcommand};

pub use select::Selectors;

/// Play, analyse and solve Obsidio, Opprimo, Sight Reduction and assideum.
#[derive(Debug, Parser)]
#[command(name = "boardlab", version, about, long_about = None)]
pub struct Cli {
    /// The command; without one, `boardlab` runs the game server with its defaults.
    #[command(subcommand)]
    pub command: Option<Command>,
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
    /// Review a recorded game: every move graded (?!, ?, ??) with its value and the best move
    /// where another was played, then accuracy, mistakes and blunders per side.
    Review(review::Args),
    /// Measure random playouts/s, plies/s, perft nodes/s and MCTS iterations/s on one core.
    Bench(bench::Args),
    /// Search a position with a bot: best move, value, principal variation, nodes and
    /// nodes/s (the last line is `bestmove MOVE`).
    Analyze(analyze::Args),
    /// Play a match between two bots with alternating seats: wins, draws, losses, score with
    /// its 95% interval and the Elo difference.
    Arena(arena::Args),
    /// Run the game server: HTTP + WebSocket API and the browser UI (the default command).
    Serve(serve::Args),
    /// Write the whole web app (pages, engine, rules, tutorials, puzzles) to a folder that any
    /// static host serves: games against the computer, hints, analysis, tutorials and puzzles
    /// work there with no server.
    Site(site::Args),
    /// Play many concurrent games against a server on this machine and report moves/s and
    /// latency percentiles.
    Loadtest(loadtest::Args),
    /// Solve a Sight Reduction position exactly: the last line is `win` or `loss` (`win in N`
    /// / `loss in N` with --distance); with --option mode=solitaire, a solution or the proof
    /// that none exists.
    Solve(solve::Args),
    /// Generate solvable Sight Reduction solitaire puzzles, graded by how many first moves
    /// lead to dead ends.
    Puzzle(puzzle::Args),
    /// Designer report: many self-play games (every option value compared) boiled down to who
    /// wins, length, branching, decisiveness, drama, the pie rule and a skill trace, as HTML,
    /// Markdown and JSON with charts (resumable, shardable).
    Report(report::Args),
    /// Solve many random Sight Reduction set-ups exactly: first-player win rate, game lengths
    /// and first moves, as JSON, CSV and an SVG chart (resumable).
    Study(study::Args),
    /// Speak UGI (the Universal Game Interface, UCI for any game) on standard input and
    /// output, as an engine for match runners and graphical interfaces.
    Ugi(ugi::Args),
}

/// Runs a parsed command line.
///
/// # Errors
/// Anything the command reports: bad arguments, options, positions, moves or files.
pub fn run(cli: Cli) -> Result<()> {
    let Some(command) = cli.command else {
        return serve::run(&serve::Args::default());
    };
    match command {
        Command::Games(a) => games::run(&a),
        Command::Perft(a) => perft::run(&a),
        Command::Moves(a) => moves::run(&a),
        Command::Show(a) => show::run(&a),
        Command::Play(a) => play::run(&a),
        Command::Replay(a) => replay::run(&a),
        Command::Review(a) => review::run(&a),
        Command::Bench(a) => bench::run(&a),
        Command::Analyze(a) => analyze::run(&a),
        Command::Arena(a) => arena::run(&a),
        Command::Serve(a) => serve::run(&a),
        Command::Site(a) => site::run(&a),
        Command::Loadtest(a) => loadtest::run(&a),
        Command::Solve(a) => solve::run(a),
        Command::Puzzle(a) => puzzle::run(a),
        Command::Study(a) => study::run(a),
        Command::Report(a) => report::run(&a),
        Command::Ugi(a) => ugi::run(a),
    }
}

/// A progress bar of `len` steps drawn with `template` on standard error when that is a
/// terminal; hidden otherwise (logs and pipes get their own progress lines).
/// Reads a game record from `file` (`-`: standard input), in the JSON or the text form.
fn read_record(file: &std::path::Path) -> Result<boardlab_core::GameRecord> {
    use anyhow::Context;
    let text = if file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin()).context("cannot read standard input")?
    } else {
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?
    };
    boardlab_core::GameRecord::parse(&text)
        .with_context(|| format!("{} is not a valid game record", file.display()))
}

fn progress_bar(len: u64, template: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    bar.set_style(indicatif::ProgressStyle::with_template(template).expect("a valid template"));
    bar
}

/// The `--threads` value: the number given, or one per core; from 1 to 256.
fn worker_threads(given: Option<usize>) -> Result<usize> {
    let threads =
        given.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 || threads > 256 {
        anyhow::bail!("--threads must be from 1 to 256");
    }
    Ok(threads)
}

/// Whether `kind` is the game of the exact solver (`boardlab_solve`, Sight Reduction's), which
/// the solver's commands wrap.
fn has_exact_solver(kind: boardlab_games::GameKind) -> bool {
    use boardlab_core::Game as _;
    kind.name() == boardlab_solve::SightReduction::info().name
}

/// Refuses every game but Sight Reduction, for the commands that only it supports: "there
/// `what` for GAME" (`what`: "is no exact solver", "are no puzzles", …).
fn sight_reduction_only(kind: boardlab_games::GameKind, what: &str, command: &str) -> Result<()> {
    if !has_exact_solver(kind) {
        anyhow::bail!(
            "there {what} for {}; `boardlab {command}` supports sight-reduction",
            kind.info().name
        );
    }
    Ok(())
}

/// The solver table's size in bytes from `--table-mb` (1 to 65536 MiB).
fn table_bytes(mb: usize) -> Result<usize> {
    if mb == 0 || mb > 1 << 16 {
        anyhow::bail!("--table-mb must be from 1 to 65536");
    }
    Ok(mb << 20)
}

/// Options of the game `info` describes from the pairs in `first` followed by
/// `--option KEY=VALUE` items.
fn game_options(
    info: &'static boardlab_core::GameInfo,
    first: Vec<(String, String)>,
    items: &[String],
) -> Result<boardlab_core::Options> {
    let mut pairs = first;
    for item in items {
        pairs.push(boardlab_core::options::parse_key_value(item)?);
    }
    Ok(info.options_from_pairs(pairs)?)
}
