//! What the bots need from a game beyond the rules: an evaluation, a playout policy, move
//! ordering hints, and an exact endgame search where the game is small enough for one.
//!
//! Each game implements [`GameAi`] in its own crate and offers it through
//! [`crate::Capabilities::bots`]; the generic searches
//! ([`crate::mcts`], [`crate::alphabeta`]) use nothing else.

use crate::spec::{BotSpec, Rollout};
use boardlab_core::rand::Rng;
use boardlab_core::{Budget, Game, Proven, Rules};

/// Game knowledge for the bots.
pub trait GameAi: Game {
    /// An exact endgame search, or [`NoEndgame`].
    type Endgame: Endgame<Self>;

    /// A heuristic value of the position for the seat to move: positive is good for it.
    /// [`GameAi::EVAL_SCALE`] units make one logistic unit of winning chance. Only called on
    /// positions that are not over.
    fn evaluate(&self) -> i32;

    /// Evaluation units per logistic unit: the chance to win is `1 / (1 + e^(-eval/scale))`.
    const EVAL_SCALE: f64 = 200.0;

    /// How MCTS estimates a new leaf when the spec says `rollout=auto`.
    const ROLLOUT: Rollout = Rollout::Full;

    /// The progressive-widening base MCTS uses when the spec leaves it to the game (0: every
    /// child is considered from the start). Children are ranked by
    /// [`GameAi::move_priority`].
    const WIDEN: u32 = 0;

    /// The RAVE equivalence parameter MCTS uses when the spec leaves it to the game (0: no
    /// RAVE). Needs [`GameAi::footprint`].
    const RAVE: u32 = 0;

    /// What a move does, as a set of up to 128 features (squares it fills or empties…) for
    /// RAVE: a move counts as played later in a simulation when every feature of it was
    /// played by the same seat. 0 for moves RAVE should ignore.
    fn footprint(mv: Self::Move) -> u128 {
        let _ = mv;
        0
    }

    /// The playout policy: a move for the seat to move, better than uniform where the game
    /// knows how (play a winning move when there is one, stop the opponent's, prefer
    /// promising moves). `None` when the game is over. `buf` is scratch space.
    fn policy_move<R: Rng>(&self, rng: &mut R, buf: &mut Vec<Self::Move>) -> Option<Self::Move> {
        self.random_move(rng, buf)
    }

    /// Plays policy moves to the end of the game or for `limit` plies; returns the plies
    /// played.
    fn policy_playout<R: Rng>(&mut self, rng: &mut R, limit: u32) -> u32 {
        let mut buf = Vec::new();
        let mut n = 0;
        while n < limit {
            match self.policy_move(rng, &mut buf) {
                Some(mv) => self.play_unchecked(mv),
                None => break,
            }
            n += 1;
        }
        n
    }

    /// Move ordering for alpha-beta and progressive widening in MCTS: moves with a higher
    /// priority are searched first (captures before quiet moves, …).
    fn move_priority(&self, mv: Self::Move) -> i32 {
        let _ = mv;
        0
    }

    /// Tactical moves (captures, promotions) that alpha-beta's quiescence search follows.
    fn is_noisy(&self, mv: Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// Whether the seat to move must answer a threat to end the game now (assideum: its
    /// Commander is in siege). Alpha-beta searches such positions one ply deeper and never
    /// reduces the moves into or out of them.
    fn in_check(&self) -> bool {
        false
    }

    /// The strongest configuration at `time` per move on `threads` threads (0: every core).
    fn best_spec(time: std::time::Duration, threads: u32) -> BotSpec;

    /// The bot that evaluates each position of a game review ([`crate::review`]) unless the
    /// caller names one: a work budget, so that a review is reproducible, sized so that a game
    /// of typical length reviews in well under a minute on one core.
    fn review_spec() -> BotSpec {
        Self::best_spec(std::time::Duration::from_millis(200), 1)
    }

    /// The bot a designer report plays this game with unless told otherwise: a fixed work
    /// budget (so games replay exactly and the skill trace can halve it) at which the game is
    /// played sensibly and a thousand games take hours, not days, on two cores.
    const REPORT_BOT: &'static str = "mcts:iterations=1000";

    /// Random plies at the start of each report game unless told otherwise: enough that the
    /// games of a deterministic bot (the same move in the same position) differ.
    const REPORT_OPENING_PLIES: u32 = 1;

    /// The spec of `level:n` (1..=10) for this game.
    fn level_spec(n: u8) -> BotSpec {
        crate::levels::default_level(n)
    }
}

/// An exact search for small endgames. `Default` gives an empty search with its own table.
pub trait Endgame<G: Game>: Default + Send + std::fmt::Debug {
    /// Whether the position is small enough to search exactly (cheap to ask): at the root
    /// of a search (where a failed attempt costs little), or inside the tree.
    fn applies(&self, game: &G, at_root: bool) -> bool;

