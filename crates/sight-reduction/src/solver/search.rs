//! The match solver's searches, depth-first with the transposition table: a win/loss search
//! and a distance search (the winner wins as fast as possible, the loser holds out as long
//! as possible).
//!
//! Both use move-count bounds that settle many positions without search (see
//! [`SightGroups`] and [`most_moves`]): the side to move wins when the removals it can make
//! whatever happens outnumber every removal the opponent could make, and loses when the
//! opponent's sure removals are at least as many as its own possible ones. With enemy sight
//! a removal counts as sure only for a piece that keeps seeing an enemy ([`surely_sighted`]),
//! and only pieces that can ever see an enemy count as possible ([`fixed_and_able`]).

use crate::kernel::{for_each_pair, removable, sees_along, Variant};
use crate::solver::budget::Meter;
use crate::solver::groups::{
    between, fixed_and_able, most_lost, most_moves, most_moves_able, segment_group, surely_sighted,
    SightGroups,
};
use crate::solver::tt::Table;
use crate::solver::{key, Score, LOSS_MAX, WIN_MIN};
use boardlab_core::budget::Budget;

/// Counters of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions visited.
    pub nodes: u64,
    /// Positions decided by the transposition table.
    pub tt_cuts: u64,
    /// Positions decided by the move-count bounds without search.
    pub bound_cuts: u64,
}

impl Stats {
    /// Adds another search's counters.
    pub fn add(&mut self, other: &Stats) {
        self.nodes += other.nodes;
        self.tt_cuts += other.tt_cuts;
        self.bound_cuts += other.bound_cuts;
    }
}

/// Whether `opp` cannot use all its possible removals (see [`most_moves`], with the pieces
/// `stay` as walls) without handing the other side one more removal: some group of `opp`
/// (pieces that may come to see each other while `stay` stands) holds two pieces that each
/// stand between two pieces of `stay` on a friendly-sight line, with only empty squares
/// between. Removing all but one piece of that group removes one of them, and then the two
/// `stay` pieces beside it see each other: one more removal for the other side, which it
/// can keep for last since nothing can come between them again. Leaving both in place
/// instead costs `opp` one removal. Either way the count margin grows by one.
///
/// That extra removal takes away one of the two `stay` pieces, a wall of [`most_moves`]: it
/// is only counted where neither of them stands between two pieces of `opp` on a line that
/// nothing else of `stay` cuts, so that taking it cannot give `opp` a removal in return.
/// (Counting it anyway once claimed a win for White, to move in
/// `BW2/1W1B/4/WB1W/2B1/BBWB/W3/2W1 w`, which White loses: Black gives White the gift by
/// removing b5, and White can only take it by removing a5 or d5, each of which opens a file
/// between two Black pieces.)
#[inline]
fn poisoned<V: Variant>(opp: u32, stay: u32, e: u32) -> bool {
    let walls = stay & !between(opp, !(stay | opp), V::ANY);
    let special = opp & between(walls, e, V::ANY);
    if special.count_ones() < 2 {
        return false;
    }
    let mut rest = special;
    while rest != 0 {
        let group = segment_group(opp, stay, rest & rest.wrapping_neg(), V::ANY);
        if (group & special).count_ones() >= 2 {
            return true;
        }
        rest &= !group;
    }
    false
}

/// One search over one rule variant, borrowing a table, within a budget. Once the budget is
/// spent (`meter.out` is set) every call returns at once with a meaningless answer and stores
/// nothing, so the table only ever holds what finished searches proved.
#[derive(Debug)]
pub(crate) struct Search<'t, 'b, V: Variant> {
    pub tt: &'t mut Table,
    pub stats: Stats,
    pub meter: Meter<'b>,
    /// The last winning move found at each number of pieces on the board (the "killer"; in
    /// the distance search, the last move that cut its window off): a removal that wins in
    /// one position usually wins in its neighbours at the same depth too. Both searches
    /// order it right after the table's move. On the solver benchmark it cut the positions
    /// visited about fivefold.
    killers: [u32; 33],
    /// Whether the win/loss search tries the killer before it even lists the other moves:
    /// faster on its own (1.7 against 2.1 s on the benchmark), but within the distance
    /// search it visits 40% more positions, so that search turns it off.
    pub killer_first: bool,
    _v: std::marker::PhantomData<V>,
}

