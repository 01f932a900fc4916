//! The placement game of the deterministic set-up (`setup=deterministic`) solved exactly:
//! the players fill the board one piece at a time, then play the removal game on the board
//! they made. [`PlacementSolver`] searches the placements depth first (who wins only), with
//! a transposition table keyed by the board under its symmetries ([`canonical`]), and settles
//! every full board with the removal [`Solver`], whose table it keeps between boards.
//!
//! The work grows quickly with the empty squares left: every order of the remaining
//! placements that the adjacency rule allows leads to a board the removal solver must settle,
//! unless a win cuts the search short. The whole placement game (32 empty squares) is out of
//! reach of one machine; `boardlab_solve::placement` splits it into a sharded study.
//!
//! ```
//! use boardlab_core::prelude::*;
//! use boardlab_sight_reduction::solver::placement::PlacementSolver;
//! use boardlab_sight_reduction::solver::SolverConfig;
//! use boardlab_sight_reduction::SightReduction;
//!
//! let options = SightReduction::info().parse_options("setup=deterministic").unwrap();
//! // Three squares (a8, b8, c8) still empty; White placed first, so Black places next.
//! let text = "3W/BWBW/WBWB/BWBW/WBWB/BWBW/WBWB/BWBW b place";
//! let game = SightReduction::from_position(&options, text).unwrap();
//! let mut solver = PlacementSolver::new(SolverConfig::default());
//! let value = solver.solve(&game).unwrap();
//! // The values of the three placements agree with it.
//! let moves = solver.move_values(&game).unwrap();
//! assert_eq!(moves.len(), 3);
//! assert_eq!(moves.iter().any(|(_, v)| v.wins(game.to_move())), value.wins(game.to_move()));
//! ```

use crate::kernel::RuleSet;
use crate::solver::budget::Meter;
use crate::solver::tt::Table;
use crate::solver::{key, Position, SolveError, Solver, SolverConfig, LOSS_MAX, WIN_MIN};
use crate::{Move, Phase, Side, SightReduction, BLACK, WHITE};
use boardlab_core::budget::{Budget, OutOfBudget};
#[cfg(test)]
use boardlab_core::Notation as _;
use boardlab_core::{Game, Proven, Rules as _};

/// The four symmetries of the board, as (mirror the files, mirror the ranks).
const SYMMETRIES: [(bool, bool); 4] = [(false, false), (true, false), (false, true), (true, true)];

/// A set of squares mirrored: the files (a↔d, b↔c) and/or the ranks (1↔8). Each mirror is
/// its own inverse.
#[must_use]
pub fn mirror(x: u32, files: bool, ranks: bool) -> u32 {
    let mut out = 0;
    let mut rest = x;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        let (mut f, mut r) = (sq % 4, sq / 4);
        if files {
            f = 3 - f;
        }
        if ranks {
            r = 7 - r;
        }
        out |= 1 << (r * 4 + f);
    }
    out
}

/// A board under the board's symmetries: the least of its four images (White's pieces, then
/// Black's), with the symmetry that gives it. The rules (sight along lines, the adjacency of
/// placements) look the same in every image, so every image has the same value.
#[must_use]
pub fn canonical(white: u32, black: u32) -> ((u32, u32), (bool, bool)) {
    SYMMETRIES
        .iter()
        .map(|&(f, r)| ((mirror(white, f, r), mirror(black, f, r)), (f, r)))
        .min()
        .unwrap_or(((white, black), (false, false)))
}

/// Counters of the placement searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlacementStats {
    /// Placement positions visited.
    pub nodes: u64,
    /// Full boards handed to the removal solver.
    pub boards: u64,
    /// Positions the removal solver visited for them.
    pub removal_nodes: u64,
}

/// The exact solver of the placement game, with its own table and a removal [`Solver`].
#[derive(Debug)]
pub struct PlacementSolver {
    table: Table,
    removal: Solver,
    /// The rules and the colour that places first the table's values hold for.
    prepared: Option<(RuleSet, Side)>,
    stats: PlacementStats,
}