    /// The exact result, stated for the seat to move, without a move (cheaper where a game
    /// can do it), or `None` when the search needs more than `budget`.
    fn value(&mut self, game: &G, budget: Budget<'static>, nodes: &mut u64) -> Option<Proven> {
        self.solve(game, budget, nodes).map(|(p, _)| p)
    }

    /// The exact result, stated for the seat to move, and a move that achieves it (in a lost
    /// position: the move that gives the opponent the most chances to go wrong), or `None`
    /// when the search needs more than `budget`. Adds the nodes searched to `nodes`.
    fn solve(
        &mut self,
        game: &G,
        budget: Budget<'static>,
        nodes: &mut u64,
    ) -> Option<(Proven, Option<G::Move>)>;

    /// Who wins (true: the seat to move) and a move as [`Endgame::solve`] would choose it,
    /// without the distance to the end: a quicker answer for the root when `solve` runs out
    /// of budget. Who wins is always exact; `budget` only limits the work spent choosing
    /// among the moves of a lost position. `None` where the game has no such search or the
    /// position is too large.
    fn decide(
        &mut self,
        game: &G,
        budget: Budget<'static>,
        nodes: &mut u64,
    ) -> Option<(bool, G::Move)> {
        let _ = (game, budget, nodes);
        None
    }

    /// The exact judgement of `game` (not over) within `budget`, with a best line of at most
    /// `line` moves, where the game has a solver for positions like it: `None` where it has
    /// none or the budget ran out. Reviews give exact grades where this answers.
    fn judge(
        &mut self,
        game: &G,
        budget: Budget<'_>,
        line: usize,
    ) -> Option<ExactJudgement<G::Move>> {
        let _ = (game, budget, line);
        None
    }
}

/// The most moves in a line from the exact solvers.
pub const EXACT_PV: usize = 10;

/// A game's exact judge (see [`Endgame::judge`]), for one thread.
pub type Judge<G> =
    Box<dyn FnMut(&G, Budget<'_>, usize) -> Option<ExactJudgement<<G as Rules>::Move>> + Send>;

/// An exact judgement of a position by a game's solver, for reviews and puzzle hints.
#[derive(Clone, Debug, PartialEq)]
pub enum ExactJudgement<M> {
    /// A match position: every legal move with its exact value for the seat to move, which
    /// of them is best (an index into `values`), and the best line from here (starting with
    /// that move, at most as long as asked).
    Moves {
        values: Vec<(M, Proven)>,
        best: usize,
        line: Vec<M>,
        nodes: u64,
    },
    /// A one-person puzzle: solvable (a proven win for its one seat), not solvable (a proven
    /// loss), or undecided within the budget (`None`); a line towards the goal where one is
    /// known.
    Solitaire {
        value: Option<Proven>,
        line: Vec<M>,
        nodes: u64,
    },
}

/// No exact endgame search.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoEndgame;

impl<G: Game> Endgame<G> for NoEndgame {
    fn applies(&self, _game: &G, _at_root: bool) -> bool {
        false
    }

    fn solve(
        &mut self,
        _game: &G,
        _budget: Budget<'static>,
        _nodes: &mut u64,
    ) -> Option<(Proven, Option<G::Move>)> {
        None
    }
}

/// The chance to win for the seat to move from an evaluation.
#[must_use]
pub fn win_chance<G: GameAi>(eval: i32) -> f64 {
    1.0 / (1.0 + (-f64::from(eval) / G::EVAL_SCALE).exp())
}
