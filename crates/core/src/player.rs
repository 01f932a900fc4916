//! Seats, colours and outcomes.
//!
//! A *seat* is a player's chair: `first` or `second`, fixed for the whole game. A *colour*
//! belongs to the game's pieces. Most games give the first seat the first colour for the whole
//! game, but a swap (pie rule) or a colour choice can change which seat plays which colour, so
//! results always name both.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// One of the two chairs at the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    First,
    Second,
}

impl Seat {
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    /// The other seat.
    #[must_use]
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// 0 for the first seat, 1 for the second.
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Seat::First => "first",
            Seat::Second => "second",
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Seat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "first" | "1" => Ok(Seat::First),
            "second" | "2" => Ok(Seat::Second),
            _ => Err(format!("unknown seat '{s}'; accepted: first, second")),
        }
    }
}

/// The piece colours of all boardlab games (each game uses two of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    White,
    Black,
    Yellow,
    Red,
}

impl Colour {
    pub fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
            Colour::Yellow => "yellow",
            Colour::Red => "red",
        }
    }

    /// The colour's name as people read it in a sentence: `White`, `Black`, `Yellow`, `Red`.
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            Colour::White => "White",
            Colour::Black => "Black",
            Colour::Yellow => "Yellow",
            Colour::Red => "Red",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Colour {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "white" => Ok(Colour::White),
            "black" => Ok(Colour::Black),
            "yellow" => Ok(Colour::Yellow),
            "red" => Ok(Colour::Red),
            _ => Err(format!(
                "unknown colour '{s}'; accepted: white, black, yellow, red"
            )),
        }
    }
}

/// How a finished game ended. Absolute: it names the winner, never a sign relative to
/// "the player to move". Use [`Outcome::for_seat`] for a point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "lowercase")]
pub enum Outcome {
    /// A player won. `reason` is a short phrase such as "no legal move" or "trap".
    Win {
        seat: Seat,
        colour: Colour,
        reason: &'static str,
    },
    /// Nobody won. `reason` such as "third repetition" or "stalemate".
    Draw { reason: &'static str },
    /// A one-person puzzle ended. `score` is the puzzle's own measure (lower is better);
    /// `solved` says whether its goal was reached.
    Puzzle {
        score: u32,
        solved: bool,
        reason: &'static str,
    },
}

/// A result from one seat's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Wdl {
    Loss,
    Draw,
    Win,
}

impl Wdl {
    /// 1 for a win, ½ for a draw, 0 for a loss.
    #[must_use]
    pub fn score(self) -> f64 {
        match self {
            Wdl::Win => 1.0,
            Wdl::Draw => 0.5,
            Wdl::Loss => 0.0,
        }
    }

    /// The same result seen by the opponent.
    #[must_use]
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }
}

impl Outcome {
    /// The result seen by `seat`. A puzzle counts as a win when solved, else a loss.
    #[must_use]
    pub fn for_seat(&self, seat: Seat) -> Wdl {
        match *self {
            Outcome::Win { seat: w, .. } if w == seat => Wdl::Win,
            Outcome::Win { .. } => Wdl::Loss,
            Outcome::Draw { .. } => Wdl::Draw,
            Outcome::Puzzle { solved: true, .. } => Wdl::Win,
            Outcome::Puzzle { solved: false, .. } => Wdl::Loss,
        }
    }

    /// The winning seat, if any.
    #[must_use]
    pub fn winner(&self) -> Option<Seat> {
        match *self {
            Outcome::Win { seat, .. } => Some(seat),
            _ => None,
        }
    }

