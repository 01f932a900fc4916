//! Computer players for the boardlab games.
//!
//! - [`BotSpec`]: a bot described as text (`random`, `mcts:time=200ms`,
//!   `mcts:iterations=20000,c=1.4`, `mcts:plain`, `alphabeta:depth=6`, `best:time=1s`,
//!   `level:N`), parsed with errors that list the accepted forms.
//! - [`Bot`]: chooses a move within a budget, reports a [`Value`] from a named seat's point of
//!   view (an estimate, and a [`boardlab_core::Proven`] result when exact search proved one),
//!   the principal variation and node counts, stops on request, and is reproducible for a
//!   fixed seed and a work budget (iterations, nodes or depth).
//! - Bots: [`RandomBot`], [`mcts::Mcts`] (UCT, MCTS-solver, tree reuse, root-parallel threads,
//!   playout policies, exact endgames) and [`alphabeta::AlphaBeta`] (iterative-deepening
//!   negamax with a transposition table). What they need of a game is [`knowledge::GameAi`],
//!   which each game implements in its own crate and offers through [`Capabilities::bots`].
//! - [`ugi::UgiBot`]: an outside engine run as a child process and spoken to in UGI
//!   (`ugi:COMMAND`); it can fail, which [`Bot::try_search`] reports.
//! - [`DynKind`] and [`DynGame`] ([`dynamic`]): any game chosen at run time, implemented once
//!   for every game; [`choose_move`], [`analyze`], [`analyze_line`] search a [`DynGame`].
//! - [`arena`]: matches between two bots with results, score interval and Elo difference.
//! - [`review`]: a played game reviewed move by move: values, best moves, grades, accuracy.
//!
//! How each bot works and how strong it is: `docs/ai.md`.

pub mod alphabeta;
pub mod arena;
pub mod capabilities;
pub mod dynamic;
mod error;

pub mod knowledge;
pub mod levels;
pub mod mcts;
pub mod review;
pub mod search;
pub mod selfplay;
pub mod spec;
pub mod ugi;
pub mod words;

pub use error::EngineError;
pub use search::{Bot, RandomBot, SearchResult, Value};
pub use spec::BotSpec;

pub use capabilities::{
    bot_support, new_bot, new_bot_with_table, resolve, resolve_type, BotSupport, Capabilities,
};
pub use dynamic::{kind_of, DynBot, DynGame, DynKind};

use boardlab_core::Game;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use thiserror::Error;

/// Why a bot could not be made or could not move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum AiError {
    /// Text that is not a bot spec.
    #[error("bad bot spec '{text}': {reason}; accepted: {}", spec::ACCEPTED)]
    Spec { text: String, reason: String },
    /// The game is already over.
    #[error("the game is over ({0}); there is no move to choose")]
    GameOver(String),
    /// The AI does not know this game.
    #[error("the computer players do not support {0} yet")]
    Unsupported(String),
    /// An outside engine failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The moves given do not replay from the start given.
    #[error("cannot replay the game: {0}")]
    Replay(String),
}

/// A search result in notation, for a game of any kind.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The concrete spec used (levels resolved).
    pub bot: String,
    /// The move chosen, in canonical notation.
    pub best: String,
    /// The value for the seat to move.
    pub value: Value,
    /// The principal variation, starting with `best`.
    pub pv: Vec<String>,
    /// Iterations or nodes searched.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// Completed alpha-beta depth, or the deepest MCTS line.
    pub depth: u32,
}

impl Analysis {
    /// Nodes (or iterations) per second.
    #[must_use]
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Searches `game` with `bot` and writes the result in notation.
///
/// # Errors
/// An outside engine failed (see [`Bot::try_search`]).
///
/// # Panics
/// If the game is over.
pub fn analysis_of<G: Game>(
    game: &G,
    bot: &mut dyn Bot<G>,
    stop: &AtomicBool,
) -> Result<Analysis, AiError> {
    let r = bot.try_search(game, stop)?;
    let mut g = game.clone();
    let mut pv = Vec::with_capacity(r.pv.len());
    for &m in &r.pv {
        pv.push(g.format_move(m));
        g.play_unchecked(m);
    }
    Ok(Analysis {
        bot: String::new(),
        best: game.format_move(r.best),
        value: r.value,
        pv,
        nodes: r.nodes,
        elapsed: r.elapsed,
        depth: r.depth,
    })
}

/// The game reached from `start` by `moves` (in notation), and those moves.
///
/// # Errors
/// The first move that does not replay, with its number.
pub(crate) fn replay_line<G: Game>(
    start: &G,
    moves: &[String],
) -> Result<(G, Vec<G::Move>), AiError> {
    let mut game = start.clone();
    let mut played = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let mv = game
            .play_text(text)
            .map_err(|e| AiError::Replay(format!("move {}: {e}", i + 1)))?;
        played.push(mv);
    }
    Ok((game, played))
}

