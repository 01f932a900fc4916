//! The solitaire puzzle (`mode=solitaire`): one person removes for both colours in turn,
//! the colour to move first; the puzzle ends when the colour to move has no legal removal.
//! Its score is the number of pieces left; it is solved with exactly one White and one
//! Black piece left (on the `keep` squares when given), or with `removal=pair` with the
//! board empty.
//!
//! [`solve`] finds a solution, or proves that none exists and finds the lowest score
//! reachable, with a line of moves reaching it in both cases. The search is depth-first
//! with a bounded table of positions already explored and a lower bound on the final score:
//! a piece can only be removed towards a friend on one of its lines, so each group of one
//! colour joined by shared lines keeps at least one piece (with pairs, a group can vanish,
//! but a piece alone on its lines stays).

use crate::kernel::{moves, removable, sees_along, with_variant, Variant};
use crate::solver::groups::{line_groups, line_span, segment_groups};
use crate::solver::{to_move, RuleSet, SolveError, SolverConfig};
use crate::{Move, Phase, Side, SightReduction, Square, BLACK, WHITE};
use boardlab_core::Game;

/// The goal of a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SolitaireGoal {
    /// The removal rules.
    pub rules: RuleSet,
    /// The squares of the last White and last Black piece, if required (ignored with pairs).
    pub keep: Option<(Square, Square)>,
}

impl SolitaireGoal {
    /// The goal of a solitaire game.
    #[must_use]
    pub fn of(game: &SightReduction) -> SolitaireGoal {
        let cfg = game.config();
        SolitaireGoal {
            rules: RuleSet::of(cfg),
            keep: if cfg.pair { None } else { cfg.keep },
        }
    }

    /// The score of a solved puzzle.
    #[must_use]
    pub fn target(&self) -> u32 {
        if self.rules.pair {
            0
        } else {
            2
        }
    }

    /// Whether a final board (White's and Black's pieces) solves the puzzle.
    #[must_use]
    pub fn solved_by(&self, white: u32, black: u32) -> bool {
        if self.rules.pair {
            return white | black == 0;
        }
        match self.keep {
            Some((w, b)) => white == 1 << w && black == 1 << b,
            None => white.count_ones() == 1 && black.count_ones() == 1,
        }
    }
}

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolitaireResult {
    /// Whether the puzzle can be solved (then `moves` solves it).
    pub solved: bool,
    /// Whether the answer is complete: solved, or proved unsolvable with `score` the lowest
    /// score reachable. `false` when the node limit ran out first: then `moves` is the best
    /// line found (if any).
    pub exhaustive: bool,
    /// The pieces left at the end of `moves`: the goal's score when solved, else the lowest
    /// score found (`u32::MAX` when no line was completed).
    pub score: u32,
    /// The removals from the start position, alternating colours, ending where the colour
    /// to move has no removal.
    pub moves: Vec<Move>,
    /// Positions visited.
    pub nodes: u64,
}

/// The positions already explored, with a lower bound on the score reachable from each
/// (exact where the search was not cut short). Bounded: a colliding entry replaces the old
/// one, which only costs re-exploring it.
#[derive(Debug)]
struct Memo {
    slots: Vec<(u64, u32)>,
    mask: usize,
}

impl Memo {
    fn new(bytes: usize) -> Memo {
        let n = (bytes / 16).max(1);
        let n = if n.is_power_of_two() {
            n
        } else {
            n.next_power_of_two() / 2
        };
        Memo {
            slots: vec![(0, 0); n],
            mask: n - 1,
        }
    }

    /// Key: both boards; the side to move rides in the value.
    #[inline]
    fn index(&self, key: u64) -> usize {
        let h = (key ^ (key >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> 32) as usize & self.mask
    }

    #[inline]
    fn get(&self, key: u64, side: Side) -> Option<u32> {
        let (k, v) = self.slots[self.index(key)];
        (k == key && (v >> 8) as usize == side.index()).then_some(v & 0xFF)
    }

    #[inline]
    fn put(&mut self, key: u64, side: Side, bound: u32) {
        let i = self.index(key);
        self.slots[i] = (key, (side.index() as u32) << 8 | bound.min(255));
    }
}

struct Search<'m> {
    memo: &'m mut Memo,
    goal: SolitaireGoal,
    keep: [u32; 2],
    nodes: u64,
    /// Moves of the line being explored (removed squares as sets).
    path: Vec<u32>,
    /// The best score found so far and its line.
    best: u32,
    best_line: Vec<u32>,
    /// Looking for a solution only (a `keep` goal), not the lowest score.
    goal_only: bool,
    /// The node budget, and whether it ran out.
    limit: u64,
    aborted: bool,
}

