//! Board geometry for the three sizes, computed at compile time.
//!
//! A square is `rank * n + file` (a1 = 0), so a board of up to 11×11 = 121 squares is one
//! `u128` bit set. Targets are numbered 0, 1, … in the same square order (a1, b1, …, a2, …),
//! so a set of targets is a `u32`.

/// A square index `rank * n + file`.
pub type Square = u8;

/// "No square" (no anchor).
pub const NO_SQUARE: Square = u8::MAX;

/// The eight directions as (file step, rank step). The first four have a positive index
/// step (the nearest square of a ray is its lowest bit), the last four a negative one.
pub const DIRS: [(i8, i8); 8] = [
    (0, 1),   // N
    (1, 0),   // E
    (1, 1),   // NE
    (-1, 1),  // NW
    (0, -1),  // S
    (-1, 0),  // W
    (-1, -1), // SW
    (1, -1),  // SE
];

/// What kind of square a square is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// File and rank both even: diagonally next to targets.
    Dark,
    /// Exactly one of file and rank odd: orthogonally next to a target.
    Light,
    /// File and rank both odd.
    Target,
}

/// A light square's place on one of the lines along which it sees other light squares (see
/// [`Geometry::light_lines`]): enough to look up how many light squares it sees along the
/// line from the line's occupancy word (see [`Geometry::line_start`] and [`SECONDS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineSpot {
    /// The line.
    pub line: u8,
    /// The token bits of the line's word (bits 1 ..= length).
    pub mask: u16,
    /// Where the square's entries start in [`SECONDS`]: the table for the kind of line, its
    /// length's block, plus the square's position on the line.
    pub base: u32,
}

impl LineSpot {
    const NONE: LineSpot = LineSpot {
        line: 0,
        mask: 0,
        base: 0,
    };

    /// `all_light`: every square of the line is light (else dark and light alternate).
    const fn new(line: u8, all_light: bool, pos: u8, len: u8) -> LineSpot {
        LineSpot {
            line,
            mask: ((1u32 << len) - 1) as u16,
            base: if all_light { SECONDS_HALF } else { 0 } + seconds_block(len) + pos as u32,
        }
    }

    /// How many light squares at distance two or more the square sees along the line, given
    /// the line's occupancy word.
    #[inline(always)]
    #[must_use]
    pub fn seconds(self, word: u16) -> u32 {
        let tokens = u32::from(word >> 1 & self.mask);
        u32::from(SECONDS[(self.base + (tokens << 4)) as usize & (2 * SECONDS_HALF as usize - 1)])
    }
}

/// Where the block of lines of length `len` starts in [`SECONDS`]: blocks of `2^len · 16`
/// entries, one row of 16 per token pattern.
const fn seconds_block(len: u8) -> u32 {
    16 * ((1 << len) - 2)
}

/// Where the table for lines of light squares starts in [`SECONDS`]: a power of two at least
/// as large as the blocks for line lengths 1 to 11.
const SECONDS_HALF: u32 = 1 << 16;
const _: () = assert!(seconds_block(12) <= SECONDS_HALF);

/// `SECONDS[t · 2^16 + seconds_block(len) + tokens · 16 + pos]`: on a line of `len` squares
/// holding tokens at the positions set in `tokens`, how many light squares at distance two or
/// more the empty square at `pos` sees along the line. Table `t` = 0 is for lines of
/// alternating dark and light squares (light squares at even distances), `t` = 1 for lines
/// of light squares.
pub static SECONDS: [u8; 2 * SECONDS_HALF as usize] = {
    let mut out = [0u8; 2 * SECONDS_HALF as usize];
    let mut len = 1u8;
    while len <= 11 {
        let mut tokens = 0u32;
        while tokens < 1 << len {
            // A sentinel token just past each end.
            let w = (tokens << 1) | 1 | 1 << (len + 1);
            let mut pos = 0u8;
            while pos < len {
                let b = pos as u32 + 1;
                let up = (w >> (b + 1)).trailing_zeros();
                let down = (w << (32 - b)).leading_zeros();
                let i = (seconds_block(len) + (tokens << 4) + pos as u32) as usize;
                out[i] = (up / 2 + down / 2) as u8;
                out[SECONDS_HALF as usize + i] =
                    (up.saturating_sub(1) + down.saturating_sub(1)) as u8;
                pos += 1;
            }
            tokens += 1;
        }
        len += 1;
    }
    out
};

