//! Opprimo: Yellow and Red soldiers march forward on a board of 66 triangles, convert enemy
//! soldiers by jumping over them, and try to trap the enemy King by occupying the three points
//! of its triangle.
//!
//! Rules: `docs/rules/opprimo.md`. The board is the geometry reconstructed in RULINGS.md (see
//! [`board`]); soldiers are 64-bit point sets, lines are fixed index shifts, and triangles,
//! castles and King moves come from constant tables. Move generation, random moves and
//! playouts allocate nothing (a playout reserves the history it will fill once).
//!
//! # Notation
//! - `k@d1e`: place the King on triangle d1e (the first move of each side);
//! - `kd1e-e2d`: move the King to an adjacent triangle of its castle;
//! - `b3-b5`, `b3-c4`: a soldier steps one point along a line;
//! - `b3xd5`: a soldier jumps over the enemy soldier on c4 to d5 and converts it;
//! - `pass`: only when no other move is legal.
//!
//! Input is case-insensitive (`K@D1E`); output is lower case.
//!
//! # Move order
//! [`Rules::legal_moves`] lists:
//! - while the mover's King is not on the board: its placements, in triangle order;
//! - otherwise: soldier moves grouped by direction — N (up the column), NW, NE, S, SW, SE —
//!   and within a direction by starting point (b1, d1, f1, a2, c2, …); a soldier has at most
//!   one move per direction, a step or a conversion; then King moves by target triangle;
//! - `pass` alone when nothing else is legal.
//!
//! Triangle order is name order: by the lower point of the vertical edge, then left before
//! right. [`Rules::random_move`] and [`Rules::playout`] draw from this list exactly as the
//! provided methods would (the k-th legal move for the same random number) without building it.
//!
//! # Position text
//! See [`position`]: `rrr/rrrr/rrr/4/3/4/3/4/3/4/yyy/yyyy/yyy - - y 0` is the start.

pub mod ai;
pub mod board;
pub mod encoding;
pub mod position;
mod present;
mod tutorial;

pub use board::{
    parse_point, parse_triangle, point_name, triangle_name, Castle, Point, Side, Tri, RED, YELLOW,
};
pub use position::Setup;

use board::{
    adjacent, castle_set, coords, direction_between, point_at, triangle_list, ALL_POINTS,
    CASTLE_ADJ, CASTLE_ADJ_MASK, JUMP_FROM, N, NE, NO_TRI, NW, S, SE, SHIFT, STARS, STEP_FROM, SW,
    TRIANGLES, TRI_MASK, TRI_POINTS,
};
use boardlab_core::rand::Rng;
use boardlab_core::{Audit, Notation, Rules};
use boardlab_core::{
    Colour, Game, GameInfo, NewGameError, OptionSpec, OptionValues, Options, Outcome,
    ParseMoveError, PositionError, Rejected, Seat,
};
use std::fmt::Write as _;

/// One whole turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Place the King on a triangle of its castle: `k@d1e`.
    Place(Tri),
    /// Move the King from one triangle to an adjacent one: `kd1e-e2d`.
    King(Tri, Tri),
    /// A soldier steps one point: `b3-b5`.
    Step(Point, Point),
    /// A soldier jumps over an enemy soldier and converts it; written with the landing point:
    /// `b3xd5`.
    Convert(Point, Point),
    /// No other move is legal.
    Pass,
}

const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "castle",

        label: "Castle",
        values: OptionValues::Choice {
            choices: &["band", "hex"],
        },
        default: "band",
        description: "the King's castle: band = the 12 triangles on the home ranks 1-4 (10-13 for Red); hex = the 6 triangles around d3 (d11)",
    },
    OptionSpec {
        name: "max-plies",

        label: "Move limit",
        values: OptionValues::Int {
            min: 1,
            max: 1_000_000,
        },
        default: "400",
        description: "the game is drawn when this many moves (of either player, King placements and passes included) have been played",
    },
];

static INFO: GameInfo = GameInfo {
    name: "opprimo",
    title: "Opprimo",
    summary: "March soldiers forward, convert enemy soldiers by jumping them, and trap the enemy King by occupying its triangle's three points.",
    colours: [Colour::Yellow, Colour::Red],
    options: OPTIONS,
    two_player_zero_sum: true,
    draws_possible: true,
    move_examples: "k@d1e (place the King), kd1e-e2d (King move), b3-b5 or b3-c4 (step), b3xd5 (conversion), pass",
    multi_word_moves: &[],
    has_position_text: true,
    solitaire_options: &[],
};