impl PlacementSolver {
    /// A solver whose two tables (placements, removals) share `config.table_bytes` equally.
    #[must_use]
    pub fn new(config: SolverConfig) -> PlacementSolver {
        let half = SolverConfig {
            table_bytes: config.table_bytes / 2,
            ..config
        };
        PlacementSolver {
            table: Table::with_bytes(half.table_bytes),
            removal: Solver::new(half),
            prepared: None,
            stats: PlacementStats::default(),
        }
    }

    /// Counters summed over every search so far.
    #[must_use]
    pub fn stats(&self) -> PlacementStats {
        PlacementStats {
            removal_nodes: self.removal.stats().nodes,
            ..self.stats
        }
    }

    fn prepare(&mut self, game: &SightReduction) -> Result<RuleSet, SolveError> {
        if game.is_solitaire() {
            return Err(SolveError::WrongMode(
                "this is a solitaire game (mode=solitaire): the placement solver plays matches"
                    .into(),
            ));
        }
        if !matches!(game.phase(), Phase::Place | Phase::Remove) {
            return Err(SolveError::NotRemovalPhase(format!("{:?}", game.phase())));
        }
        let rules = RuleSet::of(game.config());
        let id = (rules, game.config().first);
        if self.prepared != Some(id) {
            self.table.clear();
            self.prepared = Some(id);
        }
        Ok(rules)
    }

    /// Who wins `game` (placement or removal phase) with perfect play, for the seat to move.
    ///
    /// # Errors
    /// A game in another phase of its set-up, or a solitaire game.
    pub fn solve(&mut self, game: &SightReduction) -> Result<Proven, SolveError> {
        let rules = self.prepare(game)?;
        let seat = game.to_move();
        Ok(if self.wins(rules, game) {
            Proven::win(seat)
        } else {
            Proven::loss(seat)
        })
    }

    /// Every legal move of `game` with its value for the seat to move.
    ///
    /// # Errors
    /// As [`PlacementSolver::solve`].
    pub fn move_values(
        &mut self,
        game: &SightReduction,
    ) -> Result<Vec<(Move, Proven)>, SolveError> {
        let rules = self.prepare(game)?;
        let seat = game.to_move();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        Ok(moves
            .into_iter()
            .map(|m| {
                let mut child = game.clone();
                child.play_unchecked(m);
                let mover_wins = !self.wins(rules, &child);
                (
                    m,
                    if mover_wins {
                        Proven::win(seat)
                    } else {
                        Proven::loss(seat)
                    },
                )
            })
            .collect())
    }

    /// Whether the side to move wins `game` (no budget: it cannot run out).
    fn wins(&mut self, rules: RuleSet, game: &SightReduction) -> bool {
        let mut search =
            PlacementSearch::new(&mut self.table, &mut self.removal, rules, Budget::UNLIMITED);
        let wins = search.wins(game);
        self.stats.nodes += search.stats.nodes;
        self.stats.boards += search.stats.boards;
        match wins {
            Ok(w) => w,
            Err(e) => unreachable!("a search without a budget cannot run out: {e}"),
        }
    }
}

/// One search of the placements, on a placement table and a removal solver that outlive it
/// (the solver's own, or a bot's kept between its moves), within a budget counted in
/// positions of both kinds. The full boards' removal searches are not cut short: each takes
/// milliseconds. Once the budget is spent the search answers [`OutOfBudget`] and stores
/// nothing more, so the table only holds what finished searches proved.
#[derive(Debug)]
pub struct PlacementSearch<'a, 'b> {
    table: &'a mut Table,
    removal: &'a mut Solver,
    rules: RuleSet,
    meter: Meter<'b>,
    /// The removal solver's count of positions when the search began.
    removal_start: u64,
    /// Placement positions visited and full boards settled (`removal_nodes` is not kept here:
    /// see [`PlacementSearch::visited`]).
    pub stats: PlacementStats,
}

impl<'a, 'b> PlacementSearch<'a, 'b> {
    /// A search under `rules` (the caller clears `table` when the rules or the colour that
    /// places first change: its values depend on both).
    pub fn new(
        table: &'a mut Table,
        removal: &'a mut Solver,
        rules: RuleSet,
        budget: Budget<'b>,
    ) -> Self {
        let removal_start = removal.stats().nodes;
        PlacementSearch {
            table,
            removal,
            rules,
            meter: Meter::new(budget),
            removal_start,
            stats: PlacementStats::default(),
        }
    }

