//! Exact solvers for Sight Reduction, next to the rules they search (the bots' exact endgames
//! and the review's exact grades use them; `boardlab_solve` re-exports them beside the
//! puzzles and the first-player study).
//!
//! - [`Solver`]: the value of a removal-phase position with perfect play, for every
//!   combination of the options `sight`, `enemy-sight` and `removal`: who wins
//!   ([`Solver::solve`]), how fast — the winner winning as fast as possible, the loser holding
//!   out as long as possible ([`Solver::solve_distance`]) — and the value of every legal move
//!   ([`Solver::move_values`]). Memory is bounded: the transposition table is sized once
//!   from [`SolverConfig::table_bytes`]. Each search also comes in a form that takes a
//!   [`Budget`] (a deadline, a node limit, a stop flag) and answers [`OutOfBudget`] when it
//!   runs out ([`Solver::solve_within`], [`Solver::solve_distance_within`],
//!   [`Solver::move_values_within`]).
//! - [`solitaire`]: the one-person puzzle (`mode=solitaire`): a solution that reaches the
//!   goal, or a proof that none exists and the lowest score reachable.
//!
//! Values are [`Proven`] results, stated for the seat to move in the position solved
//! ([`Position::seat`]): a win or a loss (no draws exist in Sight Reduction), with the plies to
//! the end when the distance is asked for — the winner winning as fast as possible, the loser
//! holding out as long as possible. Inside, the searches work on the side to move's pieces and
//! the other side's, with [`Score`]s relative to the side to move.
//!
//! The rules themselves (sight, the legal removals, making one) come from the engine's
//! bit-level kernel, [`crate::kernel`]; this module adds the searches, the
//! transposition table ([`tt`]) and the group analysis behind the move-count bounds
//! ([`groups`]).
//!
//! ```
//! use boardlab_core::prelude::*;
//! use boardlab_core::{Proven, Seat};
//! use boardlab_sight_reduction::solver::{Solver, SolverConfig};
//! use boardlab_sight_reduction::SightReduction;
//!
//! let options = SightReduction::info().default_options();
//! // White to move: c1 and d1 see each other, b8 stands alone; Black's a8 and a1 see each
//! // other down the a-file.
//! let game = SightReduction::from_position(&options, "BW2/4/4/4/4/4/4/B1WW w").unwrap();
//! let mut solver = Solver::new(SolverConfig::default());
//! assert_eq!(game.to_move(), Seat::First);
//! assert_eq!(solver.solve_game(&game).unwrap(), Proven::loss(Seat::First));
//! assert_eq!(solver.solve_game_distance(&game).unwrap(), Proven::loss_in(Seat::First, 2));
//! ```

mod budget;
pub mod groups;
pub mod placement;
mod search;
pub mod solitaire;
pub mod tt;

use crate::kernel::{self, with_variant};
pub use crate::kernel::{move_mask, to_move, RuleSet};
use crate::{Move, Phase, Side, SightReduction, BLACK, WHITE};
pub use boardlab_core::budget::{Budget, OutOfBudget, CHECK_EVERY};
use boardlab_core::Rules as _;
use boardlab_core::{Game, Proven, Seat};
pub use search::Stats;
use search::{parent_score, Search};
use thiserror::Error;
use tt::Table;

/// A score from the side to move's view: `100 - n` for a win in `n` plies, `-(100 - n)` for
/// a loss in `n` plies. The compact form of the searches and the table; results leave the
/// solver as [`Proven`] (converted in one place, `Answer::for_seat`).
pub type Score = i8;

/// The lowest score of a win (a game lasts at most 30 more plies).
pub const WIN_MIN: Score = 100 - 31;
/// The highest score of a loss.
pub const LOSS_MAX: Score = -(100 - 30);

/// The table key of a position: the side to move's pieces, then the other side's.
#[inline(always)]
#[must_use]
pub fn key(me: u32, opp: u32) -> u64 {
    u64::from(me) | u64::from(opp) << 32
}

