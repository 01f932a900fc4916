//! The bit-level rules kernel of Sight Reduction: the one implementation of the board as
//! bits, of who sees whom, of the legal removals and of making one. The engine
//! ([`SightReduction`](crate::SightReduction)), the exact solver (`boardlab-solve`) and the
//! computer players (`boardlab-ai`) all use it.
//!
//! - **The board as bits.** A set of squares is a `u32`, bit `rank * 4 + file` (ranks and
//!   files counted from 0): a1 = bit 0, d1 = bit 3, a2 = bit 4, …, d8 = bit 31. A position of
//!   the removal phase is two sets, the pieces of the side to move (`me`) and of the other
//!   side (`opp`). A removal is the set of squares it empties, one square or two for a pair
//!   ([`to_move`] and [`move_mask`] convert to and from the engine's [`Move`]).
//! - **Who sees whom.** A piece sees, along each line, the first piece met passing only over
//!   empty squares. [`sees`] gives for a whole set of targets at once every square that sees
//!   one of them in one direction, by a branch-free occluded fill (Kogge–Stone) of a few
//!   shifts and masks; [`sees_orthogonal`], [`sees_diagonal`], [`sees_all`] and
//!   [`sees_along`] join directions.
//! - **The legal removals.** [`RuleSet`] holds the options that change the removal phase
//!   (`sight`, `enemy-sight`, `removal`). [`RuleSet::removable`] is the set of pieces that may
//!   be removed one at a time, [`RuleSet::partners`] and [`RuleSet::for_each_pair`] give the
//!   pairs, [`RuleSet::moves`] every removal in the engine's order.
//! - **Making a removal.** [`play`]: the position after a removal, the other side to move.
//! - **RuleSet fixed at compile time.** A [`Variant`] is one combination of the options as a
//!   type, and [`with_variant!`] calls code with the variant of a
//!   [`RuleSet`] value, so that a hot loop is compiled once per combination; [`removable`],
//!   [`for_each_pair`] and [`moves`] are the functions above for a variant.
//! - **Bit helpers**: the `n`-th set bit ([`nth_bit`], [`nth_bit_with_prefix`]), each square
//!   of a set ([`squares`]), the neighbours of squares ([`neighbours`]), the rays from a
//!   square ([`RAYS_UP`], [`first_hit`]).

use crate::{Config, Move};
use std::fmt;

/// Squares of file a.
pub const FILE_A: u32 = 0x1111_1111;
/// Squares of file d.
pub const FILE_D: u32 = 0x8888_8888;

/// The eight directions. The first four are orthogonal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    N,
    S,
    E,
    W,
    NE,
    NW,
    SE,
    SW,
}

pub const ORTHOGONAL: [Dir; 4] = [Dir::N, Dir::S, Dir::E, Dir::W];
pub const ALL_DIRS: [Dir; 8] = [
    Dir::N,
    Dir::S,
    Dir::E,
    Dir::W,
    Dir::NE,
    Dir::NW,
    Dir::SE,
    Dir::SW,
];

/// Every square moved one step in `dir` (squares that would leave the board vanish).
#[inline(always)]
#[must_use]
pub fn shift(x: u32, dir: Dir) -> u32 {
    match dir {
        Dir::N => x << 4,
        Dir::S => x >> 4,
        Dir::E => (x & !FILE_D) << 1,
        Dir::W => (x & !FILE_A) >> 1,
        Dir::NE => (x & !FILE_D) << 5,
        Dir::NW => (x & !FILE_A) << 3,
        Dir::SE => (x & !FILE_D) >> 3,
        Dir::SW => (x & !FILE_A) >> 5,
    }
}

/// The squares whose first piece met in direction `dir` (looking past empty squares only)
/// is in `targets`: flood from `targets` in the opposite direction through empty squares
/// (a branch-free Kogge–Stone fill), then one more step.
#[inline(always)]
#[must_use]
pub fn sees(targets: u32, empty: u32, dir: Dir) -> u32 {
    let back = opposite(dir);
    shift(fill(targets, empty, back), back)
}

