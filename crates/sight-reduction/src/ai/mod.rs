//! Sight Reduction: evaluation, playout policy and the exact endgame.
//!
//! The game is short (at most 30 removals) and its positions are two 32-bit sets, so the
//! removal phase is solved exactly by boardlab-solve's solver, within the search's budget
//! ([`SolverEndgame`]): at the root of every search once few enough pieces remain, and at the
//! leaves of the trees. The fair set-up's choices and the last placements of the placement
//! set-up are decided exactly with it too.

mod judge;

use crate::kernel::{self, move_mask, RuleSet};
use crate::solver::placement::PlacementSearch;
use crate::solver::tt::Table;
use crate::solver::{Position, Solver, SolverConfig};
use crate::{Config, Move, Phase, SightReduction};
use boardlab_ai::knowledge::{Endgame, GameAi};
use boardlab_ai::spec::BotSpec;
use boardlab_core::rand::{rngs::SmallRng, Rng, SeedableRng};
use boardlab_core::Budget;
use boardlab_core::Rules as _;
use boardlab_core::{Game, Proven};
use std::time::Duration;
use web_time::Instant;

/// Every removal of `me` as a set of squares, in the order random playouts draw from:
/// single removals by square, then (with `removal=pair`) the pairs as
/// [`RuleSet::for_each_pair`] lists them.
fn removals(rules: RuleSet, me: u32, opp: u32, out: &mut Vec<u32>) {
    out.clear();
    let r = rules.removable(me, opp);
    out.extend(kernel::squares(r));
    if rules.pair {
        rules.for_each_pair(me, opp, r, |m| out.push(m));
    }
}

/// Random playouts per reply when choosing a move in a lost position.
const SWINDLE_PLAYOUTS: u32 = 48;
/// How sharply a playout-guided opponent prefers the replies that look best.
const SWINDLE_TEMPERATURE: f64 = 0.05;

/// Plays uniformly random single removals from (`me` to move, `opp`) to the end; true when
/// `me` loses.
fn random_playout_loses<R: Rng>(rules: RuleSet, mut me: u32, mut opp: u32, rng: &mut R) -> bool {
    let mut my_turn = true;
    let mut moves = [0u32; 64];
    loop {
        let r = rules.removable(me, opp);
        if r == 0 {
            return my_turn;
        }
        let removed = if rules.pair {
            let mut v = Vec::new();
            removals(rules, me, opp, &mut v);
            let n = v.len().min(moves.len());
            moves[..n].copy_from_slice(&v[..n]);
            moves[rng.random_range(0..n)]
        } else {
            1 << kernel::nth_bit(r, rng.random_range(0..r.count_ones()))
        };
        (me, opp) = kernel::play(me, opp, removed);
        my_turn = !my_turn;
    }
}

/// The exact endgame of Sight Reduction for the bots: boardlab-solve's solver within the
/// search's budget, and the exact choices of the fair set-up and of the last placements.
#[derive(Debug, Default)]
pub struct SolverEndgame {
    /// The solver, made on first use; its table is kept between moves.
    solver: Option<Box<Solver>>,
    /// The placement search's table, kept between moves, and the options its values hold
    /// for.
    placements: Option<Box<Table>>,
    placement_config: Option<Config>,
    /// The solver of reviews' judgements (its own table size), made on first use.
    pub(super) judge_solver: Option<Box<Solver>>,
}

/// The memory of the placement table kept between moves.
const PLACEMENT_TABLE_BYTES: usize = 8 << 20;

/// Positions with at most this many pieces are solved without a budget: the solver needs
/// milliseconds there, distance included. Larger ones are solved within the search's
/// budget (who wins alone, which [`Endgame::decide`] finds, takes milliseconds even on a
/// full board; the distance can take seconds).
const UNBUDGETED_PIECES: u32 = 24;