mod keys {
    use boardlab_core::zobrist::keys;
    const PIECE_FLAT: [u64; 256] = keys::<256>(0x4f50_5052_494d_4f31);
    /// By colour * 2 + officer, then point (64 entries per row for cheap indexing).
    pub const PIECE: [[u64; 64]; 4] = {
        let mut out = [[0; 64]; 4];
        let mut i = 0;
        while i < 256 {
            out[i / 64][i % 64] = PIECE_FLAT[i];
            i += 1;
        }
        out
    };
    /// By colour * 66 + triangle.
    pub const KING: [u64; 132] = keys::<132>(0x4f50_5052_4b49_4e47);
    pub const RED_TO_MOVE: u64 = keys::<1>(0x4f50_5052_5349_4445)[0];
}

#[inline]
fn piece_key(side: Side, officer: bool, p: Point) -> u64 {
    keys::PIECE[side.index() * 2 + usize::from(officer)][usize::from(p) & 63]
}

#[inline]
fn king_key(side: Side, t: Tri) -> u64 {
    keys::KING[side.index() * TRIANGLES + usize::from(t)]
}

fn colour(side: Side) -> Colour {
    if side == YELLOW {
        Colour::Yellow
    } else {
        Colour::Red
    }
}

fn seat(side: Side) -> Seat {
    if side == YELLOW {
        Seat::First
    } else {
        Seat::Second
    }
}

const COLOUR_NAMES: [&str; 2] = ["Yellow", "Red"];

/// The `k`-th set bit of `x` (k < popcount).
#[inline]
fn nth_bit(mut x: u64, k: u32) -> u8 {
    for _ in 0..k {
        x &= x - 1;
    }
    x.trailing_zeros() as u8
}

#[inline]
fn shift(x: u64, by: i32) -> u64 {
    if by >= 0 {
        x << by
    } else {
        x >> -by
    }
}

/// The soldier moves of one side in move-list order. In each direction a soldier has at most
/// one move: a step when the next point is empty, or a conversion when it holds an enemy
/// soldier and the point beyond is empty. So the moves are, direction by direction, the
/// soldiers in `movers[d]`.
#[derive(Clone, Copy)]
struct SoldierMoves {
    movers: [u64; 6],
    /// Moves per direction.
    counts: [u32; 6],
    total: u32,
    enemy: u64,
}

impl SoldierMoves {
    #[inline]
    fn new(men: [u64; 2], officers: u64, side: Side) -> SoldierMoves {
        let own = men[side.index()];
        let enemy = men[side.other().index()];
        let empty = ALL_POINTS & !(own | enemy);
        // Plain soldiers move forward only: N, NW, NE for Yellow, S, SW, SE for Red.
        let (up, down) = if side == YELLOW {
            (own, own & officers)
        } else {
            (own & officers, own)
        };
        let mut m = SoldierMoves {
            movers: [0; 6],
            counts: [0; 6],
            total: 0,
            enemy,
        };
        // Written out direction by direction so that every shift is a constant.
        if up != 0 {
            m.direction(N, up, empty);
            m.direction(NW, up, empty);
            m.direction(NE, up, empty);
        }
        if down != 0 {
            m.direction(S, down, empty);
            m.direction(SW, down, empty);
            m.direction(SE, down, empty);
        }
        m
    }

    #[inline(always)]
    fn direction(&mut self, d: usize, movers: u64, empty: u64) {
        let k = SHIFT[d];
        // The next point empty (a step), or an enemy there and the point beyond empty.
        let next = shift(empty, -k) | (shift(self.enemy, -k) & shift(empty, -2 * k) & JUMP_FROM[d]);
        self.movers[d] = movers & STEP_FROM[d] & next;
        self.counts[d] = self.movers[d].count_ones();
        self.total += self.counts[d];
    }

    /// The move of the soldier on `from` in direction `d`.
    #[inline]
    fn make(&self, d: usize, from: Point) -> Move {
        let next = (i32::from(from) + SHIFT[d]) as Point;
        if self.enemy >> next & 1 == 1 {
            Move::Convert(from, (i32::from(next) + SHIFT[d]) as Point)
        } else {
            Move::Step(from, next)
        }
    }

    /// The `k`-th soldier move in move-list order (k < total).
    #[inline]
    fn nth(&self, mut k: u32) -> Move {
        for (d, &n) in self.counts.iter().enumerate() {
            if k < n {
                return self.make(d, nth_bit(self.movers[d], k));
            }
            k -= n;
        }
        Move::Pass
    }