/// Every fixed fact about one board size.
#[derive(Debug)]
pub struct Geometry {
    /// Side length.
    pub n: u8,
    /// Number of squares, `n * n`.
    pub cells: u8,
    /// Number of targets.
    pub targets: u8,
    /// Target index → square.
    pub target_square: [Square; 25],
    /// Square → target index, or [`NO_SQUARE`].
    pub target_index: [u8; 128],
    /// All squares of the board.
    pub board: u128,
    /// Dark squares.
    pub dark: u128,
    /// Light squares.
    pub light: u128,
    /// Target squares.
    pub target_mask: u128,
    /// Dark and light squares: where influence tokens go.
    pub placement: u128,
    /// `rays[d][sq]`: the squares beyond `sq` in direction `DIRS[d]`, up to the edge (empty
    /// for the unused indices up to 127, which serve as "no square").
    pub rays: [[u128; 128]; 8],
    /// The (up to 8) neighbours of each square.
    pub neighbours: [u128; 128],
    /// The targets next to each square (up to 4), and how many there are.
    pub adjacent_targets: [[u8; 4]; 128],
    pub adjacent_count: [u8; 128],
    /// The kind of each square.
    pub kinds: [Kind; 128],
    /// Number of lines: n ranks, n files, 2n − 1 diagonals, 2n − 1 anti-diagonals.
    pub line_count: u8,
    /// `line_id[sq]`: the square's rank, file, diagonal and anti-diagonal.
    pub line_id: [[u8; 4]; 128],
    /// `line_bit[sq]`: the square's bit in the occupancy word of each of those lines.
    pub line_bit: [[u16; 4]; 128],
    /// `line_pos[sq]`: the index of that bit (the position on the line plus one).
    pub line_pos: [[u8; 4]; 128],
    /// Each line's occupancy word before any token: bit p + 1 for the square at position p
    /// (counted from the low-file end) when it is a target, plus a sentinel bit at each end.
    pub line_start: [u16; 64],
    /// For a light square, which of its lines (0 rank, 1 file) runs through dark and light
    /// squares in turn; the other one meets targets at once.
    pub alternating: [u8; 128],
    /// For a light square, the lines along which it can see light squares: the alternating
    /// line, the diagonal and the anti-diagonal.
    pub light_lines: [[LineSpot; 3]; 128],
}

