//! The dynamic game type: a game chosen at run time, behind two object-safe traits.
//!
//! - [`DynKind`]: a game as a type: its facts, legend and tutorial, new games of it, its bots
//!   and the searches that run over a whole game (a review, an arena, a self-play game, a UGI
//!   session).
//! - [`DynGame`]: a game in progress, with a text-level interface: moves as notation, the
//!   board and the move clicks of [`boardlab_core::Present`], and the optional capabilities
//!   ([`DynGame::encoding`], bots through [`DynKind::has_bots`]).
//!
//! Both are implemented once, for every `G: Capabilities` ([`kind_of`]); nothing here knows
//! which games exist. The list lives in `boardlab_games`.

use crate::arena::{self, ArenaConfig, MatchGame, MatchSummary};
use crate::capabilities::{new_bot_with_table, resolve_type, supported, Capabilities};
use crate::review::{Progress, Review, ReviewConfig, ReviewError};
use crate::search::Bot;
use crate::selfplay::{self, Job, Setting, Trace};
use crate::spec::BotSpec;
use crate::ugi::engine::{Next, ServeError, UgiGame, UgiSession};
use crate::{analysis_of, AiError, Analysis};
use boardlab_core::encoding::DynEncoding;
use boardlab_core::present::{Board, Interaction, LegendItem, PlayedMove, Text};
use boardlab_core::rand::{rngs::SmallRng, SeedableRng};
use boardlab_core::tutorial::{Lesson, TutorialError};
use boardlab_core::{
    Colour, GameInfo, GameRecord, MoveError, NewGameError, Options, Outcome, RecordError, Seat,
    SetupError,
};
use std::any::Any;
use std::fmt::Debug;
use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use web_time::Instant;

