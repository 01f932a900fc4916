//! The registry of boardlab games, chosen by name at run time.
//!
//! [`GameKind`] names a game; [`GameKind::visit`] calls generic code with the game's type, so
//! commands are written once as `fn run<G: Present>()` and dispatched by `match`, not through
//! trait objects. [`AnyGame`] holds a game of any kind behind a text-level interface (moves as
//! notation, the board and the move clicks of [`boardlab_core::Present`]) for services that
//! store games of all kinds side by side.
//!
//! The list of games is written once, in [`with_games!`]; [`registry!`] makes `GameKind` and
//! `AnyGame` from it, and the computer players (`boardlab_ai`) make their dispatch from the same
//! list. The server, the command line, the catalog and the web app take the games from
//! `GameKind`. Adding a game is its crate plus one line in `with_games!` (and the crate as a
//! dependency here); `docs/architecture.md` walks through it, and `tests/fifth_game.rs` follows
//! it for a toy game. Without bot support (`boardlab_ai::GameAi`) a game is played by the
//! random bot and other bots are refused with a clear error; without an emblem of its own the
//! start page shows a plain one.

pub mod fuzzing;

use std::fmt;

#[doc(hidden)]
pub use boardlab_core as __core;

/// The game crates, for the paths of [`with_games!`].
#[doc(hidden)]
pub mod __games {
    pub use boardlab_assideum;
    pub use boardlab_obsidio;
    pub use boardlab_opprimo;
    pub use boardlab_sight_reduction;
}

/// Generic code run with a game's type; see [`GameKind::visit`].
pub trait GameVisitor {
    type Output;
    fn visit<G: boardlab_core::Present + boardlab_core::Audit>(self) -> Self::Output;
}