impl Geometry {
    /// The geometry of an `n`×`n` board (`n` odd, 3 ≤ n ≤ 11).
    #[must_use]
    pub const fn new(n: u8) -> Geometry {
        let cells = n * n;
        let mut g = Geometry {
            n,
            cells,
            targets: 0,
            target_square: [NO_SQUARE; 25],
            target_index: [NO_SQUARE; 128],
            board: 0,
            dark: 0,
            light: 0,
            target_mask: 0,
            placement: 0,
            rays: [[0; 128]; 8],
            neighbours: [0; 128],
            adjacent_targets: [[0; 4]; 128],
            adjacent_count: [0; 128],
            kinds: [Kind::Target; 128],
            line_count: 6 * n - 2,
            line_id: [[0; 4]; 128],
            line_bit: [[0; 4]; 128],
            line_pos: [[0; 4]; 128],
            line_start: [0; 64],
            alternating: [0; 128],
            light_lines: [[LineSpot::NONE; 3]; 128],
        };
        let mut sq = 0u8;
        while sq < cells {
            let (f, r) = (sq % n, sq / n);
            let bit = 1u128 << sq;
            g.board |= bit;
            // Lines: rank r, file f, diagonal f − r, anti-diagonal f + r; positions grow with
            // the file (with the rank on a file).
            let d = f as i32 - r as i32;
            let (diag_pos, diag_len) = if d >= 0 {
                (r, n - d as u8)
            } else {
                (f, n - (-d) as u8)
            };
            let a = f + r;
            let (anti_pos, anti_len) = if a < n {
                (f, a + 1)
            } else {
                (f - (a - n + 1), 2 * n - 1 - a)
            };
            let ids = [r, n + f, 2 * n + (d + n as i32 - 1) as u8, 4 * n - 1 + a];
            let pos = [f, r, diag_pos, anti_pos];
            let lens = [n, n, diag_len, anti_len];
            let mut k = 0;
            while k < 4 {
                g.line_id[sq as usize][k] = ids[k];
                g.line_bit[sq as usize][k] = 1 << (pos[k] + 1);
                g.line_pos[sq as usize][k] = pos[k] + 1;
                g.line_start[ids[k] as usize] |= 1 | 1 << (lens[k] + 1);
                k += 1;
            }
            if f % 2 == 1 && r % 2 == 1 {
                g.kinds[sq as usize] = Kind::Target;
                let mut k = 0;
                while k < 4 {
                    g.line_start[ids[k] as usize] |= 1 << (pos[k] + 1);
                    k += 1;
                }
                g.target_mask |= bit;
                g.target_square[g.targets as usize] = sq;
                g.target_index[sq as usize] = g.targets;
                g.targets += 1;
            } else if f % 2 == 0 && r % 2 == 0 {
                g.kinds[sq as usize] = Kind::Dark;
                g.dark |= bit;
            } else {
                g.kinds[sq as usize] = Kind::Light;
                let alt: usize = if r % 2 == 0 { 0 } else { 1 };
                g.alternating[sq as usize] = alt as u8;
                g.light_lines[sq as usize] = [
                    LineSpot::new(ids[alt], false, pos[alt], lens[alt]),
                    LineSpot::new(ids[2], true, pos[2], lens[2]),
                    LineSpot::new(ids[3], true, pos[3], lens[3]),
                ];
                g.light |= bit;
            }
            sq += 1;
        }
        g.placement = g.dark | g.light;
        let mut sq = 0u8;
        while sq < cells {
            let (f, r) = ((sq % n) as i32, (sq / n) as i32);
            let mut d = 0;
            while d < 8 {
                let (df, dr) = (DIRS[d].0 as i32, DIRS[d].1 as i32);
                let (mut x, mut y) = (f + df, r + dr);
                let mut first = true;
                while x >= 0 && y >= 0 && x < n as i32 && y < n as i32 {
                    let s = (y * n as i32 + x) as usize;
                    g.rays[d][sq as usize] |= 1u128 << s;
                    if first {
                        g.neighbours[sq as usize] |= 1u128 << s;
                        let t = g.target_index[s];
                        if t != NO_SQUARE {
                            let c = g.adjacent_count[sq as usize];
                            g.adjacent_targets[sq as usize][c as usize] = t;
                            g.adjacent_count[sq as usize] = c + 1;
                        }
                        first = false;
                    }
                    x += df;
                    y += dr;
                }
                d += 1;
            }
            sq += 1;
        }
        g
    }

