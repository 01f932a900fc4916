//! Position text and the unchecked [`Setup`] it describes.
//!
//! ```text
//! rrr/rrrr/rrr/4/3/4/3/4/3/4/yyy/yyyy/yyy - - y 0
//! ```
//!
//! Five fields separated by spaces:
//! 1. the board: the ranks from 13 down to 1 separated by `/`; each rank lists its points from
//!    file a to g (odd ranks: b, d, f; even ranks: a, c, e, g) as `y` (Yellow soldier), `Y`
//!    (Yellow Officer), `r`, `R` (Red), or a digit for a run of empty points (`.` is accepted
//!    for one empty point);
//! 2. Yellow's King triangle (`b1c`), or `-` while it is not on the board;
//! 3. Red's King triangle, or `-`;
//! 4. the colour to move, `y` or `r`;
//! 5. the plies played so far, counted toward `max-plies` (optional on input, default 0).
//!
//! The history of earlier positions (for the repetition draw) is not part of the text: a game
//! read from a text counts that position as the first occurrence.

use crate::board::{
    castle_set, parse_triangle, point_at, point_name, triangle_list, triangle_name, Castle, Point,
    Side, Tri, ALL_POINTS, RED, START, TRIANGLES, TRI_MASK, YELLOW,
};
use std::fmt;

/// A position as written, not yet checked against the rules: any arrangement of soldiers,
/// Kings and counters. `Opprimo::from_setup` ([`boardlab_core::Notation::from_setup`]) checks
/// it and names every problem ([`Setup::problems`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The soldiers of each colour ([`YELLOW`], [`crate::RED`]) as point sets.
    pub men: [u64; 2],
    /// The Officers among them (of either colour).
    pub officers: u64,
    /// Each colour's King triangle; `None` while the King is not on the board.
    pub kings: [Option<Tri>; 2],
    /// The colour to move.
    pub to_move: Side,
    /// Plies played so far, counted toward `max-plies`.
    pub ply: u32,
}

const COLOUR_NAMES: [&str; 2] = ["Yellow", "Red"];

impl Setup {
    /// The starting position: both armies, no King placed, Yellow to move.
    #[must_use]
    pub fn start() -> Setup {
        Setup {
            men: START,
            officers: 0,
            kings: [None, None],
            to_move: YELLOW,
            ply: 0,
        }
    }

    /// An empty board, no King placed, Yellow to move.
    #[must_use]
    pub fn empty() -> Setup {
        Setup {
            men: [0, 0],
            officers: 0,
            kings: [None, None],
            to_move: YELLOW,
            ply: 0,
        }
    }

    /// Puts a soldier of `side` (an Officer when `officer`) on `p`, replacing what was there.
    pub fn put(&mut self, p: Point, side: Side, officer: bool) {
        self.clear(p);
        self.men[side.index()] |= 1 << p;
        if officer {
            self.officers |= 1 << p;
        }
    }

    /// Empties point `p`.
    pub fn clear(&mut self, p: Point) {
        let keep = !(1u64 << p);
        self.men[0] &= keep;
        self.men[1] &= keep;
        self.officers &= keep;
    }

    /// Reads what it can of `text`, adding a line to `problems` for each thing wrong.
    pub(crate) fn read(text: &str, problems: &mut Vec<String>) -> Setup {
        let mut setup = Setup::empty();
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(4..=5).contains(&fields.len()) {
            problems.push(format!(
                "expected 4 or 5 fields separated by spaces (board, Yellow's King, Red's King, \
                 colour to move, plies played), e.g. {}; found {}",
                Setup::start(),
                fields.len()
            ));
            if fields.is_empty() {
                return setup;
            }
        }
        setup.read_board(fields[0], problems);
        for (side, field) in fields.iter().skip(1).take(2).enumerate() {
            if *field != "-" {
                match parse_triangle(field) {
                    Some(t) => setup.kings[side] = Some(t),
                    None => problems.push(format!(
                        "{}'s King: '{field}' is not a triangle name (the lower point of its \
                         vertical side and the file of its third point, e.g. d1e) or '-'",
                        COLOUR_NAMES[side]
                    )),
                }
            }
        }
        if let Some(side) = fields.get(3) {
            match side.to_ascii_lowercase().as_str() {
                "y" | "yellow" => setup.to_move = YELLOW,
                "r" | "red" => setup.to_move = crate::RED,
                other => {
                    problems.push(format!("'{other}' is not a colour to move; accepted: y, r"))
                }
            }
        }
        if let Some(ply) = fields.get(4) {
            match ply.parse::<u32>() {
                Ok(n) => setup.ply = n,
                Err(_) => problems.push(format!(
                    "'{ply}' is not a number of plies played (a whole number from 0)"
                )),
            }
        }
        setup
    }