    /// Positions visited so far, placements and removals together.
    #[must_use]
    pub fn visited(&self) -> u64 {
        self.stats.nodes + self.removal.stats().nodes - self.removal_start
    }

    /// Whether the side to move wins `game` (placement or removal phase of a match).
    ///
    /// # Errors
    /// The budget ran out first.
    pub fn wins(&mut self, game: &SightReduction) -> Result<bool, OutOfBudget> {
        if game.phase() == Phase::Remove {
            self.stats.boards += 1;
            return match Position::of(game) {
                Ok(pos) => Ok(self.removal.solve(self.rules, pos).wins(game.to_move())),
                Err(e) => unreachable!("a game in its removal phase: {e}"),
            };
        }
        self.stats.nodes += 1;
        let ((w, b), (f, r)) = canonical(game.pieces(WHITE), game.pieces(BLACK));
        let k = key(w, b);
        let mut first = None;
        if let Some(e) = self.table.probe(k) {
            if e.lo > 0 {
                return Ok(true);
            }
            if e.hi < 0 {
                return Ok(false);
            }
            if e.best != 0 {
                // Stored in the canonical image: mirrored back (each mirror undoes itself).
                first = Some(mirror(e.best, f, r));
            }
        }
        if self.meter.spent(self.visited()) {
            return Err(self.meter.out.unwrap_or(OutOfBudget::Nodes));
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        if let Some(sq) = first {
            if let Some(i) = moves
                .iter()
                .position(|m| matches!(m, Move::Place(s) if 1u32 << s == sq))
            {
                moves.swap(0, i);
            }
        }
        let start = self.visited();
        for m in moves {
            let mut child = game.clone();
            child.play_unchecked(m);
            if !self.wins(&child)? {
                let Move::Place(sq) = m else {
                    unreachable!("placement moves only")
                };
                let best = mirror(1 << sq, f, r);
                self.table
                    .store(k, WIN_MIN, i8::MAX, best, self.work(start));
                return Ok(true);
            }
        }
        self.table.store(k, i8::MIN, LOSS_MAX, 0, self.work(start));
        Ok(false)
    }

    fn work(&self, start: u64) -> u8 {
        let n = self.visited() - start;
        (64 - n.leading_zeros()) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_image_has_the_same_canonical_form() {
        let (white, black) = (0x0000_0123, 0x0400_8000);
        let (c, _) = canonical(white, black);
        for (f, r) in SYMMETRIES {
            assert_eq!(canonical(mirror(white, f, r), mirror(black, f, r)).0, c);
            assert_eq!(mirror(mirror(white, f, r), f, r), white);
        }
        // a1 ↔ d1 across the files, a1 ↔ a8 across the ranks.
        assert_eq!(mirror(1, true, false), 1 << 3);
        assert_eq!(mirror(1, false, true), 1 << 28);
    }

    #[test]
    fn mirrored_positions_have_the_same_value() {
        use boardlab_core::rand::{Rng, SeedableRng};
        use boardlab_core::Audit as _;
        let options = SightReduction::info()
            .parse_options("setup=deterministic")
            .expect("valid options");
        let config = SolverConfig {
            table_bytes: 4 << 20,
            ..SolverConfig::default()
        };
        let mut rng = boardlab_core::rand::rngs::StdRng::seed_from_u64(5);
        let mut moves = Vec::new();
        for _ in 0..6 {
            let mut game = SightReduction::new(&options, 0).expect("a game");
            while game.occupied().count_ones() < 28 {
                game.legal_moves(&mut moves);
                game.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            let value = PlacementSolver::new(config)
                .solve(&game)
                .expect("placements");
            for (f, r) in SYMMETRIES {
                let mut image = game.clone();
                image.board = image.board.map(|x| mirror(x, f, r));
                image.hash = image.hash_from_scratch();
                // A fresh solver: its table knows nothing of the other images.
                let v = PlacementSolver::new(config)
                    .solve(&image)
                    .expect("placements");
                assert_eq!(v, value, "{}", image.position_text());
            }
        }
    }
}
