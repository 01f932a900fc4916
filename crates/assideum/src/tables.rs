//! Precomputed bit-set tables for the 8×8 board: bit `rank * 8 + file`, a1 = bit 0, h8 = bit 63.
//!
//! Every table is built at compile time by `const fn`s, so nothing is initialised at run time.

/// A square index 0…63 (`a1` = 0, `b1` = 1, …, `h8` = 63).
pub type Square = u8;

/// The eight directions as (file step, rank step): N, NE, E, SE, S, SW, W, NW (clockwise from
/// north). Facing `f` (0 N, 1 E, 2 S, 3 W) is direction `2 * f`.
pub const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// Whether walking in direction `d` increases the square index (then the nearest square of a
/// ray is its lowest bit).
#[inline(always)]
#[must_use]
pub const fn increasing(d: usize) -> bool {
    matches!(d, 0 | 1 | 2 | 7)
}

/// File 0…7 of a square.
#[inline(always)]
#[must_use]
pub const fn file(s: Square) -> i32 {
    (s & 7) as i32
}

/// Rank 0…7 of a square.
#[inline(always)]
#[must_use]
pub const fn rank(s: Square) -> i32 {
    (s >> 3) as i32
}

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 8 && r >= 0 && r < 8
}

const fn bit_at(f: i32, r: i32) -> u64 {
    1u64 << (r * 8 + f)
}

/// Turns an offset a quarter turn clockwise `turns` times: (x, y) → (y, −x).
#[inline(always)]
#[must_use]
pub const fn rotate(dx: i32, dy: i32, turns: u8) -> (i32, i32) {
    match turns & 3 {
        0 => (dx, dy),
        1 => (dy, -dx),
        2 => (-dx, -dy),
        _ => (-dy, dx),
    }
}

