//! The game API shared by every boardlab game.
//!
//! - [`Game`]: one game's rules behind one trait (legal moves in a fixed order, checked and
//!   unchecked play, outcome, notation, position text, Zobrist hash). A position text is read
//!   into the game's [`Notation::Setup`], which the rules then check ([`Notation::from_setup`]
//!   gives a refused set-up back in a [`Rejected`]).
//! - [`Options`]/[`OptionSpec`]: each game's options as a schema, parsed with clear errors.
//! - [`Seat`], [`Colour`], [`Outcome`], [`Wdl`], [`Proven`]: who plays, how it ended and what
//!   exact search proved, always from a named point of view.
//! - [`Present`]: the position as a drawable board and each legal move as clicks, so any
//!   interface draws and plays a game without knowing its rules.
//! - [`tutorial`]: each game's lessons on real positions, checked against its rules.
//! - [`GameRecord`]: a whole game in JSON or a PGN-like text form, replayed through the rules.
//! - [`perft`](perft::perft) and, with the `testkit` feature, the conformance suite that every
//!   game's tests run.

pub mod budget;
pub mod coord;
pub mod encoding;
pub mod game;
pub mod options;
pub mod perft;
pub mod player;
pub mod present;
pub mod record;
#[cfg(feature = "testkit")]
pub mod testkit;
pub mod tutorial;
pub mod zobrist;

/// The game traits, for `use boardlab_core::prelude::*` where a module calls their methods on
/// concrete game types.
pub mod prelude {
    pub use crate::encoding::Encoding;
    pub use crate::game::{Audit, Game, Notation, Rules};
    pub use crate::present::Present;
}

pub use budget::{Budget, OutOfBudget};
pub use encoding::Encoding;
pub use game::{
    setup, split_moves, Audit, Game, GameInfo, IllegalMove, MoveError, NewGameError, Notation,
    ParseMoveError, PositionError, Rejected, Rejection, Rules, SetupError,
};
pub use options::{OptionError, OptionSpec, OptionValues, Options};
pub use player::{Colour, Outcome, Proven, Seat, Wdl};
pub use present::Present;
pub use record::{GameRecord, MoveNote, RecordError, RecordValue, SeatNames};

/// The random number generator for seeded set-ups and playouts: reproducible across platforms
/// and versions for a given seed.
pub type Rng = rand_chacha::ChaCha8Rng;

/// A generator seeded from `seed`.
#[must_use]
pub fn rng(seed: u64) -> Rng {
    use rand::SeedableRng;
    rand_chacha::ChaCha8Rng::seed_from_u64(seed)
}

pub use rand;
