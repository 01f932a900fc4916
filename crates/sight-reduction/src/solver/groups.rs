//! Groups of pieces and the move-count bounds built on them: the solvers' own analysis of a
//! position, on top of the rules kernel ([`crate::kernel`]).
//!
//! A piece can only be removed towards a friend it sees, and sight between two pieces of one
//! side can only end when one of them goes. So the pieces of a side fall into groups that
//! only ever split, each keeping at least its last piece: counting groups bounds how many
//! removals a side can still make, and how many it can make whatever the opponent does.

use crate::kernel::{fill, sees, Dir, RuleSet, Variant, ALL_DIRS, FILE_A};

/// The squares that see `t` in both directions along some line (ranks and files, with `any`
/// also diagonals), `e` being the empty squares: removing a piece there lets two pieces of
/// `t` see each other.
#[inline(always)]
#[must_use]
pub fn between(t: u32, e: u32, any: bool) -> u32 {
    let mut b =
        (sees(t, e, Dir::N) & sees(t, e, Dir::S)) | (sees(t, e, Dir::E) & sees(t, e, Dir::W));
    if any {
        b |= sees(t, e, Dir::NE) & sees(t, e, Dir::SW);
        b |= sees(t, e, Dir::NW) & sees(t, e, Dir::SE);
    }
    b
}

/// Whole ranks of the squares of `x`.
#[inline(always)]
#[must_use]
pub fn rank_span(x: u32) -> u32 {
    ((x | x >> 1 | x >> 2 | x >> 3) & FILE_A).wrapping_mul(0xF)
}

/// Whole files of the squares of `x`.
#[inline(always)]
#[must_use]
pub fn file_span(x: u32) -> u32 {
    let mut f = x | x >> 16;
    f |= f >> 8;
    f |= f >> 4;
    (f & 0xF).wrapping_mul(0x1111_1111)
}

/// Whole diagonals and anti-diagonals of the squares of `x`.
#[inline(always)]
#[must_use]
pub fn diagonal_span(x: u32) -> u32 {
    fill(x, !0, Dir::NE) | fill(x, !0, Dir::SW) | fill(x, !0, Dir::NW) | fill(x, !0, Dir::SE)
}

/// The squares sharing a line (rank, file, and with `any` a diagonal) with a square of `x`.
#[inline(always)]
#[must_use]
pub fn line_span(x: u32, any: bool) -> u32 {
    let s = rank_span(x) | file_span(x);
    if any {
        s | diagonal_span(x)
    } else {
        s
    }
}

/// The number of groups of `pieces` connected by sharing lines (see [`line_span`]),
/// ignoring what stands between them. A piece can only ever be removed towards a friend in
/// its group, and groups only split, so a group's last piece stays: a side can make at most
/// `pieces - line_groups` more removals.
#[inline]
#[must_use]
pub fn line_groups(pieces: u32, any: bool) -> u32 {
    let mut rest = pieces;
    let mut n = 0;
    while rest != 0 {
        let mut group = rest & rest.wrapping_neg();
        loop {
            let next = pieces & line_span(group, any);
            if next == group {
                break;
            }
            group = next;
        }
        rest &= !group;
        n += 1;
    }
    n
}

/// `g` spread along lines (ranks and files, with `any` also diagonals) over the squares of
/// `p`, any distance: every square of `p` joined to `g` by a straight run of `p` squares.
#[inline(always)]
#[must_use]
pub fn spread(g: u32, p: u32, any: bool) -> u32 {
    let s = fill(g, p, Dir::N) | fill(g, p, Dir::S) | fill(g, p, Dir::E) | fill(g, p, Dir::W);
    if any {
        s | fill(g, p, Dir::NE) | fill(g, p, Dir::NW) | fill(g, p, Dir::SE) | fill(g, p, Dir::SW)
    } else {
        s
    }
}

