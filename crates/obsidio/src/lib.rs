//! Obsidio: two players place influence tokens by line of sight on an n×n board and claim
//! target tiles with four or more of their tokens around them; a majority of the targets wins.
//!
//! Rules: `docs/rules/obsidio.md`. Boards of 7×7, 9×9 and 11×11 squares are `u128` bit sets
//! (see [`geometry`]); line of sight is read from one occupancy word per line and precomputed
//! tables. Move generation and random
//! playouts allocate nothing: a random move is drawn by counting the moves of each kind and
//! building only the one chosen, which is exactly the move at that index of
//! [`Rules::legal_moves`], so playouts are uniform over the legal moves.
//!
//! # Colours and seats
//! Black is the first seat and moves first; White is the second seat. After a `swap` the
//! seats exchange colours (the second seat plays Black) and White — now the first seat — is
//! to move. Supplies, tokens and claims belong to colours.
//!
//! # Move order
//! [`Rules::legal_moves`] lists:
//! 1. dark placements (`c3`), by square in a1, b1, …, a2, … order;
//! 2. light placements by the first square, in square order; for each, the two-token moves
//!    (`b3,f3`) by the second square, or the single token (`b3`) when no second token can
//!    follow it;
//! 3. claims (`+d4`, `+b2+d4`), grouped by the target claimed last (in square order); within
//!    a group, by the set of the other targets read as a binary number whose lowest bit is
//!    the first claimable target in square order (so `+d4` comes before `+b2+d4`);
//! 4. `swap`;
//! 5. `pass` (only when nothing else is legal).

pub mod ai;
pub mod claims;
pub mod encoding;
pub mod geometry;
mod position;
mod present;
mod tutorial;

use boardlab_core::rand::Rng;
use boardlab_core::{Audit, Notation, Rules};
use boardlab_core::{
    Colour, Game, GameInfo, NewGameError, OptionSpec, OptionValues, Options, Outcome,
    ParseMoveError, PositionError, Rejected, Seat,
};
use geometry::{nth_bit, Bits, Geometry, Kind, Square, NO_SQUARE};
pub use position::Setup;
use std::fmt::Write as _;

boardlab_core::sides! {
    /// A colour: Black or White. Tables by colour are indexed with [`Side::index`] (0 Black,
    /// 1 White).
    Black, White
}

/// Black: the first seat's colour at the start; moves first.
pub const BLACK: Side = Side::Black;
/// White: the second seat's colour at the start.
pub const WHITE: Side = Side::White;

/// The supply of a colour with no token limit.
pub const UNLIMITED: u16 = u16::MAX;

fn colour(side: Side) -> Colour {
    if side == BLACK {
        Colour::Black
    } else {
        Colour::White
    }
}

fn side_letter(side: Side) -> char {
    if side == BLACK {
        'b'
    } else {
        'w'
    }
}

/// One whole turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// One token: a dark placement (`c3`), or a light placement whose second token is
    /// forfeited (`b3`).
    Place(Square),
    /// Two light tokens, in the order placed (`b3,f3`); the second becomes the anchor.
    PlaceTwo(Square, Square),
    /// Control tokens on targets: `targets` is the set claimed (bit i = the i-th target in
    /// square order) and `last` the target claimed last (`+b2+d4`: d4 last).
    Claim { targets: u32, last: u8 },
    /// The pie rule: the second seat takes Black's position.
    Swap,
    /// No other move is legal.
    Pass,
}

/// Where the pie rule stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwapState {
    /// No move has been played yet.
    Start,
    /// The second seat's first turn: with `pie=true` it may swap.
    Offer,
    /// The swap was played: the first seat plays White, the second Black.
    Swapped,
    /// The swap was declined (or never offered); it is no longer possible.
    Closed,
}

impl SwapState {
    fn word(self) -> &'static str {
        match self {
            SwapState::Start => "start",
            SwapState::Offer => "offer",
            SwapState::Swapped => "swapped",
            SwapState::Closed => "closed",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// The options as typed values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// Board side: 7, 9 or 11.
    pub size: u8,
    /// Tokens per colour at the start, or [`UNLIMITED`].
    pub tokens: u16,
    /// Whether `tokens` is the size's own supply (`tokens=auto`) rather than a number given.
    pub tokens_auto: bool,
    /// Whether the second seat may swap on its first turn.
    pub pie: bool,
}

impl Config {
    /// Reads the typed configuration from checked options.
    #[must_use]
    pub fn from_options(o: &Options) -> Config {
        let size = match o.get("size") {
            "7" => 7,
            "11" => 11,
            _ => 9,
        };
        let tokens = match o.get_int("tokens") {
            Some(n) => u16::try_from(n).unwrap_or(UNLIMITED - 1).min(UNLIMITED - 1),
            None if size == 9 => 51,
            None => UNLIMITED,
        };
        Config {
            size,
            tokens,
            tokens_auto: o.get_int("tokens").is_none(),
            pie: o.get_bool("pie"),
        }
    }