/// More than the legal moves of any position (16 singles + pairs).
const MAX_MOVES: usize = 80;
/// The most legal moves without pairs: 16 singles.
const MAX_SINGLES: usize = 16;
/// From this many pieces on, moves are ordered by the count bounds (costly, but the
/// subtrees are large); below, by mobility only. Measured with the solver benchmark (with
/// killer moves): 28 takes the least time for both searches; 24 and 33 (never) cost 10 to
/// 20% more, and 33 visits 36% more positions in the distance search.
const DEEP: u32 = 28;

/// A move in a move list: the removed squares, the ordering score (lower first), and after
/// it the removable pieces of the side then to move and of the side that moved.
type Child = (u32, i32, u32, u32);

/// The room for one position's move list, only as large as the rules need: it is zeroed at
/// every node searched.
#[allow(clippy::large_enum_variant)] // on the stack, and only the variant in use is zeroed
enum MoveBuf {
    Singles([Child; MAX_SINGLES]),
    WithPairs([Child; MAX_MOVES]),
}

impl MoveBuf {
    #[inline(always)]
    fn new(pairs: bool) -> MoveBuf {
        if pairs {
            MoveBuf::WithPairs([(0, 0, 0, 0); MAX_MOVES])
        } else {
            MoveBuf::Singles([(0, 0, 0, 0); MAX_SINGLES])
        }
    }

    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [Child] {
        match self {
            MoveBuf::Singles(b) => b,
            MoveBuf::WithPairs(b) => b,
        }
    }
}

/// The lowest score: the side to move has no move.
pub const LOST_NOW: Score = -100;

#[inline]
fn work_of(nodes: u64) -> u8 {
    (64 - nodes.leading_zeros()) as u8
}

/// The score of a position whose best move leads to a position scored `child` (from the
/// other side's view): one ply further from the end.
#[inline]
#[must_use]
pub fn parent_score(child: i32) -> i32 {
    if child > 0 {
        1 - child
    } else {
        -1 - child
    }
}

/// The inverse of [`parent_score`] for window bounds (0, between the loss and win scores,
/// maps to 0).
#[inline]
fn child_bound(parent: i32) -> i32 {
    match parent.cmp(&0) {
        std::cmp::Ordering::Greater => -1 - parent,
        std::cmp::Ordering::Less => 1 - parent,
        std::cmp::Ordering::Equal => 0,
    }
}

impl<'t, 'b, V: Variant> Search<'t, 'b, V> {
    /// Whether the searches must try pairs. Without enemy sight they need not: whoever wins
    /// has a single removal that wins as fast as any pair, and whoever loses one that holds
    /// out as long, so the pair rule changes neither who wins nor the length with perfect
    /// play (proved in `docs/analysis/sight-reduction.md`, "Why pairs change nothing
    /// without enemy sight": an extra own piece on an empty square never hurts its owner,
    /// and removing one piece of a pair leaves the position after the pair plus one own
    /// piece). With enemy sight an extra piece can hurt its owner, and a pair can be the only
    /// win.
    const PAIRS_MATTER: bool = V::PAIR && V::ENEMY;

    pub fn new(tt: &'t mut Table, budget: Budget<'b>) -> Self {
        Search {
            tt,
            stats: Stats::default(),
            meter: Meter::new(budget),
            killers: [0; 33],
            killer_first: true,
            _v: std::marker::PhantomData,
        }
    }

    /// What the count bounds need of `me` against `opp`: its sight groups; the pieces that
    /// must stay while the sure removals are made (with enemy sight, those not
    /// [`surely_sighted`] while `opp` loses all the pieces it can: enemies leaving could
    /// blind them; none without); and the pieces of `opp` that can ever be removed (with
    /// enemy sight, see [`fixed_and_able`]; all without).
    #[inline]
    fn sure_inputs(me: u32, opp: u32, r_me: u32) -> (SightGroups, u32, u32) {
        let groups = SightGroups::of::<V>(me, opp, r_me);
        if !V::ENEMY {
            return (groups, 0, !0);
        }
        let (fixed_opp, able_opp) = fixed_and_able::<V>(opp, me);
        let sighted = surely_sighted(me, opp, fixed_opp, most_lost::<V>(opp, able_opp));
        (groups, me & !sighted, able_opp)
    }