    /// Every soldier move in move-list order.
    fn push_all(&self, moves: &mut Vec<Move>) {
        for (d, &set) in self.movers.iter().enumerate() {
            let mut x = set;
            while x != 0 {
                moves.push(self.make(d, x.trailing_zeros() as Point));
                x &= x - 1;
            }
        }
    }
}

/// An Opprimo game: the position, the ply count and the hashes of every earlier position (for
/// the repetition draw).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opprimo {
    castle: Castle,
    max_plies: u32,
    /// Soldiers by colour.
    men: [u64; 2],
    /// Officers of either colour.
    officers: u64,
    /// King triangles by colour, [`NO_TRI`] while not on the board.
    kings: [Tri; 2],
    side: Side,
    ply: u32,
    hash: u64,
    /// The current position has occurred for the third time.
    repeated: bool,
    /// Hashes of every position since the start or the position text, the current one last.
    history: Vec<u64>,
}

impl Opprimo {
    fn build(castle: Castle, max_plies: u32, setup: &Setup) -> Opprimo {
        let mut g = Opprimo {
            castle,
            max_plies,
            men: setup.men,
            officers: setup.officers,
            kings: setup.kings.map(|k| k.unwrap_or(NO_TRI)),
            side: setup.to_move,
            ply: setup.ply,
            hash: 0,
            repeated: false,
            history: Vec::new(),
        };
        g.hash = g.hash_from_scratch();
        g.history.push(g.hash);
        g
    }

    /// The position as an unchecked set-up (its text is [`Notation::position_text`]).
    #[must_use]
    pub fn setup(&self) -> Setup {
        Setup {
            men: self.men,
            officers: self.officers,
            kings: self.kings.map(|k| (k != NO_TRI).then_some(k)),
            to_move: self.side,
            ply: self.ply,
        }
    }

    /// The castle option in force.
    #[must_use]
    pub fn castle(&self) -> Castle {
        self.castle
    }

    /// The soldiers of `side` ([`YELLOW`] or [`RED`]) as a point set.
    #[must_use]
    pub fn soldiers(&self, side: Side) -> u64 {
        self.men[side.index()]
    }

    /// The Officers of both colours as a point set.
    #[must_use]
    pub fn officers(&self) -> u64 {
        self.officers
    }

    /// The triangle of `side`'s King, or `None` before it is placed.
    #[must_use]
    pub fn king(&self, side: Side) -> Option<Tri> {
        let k = self.kings[side.index()];
        (k != NO_TRI).then_some(k)
    }

    /// The colour to move: [`YELLOW`] or [`RED`].
    #[must_use]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// How many times the current position has occurred, this time included (positions
    /// before the start or the position text do not count).
    #[must_use]
    pub fn occurrences(&self) -> usize {
        1 + self.earlier_occurrences(&self.history[..self.history.len() - 1], self.hash)
    }

    /// Occurrences of `hash` among `history` entries with the same colour to move as the
    /// position that follows them (every ply changes the colour to move, passes included).
    #[inline]
    fn earlier_occurrences(&self, history: &[u64], hash: u64) -> usize {
        let n = history.len();
        history[n % 2..]
            .iter()
            .step_by(2)
            .filter(|&&h| h == hash)
            .count()
    }

    /// The colour whose King stands trapped, if any. Only the side to move can be trapped: a
    /// move never puts enemy soldiers around the mover's own King, and position texts with
    /// the other King trapped are refused.
    #[inline]
    fn trapped_side(&self) -> Option<Side> {
        let side = self.side;
        let k = self.kings[side.index()];
        let trapped = k != NO_TRI && {
            let m = TRI_MASK[usize::from(k)];
            self.men[side.other().index()] & m == m
        };
        trapped.then_some(side)
    }

    #[inline]
    fn over(&self) -> bool {
        self.repeated || self.ply >= self.max_plies || self.trapped_side().is_some()
    }

