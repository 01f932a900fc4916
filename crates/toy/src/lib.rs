//! A tiny game for tests: three in a row on a 3 × 3 board, Black first. It implements
//! [`Game`] and [`Present`] the way every boardlab game does, and with the `toy` feature of
//! `boardlab-games` it joins the real list of games as a fifth game, as
//! `docs/architecture.md` describes for a real one (`crates/games/tests/fifth_game.rs`).
//!
//! - Moves: a square, `b2`. Position text: the board from rank 3 down, `b` and `w` for stones
//!   and `.` for empty squares, ranks separated by `/`, then the colour to move: `.../.b./... w`.
//! - The game ends when a colour has three in a row (it wins) or the board is full (a draw).

use boardlab_core::present::{
    self, Click, Fact, Interaction, MoveInput, Piece, PieceKind, Refusal, Selection, Text,
};
use boardlab_core::{Audit, Notation, Rules};
use boardlab_core::{
    Colour, Game, GameInfo, NewGameError, Options, Outcome, ParseMoveError, PositionError, Present,
    Rejected, Seat,
};

const LINES: [[u8; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

const KEYS: [u64; 19] = boardlab_core::zobrist::keys(0x70F);

static INFO: GameInfo = GameInfo {
    name: "toy",
    title: "Three in a row",
    summary: "A test game: three in a row on a 3 × 3 board.",
    colours: [Colour::Black, Colour::White],
    options: &[],
    two_player_zero_sum: true,
    draws_possible: true,
    move_examples: "b2",
    multi_word_moves: &[],
    has_position_text: true,
    solitaire_options: &[],
};

/// Three in a row. Squares are numbered 0..9 from `a1`, rank by rank.
#[derive(Clone, Debug, PartialEq)]
pub struct Toy {
    /// Stones of the first seat (Black) and the second (White), one bit per square.
    stones: [u16; 2],
    ply: u32,
    hash: u64,
}

impl Toy {
    fn side(&self) -> usize {
        (self.stones[0].count_ones() + self.stones[1].count_ones()) as usize % 2
    }

    fn winner(&self) -> Option<usize> {
        (0..2).find(|&s| {
            LINES
                .iter()
                .any(|l| l.iter().all(|&q| self.stones[s] >> q & 1 == 1))
        })
    }

    fn name(sq: u8) -> Text {
        present::square(usize::from(sq % 3), usize::from(sq / 3))
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.side() == 1 { KEYS[18] } else { 0 };
        for s in 0..2 {
            for q in 0..9 {
                if self.stones[s] >> q & 1 == 1 {
                    h ^= KEYS[s * 9 + q];
                }
            }
        }
        h
    }
}

impl Rules for Toy {
    type Move = u8;

    fn to_move(&self) -> Seat {
        if self.side() == 0 {
            Seat::First
        } else {
            Seat::Second
        }
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        if self.outcome().is_none() {
            let taken = self.stones[0] | self.stones[1];
            moves.extend((0..9).filter(|q| taken >> q & 1 == 0));
        }
    }

    fn play_unchecked(&mut self, mv: u8) {
        let s = self.side();
        self.stones[s] |= 1 << mv;
        self.hash ^= KEYS[s * 9 + usize::from(mv)] ^ KEYS[18];
        self.ply += 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(s) = self.winner() {
            let seat = if s == 0 { Seat::First } else { Seat::Second };
            return Some(Outcome::Win {
                seat,
                colour: INFO.colours[s],
                reason: "three in a row",
            });
        }
        (self.stones[0] | self.stones[1] == 0x1FF).then_some(Outcome::Draw {
            reason: "the board is full",
        })
    }

    fn hash(&self) -> u64 {
        self.hash
    }
}

/// A position of the toy game as read from text, not yet checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToySetup {
    /// Stones of Black and White, one bit per square (bit 0 is `a1`).
    pub stones: [u16; 2],
    /// The colour to move as written.
    pub to_move: Colour,
}

impl ToySetup {
    /// Reads `BOARD SIDE`; the first problem found.
    fn read(text: &str) -> Result<ToySetup, &'static str> {
        let (board, side) = text
            .split_once(' ')
            .ok_or("expected the board and the colour to move")?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 3 || ranks.iter().any(|r| r.len() != 3) {
            return Err("expected three ranks of three squares");
        }
        let mut stones = [0u16; 2];
        for (i, rank) in ranks.iter().enumerate() {
            for (f, c) in rank.chars().enumerate() {
                let sq = (2 - i) * 3 + f;
                match c {
                    'b' => stones[0] |= 1 << sq,
                    'w' => stones[1] |= 1 << sq,
                    '.' => {}
                    _ => return Err("squares are 'b', 'w' or '.'"),
                }
            }
        }
        let to_move = match side.trim() {
            "b" => Colour::Black,
            "w" => Colour::White,
            _ => return Err(MISMATCH),
        };
        Ok(ToySetup { stones, to_move })
    }

    /// The first rule the set-up breaks.
    fn problem(&self) -> Option<&'static str> {
        let [black, white] = self.stones;
        if black & white != 0 || (black | white) >> 9 != 0 {
            return Some("each of the nine squares holds at most one stone");
        }
        let black_moves = (black.count_ones() + white.count_ones()) % 2 == 0;
        (black_moves != (self.to_move == Colour::Black)).then_some(MISMATCH)
    }
}

