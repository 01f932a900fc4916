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
//!   negamax with a transposition table). Game knowledge lives in [`knowledge::GameAi`],
//!   implemented for every game in [`games`].
//! - [`ugi::UgiBot`]: an outside engine run as a child process and spoken to in UGI
//!   (`ugi:COMMAND`); it can fail, which [`Bot::try_search`] reports.
//! - [`choose_move`], [`analyze`], [`analyze_line`]: the same for a game of any kind
//!   ([`AnyGame`]).
//! - [`arena`]: matches between two bots with results, score interval and Elo difference.
//! - [`review`]: a played game reviewed move by move: values, best moves, grades, accuracy.
//!
//! How each bot works and how strong it is: `docs/ai.md`.

pub mod alphabeta;
pub mod arena;
mod error;

pub mod games;
pub mod knowledge;
pub mod levels;
pub mod mcts;
pub mod review;
pub mod search;
pub mod spec;
pub mod ugi;
pub mod words;

pub use error::EngineError;
pub use search::{Bot, RandomBot, SearchResult, Value};
pub use spec::BotSpec;

use boardlab_core::Game;
use boardlab_games::{AnyGame, GameKind};
use knowledge::{Endgame, GameAi};
use std::any::{Any, TypeId};
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

/// Generic code run with a game type that has bot support; see [`visit_kind`].
pub trait AiVisitor {
    type Output;
    fn visit<G: GameAi>(self) -> Self::Output;
}

/// Generic code run with a game that has bot support; see [`visit_game`].
pub trait AiGameVisitor {
    type Output;
    fn visit<G: GameAi>(self, game: &G) -> Self::Output;
}

/// Generic code run with a game of any kind, with or without bot support; see [`visit_any`].
pub trait AnyGameVisitor {
    type Output;
    fn visit<G: Game>(self, game: &G) -> Self::Output;
}

/// Chooses at compile time, for each game of the list, between running a visitor with the game's
/// bot support ([`GameAi`]) and answering [`AiError::Unsupported`] for a game that has none
/// (method resolution prefers `Probe<G>: ViaAi` and falls back to `&Probe<G>: ViaNone`).
struct Probe<G>(std::marker::PhantomData<G>);

trait ViaAi {
    fn kind<V: AiVisitor>(&self, visitor: V) -> Result<V::Output, AiError>;
}

impl<G: GameAi> ViaAi for Probe<G> {
    fn kind<V: AiVisitor>(&self, visitor: V) -> Result<V::Output, AiError> {
        Ok(visitor.visit::<G>())
    }
}

#[allow(dead_code)] // for a game of the list without bot support
trait ViaNone {
    fn kind<V: AiVisitor>(&self, visitor: V) -> Result<V::Output, AiError>;
}

impl<G: Game> ViaNone for &Probe<G> {
    fn kind<V: AiVisitor>(&self, _: V) -> Result<V::Output, AiError> {
        Err(AiError::Unsupported(G::info().name.to_string()))
    }
}

/// A game value seen with its bot support, or refused.
struct GameProbe<'a, G>(&'a G);

trait GameViaAi {
    fn game<V: AiGameVisitor>(&self, visitor: V) -> Result<V::Output, AiError>;
}

impl<G: GameAi> GameViaAi for GameProbe<'_, G> {
    fn game<V: AiGameVisitor>(&self, visitor: V) -> Result<V::Output, AiError> {
        Ok(visitor.visit::<G>(self.0))
    }
}

#[allow(dead_code)] // for a game of the list without bot support
trait GameViaNone {
    fn game<V: AiGameVisitor>(&self, visitor: V) -> Result<V::Output, AiError>;
}

impl<G: Game> GameViaNone for &GameProbe<'_, G> {
    fn game<V: AiGameVisitor>(&self, _: V) -> Result<V::Output, AiError> {
        Err(AiError::Unsupported(G::info().name.to_string()))
    }
}