/// What a search found, from the view of the side to move: who wins, or a [`Score`] (the
/// distance too). The solver's one conversion to the public [`Proven`], for the seat to move,
/// is [`Answer::for_seat`].
#[derive(Clone, Copy, Debug)]
enum Answer {
    /// Whether the side to move wins (distance not computed).
    Wins(bool),
    /// A score with distance (see [`Score`]).
    Score(i32),
}

impl Answer {
    /// The answer as a result for `seat`, the seat to move: a win or a loss (no draws exist
    /// in Sight Reduction), with the plies to the end (single removals or pairs; odd for a
    /// win, as the winner makes the last removal, even for a loss, 0 when the side to move
    /// has no move now) when the distance was computed.
    fn for_seat(self, seat: Seat) -> Proven {
        match self {
            Answer::Wins(true) => Proven::win(seat),
            Answer::Wins(false) => Proven::loss(seat),
            Answer::Score(s) if s > 0 => Proven::win_in(seat, (100 - s) as u32),
            Answer::Score(s) => Proven::loss_in(seat, (100 + s) as u32),
        }
    }
}

/// Why a game cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SolveError {
    /// The game is still being set up (fair arrangement, colour choice, placement).
    #[error("the game is in its set-up ({0}); the solver needs the removal phase")]
    NotRemovalPhase(String),
    /// A match solver was given a solitaire game or the other way round.
    #[error("{0}")]
    WrongMode(String),
}

/// Solver settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverConfig {
    /// Memory for the transposition table, in bytes (it never grows beyond this).
    pub table_bytes: usize,
    /// The most positions a solitaire search visits before it gives up (see
    /// [`solitaire::SolitaireResult::exhaustive`]).
    pub node_limit: u64,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            table_bytes: 64 << 20,
            node_limit: u64::MAX,
        }
    }
}

/// A position of the removal phase: each colour's pieces, the colour to move and the seat
/// that plays it (whose view the solver's results are stated for).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// White's pieces (bit `rank * 4 + file`).
    pub white: u32,
    /// Black's pieces.
    pub black: u32,
    /// The colour to move: [`WHITE`] or [`BLACK`].
    pub side: Side,
    /// The seat to move (the one playing `side`).
    pub seat: Seat,
}

impl Position {
    /// The removal-phase position of `game`.
    ///
    /// # Errors
    /// A game still in its set-up.
    pub fn of(game: &SightReduction) -> Result<Position, SolveError> {
        if game.phase() != Phase::Remove {
            return Err(SolveError::NotRemovalPhase(format!("{:?}", game.phase())));
        }
        Ok(Position {
            white: game.pieces(WHITE),
            black: game.pieces(BLACK),
            side: game.side_to_move(),
            seat: game.to_move(),
        })
    }

    fn me_opp(self) -> (u32, u32) {
        if self.side == WHITE {
            (self.white, self.black)
        } else {
            (self.black, self.white)
        }
    }

    /// The position after the side to move removes the squares `removed`.
    #[must_use]
    pub fn after(self, removed: u32) -> Position {
        let (me, opp) = self.me_opp();
        let (next, mine) = kernel::play(me, opp, removed);
        let side = self.side.other();
        let (white, black) = if side == WHITE {
            (next, mine)
        } else {
            (mine, next)
        };
        Position {
            white,
            black,
            side,
            seat: self.seat.other(),
        }
    }
}

/// The exact solver of the two-player game, with its transposition table. The table keeps
/// what it learnt between calls with the same rules (a position's value never changes), so
/// solving many related positions with one solver is faster.
#[derive(Debug)]
pub struct Solver {
    table: Table,
    rules: Option<RuleSet>,
    stats: Stats,
}

/// The result of a search without a budget, which cannot run out.
fn unlimited<T>(result: Result<T, OutOfBudget>) -> T {
    match result {
        Ok(v) => v,
        Err(e) => unreachable!("a search without a budget cannot run out: {e}"),
    }
}