/// How likely an opponent guided by random playouts is to choose a reply after which we
/// (`mine`, to move) face `theirs`: a weight growing with the opponent's playout score.
fn playout_weight<R: Rng>(rules: RuleSet, mine: u32, theirs: u32, rng: &mut R) -> f64 {
    let mut score = 0u32;
    for _ in 0..SWINDLE_PLAYOUTS {
        score += u32::from(random_playout_loses(rules, mine, theirs, rng));
    }
    let q = f64::from(score) / f64::from(SWINDLE_PLAYOUTS);
    (q / SWINDLE_TEMPERATURE).exp()
}

/// In a lost position, the move that gives an opponent who is not perfect the best chance to
/// go wrong: each reply of the opponent is solved (who wins) and also estimated the way a
/// player guided by random playouts sees it; a move scores the share of the opponent's likely
/// choices (replies weighted by how good their playouts look) that throw the win away.
/// `moves` are the candidates with a tie-break key (higher is better). Past `deadline` the
/// candidates not yet scored are left out (those with the higher keys are scored first; with
/// none scored, the first of them is the choice).
fn swindle_choice(
    solver: &mut Solver,
    game: &SightReduction,
    moves: &[(Move, i64)],
    deadline: Option<Instant>,
) -> Option<Move> {
    let rules = RuleSet::of(game.config());
    let side = game.side_to_move();
    let (me, opp) = (game.pieces(side), game.pieces(side.other()));
    let mut rng = SmallRng::seed_from_u64(u64::from(me) << 32 | u64::from(opp));
    let mut choice: Option<((i64, i64), Move)> = None;
    let mut order: Vec<(Move, i64)> = moves.to_vec();
    order.sort_by_key(|&(_, tie)| std::cmp::Reverse(tie));
    for &(m, tie) in &order {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let Some(mask) = move_mask(m) else { continue };
        let mine = me & !mask;
        let child = Position::of(game).expect("the removal phase").after(mask);
        let seat = game.to_move();
        let (mut lost, mut all) = (0.0f64, 0.0f64);
        for (r, rv) in solver.move_values(rules, child, false) {
            let Some(rmask) = move_mask(r) else { continue };
            let w = playout_weight(rules, mine, opp & !rmask, &mut rng);
            all += w;
            if rv.wins(seat) {
                lost += w;
            }
        }
        let key = ((lost / all.max(1e-300) * 1e6) as i64, tie);
        if choice.is_none_or(|(k, _)| key > k) {
            choice = Some((key, m));
        }
    }
    // Out of time before any was scored: the first in the tie-break order.
    choice.map(|(_, m)| m).or(order.first().map(|&(m, _)| m))
}

/// Whether `budget` is spent after `used` nodes.
fn spent(budget: Budget<'static>, used: u64) -> bool {
    used >= budget.nodes || budget.deadline.is_some_and(|d| Instant::now() >= d)
}

/// The last placements of the placement set-up are searched exactly at the root from this
/// many empty squares (every full board reached is solved), where the budget allows.
const PLACE_EMPTY: u32 = 10;
/// About what one full board reached by placements costs to solve.
const PLACE_BOARD_TIME: Duration = Duration::from_millis(8);
const PLACE_BOARD_NODES: u64 = 300_000;

/// Whether an exact search of the placements with `empty` squares left is likely to end
/// within `budget`: one solve for each way of sharing the squares between the colours.
fn placement_fits(empty: u32, budget: Budget<'static>, now: Instant) -> bool {
    let boards = (1..=u64::from(empty / 2)).fold(1u64, |b, i| b * (u64::from(empty) + 1 - i) / i);
    let by_time = budget
        .deadline
        .is_none_or(|d| d.saturating_duration_since(now) >= PLACE_BOARD_TIME * boards as u32);
    by_time && budget.nodes >= PLACE_BOARD_NODES.saturating_mul(boards)
}

/// The exact searches (`solve`, `decide`) take positions of up to this many pieces; root
/// searches are tried up to it (with a node limit).
const ROOT_PIECES: u32 = 32;
/// Leaves of the MCTS tree and alpha-beta nodes are searched from this many pieces.
const LEAF_PIECES: u32 = 14;

