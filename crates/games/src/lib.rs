//! The closed set of boardlab games, chosen by name at run time.
//!
//! [`GameKind`] names a game; [`GameKind::visit`] calls generic code with the game's type, so
//! commands are written once as `fn run<G: Game>()` and dispatched by `match`, not through
//! trait objects. [`AnyGame`] holds a game of any kind behind a text-level interface for
//! services that store games of all kinds side by side.
//!
//! Adding a game takes one line in the `games!` list below (plus its crate as a dependency),
//! and today also an entry in each place that still keeps its own list: the computer players'
//! `ai_games!` (`crates/ai/src/lib.rs`), the server's board description
//! (`crates/server/src/board.rs`), the web app's move adapters (`web/js/games/index.js`) and the
//! start page's emblems (`web/js/pages/home.js`). Without those entries a game still works
//! through the command line, records and the API, but the computer plays it only at random and
//! the web app cannot draw its board.

pub mod fuzzing;

use boardlab_core::present::{Board, Interaction, Text};
use boardlab_core::{
    Colour, Game, GameInfo, MoveError, NewGameError, OptionError, Options, Outcome, Present, Seat,
};
use std::fmt;
use std::str::FromStr;

/// Generic code run with a game's type; see [`GameKind::visit`].
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self) -> Self::Output;
}

macro_rules! games {
    ($($variant:ident => $ty:ty),* $(,)?) => {
        /// One of the boardlab games.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GameKind { $($variant),* }

        impl GameKind {
            /// Every game, in the order listed to users.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$variant),*];

            /// Static facts and option schema.
            #[must_use]
            pub fn info(self) -> &'static GameInfo {
                match self { $(GameKind::$variant => <$ty as Game>::info()),* }
            }

            /// Runs `visitor` with this game's type.
            pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
                match self { $(GameKind::$variant => visitor.visit::<$ty>()),* }
            }
        }

        /// A game of any kind, with a text-level interface.
        #[derive(Clone, Debug, PartialEq)]
        pub enum AnyGame { $($variant($ty)),* }

        macro_rules! dispatch {
            ($self_:expr, $g:ident => $body:expr) => {
                match $self_ { $(AnyGame::$variant($g) => $body),* }
            };
        }

        impl AnyGame {
            /// A new game of `kind`.
            ///
            /// # Errors
            /// Options the game cannot play.
            pub fn new(kind: GameKind, options: &Options, seed: u64) -> Result<AnyGame, NewGameError> {
                Ok(match kind { $(GameKind::$variant => AnyGame::$variant(<$ty as Game>::new(options, seed)?)),* })
            }

            /// A game of `kind` from a position text.
            ///
            /// # Errors
            /// An invalid position text.
            pub fn from_position(kind: GameKind, options: &Options, text: &str) -> Result<AnyGame, NewGameError> {
                Ok(match kind { $(GameKind::$variant => AnyGame::$variant(<$ty as Game>::from_position(options, text)?)),* })
            }

            /// Which game this is.
            #[must_use]
            pub fn kind(&self) -> GameKind {
                match self { $(AnyGame::$variant(_) => GameKind::$variant),* }
            }
        }
    };
}

games! {
    SightReduction => boardlab_sight_reduction::SightReduction,
    Obsidio => boardlab_obsidio::Obsidio,
    Opprimo => boardlab_opprimo::Opprimo,
    Assideum => boardlab_assideum::Assideum,
}

impl AnyGame {
    /// The legal moves in canonical notation, in the game's order.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<String> {
        dispatch!(self, g => {
            let mut v = Vec::new();
            g.legal_moves(&mut v);
            v.into_iter().map(|m| g.format_move(m)).collect()
        })
    }

    /// Plays move text; returns its canonical notation.
    ///
    /// # Errors
    /// Malformed or illegal text; the game is unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<String, MoveError> {
        dispatch!(self, g => {
            let mv = g.play_text(text)?;
            Ok(g.format_move(mv))
        })
    }

    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        dispatch!(self, g => g.outcome())
    }

    #[must_use]
    pub fn to_move(&self) -> Seat {
        dispatch!(self, g => g.to_move())
    }

    #[must_use]
    pub fn colour_of(&self, seat: Seat) -> Option<Colour> {
        dispatch!(self, g => g.colour_of(seat))
    }

    #[must_use]
    pub fn colour_to_move(&self) -> Option<Colour> {
        dispatch!(self, g => g.colour_to_move())
    }

    #[must_use]
    pub fn position_text(&self) -> String {
        dispatch!(self, g => g.position_text())
    }

    #[must_use]
    pub fn diagram(&self) -> String {
        dispatch!(self, g => g.diagram())
    }

    #[must_use]
    pub fn options(&self) -> &Options {
        dispatch!(self, g => g.options())
    }

    #[must_use]
    pub fn ply(&self) -> u32 {
        dispatch!(self, g => g.ply())
    }

    #[must_use]
    pub fn hash(&self) -> u64 {
        dispatch!(self, g => g.hash())
    }

    #[must_use]
    pub fn is_solitaire(&self) -> bool {
        dispatch!(self, g => g.is_solitaire())
    }

    /// The position as a drawable board (see [`Present::board`]).
    #[must_use]
    pub fn board(&self) -> Board {
        dispatch!(self, g => Present::board(g))
    }

    /// How each legal move is entered by clicks (see [`Present::interaction`]).
    #[must_use]
    pub fn interaction(&self) -> Interaction {
        dispatch!(self, g => Present::interaction(g))
    }

    /// The cells the move `text` touches in this position: empty for text that is not a legal
    /// move here (see [`Present::touched`]).
    #[must_use]
    pub fn touched(&self, text: &str) -> Vec<Text> {
        dispatch!(self, g => match g.parse_move(text) {
            Ok(mv) if g.is_legal(mv) => Present::touched(g, mv),
            _ => Vec::new(),
        })
    }
}

impl GameKind {
    /// The game's name, as used on command lines and in records.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Parses options `key=value,…` for this game.
    ///
    /// # Errors
    /// Unknown names or values.
    pub fn parse_options(self, text: &str) -> Result<Options, OptionError> {
        self.info().parse_options(text)
    }

    /// The names of every game, comma-separated (for error messages).
    #[must_use]
    pub fn names() -> String {
        GameKind::ALL
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown game name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown game '{}'; accepted: {}",
            self.0,
            GameKind::names()
        )
    }
}

impl std::error::Error for UnknownGame {}

impl FromStr for GameKind {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let norm = s.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        GameKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == norm || k.name().replace('-', "") == norm)
            .ok_or_else(|| UnknownGame(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &k in GameKind::ALL {
            assert_eq!(k.name().parse::<GameKind>(), Ok(k));
            assert_eq!(k.to_string(), k.name());
        }
        let e = "chess".parse::<GameKind>().unwrap_err();
        assert!(e.to_string().contains("accepted: sight-reduction"), "{e}");
    }
}