    /// The short reason phrase.
    #[must_use]
    pub fn reason(&self) -> &'static str {
        match *self {
            Outcome::Win { reason, .. }
            | Outcome::Draw { reason }
            | Outcome::Puzzle { reason, .. } => reason,
        }
    }

    /// The compact result tag used by game records: the winning colour (`white`), `draw`,
    /// `solved` or `score N`.
    #[must_use]
    pub fn tag(&self) -> String {
        match *self {
            Outcome::Win { colour, .. } => colour.name().to_string(),
            Outcome::Draw { .. } => "draw".to_string(),
            Outcome::Puzzle { solved: true, .. } => "solved".to_string(),
            Outcome::Puzzle { score, .. } => format!("score {score}"),
        }
    }

    /// The pieces left in a record's result tag of a puzzle not solved (`score 3` → 3);
    /// `None` for any other tag.
    #[must_use]
    pub fn score_of_tag(tag: &str) -> Option<u32> {
        tag.strip_prefix("score ")?.parse().ok()
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Outcome::Win {
                seat,
                colour,
                reason,
            } => write!(f, "{colour} ({seat} seat) wins: {reason}"),
            Outcome::Draw { reason } => write!(f, "draw: {reason}"),
            Outcome::Puzzle {
                score,
                solved: true,
                reason,
            } => write!(f, "puzzle solved with {score} pieces left: {reason}"),
            Outcome::Puzzle { score, reason, .. } => {
                write!(f, "puzzle not solved, {score} pieces left: {reason}")
            }
        }
    }
}

/// A result proven by exact search, always stated for a named seat: that seat wins, loses or
/// draws, with best play, in a known number of plies (single moves to the end of the game)
/// when the search measured it.
///
/// The seat is part of the value, so a result never depends on who is to move: the same
/// result is seen by the other seat with [`Proven::for_seat`], and a move's value follows from
/// the value of the position it leads to with [`Proven::before`] (one ply more, same seat).
///
/// ```
/// use boardlab_core::{Proven, Seat, Wdl};
///
/// let p = Proven::win_in(Seat::First, 7);
/// assert_eq!(p.to_string(), "first seat wins in 7 plies");
/// assert_eq!(p.for_seat(Seat::Second), Proven::loss_in(Seat::Second, 7));
/// assert_eq!(p.before(), Proven::win_in(Seat::First, 8));
/// assert_eq!(p.result_for(Seat::Second), Wdl::Loss);
/// // The first seat prefers a shorter win, and a longer loss.
/// assert!(p.rank_for(Seat::First) > Proven::win_in(Seat::First, 9).rank_for(Seat::First));
/// assert!(
///     Proven::loss_in(Seat::First, 8).rank_for(Seat::First)
///         > Proven::loss_in(Seat::First, 2).rank_for(Seat::First)
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Proven {
    /// Whose result it is.
    pub seat: Seat,
    /// The result for `seat`.
    pub result: Wdl,
    /// Plies to the end with best play (the winner as fast as possible, the loser holding out
    /// as long as possible), when the search measured them; `None` for a result proven without
    /// its distance.
    pub plies: Option<u32>,
}

impl Proven {
    /// `seat` wins in `plies` plies.
    #[must_use]
    pub fn win_in(seat: Seat, plies: u32) -> Proven {
        Proven {
            seat,
            result: Wdl::Win,
            plies: Some(plies),
        }
    }

    /// `seat` loses in `plies` plies (0: the game is lost now).
    #[must_use]
    pub fn loss_in(seat: Seat, plies: u32) -> Proven {
        Proven {
            seat,
            result: Wdl::Loss,
            plies: Some(plies),
        }
    }

    /// `seat` wins, the distance not measured.
    #[must_use]
    pub fn win(seat: Seat) -> Proven {
        Proven {
            seat,
            result: Wdl::Win,
            plies: None,
        }
    }

    /// `seat` loses, the distance not measured.
    #[must_use]
    pub fn loss(seat: Seat) -> Proven {
        Proven {
            seat,
            result: Wdl::Loss,
            plies: None,
        }
    }

    /// A draw with best play, stated for `seat`.
    #[must_use]
    pub fn draw(seat: Seat) -> Proven {
        Proven {
            seat,
            result: Wdl::Draw,
            plies: None,
        }
    }