/// The dispatch functions, made from the one list of games (`boardlab_games::with_games!`).
macro_rules! ai_games {
    ($($variant:ident => $ty:ty),* $(,)?) => {
        /// Runs `visitor` with the game type of `kind`.
        ///
        /// # Errors
        /// A game without bot support.
        pub fn visit_kind<V: AiVisitor>(kind: GameKind, visitor: V) -> Result<V::Output, AiError> {
            match kind {
                $(GameKind::$variant => (&Probe::<$ty>(std::marker::PhantomData)).kind(visitor),)*
            }
        }

        /// Runs `visitor` with the typed game inside `game`.
        ///
        /// # Errors
        /// A game without bot support.
        pub fn visit_game<V: AiGameVisitor>(game: &AnyGame, visitor: V) -> Result<V::Output, AiError> {
            match game {
                $(AnyGame::$variant(g) => (&GameProbe(g)).game(visitor),)*
            }
        }

        /// Runs `visitor` with the typed game inside `game`, whether or not it has bot support.
        pub fn visit_any<V: AnyGameVisitor>(game: &AnyGame, visitor: V) -> V::Output {
            match game {
                $(AnyGame::$variant(g) => visitor.visit::<$ty>(g),)*
            }
        }

        /// Runs `visitor` with `G` seen as a game with bot support, for code that is generic
        /// over [`Game`] only.
        ///
        /// # Errors
        /// A game without bot support.
        pub fn visit_type<G: Game, V: AiVisitor>(visitor: V) -> Result<V::Output, AiError> {
            let id = TypeId::of::<G>();
            $(if id == TypeId::of::<$ty>() {
                return (&Probe::<$ty>(std::marker::PhantomData)).kind(visitor);
            })*
            Err(AiError::Unsupported(G::info().name.to_string()))
        }
    };
}

boardlab_games::with_games!(ai_games);

/// The concrete spec `spec` stands for in game `G`: levels and `best` resolved.
#[must_use]
pub fn resolve<G: GameAi>(spec: &BotSpec) -> BotSpec {
    match spec {
        BotSpec::Level(n) => resolve::<G>(&G::level_spec(*n)),
        BotSpec::Best(b) => G::best_spec(b.time.unwrap_or(spec::DEFAULT_TIME), b.threads),
        other => other.clone(),
    }
}

/// A bot for `G` (any game with bot support); its moves follow from `seed`. `table_mb` sets
/// the alpha-beta table's size instead of the size its budget suggests.
fn make_bot<G: GameAi>(spec: &BotSpec, seed: u64, table_mb: Option<u32>) -> Box<dyn Bot<G>> {
    match resolve::<G>(spec) {
        BotSpec::Random => Box::new(RandomBot::new(seed)),
        BotSpec::Mcts(m) => Box::new(mcts::Mcts::<G>::new(m, seed)),
        BotSpec::AlphaBeta(a) => {
            let bits =
                table_mb.map_or_else(|| alphabeta::table_bits(&a), alphabeta::table_bits_for_mb);
            Box::new(alphabeta::AlphaBeta::<G>::new(a, bits))
        }
        BotSpec::Ugi(u) => Box::new(ugi::UgiBot::<G>::new(u)),
        BotSpec::Level(_) | BotSpec::Best(_) => unreachable!("resolved above"),
    }
}

struct NewBot<'a>(&'a BotSpec, u64, Option<u32>);

impl AiVisitor for NewBot<'_> {
    type Output = Box<dyn Any + Send>;
    fn visit<G: GameAi>(self) -> Box<dyn Any + Send> {
        Box::new(make_bot::<G>(self.0, self.1, self.2))
    }
}

/// A bot for game `G`, following `spec`; its moves follow from `seed`. The random bot and
/// outside engines play every game; the others need the game's [`GameAi`] knowledge. An
/// outside engine is started by its first search (or [`ugi::UgiBot::prepare`]).
///
/// # Errors
/// A game without bot support.
pub fn new_bot<G: Game>(spec: &BotSpec, seed: u64) -> Result<Box<dyn Bot<G>>, AiError> {
    new_bot_with_table(spec, seed, None)
}

/// [`new_bot`] with the alpha-beta transposition table made to fit in `table_mb` MiB (see
/// [`alphabeta::table_bits_for_mb`]) instead of the size the budget suggests; `None` leaves
/// it to the budget. Other bots ignore it.
///
/// # Errors
/// A game without bot support.
pub fn new_bot_with_table<G: Game>(
    spec: &BotSpec,
    seed: u64,
    table_mb: Option<u32>,
) -> Result<Box<dyn Bot<G>>, AiError> {
    match spec {
        BotSpec::Random => return Ok(Box::new(RandomBot::new(seed))),
        BotSpec::Ugi(u) => return Ok(Box::new(ugi::UgiBot::<G>::new(u.clone()))),
        _ => {}
    }
    let any = visit_type::<G, _>(NewBot(spec, seed, table_mb))?;
    Ok(*any
        .downcast::<Box<dyn Bot<G>>>()
        .expect("visit_type visits G itself"))
}

struct NewJudge;

impl AiVisitor for NewJudge {
    type Output = Box<dyn Any + Send>;
    fn visit<G: GameAi>(self) -> Box<dyn Any + Send> {
        let mut endgame = G::Endgame::default();
        let judge: review::Judge<G> =
            Box::new(move |game: &G, budget, line| endgame.judge(game, budget, line));
        Box::new(judge)
    }
}

