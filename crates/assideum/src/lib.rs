//! assideum: two armies of ground pieces and Fighters on an 8×8 board. Portals open flight
//! zones for the Fighters, Rangers fire along their facing, and a player wins when the
//! opponent's Commander is in siege with no legal move.
//!
//! Rules: `docs/rules/assideum.md`. The position is a set of 64-bit sets ([`board::Board`]);
//! attack and zone tables are built at compile time ([`tables`]); move generation and
//! playouts allocate nothing per move. A move is legal when it is pseudo-legal (all movement
//! rules) and, once made, the mover's Commander is not in siege.
//!
//! # Move order
//! [`Rules::legal_moves`] lists:
//! 1. ground pieces of the side to move in square order (a1, b1, …, h8); for each piece:
//!    - a Portal or Ranger first spins in place, new facing in the order n, e, s, w;
//!    - then its steps, slides and attacks by destination square in square order; for a Portal
//!      or Ranger each destination gives the plain step, then the step with a spin to each
//!      other facing in the order n, e, s, w;
//!    - every Portal move (spin or step) is followed by its carry choices: nothing optional
//!      carried, then by the number of optional Fighters carried (one, then two), and for the
//!      same number the earlier square (in square order) taking more first: `{d5:1}` then
//!      `{d5}` for two Fighters on d5, `{d5}`, `{e6}` then `{d5,e6}` for one on each;
//!    - a Ranger's fire moves come last, along the lane from the nearest square; on one
//!      square fire at Fighters comes before fire at the ground piece;
//! 2. then the squares holding the mover's Fighters in square order; for each: the strike in
//!    place, then the flights by destination square in square order, sharing before attacking.

pub mod ai;
pub mod board;
pub mod encoding;
pub mod notation;
pub mod position;
mod present;
pub mod tables;
mod tutorial;

pub use board::{Board, Carry, Facing, FireAt, Kind, Move, Side, BLACK, WHITE};
pub use position::Setup;

use boardlab_core::rand::Rng;
use boardlab_core::{Audit, Notation, Rules};
use boardlab_core::{
    Colour, Game, GameInfo, NewGameError, OptionSpec, OptionValues, Options, Outcome,
    ParseMoveError, PositionError, Rejected, Seat,
};

/// The position text of the opening set-up.
pub const START_POSITION: &str =
    "s[psf]c[rs]kc[psf]s/vvvvvvvv/8/8/8/8/VVVVVVVV/S[PnF]C[Rn]KC[PnF]S w 0";

const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "ranger-range",

        label: "Ranger range",
        values: OptionValues::Int { min: 0, max: 7 },
        default: "3",
        description: "how many squares ahead a Ranger's fire reaches (0: Rangers never fire)",
    },
    OptionSpec {
        name: "quiet-plies",

        label: "Draw after quiet moves",
        values: OptionValues::Int {
            min: 1,
            max: 10_000,
        },
        default: "100",
        description: "the game is drawn after this many moves in a row (of either player) without any piece removed",
    },
];

static INFO: GameInfo = GameInfo {
    name: "assideum",
    title: "assideum",
    summary: "Ground armies with Portals, Rangers and flying Fighters; put the enemy Commander in siege with no escape.",
    colours: [Colour::White, Colour::Black],
    options: OPTIONS,
    two_player_zero_sum: true,
    draws_possible: true,
    move_examples: "b2-b3 (step), c1xc5 (attack), b1>e (spin), b1-b2>w (step and spin), \
        b5-a5{e6} (Portal move taking the optional Fighters on e6 along), c3-c4{d5:1} (taking \
        one of the two optional Fighters on d5 along), fb1-b4 (flight), fb1xb4 (flight with \
        attack), fb4x (strike in place), rd1*d4g (Ranger fire at a ground piece), rd1*d3f \
        (Ranger fire at flying Fighters)",
    multi_word_moves: &[],
    has_position_text: true,
    solitaire_options: &[],
};

/// An assideum game: the position plus the quiet-ply count and the positions since the last
/// removal (for the third-repetition draw).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assideum {
    board: Board,
    quiet_limit: u32,
    quiet: u32,
    /// Hashes of the positions since the last removal, oldest first; the last is the current.
    history: Vec<u64>,
    ply: u32,
}

fn colour(side: Side) -> Colour {
    side.colour()
}

fn seat(side: Side) -> Seat {
    if side == WHITE {
        Seat::First
    } else {
        Seat::Second
    }
}