/// The group of `pieces` (see [`segment_groups`]) that holds the piece `seed`.
#[inline]
#[must_use]
pub fn segment_group(pieces: u32, walls: u32, seed: u32, any: bool) -> u32 {
    let mut group = seed;
    loop {
        let next = pieces & spread(group, !walls, any);
        if next == group {
            return group;
        }
        group = next;
    }
}

/// The number of groups of `pieces` joined by lines that no square of `walls` interrupts
/// (other squares, pieces or not, do not matter). Only pieces in one group can ever see
/// each other while the walls stand.
#[inline]
#[must_use]
pub fn segment_groups(pieces: u32, walls: u32, any: bool) -> u32 {
    let mut rest = pieces;
    let mut n = 0;
    while rest != 0 {
        rest &= !segment_group(pieces, walls, rest & rest.wrapping_neg(), any);
        n += 1;
    }
    n
}

/// [`line_span`] of each square, the square itself left out (`LINES[0]` ranks and files,
/// `LINES[1]` also the diagonals), as a table: the enemy-sight bounds look it up for every
/// piece at every node they run.
static LINES: [[u32; 32]; 2] = {
    let mut t = [[0u32; 32]; 2];
    let mut sq = 0;
    while sq < 32 {
        let (f, r) = ((sq % 4) as i32, (sq / 4) as i32);
        let mut other = 0;
        while other < 32 {
            let (g, s) = ((other % 4) as i32, (other / 4) as i32);
            if other != sq {
                let straight = f == g || r == s;
                let diagonal = (f - g) == (r - s) || (f - g) == (s - r);
                if straight {
                    t[0][sq] |= 1 << other;
                }
                if straight || diagonal {
                    t[1][sq] |= 1 << other;
                }
            }
            other += 1;
        }
        sq += 1;
    }
    t
};

/// With enemy sight, the pieces of `pieces` that can never be removed, and the others, which
/// may be (`(fixed, able)`), `others` being the other side's pieces: a piece with no friend
/// on any of its lines of friendly sight can never see one, and a piece with no enemy on any
/// of its eight lines can never see one (pieces only leave the board). Whether an able piece
/// ever goes depends on play.
#[inline]
#[must_use]
pub fn fixed_and_able<V: Variant>(pieces: u32, others: u32) -> (u32, u32) {
    let mut fixed = 0;
    let mut rest = pieces;
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if LINES[usize::from(V::ANY)][sq] & pieces == 0 || LINES[1][sq] & others == 0 {
            fixed |= 1 << sq;
        }
    }
    (fixed, pieces & !fixed)
}

/// With enemy sight, the pieces of `me` that keep seeing an enemy piece for the rest of the
/// game, given that `opp` can lose at most `moves` more pieces (see [`most_lost`]). Looking
/// from a piece along each of the eight directions, up to the first piece of `me`, the pieces
/// met are pieces of `opp`; pieces only leave, so they stay the first met (the ray only grows
/// when `me` removes that first piece of its own). The
/// piece is blinded only once all of them are gone: that cannot happen when there are more
/// than `moves` of them, and never happens when one of them can never be removed
/// (`fixed_opp`, see [`fixed_and_able`]).
#[inline]
#[must_use]
pub fn surely_sighted(me: u32, opp: u32, fixed_opp: u32, moves: u32) -> u32 {
    let open = !me;
    let mut out = 0;
    let mut rest = me;
    while rest != 0 {
        let p = rest & rest.wrapping_neg();
        rest &= rest - 1;
        let mut seen = 0;
        for dir in ALL_DIRS {
            seen |= fill(p, open, dir);
        }
        seen &= opp;
        if seen & fixed_opp != 0 || seen.count_ones() > moves {
            out |= p;
        }
    }
    out
}

/// The most removals (moves) `pieces` can make while the other side's pieces `walls` stand,
/// with enemy sight: as [`most_moves`], and in each group no more than the pieces of `able`
/// in it (see [`fixed_and_able`]), since only those can ever be removed. A pair removes two
/// pieces, so the bound holds for moves with pairs too.
#[inline]
#[must_use]
pub fn most_moves_able<V: Variant>(pieces: u32, walls: u32, able: u32) -> u32 {
    sum_over_groups::<V>(pieces, walls, |g| {
        (g.count_ones() - 1).min((g & able).count_ones())
    })
}