    #[inline]
    fn castle_adj(&self, side: Side, t: Tri) -> &'static [Tri; 3] {
        &CASTLE_ADJ[self.castle as usize][side.index()][usize::from(t)]
    }

    /// Triangles `side`'s King may enter: not all three points held by enemy soldiers.
    #[inline]
    fn enterable(&self, side: Side, t: Tri) -> bool {
        let m = TRI_MASK[usize::from(t)];
        self.men[side.other().index()] & m != m
    }

    /// The King moves of the side to move (its King is on the board): bit i set when the i-th
    /// castle neighbour of its triangle may be entered, and the number of such neighbours.
    #[inline]
    fn king_moves(&self) -> (usize, u32) {
        const COUNT: [u32; 8] = [0, 1, 1, 2, 1, 2, 2, 3];
        let side = self.side;
        let masks = &CASTLE_ADJ_MASK[self.castle as usize][side.index()]
            [usize::from(self.kings[side.index()])];
        let enemy = self.men[side.other().index()];
        if enemy & (masks[0] | masks[1] | masks[2]) == 0 {
            // No enemy soldier near: every castle neighbour is open (padding masks are 0).
            let bits = usize::from(masks[0] != 0)
                | usize::from(masks[1] != 0) << 1
                | usize::from(masks[2] != 0) << 2;
            return (bits, COUNT[bits]);
        }
        let open = |i: usize| usize::from(enemy & masks[i] != masks[i]) << i;
        let bits = open(0) | open(1) | open(2);
        (bits, COUNT[bits])
    }

    /// The `j`-th King move of [`Opprimo::king_moves`]' bits.
    #[inline]
    fn king_move(&self, bits: usize, j: u32) -> Move {
        let side = self.side;
        let from = self.kings[side.index()];
        let adj = self.castle_adj(side, from);
        let mut seen = 0;
        for (i, &t) in adj.iter().enumerate() {
            if bits >> i & 1 == 1 {
                if seen == j {
                    return Move::King(from, t);
                }
                seen += 1;
            }
        }
        Move::Pass
    }

    /// The triangles where the side to move may place its King.
    fn placements(&self) -> u128 {
        let side = self.side;
        let mut set = castle_set(self.castle, side);
        let mut x = set;
        while x != 0 {
            let t = x.trailing_zeros() as Tri;
            x &= x - 1;
            if !self.enterable(side, t) {
                set &= !(1u128 << t);
            }
        }
        set
    }

    /// The legal move at index `pick(n)` of the move list, where n is the number of legal
    /// moves (at least 1: `pass`), found without listing the moves. `None` when the game is
    /// over.
    #[inline]
    fn select<F: FnOnce(u32) -> u32>(&self, pick: F) -> Option<Move> {
        if self.over() {
            return None;
        }
        let side = self.side;
        if self.kings[side.index()] == NO_TRI {
            let set = self.placements();
            let n = set.count_ones();
            let k = pick(n.max(1));
            if n == 0 {
                return Some(Move::Pass);
            }
            let mut x = set;
            for _ in 0..k {
                x &= x - 1;
            }
            return Some(Move::Place(x.trailing_zeros() as Tri));
        }
        let soldiers = SoldierMoves::new(self.men, self.officers, side);
        let (king_bits, nk) = self.king_moves();
        let ns = soldiers.total;
        let total = ns + nk;
        let k = pick(total.max(1));
        Some(if total == 0 {
            Move::Pass
        } else if k < ns {
            soldiers.nth(k)
        } else {
            self.king_move(king_bits, k - ns)
        })
    }

    /// Moves a soldier of `side` from `from` to `to`, promoting it on its star.
    #[inline]
    fn move_man(&mut self, side: Side, from: Point, to: Point) {
        let (bf, bt) = (1u64 << from, 1u64 << to);
        let was_officer = self.officers & bf != 0;
        let officer = was_officer || STARS[side.index()] & bt != 0;
        self.men[side.index()] = (self.men[side.index()] & !bf) | bt;
        self.officers &= !bf;
        if officer {
            self.officers |= bt;
        }
        self.hash ^= piece_key(side, was_officer, from) ^ piece_key(side, officer, to);
    }

    /// The enemy soldier on `p` becomes a plain soldier of `side`.
    #[inline]
    fn convert(&mut self, side: Side, p: Point) {
        let b = 1u64 << p;
        let was_officer = self.officers & b != 0;
        self.men[side.other().index()] &= !b;
        self.men[side.index()] |= b;
        self.officers &= !b;
        self.hash ^= piece_key(side.other(), was_officer, p) ^ piece_key(side, false, p);
    }

    /// Changes the board for `mv` and passes the turn; the history is left to the caller.
    #[inline]
    fn apply(&mut self, mv: Move) {
        let side = self.side;
        match mv {
            Move::Place(t) => {
                self.kings[side.index()] = t;
                self.hash ^= king_key(side, t);
            }
            Move::King(from, to) => {
                self.kings[side.index()] = to;
                self.hash ^= king_key(side, from) ^ king_key(side, to);
            }
            Move::Step(from, to) => self.move_man(side, from, to),
            Move::Convert(from, to) => {
                self.move_man(side, from, to);
                self.convert(side, (from + to) / 2);
            }
            Move::Pass => {}
        }
        self.side = self.side.other();
        self.hash ^= keys::RED_TO_MOVE;
        self.ply += 1;
    }

    /// Why a soldier move is illegal, or `None` when it is legal (the mover's King being on
    /// the board is checked by the caller).
    fn soldier_problem(&self, from: Point, to: Point, convert: bool) -> Option<String> {
        if usize::from(from.max(to)) >= board::POINTS {
            return Some("no such point".into());
        }
        let side = self.side;
        let (me, foe) = (
            COLOUR_NAMES[side.index()],
            COLOUR_NAMES[side.other().index()],
        );
        let (f, t) = (point_name(from), point_name(to));
        let Some((d, _)) =
            direction_between(from, to).filter(|&(_, k)| k == 1 + i32::from(convert))
        else {
            return Some(format!("{f} to {t} is not a step or a jump along a line"));
        };
        if self.men[side.index()] >> from & 1 == 0 {
            return Some(format!("{f} holds no {me} soldier"));
        }
        let forward = if side == YELLOW { d < 3 } else { d >= 3 };
        if !forward && self.officers >> from & 1 == 0 {
            return Some(format!(
                "the soldier on {f} is not an Officer, so it moves and converts forward only"
            ));
        }
        if (self.men[0] | self.men[1]) >> to & 1 == 1 {
            return Some(format!("{t} is occupied"));
        }
        if convert {
            let mid = (from + to) / 2;
            if self.men[side.other().index()] >> mid & 1 == 0 {
                return Some(format!(
                    "{} holds no {foe} soldier to jump over and convert",
                    point_name(mid)
                ));
            }
        }
        None
    }
}