    fn read_board(&mut self, board: &str, problems: &mut Vec<String>) {
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 13 {
            problems.push(format!(
                "the board has {} ranks separated by '/'; it needs 13 (rank 13 first)",
                ranks.len()
            ));
        }
        for (i, rank_text) in ranks.iter().take(13).enumerate() {
            let r = 12 - i as i32;
            let files: Vec<i32> = (0..7).filter(|&c| point_at(c, r).is_some()).collect();
            let mut k = 0usize;
            let mut bad = false;
            for ch in rank_text.chars() {
                let piece = match ch {
                    'y' => Some((YELLOW, false)),
                    'Y' => Some((YELLOW, true)),
                    'r' => Some((crate::RED, false)),
                    'R' => Some((crate::RED, true)),
                    '.' => {
                        k += 1;
                        continue;
                    }
                    d @ '1'..='4' => {
                        k += d as usize - '0' as usize;
                        continue;
                    }
                    other => {
                        problems.push(format!(
                            "rank {}: '{other}' is not y, Y, r, R, '.' or a digit 1-4",
                            r + 1
                        ));
                        bad = true;
                        break;
                    }
                };
                if let (Some((side, officer)), Some(&c)) = (piece, files.get(k)) {
                    if let Some(p) = point_at(c, r) {
                        self.put(p, side, officer);
                    }
                }
                k += 1;
            }
            if !bad && k != files.len() {
                let names: Vec<String> = files
                    .iter()
                    .filter_map(|&c| point_at(c, r).map(point_name))
                    .collect();
                problems.push(format!(
                    "rank {} ('{rank_text}') covers {k} points; it has exactly {} ({})",
                    r + 1,
                    files.len(),
                    names.join(", ")
                ));
            }
        }
    }

    /// Everything that keeps this arrangement from being a game under `castle` and
    /// `max_plies`: overlapping or stray soldiers, Kings outside their castle, impossible traps,
    /// a ply count past the limit. Empty when the set-up is a valid state.
    #[must_use]
    pub fn problems(&self, castle: Castle, max_plies: u32) -> Vec<String> {
        let mut problems = Vec::new();
        let both = self.men[0] & self.men[1];
        if both != 0 {
            problems.push(format!(
                "{} hold both a Yellow and a Red soldier",
                names(both)
            ));
        }
        let stray = (self.men[0] | self.men[1] | self.officers) & !ALL_POINTS;
        if stray != 0 {
            problems.push(format!("point bits {stray:#x} lie outside the 45 points"));
        }
        let lone = self.officers & !(self.men[0] | self.men[1]) & ALL_POINTS;
        if lone != 0 {
            problems.push(format!("Officer marks on {} with no soldier", names(lone)));
        }
        let mut trapped = [false; 2];
        for side in [YELLOW, RED] {
            let Some(t) = self.kings[side.index()] else {
                continue;
            };
            if usize::from(t) >= TRIANGLES {
                problems.push(format!(
                    "{}'s King: no triangle number {t}",
                    COLOUR_NAMES[side.index()]
                ));
                continue;
            }
            let own = castle_set(castle, side);
            if own >> t & 1 == 0 {
                problems.push(format!(
                    "{}'s King on {} is outside its castle (castle={}: {})",
                    COLOUR_NAMES[side.index()],
                    triangle_name(t),
                    castle.name(),
                    triangle_list(own)
                ));
            }
            let m = TRI_MASK[usize::from(t)];
            trapped[side.index()] = self.men[side.other().index()] & m == m;
        }
        if trapped[0] && trapped[1] {
            problems.push("both Kings are trapped; a game ends at the first trap".into());
        } else {
            for side in [YELLOW, RED] {
                if trapped[side.index()] && self.to_move != side {
                    problems.push(format!(
                        "{}'s King is trapped but {} is not to move: the trap ends the game on \
                         the trapper's move, so the trapped side is the one to move",
                        COLOUR_NAMES[side.index()],
                        COLOUR_NAMES[side.index()]
                    ));
                }
            }
        }
        if self.ply > max_plies {
            problems.push(format!(
                "{} plies played is more than max-plies={max_plies}",
                self.ply
            ));
        }
        problems
    }
}

fn names(set: u64) -> String {
    (0..45u8)
        .filter(|&p| set >> p & 1 == 1)
        .map(point_name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The position text (see the module docs).
impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (0..13).rev() {
            let mut run = 0;
            for c in 0..7 {
                let Some(p) = point_at(c, r) else { continue };
                let bit = 1u64 << p;
                let ch = if self.men[0] & bit != 0 {
                    'y'
                } else if self.men[1] & bit != 0 {
                    'r'
                } else {
                    run += 1;
                    continue;
                };
                if run > 0 {
                    write!(f, "{run}")?;
                    run = 0;
                }
                let officer = self.officers & bit != 0;
                write!(f, "{}", if officer { ch.to_ascii_uppercase() } else { ch })?;
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
            if r > 0 {
                f.write_str("/")?;
            }
        }
        for king in self.kings {
            match king {
                Some(t) if usize::from(t) < TRIANGLES => write!(f, " {}", triangle_name(t))?,
                Some(t) => write!(f, " #{t}")?,
                None => f.write_str(" -")?,
            }
        }
        let side = if self.to_move == YELLOW { 'y' } else { 'r' };
        write!(f, " {side} {}", self.ply)
    }
}