/// `gen` extended in direction `dir` through the squares of `pro` (occluded fill).
#[inline(always)]
#[must_use]
pub fn fill(mut gen: u32, pro: u32, dir: Dir) -> u32 {
    match dir {
        Dir::N => {
            let mut p = pro;
            gen |= p & (gen << 4);
            p &= p << 4;
            gen |= p & (gen << 8);
            p &= p << 8;
            gen | (p & (gen << 16))
        }
        Dir::S => {
            let mut p = pro;
            gen |= p & (gen >> 4);
            p &= p >> 4;
            gen |= p & (gen >> 8);
            p &= p >> 8;
            gen | (p & (gen >> 16))
        }
        // Sideways and diagonal lines are at most 4 squares long: steps 1 and 2 suffice.
        Dir::E => {
            let p = pro & !FILE_A;
            gen |= p & (gen << 1);
            gen | (p & (p << 1) & (gen << 2))
        }
        Dir::W => {
            let p = pro & !FILE_D;
            gen |= p & (gen >> 1);
            gen | (p & (p >> 1) & (gen >> 2))
        }
        Dir::NE => {
            let p = pro & !FILE_A;
            gen |= p & (gen << 5);
            gen | (p & (p << 5) & (gen << 10))
        }
        Dir::NW => {
            let p = pro & !FILE_D;
            gen |= p & (gen << 3);
            gen | (p & (p << 3) & (gen << 6))
        }
        Dir::SE => {
            let p = pro & !FILE_A;
            gen |= p & (gen >> 3);
            gen | (p & (p >> 3) & (gen >> 6))
        }
        Dir::SW => {
            let p = pro & !FILE_D;
            gen |= p & (gen >> 5);
            gen | (p & (p >> 5) & (gen >> 10))
        }
    }
}

/// The squares that see a piece of `targets` along a rank or file.
#[inline(always)]
#[must_use]
pub fn sees_orthogonal(targets: u32, empty: u32) -> u32 {
    shift(fill(targets, empty, Dir::N), Dir::N)
        | shift(fill(targets, empty, Dir::S), Dir::S)
        | shift(fill(targets, empty, Dir::E), Dir::E)
        | shift(fill(targets, empty, Dir::W), Dir::W)
}

/// The squares that see a piece of `targets` along a diagonal.
#[inline(always)]
#[must_use]
pub fn sees_diagonal(targets: u32, empty: u32) -> u32 {
    shift(fill(targets, empty, Dir::NE), Dir::NE)
        | shift(fill(targets, empty, Dir::NW), Dir::NW)
        | shift(fill(targets, empty, Dir::SE), Dir::SE)
        | shift(fill(targets, empty, Dir::SW), Dir::SW)
}

/// The squares that see a piece of `targets` along any of the eight directions.
#[inline(always)]
#[must_use]
pub fn sees_all(targets: u32, empty: u32) -> u32 {
    sees_orthogonal(targets, empty) | sees_diagonal(targets, empty)
}

/// The squares that see a piece of `targets` along the lines of friendly sight: ranks and
/// files, and with `any` (`sight=any`) also diagonals.
#[inline(always)]
#[must_use]
pub fn sees_along(targets: u32, empty: u32, any: bool) -> u32 {
    if any {
        sees_all(targets, empty)
    } else {
        sees_orthogonal(targets, empty)
    }
}

/// The opposite direction.
#[inline(always)]
#[must_use]
pub const fn opposite(dir: Dir) -> Dir {
    match dir {
        Dir::N => Dir::S,
        Dir::S => Dir::N,
        Dir::E => Dir::W,
        Dir::W => Dir::E,
        Dir::NE => Dir::SW,
        Dir::NW => Dir::SE,
        Dir::SE => Dir::NW,
        Dir::SW => Dir::NE,
    }
}

/// The first occupied square strictly beyond `sq` in `dir`, if any (square by square: for
/// tests and set-up code, not for search).
#[must_use]
pub fn first_hit(sq: u8, occupied: u32, dir: Dir) -> Option<u8> {
    let mut x = shift(1u32 << sq, dir);
    while x != 0 {
        if x & occupied != 0 {
            return Some(x.trailing_zeros() as u8);
        }
        x = shift(x, dir);
    }
    None
}