/// `count` summed over the groups of `pieces` (see [`segment_group`]) while `walls` stand.
#[inline]
fn sum_over_groups<V: Variant>(pieces: u32, walls: u32, count: impl Fn(u32) -> u32) -> u32 {
    let mut rest = pieces;
    let mut n = 0;
    while rest != 0 {
        let g = segment_group(pieces, walls, rest & rest.wrapping_neg(), V::ANY);
        rest &= !g;
        n += count(g);
    }
    n
}

/// The most pieces `pieces` can lose (with enemy sight, `able` those that can ever be
/// removed): as [`most_moves_able`] with single removals, where each group keeps its last
/// piece; with pairs a group of two can go in one move, so every able piece of a group of
/// two or more may go.
#[inline]
#[must_use]
pub fn most_lost<V: Variant>(pieces: u32, able: u32) -> u32 {
    if !V::PAIR {
        return most_moves_able::<V>(pieces, 0, able);
    }
    sum_over_groups::<V>(pieces, 0, |g| {
        if g.count_ones() >= 2 {
            (g & able).count_ones()
        } else {
            0
        }
    })
}

/// The pieces of `me` that see a friend (along the lines of friendly sight), whatever they
/// see of the enemy: the kernel's removable pieces without enemy sight.
#[inline]
#[must_use]
pub fn sees_friend<V: Variant>(me: u32, opp: u32) -> u32 {
    RuleSet {
        enemy_sight: false,
        ..V::RULES
    }
    .removable(me, opp)
}

/// The groups of two or more `own` pieces joined by sight, found from `seeds` (the pieces
/// that see a friend). Returns how many were written to `out`.
#[inline]
pub fn sight_groups(own: u32, seeds: u32, empty: u32, any: bool, out: &mut [u32; 16]) -> usize {
    // Along a line, own pieces with only empty squares and own pieces between them are
    // joined by a chain of sight: spreading over both finds a whole line's worth at once.
    let open = empty | own;
    let mut rest = seeds;
    let mut n = 0;
    while rest != 0 {
        let mut group = rest & rest.wrapping_neg();
        loop {
            let next = own & spread(group, open, any);
            if next == group {
                break;
            }
            group = next;
        }
        rest &= !group;
        out[n] = group;
        n += 1;
    }
    n
}

