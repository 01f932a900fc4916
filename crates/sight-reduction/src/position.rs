//! The position text and the unchecked [`Setup`] it describes.
//!
//! `BOARD SIDE [PHASE…]`: the board and side are RULINGS.md's removal-phase notation; set-up
//! phases add words (see `docs/notation.md`): `place`, `arrange N` (side `-`), `color` (side
//! `-`), `first C` (side `-`, C = the second seat's colour), and `second` when the side to move
//! belongs to the second seat. With `setup=fair`, a full board with no phase word starts the
//! arrangement; such a board in the removal phase is written with the word `remove`.

use crate::{colour, parse_colour_word, side_of, Config, Phase, SetupKind, Side, BLACK, WHITE};

/// A position as written, not yet checked against the options and the rules.
/// `SightReduction::from_setup` ([`boardlab_core::Notation::from_setup`]) checks it and names
/// every problem ([`Setup::problems`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The pieces of each colour ([`Side::index`]), one bit per square (bit 0 is `a1`).
    pub board: [u32; 2],
    /// The colour to move; `None` where it is written `-` (the fair set-up's choices).
    pub side: Option<Side>,
    /// The phase the text names; `None` where it names none: the removal phase, or with
    /// `setup=fair` on a full board the start of the arrangement.
    pub phase: Option<Phase>,
    /// In the first-player choice ([`Phase::ChooseFirst`]): the colour of the first seat, the
    /// other being the second seat's choice (written `first C`, C the second seat's colour).
    /// Ignored in other phases.
    pub first_seat: Option<Side>,
    /// Whether the side to move belongs to the second seat (the word `second`).
    pub second: bool,
}