/// Defines the registry of games from one list: [`GameKind`] (names, info, visiting the type)
/// and [`AnyGame`] (a game of any kind with a text-level interface), with every method. The
/// crate invokes it once through [`with_games!`]; a test may invoke it with a list of its own.
#[macro_export]
macro_rules! registry {
    ($($variant:ident => $ty:ty),* $(,)?) => {
        /// One of the boardlab games.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GameKind { $($variant),* }

        impl GameKind {
            /// Every game, in the order listed to users.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$variant),*];

            /// Static facts and option schema.
            #[must_use]
            pub fn info(self) -> &'static $crate::__core::GameInfo {
                match self { $(GameKind::$variant => <$ty as $crate::__core::Game>::info()),* }
            }

            /// What the pieces and marks of the game's boards mean (see
            /// [`$crate::__core::Present::legend`]).
            #[must_use]
            pub fn legend(self) -> Vec<$crate::__core::present::LegendItem> {
                match self { $(GameKind::$variant => <$ty as $crate::__core::Present>::legend()),* }
            }

            /// Runs `visitor` with this game's type.
            pub fn visit<V: $crate::GameVisitor>(self, visitor: V) -> V::Output {
                match self { $(GameKind::$variant => visitor.visit::<$ty>()),* }
            }

            /// The game's tutorial, each step checked against the rules (empty for a game
            /// without one; see `boardlab_core::tutorial`).
            ///
            /// # Errors
            /// A step that does not hold up against the rules.
            pub fn tutorial(self) -> Result<Vec<$crate::__core::tutorial::Lesson>, $crate::__core::tutorial::TutorialError> {
                match self { $(GameKind::$variant => $crate::__core::tutorial::lessons::<$ty>()),* }
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
            pub fn new(kind: GameKind, options: &$crate::__core::Options, seed: u64) -> Result<AnyGame, $crate::__core::NewGameError> {
                Ok(match kind { $(GameKind::$variant => AnyGame::$variant(<$ty as $crate::__core::Game>::new(options, seed)?)),* })
            }

            /// A game of `kind` from a position text.
            ///
            /// # Errors
            /// An invalid position text.
            pub fn from_position(kind: GameKind, options: &$crate::__core::Options, text: &str) -> Result<AnyGame, $crate::__core::NewGameError> {
                Ok(match kind { $(GameKind::$variant => AnyGame::$variant(<$ty as $crate::__core::Notation>::from_position(options, text)?)),* })
            }

            /// The game `record` starts from (its set-up or position, with its options), as a
            /// game of `kind`.
            ///
            /// # Errors
            /// A record of another game, bad options or a bad position.
            pub fn record_start(kind: GameKind, record: &$crate::__core::GameRecord) -> Result<AnyGame, $crate::__core::RecordError> {
                Ok(match kind { $(GameKind::$variant => AnyGame::$variant(record.start::<$ty>()?)),* })
            }

            /// Which game this is.
            #[must_use]
            pub fn kind(&self) -> GameKind {
                match self { $(AnyGame::$variant(_) => GameKind::$variant),* }
            }
        }

        #[allow(unused_imports)]
        use $crate::__core::{Game as _, Notation as _, Rules as _};

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

            /// Plays move text; returns its canonical notation and the cells it touched (see
            /// [`$crate::__core::Present::touched`]), from one reading of the text.
            ///
            /// # Errors
            /// Malformed or illegal text; the game is unchanged.
            pub fn play_text(&mut self, text: &str) -> Result<$crate::__core::present::PlayedMove, $crate::__core::MoveError> {
                dispatch!(self, g => {
                    let mv = g.parse_move(text)?;
                    let touched = if g.is_legal(mv) {
                        $crate::__core::Present::touched(g, mv)
                    } else {
                        Vec::new()
                    };
                    g.play(mv)?;
                    let notation = g.format_move(mv);
                    Ok($crate::__core::present::PlayedMove { notation, touched })
                })
            }

            #[must_use]
            pub fn outcome(&self) -> Option<$crate::__core::Outcome> {
                dispatch!(self, g => g.outcome())
            }

            #[must_use]
            pub fn to_move(&self) -> $crate::__core::Seat {
                dispatch!(self, g => g.to_move())
            }

            #[must_use]
            pub fn colour_of(&self, seat: $crate::__core::Seat) -> Option<$crate::__core::Colour> {
                dispatch!(self, g => g.colour_of(seat))
            }

            #[must_use]
            pub fn colour_to_move(&self) -> Option<$crate::__core::Colour> {
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
            pub fn options(&self) -> $crate::__core::Options {
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

            /// The game's action ids and planes, or `None` for a game without an encoding
            /// (see [`$crate::__core::Game::encoding`]).
            #[must_use]
            pub fn encoding(&self) -> Option<&dyn $crate::__core::encoding::DynEncoding> {
                dispatch!(self, g => g.encoding())
            }

            /// [`AnyGame::encoding`], to play by action ids.
            pub fn encoding_mut(&mut self) -> Option<&mut dyn $crate::__core::encoding::DynEncoding> {
                dispatch!(self, g => g.encoding_mut())
            }

            /// The number of move sequences of `depth` moves from here (see
            /// [`$crate::__core::perft::perft`]).
            #[must_use]
            pub fn perft(&self, depth: u32) -> u64 {
                dispatch!(self, g => $crate::__core::perft::perft(g, depth))
            }

            /// [`AnyGame::perft`] per legal move, in notation.
            #[must_use]
            pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
                dispatch!(self, g => $crate::__core::perft::divide(g, depth))
            }

            /// Plays uniformly random moves from `seed` to the end; returns how many.
            pub fn playout(&mut self, seed: u64) -> u32 {
                dispatch!(self, g => g.playout(&mut $crate::__core::rng(seed)))
            }

            /// The position as a drawable board (see [`$crate::__core::Present::board`]).
            #[must_use]
            pub fn board(&self) -> $crate::__core::present::Board {
                dispatch!(self, g => $crate::__core::Present::board(g))
            }

            /// How each legal move is entered by clicks (see [`$crate::__core::Present::interaction`]).
            #[must_use]
            pub fn interaction(&self) -> $crate::__core::present::Interaction {
                dispatch!(self, g => $crate::__core::Present::interaction(g))
            }

            /// The cells that mark the move `text` where it is suggested in this position: empty for
            /// text that is not a legal move here (see [`$crate::__core::Present::suggested`]).
            #[must_use]
            pub fn suggested(&self, text: &str) -> Vec<$crate::__core::present::Text> {
                dispatch!(self, g => match g.parse_move(text) {
                    Ok(mv) if g.is_legal(mv) => $crate::__core::Present::suggested(g, mv),
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
            pub fn parse_options(self, text: &str) -> Result<$crate::__core::Options, $crate::__core::OptionError> {
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

        impl ::std::fmt::Display for GameKind {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::std::str::FromStr for GameKind {
            type Err = $crate::UnknownGame;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let norm = s.trim().to_ascii_lowercase().replace(['_', ' '], "-");
                GameKind::ALL
                    .iter()
                    .copied()
                    .find(|k| k.name() == norm || k.name().replace('-', "") == norm)
                    .ok_or_else(|| $crate::UnknownGame(s.to_string()))
            }
        }
    };
}

/// Calls macro `$m` with the list of every game, `Variant => Type`, in the order shown to users.
/// This is the one list of games: the registry below, the computer players and everything that
/// serves games take it from here. Adding a game is one line here plus the game's crate as a
/// dependency of this crate.
#[macro_export]
macro_rules! with_games {
    ($m:path) => {
        $m! {
            SightReduction => $crate::__games::boardlab_sight_reduction::SightReduction,
            Obsidio => $crate::__games::boardlab_obsidio::Obsidio,
            Opprimo => $crate::__games::boardlab_opprimo::Opprimo,
            Assideum => $crate::__games::boardlab_assideum::Assideum,
        }
    };
}

with_games!(registry);

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

    #[test]
    fn every_game_has_a_tutorial_that_holds_up() {
        for &k in GameKind::ALL {
            let steps = k.tutorial().unwrap_or_else(|e| panic!("{e}"));
            assert!(
                (5..=10).contains(&steps.len()),
                "{k}: {} steps",
                steps.len()
            );
        }
    }
}