/// `SELECT[b * 8 + n]`: the position of the `n`-th set bit of byte `b`.
static SELECT: [u8; 2048] = {
    let mut t = [0u8; 2048];
    let mut b = 0;
    while b < 256 {
        let mut n = 0;
        let mut bit = 0;
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[b * 8 + n] = bit as u8;
                n += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// The `n`-th (from 0) set bit of `x`, which must have more than `n` set bits. Branch-free:
/// finds the byte by comparing `n` with the running bit counts, then looks the bit up.
#[inline(always)]
#[must_use]
pub fn nth_bit(x: u32, n: u32) -> u8 {
    debug_assert!(x.count_ones() > n);
    let c0 = (x & 0xFF).count_ones();
    let c1 = c0 + (x & 0xFF00).count_ones();
    let c2 = c1 + (x & 0xFF_0000).count_ones();
    let byte_index = u32::from(n >= c0) + u32::from(n >= c1) + u32::from(n >= c2);
    let before = [0, c0, c1, c2][byte_index as usize];
    let byte = (x >> (byte_index * 8)) & 0xFF;
    (byte_index * 8) as u8 + SELECT[(byte * 8 + (n - before)) as usize]
}

/// Running bit counts by byte: byte `k` of the result is the number of set bits of `x` in
/// bytes `0..=k` (so the top byte is the total). One SWAR count and one multiply, which beats
/// four `count_ones` on targets without a population-count instruction.
#[inline(always)]
#[must_use]
pub fn byte_prefix_counts(x: u32) -> u32 {
    let mut c = x - ((x >> 1) & 0x5555_5555);
    c = (c & 0x3333_3333) + ((c >> 2) & 0x3333_3333);
    c = (c + (c >> 4)) & 0x0F0F_0F0F;
    c.wrapping_mul(0x0101_0101)
}

/// The `n`-th set bit of `x` given `prefix = byte_prefix_counts(x)` and `n < prefix >> 24`.
#[inline(always)]
#[must_use]
pub fn nth_bit_with_prefix(x: u32, prefix: u32, n: u32) -> u8 {
    let (b0, b1, b2) = (prefix & 0xFF, (prefix >> 8) & 0xFF, (prefix >> 16) & 0xFF);
    let index = u32::from(n >= b0) + u32::from(n >= b1) + u32::from(n >= b2);
    let before = ((prefix << 8) >> (8 * index)) & 0xFF;
    let byte = (x >> (8 * index)) & 0xFF;
    (8 * index) as u8 + SELECT[(byte * 8 + (n - before)) as usize]
}

/// The eight neighbours of every square in `x`.
#[inline(always)]
#[must_use]
pub fn neighbours(x: u32) -> u32 {
    let mut out = 0;
    for d in ALL_DIRS {
        out |= shift(x, d);
    }
    out
}

/// Each square of `x` as a set of its own, lowest first.
#[inline]
pub fn squares(x: u32) -> impl Iterator<Item = u32> {
    let mut rest = x;
    std::iter::from_fn(move || {
        let one = rest & rest.wrapping_neg();
        rest &= !one;
        (one != 0).then_some(one)
    })
}

/// Rays from each square in the four "increasing" directions N, E, NE, NW, in that order:
/// the squares beyond it, nearest first in increasing bit order, so the first piece met
/// along `RAYS_UP[d][sq]` is the lowest set bit of `occupied & RAYS_UP[d][sq]`.
pub const RAYS_UP: [[u32; 32]; 4] = {
    let mut rays = [[0u32; 32]; 4];
    let steps: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (-1, 1)];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 32 {
            let (mut f, mut r) = ((sq % 4) as i32, (sq / 4) as i32);
            let mut m = 0u32;
            loop {
                f += steps[d].0;
                r += steps[d].1;
                if f < 0 || f > 3 || r < 0 || r > 7 {
                    break;
                }
                m |= 1 << (r * 4 + f);
            }
            rays[d][sq] = m;
            sq += 1;
        }
        d += 1;
    }
    rays
};