/// The groups of two or more pieces of one side joined by sight.
///
/// Sight between two own pieces can only end when one of them is removed (the opponent
/// removes only its own pieces, and removals only empty squares). So in a group all pieces
/// but the ones chosen to stay (at least one) can be removed, whatever the opponent does:
/// leaves of a spanning tree first; when only staying pieces are leaves, any other piece
/// (it still sees a tree neighbour), after which every part still holds a staying piece.
/// With enemy sight a piece must also keep seeing an enemy, which an enemy that leaves can
/// take away: there only the pieces [`surely_sighted`] count, the others stay (`keep`).
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
        // With enemy sight a piece that sees a friend but no enemy is not removable now,
        // yet belongs to its group all the same.
        let seeds = if V::ENEMY {
            sees_friend::<V>(me, opp)
        } else {
            r_me
        };
        let n = sight_groups(me, seeds, e, V::ANY, &mut groups);
        SightGroups {
            n,
            groups,
            lone: me & !seeds,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::sees_along;

    /// A square-by-square walk, for checking the fills.
    fn walk_seen(t: u32, e: u32, dirs: &[(i32, i32)]) -> u32 {
        let mut out = 0;
        for sq in 0..32 {
            for &(df, dr) in dirs {
                let (mut f, mut r) = (sq % 4, sq / 4);
                loop {
                    f += df;
                    r += dr;
                    if !(0..4).contains(&f) || !(0..8).contains(&r) {
                        break;
                    }
                    let s = r * 4 + f;
                    if e >> s & 1 == 0 {
                        if t >> s & 1 == 1 {
                            out |= 1 << sq;
                        }
                        break;
                    }
                }
            }
        }
        out
    }

    const ORTH: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    const DIAG: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

    fn boards() -> impl Iterator<Item = (u32, u32)> {
        let mut x = 0x1234_5678_9abc_def1u64;
        (0..4000).map(move |i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = (x as u32) | ((x >> 32) as u32) & if i % 2 == 0 { 0 } else { !0 };
            let t = occ & (x >> 17) as u32;
            (t, !occ)
        })
    }

    /// The sight groups grown one hop of sight at a time, square by square.
    fn walk_groups(own: u32, e: u32, dirs: &[(i32, i32)]) -> Vec<u32> {
        let seeds = own & walk_seen(own, e, dirs);
        let mut rest = seeds;
        let mut out = Vec::new();
        while rest != 0 {
            let mut group = rest & rest.wrapping_neg();
            loop {
                let next = group | (own & walk_seen(group, e, dirs));
                if next == group {
                    break;
                }
                group = next;
            }
            rest &= !group;
            out.push(group);
        }
        out
    }

    #[test]
    fn sight_groups_match_a_walk() {
        let all: Vec<(i32, i32)> = ORTH.iter().chain(DIAG.iter()).copied().collect();
        for (t, e) in boards() {
            // `t` as one side, the other occupied squares as the other.
            for (any, dirs) in [(false, &ORTH[..]), (true, &all[..])] {
                let seeds = t & sees_along(t, e, any);
                let mut out = [0; 16];
                let n = sight_groups(t, seeds, e, any, &mut out);
                assert_eq!(out[..n], walk_groups(t, e, dirs)[..], "t={t:#x} e={e:#x}");
            }
        }
    }

    #[test]
    fn between_sees_both_ways_along_a_line() {
        // Each line as its two opposite directions.
        let lines = [
            ((0, 1), (0, -1)),
            ((1, 0), (-1, 0)),
            ((1, 1), (-1, -1)),
            ((-1, 1), (1, -1)),
        ];
        for (t, e) in boards().take(500) {
            for (any, n) in [(false, 2), (true, 4)] {
                let mut want = 0;
                for &(a, b) in &lines[..n] {
                    want |= walk_seen(t, e, &[a]) & walk_seen(t, e, &[b]);
                }
                assert_eq!(between(t, e, any), want, "t={t:#x} e={e:#x}");
            }
        }
    }

    #[test]
    fn the_line_table_is_line_span_of_each_square() {
        for any in [false, true] {
            for (sq, &lines) in LINES[usize::from(any)].iter().enumerate() {
                let bit = 1u32 << sq;
                assert_eq!(lines, line_span(bit, any) & !bit, "{sq}");
            }
        }
    }

    #[test]
    fn spans() {
        assert_eq!(rank_span(1 << 5), 0xF0);
        assert_eq!(file_span(1 << 5), 0x2222_2222);
        assert_eq!(diagonal_span(1), 1 | (1 << 5) | (1 << 10) | (1 << 15));
    }

    #[test]
    fn groups() {
        // a1, a5, c5: one line group (a-file, rank 5); sight needs empties between.
        let x = 1 | (1 << 16) | (1 << 18);
        assert_eq!(line_groups(x, false), 1);
        let mut out = [0; 16];
        assert_eq!(sight_groups(x, x, !x, false, &mut out), 1);
        assert_eq!(out[0], x);
        // a blocker on b5 cuts a5 from c5.
        assert_eq!(sight_groups(x, x, !(x | 1 << 17), false, &mut out), 2);
        assert_eq!(segment_groups(x, 1 << 17, false), 2);
        assert_eq!(segment_groups(x, 1 << 8, false), 2);
        assert_eq!(line_groups(1 | (1 << 5), false), 2);
        assert_eq!(line_groups(1 | (1 << 5), true), 1);
    }
}