impl Assideum {
    fn blank(options: &Options) -> Result<(u8, u32), NewGameError> {
        if options.game() != INFO.name {
            return Err(options
                .invalid(format!("these are options of {}", options.game()))
                .into());
        }
        let range = options.get_int("ranger-range").unwrap_or(3).clamp(0, 7) as u8;
        let quiet = options.get_int("quiet-plies").unwrap_or(100).max(1) as u32;
        Ok((range, quiet))
    }

    fn with_board(board: Board, quiet_limit: u32, quiet: u32) -> Assideum {
        Assideum {
            board,
            quiet_limit,
            quiet,
            history: vec![board.hash],
            ply: 0,
        }
    }

    /// The position.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Plies in a row without any piece removed.
    #[must_use]
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// Whether the side to move has its Commander in siege.
    #[must_use]
    pub fn in_siege(&self) -> bool {
        self.board.in_siege(self.board.side)
    }

    /// How often the current position has occurred (this time included) since the last
    /// removal; positions before a removal cannot recur.
    #[must_use]
    pub fn repetitions(&self) -> usize {
        let now = self.board.hash;
        self.history
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&h| h == now)
            .count()
    }

    /// The draw rule that ends the game here, if any (checked after "no legal move").
    fn draw_reason(&self) -> Option<&'static str> {
        if self.quiet >= self.quiet_limit {
            Some("quiet-plies reached without any piece removed")
        } else if self.history.len() >= 5 && self.repetitions() >= 3 {
            Some("third repetition")
        } else {
            None
        }
    }

    #[inline]
    fn commit(&mut self, board: Board, removal: bool) {
        self.board = board;
        self.ply += 1;
        if removal {
            self.quiet = 0;
            self.history.clear();
        } else {
            self.quiet += 1;
        }
        self.history.push(board.hash);
    }

    /// A uniformly random legal move by rejection sampling over the pseudo-legal moves:
    /// returns it with the board after it and whether it removed a piece.
    fn sample<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        buf: &mut Vec<Move>,
    ) -> Option<(Move, Board, bool)> {
        if self.draw_reason().is_some() {
            return None;
        }
        buf.clear();
        self.board.pseudo_moves(buf);
        let me = self.board.side;
        while !buf.is_empty() {
            let i = rng.random_range(0..buf.len());
            let mv = buf[i];
            let mut b = self.board;
            let removal = b.apply(mv);
            if !b.in_siege(me) {
                return Some((mv, b, removal));
            }
            buf.swap_remove(i);
        }
        None
    }
}

impl Rules for Assideum {
    type Move = Move;

    fn to_move(&self) -> Seat {
        seat(self.board.side)
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.draw_reason().is_none() {
            self.board.legal_moves(moves);
        }
    }

    fn play_unchecked(&mut self, mv: Move) {
        let mut b = self.board;
        let removal = b.apply(mv);
        self.commit(b, removal);
    }

    fn outcome(&self) -> Option<Outcome> {
        let mut buf = Vec::new();
        if !self.board.has_legal_move(&mut buf) {
            let me = self.board.side;
            return Some(if self.board.in_siege(me) {
                Outcome::Win {
                    seat: seat(me.other()),
                    colour: colour(me.other()),
                    reason: "the Commander cannot escape siege",
                }
            } else {
                Outcome::Draw {
                    reason: "stalemate: no legal move",
                }
            });
        }
        self.draw_reason().map(|reason| Outcome::Draw { reason })
    }

    fn hash(&self) -> u64 {
        self.board.hash
    }

    /// Checks `mv` against the pseudo-legal moves, then makes it and tests the mover's
    /// Commander (much cheaper than listing every legal move).
    fn is_legal(&self, mv: Move) -> bool {
        if self.draw_reason().is_some() {
            return false;
        }
        let mut buf = Vec::with_capacity(128);
        self.board.pseudo_moves(&mut buf);
        buf.contains(&mv) && self.board.keeps_commander_safe(mv)
    }

    fn random_move<R: Rng + ?Sized>(&self, rng: &mut R, buf: &mut Vec<Move>) -> Option<Move> {
        self.sample(rng, buf).map(|(mv, _, _)| mv)
    }

    fn playout<R: Rng + ?Sized>(&mut self, rng: &mut R) -> u32 {
        let mut buf = Vec::with_capacity(256);
        let mut n = 0;
        while let Some((_, board, removal)) = self.sample(rng, &mut buf) {
            self.commit(board, removal);
            n += 1;
        }
        n
    }
}