fn read_options(options: &Options) -> Result<(Castle, u32), NewGameError> {
    let castle = if options.get("castle") == "hex" {
        Castle::Hex
    } else {
        Castle::Band
    };
    let max_plies = options
        .get_int("max-plies")
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| options.invalid("max-plies must be a whole number from 1"))?;
    Ok((castle, max_plies))
}

fn parse_points(text: &str, sep: char) -> Result<(Point, Point), String> {
    let (a, b) = text
        .split_once(sep)
        .ok_or_else(|| format!("expected two points separated by '{sep}'"))?;
    let point = |s: &str| {
        parse_point(s).ok_or_else(|| {
            format!(
                "'{s}' is not a point (files a-g; b, d, f have the odd ranks 1-13, a, c, e, g \
                 the even ranks 2-12)"
            )
        })
    };
    Ok((point(a)?, point(b)?))
}

fn triangle(text: &str) -> Result<Tri, String> {
    parse_triangle(text).ok_or_else(|| {
        format!(
            "'{text}' is not a triangle (named by the lower point of its vertical side and the \
             file of its third point, e.g. d1e)"
        )
    })
}

impl Rules for Opprimo {
    type Move = Move;

    fn to_move(&self) -> Seat {
        seat(self.side)
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.over() {
            return;
        }
        let side = self.side;
        if self.kings[side.index()] == NO_TRI {
            let mut x = self.placements();
            while x != 0 {
                moves.push(Move::Place(x.trailing_zeros() as Tri));
                x &= x - 1;
            }
        } else {
            SoldierMoves::new(self.men, self.officers, side).push_all(moves);
            let (bits, n) = self.king_moves();
            for j in 0..n {
                moves.push(self.king_move(bits, j));
            }
        }
        if moves.is_empty() {
            moves.push(Move::Pass);
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        if self.over() {
            return false;
        }
        let side = self.side;
        let placed = self.kings[side.index()] != NO_TRI;
        let castle = castle_set(self.castle, side);
        let in_castle = |t: Tri| usize::from(t) < TRIANGLES && castle >> t & 1 == 1;
        match mv {
            Move::Place(t) => !placed && in_castle(t) && self.enterable(side, t),
            Move::King(from, to) => {
                placed
                    && from == self.kings[side.index()]
                    && in_castle(to)
                    && adjacent(from, to)
                    && self.enterable(side, to)
            }
            Move::Step(from, to) => placed && self.soldier_problem(from, to, false).is_none(),
            Move::Convert(from, to) => placed && self.soldier_problem(from, to, true).is_none(),
            // Index 0 of the move list is `pass` exactly when it is the only move.
            Move::Pass => self.select(|_| 0) == Some(Move::Pass),
        }
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.apply(mv);
        let earlier = self.earlier_occurrences(&self.history, self.hash);
        self.repeated = earlier >= 2;
        self.history.push(self.hash);
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(loser) = self.trapped_side() {
            let winner = loser.other();
            return Some(Outcome::Win {
                seat: seat(winner),
                colour: colour(winner),
                reason: "the enemy King is trapped",
            });
        }
        if self.repeated {
            return Some(Outcome::Draw {
                reason: "the same position for the third time",
            });
        }
        if self.ply >= self.max_plies {
            return Some(Outcome::Draw {
                reason: "max-plies reached",
            });
        }
        None
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R, _buf: &mut Vec<Move>) -> Option<Move> {
        self.select(|n| rng.random_range(0..n as usize) as u32)
    }

    fn playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u32 {
        // A 4096-bit filter of the hashes seen: a position not in it is new, so the history
        // is scanned only on a (rare) hit.
        let mut seen = [0u64; 64];
        let mark = |seen: &mut [u64; 64], h: u64| {
            let (word, bit) = ((h >> 58) as usize, h >> 52 & 63);
            let hit = seen[word] >> bit & 1 == 1;
            seen[word] |= 1 << bit;
            hit
        };
        for &h in &self.history {
            mark(&mut seen, h);
        }
        self.history
            .reserve(self.max_plies.saturating_sub(self.ply).min(1 << 16) as usize);
        let start = self.ply;
        while let Some(mv) = self.select(|n| rng.random_range(0..n as usize) as u32) {
            self.apply(mv);
            if mark(&mut seen, self.hash) {
                self.repeated = self.earlier_occurrences(&self.history, self.hash) >= 2;
            }
            self.history.push(self.hash);
        }
        self.ply - start
    }
}

impl Notation for Opprimo {
    type Setup = Setup;