/// The bots' removal solver, with its table.
fn new_solver() -> Box<Solver> {
    Box::new(Solver::new(SolverConfig {
        table_bytes: 32 << 20,
        ..SolverConfig::default()
    }))
}

impl SolverEndgame {
    /// The solver, made on first use.
    fn solver(&mut self) -> &mut Solver {
        self.solver.get_or_insert_with(new_solver)
    }

    /// The solver's budget for the removal phase that `game` is in (see
    /// [`UNBUDGETED_PIECES`]).
    fn budget(game: &SightReduction, budget: Budget<'static>) -> Budget<'static> {
        if Self::pieces(game) <= UNBUDGETED_PIECES {
            Budget::UNLIMITED
        } else {
            Budget {
                deadline: budget.deadline,
                nodes: budget.nodes,
                stop: None,
            }
        }
    }

    fn pieces(game: &SightReduction) -> u32 {
        game.occupied().count_ones()
    }

    fn empty(game: &SightReduction) -> u32 {
        game.occupied().count_zeros()
    }

    /// Whether the seat to move wins the removal phase that `game` is in (who wins only).
    fn seat_wins(&mut self, game: &SightReduction, nodes: &mut u64) -> bool {
        let solver = self.solver();
        let before = solver.stats().nodes;
        let wins = solver
            .solve_game(game)
            .expect("a match in its removal phase")
            .wins(game.to_move());
        *nodes += solver.stats().nodes - before;
        wins
    }

    /// The fair set-up's last two choices, decided exactly (each takes one or two solves of a
    /// full board): whether the seat to move wins and a move that achieves it (in a lost
    /// position the first move). `game` is in [`Phase::ChooseColour`] or
    /// [`Phase::ChooseFirst`]; the result of the choice is decided by the seat that follows.
    fn choose(&mut self, game: &SightReduction, nodes: &mut u64) -> (bool, Move) {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let me = game.to_move();
        for &m in &moves {
            let mut child = game.clone();
            child.play_unchecked(m);
            let mover_wins = match child.phase() {
                Phase::Remove => self.seat_wins(&child, nodes),
                _ => self.choose(&child, nodes).0,
            };
            if (child.to_move() == me) == mover_wins {
                return (true, m);
            }
        }
        (false, moves[0])
    }

    /// Whether the arranger wins by ending the arrangement of `game` now.
    fn done_wins(&mut self, game: &SightReduction, nodes: &mut u64) -> bool {
        let mut child = game.clone();
        child.play_unchecked(Move::Done);
        !self.choose(&child, nodes).0
    }

    /// The fair set-up's arrangement: `done` when the board as it stands wins for the
    /// arranger, else the first swap (or pair of swaps) found after which it does. Who wins
    /// after `done` needs two solves of the board (the arranger wins exactly when the board
    /// is won by the same player, first or second to remove, whichever colour removes
    /// first), so the swaps are tried one at a time within `budget`; `None` when none was
    /// found in it.
    fn arrange(
        &mut self,
        game: &SightReduction,
        budget: Budget<'static>,
        nodes: &mut u64,
    ) -> Option<(bool, Move)> {
        if self.done_wins(game, nodes) {
            return Some((true, Move::Done));
        }
        // Each swap with the board it leaves.
        let swapped = |g: &SightReduction| -> Vec<(Move, SightReduction)> {
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            moves
                .into_iter()
                .filter(|m| matches!(m, Move::Swap(..)))
                .map(|m| {
                    let mut c = g.clone();
                    c.play_unchecked(m);
                    (m, c)
                })
                .collect()
        };
        // The boards one swap away, then (where two are allowed) two, each with its first swap.
        let singles = swapped(game);
        let doubles = singles
            .iter()
            .flat_map(|(m, c)| swapped(c).into_iter().map(move |(_, c2)| (*m, c2)));
        let candidates = singles.iter().cloned().chain(doubles);
        let start = *nodes;
        for (m, board) in candidates {
            if spent(budget, *nodes - start) {
                return None;
            }
            if self.done_wins(&board, nodes) {
                return Some((true, m));
            }
        }
        None
    }

    /// Whether the seat to move wins the placement set-up that `game` is in, every
    /// placement searched and every full board solved (by [`PlacementSearch`], whose table
    /// keeps the placements already decided between moves). `None` once `budget` is spent
    /// (nodes counted from `start`).
    fn place_wins(
        &mut self,
        game: &SightReduction,
        budget: Budget<'static>,
        start: u64,
        nodes: &mut u64,
    ) -> Option<bool> {
        let table = self
            .placements
            .get_or_insert_with(|| Box::new(Table::with_bytes(PLACEMENT_TABLE_BYTES)));
        let solver = self.solver.get_or_insert_with(new_solver);
        let rules = RuleSet::of(game.config());
        let mut search = PlacementSearch::new(table, solver, rules, budget.after(*nodes - start));
        let wins = search.wins(game);
        *nodes += search.visited();
        wins.ok()
    }

    /// The last placements of the placement set-up, searched exactly: a winning placement,
    /// or in a lost position the placement after which the most of the opponent's replies
    /// throw the win away. It takes at most half of `budget` (what it decided is kept for
    /// the next move), and gives `None` when that is spent before who wins is known.
    fn place(
        &mut self,
        game: &SightReduction,
        budget: Budget<'static>,
        nodes: &mut u64,
    ) -> Option<(bool, Move)> {
        let now = Instant::now();
        let half = Budget {
            nodes: budget.nodes / 2,
            deadline: budget
                .deadline
                .map(|d| now + d.saturating_duration_since(now) / 2),
            stop: budget.stop,
        };
        if !placement_fits(Self::empty(game), half, now) {
            return None;
        }
        if self.placement_config != Some(*game.config()) {
            // Values depend on the rules and on who places first: start afresh.
            if let Some(table) = &mut self.placements {
                table.clear();
            }
            self.placement_config = Some(*game.config());
        }
        self.place_with(game, half, nodes)
    }

    fn place_with(
        &mut self,
        game: &SightReduction,
        budget: Budget<'static>,
        nodes: &mut u64,
    ) -> Option<(bool, Move)> {
        let start = *nodes;
        let me = game.to_move();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut lost = Vec::with_capacity(moves.len());
        for &m in &moves {
            let mut child = game.clone();
            child.play_unchecked(m);
            let mover_wins = self.place_wins(&child, budget, start, nodes)?;
            if (child.to_move() == me) == mover_wins {
                return Some((true, m));
            }
            lost.push((m, child));
        }
        // Lost: count the opponent's replies after which we win (as far as the budget goes).
        let mut choice = (0usize, moves[0]);
        let mut replies = Vec::new();
        for (m, child) in lost {
            if child.phase() == Phase::Remove {
                continue;
            }
            child.legal_moves(&mut replies);
            let mut errors = 0;
            for &r in &replies {
                let mut next = child.clone();
                next.play_unchecked(r);
                match self.place_wins(&next, budget, start, nodes) {
                    Some(w) if (next.to_move() == me) == w => errors += 1,
                    Some(_) => {}
                    None => return Some((false, choice.1)),
                }
            }
            if errors > choice.0 {
                choice = (errors, m);
            }
        }
        Some((false, choice.1))
    }

    /// In the placement set-up of a match with at most [`PLACE_EMPTY`] squares left.
    fn late_placement(game: &SightReduction) -> bool {
        game.phase() == Phase::Place && !game.is_solitaire() && Self::empty(game) <= PLACE_EMPTY
    }

    /// In the fair set-up of a match, before the first removal.
    fn in_fair_setup(game: &SightReduction) -> bool {
        !game.is_solitaire()
            && matches!(
                game.phase(),
                Phase::Arrange { .. } | Phase::ChooseColour | Phase::ChooseFirst
            )
    }

    fn applies_with(game: &SightReduction, pieces: u32) -> bool {
        game.phase() == Phase::Remove && !game.is_solitaire() && Self::pieces(game) <= pieces
    }
}

impl Endgame<SightReduction> for SolverEndgame {
    fn judge(
        &mut self,
        game: &SightReduction,
        budget: Budget<'_>,
        line: usize,
    ) -> Option<boardlab_ai::knowledge::ExactJudgement<Move>> {
        self.judge_position(game, budget, line)
    }

