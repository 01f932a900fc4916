//! The 4×8 board as a 32-bit set: bit `rank * 4 + file`, a1 = bit 0, d8 = bit 31.

pub const FILE_A: u32 = 0x1111_1111;
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
/// is in `targets`. Works by flooding from `targets` in the opposite direction through empty
/// squares, then one more step.
#[inline(always)]
#[must_use]
pub fn sees(targets: u32, empty: u32, dir: Dir) -> u32 {
    let back = opposite(dir);
    let mut fill = targets;
    let mut front = shift(targets, back) & empty;
    while front != 0 {
        fill |= front;
        front = shift(front, back) & empty;
    }
    shift(fill, back)
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

/// The squares from which some piece of `targets` is the first piece met along one of `dirs`.
#[inline(always)]
#[must_use]
pub fn sees_any(targets: u32, empty: u32, dirs: &[Dir]) -> u32 {
    let mut out = 0;
    for &d in dirs {
        out |= sees(targets, empty, d);
    }
    out
}

/// The first occupied square strictly beyond `sq` in `dir`, if any.
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

/// The `n`-th (from 0) set bit of `x`, which must have more than `n` set bits.
#[inline(always)]
#[must_use]
pub fn nth_bit(mut x: u32, mut n: u32) -> u8 {
    debug_assert!(x.count_ones() > n);
    let mut base = 0u8;
    loop {
        let low = (x & 0xFF).count_ones();
        if n < low {
            break;
        }
        n -= low;
        x >>= 8;
        base += 8;
    }
    for _ in 0..n {
        x &= x - 1;
    }
    base + x.trailing_zeros() as u8
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
    fn shifts_do_not_wrap_between_ranks() {
        let d1 = 1u32 << 3;
        assert_eq!(shift(d1, Dir::E), 0);
        assert_eq!(shift(1, Dir::W), 0);
        assert_eq!(shift(1 << 31, Dir::N), 0);
        assert_eq!(shift(d1, Dir::NW), 1 << 6);
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