    /// Reads the position text described in [`position`]. When the text cannot be read, the
    /// error also lists what [`Setup::problems`] finds in the parts that could be.
    fn read_setup(options: &Options, text: &str) -> Result<Setup, NewGameError> {
        let (castle, max_plies) = read_options(options)?;
        let mut problems = Vec::new();
        let setup = Setup::read(text, &mut problems);
        if problems.is_empty() {
            return Ok(setup);
        }
        problems.extend(setup.problems(castle, max_plies));
        Err(PositionError {
            text: text.to_string(),
            problems,
        }
        .into())
    }

    /// Checks the set-up with [`Setup::problems`]. The position counts as the first
    /// occurrence for the repetition draw.
    fn from_setup(options: &Options, setup: Setup) -> Result<Self, Rejected<Setup>> {
        let (castle, max_plies) = match read_options(options) {
            Ok(read) => read,
            Err(e) => return Err(Rejected::new(setup, e)),
        };
        let problems = setup.problems(castle, max_plies);
        let setup = Rejected::unless_problems(setup, problems)?;
        Ok(Opprimo::build(castle, max_plies, &setup))
    }

    fn position_text(&self) -> String {
        self.setup().to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        let t = text.trim();
        let err = |reason: String| ParseMoveError::new::<Self>(t, reason);
        let lower = t.to_ascii_lowercase();
        if lower.is_empty() {
            return Err(err("empty move".into()));
        }
        if lower == "pass" {
            return Ok(Move::Pass);
        }
        if let Some(rest) = lower.strip_prefix('k') {
            if let Some(tri) = rest.strip_prefix('@') {
                return triangle(tri).map(Move::Place).map_err(err);
            }
            let (a, b) = rest.split_once('-').ok_or_else(|| {
                err("a King move is k@TRIANGLE (placement) or kFROM-TO, e.g. kd1e-e2d".into())
            })?;
            let (a, b) = (triangle(a).map_err(err)?, triangle(b).map_err(err)?);
            if !adjacent(a, b) {
                return Err(err(format!(
                    "{} and {} do not share a side; a King steps to an adjacent triangle",
                    triangle_name(a),
                    triangle_name(b)
                )));
            }
            return Ok(Move::King(a, b));
        }
        let (convert, sep) = if lower.contains('x') {
            (true, 'x')
        } else if lower.contains('-') {
            (false, '-')
        } else {
            return Err(err(
                "expected a step FROM-TO, a conversion FROMxTO, a King move or pass".into(),
            ));
        };
        let (from, to) = parse_points(&lower, sep).map_err(err)?;
        match direction_between(from, to) {
            Some((_, 1)) if !convert => Ok(Move::Step(from, to)),
            Some((_, 2)) if convert => Ok(Move::Convert(from, to)),
            _ if convert => Err(err(format!(
                "{} is not two points from {} along a line; a conversion jumps one point, e.g. \
                 b3xd5 or b3xb7",
                point_name(to),
                point_name(from)
            ))),
            _ => Err(err(format!(
                "{} is not next to {} along a line; a step goes to a neighbouring point, e.g. \
                 b3-b5 or b3-c4",
                point_name(to),
                point_name(from)
            ))),
        }
    }