    /// The options this configuration is read from, canonically spelled.
    #[must_use]
    pub fn to_options(&self) -> Options {
        let size = self.size.to_string();
        let tokens = if self.tokens_auto {
            "auto".to_string()
        } else {
            self.tokens.to_string()
        };
        INFO.options_from_pairs([
            ("size", size.as_str()),
            ("tokens", tokens.as_str()),
            ("pie", if self.pie { "true" } else { "false" }),
        ])
        .expect("a configuration's options are valid")
    }
}

const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "size",

        label: "Board size",
        values: OptionValues::Choice {
            choices: &["7", "9", "11"],
        },
        default: "9",
        description: "board side: 7×7 (9 targets), 9×9 (16 targets) or 11×11 (25 targets)",
    },
    OptionSpec {
        name: "tokens",

        label: "Tokens",
        values: OptionValues::IntOr {
            min: 1,
            max: 999,
            word: "auto",
        },
        default: "auto",
        description: "tokens per player; auto: 51 on 9×9, unlimited on 7×7 and 11×11",
    },
    OptionSpec {
        name: "pie",

        label: "Pie rule",
        values: OptionValues::Bool,
        default: "true",
        description: "pie rule: the second player may swap colours instead of its first move",
    },
];

static INFO: GameInfo = GameInfo {
    name: "obsidio",
    title: "Obsidio",
    summary: "Place influence tokens by line of sight and claim a majority of the target tiles.",
    colours: [Colour::Black, Colour::White],
    options: OPTIONS,
    two_player_zero_sum: true,
    draws_possible: true,
    move_examples: "c3 (dark square), b3,f3 (two light squares), b3 (one light square), +d4 or +d4+f6 (claim targets), swap, pass",
    multi_word_moves: &[],
    has_position_text: true,
    solitaire_options: &[],
};

mod keys {
    use boardlab_core::zobrist::keys;
    const ALL: [u64; 384] = keys::<384>(0x4F42_5349_4449_4F31);
    /// `TOKEN[side.index() * 121 + square]`: a token of `side` on the square (control tokens too).
    pub const TOKEN: &[u64] = ALL.split_at(242).0;
    /// `ANCHOR[square]`.
    pub const ANCHOR: &[u64] = ALL.split_at(242).1.split_at(121).0;
    pub const WHITE_TO_MOVE: u64 = ALL[363];
    pub const SWAP: [u64; 4] = [0, ALL[364], ALL[365], ALL[366]];
    pub const PASSES: [u64; 3] = [0, ALL[367], ALL[368]];
    /// Last claimer: none, Black, White.
    pub const CLAIMER: [u64; 3] = [0, ALL[369], ALL[370]];
}

/// A board geometry, compared by size (games of one size share one geometry).
#[derive(Clone, Copy)]
struct Geo(&'static Geometry);

impl PartialEq for Geo {
    fn eq(&self, other: &Geo) -> bool {
        self.0.n == other.0.n
    }
}

impl Eq for Geo {}

impl std::fmt::Debug for Geo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{0}x{0}", self.0.n)
    }
}

/// An Obsidio game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Obsidio {
    cfg: Config,
    geo: Geo,
    /// Influence tokens by colour.
    tokens: [u128; 2],
    /// Claimed targets by colour (target sets).
    claimed: [u32; 2],
    /// Targets with four or more influence tokens of the colour around them (derived).
    ready: [u32; 2],
    /// `around[side.index()][t]`: influence tokens of `side` next to target `t` (derived).
    around: [[u8; 32]; 2],
    /// Occupancy word of each line: tokens, targets and sentinels (derived; see
    /// [`Geometry::line_start`]).
    lines: [u16; 64],
    /// Whether the game is over (derived).
    over: bool,
    /// Tokens left by colour, or [`UNLIMITED`].
    supply: [u16; 2],
    /// The last token placed, or [`NO_SQUARE`].
    anchor: Square,
    /// The colour to move.
    side: Side,
    swap: SwapState,
    /// Passes in a row (2 ends the game).
    passes: u8,
    /// The colour whose move most recently contained a claim.
    claimer: Option<Side>,
    /// Each colour's last placement or claim (display only: not in the hash).
    last: [Option<Move>; 2],
    ply: u32,
    hash: u64,
}

/// What the side to move may do: enough to count the legal moves and build any one of them.
#[derive(Clone, Copy, Debug)]
struct Choices {
    /// Dark squares allowed, and how many.
    dark: u128,
    dark_count: u32,
    /// First light squares allowed, in square order, and how many.
    firsts: [Square; 64],
    first_count: usize,
    /// For each first light square: how many second squares it has.
    seconds: [u8; 64],
    /// Empty light squares, to find second light squares.
    empty_light: u128,
    /// Whether two light tokens may be placed (two or more tokens left).
    two: bool,
    /// Light placement moves in all.
    light: u64,
    claimable: u32,
    supply: u32,
    /// Claim moves in all, and per last target.
    claims: u64,
    claim_group: u64,
    swap: bool,
}

impl Choices {
    #[inline]
    fn total(&self) -> u64 {
        u64::from(self.dark_count) + self.light + self.claims + u64::from(self.swap)
    }
}