impl Solver {
    /// A solver with the given settings.
    #[must_use]
    pub fn new(config: SolverConfig) -> Solver {
        Solver {
            table: Table::with_bytes(config.table_bytes),
            rules: None,
            stats: Stats::default(),
        }
    }

    /// Counters summed over every search so far.
    #[must_use]
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The memory the transposition table takes, in bytes.
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    fn prepare(&mut self, rules: RuleSet) {
        if self.rules != Some(rules) {
            // Values depend on the rules: start afresh.
            self.table.clear();
            self.rules = Some(rules);
        }
        self.table.new_generation();
    }

    /// Whether the seat to move wins `pos` under `rules`: a win or a loss for
    /// [`Position::seat`], without the distance.
    pub fn solve(&mut self, rules: RuleSet, pos: Position) -> Proven {
        unlimited(self.solve_within(rules, pos, Budget::UNLIMITED))
    }

    /// [`Solver::solve`] within `budget`.
    ///
    /// # Errors
    /// The budget ran out before the search ended (what it proved is kept in the table).
    pub fn solve_within(
        &mut self,
        rules: RuleSet,
        pos: Position,
        budget: Budget<'_>,
    ) -> Result<Proven, OutOfBudget> {
        self.prepare(rules);
        let (me, opp) = pos.me_opp();
        let tt = &mut self.table;
        let (win, stats, out) = with_variant!(rules, V => {
            let mut s = Search::<V>::new(tt, budget);
            let w = s.wins(me, opp);
            (w, s.stats, s.meter.out)
        });
        self.account(&stats, out, Answer::Wins(win).for_seat(pos.seat))
    }

    /// The value of `pos` with distance: a win or a loss for [`Position::seat`] in a number
    /// of plies.
    pub fn solve_distance(&mut self, rules: RuleSet, pos: Position) -> Proven {
        unlimited(self.solve_distance_within(rules, pos, Budget::UNLIMITED))
    }

    /// [`Solver::solve_distance`] within `budget`.
    ///
    /// # Errors
    /// The budget ran out before the search ended (what it proved is kept in the table).
    pub fn solve_distance_within(
        &mut self,
        rules: RuleSet,
        pos: Position,
        budget: Budget<'_>,
    ) -> Result<Proven, OutOfBudget> {
        self.prepare(rules);
        let (me, opp) = pos.me_opp();
        let tt = &mut self.table;
        let (score, stats, out) = with_variant!(rules, V => {
            let mut s = Search::<V>::new(tt, budget);
            // Who wins first (cheap), then how fast within that side of zero.
            let w = s.wins(me, opp);
            s.killer_first = false;
            // Then the distance by null-window tests, halving the range of possible scores.
            let (mut lo, mut hi) = if w { (i32::from(WIN_MIN), 99) } else { (-100, i32::from(LOSS_MAX)) };
            while lo < hi && !s.out() {
                let mid = lo + (hi - lo + 1) / 2;
                let v = s.score(me, opp, mid - 1, mid);
                if s.out() {
                    break;
                }
                if v >= mid {
                    lo = v.min(hi);
                } else {
                    hi = v.max(lo);
                }
            }
            let score = lo;
            (score, s.stats, s.meter.out)
        });
        self.account(&stats, out, Answer::Score(score).for_seat(pos.seat))
    }

    /// Adds the counters of a search and gives its answer, unless its budget ran out.
    fn account(
        &mut self,
        stats: &Stats,
        out: Option<OutOfBudget>,
        answer: Proven,
    ) -> Result<Proven, OutOfBudget> {
        self.stats.add(stats);
        out.map_or(Ok(answer), Err)
    }

    /// Every legal move of `pos` with its value for the seat to move (the value of the
    /// position after it, one ply earlier), in the engine's move order.
    pub fn move_values(
        &mut self,
        rules: RuleSet,
        pos: Position,
        distance: bool,
    ) -> Vec<(Move, Proven)> {
        unlimited(self.move_values_within(rules, pos, distance, Budget::UNLIMITED))
    }