const fn make_king() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let (f, r) = ((s & 7) as i32, (s >> 3) as i32);
        let mut d = 0;
        while d < 8 {
            let (x, y) = (f + DIRS[d].0, r + DIRS[d].1);
            if on_board(x, y) {
                t[s] |= bit_at(x, y);
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// The eight neighbours of each square.
pub static KING: [u64; 64] = make_king();

const fn make_ved() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let dy = if c == 0 { 1 } else { -1 };
        let mut s = 0;
        while s < 64 {
            let (f, r) = ((s & 7) as i32, (s >> 3) as i32);
            let mut dx = -1;
            while dx <= 1 {
                if on_board(f + dx, r + dy) {
                    t[c][s] |= bit_at(f + dx, r + dy);
                }
                dx += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

/// The three forward squares of an unpromoted Ved'rin of colour `c` (0 White, 1 Black). By
/// symmetry `VED[1 - c][s]` are the squares from which a Ved'rin of colour `c` attacks `s`.
pub static VED: [[u64; 64]; 2] = make_ved();

const fn make_rays() -> [[u64; 64]; 8] {
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 64 {
            let (mut x, mut y) = ((s & 7) as i32 + DIRS[d].0, (s >> 3) as i32 + DIRS[d].1);
            while on_board(x, y) {
                t[d][s] |= bit_at(x, y);
                x += DIRS[d].0;
                y += DIRS[d].1;
            }
            s += 1;
        }
        d += 1;
    }
    t
}

/// The squares from `s` in direction `d` to the edge (`s` excluded).
pub static RAY: [[u64; 64]; 8] = make_rays();

const fn make_between() -> [[u64; 64]; 64] {
    let mut t = [[0u64; 64]; 64];
    let mut s = 0;
    while s < 64 {
        let mut d = 0;
        while d < 8 {
            let (mut x, mut y) = ((s & 7) as i32 + DIRS[d].0, (s >> 3) as i32 + DIRS[d].1);
            let mut acc = 0u64;
            while on_board(x, y) {
                t[s][(y * 8 + x) as usize] = acc;
                acc |= bit_at(x, y);
                x += DIRS[d].0;
                y += DIRS[d].1;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// The squares strictly between two squares on one line (0 when not on a line or adjacent).
pub static BETWEEN: [[u64; 64]; 64] = make_between();

const fn make_lines() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut s = 0;
    while s < 64 {
        let mut d = 0;
        while d < 8 {
            t[s] |= RAYS_CONST[d][s];
            d += 1;
        }
        s += 1;
    }
    t
}

const RAYS_CONST: [[u64; 64]; 8] = make_rays();

/// Every square on a line (rank, file or diagonal) with `s`, `s` excluded.
pub static LINES: [u64; 64] = make_lines();

const fn make_zones() -> [[u64; 4]; 64] {
    let mut t = [[0u64; 4]; 64];
    let mut s = 0;
    while s < 64 {
        let (f, r) = ((s & 7) as i32, (s >> 3) as i32);
        let mut face = 0;
        while face < 4 {
            let fwd = DIRS[2 * face];
            let right = rotate(fwd.0, fwd.1, 1);
            let mut depth = -1;
            while depth <= 3 {
                let mut side = -1;
                while side <= 1 {
                    let x = f + fwd.0 * depth + right.0 * side;
                    let y = r + fwd.1 * depth + right.1 * side;
                    if on_board(x, y) {
                        t[s][face] |= bit_at(x, y);
                    }
                    side += 1;
                }
                depth += 1;
            }
            face += 1;
        }
        s += 1;
    }
    t
}

/// The flight zone of a Portal on `s` facing `f`: side offsets −1…+1, depth −1…+3, clipped.
pub static ZONE: [[u64; 4]; 64] = make_zones();

const fn make_lanes() -> [[[u64; 8]; 64]; 4] {
    let mut t = [[[0u64; 8]; 64]; 4];
    let mut face = 0;
    while face < 4 {
        let (dx, dy) = DIRS[2 * face];
        let mut s = 0;
        while s < 64 {
            let mut n = 1;
            while n < 8 {
                let mut acc = 0u64;
                let mut i = 1;
                while i <= n {
                    let (x, y) = ((s & 7) as i32 + dx * i, (s >> 3) as i32 + dy * i);
                    if on_board(x, y) {
                        acc |= bit_at(x, y);
                    }
                    i += 1;
                }
                t[face][s][n as usize] = acc;
                n += 1;
            }
            s += 1;
        }
        face += 1;
    }
    t
}

/// `LANE[f][s][n]`: the first `n` squares ahead of `s` facing `f` (a Ranger's fire lane).
pub static LANE: [[[u64; 8]; 64]; 4] = make_lanes();

/// Rank 8 (White's far rank) and rank 1 (Black's far rank).
pub const FAR_RANK: [u64; 2] = [0xFF00_0000_0000_0000, 0x0000_0000_0000_00FF];

/// The square of the ray's first set bit nearest to its origin.
#[inline(always)]
#[must_use]
pub fn nearest(d: usize, bits: u64) -> Square {
    debug_assert!(bits != 0);
    if increasing(d) {
        bits.trailing_zeros() as Square
    } else {
        (63 - bits.leading_zeros()) as Square
    }
}

/// Squares reached from `s` sliding in direction `d` over empty squares, including the first
/// occupied square.
#[inline(always)]
#[must_use]
pub fn slide(d: usize, s: Square, occ: u64) -> u64 {
    let ray = RAY[d][s as usize];
    let blockers = ray & occ;
    if blockers == 0 {
        ray
    } else {
        ray ^ RAY[d][nearest(d, blockers) as usize]
    }
}

/// Orthogonal sliding reach (Striker).
#[inline]
#[must_use]
pub fn rook(s: Square, occ: u64) -> u64 {
    slide(0, s, occ) | slide(2, s, occ) | slide(4, s, occ) | slide(6, s, occ)
}

/// Diagonal sliding reach.
#[inline]
#[must_use]
pub fn bishop(s: Square, occ: u64) -> u64 {
    slide(1, s, occ) | slide(3, s, occ) | slide(5, s, occ) | slide(7, s, occ)
}

/// Where a carried Fighter on `q` goes when its Portal moves from `from` to `to` turning
/// `turns` quarter turns clockwise: the old offset turned, each coordinate clamped onto the
/// board.
#[inline]
#[must_use]
pub fn relocate(from: Square, to: Square, q: Square, turns: u8) -> Square {
    let (dx, dy) = rotate(file(q) - file(from), rank(q) - rank(from), turns);
    let x = (file(to) + dx).clamp(0, 7);
    let y = (rank(to) + dy).clamp(0, 7);
    (y * 8 + x) as Square
}

/// Iterates over the squares of a bit set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let s = self.0.trailing_zeros() as Square;
            self.0 &= self.0 - 1;
            Some(s)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zone_of_b5_facing_east_is_a_to_e_on_ranks_4_to_6() {
        // b5 = file 1, rank 4.
        let z = ZONE[33][1];
        let mut want = 0u64;
        for f in 0..5 {
            for r in 3..6 {
                want |= 1 << (r * 8 + f);
            }
        }
        assert_eq!(z, want);
        assert_eq!(ZONE[28][0].count_ones(), 15); // e4 facing N: d3..f7
        assert_eq!(ZONE[1][0].count_ones(), 12); // b1 facing N, clipped
    }

    #[test]
    fn relocation_turns_and_clamps() {
        // e6 relative to b5 facing E, Portal steps to a4 and turns to N (3 clockwise turns).
        assert_eq!(relocate(33, 24, 44, 3), 48); // a7
        assert_eq!(relocate(33, 24, 44, 0), 35); // d5
    }

    #[test]
    fn between_and_lines() {
        assert_eq!(BETWEEN[0][63].count_ones(), 6);
        assert_eq!(BETWEEN[0][1], 0);
        assert_eq!(BETWEEN[0][10], 0);
        assert_eq!(LINES[0] >> 10 & 1, 0);
        assert_eq!(LANE[0][3][3], (1 << 11) | (1 << 19) | (1 << 27));
    }
}