    fn format_move(&self, mv: Move) -> String {
        match mv {
            Move::Place(t) => format!("k@{}", triangle_name(t)),
            Move::King(a, b) => format!("k{}-{}", triangle_name(a), triangle_name(b)),
            Move::Step(a, b) => format!("{}-{}", point_name(a), point_name(b)),
            Move::Convert(a, b) => format!("{}x{}", point_name(a), point_name(b)),
            Move::Pass => "pass".into(),
        }
    }

    fn diagram(&self) -> String {
        diagram(self)
    }
}

impl Game for Opprimo {
    fn encoding(&self) -> Option<&dyn boardlab_core::encoding::DynEncoding> {
        Some(self)
    }

    fn encoding_mut(&mut self) -> Option<&mut dyn boardlab_core::encoding::DynEncoding> {
        Some(self)
    }

    fn info() -> &'static GameInfo {
        &INFO
    }

    /// The starting position (the seed is not used: the set-up is fixed).
    fn new(options: &Options, _seed: u64) -> Result<Self, NewGameError> {
        let (castle, max_plies) = read_options(options)?;
        Ok(Opprimo::build(castle, max_plies, &Setup::start()))
    }

    fn options(&self) -> Options {
        let castle = match self.castle {
            Castle::Band => "band",
            Castle::Hex => "hex",
        };
        let max_plies = self.max_plies.to_string();
        INFO.options_from_pairs([("castle", castle), ("max-plies", max_plies.as_str())])
            .expect("a game's options are valid")
    }

    fn colour_of(&self, seat: Seat) -> Option<Colour> {
        Some(match seat {
            Seat::First => Colour::Yellow,
            Seat::Second => Colour::Red,
        })
    }

    fn why_illegal(&self, mv: Move) -> String {
        if let Some(outcome) = self.outcome() {
            return format!("the game is over ({outcome})");
        }
        let side = self.side;
        let me = COLOUR_NAMES[side.index()];
        let placed = self.kings[side.index()] != NO_TRI;
        let castle = castle_set(self.castle, side);
        let castle_text = || {
            format!(
                "{me}'s castle (castle={}) is {}",
                self.castle.name(),
                triangle_list(castle)
            )
        };
        let enter = |t: Tri| {
            if usize::from(t) >= TRIANGLES {
                Some("no such triangle".to_string())
            } else if castle >> t & 1 == 0 {
                Some(format!(
                    "{} is outside {me}'s castle; {}",
                    triangle_name(t),
                    castle_text()
                ))
            } else if !self.enterable(side, t) {
                Some(format!(
                    "all three points of {} hold {} soldiers: a King may not enter a trap",
                    triangle_name(t),
                    COLOUR_NAMES[side.other().index()]
                ))
            } else {
                None
            }
        };
        let reason = match mv {
            Move::Pass => Some("pass is allowed only when no other move is legal".to_string()),
            Move::Place(_) if placed => Some(format!(
                "{me}'s King is already on {}",
                triangle_name(self.kings[side.index()])
            )),
            Move::Place(t) => enter(t),
            _ if !placed => Some(format!(
                "{me} must first place its King on a triangle of its castle (k@…); {}",
                castle_text()
            )),
            Move::King(from, _) if from != self.kings[side.index()] => Some(format!(
                "{me}'s King is on {}, not on {}",
                triangle_name(self.kings[side.index()]),
                triangle_name(from)
            )),
            Move::King(_, to) if usize::from(to) >= TRIANGLES => Some("no such triangle".into()),
            Move::King(from, to) if !adjacent(from, to) => Some(format!(
                "{} and {} do not share a side",
                triangle_name(from),
                triangle_name(to)
            )),
            Move::King(_, to) => enter(to),
            Move::Step(from, to) => self.soldier_problem(from, to, false),
            Move::Convert(from, to) => self.soldier_problem(from, to, true),
        };
        reason.unwrap_or_else(|| "not a legal move in this position".to_string())
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// The starting position again, with the same options (the set-up is not random).
    fn restart<R: Rng + ?Sized>(&self, _rng: &mut R) -> Self {
        Opprimo::build(self.castle, self.max_plies, &Setup::start())
    }
}

impl Audit for Opprimo {
    fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for side in [YELLOW, RED] {
            let mut x = self.men[side.index()];
            while x != 0 {
                let p = x.trailing_zeros() as Point;
                x &= x - 1;
                h ^= piece_key(side, self.officers >> p & 1 == 1, p);
            }
            if self.kings[side.index()] != NO_TRI {
                h ^= king_key(side, self.kings[side.index()]);
            }
        }
        if self.side == RED {
            h ^= keys::RED_TO_MOVE;
        }
        h
    }
}

