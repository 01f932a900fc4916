//! The reconstructed Opprimo board as constant tables: 45 points on 7 columns, 110 lines,
//! 66 triangles, the stars, the starting armies and the castles.
//!
//! A point (c, r) has column c = 0..=6 (files a–g) and half-row r = 0..=12 with c + r odd; its
//! name is the file letter followed by r + 1: columns b, d, f hold ranks 1, 3, …, 13 and columns
//! a, c, e, g ranks 2, 4, …, 12.
//!
//! Points are numbered (7r + c − 1) / 2. That numbering is dense (0..=44), orders the points by
//! rank and then by file (b1 = 0, d1 = 1, f1 = 2, a2 = 3, …, f13 = 44), and turns every line
//! into a fixed index offset: one step [`N`] (up the column) adds 7, [`NW`] 3, [`NE`] 4, [`S`]
//! subtracts 7, [`SW`] 4, [`SE`] 3. A set of points is a `u64` with bit i for point i, so
//! moving a whole set one step is one shift.
//!
//! Triangles are numbered in the order of their names: by the lower point of their vertical
//! edge (point order), then the third point's file (left before right). `d1e` is the triangle
//! {d1, d3, e2}.

use boardlab_core::coord;

/// A point, 0..=44 (see the module docs for the numbering).
pub type Point = u8;
/// A triangle, 0..=65, in the order of their names.
pub type Tri = u8;

/// Number of points.
pub const POINTS: usize = 45;
/// Number of triangles.
pub const TRIANGLES: usize = 66;
/// Every point.
pub const ALL_POINTS: u64 = (1 << POINTS) - 1;
/// "No triangle": a King not yet on the board, or an unused table entry.
pub const NO_TRI: Tri = u8::MAX;

/// Column (0 = file a) and half-row (0 = rank 1) of a point.
#[must_use]
pub const fn coords(p: Point) -> (u8, u8) {
    let i = 2 * p + 1;
    (i % 7, i / 7)
}

/// The point at column `c`, half-row `r`, if there is one.
#[must_use]
pub const fn point_at(c: i32, r: i32) -> Option<Point> {
    if c < 0 || c > 6 || r < 0 || r > 12 || (c + r) % 2 == 0 {
        None
    } else {
        Some(((7 * r + c - 1) / 2) as Point)
    }
}

/// Direction up the column (two half-rows): Yellow's straight forward step.
pub const N: usize = 0;
/// Up and one file left.
pub const NW: usize = 1;
/// Up and one file right.
pub const NE: usize = 2;
/// Down the column: Red's straight forward step.
pub const S: usize = 3;
/// Down and one file left.
pub const SW: usize = 4;
/// Down and one file right.
pub const SE: usize = 5;
/// The six directions along lines, in move-list order.
pub const DIRECTIONS: [usize; 6] = [N, NW, NE, S, SW, SE];
/// (column, half-row) change of one step in each direction.
pub const DELTA: [(i32, i32); 6] = [(0, 2), (-1, 1), (1, 1), (0, -2), (-1, -1), (1, -1)];
/// Point-index change of one step in each direction.
pub const SHIFT: [i32; 6] = [7, 3, 4, -7, -4, -3];

/// The point `k` steps from `p` in direction `d`, if it exists.
#[must_use]
pub const fn neighbour(p: Point, d: usize, k: i32) -> Option<Point> {
    let (c, r) = coords(p);
    point_at(c as i32 + k * DELTA[d].0, r as i32 + k * DELTA[d].1)
}

const fn reach(k: i32) -> [u64; 6] {
    let mut out = [0u64; 6];
    let mut d = 0;
    while d < 6 {
        let mut p = 0;
        while p < POINTS {
            if neighbour(p as Point, d, k).is_some() {
                out[d] |= 1 << p;
            }
            p += 1;
        }
        d += 1;
    }
    out
}

/// Points with a neighbour in each direction (a step is possible from them).
pub const STEP_FROM: [u64; 6] = reach(1);
/// Points with a point two steps away in each direction (a jump is possible from them).
pub const JUMP_FROM: [u64; 6] = reach(2);

boardlab_core::sides! {
    /// A side: Yellow (first seat) or Red (second seat).
    Yellow, Red
}

/// Yellow (first seat).
pub const YELLOW: Side = Side::Yellow;
/// Red (second seat).
pub const RED: Side = Side::Red;

const fn mask_of(points: &[(i32, i32)]) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < points.len() {
        match point_at(points[i].0, points[i].1) {
            Some(p) => m |= 1 << p,
            None => panic!("not a point"),
        }
        i += 1;
    }
    m
}

/// The stars where each colour's soldiers are promoted: b13, d13, f13 for Yellow; b1, d1, f1
/// for Red.
pub const STARS: [u64; 2] = [
    mask_of(&[(1, 12), (3, 12), (5, 12)]),
    mask_of(&[(1, 0), (3, 0), (5, 0)]),
];

