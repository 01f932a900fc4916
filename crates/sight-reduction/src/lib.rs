//! Sight Reduction: players remove their own pieces from a 4×8 board; a piece may go when it
//! sees a friendly piece. The player to move with no legal removal loses.
//!
//! RuleSet: `docs/rules/sight-reduction.md`. The board is a 32-bit set, and the removal rule
//! is applied to whole sets at once by the [`kernel`], which the exact solver and the
//! computer players use too; move generation and playouts allocate nothing.
//!
//! # Move order
//! [`Rules::legal_moves`] lists, by phase:
//! - removal: single removals by square (a1, b1, c1, d1, a2, …), then pairs by their first
//!   square, then their second;
//! - fair arrangement: swaps by first square then second, then `done`;
//! - colour choice: `color white`, `color black`; first-player choice: `first white`,
//!   `first black`;
//! - deterministic placement: target squares in square order.

pub mod ai;
pub mod encoding;
pub mod kernel;
pub mod position;
mod present;
pub mod solver;
mod tutorial;

use boardlab_core::rand::Rng;
use boardlab_core::{
    coord, Colour, Game, GameInfo, NewGameError, OptionSpec, OptionValues, Options, Outcome,
    ParseMoveError, PositionError, Rejected, Seat,
};
use boardlab_core::{Audit, Notation, Rules};
use kernel::{nth_bit, RuleSet};
pub use position::Setup;
use std::fmt::Write as _;

/// Squares a1…d8 as indices 0…31.
pub type Square = u8;

boardlab_core::sides! {
    /// A piece colour: White or Black. Tables by colour are indexed with [`Side::index`]
    /// (0 White, 1 Black).
    White, Black
}

/// White: moves first unless the `first` option says otherwise.
pub const WHITE: Side = Side::White;
/// Black.
pub const BLACK: Side = Side::Black;

fn colour(side: Side) -> Colour {
    side.colour()
}

fn side_of(c: Colour) -> Side {
    if c == Colour::Black {
        BLACK
    } else {
        WHITE
    }
}

/// One whole turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Remove one own piece: `b2`.
    Remove(Square),
    /// Remove two own pieces that see each other, lower square first: `b2+b5`.
    Pair(Square, Square),
    /// Fair set-up: exchange a White and a Black piece, lower square first: `swap a1 c3`.
    Swap(Square, Square),
    /// Fair set-up: end the arrangement.
    Done,
    /// Fair set-up: the colour the second seat takes.
    ChooseColour(Colour),
    /// Fair set-up: the colour that removes first.
    ChooseFirst(Colour),
    /// Deterministic set-up: place an own piece: `@b2`.
    Place(Square),
}

/// Where the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Fair set-up: the arranger (first seat) may swap; `swaps` made so far.
    Arrange { swaps: u8 },
    /// Fair set-up: the second seat picks its colour.
    ChooseColour,
    /// Fair set-up: the arranger picks the colour that removes first.
    ChooseFirst,
    /// Deterministic set-up: placing pieces.
    Place,
    /// The removal phase (the game proper).
    Remove,
}

/// How the board is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetupKind {
    Random,
    Fair,
    Deterministic,
}

/// The options as typed values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    pub setup: SetupKind,
    pub pair: bool,
    pub sight_any: bool,
    pub enemy_sight: bool,
    pub first: Side,
    pub solitaire: bool,
    /// Solitaire goal squares of the last White and last Black piece.
    pub keep: Option<(Square, Square)>,
}