const MISMATCH: &str = "the colour to move does not match the stones on the board";

impl Notation for Toy {
    type Setup = ToySetup;

    fn read_setup(options: &Options, text: &str) -> Result<ToySetup, NewGameError> {
        Toy::new(options, 0)?;
        ToySetup::read(text).map_err(|why| PositionError::new(text, why).into())
    }

    fn from_setup(options: &Options, setup: ToySetup) -> Result<Self, Rejected<ToySetup>> {
        let mut g = match Toy::new(options, 0) {
            Ok(g) => g,
            Err(e) => return Err(Rejected::new(setup, e)),
        };
        let problems = setup.problem().into_iter().map(String::from).collect();
        let setup = Rejected::unless_problems(setup, problems)?;
        g.stones = setup.stones;
        g.hash = g.compute_hash();
        Ok(g)
    }

    fn position_text(&self) -> String {
        let mut ranks = Vec::new();
        for r in (0..3).rev() {
            ranks.push(
                (0..3)
                    .map(|f| {
                        let q = r * 3 + f;
                        if self.stones[0] >> q & 1 == 1 {
                            'b'
                        } else if self.stones[1] >> q & 1 == 1 {
                            'w'
                        } else {
                            '.'
                        }
                    })
                    .collect::<String>(),
            );
        }
        let side = if self.side() == 0 { "b" } else { "w" };
        format!("{} {side}", ranks.join("/"))
    }

    fn parse_move(&self, text: &str) -> Result<u8, ParseMoveError> {
        boardlab_core::coord::parse_square(text.trim(), 3, 3)
            .map(|(f, r)| r * 3 + f)
            .ok_or_else(|| ParseMoveError::new::<Toy>(text, "not a square of the board"))
    }

    fn format_move(&self, mv: u8) -> String {
        Toy::name(mv).into_owned()
    }

    fn diagram(&self) -> String {
        let text = self.position_text();
        let board = text.split(' ').next().unwrap_or_default();
        let mut out = String::new();
        for (i, rank) in board.split('/').enumerate() {
            out.push_str(&format!("{} {rank}\n", 3 - i));
        }
        out.push_str("  abc\n");
        out
    }
}

impl Game for Toy {
    fn info() -> &'static GameInfo {
        &INFO
    }

    fn new(_options: &Options, _seed: u64) -> Result<Self, NewGameError> {
        Ok(Toy {
            stones: [0, 0],
            ply: 0,
            hash: 0,
        })
    }

    fn options(&self) -> Options {
        INFO.default_options()
    }

    fn colour_of(&self, seat: Seat) -> Option<Colour> {
        Some(INFO.colours[seat.index()])
    }

    fn ply(&self) -> u32 {
        self.ply
    }
}