/// The exact judge of positions of `G` (see [`knowledge::Endgame::judge`]), with its own
/// state, or `None` for a game without bot support.
pub(crate) fn new_judge<G: Game>() -> Option<review::Judge<G>> {
    let any = visit_type::<G, _>(NewJudge).ok()?;
    Some(
        *any.downcast::<review::Judge<G>>()
            .expect("visit_type visits G itself"),
    )
}

struct Resolve<'a>(&'a BotSpec);

impl AiVisitor for Resolve<'_> {
    type Output = BotSpec;
    fn visit<G: GameAi>(self) -> BotSpec {
        resolve::<G>(self.0)
    }
}

/// The concrete spec that `spec` stands for in game `kind` (levels and `best` resolved).
///
/// # Errors
/// A game without bot support (for a spec other than `random` and `ugi:…`).
pub fn resolve_for(kind: GameKind, spec: &BotSpec) -> Result<BotSpec, AiError> {
    match spec {
        BotSpec::Random | BotSpec::Ugi(_) => Ok(spec.clone()),
        _ => visit_kind(kind, Resolve(spec)),
    }
}

/// [`resolve_for`] for the game type `G`.
///
/// # Errors
/// A game without bot support (for a spec other than `random` and `ugi:…`).
pub fn resolve_type<G: Game>(spec: &BotSpec) -> Result<BotSpec, AiError> {
    match spec {
        BotSpec::Random | BotSpec::Ugi(_) => Ok(spec.clone()),
        _ => visit_type::<G, _>(Resolve(spec)),
    }
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

struct Analyze<'a> {
    moves: &'a [String],
    spec: &'a BotSpec,
    seed: u64,
    stop: &'a AtomicBool,
}

impl AnyGameVisitor for Analyze<'_> {
    type Output = Result<Analysis, AiError>;
    fn visit<G: Game>(self, start: &G) -> Result<Analysis, AiError> {
        let mut game = start.clone();
        let mut played = Vec::with_capacity(self.moves.len());
        for (i, text) in self.moves.iter().enumerate() {
            let mv = game
                .play_text(text)
                .map_err(|e| AiError::Replay(format!("move {}: {e}", i + 1)))?;
            played.push(mv);
        }
        if let Some(o) = game.outcome() {
            return Err(AiError::GameOver(o.to_string()));
        }
        let resolved = resolve_type::<G>(self.spec)?;
        let mut bot = new_bot::<G>(&resolved, self.seed)?;
        bot.follow(start, &played);
        let mut a = analysis_of(&game, bot.as_mut(), self.stop)?;
        a.bot = resolved.to_string();
        Ok(a)
    }
}

/// Searches `game` with `spec` and reports the best move, value, principal variation and
/// work done. Reproducible for a fixed seed and a non-time budget.
///
/// # Errors
/// The game is over, the game has no bot support, or an outside engine failed.
pub fn analyze(
    game: &AnyGame,
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
    start: &AnyGame,
    moves: &[String],
    spec: &BotSpec,
    seed: u64,
    stop: &AtomicBool,
) -> Result<Analysis, AiError> {
    visit_any(
        start,
        Analyze {
            moves,
            spec,
            seed,
            stop,
        },
    )
}

/// Chooses a move for the side to move of `game` (any of the four games) within the spec's
/// budget; returns its canonical notation. Reproducible for a fixed seed and a non-time
/// budget.
///
/// # Errors
/// The game is over, or the spec is not usable for this game.
pub fn choose_move(game: &AnyGame, spec: &BotSpec, seed: u64) -> Result<String, AiError> {
    choose_move_with_stop(game, spec, seed, &AtomicBool::new(false))
}