impl Config {
    /// Reads the typed configuration from checked options.
    ///
    /// # Errors
    /// A malformed `keep` value or an impossible combination.
    pub fn from_options(o: &Options) -> Result<Config, NewGameError> {
        let setup = match o.get("setup") {
            "fair" => SetupKind::Fair,
            "deterministic" => SetupKind::Deterministic,
            _ => SetupKind::Random,
        };
        let solitaire = o.get("mode") == "solitaire";
        let keep = match o.get("keep") {
            "" | "none" => None,
            text => {
                let parts: Vec<&str> = text.split([',', ' ']).filter(|s| !s.is_empty()).collect();
                let sqs: Vec<Option<Square>> = parts.iter().map(|p| parse_square(p)).collect();
                match sqs.as_slice() {
                    [Some(w), Some(b)] if w != b => Some((*w, *b)),
                    _ => {
                        return Err(o
                            .invalid(format!(
                                "keep='{text}' must be two different squares: the last White \
                                 piece's and the last Black piece's, e.g. keep=b2,c7"
                            ))
                            .into())
                    }
                }
            }
        };
        if keep.is_some() && !solitaire {
            return Err(o.invalid("keep= applies only with mode=solitaire").into());
        }
        if solitaire && setup == SetupKind::Fair {
            return Err(o
                .invalid("setup=fair is a set-up between two players; with mode=solitaire use setup=random or setup=deterministic")
                .into());
        }
        // In the fair set-up the arranger chooses who removes first (its move `first X`), so
        // an option cannot choose it beforehand.
        if setup == SetupKind::Fair && o.get("first") == "black" {
            return Err(o
                .invalid("first=black cannot be used with setup=fair: in the fair set-up the arranger chooses which colour removes first")
                .into());
        }
        Ok(Config {
            setup,
            pair: o.get("removal") == "pair",
            sight_any: o.get("sight") == "any",
            enemy_sight: o.get_bool("enemy-sight"),
            first: if o.get("first") == "black" {
                BLACK
            } else {
                WHITE
            },
            solitaire,
            keep,
        })
    }

    /// The options this configuration is read from, each canonically spelled (`keep` as
    /// `WHITE,BLACK`, e.g. `b2,c7`).
    #[must_use]
    pub fn to_options(&self) -> Options {
        let keep = match self.keep {
            Some((w, b)) => format!("{},{}", square_name(w), square_name(b)),
            None => String::new(),
        };
        let setup = match self.setup {
            SetupKind::Random => "random",
            SetupKind::Fair => "fair",
            SetupKind::Deterministic => "deterministic",
        };
        INFO.options_from_pairs([
            ("setup", setup),
            ("removal", if self.pair { "pair" } else { "single" }),
            ("sight", if self.sight_any { "any" } else { "orthogonal" }),
            (
                "enemy-sight",
                if self.enemy_sight { "true" } else { "false" },
            ),
            (
                "first",
                if self.first == BLACK {
                    "black"
                } else {
                    "white"
                },
            ),
            ("mode", if self.solitaire { "solitaire" } else { "match" }),
            ("keep", keep.as_str()),
        ])
        .expect("a configuration's options are valid")
    }
}

const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "setup",

        label: "Set-up",
        values: OptionValues::Choice {
            choices: &["random", "fair", "deterministic"],
        },
        default: "random",
        description: "random board from the seed; fair: random board, then up to two swaps, colour choice and first-player choice; deterministic: players place their pieces",
    },
    OptionSpec {
        name: "removal",

        label: "Removal",
        values: OptionValues::Choice {
            choices: &["single", "pair"],
        },
        default: "single",
        description: "single: remove one piece a turn; pair: also two own pieces that see each other",
    },
    OptionSpec {
        name: "sight",

        label: "Sight",
        values: OptionValues::Choice {
            choices: &["orthogonal", "any"],
        },
        default: "orthogonal",
        description: "directions in which a piece sees a friendly piece: orthogonal, or any of the 8",
    },
    OptionSpec {
        name: "enemy-sight",

        label: "Enemy sight",
        values: OptionValues::Bool,
        default: "false",
        description: "a removed piece must also see an enemy piece (any of the 8 directions)",
    },
    OptionSpec {
        name: "first",

        label: "First to move",
        values: OptionValues::Choice {
            choices: &["white", "black"],
        },
        default: "white",
        description: "the colour that moves first (with the fair set-up the arranger chooses it instead)",
    },
    OptionSpec {
        name: "mode",

        label: "Mode",
        values: OptionValues::Choice {
            choices: &["match", "solitaire"],
        },
        default: "match",
        description: "match: two players; solitaire: one person removes for both colours",
    },
    OptionSpec {
        name: "keep",

        label: "Goal squares",
        values: OptionValues::Text {
            accepted: "two squares, the last White piece's then the last Black piece's, e.g. b2,c7 (solitaire only)",
        },
        default: "",
        description: "solitaire goal: the squares where the last White and last Black piece must stand",
    },
];