    /// The most moves `pieces` can make while the other side's pieces `walls` stand (see
    /// [`most_moves`]; with enemy sight only its pieces `able` can go, see
    /// [`most_moves_able`]).
    #[inline]
    fn most(pieces: u32, walls: u32, able: u32) -> u32 {
        if V::ENEMY {
            most_moves_able::<V>(pieces, walls, able)
        } else {
            most_moves::<V>(pieces, walls)
        }
    }

    /// Whether `me`'s sure removals outlast every removal `opp` could make (plus `slack`),
    /// for one of two choices of the pieces `me` keeps: one per group (preferring pieces
    /// between enemy pieces), or also every piece that may stand between enemy pieces.
    /// Returns the most removals `opp` can then make, when `me` outlasts it. Without
    /// `thorough`, only the first choice is tried.
    #[inline]
    fn outlasts(me: u32, opp: u32, r_me: u32, slack: u32, thorough: bool) -> Option<u32> {
        let (groups, blind, able) = Self::sure_inputs(me, opp, r_me);
        let e = !(me | opp);
        let gifts = me & between(opp, e, V::ANY);
        let cuts = me & between(opp, e | r_me, V::ANY) & r_me;
        // Failing those, a piece that sees an enemy piece standing between two of `me`'s:
        // if both neighbours stay, removing that enemy piece gives `me` a removal.
        let watch = me & sees_along(opp & between(me, e, V::ANY), e, V::ANY);
        // `me` outlasts when its sure removals beat `opp`'s most, or tie it and `opp` cannot
        // reach its most without a gift (a gift that, with enemy sight, is not counted).
        let outlast = |(sure, stay): (u32, u32), most: u32| {
            sure + slack > most
                || (!V::ENEMY && sure + slack == most && poisoned::<V>(opp, stay, e))
        };
        let first = groups.sure_with(blind, gifts | cuts, watch);
        let most = Self::most(opp, first.1, able);
        if outlast(first, most) {
            return Some(most);
        }
        if !thorough || cuts == 0 || first.0 + slack + 1 < most {
            return None;
        }
        let second = groups.sure(cuts | blind, cuts);
        let most = Self::most(opp, second.1, able);
        outlast(second, most).then_some(most)
    }

    /// Win/loss from move counts alone: `Some((true, m))` when the side to move surely wins
    /// (the opponent making at most `m` more removals), `Some((false, m))` when it surely
    /// loses (making at most `m` more removals itself). `r_me`, `r_opp`: the removable
    /// pieces.
    #[inline]
    pub fn bounds_with(me: u32, opp: u32, r_me: u32, r_opp: u32) -> Option<(bool, u32)> {
        let (n_me, n_opp) = (r_me.count_ones(), r_opp.count_ones());
        if let Some(m) = Self::outlasts_by_count(me, opp, r_me, r_opp, true) {
            return Some((true, m));
        }
        if n_opp >= 2 && 2 * (n_opp - 1) >= n_me {
            if let Some(m) = Self::outlasts(opp, me, r_opp, 1, true) {
                return Some((false, m));
            }
        }
        None
    }

    /// Whether the side to move surely wins by the move counts (see [`Search::outlasts`]),
    /// after a quick test that its removable pieces could be enough.
    #[inline]
    fn outlasts_by_count(me: u32, opp: u32, r_me: u32, r_opp: u32, thorough: bool) -> Option<u32> {
        let (n_me, n_opp) = (r_me.count_ones(), r_opp.count_ones());
        if n_me < 2 || 2 * (n_me - 1) <= n_opp {
            return None;
        }
        Self::outlasts(me, opp, r_me, 0, thorough)
    }

    /// The fewest removals `opp` can be held to while `me`'s sure removals (plus `slack`)
    /// outlast them, over several choices of pieces `me` keeps (see [`Search::outlasts`];
    /// here also every piece that could ever stand between two enemy pieces); `None` when
    /// none outlasts. Slower than [`Search::outlasts`], for the distance bounds.
    fn least_most(me: u32, opp: u32, r_me: u32, slack: u32) -> Option<u32> {
        let (groups, blind, able) = Self::sure_inputs(me, opp, r_me);
        let e = !(me | opp);
        let gifts = me & between(opp, e, V::ANY);
        let cuts = me & between(opp, e | r_me, V::ANY) & r_me;
        let risky = me & between(opp, !0, V::ANY) & r_me;
        let mut best: Option<u32> = None;
        for (keep, prefer) in [(0, gifts | cuts), (cuts, cuts), (risky, risky)] {
            let (sure, stay) = groups.sure(keep | blind, prefer);
            let most = Self::most(opp, stay, able);
            if sure + slack > most {
                best = Some(best.map_or(most, |b| b.min(most)));
            }
        }
        best
    }

