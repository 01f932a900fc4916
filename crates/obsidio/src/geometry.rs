//! Board geometry for the three sizes, computed at compile time.
//!
//! A square is `rank * n + file` (a1 = 0), so a board of up to 11×11 = 121 squares is one
//! `u128` bit set. Targets are numbered 0, 1, … in the same square order (a1, b1, …, a2, …),
//! so a set of targets is a `u32`.
//!
//! Line of sight works on **lines**: the n ranks, n files, 2n − 1 diagonals and 2n − 1
//! anti-diagonals. A game keeps one small occupancy word per line (see
//! [`Geometry::line_start`]); the squares a square sees along a line are those between the
//! nearest occupied bits on either side of it, read off a table of prefixes
//! ([`Geometry::line_prefix`]).

/// A square index `rank * n + file`.
pub type Square = u8;

/// "No square" (no anchor).
pub const NO_SQUARE: Square = u8::MAX;

/// The eight directions as (file step, rank step).
const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (-1, 1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (1, -1),
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

/// A square's place on one of the lines along which it can see placement squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot {
    /// The line.
    pub line: u8,
    /// The bits of the line's occupancy word above and below the square's own bit.
    pub above: u16,
    pub below: u16,
    /// For light squares: the token bits of the word (bits 1 ..= length, the position on the
    /// line plus one), and where the square's entries start in [`SECONDS`] (the table for
    /// the kind of line, its length's block, plus the square's position on the line).
    pub mask: u16,
    pub base: u32,
}

impl Spot {
    const NONE: Spot = Spot {
        line: 0,
        above: 0,
        below: 0,
        mask: 0,
        base: 0,
    };

    /// The square at position `pos` of line `line` of `len` squares; `all_light`: every
    /// square of the line is light (else dark and light alternate).
    const fn new(line: u8, pos: u8, len: u8, all_light: bool) -> Spot {
        let bit = pos + 1;
        Spot {
            line,
            above: !((2u32 << bit) - 1) as u16,
            below: ((1u32 << bit) - 1) as u16,
            mask: (((1u32 << len) - 1) << 1) as u16,
            base: if all_light { SECONDS_HALF } else { 0 } + seconds_block(len) + pos as u32,
        }
    }