impl Obsidio {
    /// The board geometry.
    #[must_use]
    pub fn geometry(&self) -> &'static Geometry {
        self.geo.0
    }

    /// The typed options.
    #[must_use]
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// Influence tokens of `side` as a square set.
    #[must_use]
    pub fn tokens(&self, side: Side) -> u128 {
        self.tokens[side.index()]
    }

    /// Targets claimed by `side` (bit i = the i-th target in square order).
    #[must_use]
    pub fn claimed(&self, side: Side) -> u32 {
        self.claimed[side.index()]
    }

    /// Tokens left to `side`, or [`UNLIMITED`].
    #[must_use]
    pub fn supply(&self, side: Side) -> u16 {
        self.supply[side.index()]
    }

    /// The anchor square, if any token has been placed.
    #[must_use]
    pub fn anchor(&self) -> Option<Square> {
        (self.anchor != NO_SQUARE).then_some(self.anchor)
    }

    /// The colour to move.
    #[must_use]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// Where the pie rule stands.
    #[must_use]
    pub fn swap_state(&self) -> SwapState {
        self.swap
    }

    /// Passes in a row.
    #[must_use]
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// The colour whose move most recently contained a claim.
    #[must_use]
    pub fn last_claimer(&self) -> Option<Side> {
        self.claimer
    }

    /// The last placement or claim of `side` (for display).
    #[must_use]
    pub fn last_move(&self, side: Side) -> Option<Move> {
        self.last[side.index()]
    }

    /// Targets `side` could claim now (unclaimed, four or more of its tokens around).
    #[must_use]
    pub fn claimable(&self, side: Side) -> u32 {
        self.ready[side.index()] & !(self.claimed[0] | self.claimed[1])
    }

    /// The seat playing `side`.
    #[must_use]
    pub fn seat_of(&self, side: Side) -> Seat {
        if (side == BLACK) == (self.swap != SwapState::Swapped) {
            Seat::First
        } else {
            Seat::Second
        }
    }

    /// The position before the first move (the options are not parsed again: `cfg` is
    /// theirs).
    fn start(cfg: Config) -> Obsidio {
        let mut g = Obsidio {
            cfg,
            geo: Geo(Geometry::of_size(cfg.size)),
            tokens: [0; 2],
            claimed: [0; 2],
            ready: [0; 2],
            around: [[0; 32]; 2],
            lines: Geometry::of_size(cfg.size).line_start,
            over: false,
            supply: [cfg.tokens; 2],
            anchor: NO_SQUARE,
            side: BLACK,
            swap: SwapState::Start,
            passes: 0,
            claimer: None,
            last: [None; 2],
            ply: 0,
            hash: 0,
        };
        g.hash = g.hash_from_scratch();
        g
    }

    /// Recomputes the derived fields (`ready`, `around`, `lines`, `over`) from the tokens,
    /// claims and passes.
    fn refresh_derived(&mut self) {
        let g = self.geo.0;
        self.ready = [0; 2];
        self.around = [[0; 32]; 2];
        self.lines = g.line_words(self.tokens[0] | self.tokens[1]);
        for side in [BLACK, WHITE] {
            for t in 0..g.targets {
                let around = g.neighbours[g.target_square[t as usize] as usize];
                let n = (self.tokens[side.index()] & around).count_ones();
                self.around[side.index()][t as usize] = n as u8;
                if n >= 4 {
                    self.ready[side.index()] |= 1 << t;
                }
            }
        }
        self.over = self.outcome().is_some();
    }

    /// Whether the game is over (kept up to date by every move).
    #[inline]
    fn is_over(&self) -> bool {
        self.over
    }

    /// Marks `sq` as blocked on its four lines.
    #[inline]
    fn mark_lines(&mut self, sq: Square) {
        let g = self.geo.0;
        let s = sq as usize & 127;
        let (ids, bits) = (&g.line_id[s], &g.line_bit[s]);
        for k in 0..4 {
            self.lines[ids[k] as usize & 63] |= bits[k];
        }
    }

    /// How many second light squares a first light token on `first` would have: the empty
    /// light squares it sees at distance two or more, looked up line by line from the line
    /// words (along a diagonal every square is light, along the alternating line every
    /// second one).
    #[inline]
    fn seconds_count(&self, first: Square) -> u32 {
        let spots = &self.geo.0.spots[first as usize & 127];
        spots
            .iter()
            .map(|spot| spot.seconds(self.lines[spot.line as usize & 63]))
            .sum()
    }

    /// The empty squares the side to move may use for a dark placement, and for the first
    /// token of a light placement: those in line of sight of the anchor if any, else all.
    #[inline]
    fn placement_squares(&self, empty: u128) -> (u128, u128) {
        let g = self.geo.0;
        let seen = if self.anchor == NO_SQUARE {
            0
        } else {
            g.los(self.anchor, &self.lines) & empty
        };
        let pick = |kind: u128| {
            let near = seen & kind;
            if near != 0 {
                near
            } else {
                empty & kind
            }
        };
        (pick(g.dark), pick(g.light))
    }

    /// Second light squares after a first token on `first`.
    #[inline]
    fn second_squares(&self, first: Square, empty_light: u128) -> u128 {
        let g = self.geo.0;
        g.los(first, &self.lines) & empty_light & !g.near[first as usize & 127]
    }

    /// Everything the side to move may do (the game must not be over).
    #[inline]
    fn choices(&self) -> Choices {
        let g = self.geo.0;
        let supply = u32::from(self.supply[self.side.index()]);
        let mut ch = Choices {
            dark: 0,
            dark_count: 0,
            firsts: [0; 64],
            first_count: 0,
            seconds: [0; 64],
            empty_light: 0,
            two: supply >= 2,
            light: 0,
            claimable: self.claimable(self.side),
            supply,
            claims: 0,
            claim_group: 0,
            swap: self.swap == SwapState::Offer && self.cfg.pie,
        };
        if supply > 0 {
            let empty = g.placement & !(self.tokens[0] | self.tokens[1]);
            let (dark, first) = self.placement_squares(empty);
            ch.dark = dark;
            ch.dark_count = geometry::count_dark(dark);
            ch.empty_light = empty & g.light;
            let mut i = 0;
            let mut light = 0;
            for (half, base) in [(first as u64, 0), ((first >> 64) as u64, 64)] {
                let mut x = half;
                while x != 0 {
                    let b = (base + x.trailing_zeros()) as Square;
                    x &= x - 1;
                    ch.firsts[i & 63] = b;
                    if ch.two {
                        let n = self.seconds_count(b);
                        ch.seconds[i & 63] = n as u8;
                        light += n.max(1);
                    } else {
                        light += 1;
                    }
                    i += 1;
                }
            }
            ch.first_count = i;
            ch.light = u64::from(light);
            if ch.claimable != 0 {
                let (claims, group) = claims::count(ch.claimable, supply);
                ch.claims = claims;
                ch.claim_group = group;
            }
        }
        ch
    }

    /// The move at `index` of the legal move list described by `ch`; `index` below
    /// `ch.total()`, or equal to it for the pass when the total is 0.
    #[inline]
    fn nth_move(&self, ch: &Choices, mut index: u64) -> Move {
        let dark = u64::from(ch.dark_count);
        if index < dark {
            return Move::Place(nth_bit(ch.dark, index as u32));
        }
        index -= dark;
        if index < ch.light {
            let mut index = index as u32;
            for i in 0..ch.first_count.min(64) {
                let b = ch.firsts[i];
                let n = if ch.two { u32::from(ch.seconds[i]) } else { 0 };
                if n == 0 {
                    if index == 0 {
                        return Move::Place(b);
                    }
                    index -= 1;
                } else if index < n {
                    let seconds = self.second_squares(b, ch.empty_light);
                    return Move::PlaceTwo(b, nth_bit(seconds, index));
                } else {
                    index -= n;
                }
            }
            unreachable!("light placement index within the count");
        }
        index -= ch.light;
        if index < ch.claims {
            let (targets, last) = claims::nth(ch.claimable, ch.supply, ch.claim_group, index);
            return Move::Claim { targets, last };
        }
        index -= ch.claims;
        if ch.swap && index == 0 {
            Move::Swap
        } else {
            Move::Pass
        }
    }

    /// Puts a token of `side` on `sq` (no hash update).
    #[inline]
    fn put(&mut self, side: Side, sq: Square) {
        let g = self.geo.0;
        let s = sq as usize & 127;
        self.tokens[side.index()] |= g.bit[s];
        if self.supply[side.index()] != UNLIMITED {
            self.supply[side.index()] -= 1;
        }
        self.mark_lines(sq);
        let near = &g.adjacent_targets[s];
        for &t in near.iter().take(g.adjacent_count[s] as usize) {
            let t = t as usize & 31;
            let n = &mut self.around[side.index()][t];
            *n += 1;
            if *n == 4 {
                self.ready[side.index()] |= 1 << t;
            }
        }
    }

    /// Plays `mv`, updating the hash when `HASH` is set.
    #[inline]
    fn apply<const HASH: bool>(&mut self, mv: Move) {
        let g = self.geo.0;
        let me = self.side;
        let mut h = 0u64;
        let old_anchor = self.anchor;
        match mv {
            Move::Place(sq) => {
                self.put(me, sq);
                self.anchor = sq;
                if HASH {
                    h ^= keys::TOKEN[me.index() * 121 + sq as usize];
                }
            }
            Move::PlaceTwo(a, b) => {
                self.put(me, a);
                self.put(me, b);
                self.anchor = b;
                if HASH {
                    h ^= keys::TOKEN[me.index() * 121 + a as usize]
                        ^ keys::TOKEN[me.index() * 121 + b as usize];
                }
            }
            Move::Claim { targets, last } => {
                self.claimed[me.index()] |= targets;
                if self.supply[me.index()] != UNLIMITED {
                    self.supply[me.index()] -= targets.count_ones() as u16;
                }
                self.anchor = g.target_square[last as usize];
                if HASH {
                    let mut t = targets;
                    while t != 0 {
                        let sq = g.target_square[t.trailing_zeros() as usize];
                        h ^= keys::TOKEN[me.index() * 121 + sq as usize];
                        t &= t - 1;
                    }
                    h ^= keys::CLAIMER[claimer_index(self.claimer)]
                        ^ keys::CLAIMER[claimer_index(Some(me))];
                }
                self.claimer = Some(me);
                self.over = self.outcome().is_some();
            }
            Move::Swap | Move::Pass => {}
        }
        let old_swap = self.swap;
        let old_passes = self.passes;
        match mv {
            Move::Swap => self.swap = SwapState::Swapped,
            Move::Pass => {
                self.passes += 1;
                self.over |= self.passes >= 2;
            }
            _ => {
                self.passes = 0;
                self.last[me.index()] = Some(mv);
            }
        }
        if mv != Move::Swap {
            self.side = self.side.other();
            match self.swap {
                SwapState::Start => self.swap = SwapState::Offer,
                SwapState::Offer => self.swap = SwapState::Closed,
                _ => {}
            }
        }
        self.ply += 1;
        if HASH {
            if old_anchor != self.anchor {
                if old_anchor != NO_SQUARE {
                    h ^= keys::ANCHOR[old_anchor as usize];
                }
                h ^= keys::ANCHOR[self.anchor as usize];
            }
            if mv != Move::Swap {
                h ^= keys::WHITE_TO_MOVE;
            }
            h ^= keys::SWAP[old_swap.index()] ^ keys::SWAP[self.swap.index()];
            h ^= keys::PASSES[old_passes as usize] ^ keys::PASSES[self.passes as usize];
            self.hash ^= h;
        }
    }

    fn outcome_for(&self, side: Side, reason: &'static str) -> Outcome {
        Outcome::Win {
            seat: self.seat_of(side),
            colour: colour(side),
            reason,
        }
    }

    /// Names the squares of a set, for messages.
    fn names(&self, set: u128) -> String {
        let g = self.geo.0;
        let names: Vec<String> = Bits::of(set).map(|s| g.name(s)).collect();
        names.join(", ")
    }

    fn why_place_illegal(&self, mv: Move) -> Option<String> {
        let g = self.geo.0;
        let me = self.side;
        let who = colour(me);
        let supply = self.supply[me.index()];
        let blockers = self.tokens[0] | self.tokens[1] | g.target_mask;
        let (first, second) = match mv {
            Move::Place(a) => (a, None),
            Move::PlaceTwo(a, b) => (a, Some(b)),
            _ => return None,
        };
        let needed = if second.is_some() { 2 } else { 1 };
        if supply != UNLIMITED && supply < needed {
            return Some(format!(
                "{who} has {supply} token{} left",
                if supply == 1 { "" } else { "s" }
            ));
        }
        for sq in std::iter::once(first).chain(second) {
            if blockers & (1 << sq) != 0 {
                return Some(format!("{} is occupied", g.name(sq)));
            }
        }
        let (dark, light) = self.placement_squares(g.placement & !blockers);
        let kind = g.kind(first);
        let allowed = if kind == Kind::Dark { dark } else { light };
        if allowed & (1 << first) == 0 {
            let word = if kind == Kind::Dark { "dark" } else { "light" };
            return Some(format!(
                "{} has no line of sight to the anchor {}, and some empty {word} squares do: {}",
                g.name(first),
                g.name(self.anchor),
                self.names(allowed)
            ));
        }
        if kind == Kind::Dark {
            return None;
        }
        let seconds = self.second_squares(first, g.light & !blockers);
        match second {
            None if supply >= 2 && seconds != 0 => Some(format!(
                "a light placement must add a second token when it can; after {} it can go on {}",
                g.name(first),
                self.names(seconds)
            )),
            Some(b) if g.neighbours[first as usize] & (1 << b) != 0 => Some(format!(
                "the second token may not be next to the first ({} touches {})",
                g.name(b),
                g.name(first)
            )),
            Some(b) if seconds & (1 << b) == 0 => Some(format!(
                "{} has no line of sight to {}{}",
                g.name(b),
                g.name(first),
                if seconds == 0 {
                    format!(", and no square does: play {} alone", g.name(first))
                } else {
                    format!("; second squares: {}", self.names(seconds))
                }
            )),
            _ => None,
        }
    }

    fn why_claim_illegal(&self, targets: u32) -> Option<String> {
        let g = self.geo.0;
        let me = self.side;
        for t in Bits::of(u128::from(targets)) {
            let sq = g.target_square[t as usize];
            if (self.claimed[0] | self.claimed[1]) & (1 << t) != 0 {
                return Some(format!("{} is already claimed", g.name(sq)));
            }
            let n = (self.tokens[me.index()] & g.neighbours[sq as usize]).count_ones();
            if n < 4 {
                return Some(format!(
                    "{} has {n} {} influence token{} around it; a claim needs 4",
                    g.name(sq),
                    colour(me),
                    if n == 1 { "" } else { "s" }
                ));
            }
        }
        let supply = self.supply[me.index()];
        if supply != UNLIMITED && u32::from(supply) < targets.count_ones() {
            return Some(format!(
                "{} has only {supply} token{} left for {} claims",
                colour(me),
                if supply == 1 { "" } else { "s" },
                targets.count_ones()
            ));
        }
        None
    }

    /// Whether `mv` could be a move on this board at all (what [`Notation::parse_move`] ensures
    /// for moves read from text): squares on the board and of the right kind, claims of
    /// existing targets with the last one among them.
    fn well_formed(&self, mv: Move) -> bool {
        let g = self.geo.0;
        let kind = |s: Square| (s < g.cells).then(|| g.kind(s));
        match mv {
            Move::Place(a) => matches!(kind(a), Some(Kind::Dark | Kind::Light)),
            Move::PlaceTwo(a, b) => {
                a != b && kind(a) == Some(Kind::Light) && kind(b) == Some(Kind::Light)
            }
            Move::Claim { targets, last } => {
                last < g.targets && targets >> last & 1 == 1 && targets >> g.targets == 0
            }
            Move::Swap | Move::Pass => true,
        }
    }

    /// The name of target `t`, or `?` for a target the board does not have.
    fn target_name(&self, t: u32) -> String {
        let g = self.geo.0;
        if t < u32::from(g.targets) {
            g.name(g.target_square[t as usize])
        } else {
            "?".to_string()
        }
    }

    fn diagram_cell(&self, sq: Square) -> char {
        let g = self.geo.0;
        let bit = 1u128 << sq;
        match g.kind(sq) {
            Kind::Target => {
                let t = g.target_index[sq as usize];
                if self.claimed[BLACK.index()] >> t & 1 == 1 {
                    'B'
                } else if self.claimed[WHITE.index()] >> t & 1 == 1 {
                    'W'
                } else {
                    '+'
                }
            }
            kind => {
                if self.tokens[BLACK.index()] & bit != 0 {
                    'b'
                } else if self.tokens[WHITE.index()] & bit != 0 {
                    'w'
                } else if kind == Kind::Dark {
                    '.'
                } else {
                    '-'
                }
            }
        }
    }

    /// The squares of a move (for last-move markers).
    fn move_squares(&self, mv: Option<Move>) -> u128 {
        let g = self.geo.0;
        match mv {
            Some(Move::Place(a)) => 1 << a,
            Some(Move::PlaceTwo(a, b)) => 1 << a | 1 << b,
            Some(Move::Claim { targets, .. }) => Bits::of(u128::from(targets))
                .map(|t| 1u128 << g.target_square[t as usize])
                .fold(0, |a, b| a | b),
            _ => 0,
        }
    }
}