/// The starting soldiers: Yellow on ranks 1–3, Red on ranks 11–13.
pub const START: [u64; 2] = [
    mask_of(&[
        (1, 0),
        (3, 0),
        (5, 0),
        (0, 1),
        (2, 1),
        (4, 1),
        (6, 1),
        (1, 2),
        (3, 2),
        (5, 2),
    ]),
    mask_of(&[
        (1, 12),
        (3, 12),
        (5, 12),
        (0, 11),
        (2, 11),
        (4, 11),
        (6, 11),
        (1, 10),
        (3, 10),
        (5, 10),
    ]),
];

const fn build_triangles() -> [[Point; 3]; TRIANGLES] {
    let mut out = [[0; 3]; TRIANGLES];
    let mut n = 0;
    let mut p = 0;
    while p < POINTS {
        let (c, r) = coords(p as Point);
        let (c, r) = (c as i32, r as i32);
        if let Some(high) = point_at(c, r + 2) {
            let mut side = 0;
            while side < 2 {
                let dc = if side == 0 { -1 } else { 1 };
                if let Some(apex) = point_at(c + dc, r + 1) {
                    out[n] = [p as Point, high, apex];
                    n += 1;
                }
                side += 1;
            }
        }
        p += 1;
    }
    assert!(n == TRIANGLES);
    out
}

/// Each triangle's points: the lower and upper end of its vertical edge, then the third point.
pub const TRI_POINTS: [[Point; 3]; TRIANGLES] = build_triangles();

const fn build_tri_masks() -> [u64; TRIANGLES] {
    let mut out = [0u64; TRIANGLES];
    let mut t = 0;
    while t < TRIANGLES {
        let [a, b, c] = TRI_POINTS[t];
        out[t] = (1 << a) | (1 << b) | (1 << c);
        t += 1;
    }
    out
}

/// Each triangle's three points as a set.
pub const TRI_MASK: [u64; TRIANGLES] = build_tri_masks();

/// Whether two triangles share an edge (two points).
#[must_use]
pub const fn adjacent(a: Tri, b: Tri) -> bool {
    a != b && (TRI_MASK[a as usize] & TRI_MASK[b as usize]).count_ones() == 2
}

/// Which triangles may hold a King.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Castle {
    /// The 12 triangles whose points all lie on ranks 1–4 (Yellow) or 10–13 (Red).
    Band,
    /// The 6 triangles around d3 (Yellow) or d11 (Red).
    Hex,
}

impl Castle {
    /// The option value: `band` or `hex`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Castle::Band => "band",
            Castle::Hex => "hex",
        }
    }
}

const fn in_castle(castle: usize, side: usize, t: usize) -> bool {
    let [a, b, c] = TRI_POINTS[t];
    if castle == 0 {
        let (ra, rb, rc) = (coords(a).1, coords(b).1, coords(c).1);
        if side == YELLOW.index() {
            ra <= 3 && rb <= 3 && rc <= 3
        } else {
            ra >= 9 && rb >= 9 && rc >= 9
        }
    } else {
        let centre = if side == YELLOW.index() {
            (3, 2)
        } else {
            (3, 10)
        };
        match point_at(centre.0, centre.1) {
            Some(p) => TRI_MASK[t] >> p & 1 == 1,
            None => false,
        }
    }
}

const fn build_castles() -> [[u128; 2]; 2] {
    let mut out = [[0u128; 2]; 2];
    let mut castle = 0;
    while castle < 2 {
        let mut side = 0;
        while side < 2 {
            let mut t = 0;
            while t < TRIANGLES {
                if in_castle(castle, side, t) {
                    out[castle][side] |= 1 << t;
                }
                t += 1;
            }
            side += 1;
        }
        castle += 1;
    }
    out
}

/// The castles as triangle sets (bit t for triangle t), by [`Castle`] (band, hex) and colour.
pub const CASTLES: [[u128; 2]; 2] = build_castles();

const fn build_castle_adjacency() -> [[[[Tri; 3]; TRIANGLES]; 2]; 2] {
    let mut out = [[[[NO_TRI; 3]; TRIANGLES]; 2]; 2];
    let mut castle = 0;
    while castle < 2 {
        let mut side = 0;
        while side < 2 {
            let set = CASTLES[castle][side];
            let mut t = 0;
            while t < TRIANGLES {
                if set >> t & 1 == 1 {
                    let mut n = 0;
                    let mut u = 0;
                    while u < TRIANGLES {
                        if set >> u & 1 == 1 && adjacent(t as Tri, u as Tri) {
                            out[castle][side][t][n] = u as Tri;
                            n += 1;
                        }
                        u += 1;
                    }
                }
                t += 1;
            }
            side += 1;
        }
        castle += 1;
    }
    out
}

/// For each castle kind, colour and castle triangle: the adjacent triangles of the same castle
/// in triangle order, padded with [`NO_TRI`].
pub const CASTLE_ADJ: [[[[Tri; 3]; TRIANGLES]; 2]; 2] = build_castle_adjacency();