/// The options that change the removal phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct RuleSet {
    /// `sight=any`: friendly sight also along diagonals.
    pub sight_any: bool,
    /// `enemy-sight=true`: a removed piece must also see an enemy (any direction).
    pub enemy_sight: bool,
    /// `removal=pair`: a move may also remove two own pieces that see each other.
    pub pair: bool,
}

impl RuleSet {
    /// The rules of a game's configuration.
    #[must_use]
    pub fn of(cfg: &Config) -> RuleSet {
        RuleSet {
            sight_any: cfg.sight_any,
            enemy_sight: cfg.enemy_sight,
            pair: cfg.pair,
        }
    }

    /// The pieces of `me` that may be removed one at a time (`opp`: the other side's
    /// pieces): those that see a friend, and with enemy sight also an enemy. Each
    /// combination of `sight` and `enemy-sight` is compiled on its own; with constant rules
    /// (a [`Variant`]) the choice is made at compile time.
    #[inline(always)]
    #[must_use]
    pub fn removable(self, me: u32, opp: u32) -> u32 {
        match (self.sight_any, self.enemy_sight) {
            (false, false) => removable_with(false, false, me, opp),
            (true, false) => removable_with(true, false, me, opp),
            (false, true) => removable_with(false, true, me, opp),
            (true, true) => removable_with(true, true, me, opp),
        }
    }

    /// The number of "increasing" directions (see [`RAYS_UP`]) of friendly sight.
    #[inline(always)]
    fn rays_up(self) -> usize {
        if self.sight_any {
            4
        } else {
            2
        }
    }

    /// The partners of the piece on square `p` for a pair, among pieces on higher squares:
    /// the first piece met from `p` along each line of friendly sight, where it is in `r`,
    /// the removable pieces (`occupied`: every piece). A pair is two own pieces that see each
    /// other; with enemy sight both must see an enemy, which for pieces that see a friend is
    /// being removable.
    #[inline(always)]
    #[must_use]
    pub fn partners(self, p: usize, occupied: u32, r: u32) -> u32 {
        let mut out = 0;
        for ray in RAYS_UP.iter().take(self.rays_up()) {
            let hit = occupied & ray[p];
            out |= hit & hit.wrapping_neg();
        }
        out & r
    }

    /// Calls `f` with every pair of `me` (the two squares as one set), given its removable
    /// pieces `r`: by the lower square, then by direction (N, E, NE, NW).
    #[inline]
    pub fn for_each_pair(self, me: u32, opp: u32, r: u32, mut f: impl FnMut(u32)) {
        let occupied = me | opp;
        let mut ps = r;
        while ps != 0 {
            let p = ps.trailing_zeros() as usize;
            ps &= ps - 1;
            for ray in RAYS_UP.iter().take(self.rays_up()) {
                let hit = occupied & ray[p];
                let q = hit & hit.wrapping_neg();
                if r & q != 0 {
                    f((1 << p) | q);
                }
            }
        }
    }

    /// Every removal of `me` as a set of squares, in the engine's order (see
    /// [`Rules::legal_moves`](boardlab_core::Rules::legal_moves)): single removals by square,
    /// then pairs by their lower square, then their higher one.
    pub fn moves(self, me: u32, opp: u32, out: &mut Vec<u32>) {
        out.clear();
        let r = self.removable(me, opp);
        out.extend(squares(r));
        if self.pair {
            let occupied = me | opp;
            let mut ps = r;
            while ps != 0 {
                let p = ps.trailing_zeros() as usize;
                ps &= ps - 1;
                let mut qs = self.partners(p, occupied, r);
                while qs != 0 {
                    out.push((1 << p) | (qs & qs.wrapping_neg()));
                    qs &= qs - 1;
                }
            }
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "sight={},enemy-sight={},removal={}",
            if self.sight_any { "any" } else { "orthogonal" },
            self.enemy_sight,
            if self.pair { "pair" } else { "single" }
        )
    }
}