    /// Win/loss from move counts alone (see [`Search::bounds_with`]).
    #[inline]
    pub fn bounds(me: u32, opp: u32, r_me: u32, r_opp: u32) -> Option<bool> {
        Self::bounds_with(me, opp, r_me, r_opp).map(|(w, _)| w)
    }

    /// How well the side to move `opp` does after `me` moved (lower: better for `me`): the
    /// margins of the count bounds. `opp_groups`: the groups of `opp`.
    #[inline]
    fn eval(me: u32, opp: u32, r_me: u32, opp_groups: &SightGroups) -> i32 {
        let e = !(me | opp);
        let (sure, stay) =
            SightGroups::of::<V>(me, opp, r_me).sure(0, me & between(opp, e, V::ANY));
        let most = most_moves::<V>(opp, stay);
        let (osure, ostay) = opp_groups.sure(0, opp & between(me, e, V::ANY));
        let mmost = most_moves::<V>(me, ostay);
        most as i32 - sure as i32 + osure as i32 - mmost as i32
    }

    /// Every move of `me` (removed squares as a set; pairs only with `pairs`), best first by
    /// the ordering heuristic, with the move `first` (if legal) in front, then the killer.
    /// Returns the number written, or `Err(m)` with a move that wins at once (the opponent
    /// has no reply) or, with `known`, a move the table already knows to win. Each move comes
    /// with the removable pieces after it (see [`Child`]).
    #[allow(clippy::too_many_arguments)]
    fn ordered_moves(
        &mut self,
        me: u32,
        opp: u32,
        r: u32,
        first: u32,
        known: bool,
        pairs: bool,
        out: &mut [Child],
    ) -> Result<usize, u32> {
        let pieces = (me | opp).count_ones();
        let killer = self.killers[pieces as usize];
        let deep = pieces >= DEEP;
        // Load every single removal's bucket up front, so that the cache misses overlap
        // with each other and with the scoring below instead of coming one by one.
        let mut touch = 0;
        if known {
            let mut x = r;
            while x != 0 {
                let m = x & x.wrapping_neg();
                x &= x - 1;
                touch ^= self.tt.peek_key(key(opp, me & !m));
            }
        }
        // The opponent's groups after a move are its groups now, unless the move opens a
        // line between two of its pieces: found once here, not once per move.
        let e = !(me | opp);
        let opp_groups =
            (deep && !V::ENEMY).then(|| SightGroups::of::<V>(opp, me, removable::<V>(opp, me)));
        let mut n = 0;
        let mut push = |m: u32| -> Result<(), u32> {
            let me2 = me & !m;
            let ro = removable::<V>(opp, me2);
            if ro == 0 {
                return Err(m);
            }
            let rm = removable::<V>(me2, opp);
            let mut score;
            if m == first {
                score = i32::MIN / 2;
            } else if m == killer {
                score = i32::MIN / 4;
            } else {
                score = 4 * ro.count_ones() as i32 - 3 * rm.count_ones() as i32;
                if let Some(groups) = &opp_groups {
                    let opened;
                    let groups = if m & between(opp, e | m, V::ANY) == 0 {
                        groups
                    } else {
                        opened = SightGroups::of::<V>(opp, me2, ro);
                        &opened
                    };
                    score += 64 * Self::eval(me2, opp, rm, groups);
                }
            }
            if V::PAIR && m.count_ones() == 2 {
                // Pairs shorten the game: mildly preferred.
                score -= 1;
            }
            out[n] = (m, score, ro, rm);
            n += 1;
            Ok(())
        };
        let mut x = r;
        while x != 0 {
            let m = x & x.wrapping_neg();
            x &= x - 1;
            push(m)?;
        }
        if pairs {
            let mut pairs = [0u32; MAX_MOVES];
            let mut np = 0;
            for_each_pair::<V>(me, opp, r, |m| {
                pairs[np] = m;
                np += 1;
            });
            for &m in &pairs[..np] {
                push(m)?;
            }
        }
        if known {
            std::hint::black_box(touch);
            // A move to a position the table knows the opponent loses wins.
            for &(m, ..) in &out[..n] {
                if m != first {
                    if let Some(e) = self.tt.probe(key(opp, me & !m)) {
                        if e.hi < 0 {
                            return Err(m);
                        }
                    }
                }
            }
        }
        out[..n].sort_unstable_by_key(|&(_, s, ..)| s);
        Ok(n)
    }