    fn value(
        &mut self,
        game: &SightReduction,
        budget: Budget<'static>,
        nodes: &mut u64,
    ) -> Option<Proven> {
        if !Self::applies_with(game, ROOT_PIECES) {
            return None;
        }
        let budget = Self::budget(game, budget);
        let solver = self.solver();
        let before = solver.stats().nodes;
        let v = solver.solve_distance_within(
            RuleSet::of(game.config()),
            Position::of(game).expect("the removal phase"),
            budget,
        );
        *nodes += solver.stats().nodes - before;
        v.ok()
    }

    /// In the removal phase when few enough pieces remain; at the root also in the fair
    /// set-up (see [`Endgame::decide`]).
    fn applies(&self, game: &SightReduction, at_root: bool) -> bool {
        if at_root && (Self::in_fair_setup(game) || Self::late_placement(game)) {
            return true;
        }
        Self::applies_with(game, if at_root { ROOT_PIECES } else { LEAF_PIECES })
    }

    /// Who wins, by boardlab-solve's win/loss search (a few milliseconds even on a full
    /// board), and a move: in a won position the winning removal that leaves the opponent the
    /// fewest replies, in a lost one the swindle, preferring among equal chances the move
    /// that leaves the opponent the most removable pieces to choose from (and scoring those
    /// moves first, in case the deadline comes before all are scored).
    ///
    /// In the fair set-up the choice of colour and of who removes first are decided
    /// exactly, and the arrangement by the first swaps found that leave a won board (within
    /// `budget`; `None` when there is none in it, and the search goes on as usual).
    fn decide(
        &mut self,
        game: &SightReduction,
        budget: Budget<'static>,
        nodes: &mut u64,
    ) -> Option<(bool, Move)> {
        match game.phase() {
            Phase::Arrange { .. } if Self::in_fair_setup(game) => {
                return self.arrange(game, budget, nodes);
            }
            Phase::ChooseColour | Phase::ChooseFirst if Self::in_fair_setup(game) => {
                return Some(self.choose(game, nodes));
            }
            Phase::Place if Self::late_placement(game) => {
                return self.place(game, budget, nodes);
            }
            _ => {}
        }
        if !Self::applies_with(game, ROOT_PIECES) {
            return None;
        }
        let rules = RuleSet::of(game.config());
        let side = game.side_to_move();
        let (me, opp) = (game.pieces(side), game.pieces(side.other()));
        let solver = self.solver();
        let before = solver.stats().nodes;
        let values =
            solver.move_values(rules, Position::of(game).expect("the removal phase"), false);
        let replies = |m: Move| {
            move_mask(m).map_or(0, |mask| {
                i64::from(rules.removable(opp, me & !mask).count_ones())
            })
        };
        let won = values
            .iter()
            .filter(|(_, v)| v.wins(game.to_move()))
            .min_by_key(|&&(m, _)| replies(m))
            .map(|&(m, _)| m);
        let result = match won {
            Some(m) => Some((true, m)),
            None => {
                let ranked: Vec<(Move, i64)> =
                    values.iter().map(|&(m, _)| (m, replies(m))).collect();
                swindle_choice(solver, game, &ranked, budget.deadline).map(|m| (false, m))
            }
        };
        *nodes += solver.stats().nodes - before;
        result
    }