    /// The geometry for a supported size (7, 9 or 11).
    ///
    /// # Panics
    /// On another size; options only allow these three.
    #[must_use]
    pub fn of_size(n: u8) -> &'static Geometry {
        match n {
            7 => &GEOMETRY_7,
            9 => &GEOMETRY_9,
            11 => &GEOMETRY_11,
            _ => panic!("unsupported board size {n}"),
        }
    }

    /// The kind of square `sq`.
    #[must_use]
    pub fn kind(&self, sq: Square) -> Kind {
        self.kinds[sq as usize]
    }

    /// The squares seen from `sq` (line of sight): along each of the eight lines, every
    /// square up to and including the first square in `blockers`.
    #[inline]
    #[must_use]
    pub fn sight(&self, sq: Square, blockers: u128) -> u128 {
        let s = sq as usize;
        let mut out = 0;
        let mut d = 0;
        while d < 4 {
            let ray = self.rays[d][s];
            let hit = ray & blockers;
            out |= if hit == 0 {
                ray
            } else {
                ray ^ self.rays[d][hit.trailing_zeros() as usize]
            };
            d += 1;
        }
        while d < 8 {
            let ray = self.rays[d][s];
            let hit = ray & blockers;
            out |= if hit == 0 {
                ray
            } else {
                ray ^ self.rays[d][127 - hit.leading_zeros() as usize]
            };
            d += 1;
        }
        out
    }

    /// The part of ray `d` from `s` up to and including the first square in `blockers`
    /// (directions 0–3, whose nearest square is the lowest bit).
    #[inline(always)]
    fn ray_up(&self, d: usize, s: usize, blockers: u128) -> u128 {
        let ray = self.rays[d][s & 127];
        // Bit 127 is never a square: with no blocker the ray is cut at "square" 127, whose
        // ray is empty.
        let hit = ray & blockers | 1 << 127;
        ray ^ self.rays[d][hit.trailing_zeros() as usize]
    }

    /// As [`Geometry::ray_up`] for directions 4–7, whose nearest square is the highest bit.
    #[inline(always)]
    fn ray_down(&self, d: usize, s: usize, blockers: u128) -> u128 {
        let ray = self.rays[d][s & 127];
        // With no blocker, 127 − 128 wraps to index 127, whose ray is empty.
        let hit = ray & blockers;
        ray ^ self.rays[d][127u32.wrapping_sub(hit.leading_zeros()) as usize & 127]
    }

    /// The same as [`Geometry::sight`] when `blockers` holds every target, looking only
    /// along the lines that are not cut at once by a target: the rank and file of a dark
    /// square, the diagonals and the alternating line of a light square, and just the
    /// neighbours of a target.
    #[inline]
    #[must_use]
    pub fn los(&self, sq: Square, blockers: u128) -> u128 {
        let s = sq as usize & 127;
        match self.kinds[s] {
            Kind::Dark => {
                self.ray_up(0, s, blockers)
                    | self.ray_up(1, s, blockers)
                    | self.ray_down(4, s, blockers)
                    | self.ray_down(5, s, blockers)
            }
            Kind::Light => {
                // Rank (E, W) or file (N, S).
                let (up, down) = if self.alternating[s] == 0 {
                    (1, 5)
                } else {
                    (0, 4)
                };
                self.ray_up(2, s, blockers)
                    | self.ray_up(3, s, blockers)
                    | self.ray_down(6, s, blockers)
                    | self.ray_down(7, s, blockers)
                    | self.ray_up(up, s, blockers)
                    | self.ray_down(down, s, blockers)
            }
            Kind::Target => self.neighbours[s],
        }
    }

    /// The square's name, `a1` style.
    #[must_use]
    pub fn name(&self, sq: Square) -> String {
        boardlab_core::coord::square_name(sq % self.n, sq / self.n)
    }

    /// Parses a square name (case-insensitive).
    #[must_use]
    pub fn parse_square(&self, text: &str) -> Option<Square> {
        boardlab_core::coord::parse_square(text, self.n, self.n).map(|(f, r)| r * self.n + f)
    }
}

/// The 7×7 board.
pub static GEOMETRY_7: Geometry = Geometry::new(7);
/// The 9×9 board.
pub static GEOMETRY_9: Geometry = Geometry::new(9);
/// The 11×11 board.
pub static GEOMETRY_11: Geometry = Geometry::new(11);

/// Iterates the set bits of a `u128`, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits {
    low: u64,
    high: u64,
}

impl Bits {
    /// The set bits of `x`.
    #[inline]
    #[must_use]
    pub fn of(x: u128) -> Bits {
        Bits {
            low: x as u64,
            high: (x >> 64) as u64,
        }
    }
}