/// [`RuleSet::removable`] for fixed options.
#[inline(always)]
fn removable_with(any: bool, enemy: bool, me: u32, opp: u32) -> u32 {
    let empty = !(me | opp);
    let mut r = me & sees_along(me, empty, any);
    if enemy && r != 0 {
        r &= sees_all(opp, empty);
    }
    r
}

/// One combination of the rules as a type, so that the hot loops are compiled once per
/// combination (see [`with_variant!`]).
pub trait Variant: Copy + Send + Sync + 'static {
    /// `sight=any`.
    const ANY: bool;
    /// `enemy-sight=true`.
    const ENEMY: bool;
    /// `removal=pair`.
    const PAIR: bool;
    /// The same as a value.
    const RULES: RuleSet = RuleSet {
        sight_any: Self::ANY,
        enemy_sight: Self::ENEMY,
        pair: Self::PAIR,
    };
}

macro_rules! variants {
    ($($name:ident: $any:literal $enemy:literal $pair:literal;)*) => {
        $(
            #[doc = concat!("The rules with sight=any ", stringify!($any), ", enemy-sight ",
                stringify!($enemy), ", pairs ", stringify!($pair), ".")]
            #[derive(Clone, Copy, Debug)]
            pub struct $name;
            impl Variant for $name {
                const ANY: bool = $any;
                const ENEMY: bool = $enemy;
                const PAIR: bool = $pair;
            }
        )*
    };
}

variants! {
    V000: false false false;
    V100: true false false;
    V010: false true false;
    V110: true true false;
    V001: false false true;
    V101: true false true;
    V011: false true true;
    V111: true true true;
}

/// Evaluates `$body` with the type `$v` bound to the [`Variant`] of the
/// [`RuleSet`] value `$rules`:
/// `with_variant!(rules, V => kernel::removable::<V>(me, opp))`.
#[macro_export]
macro_rules! with_variant {
    ($rules:expr, $v:ident => $body:expr) => {{
        let r: $crate::kernel::RuleSet = $rules;
        match (r.sight_any, r.enemy_sight, r.pair) {
            (false, false, false) => {
                type $v = $crate::kernel::V000;
                $body
            }
            (true, false, false) => {
                type $v = $crate::kernel::V100;
                $body
            }
            (false, true, false) => {
                type $v = $crate::kernel::V010;
                $body
            }
            (true, true, false) => {
                type $v = $crate::kernel::V110;
                $body
            }
            (false, false, true) => {
                type $v = $crate::kernel::V001;
                $body
            }
            (true, false, true) => {
                type $v = $crate::kernel::V101;
                $body
            }
            (false, true, true) => {
                type $v = $crate::kernel::V011;
                $body
            }
            (true, true, true) => {
                type $v = $crate::kernel::V111;
                $body
            }
        }
    }};
}

pub use crate::with_variant;

/// [`RuleSet::removable`] for a [`Variant`].
#[inline(always)]
#[must_use]
pub fn removable<V: Variant>(me: u32, opp: u32) -> u32 {
    V::RULES.removable(me, opp)
}

/// [`RuleSet::for_each_pair`] for a [`Variant`].
#[inline]
pub fn for_each_pair<V: Variant>(me: u32, opp: u32, r: u32, f: impl FnMut(u32)) {
    V::RULES.for_each_pair(me, opp, r, f);
}

/// [`RuleSet::moves`] for a [`Variant`].
pub fn moves<V: Variant>(me: u32, opp: u32, out: &mut Vec<u32>) {
    V::RULES.moves(me, opp, out);
}

/// The position after `me` removes the squares `removed`: the other side to move, so
/// `(opp, me without removed)`.
#[inline(always)]
#[must_use]
pub fn play(me: u32, opp: u32, removed: u32) -> (u32, u32) {
    (opp, me & !removed)
}