/// A game as a type, chosen at run time. See the [module](self).
pub trait DynKind: Send + Sync + 'static {
    /// Static facts and the option schema.
    fn info(&self) -> &'static GameInfo;
    /// What the pieces and marks of the game's boards mean.
    fn legend(&self) -> Vec<LegendItem>;
    /// The tutorial, each step checked against the rules (empty for a game without one).
    ///
    /// # Errors
    /// A step that does not hold up against the rules.
    fn tutorial(&self) -> Result<Vec<Lesson>, TutorialError>;
    /// A new game.
    ///
    /// # Errors
    /// Options the game cannot play.
    fn new_game(&self, options: &Options, seed: u64) -> Result<Box<dyn DynGame>, NewGameError>;
    /// A game from a position text.
    ///
    /// # Errors
    /// An invalid position text.
    fn read_position(
        &self,
        options: &Options,
        text: &str,
    ) -> Result<Box<dyn DynGame>, NewGameError>;
    /// The game `record` starts from (its set-up or position, with its options).
    ///
    /// # Errors
    /// A record of another game, bad options or a bad position.
    fn record_start(&self, record: &GameRecord) -> Result<Box<dyn DynGame>, RecordError>;
    /// Replays `record`: the game at its end and its moves in canonical notation (see
    /// [`GameRecord::replay`]).
    ///
    /// # Errors
    /// A record of another game, bad options or position, the first bad move, or a result
    /// that the moves do not give.
    fn replay(&self, record: &GameRecord) -> Result<(Box<dyn DynGame>, Vec<String>), RecordError>;
    /// A position text (or the seeded set-up) with `moves` played (see
    /// [`boardlab_core::setup`]).
    ///
    /// # Errors
    /// Bad options, position or moves, naming the first bad one.
    fn setup(
        &self,
        options: &Options,
        seed: u64,
        position: Option<&str>,
        moves: &[String],
    ) -> Result<Box<dyn DynGame>, SetupError>;
    /// Whether the bots know the game (beyond the random bot and outside engines).
    fn has_bots(&self) -> bool;
    /// The concrete spec `spec` stands for here (levels and `best` resolved).
    ///
    /// # Errors
    /// A game without bot support (for a spec other than `random` and `ugi:…`).
    fn resolve(&self, spec: &BotSpec) -> Result<BotSpec, AiError>;
    /// The bot a review uses unless told otherwise.
    ///
    /// # Errors
    /// A game without bot support.
    fn review_spec(&self) -> Result<BotSpec, AiError>;
    /// The bot and opening plies of a designer report, where the game chooses them.
    fn report_defaults(&self) -> Option<(&'static str, u32)>;
    /// A bot for this game; `table_mb` sizes an alpha-beta table.
    ///
    /// # Errors
    /// A game without bot support for this spec.
    fn new_bot(
        &self,
        spec: &BotSpec,
        seed: u64,
        table_mb: Option<u32>,
    ) -> Result<Box<dyn DynBot>, AiError>;
    /// Reviews the game of `record` (see [`crate::review::review_record`]).
    ///
    /// # Errors
    /// A record that does not replay, no bot support, a bad setting, or a stopped review.
    fn review_record(
        &self,
        record: &GameRecord,
        config: &ReviewConfig,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Review, ReviewError>;
    /// Plays an arena (see [`arena::run`]).
    ///
    /// # Errors
    /// A game without bot support, or a set-up the game refuses.
    fn arena(
        &self,
        cfg: &ArenaConfig,
        stop: &AtomicBool,
        on_game: &(dyn Fn(&MatchGame, &MatchSummary) + Sync),
    ) -> Result<MatchSummary, AiError>;
    /// Plays one game of a designer report (see [`selfplay::play`]).
    ///
    /// # Errors
    /// Options the game refuses, a bot it cannot have, or a failing outside engine.
    fn self_play(&self, setting: &Setting, job: Job) -> Result<Trace, AiError>;
    /// The game as the UGI engine serves it (see [`crate::ugi::engine::serve`]).
    fn ugi(&self) -> &'static dyn UgiGame;
}

/// A game in progress of any kind, with a text-level interface. See the [module](self).
pub trait DynGame: Debug + Send + Sync {
    /// Which game this is.
    fn kind(&self) -> &'static dyn DynKind;
    /// A copy.
    fn clone_box(&self) -> Box<dyn DynGame>;
    /// The typed game, for [`DynBot`]s of the same kind and for equality.
    fn as_any(&self) -> &dyn Any;
    /// Whether `other` is the same game in the same state.
    fn same(&self, other: &dyn DynGame) -> bool;
    /// The legal moves in canonical notation, in the game's order.
    fn legal_moves(&self) -> Vec<String>;
    /// The canonical notation of the move `text` reads as (legal or not).
    ///
    /// # Errors
    /// Text that is not a move of this game.
    fn canonical(&self, text: &str) -> Result<String, MoveError>;
    /// Plays move text; returns its canonical notation and the cells it touched, from one
    /// reading of the text.
    ///
    /// # Errors
    /// Malformed or illegal text; the game is unchanged.
    fn play_text(&mut self, text: &str) -> Result<PlayedMove, MoveError>;
    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// The seat to move.
    fn to_move(&self) -> Seat;
    /// The colour a seat plays now, for games with colours.
    fn colour_of(&self, seat: Seat) -> Option<Colour>;
    /// The colour to move, for games with colours.
    fn colour_to_move(&self) -> Option<Colour>;
    /// The position text.
    fn position_text(&self) -> String;
    /// The position drawn as text.
    fn diagram(&self) -> String;
    /// The options the game is played with.
    fn options(&self) -> Options;
    /// Moves played so far.
    fn ply(&self) -> u32;
    /// The position's hash.
    fn hash(&self) -> u64;
    /// The hash computed from scratch (tests check it agrees with [`DynGame::hash`]).
    fn hash_from_scratch(&self) -> u64;
    /// Whether one person plays both seats (a puzzle).
    fn is_solitaire(&self) -> bool;
    /// The game's action ids and planes, or `None` for a game without an encoding.
    fn encoding(&self) -> Option<&dyn DynEncoding>;
    /// [`DynGame::encoding`], to play by action ids.
    fn encoding_mut(&mut self) -> Option<&mut dyn DynEncoding>;
    /// The number of move sequences of `depth` moves from here.
    fn perft(&self, depth: u32) -> u64;
    /// [`DynGame::perft`] per legal move, in notation.
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// Plays uniformly random moves from `seed` to the end; returns how many.
    fn playout(&mut self, seed: u64) -> u32;
    /// Random playouts from fresh set-ups of this game's options (each starts with
    /// [`boardlab_core::Game::restart`]) for at least `budget`, in batches of 256: the games
    /// and plies played and the seconds taken.
    fn random_playouts(&self, budget: Duration, seed: u64) -> (u64, u64, f64);
    /// The position as a drawable board.
    fn board(&self) -> Board;
    /// How each legal move is entered by clicks.
    fn interaction(&self) -> Interaction;
    /// The cells that mark the move `text` where it is suggested here: empty for text that is
    /// not a legal move here.
    fn suggested(&self, text: &str) -> Vec<Text>;
    /// Searches the position reached from here by `moves` with `spec` (see
    /// [`crate::analyze_line`]).
    ///
    /// # Errors
    /// A move that does not replay, the game is over, no bot support, or a failing engine.
    fn analyze_line(
        &self,
        moves: &[String],
        spec: &BotSpec,
        seed: u64,
        stop: &AtomicBool,
    ) -> Result<Analysis, AiError>;
    /// An exact hint for a puzzle within `node_limit` positions: the best line and whether
    /// it can still be solved; `None` for other games and positions, or a search cut short.
    fn puzzle_hint(&self, node_limit: u64) -> Option<(Vec<String>, bool)>;
}

impl Clone for Box<dyn DynGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A bot of one game, searching positions given as [`DynGame`]s of that game.
pub trait DynBot: Send {
    /// Tells the bot the game so far: `moves` (in notation) played from `start`.
    ///
    /// # Errors
    /// A position of another game, or moves that do not replay.
    fn follow(&mut self, start: &dyn DynGame, moves: &[String]) -> Result<(), AiError>;
    /// Searches `game` and reports the result in notation.
    ///
    /// # Errors
    /// A position of another game, or a failing outside engine.
    fn search(&mut self, game: &dyn DynGame, stop: &AtomicBool) -> Result<Analysis, AiError>;
}

/// The one implementation of [`DynKind`].
struct Kind<G>(PhantomData<fn() -> G>);

impl<G: Capabilities> Kind<G> {
    const KIND: &'static Kind<G> = &Kind(PhantomData);
}

/// The dynamic kind of game `G`, for the list of games.
#[must_use]
pub fn kind_of<G: Capabilities>() -> &'static dyn DynKind {
    Kind::<G>::KIND
}