static INFO: GameInfo = GameInfo {
    name: "sight-reduction",
    title: "Sight Reduction",
    summary: "Remove your own pieces while they can see a friend; the player left without a removal loses.",
    colours: [Colour::White, Colour::Black],
    options: OPTIONS,
    two_player_zero_sum: true,
    draws_possible: false,
    move_examples: "b2 (remove), b2+b5 (pair), swap a1 c3, done, color white, first black, @b2 (place)",
    multi_word_moves: &["swap:2", "color:1", "colour:1", "first:1"],
    has_position_text: true,
    solitaire_options: &["mode", "keep"],
};

mod keys {
    use boardlab_core::zobrist::keys;
    pub const PIECE: [u64; 64] = keys::<64>(0x5157_4854_5245_4455);
    pub const MISC: [u64; 16] = keys::<16>(0x5352_5048_4153_4531);
    pub const BLACK_TO_MOVE: u64 = MISC[0];
    pub const SECOND_IS_WHITE: u64 = MISC[1];
    pub const PHASE: [u64; 7] = [
        MISC[2], MISC[3], MISC[4], MISC[5], MISC[6], MISC[7], MISC[8],
    ];

    /// `BYTES[side][i][b]`: the XOR of the piece keys of `side` on the squares of byte `i`
    /// of the board whose bits are set in `b`.
    pub static BYTES: [[[u64; 256]; 4]; 2] = {
        let mut t = [[[0u64; 256]; 4]; 2];
        let mut side = 0;
        while side < 2 {
            let mut i = 0;
            while i < 4 {
                let mut b = 0;
                while b < 256 {
                    let mut h = 0;
                    let mut bit = 0;
                    while bit < 8 {
                        if b >> bit & 1 == 1 {
                            h ^= PIECE[side * 32 + i * 8 + bit];
                        }
                        bit += 1;
                    }
                    t[side][i][b] = h;
                    b += 1;
                }
                i += 1;
            }
            side += 1;
        }
        t
    };

    /// The XOR of the piece keys of a whole board.
    #[inline]
    pub fn board(board: [u32; 2]) -> u64 {
        let mut h = 0;
        for (side, &bits) in board.iter().enumerate() {
            for (i, byte) in bits.to_le_bytes().into_iter().enumerate() {
                h ^= BYTES[side][i][byte as usize];
            }
        }
        h
    }
}

/// Random single removals to the end of the game: returns the final (mover, other) boards
/// and the number of plies.
#[inline(always)]
fn single_playout<const ANY: bool, const ENEMY: bool, R: Rng + ?Sized>(
    mut mover: u32,
    mut other: u32,
    rng: &mut R,
) -> (u32, u32, u32) {
    let rules = RuleSet {
        sight_any: ANY,
        enemy_sight: ENEMY,
        pair: false,
    };
    let mut plies = 0;
    loop {
        let r = rules.removable(mover, other);
        if r == 0 {
            return (mover, other, plies);
        }
        let prefix = kernel::byte_prefix_counts(r);
        let sq = kernel::nth_bit_with_prefix(r, prefix, below(rng, prefix >> 24));
        (mover, other) = kernel::play(mover, other, 1 << sq);
        plies += 1;
    }
}

/// A uniform number in `0..n` (`n > 0`) by Lemire's multiply-and-reject method.
#[inline(always)]
fn below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    loop {
        let m = u64::from(rng.next_u32()) * u64::from(n);
        let low = m as u32;
        if low < n && low < n.wrapping_neg() % n {
            continue;
        }
        return (m >> 32) as u32;
    }
}

