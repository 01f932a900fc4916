//! Exact solvers for Sight Reduction.
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
//! - [`puzzle`]: random solvable solitaire puzzles graded by how many first moves lead to
//!   dead ends.
//! - [`study`]: many random set-ups solved exactly, in parallel and resumable, with
//!   first-player statistics, JSON, CSV and an SVG chart.
//!
//! Values are always stated from the view of the side to move ([`Value`]).
//!
//! The rules themselves (sight, the legal removals, making one) come from the engine's
//! bit-level kernel, [`boardlab_sight_reduction::kernel`]; this crate adds the searches, the
//! transposition table ([`tt`]) and the group analysis behind the move-count bounds
//! ([`groups`]).
//!
//! ```
//! use boardlab_core::Game;
//! use boardlab_sight_reduction::SightReduction;
//! use boardlab_solve::{Solver, SolverConfig, Value};
//!
//! let options = SightReduction::info().default_options();
//! // White to move: c1 and d1 see each other, b8 stands alone; Black's a8 and a1 see each
//! // other down the a-file.
//! let game = SightReduction::from_position(&options, "BW2/4/4/4/4/4/4/B1WW w").unwrap();
//! let mut solver = Solver::new(SolverConfig::default());
//! assert_eq!(solver.solve_game(&game).unwrap(), Value::Loss);
//! assert_eq!(solver.solve_game_distance(&game).unwrap(), Value::LossIn(2));
//! ```

pub mod bench;
mod budget;
pub mod groups;
pub mod puzzle;
mod search;
pub mod solitaire;
pub mod study;
pub mod tt;

use boardlab_core::Game;
use boardlab_sight_reduction::kernel::{self, with_variant};
pub use boardlab_sight_reduction::kernel::{move_mask, to_move, Rules};
pub use boardlab_sight_reduction::SightReduction;
use boardlab_sight_reduction::{Move, Phase, BLACK, WHITE};
pub use budget::{Budget, OutOfBudget, CHECK_EVERY};
pub use search::Stats;
use search::{parent_score, Search};
use std::fmt;
use thiserror::Error;
use tt::Table;

/// A score from the side to move's view: `100 - n` for a win in `n` plies, `-(100 - n)` for
/// a loss in `n` plies.
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

/// The value of a position with perfect play, from the view of the side to move. No draws
/// exist in Sight Reduction.
///
/// With distances, the winner wins as fast as possible and the loser holds out as long as
/// possible; `n` counts plies (single removals or pairs) to the end, where the loser has no
/// move. Values order by preference: a shorter win is better, a longer loss is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins (distance not computed).
    Win,
    /// The side to move loses (distance not computed).
    Loss,
    /// The side to move wins in `n` plies (odd: the winner makes the last removal).
    WinIn(u32),
    /// The side to move loses in `n` plies (even; 0: it has no move now).
    LossIn(u32),
}

impl Value {
    /// Whether the side to move wins.
    #[must_use]
    pub fn is_win(self) -> bool {
        matches!(self, Value::Win | Value::WinIn(_))
    }

    /// The plies to the end, when known.
    #[must_use]
    pub fn plies(self) -> Option<u32> {
        match self {
            Value::WinIn(n) | Value::LossIn(n) => Some(n),
            Value::Win | Value::Loss => None,
        }
    }

    /// The same result one ply earlier, seen by the other side (the value of a move that
    /// leads to a position of value `self`).
    #[must_use]
    pub fn before(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
            Value::WinIn(n) => Value::LossIn(n + 1),
            Value::LossIn(n) => Value::WinIn(n + 1),
        }
    }

    /// The better of two values for the side to move (see [`Value`] for the order).
    #[must_use]
    pub fn merge(self, other: Value) -> Value {
        if other.rank() > self.rank() {
            other
        } else {
            self
        }
    }

    /// The value's place in the order of [`Value`]: the higher, the better for the side to
    /// move (a win in `n` plies ranks `1000 - n`, a loss in `n` plies `n - 1000`; a win or a
    /// loss without distance ranks 500 or -500).
    #[must_use]
    pub fn rank(self) -> i32 {
        match self {
            Value::WinIn(n) => 1000 - n as i32,
            Value::Win => 500,
            Value::Loss => -500,
            Value::LossIn(n) => -1000 + n as i32,
        }
    }

    fn from_score(s: i32) -> Value {
        if s > 0 {
            Value::WinIn((100 - s) as u32)
        } else {
            Value::LossIn((100 + s) as u32)
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win => f.write_str("win"),
            Value::Loss => f.write_str("loss"),
            Value::WinIn(n) => write!(f, "win in {n}"),
            Value::LossIn(n) => write!(f, "loss in {n}"),
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

/// A position of the removal phase: each colour's pieces and the colour to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// White's pieces (bit `rank * 4 + file`).
    pub white: u32,
    /// Black's pieces.
    pub black: u32,
    /// The colour to move: [`WHITE`] or [`BLACK`].
    pub side: usize,
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
        let side = self.side ^ 1;
        let (white, black) = if side == WHITE {
            (next, mine)
        } else {
            (mine, next)
        };
        Position { white, black, side }
    }
}

/// The exact solver of the two-player game, with its transposition table. The table keeps
/// what it learnt between calls with the same rules (a position's value never changes), so
/// solving many related positions with one solver is faster.
#[derive(Debug)]
pub struct Solver {
    table: Table,
    rules: Option<Rules>,
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

    fn prepare(&mut self, rules: Rules) {
        if self.rules != Some(rules) {
            // Values depend on the rules: start afresh.
            self.table.clear();
            self.rules = Some(rules);
        }
        self.table.new_generation();
    }