    /// Whether the budget ran out (the answers since are meaningless).
    #[inline(always)]
    pub fn out(&self) -> bool {
        self.meter.out.is_some()
    }

    /// Whether the side to move (`me`) wins against best play.
    pub fn wins(&mut self, me: u32, opp: u32) -> bool {
        self.wins_with(me, opp, removable::<V>(me, opp), removable::<V>(opp, me))
    }

    /// [`Search::wins`] given the removable pieces of both sides, `r` and `r_opp` (a move
    /// list has them).
    fn wins_with(&mut self, me: u32, opp: u32, r: u32, r_opp: u32) -> bool {
        self.stats.nodes += 1;
        if self.meter.spent(self.stats.nodes) {
            return false;
        }
        if r == 0 {
            return false;
        }
        let k = key(me, opp);
        let mut first = 0;
        if let Some(e) = self.tt.probe(k) {
            if e.lo > 0 {
                self.stats.tt_cuts += 1;
                return true;
            }
            if e.hi < 0 {
                self.stats.tt_cuts += 1;
                return false;
            }
            first = e.best;
        }
        // Only the quick test that the side to move wins by the counts: the test that it
        // loses, and the second choice of pieces to keep, settle few positions here (about
        // 2% and 1% of their tries) for much of the work. A position the counts would call
        // lost has children that the quick test settles.
        if Self::outlasts_by_count(me, opp, r, r_opp, false).is_some() {
            self.stats.bound_cuts += 1;
            self.tt.store(k, WIN_MIN, Score::MAX, 0, 0);
            return true;
        }
        let start = self.stats.nodes;
        let pieces = (me | opp).count_ones() as usize;
        // The killer first, before the work of listing and ordering the moves (a single
        // removal only: a pair from elsewhere would need checking that its pieces see each
        // other).
        let killer = self.killers[pieces];
        if self.killer_first && killer.count_ones() == 1 && killer & r != 0 {
            let me2 = me & !killer;
            let ro = removable::<V>(opp, me2);
            let opp_wins = ro != 0 && self.wins_with(opp, me2, ro, removable::<V>(me2, opp));
            if self.out() {
                return false;
            }
            if !opp_wins {
                let w = work_of(self.stats.nodes - start);
                self.tt.store(k, WIN_MIN, Score::MAX, killer, w);
                return true;
            }
        }
        let mut buf = MoveBuf::new(Self::PAIRS_MATTER);
        let moves = buf.as_mut_slice();
        let n = match self.ordered_moves(me, opp, r, first, true, Self::PAIRS_MATTER, moves) {
            Ok(n) => n,
            Err(m) => {
                self.tt.store(k, WIN_MIN, Score::MAX, m, 1);
                return true;
            }
        };
        for &(m, _, ro, rm) in &moves[..n] {
            let opp_wins = self.wins_with(opp, me & !m, ro, rm);
            if self.out() {
                return false;
            }
            if !opp_wins {
                self.killers[pieces] = m;
                let w = work_of(self.stats.nodes - start);
                self.tt.store(k, WIN_MIN, Score::MAX, m, w);
                return true;
            }
        }
        let w = work_of(self.stats.nodes - start);
        self.tt.store(k, Score::MIN, LOSS_MAX, 0, w);
        false
    }