fn boxed<G: Capabilities>(game: G) -> Box<dyn DynGame> {
    Box::new(game)
}

/// The typed game behind `game`, when it is a `G`.
///
/// A [`DynBot`] is made for one game type and is handed positions as `&dyn DynGame`: this is
/// where the two meet, and a position of another game is refused rather than misread.
fn typed<G: Capabilities>(game: &dyn DynGame) -> Result<&G, AiError> {
    game.as_any().downcast_ref::<G>().ok_or_else(|| {
        AiError::Replay(format!(
            "a position of {} given to a bot of {}",
            game.kind().info().name,
            G::info().name
        ))
    })
}

impl<G: Capabilities> DynKind for Kind<G> {
    fn info(&self) -> &'static GameInfo {
        G::info()
    }

    fn legend(&self) -> Vec<LegendItem> {
        G::legend()
    }

    fn tutorial(&self) -> Result<Vec<Lesson>, TutorialError> {
        boardlab_core::tutorial::lessons::<G>()
    }

    fn new_game(&self, options: &Options, seed: u64) -> Result<Box<dyn DynGame>, NewGameError> {
        G::new(options, seed).map(boxed)
    }

    fn read_position(
        &self,
        options: &Options,
        text: &str,
    ) -> Result<Box<dyn DynGame>, NewGameError> {
        G::from_position(options, text).map(boxed)
    }

    fn record_start(&self, record: &GameRecord) -> Result<Box<dyn DynGame>, RecordError> {
        record.start::<G>().map(boxed)
    }

    fn replay(&self, record: &GameRecord) -> Result<(Box<dyn DynGame>, Vec<String>), RecordError> {
        let (end, moves) = record.replay::<G>()?;
        let mut game = record.start::<G>()?;
        let mut texts = Vec::with_capacity(moves.len());
        for mv in moves {
            texts.push(game.format_move(mv));
            game.play_unchecked(mv);
        }
        Ok((boxed(end), texts))
    }

    fn setup(
        &self,
        options: &Options,
        seed: u64,
        position: Option<&str>,
        moves: &[String],
    ) -> Result<Box<dyn DynGame>, SetupError> {
        boardlab_core::setup::<G>(options, seed, position, moves).map(boxed)
    }

    fn has_bots(&self) -> bool {
        G::bots().is_some()
    }

    fn resolve(&self, spec: &BotSpec) -> Result<BotSpec, AiError> {
        resolve_type::<G>(spec)
    }

    fn review_spec(&self) -> Result<BotSpec, AiError> {
        Ok(supported::<G>()?.review_spec())
    }

    fn report_defaults(&self) -> Option<(&'static str, u32)> {
        G::bots().map(|b| b.report_defaults())
    }

    fn new_bot(
        &self,
        spec: &BotSpec,
        seed: u64,
        table_mb: Option<u32>,
    ) -> Result<Box<dyn DynBot>, AiError> {
        let bot = new_bot_with_table::<G>(spec, seed, table_mb)?;
        Ok(Box::new(TypedBot(bot)))
    }

    fn review_record(
        &self,
        record: &GameRecord,
        config: &ReviewConfig,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Review, ReviewError> {
        crate::review::review_record::<G>(record, config, stop, progress)
    }

    fn arena(
        &self,
        cfg: &ArenaConfig,
        stop: &AtomicBool,
        on_game: &(dyn Fn(&MatchGame, &MatchSummary) + Sync),
    ) -> Result<MatchSummary, AiError> {
        arena::run::<G>(cfg, stop, on_game)
    }

    fn self_play(&self, setting: &Setting, job: Job) -> Result<Trace, AiError> {
        selfplay::play::<G>(setting, job)
    }

    fn ugi(&self) -> &'static dyn UgiGame {
        Kind::<G>::KIND
    }
}