impl Iterator for Bits {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.low != 0 {
            let sq = self.low.trailing_zeros() as Square;
            self.low &= self.low - 1;
            Some(sq)
        } else if self.high != 0 {
            let sq = 64 + self.high.trailing_zeros() as Square;
            self.high &= self.high - 1;
            Some(sq)
        } else {
            None
        }
    }
}

/// The `k`-th (from 0) set bit of `x`, which must have more than `k` set bits.
#[inline]
#[must_use]
pub fn nth_bit(mut x: u128, k: u32) -> Square {
    debug_assert!(x.count_ones() > k);
    let low = x as u64;
    if low == 0 {
        x >>= 64;
        return 64 + nth_bit(x, k);
    }
    for _ in 0..k {
        x &= x - 1;
    }
    x.trailing_zeros() as Square
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_counts_and_square_kinds() {
        assert_eq!(GEOMETRY_7.targets, 9);
        assert_eq!(GEOMETRY_9.targets, 16);
        assert_eq!(GEOMETRY_11.targets, 25);
        assert_eq!(GEOMETRY_9.dark.count_ones(), 25);
        assert_eq!(GEOMETRY_9.light.count_ones(), 40);
        let g = &GEOMETRY_9;
        assert_eq!(g.kind(g.parse_square("a1").unwrap()), Kind::Dark);
        assert_eq!(g.kind(g.parse_square("b3").unwrap()), Kind::Light);
        assert_eq!(g.kind(g.parse_square("d4").unwrap()), Kind::Target);
    }

    #[test]
    fn sight_stops_at_blockers() {
        let g = &GEOMETRY_9;
        let sq = |s: &str| g.parse_square(s).unwrap();
        // From c3 along rank 3: b3, a3 west; d3 … i3 east. Column c: c4 … c9 and c2, c1.
        let seen = g.sight(sq("c3"), g.target_mask);
        for s in ["a3", "b3", "d3", "i3", "c1", "c9", "b2", "d4", "b4", "d2"] {
            assert_ne!(seen & (1 << sq(s)), 0, "{s}");
        }
        assert_eq!(seen & (1 << sq("e5")), 0);
        let seen = g.sight(sq("c3"), g.target_mask | 1 << sq("e3"));
        assert_ne!(seen & (1 << sq("e3")), 0);
        assert_eq!(seen & (1 << sq("f3")), 0);
    }

    #[test]
    fn fast_line_of_sight_equals_the_eight_rays() {
        // Pseudo-random token sets; targets always block.
        let mut state = 1u64;
        for g in [&GEOMETRY_7, &GEOMETRY_9, &GEOMETRY_11] {
            for _ in 0..200 {
                let mut tokens = 0u128;
                for sq in 0..g.cells {
                    state = boardlab_core::zobrist::splitmix64(state).1;
                    if state % 3 == 0 {
                        tokens |= 1 << sq;
                    }
                }
                let blockers = (tokens & g.placement) | g.target_mask;
                for sq in 0..g.cells {
                    let free = g.placement & !blockers;
                    assert_eq!(g.los(sq, blockers) & free, g.sight(sq, blockers) & free);
                }
            }
        }
    }

    #[test]
    fn line_words_have_sentinels_and_targets() {
        let g = &GEOMETRY_7;
        // Rank 2 (index 1): targets at b, d, f.
        assert_eq!(g.line_start[1], 1 | 1 << 8 | 1 << 2 | 1 << 4 | 1 << 6);
        // The a7–a7 anti-diagonal... the corner a1 is alone on its anti-diagonal.
        let a1 = g.line_id[0][3] as usize;
        assert_eq!(g.line_start[a1], 1 | 1 << 2);
        assert_eq!(g.line_count, 40);
    }

    #[test]
    fn nth_bit_finds_every_bit() {
        for x in [1u128, u128::MAX, 1 | 1 << 127, 0x0F0F_00F0 << 60 | 5] {
            for (k, b) in Bits::of(x).enumerate() {
                assert_eq!(nth_bit(x, k as u32), b);
            }
        }
    }
}