/// [`analyze_line`] for a typed game.
pub(crate) fn analyze_typed<G: Capabilities>(
    start: &G,
    moves: &[String],
    spec: &BotSpec,
    seed: u64,
    stop: &AtomicBool,
) -> Result<Analysis, AiError> {
    let (game, played) = replay_line(start, moves)?;
    if let Some(o) = boardlab_core::Rules::outcome(&game) {
        return Err(AiError::GameOver(o.to_string()));
    }
    let resolved = resolve_type::<G>(spec)?;
    let mut bot = new_bot::<G>(&resolved, seed)?;
    bot.follow(start, &played);
    let mut a = analysis_of(&game, bot.as_mut(), stop)?;
    a.bot = resolved.to_string();
    Ok(a)
}

/// Searches `game` with `spec` and reports the best move, value, principal variation and
/// work done. Reproducible for a fixed seed and a non-time budget.
///
/// # Errors
/// The game is over, the game has no bot support, or an outside engine failed.
pub fn analyze(
    game: &dyn DynGame,
    spec: &BotSpec,
    seed: u64,
    stop: &AtomicBool,
) -> Result<Analysis, AiError> {
    analyze_line(game, &[], spec, seed, stop)
}

/// [`analyze`] for the position reached from `start` by `moves` (in notation). The bot is
/// told the whole line ([`Bot::follow`]), which an outside engine passes on.
///
/// # Errors
/// A move that does not replay, the game is over, the game has no bot support, or an outside
/// engine failed.
pub fn analyze_line(
    start: &dyn DynGame,
    moves: &[String],
    spec: &BotSpec,
    seed: u64,
    stop: &AtomicBool,
) -> Result<Analysis, AiError> {
    start.analyze_line(moves, spec, seed, stop)
}

/// Chooses a move for the side to move of `game` (any of the four games) within the spec's
/// budget; returns its canonical notation. Reproducible for a fixed seed and a non-time
/// budget.
///
/// # Errors
/// The game is over, or the spec is not usable for this game.
pub fn choose_move(game: &dyn DynGame, spec: &BotSpec, seed: u64) -> Result<String, AiError> {
    choose_move_with_stop(game, spec, seed, &AtomicBool::new(false))
}

/// [`choose_move`] with a stop flag checked during the search: the caller may set it to end
/// early, and the best move so far is returned.
///
/// # Errors
/// The game is over, or the spec is not usable for this game.
pub fn choose_move_with_stop(
    game: &dyn DynGame,
    spec: &BotSpec,
    seed: u64,
    stop: &AtomicBool,
) -> Result<String, AiError> {
    analyze(game, spec, seed, stop).map(|a| a.best)
}

/// MCTS speed on `game`: iterations done in `budget` by one search with `spec` (its own
/// budget and thread count replaced by `budget` and one thread), and the seconds taken.
///
/// # Errors
/// A spec that is not MCTS, or a game without bot support.
pub fn bench_mcts(
    game: &dyn DynGame,
    spec: &BotSpec,
    budget: Duration,
    seed: u64,
) -> Result<(u64, f64), AiError> {
    let BotSpec::Mcts(m) = spec else {
        return Err(AiError::Unsupported(format!("benchmarks of {spec}")));
    };
    let timed = BotSpec::Mcts(spec::MctsSpec {
        time: Some(budget),
        iterations: None,
        threads: 1,
        ..*m
    });
    let mut bot = game.kind().new_bot(&timed, seed, None)?;
    let r = bot.search(game, &AtomicBool::new(false))?;
    Ok((r.nodes, r.elapsed.as_secs_f64()))
}