    /// The value with the distance, and a move: in a won position the fastest win, in a
    /// lost one the swindle (see [`Endgame::decide`]), preferring among equal chances the
    /// longest game. `None` when the solver runs out of `budget`, which holds above 24
    /// pieces only.
    fn solve(
        &mut self,
        game: &SightReduction,
        budget: Budget<'static>,
        nodes: &mut u64,
    ) -> Option<(Proven, Option<Move>)> {
        if !Self::applies_with(game, ROOT_PIECES) {
            return None;
        }
        let budget = Self::budget(game, budget);
        let solver = self.solver();
        let (rules, pos) = (
            RuleSet::of(game.config()),
            Position::of(game).expect("the removal phase"),
        );
        let before = solver.stats().nodes;
        let values = solver.move_values_within(rules, pos, true, budget);
        let result = values.ok().map(|values| {
            let seat = pos.seat;
            let Some(&(best, value)) = values.iter().max_by_key(|(_, v)| v.rank_for(seat)) else {
                return (Proven::loss_in(seat, 0), None);
            };
            if value.wins(seat) {
                return (value, Some(best));
            }
            // Lost: the swindle; among equal chances, the longest game.
            let ranked: Vec<(Move, i64)> = values
                .iter()
                .map(|&(m, v)| (m, i64::from(v.rank_for(seat))))
                .collect();
            let choice = swindle_choice(solver, game, &ranked, None);
            (value, choice.or(Some(best)))
        });
        *nodes += solver.stats().nodes - before;
        result
    }
}

impl GameAi for SightReduction {
    type Endgame = SolverEndgame;