/// A uniform index below `total` (0 when `total` is 0: the pass).
#[inline]
fn draw<R: Rng + ?Sized>(rng: &mut R, total: u64) -> u64 {
    match u32::try_from(total) {
        Ok(0) => 0,
        Ok(t) => u64::from(rng.random_range(0..t)),
        Err(_) => rng.random_range(0..total),
    }
}

fn claimer_index(c: Option<Side>) -> usize {
    c.map_or(0, |s| s.index() + 1)
}

impl Rules for Obsidio {
    type Move = Move;

    fn to_move(&self) -> Seat {
        self.seat_of(self.side)
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.is_over() {
            return;
        }
        let ch = self.choices();
        moves.extend(Bits::of(ch.dark).map(Move::Place));
        for &b in &ch.firsts[..ch.first_count] {
            let seconds = if ch.two {
                self.second_squares(b, ch.empty_light)
            } else {
                0
            };
            if seconds == 0 {
                moves.push(Move::Place(b));
            } else {
                moves.extend(Bits::of(seconds).map(|c| Move::PlaceTwo(b, c)));
            }
        }
        for i in 0..ch.claims {
            let (targets, last) = claims::nth(ch.claimable, ch.supply, ch.claim_group, i);
            moves.push(Move::Claim { targets, last });
        }
        if ch.swap {
            moves.push(Move::Swap);
        }
        if moves.is_empty() {
            moves.push(Move::Pass);
        }
    }