    /// Whether the side to move wins `pos` under `rules`: [`Value::Win`] or [`Value::Loss`].
    pub fn solve(&mut self, rules: Rules, pos: Position) -> Value {
        unlimited(self.solve_within(rules, pos, Budget::UNLIMITED))
    }

    /// [`Solver::solve`] within `budget`.
    ///
    /// # Errors
    /// The budget ran out before the search ended (what it proved is kept in the table).
    pub fn solve_within(
        &mut self,
        rules: Rules,
        pos: Position,
        budget: Budget<'_>,
    ) -> Result<Value, OutOfBudget> {
        self.prepare(rules);
        let (me, opp) = pos.me_opp();
        let tt = &mut self.table;
        let (win, stats, out) = with_variant!(rules, V => {
            let mut s = Search::<V>::new(tt, budget);
            let w = s.wins(me, opp);
            (w, s.stats, s.meter.out)
        });
        self.account(&stats, out, if win { Value::Win } else { Value::Loss })
    }

    /// The value of `pos` with distance: [`Value::WinIn`] or [`Value::LossIn`].
    pub fn solve_distance(&mut self, rules: Rules, pos: Position) -> Value {
        unlimited(self.solve_distance_within(rules, pos, Budget::UNLIMITED))
    }

    /// [`Solver::solve_distance`] within `budget`.
    ///
    /// # Errors
    /// The budget ran out before the search ended (what it proved is kept in the table).
    pub fn solve_distance_within(
        &mut self,
        rules: Rules,
        pos: Position,
        budget: Budget<'_>,
    ) -> Result<Value, OutOfBudget> {
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
        self.account(&stats, out, Value::from_score(score))
    }

    /// Adds the counters of a search and gives its answer, unless its budget ran out.
    fn account(
        &mut self,
        stats: &Stats,
        out: Option<OutOfBudget>,
        answer: Value,
    ) -> Result<Value, OutOfBudget> {
        self.stats.add(stats);
        out.map_or(Ok(answer), Err)
    }

    /// Every legal move of `pos` with its value for the side to move (the value of the
    /// position after it, seen from before it), in the engine's move order.
    pub fn move_values(
        &mut self,
        rules: Rules,
        pos: Position,
        distance: bool,
    ) -> Vec<(Move, Value)> {
        unlimited(self.move_values_within(rules, pos, distance, Budget::UNLIMITED))
    }

    /// [`Solver::move_values`] within `budget`, which holds for all the moves together.
    ///
    /// # Errors
    /// The budget ran out before every move was solved.
    pub fn move_values_within(
        &mut self,
        rules: Rules,
        pos: Position,
        distance: bool,
        budget: Budget<'_>,
    ) -> Result<Vec<(Move, Value)>, OutOfBudget> {
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
            out.push((to_move(m), v.before()));
        }
        Ok(out)
    }

    /// A best move of `pos` (the fastest win, or the longest resistance, when `distance`),
    /// with its value; `None` when the side to move has no move.
    pub fn best_move(
        &mut self,
        rules: Rules,
        pos: Position,
        distance: bool,
    ) -> Option<(Move, Value)> {
        let moves = self.move_values(rules, pos, distance);
        let mut best: Option<(Move, Value)> = None;
        for (m, v) in moves {
            if best.is_none_or(|(_, b)| b.merge(v) != b) {
                best = Some((m, v));
            }
        }
        best
    }

    /// [`Solver::solve`] for a two-player game in its removal phase.
    ///
    /// # Errors
    /// A game in its set-up, or a solitaire game (see [`solitaire`]).
    pub fn solve_game(&mut self, game: &SightReduction) -> Result<Value, SolveError> {
        let (rules, pos) = match_position(game)?;
        Ok(self.solve(rules, pos))
    }

    /// [`Solver::solve_distance`] for a two-player game in its removal phase.
    ///
    /// # Errors
    /// As [`Solver::solve_game`].
    pub fn solve_game_distance(&mut self, game: &SightReduction) -> Result<Value, SolveError> {
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
    ) -> Result<Vec<(Move, Value)>, SolveError> {
        let (rules, pos) = match_position(game)?;
        Ok(self.move_values(rules, pos, distance))
    }
}

fn match_position(game: &SightReduction) -> Result<(Rules, Position), SolveError> {
    if game.is_solitaire() {
        return Err(SolveError::WrongMode(
            "this is a solitaire game (mode=solitaire): use the solitaire solver".into(),
        ));
    }
    Ok((Rules::of(game.config()), Position::of(game)?))
}

/// The score of a value with distance (see [`Score`]).
#[must_use]
pub fn score_of(v: Value) -> Option<i32> {
    match v {
        Value::WinIn(n) => Some(100 - n as i32),
        Value::LossIn(n) => Some(n as i32 - 100),
        _ => None,
    }
}

#[doc(hidden)]
pub fn parent(child: i32) -> i32 {
    parent_score(child)
}

/// Who wins from the move-count bounds alone (`None`: they do not tell), for tests: the
/// bounds must never contradict a full search.
#[doc(hidden)]
#[must_use]
pub fn static_bounds(rules: Rules, pos: Position) -> Option<bool> {
    let (me, opp) = pos.me_opp();
    with_variant!(rules, V => {
        let r = kernel::removable::<V>(me, opp);
        if r == 0 {
            return Some(false);
        }
        Search::<V>::bounds(me, opp, r, kernel::removable::<V>(opp, me))
    })
}