impl Setup {
    /// Reads what it can of `text`, adding a line to `problems` for each thing wrong; `None`
    /// when there is not even a board and a side to read.
    pub(crate) fn read(text: &str, problems: &mut Vec<String>) -> Option<Setup> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.len() < 2 {
            problems.push(
                "expected the board, a space and the colour to move (w or b), e.g. \
                 WBWB/BWBW/WBWB/BWBW/WBWB/BWBW/WBWB/BWBW w"
                    .into(),
            );
            return None;
        }
        let board = read_board(words[0], problems);
        let side = match words[1].to_ascii_lowercase().as_str() {
            "w" => Some(WHITE),
            "b" => Some(BLACK),
            "-" => None,
            other => {
                problems.push(format!(
                    "'{other}' is not a colour to move; accepted: w, b (or - during the fair set-up)"
                ));
                None
            }
        };
        let mut setup = Setup {
            board,
            side,
            phase: None,
            first_seat: None,
            second: false,
        };
        setup.read_phase(&words[2..], problems);
        Some(setup)
    }

    /// Reads the phase words and `second`. Where they cannot be read the set-up is left in the
    /// removal phase, so that the checks still report what they find in the rest.
    fn read_phase(&mut self, words: &[&str], problems: &mut Vec<String>) {
        let rest: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
        self.second = rest.iter().any(|w| w == "second");
        let phase_words: Vec<&str> = rest
            .iter()
            .map(String::as_str)
            .filter(|w| *w != "second")
            .collect();
        self.phase = match phase_words.as_slice() {
            [] => None,
            ["remove"] => Some(Phase::Remove),
            ["place"] => Some(Phase::Place),
            ["arrange", n] => match n.parse::<u8>() {
                Ok(swaps @ 0..=2) => Some(Phase::Arrange { swaps }),
                _ => {
                    problems.push(format!(
                        "'arrange {n}': the number of swaps made is 0, 1 or 2"
                    ));
                    Some(Phase::Remove)
                }
            },
            ["color"] => Some(Phase::ChooseColour),
            ["first", c] => match parse_colour_word(c) {
                Some(c) => {
                    self.first_seat = Some(side_of(c).other());
                    Some(Phase::ChooseFirst)
                }
                None => {
                    problems.push(format!(
                        "'first {c}': give the second seat's colour, w or b"
                    ));
                    Some(Phase::Remove)
                }
            },
            other => {
                problems.push(format!(
                    "unknown phase words '{}'; accepted: remove, place, arrange N, color, first w|b, second",
                    other.join(" ")
                ));
                Some(Phase::Remove)
            }
        };
    }

    /// Whether every square holds a piece.
    fn full(&self) -> bool {
        self.board[0] | self.board[1] == u32::MAX
    }

    /// The phase the game is in: the one named, else the removal phase or, with `setup=fair`
    /// on a full board, the start of the arrangement.
    pub(crate) fn resolved_phase(&self, cfg: &Config) -> Phase {
        match self.phase {
            Some(phase) => phase,
            None if cfg.setup == SetupKind::Fair && self.full() => Phase::Arrange { swaps: 0 },
            None => Phase::Remove,
        }
    }

    /// Everything that keeps this set-up from being a game under `cfg`. Empty when it is one.
    #[must_use]
    pub fn problems(&self, cfg: &Config) -> Vec<String> {
        let mut problems = Vec::new();
        let both = self.board[0] & self.board[1];
        if both != 0 {
            problems.push(format!(
                "{} hold both a White and a Black piece",
                square_names(both)
            ));
        }
        match self.resolved_phase(cfg) {
            Phase::Place | Phase::Remove => self.turn_problems(cfg, &mut problems),
            phase => self.fair_problems(cfg, phase, &mut problems),
        }
        problems
    }

    /// The checks of the fair set-up's phases.
    fn fair_problems(&self, cfg: &Config, phase: Phase, problems: &mut Vec<String>) {
        if cfg.setup != SetupKind::Fair {
            problems.push("fair set-up phases need setup=fair".into());
        }
        let count_ok = self.board[0].count_ones() == 16 && self.board[1].count_ones() == 16;
        if !(self.full() && count_ok) {
            problems.push("the fair set-up needs a full board of 16 White and 16 Black".into());
        }
        if self.side.is_some() && self.phase.is_some() {
            problems.push("during the fair set-up the colour to move is written '-'".into());
        }
        if self.second {
            problems.push("'second' applies only to the placement and removal phases".into());
        }
        match phase {
            Phase::Arrange { swaps } if swaps > 2 => problems.push(format!(
                "'arrange {swaps}': the number of swaps made is 0, 1 or 2"
            )),
            Phase::ChooseFirst if self.first_seat.is_none() => problems.push(
                "the first-player choice needs the colour of the first seat ('first w|b' names \
                 the second seat's)"
                    .into(),
            ),
            _ => {}
        }
    }

    /// The checks of the placement and removal phases.
    fn turn_problems(&self, cfg: &Config, problems: &mut Vec<String>) {
        let Some(side) = self.side else {
            problems.push("give the colour to move: w or b".into());
            return;
        };
        if self.phase == Some(Phase::Place) {
            if cfg.setup != SetupKind::Deterministic {
                problems.push("the placement phase needs setup=deterministic".into());
            }
            let (w, b) = (self.board[0].count_ones(), self.board[1].count_ones());
            if w > 16 || b > 16 {
                problems.push("each colour has only 16 pieces".into());
            }
            let placed = w + b;
            // Placements alternate, the `first` colour first.
            let expected = if placed % 2 == 0 {
                cfg.first
            } else {
                cfg.first.other()
            };
            if self.full() {
                problems.push("a full board has no placements left: drop the word 'place'".into());
            } else if side != expected || w.abs_diff(b) > 1 {
                problems.push(format!(
                    "after {placed} placements with first={} it is {}'s turn to place",
                    colour(cfg.first),
                    colour(expected)
                ));
            }
        }
        if cfg.solitaire && self.second {
            problems.push("solitaire has only the first seat".into());
        }
    }
}

/// Reads the board part, ranks 8 down to 1.
fn read_board(text: &str, problems: &mut Vec<String>) -> [u32; 2] {
    let mut board = [0u32; 2];
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        problems.push(format!(
            "the board has {} ranks separated by '/'; it needs 8 (rank 8 first)",
            ranks.len()
        ));
        return board;
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for ch in rank_text.chars() {
            match ch.to_ascii_uppercase() {
                'W' | 'B' if file < 4 => {
                    let side = if ch.eq_ignore_ascii_case(&'w') {
                        WHITE
                    } else {
                        BLACK
                    };
                    board[side.index()] |= 1 << (rank * 4 + file);
                    file += 1;
                }
                'W' | 'B' => file = file.saturating_add(1),
                d @ '1'..='4' => file = file.saturating_add(d as u8 - b'0'),
                other => {
                    problems.push(format!(
                        "rank {}: '{other}' is not W, B or a digit 1-4",
                        rank + 1
                    ));
                    file = 4;
                    break;
                }
            }
        }
        if file != 4 {
            problems.push(format!(
                "rank {} ('{rank_text}') covers {file} squares; each rank needs exactly 4",
                rank + 1
            ));
        }
    }
    board
}

fn square_names(set: u32) -> String {
    (0..32u8)
        .filter(|&sq| set >> sq & 1 == 1)
        .map(crate::square_name)
        .collect::<Vec<_>>()
        .join(", ")
}