    fn is_legal(&self, mv: Move) -> bool {
        if self.is_over() || !self.well_formed(mv) {
            return false;
        }
        match mv {
            Move::Place(_) | Move::PlaceTwo(..) => self.why_place_illegal(mv).is_none(),
            Move::Claim { targets, .. } => self.why_claim_illegal(targets).is_none(),
            Move::Swap => self.swap == SwapState::Offer && self.cfg.pie,
            Move::Pass => self.choices().total() == 0,
        }
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.apply::<true>(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        let total = u32::from(self.geo.0.targets);
        let (b, w) = (self.claimed[0].count_ones(), self.claimed[1].count_ones());
        if 2 * b > total {
            return Some(self.outcome_for(BLACK, "a majority of the targets"));
        }
        if 2 * w > total {
            return Some(self.outcome_for(WHITE, "a majority of the targets"));
        }
        let last = self.claimer.unwrap_or(BLACK);
        if b + w == total {
            return Some(
                self.outcome_for(last, "all targets claimed, equal shares: last to claim"),
            );
        }
        if self.passes >= 2 {
            return Some(match b.cmp(&w) {
                std::cmp::Ordering::Greater => self.outcome_for(BLACK, "two passes: more targets"),
                std::cmp::Ordering::Less => self.outcome_for(WHITE, "two passes: more targets"),
                std::cmp::Ordering::Equal if b > 0 => {
                    self.outcome_for(last, "two passes, equal targets: last to claim")
                }
                std::cmp::Ordering::Equal => Outcome::Draw {
                    reason: "two passes and no target claimed",
                },
            });
        }
        None
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R, _buf: &mut Vec<Move>) -> Option<Move> {
        if self.is_over() {
            return None;
        }
        let ch = self.choices();
        Some(self.nth_move(&ch, draw(rng, ch.total())))
    }

    fn playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u32 {
        let mut n = 0;
        while !self.is_over() {
            let ch = self.choices();
            let mv = self.nth_move(&ch, draw(rng, ch.total()));
            self.apply::<false>(mv);
            n += 1;
        }
        self.hash = self.hash_from_scratch();
        n
    }
}

impl Notation for Obsidio {
    type Setup = Setup;

