//! Sight on the 4×8 board with 32-bit sets: bit `rank * 4 + file`, a1 = bit 0, d8 = bit 31.
//!
//! Everything here is branch-free set arithmetic ("occluded fills"): the squares from which a
//! line through empty squares reaches a set of pieces are found with a few shifts and masks,
//! without walking square by square. These are the hot loops of the solvers.

/// Squares of file a.
pub const FILE_A: u32 = 0x1111_1111;
/// Squares of file d.
pub const FILE_D: u32 = 0x8888_8888;
const NOT_A: u32 = !FILE_A;
const NOT_D: u32 = !FILE_D;

/// `g` spread north through the squares of `e` (each square of the result is in `g` or is
/// reached from `g` by steps north over squares of `e`).
#[inline(always)]
fn fill_n(mut g: u32, mut p: u32) -> u32 {
    g |= p & (g << 4);
    p &= p << 4;
    g |= p & (g << 8);
    p &= p << 8;
    g |= p & (g << 16);
    g
}

#[inline(always)]
fn fill_s(mut g: u32, mut p: u32) -> u32 {
    g |= p & (g >> 4);
    p &= p >> 4;
    g |= p & (g >> 8);
    p &= p >> 8;
    g |= p & (g >> 16);
    g
}

#[inline(always)]
fn fill_e(mut g: u32, p: u32) -> u32 {
    let mut p = p & NOT_A;
    g |= p & (g << 1);
    p &= p << 1;
    g |= p & (g << 2);
    g
}

#[inline(always)]
fn fill_w(mut g: u32, p: u32) -> u32 {
    let mut p = p & NOT_D;
    g |= p & (g >> 1);
    p &= p >> 1;
    g |= p & (g >> 2);
    g
}

#[inline(always)]
fn fill_ne(mut g: u32, p: u32) -> u32 {
    let mut p = p & NOT_A;
    g |= p & (g << 5);
    p &= p << 5;
    g |= p & (g << 10);
    g
}

#[inline(always)]
fn fill_nw(mut g: u32, p: u32) -> u32 {
    let mut p = p & NOT_D;
    g |= p & (g << 3);
    p &= p << 3;
    g |= p & (g << 6);
    g
}

#[inline(always)]
fn fill_se(mut g: u32, p: u32) -> u32 {
    let mut p = p & NOT_A;
    g |= p & (g >> 3);
    p &= p >> 3;
    g |= p & (g >> 6);
    g
}

#[inline(always)]
fn fill_sw(mut g: u32, p: u32) -> u32 {
    let mut p = p & NOT_D;
    g |= p & (g >> 5);
    p &= p >> 5;
    g |= p & (g >> 10);
    g
}

/// The squares from which the first piece met looking orthogonally (N, S, E or W, over
/// empty squares only) belongs to `t`. `e` is the set of empty squares.
#[inline(always)]
#[must_use]
pub fn seen_orthogonal(t: u32, e: u32) -> u32 {
    // Looking south meets t: flood t north, one more step north.
    (fill_n(t, e) << 4)
        | (fill_s(t, e) >> 4)
        | ((fill_e(t, e) & NOT_D) << 1)
        | ((fill_w(t, e) & NOT_A) >> 1)
}

/// The squares that see `t` in both directions along some line (ranks and files, with `any`
/// also diagonals): removing a piece there lets two pieces of `t` see each other.
#[inline(always)]
#[must_use]
pub fn between(t: u32, e: u32, any: bool) -> u32 {
    let mut b = ((fill_n(t, e) << 4) & (fill_s(t, e) >> 4))
        | (((fill_e(t, e) & NOT_D) << 1) & ((fill_w(t, e) & NOT_A) >> 1));
    if any {
        b |= ((fill_ne(t, e) & NOT_D) << 5) & ((fill_sw(t, e) & NOT_A) >> 5);
        b |= ((fill_nw(t, e) & NOT_A) << 3) & ((fill_se(t, e) & NOT_D) >> 3);
    }
    b
}