    /// Static bounds on the score: `(win_lo, win_hi, loss_lo, loss_hi)`: a win scores within
    /// the first two, a loss within the last two; when the bounds tell who wins, the other
    /// pair is empty.
    #[inline]
    fn score_bounds(me: u32, opp: u32, r: u32, r_opp: u32) -> (i32, i32, i32, i32) {
        // A game lasts at most the removals both sides could still make; each side makes at
        // least its sure removals.
        let (groups, blind, able_opp) = Self::sure_inputs(me, opp, r);
        let (opp_groups, opp_blind, able_me) = Self::sure_inputs(opp, me, r_opp);
        let m_me = Self::most(me, 0, able_me) as i32;
        let m_opp = Self::most(opp, 0, able_opp) as i32;
        let s_me = groups.sure(blind, 0).0 as i32;
        let s_opp = opp_groups.sure(opp_blind, 0).0 as i32;
        // Winning, the game ends when the opponent runs out: it makes at least its sure
        // removals (one at a time, whatever happens) and at most its possible ones.
        let win_lo = 100 - (2 * m_opp + 1);
        let win_hi = 100 - (2 * s_opp + 1);
        // Losing: likewise for my removals.
        let loss_lo = 2 * s_me - 100;
        let loss_hi = 2 * m_me - 100;
        // The winner's sure strategy keeps the loser within its bound.
        if let Some(m) = Self::least_most(me, opp, r, 0) {
            return (win_lo.max(100 - (2 * m as i32 + 1)), win_hi, 0, -1);
        }
        if let Some(m) = Self::least_most(opp, me, r_opp, 1) {
            return (1, 0, loss_lo, loss_hi.min(2 * m as i32 - 100));
        }
        (win_lo, win_hi, loss_lo, loss_hi)
    }

    /// The exact score (see [`crate::solver::Score`]) if it lies strictly between `alpha` and
    /// `beta`; else a bound on the side of the window it lies (fail-soft).
    pub fn score(&mut self, me: u32, opp: u32, mut alpha: i32, mut beta: i32) -> i32 {
        self.stats.nodes += 1;
        if self.meter.spent(self.stats.nodes) {
            return 0;
        }
        let r = removable::<V>(me, opp);
        if r == 0 {
            return i32::from(LOST_NOW);
        }
        let k = key(me, opp);
        let (mut lo, mut hi) = (i32::from(LOST_NOW), 99);
        let mut first = 0;
        if let Some(e) = self.tt.probe(k) {
            lo = lo.max(e.lo.into());
            hi = hi.min(e.hi.into());
            first = e.best;
        }
        if lo < hi {
            let r_opp = removable::<V>(opp, me);
            let (wlo, whi, llo, lhi) = Self::score_bounds(me, opp, r, r_opp);
            // Who wins first (a cheaper search, and often all the window asks), then the
            // bounds of that side.
            let win = if lo > 0 || llo > lhi {
                true
            } else if hi < 0 || wlo > whi {
                false
            } else {
                let w = self.wins_with(me, opp, r, r_opp);
                if self.out() {
                    return 0;
                }
                w
            };
            if win {
                lo = lo.max(wlo);
                hi = hi.min(whi);
            } else {
                lo = lo.max(llo);
                hi = hi.min(lhi);
            }
        }
        if lo >= beta || lo == hi {
            self.stats.tt_cuts += 1;
            return lo;
        }
        if hi <= alpha {
            self.stats.tt_cuts += 1;
            return hi;
        }
        alpha = alpha.max(lo - 1);
        beta = beta.min(hi + 1);
        let (alpha0, beta0) = (alpha, beta);
        let start = self.stats.nodes;
        let mut buf = MoveBuf::new(Self::PAIRS_MATTER);
        let moves = buf.as_mut_slice();
        let n = match self.ordered_moves(me, opp, r, first, false, Self::PAIRS_MATTER, moves) {
            Ok(n) => n,
            Err(m) => {
                // No faster win exists than ending the game now.
                self.tt.store(k, 99, 99, m, 1);
                return 99;
            }
        };
        let mut best = i32::MIN;
        let mut best_move = 0;
        for &(m, ..) in &moves[..n] {
            let c = self.score(opp, me & !m, child_bound(beta), child_bound(alpha));
            if self.out() {
                return 0;
            }
            let v = parent_score(c);
            if v > best {
                best = v;
                best_move = m;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        self.killers[(me | opp).count_ones() as usize] = m;
                        break;
                    }
                }
            }
        }
        let w = work_of(self.stats.nodes - start);
        let b = best as Score;
        if best >= beta0 {
            self.tt.store(k, b, Score::MAX, best_move, w);
        } else if best <= alpha0 {
            self.tt.store(k, Score::MIN, b, 0, w);
        } else {
            self.tt.store(k, b, b, best_move, w);
        }
        best
    }
}