/// [`choose_move`] with a stop flag checked during the search: the caller may set it to end
/// early, and the best move so far is returned.
///
/// # Errors
/// The game is over, or the spec is not usable for this game.
pub fn choose_move_with_stop(
    game: &AnyGame,
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
pub fn bench_mcts<G: Game>(
    game: &G,
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
    let mut bot = new_bot::<G>(&timed, seed)?;
    let r = bot.search(game, &AtomicBool::new(false));
    Ok((r.nodes, r.elapsed.as_secs_f64()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sr(seed: u64) -> AnyGame {
        let kind = GameKind::SightReduction;
        AnyGame::new(kind, &kind.info().default_options(), seed).unwrap()
    }

    #[test]
    fn random_bot_plays_legal_moves_reproducibly() {
        let g = sr(1);
        let a = choose_move(&g, &BotSpec::Random, 5).unwrap();
        assert_eq!(a, choose_move(&g, &BotSpec::Random, 5).unwrap());
        assert!(g.legal_moves().contains(&a));
    }

    #[test]
    fn every_bot_kind_plays_legal_moves_reproducibly() {
        let g = sr(3);
        for text in [
            "mcts:iterations=2000",
            "mcts:plain,iterations=2000",
            "mcts:iterations=2000,threads=2",
            "alphabeta:depth=3",
            "level:1",
            "level:6",
        ] {
            let spec: BotSpec = text.parse().unwrap();
            let stop = AtomicBool::new(false);
            let a = analyze(&g, &spec, 9, &stop).unwrap();
            let b = analyze(&g, &spec, 9, &stop).unwrap();
            assert!(g.legal_moves().contains(&a.best), "{text}: {}", a.best);
            assert_eq!((a.best, a.pv, a.nodes), (b.best, b.pv, b.nodes), "{text}");
        }
    }

    #[test]
    fn finished_games_are_refused() {
        let mut g = sr(2);
        while g.outcome().is_none() {
            let m = g.legal_moves()[0].clone();
            g.play_text(&m).unwrap();
        }
        let e = choose_move(&g, &BotSpec::Random, 0).unwrap_err();
        assert!(matches!(e, AiError::GameOver(_)), "{e}");
    }

    /// A game added to the list without bot support (the toy game of the test kit): the random
    /// bot plays it, every other bot is refused with a clear error, and the listed games keep
    /// their bots.
    mod fifth_game {
        use super::super::{AiError, AiVisitor, GameAi, GameProbe, Probe, ViaAi, ViaNone};
        use super::super::{AiGameVisitor, AnyGameVisitor, GameViaAi, GameViaNone};
        use crate::spec::BotSpec;
        use boardlab_core::toy::Toy;
        use boardlab_core::Game;
        use std::any::TypeId;

        mod five {
            boardlab_games::registry! {
                SightReduction => boardlab_sight_reduction::SightReduction,
                Obsidio => boardlab_obsidio::Obsidio,
                Opprimo => boardlab_opprimo::Opprimo,
                Assideum => boardlab_assideum::Assideum,
                Toy => boardlab_core::toy::Toy,
            }
        }
        use five::{AnyGame, GameKind};

        ai_games! {
            SightReduction => boardlab_sight_reduction::SightReduction,
            Obsidio => boardlab_obsidio::Obsidio,
            Opprimo => boardlab_opprimo::Opprimo,
            Assideum => boardlab_assideum::Assideum,
            Toy => boardlab_core::toy::Toy,
        }

        struct Name;
        impl AiVisitor for Name {
            type Output = &'static str;
            fn visit<G: GameAi>(self) -> &'static str {
                G::info().name
            }
        }

        struct AnyName;
        impl AnyGameVisitor for AnyName {
            type Output = &'static str;
            fn visit<G: Game>(self, _: &G) -> &'static str {
                G::info().name
            }
        }

        struct Eval;
        impl AiGameVisitor for Eval {
            type Output = i32;
            fn visit<G: GameAi>(self, game: &G) -> i32 {
                game.evaluate()
            }
        }

        #[test]
        fn a_listed_game_without_bot_support_is_refused_clearly() {
            assert_eq!(visit_kind(GameKind::Obsidio, Name), Ok("obsidio"));
            assert_eq!(
                visit_kind(GameKind::Toy, Name),
                Err(AiError::Unsupported("toy".into()))
            );
            assert_eq!(
                visit_type::<Toy, _>(Name),
                Err(AiError::Unsupported("toy".into()))
            );
            let toy = AnyGame::new(GameKind::Toy, &boardlab_core::toy::options(), 0).unwrap();
            assert!(visit_game(&toy, Eval).is_err());
            // Outside engines and the random bot need no bot support: every game is visited.
            assert_eq!(visit_any(&toy, AnyName), "toy");
            let sr = AnyGame::new(
                GameKind::SightReduction,
                &GameKind::SightReduction.info().default_options(),
                1,
            )
            .unwrap();
            assert!(visit_game(&sr, Eval).is_ok());
            // The random bot needs no knowledge of the game.
            let game = Toy::new(&boardlab_core::toy::options(), 0).unwrap();
            let mut bot = crate::new_bot::<Toy>(&BotSpec::Random, 1).unwrap();
            let r = bot.search(&game, &std::sync::atomic::AtomicBool::new(false));
            assert!(boardlab_core::Rules::is_legal(&game, r.best));
            assert!(crate::new_bot::<Toy>(&BotSpec::Level(3), 1).is_err());
        }
    }
}