    /// Reads the position text described in `docs/rules/obsidio.md`. Besides the syntax, the
    /// items must agree with the board (the supply, the claimer, the last moves); when the
    /// text can be read only in part, the error also lists what the rules' checks find in
    /// the rest.
    fn read_setup(options: &Options, text: &str) -> Result<Setup, NewGameError> {
        let start = Obsidio::start(Config::from_options(options));
        Setup::read(&start, text).map_err(|problems| {
            PositionError {
                text: text.to_string(),
                problems,
            }
            .into()
        })
    }

    /// Checks the set-up with [`Setup::problems`].
    fn from_setup(options: &Options, setup: Setup) -> Result<Self, Rejected<Setup>> {
        let cfg = Config::from_options(options);
        let problems = setup.problems(&cfg);
        let setup = Rejected::unless_problems(setup, problems)?;
        Ok(setup.build(Obsidio::start(cfg)))
    }

    fn position_text(&self) -> String {
        position::format(self)
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        let g = self.geo.0;
        let t = text.trim();
        let err = |reason: String| ParseMoveError::new::<Self>(t, reason);
        let last_sq = g.name(g.cells - 1);
        let square = |s: &str| {
            g.parse_square(s.trim()).ok_or_else(|| {
                err(format!(
                    "'{}' is not a square of the {n}×{n} board (a1…{last_sq})",
                    s.trim(),
                    n = g.n
                ))
            })
        };
        if t.is_empty() {
            return Err(err("empty move".into()));
        }
        if t.eq_ignore_ascii_case("swap") {
            return Ok(Move::Swap);
        }
        if t.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        if let Some(rest) = t.strip_prefix('+') {
            let mut targets = 0u32;
            let mut last = 0u8;
            for part in rest.split('+') {
                if part.trim().is_empty() {
                    return Err(err(
                        "a claim is written +d4 or +d4+f6: a target after each '+'".into(),
                    ));
                }
                let sq = square(part)?;
                let ti = g.target_index[sq as usize];
                if ti == NO_SQUARE {
                    return Err(err(format!(
                        "{} is not a target; targets are the squares with an even file letter \
                         (b, d, …) and an even rank number",
                        g.name(sq)
                    )));
                }
                if targets >> ti & 1 == 1 {
                    return Err(err(format!("{} is claimed twice", g.name(sq))));
                }
                targets |= 1 << ti;
                last = ti;
            }
            return Ok(Move::Claim { targets, last });
        }
        if let Some((a, b)) = t.split_once(',') {
            let (a, b) = (square(a)?, square(b)?);
            for s in [a, b] {
                if g.kind(s) != Kind::Light {
                    return Err(err(format!(
                        "{} is not a light square; two tokens go on light squares (next to a \
                         target along a rank or file)",
                        g.name(s)
                    )));
                }
            }
            if a == b {
                return Err(err("the two tokens need two different squares".into()));
            }
            return Ok(Move::PlaceTwo(a, b));
        }
        let sq = square(t)?;
        if g.kind(sq) == Kind::Target {
            return Err(err(format!(
                "{0} is a target: tokens go on the other squares; claim it with +{0}",
                g.name(sq)
            )));
        }
        Ok(Move::Place(sq))
    }

