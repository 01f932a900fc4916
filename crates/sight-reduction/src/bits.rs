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