/// A Sight Reduction game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SightReduction {
    cfg: Config,
    /// Pieces by colour.
    board: [u32; 2],
    phase: Phase,
    /// The colour to move (placement and removal).
    side: Side,
    /// The colour the first seat plays, once known.
    first_seat: Option<Side>,
    ply: u32,
    hash: u64,
}

/// Parses a square name `a1`…`d8`.
#[must_use]
pub fn parse_square(text: &str) -> Option<Square> {
    coord::parse_square(text.trim(), 4, 8).map(|(f, r)| r * 4 + f)
}

/// The name of a square.
#[must_use]
pub fn square_name(sq: Square) -> String {
    coord::square_name(sq % 4, sq / 4)
}

impl SightReduction {
    /// The typed options.
    #[must_use]
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// Pieces of `side` as a bit set.
    #[must_use]
    pub fn pieces(&self, side: Side) -> u32 {
        self.board[side.index()]
    }

    /// All pieces on the board, both colours.
    #[must_use]
    pub fn occupied(&self) -> u32 {
        self.board[0] | self.board[1]
    }

    /// The phase.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The colour to move in the placement and removal phases.
    #[must_use]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    fn empty(&self) -> u32 {
        !(self.board[0] | self.board[1])
    }

    /// The pieces `side` may remove one at a time (the removal rule applied to each piece).
    #[inline]
    #[must_use]
    pub fn removable(&self, side: Side) -> u32 {
        RuleSet::of(&self.cfg).removable(self.board[side.index()], self.board[side.other().index()])
    }

    /// Pairs of own pieces that see each other (each also seeing an enemy with
    /// `enemy-sight`), lower square first, in order.
    fn pairs(&self, removable: u32, out: &mut Vec<Move>) {
        let occupied = self.board[0] | self.board[1];
        let rules = RuleSet::of(&self.cfg);
        let mut ps = removable;
        while ps != 0 {
            let p = ps.trailing_zeros() as u8;
            ps &= ps - 1;
            let mut partners = rules.partners(usize::from(p), occupied, removable);
            while partners != 0 {
                let q = partners.trailing_zeros() as u8;
                partners &= partners - 1;
                out.push(Move::Pair(p, q));
            }
        }
    }

    /// Empty squares where the side to move may place (deterministic set-up).
    fn placement_targets(&self) -> u32 {
        let empty = self.empty();
        if self.board[self.side.index()] == 0 {
            return empty;
        }
        let near = kernel::neighbours(self.board[self.side.other().index()]) & empty;
        if near != 0 {
            near
        } else {
            empty
        }
    }

    fn seat_of_side(&self, side: Side) -> Seat {
        match self.first_seat {
            Some(s) if s != side => Seat::Second,
            _ => Seat::First,
        }
    }

    /// A uniformly random full board (16 White, 16 Black).
    pub fn random_board<R: Rng + ?Sized>(rng: &mut R) -> [u32; 2] {
        // Every 32-bit word is equally likely, so among those with 16 bits set (about one in
        // seven) every arrangement is equally likely.
        loop {
            let word: u64 = rng.random();
            for white in [word as u32, (word >> 32) as u32] {
                if kernel::byte_prefix_counts(white) >> 24 == 16 {
                    return [white, !white];
                }
            }
        }
    }

    /// Replaces the board by a random full board, keeping options and phase rules (for
    /// benchmarks and studies that need many random set-ups).
    pub fn reset_random<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        self.board = Self::random_board(rng);
        self.phase = Phase::Remove;
        self.side = self.cfg.first;
        self.first_seat = Some(self.cfg.first);
        self.ply = 0;
        self.hash = self.hash_from_scratch();
    }

    fn blank_config(cfg: Config) -> SightReduction {
        SightReduction {
            cfg,
            board: [0, 0],
            phase: Phase::Remove,
            side: cfg.first,
            first_seat: Some(cfg.first),
            ply: 0,
            hash: 0,
        }
    }

    /// The game of a set-up that passed [`Setup::problems`] under `cfg`.
    fn from_checked(cfg: Config, setup: &Setup) -> SightReduction {
        let mut g = Self::blank_config(cfg);
        g.board = setup.board;
        g.phase = setup.resolved_phase(&cfg);
        match g.phase {
            Phase::Arrange { .. } | Phase::ChooseColour => g.first_seat = None,
            Phase::ChooseFirst => g.first_seat = setup.first_seat,
            Phase::Place | Phase::Remove => {
                if let Some(side) = setup.side {
                    g.side = side;
                    g.first_seat = Some(if setup.second { side.other() } else { side });
                }
            }
        }
        g.hash = g.hash_from_scratch();
        g
    }

    /// A new game from a typed configuration and a seed, as [`Game::new`] with the options
    /// that `cfg` was read from.
    #[must_use]
    pub fn from_config(cfg: Config, seed: u64) -> SightReduction {
        let mut g = Self::blank_config(cfg);
        match g.cfg.setup {
            SetupKind::Deterministic => {
                g.phase = Phase::Place;
            }
            SetupKind::Random => {
                g.board = Self::random_board(&mut boardlab_core::rng(seed));
            }
            SetupKind::Fair => {
                g.board = Self::random_board(&mut boardlab_core::rng(seed));
                g.phase = Phase::Arrange { swaps: 0 };
                g.first_seat = None;
            }
        }
        g.hash = g.hash_from_scratch();
        g
    }

    fn toggle_side(&mut self) {
        self.side = self.side.other();
        self.hash ^= keys::BLACK_TO_MOVE;
    }

    fn remove(&mut self, sq: Square) {
        let side = self.side;
        self.board[side.index()] &= !(1 << sq);
        self.hash ^= keys::PIECE[side.index() * 32 + sq as usize];
    }

    fn puzzle_outcome(&self) -> Outcome {
        let left = self.board[0].count_ones() + self.board[1].count_ones();
        let solved = if self.cfg.pair {
            left == 0
        } else {
            self.board[0].count_ones() == 1
                && self.board[1].count_ones() == 1
                && self
                    .cfg
                    .keep
                    .is_none_or(|(w, b)| self.board[0] == 1 << w && self.board[1] == 1 << b)
        };
        Outcome::Puzzle {
            score: left,
            solved,
            reason: "no legal removal",
        }
    }

    fn fmt_board(&self) -> String {
        let mut s = String::new();
        for rank in (0..8).rev() {
            if rank != 7 {
                s.push('/');
            }
            let mut run = 0;
            for file in 0..4 {
                let sq = rank * 4 + file;
                let c = if self.board[WHITE.index()] >> sq & 1 == 1 {
                    'W'
                } else if self.board[BLACK.index()] >> sq & 1 == 1 {
                    'B'
                } else {
                    run += 1;
                    continue;
                };
                if run > 0 {
                    let _ = write!(s, "{run}");
                    run = 0;
                }
                s.push(c);
            }
            if run > 0 {
                let _ = write!(s, "{run}");
            }
        }
        s
    }
}

