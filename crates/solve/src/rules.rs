//! The removal rules as set arithmetic, specialised at compile time for each combination of
//! the options `sight`, `enemy-sight` and `removal`.

use crate::bits::{seen, seen_all, segment_groups, sight_groups, RAYS_UP};
use std::fmt;

/// The options that change the removal phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    /// `sight=any`: friendly sight also along diagonals.
    pub sight_any: bool,
    /// `enemy-sight=true`: a removed piece must also see an enemy (any direction).
    pub enemy_sight: bool,
    /// `removal=pair`: a move may also remove two own pieces that see each other.
    pub pair: bool,
}

impl Rules {
    /// The rules of a game's configuration.
    #[must_use]
    pub fn of(cfg: &boardlab_sight_reduction::Config) -> Rules {
        Rules {
            sight_any: cfg.sight_any,
            enemy_sight: cfg.enemy_sight,
            pair: cfg.pair,
        }
    }

    /// Every combination, default first.
    pub const ALL: [Rules; 8] = {
        let mut all = [Rules {
            sight_any: false,
            enemy_sight: false,
            pair: false,
        }; 8];
        let mut i = 0;
        while i < 8 {
            all[i] = Rules {
                sight_any: i & 1 != 0,
                enemy_sight: i & 2 != 0,
                pair: i & 4 != 0,
            };
            i += 1;
        }
        all
    };

    /// A small number 0..8 naming the combination.
    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.sight_any)
            | usize::from(self.enemy_sight) << 1
            | usize::from(self.pair) << 2
    }
}

impl fmt::Display for Rules {
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

/// One rule combination as a type, so that the hot loops are compiled once per combination.
pub trait Variant: Copy + Send + Sync + 'static {
    const ANY: bool;
    const ENEMY: bool;
    const PAIR: bool;
}

macro_rules! variants {
    ($($name:ident: $any:literal $enemy:literal $pair:literal;)*) => {
        $(
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

/// Calls `$body` with `$v` bound to the variant type of `$rules`.
#[macro_export]
#[doc(hidden)]
macro_rules! with_variant {
    ($rules:expr, $v:ident => $body:expr) => {{
        let r: $crate::rules::Rules = $rules;
        match (r.sight_any, r.enemy_sight, r.pair) {
            (false, false, false) => {
                type $v = $crate::rules::V000;
                $body
            }
            (true, false, false) => {
                type $v = $crate::rules::V100;
                $body
            }
            (false, true, false) => {
                type $v = $crate::rules::V010;
                $body
            }
            (true, true, false) => {
                type $v = $crate::rules::V110;
                $body
            }
            (false, false, true) => {
                type $v = $crate::rules::V001;
                $body
            }
            (true, false, true) => {
                type $v = $crate::rules::V101;
                $body
            }
            (false, true, true) => {
                type $v = $crate::rules::V011;
                $body
            }
            (true, true, true) => {
                type $v = $crate::rules::V111;
                $body
            }
        }
    }};
}

/// The pieces of `me` that may be removed singly (`opp`: the other colour).
#[inline(always)]
#[must_use]
pub fn removable<V: Variant>(me: u32, opp: u32) -> u32 {
    let e = !(me | opp);
    let mut r = me & seen(me, e, V::ANY);
    if V::ENEMY && r != 0 {
        r &= seen_all(opp, e);
    }
    r
}

/// Calls `f` with every pair move of `me` (the two squares as one set), given the singly
/// removable pieces `r`. A pair is two own pieces that see each other; with enemy sight
/// both must see an enemy, which for pieces that see a friend is being removable.
#[inline]
pub fn for_each_pair<V: Variant>(me: u32, opp: u32, r: u32, mut f: impl FnMut(u32)) {
    let occ = me | opp;
    let dirs = if V::ANY { 4 } else { 2 };
    let mut ps = r;
    while ps != 0 {
        let p = ps.trailing_zeros() as usize;
        ps &= ps - 1;
        for ray in RAYS_UP.iter().take(dirs) {
            let hit = occ & ray[p];
            if hit != 0 {
                let q = hit & hit.wrapping_neg();
                if r & q != 0 {
                    f((1 << p) | q);
                }
            }
        }
    }
}

/// The legal moves of `me` as removed-piece sets, in the engine's order: single removals by
/// square, then pairs by first square, then second square.
pub fn moves<V: Variant>(me: u32, opp: u32, out: &mut Vec<u32>) {
    out.clear();
    let r = removable::<V>(me, opp);
    let mut x = r;
    while x != 0 {
        out.push(x & x.wrapping_neg());
        x &= x - 1;
    }
    if V::PAIR && r != 0 {
        let start = out.len();
        for_each_pair::<V>(me, opp, r, |m| out.push(m));
        out[start..].sort_unstable_by_key(|m| (m.trailing_zeros(), 31 - m.leading_zeros()));
    }
}

/// The groups of two or more pieces of one side joined by sight.
///
/// Sight between two own pieces can only end when one of them is removed (the opponent
/// removes only its own pieces, and removals only empty squares). So in a group all pieces
/// but the ones chosen to stay (at least one) can be removed, whatever the opponent does:
/// leaves of a spanning tree first; when only staying pieces are leaves, any other piece
/// (it still sees a tree neighbour), after which every part still holds a staying piece.
/// Without enemy sight only (with it an enemy that leaves can take a piece's removability
/// away).
#[derive(Clone, Copy, Debug)]
pub struct SightGroups {
    n: usize,
    groups: [u32; 16],
    /// The pieces outside every group (they see no friend).
    lone: u32,
}

impl SightGroups {
    /// The groups of `me` (`r_me`: its removable pieces).
    #[inline]
    #[must_use]
    pub fn of<V: Variant>(me: u32, opp: u32, r_me: u32) -> SightGroups {
        let mut groups = [0u32; 16];
        let e = !(me | opp);
        let n = sight_groups(me, r_me, e, V::ANY, &mut groups);
        SightGroups {
            n,
            groups,
            lone: me & !r_me,
        }
    }

    /// The groups, each as a set of pieces.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.groups[..self.n].iter().copied()
    }

    /// The removals that can be made for sure while the pieces of `keep` stay (and in each
    /// group without one of them, one piece, taken from `prefer` where possible), and every
    /// piece that stays meanwhile.
    #[inline]
    #[must_use]
    pub fn sure(&self, keep: u32, prefer: u32) -> (u32, u32) {
        self.sure_with(keep, prefer, 0)
    }

    /// As [`SightGroups::sure`], taking the piece that stays from `then` in a group with no
    /// piece of `prefer`.
    #[inline]
    #[must_use]
    pub fn sure_with(&self, keep: u32, prefer: u32, then: u32) -> (u32, u32) {
        let mut sure = 0;
        let mut stay = self.lone;
        for &g in &self.groups[..self.n] {
            let k = g & keep;
            if k != 0 {
                sure += g.count_ones() - k.count_ones();
                stay |= k;
            } else {
                sure += g.count_ones() - 1;
                let pick = if g & prefer != 0 {
                    g & prefer
                } else if g & then != 0 {
                    g & then
                } else {
                    g
                };
                stay |= pick & pick.wrapping_neg();
            }
        }
        (sure, stay)
    }
}

/// The most removals `pieces` can make while the other side's pieces `walls` stand: a piece
/// can only be removed towards a friend on a line not cut by a wall, such groups only split,
/// and the last piece of a group stays, so at most `pieces - groups`.
#[inline]
#[must_use]
pub fn most_moves<V: Variant>(pieces: u32, walls: u32) -> u32 {
    pieces.count_ones() - segment_groups(pieces, walls, V::ANY)
}