    fn format_move(&self, mv: Move) -> String {
        let g = self.geo.0;
        match mv {
            Move::Place(a) => g.name(a),
            Move::PlaceTwo(a, b) => format!("{},{}", g.name(a), g.name(b)),
            Move::Claim { targets, last } => {
                let mut s = String::new();
                let others = targets & !1u32.checked_shl(u32::from(last)).unwrap_or(0);
                for t in Bits::of(u128::from(others)).chain(std::iter::once(last)) {
                    s.push('+');
                    s.push_str(&self.target_name(u32::from(t)));
                }
                s
            }
            Move::Swap => "swap".into(),
            Move::Pass => "pass".into(),
        }
    }

    /// The board, rank n at the top, with file letters and rank numbers. `.` empty dark
    /// square, `-` empty light square, `+` unclaimed target, `b`/`w` influence tokens,
    /// `B`/`W` claimed targets; `[x]` marks the anchor and `(x)` the rest of each colour's
    /// last move.
    fn diagram(&self) -> String {
        let g = self.geo.0;
        let n = g.n;
        let marked = self.move_squares(self.last[0]) | self.move_squares(self.last[1]);
        let files: String = (0..n)
            .map(|f| format!(" {} ", (b'a' + f) as char))
            .collect();
        let mut s = format!("    {files}\n");
        for r in (0..n).rev() {
            let _ = write!(s, "{:>3} ", r + 1);
            for f in 0..n {
                let sq = r * n + f;
                let c = self.diagram_cell(sq);
                if sq == self.anchor {
                    let _ = write!(s, "[{c}]");
                } else if marked & (1 << sq) != 0 {
                    let _ = write!(s, "({c})");
                } else {
                    let _ = write!(s, " {c} ");
                }
            }
            let _ = writeln!(s, " {}", r + 1);
        }
        let _ = writeln!(s, "    {files}");
        let supply = |side: Side| {
            if self.supply[side.index()] == UNLIMITED {
                "unlimited".to_string()
            } else {
                self.supply[side.index()].to_string()
            }
        };
        let _ = writeln!(
            s,
            "Black ({} seat): {} targets, supply {}   White ({} seat): {} targets, supply {}",
            self.seat_of(BLACK),
            self.claimed[BLACK.index()].count_ones(),
            supply(BLACK),
            self.seat_of(WHITE),
            self.claimed[WHITE.index()].count_ones(),
            supply(WHITE),
        );
        if self.outcome().is_none() {
            if self.swap == SwapState::Offer && self.cfg.pie {
                s.push_str("White may swap (pie rule)\n");
            }
            if self.passes == 1 {
                s.push_str("The last move was a pass\n");
            }
        }
        s.push_str(
            ". dark  - light  + target  b w tokens  B W claimed  [ ] anchor  ( ) last moves\n",
        );
        s
    }
}

impl Game for Obsidio {
    fn encoding(&self) -> Option<&dyn boardlab_core::encoding::DynEncoding> {
        Some(self)
    }