fn parse_colour_word(word: &str) -> Option<Colour> {
    match word.to_ascii_lowercase().as_str() {
        "white" | "w" => Some(Colour::White),
        "black" | "b" => Some(Colour::Black),
        _ => None,
    }
}

impl Rules for SightReduction {
    type Move = Move;

    fn to_move(&self) -> Seat {
        match self.phase {
            Phase::Arrange { .. } | Phase::ChooseFirst => Seat::First,
            Phase::ChooseColour => Seat::Second,
            Phase::Place | Phase::Remove => {
                if self.cfg.solitaire {
                    Seat::First
                } else {
                    self.seat_of_side(self.side)
                }
            }
        }
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        match self.phase {
            Phase::Remove => {
                let r = self.removable(self.side);
                let mut x = r;
                while x != 0 {
                    moves.push(Move::Remove(x.trailing_zeros() as u8));
                    x &= x - 1;
                }
                if self.cfg.pair && r != 0 {
                    self.pairs(r, moves);
                }
            }
            Phase::Arrange { swaps } => {
                if swaps < 2 {
                    for a in 0..32u8 {
                        for b in a + 1..32u8 {
                            let wa = self.board[WHITE.index()] >> a & 1;
                            let wb = self.board[WHITE.index()] >> b & 1;
                            if wa != wb {
                                moves.push(Move::Swap(a, b));
                            }
                        }
                    }
                }
                moves.push(Move::Done);
            }
            Phase::ChooseColour => {
                moves.push(Move::ChooseColour(Colour::White));
                moves.push(Move::ChooseColour(Colour::Black));
            }
            Phase::ChooseFirst => {
                moves.push(Move::ChooseFirst(Colour::White));
                moves.push(Move::ChooseFirst(Colour::Black));
            }
            Phase::Place => {
                let mut x = self.placement_targets();
                while x != 0 {
                    moves.push(Move::Place(x.trailing_zeros() as u8));
                    x &= x - 1;
                }
            }
        }
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.ply += 1;
        match mv {
            Move::Remove(sq) => {
                self.remove(sq);
                self.toggle_side();
            }
            Move::Pair(a, b) => {
                self.remove(a);
                self.remove(b);
                self.toggle_side();
            }
            Move::Swap(a, b) => {
                let mask = (1u32 << a) | (1u32 << b);
                self.board[WHITE.index()] ^= mask;
                self.board[BLACK.index()] ^= mask;
                if let Phase::Arrange { swaps } = self.phase {
                    self.phase = Phase::Arrange { swaps: swaps + 1 };
                }
                self.hash = self.hash_from_scratch();
            }
            Move::Done => {
                self.phase = Phase::ChooseColour;
                self.hash = self.hash_from_scratch();
            }
            Move::ChooseColour(c) => {
                self.first_seat = Some(side_of(c).other());
                self.phase = Phase::ChooseFirst;
                self.hash = self.hash_from_scratch();
            }
            Move::ChooseFirst(c) => {
                self.side = side_of(c);
                self.phase = Phase::Remove;
                self.hash = self.hash_from_scratch();
            }
            Move::Place(sq) => {
                self.board[self.side.index()] |= 1 << sq;
                self.hash ^= keys::PIECE[self.side.index() * 32 + sq as usize];
                self.toggle_side();
                if self.board[0] | self.board[1] == u32::MAX {
                    self.phase = Phase::Remove;
                    self.hash = self.hash_from_scratch();
                }
            }
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Remove || self.removable(self.side) != 0 {
            return None;
        }
        if self.cfg.solitaire {
            return Some(self.puzzle_outcome());
        }
        let winner = self.side.other();
        Some(Outcome::Win {
            seat: self.seat_of_side(winner),
            colour: colour(winner),
            reason: "the opponent has no legal removal",
        })
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R, buf: &mut Vec<Move>) -> Option<Move> {
        if self.phase == Phase::Remove && !self.cfg.pair {
            let r = self.removable(self.side);
            if r == 0 {
                return None;
            }
            return Some(Move::Remove(nth_bit(r, below(rng, r.count_ones()))));
        }
        self.legal_moves(buf);
        if buf.is_empty() {
            None
        } else {
            Some(buf[rng.random_range(0..buf.len())])
        }
    }

    fn playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u32 {
        let mut n = 0;
        if self.phase == Phase::Remove && !self.cfg.pair {
            let (mover, other) = (
                self.board[self.side.index()],
                self.board[self.side.other().index()],
            );
            let (mover, other, plies) = match (self.cfg.sight_any, self.cfg.enemy_sight) {
                (false, false) => single_playout::<false, false, R>(mover, other, rng),
                (true, false) => single_playout::<true, false, R>(mover, other, rng),
                (false, true) => single_playout::<false, true, R>(mover, other, rng),
                (true, true) => single_playout::<true, true, R>(mover, other, rng),
            };
            // After an even number of plies the original mover is to move again.
            if plies % 2 == 1 {
                self.side = self.side.other();
            }
            self.board[self.side.index()] = mover;
            self.board[self.side.other().index()] = other;
            self.ply += plies;
            self.hash = self.hash_from_scratch();
            return plies;
        }
        let mut buf = Vec::new();
        while let Some(mv) = self.random_move(rng, &mut buf) {
            self.play_unchecked(mv);
            n += 1;
        }
        n
    }
}

impl Notation for SightReduction {
    type Setup = Setup;