/// The engine's move for a removal given as the set of squares it empties (one or two).
#[must_use]
pub fn to_move(removed: u32) -> Move {
    let a = removed.trailing_zeros() as u8;
    if removed.count_ones() == 2 {
        Move::Pair(a, (31 - removed.leading_zeros()) as u8)
    } else {
        Move::Remove(a)
    }
}

/// The set of squares a removal empties (`None` for the moves of the set-up).
#[must_use]
pub fn move_mask(mv: Move) -> Option<u32> {
    match mv {
        Move::Remove(a) => Some(1 << a),
        Move::Pair(a, b) => Some((1 << a) | (1 << b)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_bit_finds_every_bit() {
        for x in [1u32, 0xFFFF_FFFF, 0x8000_0001, 0x0F0F_00F0, 0xA5A5_5A5A] {
            let bits: Vec<u8> = (0..32).filter(|b| x >> b & 1 == 1).collect();
            for (n, &b) in bits.iter().enumerate() {
                assert_eq!(nth_bit(x, n as u32), b, "x={x:#x} n={n}");
            }
        }
    }

    #[test]
    fn prefix_select_finds_every_bit() {
        for x in [
            1u32,
            0xFFFF_FFFF,
            0x8000_0001,
            0x0F0F_00F0,
            0xA5A5_5A5A,
            0x0100_0000,
        ] {
            let prefix = byte_prefix_counts(x);
            assert_eq!(prefix >> 24, x.count_ones());
            let bits: Vec<u8> = (0..32).filter(|b| x >> b & 1 == 1).collect();
            for (n, &b) in bits.iter().enumerate() {
                assert_eq!(
                    nth_bit_with_prefix(x, prefix, n as u32),
                    b,
                    "x={x:#x} n={n}"
                );
            }
        }
    }

    #[test]
    fn shifts_do_not_wrap_between_ranks() {
        let d1 = 1u32 << 3;
        assert_eq!(shift(d1, Dir::E), 0);
        assert_eq!(shift(1, Dir::W), 0);
        assert_eq!(shift(1 << 31, Dir::N), 0);
        assert_eq!(shift(d1, Dir::NW), 1 << 6);
    }

    #[test]
    fn kogge_stone_sight_equals_walking_the_line() {
        let mut x = 0x9E37_79B9u32;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let targets = x & 0x5A5A_A5A5;
            let occ = x | (x >> 7);
            let empty = !occ;
            for d in ALL_DIRS {
                let mut naive = 0u32;
                for sq in 0..32u8 {
                    if let Some(hit) = first_hit(sq, occ | targets, d) {
                        if targets >> hit & 1 == 1 {
                            naive |= 1 << sq;
                        }
                    }
                }
                let fast = sees(targets, empty & !targets, d);
                assert_eq!(fast, naive, "{d:?} targets={targets:#x} occ={occ:#x}");
            }
        }
    }

    /// Every combination of the rules.
    fn all_rules() -> impl Iterator<Item = RuleSet> {
        (0..8).map(|i| RuleSet {
            sight_any: i & 1 != 0,
            enemy_sight: i & 2 != 0,
            pair: i & 4 != 0,
        })
    }

    /// Random positions (`me`, `opp`), from full to nearly empty boards.
    fn positions() -> impl Iterator<Item = (u32, u32)> {
        let mut x = 0x1234_5678_9abc_def1u64;
        (0..3000).map(move |i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occupied = match i % 3 {
                0 => u32::MAX,
                1 => (x >> 32) as u32 | x as u32,
                _ => (x >> 32) as u32 & x as u32,
            };
            let me = occupied & (x >> 16) as u32;
            (me, occupied & !me)
        })
    }

    /// The removal rule and the pairs square by square, walking each line: removable pieces
    /// by square, then pairs (lower square first) by direction N, E, NE, NW.
    fn walk_moves(rules: RuleSet, me: u32, opp: u32) -> (u32, Vec<u32>) {
        let occupied = me | opp;
        let friend: &[Dir] = if rules.sight_any {
            &ALL_DIRS
        } else {
            &ORTHOGONAL
        };
        let sees = |sq: u8, targets: u32, dirs: &[Dir]| {
            dirs.iter()
                .any(|&d| first_hit(sq, occupied, d).is_some_and(|q| targets >> q & 1 == 1))
        };
        let mut r = 0;
        for sq in 0..32u8 {
            if me >> sq & 1 == 1
                && sees(sq, me, friend)
                && (!rules.enemy_sight || sees(sq, opp, &ALL_DIRS))
            {
                r |= 1 << sq;
            }
        }
        let mut pairs = Vec::new();
        for p in 0..32u8 {
            if r >> p & 1 == 0 {
                continue;
            }
            for d in [Dir::N, Dir::E, Dir::NE, Dir::NW] {
                let diagonal = matches!(d, Dir::NE | Dir::NW);
                if diagonal && !rules.sight_any {
                    continue;
                }
                if let Some(q) = first_hit(p, occupied, d) {
                    if r >> q & 1 == 1 {
                        pairs.push((1 << p) | (1 << q));
                    }
                }
            }
        }
        (r, pairs)
    }

    #[test]
    fn removals_and_pairs_match_a_walk() {
        let mut checked_pairs = 0;
        for rules in all_rules() {
            let mut moves = Vec::new();
            for (me, opp) in positions() {
                let (r, pairs) = walk_moves(rules, me, opp);
                assert_eq!(
                    rules.removable(me, opp),
                    r,
                    "{rules} me={me:#x} opp={opp:#x}"
                );
                let mut each = Vec::new();
                rules.for_each_pair(me, opp, r, |m| each.push(m));
                assert_eq!(each, pairs, "{rules} me={me:#x} opp={opp:#x}");
                rules.moves(me, opp, &mut moves);
                let mut want: Vec<u32> = (0..32).map(|b| 1 << b).filter(|b| r & b != 0).collect();
                if rules.pair {
                    let mut sorted = pairs.clone();
                    sorted.sort_by_key(|m| (m.trailing_zeros(), 31 - m.leading_zeros()));
                    want.extend(sorted);
                    checked_pairs += pairs.len();
                }
                assert_eq!(moves, want, "{rules} me={me:#x} opp={opp:#x}");
                with_variant!(rules, V => {
                    assert_eq!(removable::<V>(me, opp), r);
                    let mut v = Vec::new();
                    super::moves::<V>(me, opp, &mut v);
                    assert_eq!(v, moves);
                });
            }
        }
        assert!(checked_pairs > 1000, "{checked_pairs}");
    }

    #[test]
    fn a_removal_passes_the_turn_and_converts_to_a_move() {
        let (me, opp) = (0b1011, 0b0100 << 4);
        assert_eq!(play(me, opp, 0b0010), (opp, 0b1001));
        for mv in [
            Move::Remove(0),
            Move::Remove(31),
            Move::Pair(2, 6),
            Move::Pair(0, 31),
        ] {
            assert_eq!(to_move(move_mask(mv).unwrap()), mv);
        }
        assert_eq!(move_mask(Move::Done), None);
    }

    #[test]
    fn rays_run_up_the_lines() {
        // a1 sees up the file to a8, up the rank to d1, up the diagonal to d4.
        assert_eq!(RAYS_UP[0][0], 0x1111_1110);
        assert_eq!(RAYS_UP[1][0], 0xE);
        assert_eq!(RAYS_UP[2][0], (1 << 5) | (1 << 10) | (1 << 15));
        assert_eq!(RAYS_UP[3][3], (1 << 6) | (1 << 9) | (1 << 12));
    }

    #[test]
    fn sight_stops_at_the_first_piece() {
        // a1 and a3 with a2 empty: a1 sees a3 northwards; a4 beyond a3 is hidden.
        let a1 = 1u32;
        let a3 = 1u32 << 8;
        let a4 = 1u32 << 12;
        let occ = a1 | a3 | a4;
        assert_ne!(sees(a3, !occ, Dir::N) & a1, 0);
        assert_eq!(sees(a4, !occ, Dir::N) & a1, 0);
        assert_eq!(first_hit(0, occ, Dir::N), Some(8));
    }
}