impl Search<'_> {
    /// A lower bound on the final score.
    fn lower_bound<V: Variant>(&self, b: [u32; 2]) -> u32 {
        if V::PAIR {
            // A piece alone on its lines can never go.
            let mut n = 0;
            for &x in &b {
                let mut y = x;
                while y != 0 {
                    let p = y & y.wrapping_neg();
                    y &= y - 1;
                    if line_span(p, V::ANY) & x == p {
                        n += 1;
                    }
                }
            }
            n
        } else {
            line_groups(b[0], V::ANY) + line_groups(b[1], V::ANY)
        }
    }

    /// When each colour's pieces are joined by sight into one group (and without enemy
    /// sight), the puzzle is solved by removing, turn by turn, a piece whose removal keeps
    /// its colour joined (a leaf of a spanning tree, never a kept piece): the other colour's
    /// removals only open lines. Returns those removals, or `None` when this does not apply.
    fn finish<V: Variant>(&self, b: [u32; 2], side: Side) -> Option<Vec<u32>> {
        if V::ENEMY {
            return None;
        }
        let e = !(b[0] | b[1]);
        if b[0].count_ones() < 2 || b[1].count_ones() < 2 {
            return None;
        }
        if sight_group_count(b[0], e, V::ANY) != 1 || sight_group_count(b[1], e, V::ANY) != 1 {
            return None;
        }
        if b[0] & self.keep[0] != self.keep[0] || b[1] & self.keep[1] != self.keep[1] {
            return None;
        }
        let (nm, no) = (
            b[side.index()].count_ones(),
            b[side.other().index()].count_ones(),
        );
        if V::PAIR {
            // Down to two each, then the two pairs back to back.
            if nm != no && nm != no + 1 {
                return None;
            }
        }
        let mut c = b;
        let mut sd = side;
        let mut out = Vec::new();
        loop {
            let own = c[sd.index()];
            let n = own.count_ones();
            if V::PAIR && n == 2 {
                out.push(own);
                c[sd.index()] = 0;
            } else if n >= 2 && !(V::PAIR && n == 0) {
                let e = !(c[0] | c[1]);
                let r = removable::<V>(own, c[sd.other().index()]) & !self.keep[sd.index()];
                let mut x = r;
                let mut chosen = 0;
                while x != 0 {
                    let p = x & x.wrapping_neg();
                    x &= x - 1;
                    if sight_group_count(own & !p, e | p, V::ANY) == 1 {
                        chosen = p;
                        break;
                    }
                }
                debug_assert!(chosen != 0, "a spanning tree always has a leaf to remove");
                if chosen == 0 {
                    return None;
                }
                out.push(chosen);
                c[sd.index()] &= !chosen;
            } else {
                break;
            }
            sd = sd.other();
        }
        self.goal.solved_by(c[0], c[1]).then_some(out)
    }

    /// Explores from `b` with `side` to move; returns a lower bound on the score reachable
    /// (exact when below the best found so far, which it then is).
    fn explore<V: Variant>(&mut self, b: [u32; 2], side: Side) -> u32 {
        self.nodes += 1;
        if self.nodes > self.limit {
            self.aborted = true;
            return 0;
        }
        let r = removable::<V>(b[side.index()], b[side.other().index()]);
        if r == 0 {
            let score = (b[0] | b[1]).count_ones();
            let good = if self.goal_only {
                self.goal.solved_by(b[0], b[1])
            } else {
                score < self.best
            };
            if good {
                self.best = score;
                self.best_line = self.path.clone();
            }
            return if self.goal_only && !self.goal.solved_by(b[0], b[1]) {
                u32::MAX
            } else {
                score
            };
        }
        if let Some(rest) = self.finish::<V>(b, side) {
            self.best = self.goal.target();
            self.best_line = self.path.clone();
            self.best_line.extend(rest);
            return self.best;
        }
        let key = u64::from(b[0]) | u64::from(b[1]) << 32;
        let mut lb = self.lower_bound::<V>(b);
        if self.goal_only {
            // The kept pieces must stay, and each colour must be able to come down to one.
            // (and the kept pieces are walls for the other colour for good).
            if b[0] & self.keep[0] != self.keep[0]
                || b[1] & self.keep[1] != self.keep[1]
                || lb > 2
                || (self.keep[0] != 0
                    && (segment_groups(b[0], self.keep[1], V::ANY) > 1
                        || segment_groups(b[1], self.keep[0], V::ANY) > 1))
            {
                return u32::MAX;
            }
        }
        if let Some(m) = self.memo.get(key, side) {
            lb = lb.max(m);
        }
        let limit = if self.goal_only {
            self.goal.target() + 1
        } else {
            self.best
        };
        if lb >= limit {
            return lb;
        }
        let mut list = Vec::new();
        moves::<V>(b[side.index()], b[side.other().index()], &mut list);
        // Try first the removals that keep the most hope: the lowest bound after them,
        // then the most moves for the colour that moves next.
        let mut keyed: Vec<(u32, u32, u32, u32)> = list
            .iter()
            .map(|&m| {
                let mut c = b;
                c[side.index()] &= !m;
                let next = removable::<V>(c[side.other().index()], c[side.index()]);
                let e = !(c[0] | c[1]);
                let split = sight_group_count(c[side.index()], e, V::ANY)
                    + sight_group_count(c[side.other().index()], e, V::ANY);
                (
                    self.lower_bound::<V>(c),
                    split,
                    u32::MAX - next.count_ones(),
                    m,
                )
            })
            .collect();
        keyed.sort_unstable();
        let mut result = u32::MAX;
        let mut complete = true;
        for (_, _, _, m) in keyed {
            let mut c = b;
            c[side.index()] &= !m;
            self.path.push(m);
            let v = self.explore::<V>(c, side.other());
            self.path.pop();
            result = result.min(v);
            if self.aborted {
                return 0;
            }
            let done = if self.goal_only {
                self.best == self.goal.target()
            } else {
                self.best <= self.goal.target() || self.best <= lb
            };
            if done {
                complete = false;
                break;
            }
        }
        // Cut short, only the bound from before is known to hold.
        let result = if complete { result.max(lb) } else { lb };
        self.memo.put(key, side, result);
        result
    }
}