    /// The same result seen by `seat`.
    #[must_use]
    pub fn for_seat(self, seat: Seat) -> Proven {
        if seat == self.seat {
            self
        } else {
            self.flip()
        }
    }

    /// The same result seen by the other seat.
    #[must_use]
    pub fn flip(self) -> Proven {
        Proven {
            seat: self.seat.other(),
            result: self.result.flip(),
            plies: self.plies,
        }
    }

    /// The result one ply earlier: the value of a move that leads to a position of value
    /// `self` (the same result for the same seat, one ply further from the end).
    #[must_use]
    pub fn before(self) -> Proven {
        Proven {
            plies: self.plies.map(|n| n + 1),
            ..self
        }
    }

    /// The result for `seat`.
    #[must_use]
    pub fn result_for(self, seat: Seat) -> Wdl {
        self.for_seat(seat).result
    }

    /// Whether `seat` wins.
    #[must_use]
    pub fn wins(self, seat: Seat) -> bool {
        self.result_for(seat) == Wdl::Win
    }

    /// The score of [`Proven::seat`]: 1 for a win, ½ for a draw, 0 for a loss.
    #[must_use]
    pub fn score(self) -> f64 {
        self.result.score()
    }

    /// The result's place in `seat`'s order of preference, the higher the better: a shorter
    /// win before a longer one, any win before a draw, a draw before any loss, a longer loss
    /// before a shorter one. A win in `n` plies ranks `1000 - n`, a win without distance 500,
    /// a draw 0, a loss without distance -500, a loss in `n` plies `n - 1000`.
    #[must_use]
    pub fn rank_for(self, seat: Seat) -> i32 {
        let p = self.for_seat(seat);
        match (p.result, p.plies) {
            (Wdl::Win, Some(n)) => 1000 - n as i32,
            (Wdl::Win, None) => 500,
            (Wdl::Draw, _) => 0,
            (Wdl::Loss, None) => -500,
            (Wdl::Loss, Some(n)) => n as i32 - 1000,
        }
    }
}

impl fmt::Display for Proven {
    /// "first seat wins in 7 plies", "second seat loses", "draw with best play".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.result, self.plies) {
            (Wdl::Win, Some(n)) => write!(f, "{} seat wins in {n} plies", self.seat),
            (Wdl::Win, None) => write!(f, "{} seat wins", self.seat),
            (Wdl::Loss, Some(n)) => write!(f, "{} seat loses in {n} plies", self.seat),
            (Wdl::Loss, None) => write!(f, "{} seat loses", self.seat),
            (Wdl::Draw, _) => f.write_str("draw with best play"),
        }
    }
}

/// Defines a game's `Side` type: its two colours as a `#[repr(u8)]` enum, the first seat's
/// colour at the start first (index 0). Tables by side are indexed with `Side::index`; `other`,
/// `BOTH` and the conversion to [`Colour`] come with it. The two names must be [`Colour`]
/// variants. For example `boardlab_core::sides!(Black, White);`, after a doc comment.
#[macro_export]
macro_rules! sides {
    ($(#[$attr:meta])* $first:ident, $second:ident) => {
        $(#[$attr])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Side {
            $first = 0,
            $second = 1,
        }

        impl Side {
            /// Both sides, index 0 first.
            pub const BOTH: [Side; 2] = [Side::$first, Side::$second];

            /// The opponent.
            #[inline]
            #[must_use]
            pub const fn other(self) -> Side {
                match self {
                    Side::$first => Side::$second,
                    Side::$second => Side::$first,
                }
            }

            /// 0 or 1: the index into tables by side.
            #[inline]
            #[must_use]
            pub const fn index(self) -> usize {
                self as usize
            }

            /// The side as the core's colour.
            #[must_use]
            pub const fn colour(self) -> $crate::Colour {
                match self {
                    Side::$first => $crate::Colour::$first,
                    Side::$second => $crate::Colour::$second,
                }
            }
        }

        impl From<Side> for $crate::Colour {
            fn from(side: Side) -> $crate::Colour {
                side.colour()
            }
        }
    };
}