impl Notation for Assideum {
    type Setup = Setup;

    /// Reads `BOARD SIDE [QUIET]` (see [`position`]); the rules' checks are left to
    /// `from_setup`.
    fn read_setup(options: &Options, text: &str) -> Result<Setup, NewGameError> {
        let (range, _) = Self::blank(options)?;
        let mut problems = Vec::new();
        let setup = Setup::read(text, range, &mut problems);
        if problems.is_empty() {
            Ok(setup)
        } else {
            Err(PositionError {
                text: text.to_string(),
                problems,
            }
            .into())
        }
    }

    /// Checks the set-up with [`Setup::problems`]. The position counts as the first
    /// occurrence for the repetition draw.
    fn from_setup(options: &Options, setup: Setup) -> Result<Self, Rejected<Setup>> {
        let (range, quiet_limit) = match Self::blank(options) {
            Ok(read) => read,
            Err(e) => return Err(Rejected::new(setup, e)),
        };
        let problems = setup.problems(quiet_limit);
        let Setup { mut board, quiet } = Rejected::unless_problems(setup, problems)?;
        board.range = range;
        board.hash = board.hash_from_scratch();
        Ok(Self::with_board(board, quiet_limit, quiet))
    }

    fn position_text(&self) -> String {
        position::text(&self.board, self.quiet)
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        notation::parse(text)
            .map(|mv| self.board.canonical(mv))
            .map_err(|reason| ParseMoveError::new::<Self>(text.trim(), reason))
    }

    fn format_move(&self, mv: Move) -> String {
        notation::format(mv)
    }

    fn diagram(&self) -> String {
        let mut s = position::diagram(&self.board);
        s.push_str(&format!(
            "plies without a removal: {} of {}\n",
            self.quiet, self.quiet_limit
        ));
        s
    }
}

impl Game for Assideum {
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
        let (range, quiet_limit) = Self::blank(options)?;
        let mut board = Board::start(range);
        board.hash = board.hash_from_scratch();
        Ok(Self::with_board(board, quiet_limit, 0))
    }

    fn options(&self) -> Options {
        let range = self.board.range.to_string();
        let quiet = self.quiet_limit.to_string();
        INFO.options_from_pairs([
            ("ranger-range", range.as_str()),
            ("quiet-plies", quiet.as_str()),
        ])
        .expect("a game's options are valid")
    }

    fn colour_of(&self, seat: Seat) -> Option<Colour> {
        Some(match seat {
            Seat::First => Colour::White,
            Seat::Second => Colour::Black,
        })
    }

    fn ply(&self) -> u32 {
        self.ply
    }

    /// The same game started over (the set-up is fixed, so `rng` is not used).
    fn restart<R: Rng + ?Sized>(&self, _rng: &mut R) -> Self {
        let mut board = Board::start(self.board.range);
        board.hash = board.hash_from_scratch();
        Self::with_board(board, self.quiet_limit, 0)
    }

    fn why_illegal(&self, mv: Move) -> String {
        if let Some(outcome) = self.outcome() {
            return format!("the game is over ({outcome})");
        }
        let mut pseudo = Vec::new();
        self.board.pseudo_moves(&mut pseudo);
        if pseudo.contains(&mv) {
            return "it would leave your Commander in siege".into();
        }
        let mut legal = Vec::new();
        self.board.legal_moves(&mut legal);
        let key = |m: &Move| match *m {
            Move::Ground { from, to, .. } | Move::Fly { from, to, .. } => (from, to),
            Move::Fire { ranger, target, .. } => (ranger, target),
            Move::Strike { square } => (square, square),
        };
        let similar: Vec<String> = legal
            .iter()
            .filter(|m| key(m) == key(&mv))
            .map(|m| notation::format(*m))
            .collect();
        if !similar.is_empty() {
            return format!(
                "not legal as written; did you mean {}?",
                similar.join(" or ")
            );
        }
        let shown: Vec<String> = legal
            .iter()
            .take(12)
            .map(|m| notation::format(*m))
            .collect();
        let more = if legal.len() > shown.len() {
            format!(", … ({} in all)", legal.len())
        } else {
            String::new()
        };
        format!(
            "not a legal move in this position; legal moves: {}{more}",
            shown.join(", ")
        )
    }
}

impl Audit for Assideum {
    fn hash_from_scratch(&self) -> u64 {
        self.board.hash_from_scratch()
    }
}