/// Solves a solitaire position: `white`, `black` pieces, `side` to move first.
#[must_use]
pub fn solve_position(
    goal: SolitaireGoal,
    white: u32,
    black: u32,
    side: Side,
    config: SolverConfig,
) -> SolitaireResult {
    let mut memo = Memo::new(config.table_bytes);
    let keep = match goal.keep {
        Some((w, b)) => [1u32 << w, 1u32 << b],
        None => [0, 0],
    };
    let mut s = Search {
        memo: &mut memo,
        goal,
        keep,
        nodes: 0,
        path: Vec::new(),
        best: u32::MAX,
        best_line: Vec::new(),
        goal_only: false,
        limit: config.node_limit,
        aborted: false,
    };
    let b = [white, black];
    let line_of = |s: &Search<'_>| s.best_line.iter().map(|&m| to_move(m)).collect();
    if goal.keep.is_some() {
        // First look for a solution on the kept squares only.
        s.goal_only = true;
        with_variant!(goal.rules, V => s.explore::<V>(b, side));
        if s.best != u32::MAX {
            return SolitaireResult {
                solved: true,
                exhaustive: true,
                score: s.best,
                moves: line_of(&s),
                nodes: s.nodes,
            };
        }
        // None: the lowest score regardless of the squares.
        s.goal_only = false;
        s.memo.slots.iter_mut().for_each(|e| *e = (0, 0));
    }
    if !s.aborted {
        with_variant!(goal.rules, V => s.explore::<V>(b, side));
    }
    let mut c = b;
    let mut sd = side;
    for &m in &s.best_line {
        c[sd.index()] &= !m;
        sd = sd.other();
    }
    let solved = s.best != u32::MAX && goal.solved_by(c[0], c[1]);
    SolitaireResult {
        solved,
        exhaustive: solved || !s.aborted,
        score: s.best,
        moves: line_of(&s),
        nodes: s.nodes,
    }
}

/// Solves a solitaire game from its current position.
///
/// # Errors
/// A game that is not a solitaire (`mode=solitaire`) or is still being set up.
pub fn solve(game: &SightReduction, config: SolverConfig) -> Result<SolitaireResult, SolveError> {
    if !game.is_solitaire() {
        return Err(SolveError::WrongMode(
            "the solitaire solver needs mode=solitaire; for a two-player game use the game solver"
                .into(),
        ));
    }
    if game.phase() != Phase::Remove {
        return Err(SolveError::NotRemovalPhase(format!("{:?}", game.phase())));
    }
    Ok(solve_position(
        SolitaireGoal::of(game),
        game.pieces(WHITE),
        game.pieces(BLACK),
        game.side_to_move(),
        config,
    ))
}

/// The number of groups of `own` pieces joined by sight.
fn sight_group_count(own: u32, empty: u32, any: bool) -> u32 {
    let mut rest = own;
    let mut n = 0;
    while rest != 0 {
        let mut g = rest & rest.wrapping_neg();
        loop {
            let next = g | (own & sees_along(g, empty, any));
            if next == g {
                break;
            }
            g = next;
        }
        rest &= !g;
        n += 1;
    }
    n
}