impl<G: Capabilities> UgiGame for Kind<G> {
    fn info(&self) -> &'static GameInfo {
        G::info()
    }

    fn session(&self, session: UgiSession<'_>) -> Result<Next, ServeError> {
        session.run::<G>()
    }
}

impl<G: Capabilities> DynGame for G {
    fn kind(&self) -> &'static dyn DynKind {
        kind_of::<G>()
    }

    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn same(&self, other: &dyn DynGame) -> bool {
        typed::<G>(other).is_ok_and(|o| o == self)
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut v = Vec::new();
        boardlab_core::Rules::legal_moves(self, &mut v);
        v.into_iter().map(|m| self.format_move(m)).collect()
    }

    fn canonical(&self, text: &str) -> Result<String, MoveError> {
        Ok(self.format_move(self.parse_move(text)?))
    }

    fn play_text(&mut self, text: &str) -> Result<PlayedMove, MoveError> {
        let mv = self.parse_move(text)?;
        if !self.is_legal(mv) {
            // The checked play refuses it, says why, and leaves the game as it was.
            self.play(mv)?;
        }
        let played = PlayedMove {
            notation: self.format_move(mv),
            touched: self.touched(mv),
        };
        self.play_unchecked(mv);
        Ok(played)
    }

    fn outcome(&self) -> Option<Outcome> {
        boardlab_core::Rules::outcome(self)
    }

    fn to_move(&self) -> Seat {
        boardlab_core::Rules::to_move(self)
    }

    fn colour_of(&self, seat: Seat) -> Option<Colour> {
        boardlab_core::Game::colour_of(self, seat)
    }

    fn colour_to_move(&self) -> Option<Colour> {
        boardlab_core::Game::colour_to_move(self)
    }

    fn position_text(&self) -> String {
        boardlab_core::Notation::position_text(self)
    }

    fn diagram(&self) -> String {
        boardlab_core::Notation::diagram(self)
    }

    fn options(&self) -> Options {
        boardlab_core::Game::options(self)
    }

    fn ply(&self) -> u32 {
        boardlab_core::Game::ply(self)
    }

    fn hash(&self) -> u64 {
        boardlab_core::Rules::hash(self)
    }

    fn hash_from_scratch(&self) -> u64 {
        boardlab_core::Audit::hash_from_scratch(self)
    }

    fn is_solitaire(&self) -> bool {
        boardlab_core::Game::is_solitaire(self)
    }

    fn encoding(&self) -> Option<&dyn DynEncoding> {
        boardlab_core::Game::encoding(self)
    }

    fn encoding_mut(&mut self) -> Option<&mut dyn DynEncoding> {
        boardlab_core::Game::encoding_mut(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        boardlab_core::perft::perft(self, depth)
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        boardlab_core::perft::divide(self, depth)
    }

    fn playout(&mut self, seed: u64) -> u32 {
        boardlab_core::Rules::playout(self, &mut boardlab_core::rng(seed))
    }

    fn random_playouts(&self, budget: Duration, seed: u64) -> (u64, u64, f64) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let start = Instant::now();
        let (mut games, mut plies) = (0u64, 0u64);
        loop {
            for _ in 0..256 {
                let mut g = self.restart(&mut rng);
                plies += u64::from(boardlab_core::Rules::playout(&mut g, &mut rng));
                games += 1;
            }
            if start.elapsed() >= budget {
                break;
            }
        }
        (games, plies, start.elapsed().as_secs_f64())
    }

    fn board(&self) -> Board {
        boardlab_core::Present::board(self)
    }

    fn interaction(&self) -> Interaction {
        boardlab_core::Present::interaction(self)
    }

    fn suggested(&self, text: &str) -> Vec<Text> {
        match self.parse_move(text) {
            Ok(mv) if self.is_legal(mv) => boardlab_core::Present::suggested(self, mv),
            _ => Vec::new(),
        }
    }

    fn analyze_line(
        &self,
        moves: &[String],
        spec: &BotSpec,
        seed: u64,
        stop: &AtomicBool,
    ) -> Result<Analysis, AiError> {
        crate::analyze_typed(self, moves, spec, seed, stop)
    }

    fn puzzle_hint(&self, node_limit: u64) -> Option<(Vec<String>, bool)> {
        let (line, solvable) = G::bots()?.puzzle_hint(self, node_limit)?;
        let pv = crate::review::line_text(self, &line);
        (!pv.is_empty()).then_some((pv, solvable))
    }
}

/// A typed bot seen as a [`DynBot`].
struct TypedBot<G: Capabilities>(Box<dyn Bot<G>>);

impl<G: Capabilities> DynBot for TypedBot<G> {
    fn follow(&mut self, start: &dyn DynGame, moves: &[String]) -> Result<(), AiError> {
        let start = typed::<G>(start)?;
        let (_, line) = crate::replay_line(start, moves)?;
        self.0.follow(start, &line);
        Ok(())
    }

    fn search(&mut self, game: &dyn DynGame, stop: &AtomicBool) -> Result<Analysis, AiError> {
        analysis_of(typed::<G>(game)?, self.0.as_mut(), stop)
    }
}