    /// Plain MCTS at 100 iterations: the exact endgames would make the report's games a study
    /// of the solver.
    const REPORT_BOT: &'static str = "mcts:plain,iterations=100";

    /// Removals left to each side: the side to move wants more than the opponent.
    fn evaluate(&self) -> i32 {
        if self.phase() != Phase::Remove {
            return 0;
        }
        let side = self.side_to_move();
        let rules = RuleSet::of(self.config());
        let (me, opp) = (self.pieces(side), self.pieces(side.other()));
        let mine = rules.removable(me, opp).count_ones() as i32;
        let theirs = rules.removable(opp, me).count_ones() as i32;
        40 * (mine - theirs) + 10 * (me.count_ones() as i32 - opp.count_ones() as i32)
    }

    /// In the removal phase: a removal that leaves the opponent none wins and is played;
    /// otherwise a uniformly random removal.
    fn policy_move<R: Rng>(&self, rng: &mut R, buf: &mut Vec<Move>) -> Option<Move> {
        if self.phase() != Phase::Remove || self.is_solitaire() || self.config().pair {
            return self.random_move(rng, buf);
        }
        let rules = RuleSet::of(self.config());
        let side = self.side_to_move();
        let (me, opp) = (self.pieces(side), self.pieces(side.other()));
        let r = rules.removable(me, opp);
        if r == 0 {
            return None;
        }
        let mut x = r;
        while x != 0 {
            let b = x & x.wrapping_neg();
            x &= x - 1;
            if rules.removable(opp, me & !b) == 0 {
                return Some(Move::Remove(b.trailing_zeros() as u8));
            }
        }
        let n = rng.random_range(0..r.count_ones());
        Some(Move::Remove(kernel::nth_bit(r, n)))
    }

    /// The squares a removal empties.
    fn footprint(mv: Move) -> u128 {
        move_mask(mv).map_or(0, u128::from)
    }

    fn level_spec(n: u8) -> BotSpec {
        boardlab_ai::levels::sight_reduction_level(n)
    }

    fn best_spec(time: Duration, threads: u32) -> BotSpec {
        BotSpec::Mcts(boardlab_ai::spec::MctsSpec {
            time: Some(time),
            threads,
            ..boardlab_ai::spec::MctsSpec::DEFAULT
        })
    }

    /// MCTS with 50,000 iterations a position, for the set-up phases; the removal phase is
    /// reviewed exactly by the solver (see `docs/review.md`).
    fn review_spec() -> BotSpec {
        BotSpec::Mcts(boardlab_ai::spec::MctsSpec {
            iterations: Some(50_000),
            ..boardlab_ai::spec::MctsSpec::DEFAULT
        })
    }
}

/// The bots know Sight Reduction: every bot and level plays it.
impl boardlab_ai::Capabilities for SightReduction {
    fn bots() -> Option<&'static dyn boardlab_ai::BotSupport<Self>> {
        Some(boardlab_ai::bot_support::<Self>())
    }
}

#[cfg(test)]
mod tests;