impl Audit for Toy {
    fn hash_from_scratch(&self) -> u64 {
        self.compute_hash()
    }
}

impl Present for Toy {
    fn board(&self) -> present::Board {
        let mut b = present::grid(3, 3, false);
        for (s, colour) in [Colour::Black, Colour::White].into_iter().enumerate() {
            for q in 0..9 {
                if self.stones[s] >> q & 1 == 1 {
                    b.cells[q].pieces.push(Piece::new(colour, PieceKind::Piece));
                }
            }
        }
        b.facts.insert(Fact::Moves, self.ply.to_string());
        b
    }

    fn interaction(&self) -> Interaction {
        if self.outcome().is_some() {
            return Interaction::default();
        }
        let moves = present::legal_with_notation(self);
        Interaction {
            prompt: "Choose an empty square to place a stone.".into(),
            selections: moves
                .iter()
                .map(|(m, n)| Selection {
                    click: Click::on(Toy::name(*m)),
                    name: n.clone(),
                    text: format!("{n}: choose it again."),
                    zones: None,
                })
                .collect(),
            moves: moves
                .into_iter()
                .map(|(m, n)| {
                    let label = format!("Place on {n}");
                    MoveInput::clicks(n, vec![vec![Click::on(Toy::name(m))]], label)
                        .touching(vec![Toy::name(m)])
                })
                .collect(),
            refusals: vec![Refusal {
                cells: Vec::new(),
                text: "{cell} is taken.".into(),
            }],
            set_words: None,
        }
    }

    fn touched(&self, mv: u8) -> Vec<Text> {
        vec![Toy::name(mv)]
    }
}

/// The options of the toy game (it has none).
#[must_use]
pub fn options() -> Options {
    INFO.default_options()
}

/// No capabilities: the random bot and outside engines play the toy game; other bots, reviews
/// and the learning environments refuse it.
impl boardlab_ai::Capabilities for Toy {}

#[cfg(test)]
mod tests {
    use super::*;
    use boardlab_core::perft::perft;

    #[test]
    fn three_in_a_row_counts_and_results() {
        let g = Toy::new(&options(), 0).unwrap();
        // Leaf counts of the whole game tree, the game stopping at a win.
        let counts: Vec<u64> = (1..=9).map(|d| perft(&g, d)).collect();
        assert_eq!(
            counts,
            [9, 72, 504, 3024, 15120, 54720, 148_176, 200_448, 127_872]
        );
        let mut g = Toy::from_position(&options(), "bb./ww./... b").unwrap();
        g.play_text("c3").unwrap();
        assert_eq!(g.outcome().unwrap().winner(), Some(Seat::First));
        assert!(Toy::from_position(&options(), "bb./ww./... w").is_err());
    }

    #[test]
    fn set_ups_read_then_check() {
        assert!(boardlab_core::testkit::check_setups::<Toy>(&options(), 0..20, 9) > 100);
        let problems =
            boardlab_core::testkit::rejected_problems::<Toy>(&options(), "bb./ww./... w");
        assert_eq!(problems, [MISMATCH]);
        let setup = ToySetup {
            stones: [0b11, 0b10],
            to_move: Colour::Black,
        };
        let rejected = Toy::from_setup(&options(), setup.clone()).unwrap_err();
        assert_eq!(rejected.setup, setup);
        assert_eq!(
            rejected.reason,
            boardlab_core::Rejection::Problems(vec![
                "each of the nine squares holds at most one stone".into()
            ])
        );
        assert!(Toy::read_setup(&options(), "bb./ww./... x").is_err());
    }

    #[test]
    fn passes_the_conformance_kit() {
        boardlab_core::testkit::conformance::<Toy>(&[options()], 20, 20);
    }
}
