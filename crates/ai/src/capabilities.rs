//! What a game offers beyond its rules, notation and presentation, asked for by type.
//!
//! Every game implements [`Capabilities`]; its one method answers `None` by default, so a game
//! with no bot knowledge writes an empty `impl`. A game with [`GameAi`] knowledge answers
//! `Some(bot_support::<Self>())`, and the bots, levels, reviews and puzzle hints follow from
//! it. Generic code asks `G::bots()` instead of knowing which games have bots; the dynamic game
//! type ([`crate::dynamic`]) is built on the same answer.

use crate::knowledge::{Endgame, ExactJudgement, GameAi, Judge, EXACT_PV};
use crate::search::{Bot, RandomBot};
use crate::spec::{self, BotSpec};
use crate::{alphabeta, mcts, ugi, AiError};
use boardlab_core::{Audit, Budget, Game, Present, Wdl};
use std::marker::PhantomData;

/// A game as every tool above the game crates sees it: rules, notation, presentation, the
/// test-only audit, and the optional capabilities. The game's crate implements it.
pub trait Capabilities: Present + Audit {
    /// The game's bot knowledge, or `None` (the default): then the random bot and outside
    /// engines play the game, and every other bot is refused with a clear error.
    #[must_use]
    fn bots() -> Option<&'static dyn BotSupport<Self>> {
        None
    }
}

/// What the bots can do for a game with [`GameAi`] knowledge, made once for every such game by
/// [`bot_support`].
pub trait BotSupport<G: Game>: Send + Sync {
    /// A bot following `spec` (resolved first); `table_mb` sizes the alpha-beta table.
    fn new_bot(&self, spec: &BotSpec, seed: u64, table_mb: Option<u32>) -> Box<dyn Bot<G>>;
    /// The concrete spec that `spec` stands for (levels and `best` resolved).
    fn resolve(&self, spec: &BotSpec) -> BotSpec;
    /// The spec a review uses by default ([`GameAi::review_spec`]).
    fn review_spec(&self) -> BotSpec;
    /// The bot and opening plies a designer report plays by default.
    fn report_defaults(&self) -> (&'static str, u32);
    /// The exact judge of positions (the endgame capability), with its own state, for one
    /// thread; it answers `None` where the game has no solver.
    fn endgame(&self) -> Judge<G>;
    /// An exact hint for a one-person position within `node_limit` positions: the best line
    /// and whether the goal can still be reached.
    fn puzzle_hint(&self, game: &G, node_limit: u64) -> Option<(Vec<G::Move>, bool)>;
}

/// The one implementation of [`BotSupport`].
struct Knows<G>(PhantomData<fn() -> G>);

impl<G: GameAi> Knows<G> {
    const SUPPORT: &'static Knows<G> = &Knows(PhantomData);
}

/// The bot support of a game with [`GameAi`] knowledge, for its [`Capabilities::bots`].
#[must_use]
pub fn bot_support<G: GameAi>() -> &'static dyn BotSupport<G> {
    Knows::<G>::SUPPORT
}

/// The concrete spec `spec` stands for in game `G`: levels and `best` resolved.
#[must_use]
pub fn resolve<G: GameAi>(spec: &BotSpec) -> BotSpec {
    match spec {
        BotSpec::Level(n) => resolve::<G>(&G::level_spec(*n)),
        BotSpec::Best(b) => G::best_spec(b.time.unwrap_or(spec::DEFAULT_TIME), b.threads),
        other => other.clone(),
    }
}

impl<G: GameAi> BotSupport<G> for Knows<G> {
    fn new_bot(&self, spec: &BotSpec, seed: u64, table_mb: Option<u32>) -> Box<dyn Bot<G>> {
        match resolve::<G>(spec) {
            BotSpec::Random => Box::new(RandomBot::new(seed)),
            BotSpec::Mcts(m) => Box::new(mcts::Mcts::<G>::new(m, seed)),
            BotSpec::AlphaBeta(a) => {
                let bits = table_mb
                    .map_or_else(|| alphabeta::table_bits(&a), alphabeta::table_bits_for_mb);
                Box::new(alphabeta::AlphaBeta::<G>::new(a, bits))
            }
            BotSpec::Ugi(u) => Box::new(ugi::UgiBot::<G>::new(u)),
            BotSpec::Level(_) | BotSpec::Best(_) => unreachable!("resolved above"),
        }
    }

    fn resolve(&self, spec: &BotSpec) -> BotSpec {
        resolve::<G>(spec)
    }

    fn review_spec(&self) -> BotSpec {
        G::review_spec()
    }

    fn report_defaults(&self) -> (&'static str, u32) {
        (G::REPORT_BOT, G::REPORT_OPENING_PLIES)
    }

    fn endgame(&self) -> Judge<G> {
        let mut endgame = G::Endgame::default();
        Box::new(move |game: &G, budget, line| endgame.judge(game, budget, line))
    }

    fn puzzle_hint(&self, game: &G, node_limit: u64) -> Option<(Vec<G::Move>, bool)> {
        if !game.is_solitaire() || game.outcome().is_some() {
            return None;
        }
        let judgement = G::Endgame::default().judge(game, Budget::nodes(node_limit), EXACT_PV)?;
        let ExactJudgement::Solitaire {
            value: Some(proven),
            line,
            ..
        } = judgement
        else {
            return None;
        };
        Some((line, proven.result == Wdl::Win))
    }
}

/// A bot for game `G`, following `spec`; its moves follow from `seed`. The random bot and
/// outside engines play every game; the others need the game's bot support
/// ([`Capabilities::bots`]). An outside engine is started by its first search (or
/// [`ugi::UgiBot::prepare`]).
///
/// # Errors
/// A game without bot support.
pub fn new_bot<G: Capabilities>(spec: &BotSpec, seed: u64) -> Result<Box<dyn Bot<G>>, AiError> {
    new_bot_with_table(spec, seed, None)
}

/// [`new_bot`] with the alpha-beta transposition table made to fit in `table_mb` MiB (see
/// [`alphabeta::table_bits_for_mb`]) instead of the size the budget suggests; `None` leaves
/// it to the budget. Other bots ignore it.
///
/// # Errors
/// A game without bot support.
pub fn new_bot_with_table<G: Capabilities>(
    spec: &BotSpec,
    seed: u64,
    table_mb: Option<u32>,
) -> Result<Box<dyn Bot<G>>, AiError> {
    match spec {
        BotSpec::Random => Ok(Box::new(RandomBot::new(seed))),
        BotSpec::Ugi(u) => Ok(Box::new(ugi::UgiBot::<G>::new(u.clone()))),
        _ => Ok(supported::<G>()?.new_bot(spec, seed, table_mb)),
    }
}

/// The bot support of `G`, or the error that names the game.
///
/// # Errors
/// A game without bot support.
pub fn supported<G: Capabilities>() -> Result<&'static dyn BotSupport<G>, AiError> {
    G::bots().ok_or_else(|| AiError::Unsupported(G::info().name.to_string()))
}

/// The concrete spec that `spec` stands for in game `G` (levels and `best` resolved).
///
/// # Errors
/// A game without bot support (for a spec other than `random` and `ugi:…`).
pub fn resolve_type<G: Capabilities>(spec: &BotSpec) -> Result<BotSpec, AiError> {
    match spec {
        BotSpec::Random | BotSpec::Ugi(_) => Ok(spec.clone()),
        _ => Ok(supported::<G>()?.resolve(spec)),
    }
}