    /// [`Solver::move_values`] within `budget`, which holds for all the moves together.
    ///
    /// # Errors
    /// The budget ran out before every move was solved.
    pub fn move_values_within(
        &mut self,
        rules: RuleSet,
        pos: Position,
        distance: bool,
        budget: Budget<'_>,
    ) -> Result<Vec<(Move, Proven)>, OutOfBudget> {
        self.prepare(rules);
        let (me, opp) = pos.me_opp();
        let mut masks = Vec::new();
        rules.moves(me, opp, &mut masks);
        let start = self.stats.nodes;
        let mut out = Vec::with_capacity(masks.len());
        for m in masks {
            let child = pos.after(m);
            let left = budget.after(self.stats.nodes - start);
            let v = if distance {
                self.solve_distance_within(rules, child, left)?
            } else {
                self.solve_within(rules, child, left)?
            };
            out.push((to_move(m), v.before().for_seat(pos.seat)));
        }
        Ok(out)
    }

    /// A best move of `pos` (the fastest win, or the longest resistance, when `distance`),
    /// with its value; `None` when the side to move has no move.
    pub fn best_move(
        &mut self,
        rules: RuleSet,
        pos: Position,
        distance: bool,
    ) -> Option<(Move, Proven)> {
        let moves = self.move_values(rules, pos, distance);
        let mut best: Option<(Move, Proven)> = None;
        for (m, v) in moves {
            if best.is_none_or(|(_, b)| v.rank_for(pos.seat) > b.rank_for(pos.seat)) {
                best = Some((m, v));
            }
        }
        best
    }

    /// [`Solver::solve`] for a two-player game in its removal phase.
    ///
    /// # Errors
    /// A game in its set-up, or a solitaire game (see [`solitaire`]).
    pub fn solve_game(&mut self, game: &SightReduction) -> Result<Proven, SolveError> {
        let (rules, pos) = match_position(game)?;
        Ok(self.solve(rules, pos))
    }

    /// [`Solver::solve_distance`] for a two-player game in its removal phase.
    ///
    /// # Errors
    /// As [`Solver::solve_game`].
    pub fn solve_game_distance(&mut self, game: &SightReduction) -> Result<Proven, SolveError> {
        let (rules, pos) = match_position(game)?;
        Ok(self.solve_distance(rules, pos))
    }

    /// [`Solver::move_values`] for a two-player game in its removal phase.
    ///
    /// # Errors
    /// As [`Solver::solve_game`].
    pub fn game_move_values(
        &mut self,
        game: &SightReduction,
        distance: bool,
    ) -> Result<Vec<(Move, Proven)>, SolveError> {
        let (rules, pos) = match_position(game)?;
        Ok(self.move_values(rules, pos, distance))
    }
}

fn match_position(game: &SightReduction) -> Result<(RuleSet, Position), SolveError> {
    if game.is_solitaire() {
        return Err(SolveError::WrongMode(
            "this is a solitaire game (mode=solitaire): use the solitaire solver".into(),
        ));
    }
    Ok((RuleSet::of(game.config()), Position::of(game)?))
}

#[doc(hidden)]
pub fn parent(child: i32) -> i32 {
    parent_score(child)
}

/// Who wins from the move-count bounds alone (`None`: they do not tell), for tests: the
/// bounds must never contradict a full search.
#[doc(hidden)]
#[must_use]
pub fn static_bounds(rules: RuleSet, pos: Position) -> Option<bool> {
    let (me, opp) = pos.me_opp();
    with_variant!(rules, V => {
        let r = kernel::removable::<V>(me, opp);
        if r == 0 {
            return Some(false);
        }
        Search::<V>::bounds(me, opp, r, kernel::removable::<V>(opp, me))
    })
}
