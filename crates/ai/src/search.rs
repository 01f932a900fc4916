//! What a search returns, the [`Bot`] interface, and the uniform random bot.

use crate::error::EngineError;
use boardlab_core::rand::{rngs::SmallRng, SeedableRng};
use boardlab_core::{Game, Outcome, Proven, Seat};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use web_time::Instant;

/// The value of a position as seen by a named seat.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Value {
    /// Whose point of view.
    pub seat: Seat,
    /// The expected score of `seat`: 1 a win, ½ a draw, 0 a loss.
    pub score: f64,
    /// Set when the result is proven (stated for `seat`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proven: Option<Proven>,
}

impl Value {
    /// An estimate for `seat`.
    #[must_use]
    pub fn estimate(seat: Seat, score: f64) -> Value {
        Value {
            seat,
            score: score.clamp(0.0, 1.0),
            proven: None,
        }
    }

    /// A proven result, seen by the seat it is stated for.
    #[must_use]
    pub fn proven(proven: Proven) -> Value {
        Value {
            seat: proven.seat,
            score: proven.score(),
            proven: Some(proven),
        }
    }

    /// The same value seen by `seat`.
    #[must_use]
    pub fn for_seat(self, seat: Seat) -> Value {
        if seat == self.seat {
            self
        } else {
            Value {
                seat,
                score: 1.0 - self.score,
                proven: self.proven.map(|p| p.for_seat(seat)),
            }
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.proven {
            Some(p) => write!(f, "{}", p.for_seat(self.seat)),
            None => write!(f, "{:.3} for the {} seat", self.score, self.seat),
        }
    }
}

/// What one search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move chosen.
    pub best: M,
    /// The value of the position, from the point of view of the seat to move.
    pub value: Value,
    /// The expected line of play, starting with `best`.
    pub pv: Vec<M>,
    /// Work done: MCTS iterations, alpha-beta nodes, exact-search nodes.
    pub nodes: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// The last completed alpha-beta depth, or the deepest MCTS line.
    pub depth: u32,
}

/// A computer player for game `G`. Bots may keep state between moves (MCTS keeps its tree),
/// so one bot should follow one game.
///
/// The built-in bots always find a move; an outside engine ([`crate::ugi::UgiBot`]) may fail
/// to give one, which [`Bot::try_search`] reports. Code that may be handed any bot spec calls
/// `try_search`.
pub trait Bot<G: Game>: Send {
    /// Chooses a move for the seat to move; `stop` may be set by another thread to end the
    /// search early, the best move so far being returned.
    ///
    /// # Panics
    /// If the game is over (callers check [`Rules::outcome`](boardlab_core::Rules::outcome) first), or if an outside engine
    /// fails (see [`Bot::try_search`]).
    fn search(&mut self, game: &G, stop: &AtomicBool) -> SearchResult<G::Move>;

    /// [`Bot::search`] for bots that can fail: an outside engine that cannot be started,
    /// stops, does not answer in time or answers a move that is not legal.
    ///
    /// # Errors
    /// What went wrong with the engine; the built-in bots never fail.
    ///
    /// # Panics
    /// If the game is over.
    fn try_search(
        &mut self,
        game: &G,
        stop: &AtomicBool,
    ) -> Result<SearchResult<G::Move>, EngineError> {
        Ok(self.search(game, stop))
    }

    /// Tells the bot how the game reached the position of its next search: where it started
    /// and the moves played since. The built-in bots need nothing but the game value (which
    /// carries its history), so the default ignores it; an outside engine is sent the start
    /// and the moves rather than the position alone, so that rules that look back (repetition)
    /// apply there too.
    fn follow(&mut self, start: &G, moves: &[G::Move]) {
        let _ = (start, moves);
    }
}

/// The score of a finished game for each seat, in 0..1. A solved puzzle scores 1; an unsolved
/// one scores less the more pieces are left.
#[must_use]
pub fn outcome_scores(outcome: &Outcome) -> [f64; 2] {
    match *outcome {
        Outcome::Puzzle { solved: true, .. } => [1.0, 1.0],
        Outcome::Puzzle { score, .. } => {
            let s = 0.5 / (1.0 + f64::from(score));
            [s, s]
        }
        o => [
            o.for_seat(Seat::First).score(),
            o.for_seat(Seat::Second).score(),
        ],
    }
}

/// Uniformly random legal moves.
#[derive(Debug)]
pub struct RandomBot {
    rng: SmallRng,
}

impl RandomBot {
    /// A random bot whose moves follow from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Bot<G> for RandomBot {
    fn search(&mut self, game: &G, _stop: &AtomicBool) -> SearchResult<G::Move> {
        let start = Instant::now();
        let mut buf = Vec::new();
        let best = game
            .random_move(&mut self.rng, &mut buf)
            .expect("the random bot was asked to move in a finished game");
        SearchResult {
            best,
            value: Value::estimate(game.to_move(), 0.5),
            pv: vec![best],
            nodes: 1,
            elapsed: start.elapsed(),
            depth: 1,
        }
    }
}