/// As [`seen_orthogonal`] for the four diagonal directions.
#[inline(always)]
#[must_use]
pub fn seen_diagonal(t: u32, e: u32) -> u32 {
    ((fill_ne(t, e) & NOT_D) << 5)
        | ((fill_nw(t, e) & NOT_A) << 3)
        | ((fill_se(t, e) & NOT_D) >> 3)
        | ((fill_sw(t, e) & NOT_A) >> 5)
}

/// As [`seen_orthogonal`] for all eight directions.
#[inline(always)]
#[must_use]
pub fn seen_all(t: u32, e: u32) -> u32 {
    seen_orthogonal(t, e) | seen_diagonal(t, e)
}

/// The squares seeing `t` along the friendly-sight directions (`any`: all eight, else the
/// orthogonal four).
#[inline(always)]
#[must_use]
pub fn seen(t: u32, e: u32, any: bool) -> u32 {
    if any {
        seen_all(t, e)
    } else {
        seen_orthogonal(t, e)
    }
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
    fill_ne(x, !0) | fill_sw(x, !0) | fill_nw(x, !0) | fill_se(x, !0)
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
    let s = fill_n(g, p) | fill_s(g, p) | fill_e(g, p) | fill_w(g, p);
    if any {
        s | fill_ne(g, p) | fill_nw(g, p) | fill_se(g, p) | fill_sw(g, p)
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

/// Rays from each square in the four "increasing" directions N, E, NE, NW (the squares
/// beyond it, nearest first in increasing bit order).
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

/// The square mirrored left-right (file a ↔ d).
#[inline(always)]
#[must_use]
pub fn mirror_files(x: u32) -> u32 {
    ((x & FILE_A) << 3)
        | ((x & (FILE_A << 1)) << 1)
        | ((x >> 1) & (FILE_A << 1))
        | ((x & FILE_D) >> 3)
}

/// The board mirrored top-bottom (rank 1 ↔ 8).
#[inline(always)]
#[must_use]
pub fn mirror_ranks(x: u32) -> u32 {
    let x = x.rotate_left(16);
    let x = ((x & 0x00FF_00FF) << 8) | ((x >> 8) & 0x00FF_00FF);
    ((x & 0x0F0F_0F0F) << 4) | ((x >> 4) & 0x0F0F_0F0F)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn fills_match_a_walk() {
        for (t, e) in boards() {
            assert_eq!(
                seen_orthogonal(t, e),
                walk_seen(t, e, &ORTH),
                "t={t:#x} e={e:#x}"
            );
            assert_eq!(
                seen_diagonal(t, e),
                walk_seen(t, e, &DIAG),
                "t={t:#x} e={e:#x}"
            );
        }
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
                let seeds = t & seen(t, e, any);
                let mut out = [0; 16];
                let n = sight_groups(t, seeds, e, any, &mut out);
                assert_eq!(out[..n], walk_groups(t, e, dirs)[..], "t={t:#x} e={e:#x}");
            }
        }
    }

    #[test]
    fn spans_and_mirrors() {
        assert_eq!(rank_span(1 << 5), 0xF0);
        assert_eq!(file_span(1 << 5), 0x2222_2222);
        assert_eq!(mirror_files(1), 8);
        assert_eq!(mirror_files(0x2), 0x4);
        assert_eq!(mirror_ranks(1), 1 << 28);
        assert_eq!(mirror_ranks(1 << 6), 1 << 26);
        for (t, _) in boards().take(100) {
            assert_eq!(mirror_files(mirror_files(t)), t);
            assert_eq!(mirror_ranks(mirror_ranks(t)), t);
            assert_eq!(t.count_ones(), mirror_files(t).count_ones());
        }
        // a1 sees up the file to a8, up the rank to d1, up the diagonal to d4.
        assert_eq!(RAYS_UP[0][0], 0x1111_1110);
        assert_eq!(RAYS_UP[1][0], 0xE);
        assert_eq!(RAYS_UP[2][0], (1 << 5) | (1 << 10) | (1 << 15));
        assert_eq!(RAYS_UP[3][3], (1 << 6) | (1 << 9) | (1 << 12));
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