    /// Reads the position text described in [`position`]. When the text cannot be read, the
    /// error also lists what [`Setup::problems`] finds in the parts that could be.
    fn read_setup(options: &Options, text: &str) -> Result<Setup, NewGameError> {
        let cfg = Config::from_options(options)?;
        let mut problems = Vec::new();
        match Setup::read(text, &mut problems) {
            Some(setup) if problems.is_empty() => return Ok(setup),
            Some(partial) => problems.extend(partial.problems(&cfg)),
            None => {}
        }
        Err(PositionError {
            text: text.to_string(),
            problems,
        }
        .into())
    }

    /// Checks the set-up with [`Setup::problems`].
    fn from_setup(options: &Options, setup: Setup) -> Result<Self, Rejected<Setup>> {
        let cfg = match Config::from_options(options) {
            Ok(cfg) => cfg,
            Err(e) => return Err(Rejected::new(setup, e)),
        };
        let problems = setup.problems(&cfg);
        let setup = Rejected::unless_problems(setup, problems)?;
        Ok(Self::from_checked(cfg, &setup))
    }

    fn position_text(&self) -> String {
        let board = self.fmt_board();
        match self.phase {
            Phase::Arrange { swaps } => format!("{board} - arrange {swaps}"),
            Phase::ChooseColour => format!("{board} - color"),
            Phase::ChooseFirst => {
                let second = self.first_seat.map_or(WHITE, |f| f.other());
                format!(
                    "{board} - first {}",
                    if second == WHITE { "w" } else { "b" }
                )
            }
            Phase::Place | Phase::Remove => {
                let mut s = format!("{board} {}", if self.side == WHITE { "w" } else { "b" });
                if self.phase == Phase::Place {
                    s.push_str(" place");
                } else if self.cfg.setup == SetupKind::Fair
                    && (self.board[0] | self.board[1]) == u32::MAX
                {
                    s.push_str(" remove");
                }
                if !self.cfg.solitaire && self.first_seat.is_some_and(|f| f != self.side) {
                    s.push_str(" second");
                }
                s
            }
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        let t = text.trim();
        let err = |reason: &str| ParseMoveError::new::<Self>(t, reason);
        let sq =
            |s: &str| parse_square(s).ok_or_else(|| err(&format!("'{s}' is not a square a1…d8")));
        let words: Vec<&str> = t.split_whitespace().collect();
        let lower = t.to_ascii_lowercase();
        match words.as_slice() {
            [] => Err(err("empty move")),
            [w, a, b] if w.eq_ignore_ascii_case("swap") => {
                let (a, b) = (sq(a)?, sq(b)?);
                if a == b {
                    return Err(err("a swap needs two different squares"));
                }
                Ok(Move::Swap(a.min(b), a.max(b)))
            }
            [w, ..] if w.eq_ignore_ascii_case("swap") => {
                Err(err("a swap is written 'swap X Y' with two squares"))
            }
            [w] if w.eq_ignore_ascii_case("done") => Ok(Move::Done),
            [w, c] if w.eq_ignore_ascii_case("color") || w.eq_ignore_ascii_case("colour") => {
                parse_colour_word(c)
                    .map(Move::ChooseColour)
                    .ok_or_else(|| err("the colour is white or black"))
            }
            [w, c] if w.eq_ignore_ascii_case("first") => parse_colour_word(c)
                .map(Move::ChooseFirst)
                .ok_or_else(|| err("the colour is white or black")),
            [_] if lower.starts_with('@') => Ok(Move::Place(sq(&t[1..])?)),
            [_] if t.contains('+') => {
                let (a, b) = t.split_once('+').unwrap_or((t, ""));
                let (a, b) = (sq(a)?, sq(b)?);
                if a == b {
                    return Err(err("a pair needs two different squares"));
                }
                Ok(Move::Pair(a.min(b), a.max(b)))
            }
            [s] => Ok(Move::Remove(sq(s)?)),
            _ => Err(err("unrecognised move")),
        }
    }

    fn format_move(&self, mv: Move) -> String {
        match mv {
            Move::Remove(s) => square_name(s),
            Move::Pair(a, b) => format!("{}+{}", square_name(a), square_name(b)),
            Move::Swap(a, b) => format!("swap {} {}", square_name(a), square_name(b)),
            Move::Done => "done".into(),
            Move::ChooseColour(c) => format!("color {c}"),
            Move::ChooseFirst(c) => format!("first {c}"),
            Move::Place(s) => format!("@{}", square_name(s)),
        }
    }

    fn diagram(&self) -> String {
        let mut s = String::new();
        let marks = if self.phase == Phase::Remove {
            self.removable(self.side)
        } else {
            0
        };
        s.push_str("    a b c d\n");
        for rank in (0..8u8).rev() {
            let _ = write!(s, " {} ", rank + 1);
            for file in 0..4u8 {
                let sq = rank * 4 + file;
                let c = if self.board[WHITE.index()] >> sq & 1 == 1 {
                    if marks >> sq & 1 == 1 {
                        'W'
                    } else {
                        'w'
                    }
                } else if self.board[BLACK.index()] >> sq & 1 == 1 {
                    if marks >> sq & 1 == 1 {
                        'B'
                    } else {
                        'b'
                    }
                } else {
                    '.'
                };
                let _ = write!(s, " {c}");
            }
            let _ = writeln!(s, "  {}", rank + 1);
        }
        s.push_str("    a b c d\n");
        if self.phase == Phase::Remove {
            s.push_str("(capital letters: pieces the side to move may remove)\n");
        }
        s
    }
}

impl Game for SightReduction {
    fn encoding(&self) -> Option<&dyn boardlab_core::encoding::DynEncoding> {
        Some(self)
    }