/// The terminal diagram: the lattice with rank numbers and file letters (so a point's name is
/// its file and rank), soldiers `y`/`r`, Officers `Y`/`R`, the Kings as `KY`/`KR` inside their
/// triangles.
fn diagram(g: &Opprimo) -> String {
    const W: usize = 5;
    let width = 6 * W + 1;
    let spans = |c: i32, r: i32| {
        // Column c carries a vertical line across half-row r (strictly between its ends).
        let (lo, hi) = if c % 2 == 1 { (0, 12) } else { (1, 11) };
        lo < r && r < hi
    };
    let mut s = String::new();
    let files: String = (0..7)
        .map(|c| format!("{:<W$}", (b'a' + c) as char))
        .collect();
    let _ = writeln!(s, "      {}", files.trim_end());
    for r in (0..13i32).rev() {
        let mut line = vec![b' '; width];
        for c in 0..7i32 {
            let x = c as usize * W;
            line[x] = match point_at(c, r) {
                Some(p) => {
                    let b = 1u64 << p;
                    let ch = if g.men[YELLOW.index()] & b != 0 {
                        b'y'
                    } else if g.men[RED.index()] & b != 0 {
                        b'r'
                    } else {
                        b'.'
                    };
                    if g.officers & b != 0 {
                        ch.to_ascii_uppercase()
                    } else {
                        ch
                    }
                }
                None if spans(c, r) => b'|',
                None => b' ',
            };
        }
        for side in [YELLOW, RED] {
            let k = g.kings[side.index()];
            if k == NO_TRI {
                continue;
            }
            let [low, _, apex] = TRI_POINTS[usize::from(k)];
            let (cl, rl) = coords(low);
            let ca = coords(apex).0;
            if i32::from(rl) + 1 == r {
                let x = usize::from(cl.min(ca)) * W + 2;
                line[x] = b'K';
                line[x + 1] = if side == YELLOW { b'Y' } else { b'R' };
            }
        }
        let text = String::from_utf8_lossy(&line).trim_end().to_string();
        let _ = writeln!(s, "{:>4}  {:<width$}  {}", r + 1, text, r + 1);
        if r > 0 {
            // The lines between half-rows r - 1 and r.
            let mut line = vec![b' '; width];
            for c in 0..7i32 {
                let (lo, hi) = if c % 2 == 1 { (0, 12) } else { (1, 11) };
                if lo < r && r <= hi {
                    line[c as usize * W] = b'|';
                }
                if c < 6 {
                    line[c as usize * W + 2] = if point_at(c, r - 1).is_some() {
                        b'/'
                    } else {
                        b'\\'
                    };
                }
            }
            let text = String::from_utf8_lossy(&line).trim_end().to_string();
            let _ = writeln!(s, "      {text}");
        }
    }
    let _ = writeln!(s, "      {}", files.trim_end());
    let king = |side: Side| match g.king(side) {
        Some(t) => triangle_name(t),
        None => "not placed".to_string(),
    };
    let _ = writeln!(
        s,
        "Yellow King: {}   Red King: {}   castle={}",
        king(YELLOW),
        king(RED),
        g.castle.name()
    );
    let _ = writeln!(
        s,
        "y/r soldier, Y/R Officer, KY/KR King; {} to move, ply {} of {}",
        COLOUR_NAMES[g.side.index()].to_ascii_lowercase(),
        g.ply,
        g.max_plies
    );
    if let Some(o) = g.outcome() {
        let _ = writeln!(s, "{o}");
    }
    s
}