    fn encoding_mut(&mut self) -> Option<&mut dyn boardlab_core::encoding::DynEncoding> {
        Some(self)
    }

    fn info() -> &'static GameInfo {
        &INFO
    }

    fn new(options: &Options, _seed: u64) -> Result<Self, NewGameError> {
        Ok(Obsidio::start(Config::from_options(options)))
    }

    fn options(&self) -> Options {
        self.cfg.to_options()
    }

    fn colour_of(&self, seat: Seat) -> Option<Colour> {
        let first = if self.swap == SwapState::Swapped {
            WHITE
        } else {
            BLACK
        };
        Some(colour(if seat == Seat::First {
            first
        } else {
            first.other()
        }))
    }

    fn why_illegal(&self, mv: Move) -> String {
        if let Some(outcome) = self.outcome() {
            return format!("the game is over ({outcome})");
        }
        if !self.well_formed(mv) {
            return format!("not a move of the {0}×{0} board", self.geo.0.n);
        }
        let reason = match mv {
            Move::Place(_) | Move::PlaceTwo(..) => self.why_place_illegal(mv),
            Move::Claim { targets, .. } => self.why_claim_illegal(targets),
            Move::Swap if !self.cfg.pie => Some("the pie rule is off (pie=false)".to_string()),
            Move::Swap => {
                Some("the swap is only possible on the second player's first turn".to_string())
            }
            Move::Pass => {
                let mut moves = Vec::new();
                self.legal_moves(&mut moves);
                Some(format!(
                    "a pass is allowed only when no other move is; {} moves are legal, e.g. {}",
                    moves.len(),
                    self.format_move(moves[0])
                ))
            }
        };
        reason.unwrap_or_else(|| "not a legal move in this position".to_string())
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// The start position again (the set-up is not random), without reading the options.
    fn restart<R: Rng + ?Sized>(&self, _rng: &mut R) -> Self {
        Obsidio::start(self.cfg)
    }
}

impl Audit for Obsidio {
    fn hash_from_scratch(&self) -> u64 {
        let g = self.geo.0;
        let mut h = 0;
        for side in [BLACK, WHITE] {
            for sq in Bits::of(self.tokens[side.index()]) {
                h ^= keys::TOKEN[side.index() * 121 + sq as usize];
            }
            for t in Bits::of(u128::from(self.claimed[side.index()])) {
                h ^= keys::TOKEN[side.index() * 121 + g.target_square[t as usize] as usize];
            }
        }
        if self.anchor != NO_SQUARE {
            h ^= keys::ANCHOR[self.anchor as usize];
        }
        if self.side == WHITE {
            h ^= keys::WHITE_TO_MOVE;
        }
        h ^ keys::SWAP[self.swap.index()]
            ^ keys::PASSES[self.passes as usize]
            ^ keys::CLAIMER[claimer_index(self.claimer)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(opts: &str) -> Obsidio {
        Obsidio::new(&Obsidio::info().parse_options(opts).unwrap(), 0).unwrap()
    }

    /// `nth_move` agrees with `legal_moves` at every index, along seeded random games.
    #[test]
    fn nth_move_is_the_legal_move_at_that_index() {
        for opts in [
            "size=7",
            "size=9",
            "size=11",
            "size=7,tokens=3",
            "size=9,tokens=6,pie=false",
        ] {
            for seed in 0..6 {
                let mut g = game(opts);
                let mut rng = boardlab_core::rng(seed);
                let mut moves = Vec::new();
                loop {
                    g.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let ch = g.choices();
                    let total = ch.total().max(1);
                    assert_eq!(total, moves.len() as u64, "{opts} {}", g.position_text());
                    for (i, &m) in moves.iter().enumerate() {
                        assert_eq!(g.nth_move(&ch, i as u64), m, "{opts} index {i}");
                    }
                    let mv = moves[rng.random_range(0..moves.len())];
                    g.play_unchecked(mv);
                }
            }
        }
    }
}