    fn encoding_mut(&mut self) -> Option<&mut dyn boardlab_core::encoding::DynEncoding> {
        Some(self)
    }

    fn info() -> &'static GameInfo {
        &INFO
    }

    fn new(options: &Options, seed: u64) -> Result<Self, NewGameError> {
        Ok(Self::from_config(Config::from_options(options)?, seed))
    }

    fn options(&self) -> Options {
        self.cfg.to_options()
    }

    fn colour_of(&self, seat: Seat) -> Option<Colour> {
        if self.cfg.solitaire {
            return (seat == Seat::First).then(|| colour(self.side));
        }
        let first = self.first_seat?;
        Some(colour(if seat == Seat::First {
            first
        } else {
            first.other()
        }))
    }

    fn colour_to_move(&self) -> Option<Colour> {
        match self.phase {
            Phase::Place | Phase::Remove => Some(colour(self.side)),
            _ => None,
        }
    }

    fn is_solitaire(&self) -> bool {
        self.cfg.solitaire
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    fn restart<R: Rng + ?Sized>(&self, rng: &mut R) -> Self {
        let mut g = self.clone();
        match self.cfg.setup {
            SetupKind::Random => g.reset_random(rng),
            _ => g = Self::from_config(self.cfg, rng.random()),
        }
        g
    }
}

impl Audit for SightReduction {
    fn hash_from_scratch(&self) -> u64 {
        let mut h = keys::board(self.board);
        if self.side == BLACK {
            h ^= keys::BLACK_TO_MOVE;
        }
        if self.first_seat == Some(BLACK) {
            h ^= keys::SECOND_IS_WHITE;
        }
        h ^= match self.phase {
            Phase::Remove => 0,
            Phase::Place => keys::PHASE[0],
            Phase::Arrange { swaps } => keys::PHASE[1 + swaps as usize],
            Phase::ChooseColour => keys::PHASE[4],
            Phase::ChooseFirst => keys::PHASE[5],
        };
        h
    }
}