const fn build_castle_adjacency_masks() -> [[[[u64; 3]; TRIANGLES]; 2]; 2] {
    let mut out = [[[[0u64; 3]; TRIANGLES]; 2]; 2];
    let mut castle = 0;
    while castle < 2 {
        let mut side = 0;
        while side < 2 {
            let mut t = 0;
            while t < TRIANGLES {
                let mut i = 0;
                while i < 3 {
                    let u = CASTLE_ADJ[castle][side][t][i];
                    if u != NO_TRI {
                        out[castle][side][t][i] = TRI_MASK[u as usize];
                    }
                    i += 1;
                }
                t += 1;
            }
            side += 1;
        }
        castle += 1;
    }
    out
}

/// The point sets of the [`CASTLE_ADJ`] triangles, 0 for padding (a King may enter a
/// triangle unless the enemy holds all its points; a padding entry is never enterable).
pub const CASTLE_ADJ_MASK: [[[[u64; 3]; TRIANGLES]; 2]; 2] = build_castle_adjacency_masks();

/// The castle of `side` as a triangle set.
#[must_use]
pub fn castle_set(castle: Castle, side: Side) -> u128 {
    CASTLES[castle as usize][side.index()]
}

/// The name of a point: `b3`.
#[must_use]
pub fn point_name(p: Point) -> String {
    let (c, r) = coords(p);
    coord::square_name(c, r)
}

/// Reads a point name (case-insensitive): a file a–g and a rank 1–13 whose parity fits the
/// file (b, d, f: odd ranks; a, c, e, g: even ranks).
#[must_use]
pub fn parse_point(text: &str) -> Option<Point> {
    let (c, r) = coord::parse_square(text.trim(), 7, 13)?;
    point_at(i32::from(c), i32::from(r))
}

/// The name of a triangle: the lower point of its vertical edge, then the file of its third
/// point (`d1e`).
#[must_use]
pub fn triangle_name(t: Tri) -> String {
    let [low, _, apex] = TRI_POINTS[t as usize];
    let mut s = point_name(low);
    s.push((b'a' + coords(apex).0) as char);
    s
}

/// Reads a triangle name (case-insensitive), e.g. `d1e` or `B11A`.
#[must_use]
pub fn parse_triangle(text: &str) -> Option<Tri> {
    let t = text.trim();
    if !t.is_ascii() || t.len() < 3 {
        return None;
    }
    let (point, file) = t.split_at(t.len() - 1);
    let low = parse_point(point)?;
    let file = file.as_bytes()[0].to_ascii_lowercase().wrapping_sub(b'a');
    (0..TRIANGLES as Tri).find(|&i| {
        let [l, _, apex] = TRI_POINTS[i as usize];
        l == low && coords(apex).0 == file
    })
}

/// The names of a triangle set's triangles, comma-separated, in triangle order.
#[must_use]
pub fn triangle_list(set: u128) -> String {
    (0..TRIANGLES as Tri)
        .filter(|&t| set >> t & 1 == 1)
        .map(triangle_name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The direction and distance (1 = step, 2 = jump) that lead from `from` to `to` along a line.
#[must_use]
pub fn direction_between(from: Point, to: Point) -> Option<(usize, i32)> {
    let code = *BETWEEN.get(usize::from(from))?.get(usize::from(to))?;
    let code = usize::from(code.checked_sub(1)?);
    Some((DIRECTIONS[code / 2], 1 + (code % 2) as i32))
}

/// [`direction_between`] for every pair of points: 0 for none, else 1 + 2 × the index of the
/// direction in [`DIRECTIONS`] + (distance − 1). Moves are checked and given ids by it.
const BETWEEN: [[u8; POINTS]; POINTS] = between_table();

const fn between_table() -> [[u8; POINTS]; POINTS] {
    let mut out = [[0u8; POINTS]; POINTS];
    let mut from = 0;
    while from < POINTS {
        // The first direction and distance that match, as the search over them finds.
        let mut i = DIRECTIONS.len();
        while i > 0 {
            i -= 1;
            let mut k = 2;
            while k > 0 {
                if let Some(to) = neighbour(from as Point, DIRECTIONS[i], k) {
                    out[from][to as usize] = (1 + 2 * i + (k as usize - 1)) as u8;
                }
                k -= 1;
            }
        }
        from += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_between_table_is_the_first_matching_line() {
        for from in 0..POINTS as Point {
            for to in 0..POINTS as Point {
                let searched = DIRECTIONS.iter().find_map(|&d| {
                    [1, 2]
                        .into_iter()
                        .find(|&k| neighbour(from, d, k) == Some(to))
                        .map(|k| (d, k))
                });
                assert_eq!(direction_between(from, to), searched, "{from} to {to}");
            }
        }
    }

    #[test]
    fn numbering_is_dense_and_offsets_are_lines() {
        for p in 0..POINTS as Point {
            let (c, r) = coords(p);
            assert_eq!(point_at(i32::from(c), i32::from(r)), Some(p));
            for d in DIRECTIONS {
                if let Some(q) = neighbour(p, d, 1) {
                    assert_eq!(i32::from(q) - i32::from(p), SHIFT[d]);
                }
            }
        }
        assert_eq!(point_name(0), "b1");
        assert_eq!(point_name(44), "f13");
        assert_eq!(
            parse_triangle("D1E").map(triangle_name).as_deref(),
            Some("d1e")
        );
    }
}