    /// How many light squares at distance two or more a light square sees along the line,
    /// given the line's occupancy word.
    #[inline(always)]
    #[must_use]
    pub fn seconds(self, word: u16) -> u32 {
        // The token bits, one place up, times 8: the pattern's row of 16 entries.
        let row = u32::from(word & self.mask) << 3;
        u32::from(SECONDS[(self.base + row) as usize & (2 * SECONDS_HALF as usize - 1)])
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
    /// The (up to 8) neighbours of each square.
    pub neighbours: [u128; 128],
    /// Each square with its neighbours.
    pub near: [u128; 128],
    /// Each square as a set of one.
    pub bit: [u128; 128],
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
    /// Each line's occupancy word before any token: bit p + 1 for the square at position p
    /// (counted from the low-file end) when it is a target, plus a sentinel bit at each end
    /// (bit 0 and bit length + 1). Tokens add their bits (see [`Geometry::line_bit`]).
    pub line_start: [u16; 64],
    /// `line_prefix[line][k]`: the squares of the line whose bit index is below `k`.
    pub line_prefix: [[u128; 16]; 64],
    /// The lines along which a placement square can see other placement squares (the other
    /// lines meet a target at once): for a light square the rank or file that alternates
    /// dark and light squares, then its diagonal and anti-diagonal; for a dark square its
    /// rank, its file, and its rank again.
    pub spots: [[Spot; 3]; 128],
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
            neighbours: [0; 128],
            near: [0; 128],
            bit: [0; 128],
            adjacent_targets: [[0; 4]; 128],
            adjacent_count: [0; 128],
            kinds: [Kind::Target; 128],
            line_count: 6 * n - 2,
            line_id: [[0; 4]; 128],
            line_bit: [[0; 4]; 128],
            line_start: [0; 64],
            line_prefix: [[0; 16]; 64],
            spots: [[Spot::NONE; 3]; 128],
        };
        let mut sq = 0u8;
        while sq < cells {
            let (f, r) = (sq % n, sq / n);
            let bit = 1u128 << sq;
            g.bit[sq as usize] = bit;
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
                let line = ids[k] as usize;
                g.line_id[sq as usize][k] = ids[k];
                g.line_bit[sq as usize][k] = 1 << (pos[k] + 1);
                g.line_start[line] |= 1 | 1 << (lens[k] + 1);
                let mut above = pos[k] as usize + 2;
                while above < 16 {
                    g.line_prefix[line][above] |= bit;
                    above += 1;
                }
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
                let rank = Spot::new(ids[0], pos[0], lens[0], false);
                g.spots[sq as usize] = [rank, Spot::new(ids[1], pos[1], lens[1], false), rank];
                g.dark |= bit;
            } else {
                g.kinds[sq as usize] = Kind::Light;
                let alt: usize = if r % 2 == 0 { 0 } else { 1 };
                g.spots[sq as usize] = [
                    Spot::new(ids[alt], pos[alt], lens[alt], false),
                    Spot::new(ids[2], pos[2], lens[2], true),
                    Spot::new(ids[3], pos[3], lens[3], true),
                ];
                g.light |= bit;
            }
            sq += 1;
        }
        g.placement = g.dark | g.light;
        let mut sq = 0u8;
        while sq < cells {
            let (f, r) = ((sq % n) as i32, (sq / n) as i32);
            g.near[sq as usize] = 1 << sq;
            let mut d = 0;
            while d < 8 {
                let (x, y) = (f + DIRS[d].0 as i32, r + DIRS[d].1 as i32);
                if x >= 0 && y >= 0 && x < n as i32 && y < n as i32 {
                    let s = (y * n as i32 + x) as usize;
                    g.neighbours[sq as usize] |= 1u128 << s;
                    g.near[sq as usize] |= 1u128 << s;
                    let t = g.target_index[s];
                    if t != NO_SQUARE {
                        let c = g.adjacent_count[sq as usize];
                        g.adjacent_targets[sq as usize][c as usize] = t;
                        g.adjacent_count[sq as usize] = c + 1;
                    }
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

    /// The line occupancy words with `tokens` on the board (see [`Geometry::line_start`]).
    #[must_use]
    pub fn line_words(&self, tokens: u128) -> [u16; 64] {
        let mut words = self.line_start;
        for sq in Bits::of(tokens & self.placement) {
            for k in 0..4 {
                words[self.line_id[sq as usize][k] as usize] |= self.line_bit[sq as usize][k];
            }
        }
        words
    }

    /// The squares `sq` sees (has line of sight to) with the lines occupied as in `lines`,
    /// together with the first occupied square in each direction and `sq` itself: along each
    /// line, every square between the nearest occupied squares on either side. Only the
    /// lines that do not meet a target at once are looked at: the rank and file of a dark
    /// square, the alternating line and the diagonals of a light square, and for a target
    /// just its neighbours. Callers keep the empty squares they need.
    #[inline]
    #[must_use]
    pub fn los(&self, sq: Square, lines: &[u16; 64]) -> u128 {
        let s = sq as usize & 127;
        if self.kinds[s] == Kind::Target {
            return self.neighbours[s];
        }
        let mut out = 0;
        for spot in &self.spots[s] {
            let line = spot.line as usize & 63;
            let w = u32::from(lines[line]);
            // The sentinels make both words non-zero; the extra bits tell the compiler so.
            let hi = (w & u32::from(spot.above) | 1 << 16).trailing_zeros();
            let lo = (w & u32::from(spot.below) | 1).ilog2();
            let prefix = &self.line_prefix[line];
            out |= prefix[hi as usize & 15] ^ prefix[(lo + 1) as usize & 15];
        }
        out
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

/// The number of squares in a set of dark squares. Dark squares have even indices (file and
/// rank even, side odd), so the upper half shifted by one fills only odd bits of the lower
/// half and one 64-bit count does.
#[inline]
#[must_use]
pub fn count_dark(darks: u128) -> u32 {
    ((darks as u64) | ((darks >> 64) as u64) << 1).count_ones()
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

    /// Line of sight by walking each of the eight directions square by square.
    fn walk(g: &Geometry, sq: Square, blockers: u128) -> u128 {
        let (f, r) = ((sq % g.n) as i32, (sq / g.n) as i32);
        let mut out = 0;
        for (df, dr) in DIRS {
            let (mut x, mut y) = (f + i32::from(df), r + i32::from(dr));
            while (0..i32::from(g.n)).contains(&x) && (0..i32::from(g.n)).contains(&y) {
                let s = y * i32::from(g.n) + x;
                out |= 1u128 << s;
                if blockers >> s & 1 == 1 {
                    break;
                }
                x += i32::from(df);
                y += i32::from(dr);
            }
        }
        out
    }

    #[test]
    fn line_of_sight_stops_at_tokens_and_targets() {
        let g = &GEOMETRY_9;
        let sq = |s: &str| g.parse_square(s).unwrap();
        let free = |tokens: u128| g.placement & !tokens;
        // From c3 along rank 3 and file c; its diagonals meet targets at once.
        let seen = g.los(sq("c3"), &g.line_words(0)) & free(1 << sq("c3"));
        for s in ["a3", "b3", "d3", "i3", "c1", "c9"] {
            assert_ne!(seen & (1 << sq(s)), 0, "{s}");
        }
        assert_eq!(seen & (1 << sq("e5")), 0);
        let tokens = 1 << sq("c3") | 1 << sq("e3");
        let seen = g.los(sq("c3"), &g.line_words(tokens)) & free(tokens);
        assert_ne!(seen & (1 << sq("d3")), 0);
        assert_eq!(seen & (1 << sq("f3")), 0);
    }

    #[test]
    fn line_of_sight_equals_a_walk_in_eight_directions() {
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
                let tokens = tokens & g.placement;
                let blockers = tokens | g.target_mask;
                let words = g.line_words(tokens);
                for sq in 0..g.cells {
                    let free = g.placement & !blockers & !(1 << sq);
                    assert_eq!(g.los(sq, &words) & free, walk(g, sq, blockers) & free);
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
    fn count_dark_counts_every_dark_set() {
        for g in [&GEOMETRY_7, &GEOMETRY_9, &GEOMETRY_11] {
            let mut state = 7u64;
            for _ in 0..100 {
                state = boardlab_core::zobrist::splitmix64(state).1;
                let set = g.dark & (u128::from(state) << 64 | u128::from(state.rotate_left(17)));
                assert_eq!(count_dark(set), set.count_ones());
            }
            assert_eq!(count_dark(g.dark), g.dark.count_ones());
        }
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
