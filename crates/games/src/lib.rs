//! The list of boardlab games, chosen by name at run time.
//!
//! [`GameKind`] names one game of the list; it dereferences to the game's
//! [`DynKind`] (facts, legend, tutorial, new games, bots). [`AnyGame`]
//! holds a game in progress of any kind and dereferences to
//! [`DynGame`], its text-level interface (moves as notation, the board
//! and the move clicks of [`boardlab_core::Present`], the optional encoding). Both are made
//! once for every game by `boardlab_ai::kind_of`; nothing here but [`LIST`] names a game.
//!
//! Adding a game is its crate (rules, notation, presentation, and
//! `impl boardlab_ai::Capabilities`) plus one line in [`LIST`] (and the crate as a dependency
//! here); `docs/architecture.md` walks through it, and `tests/fifth_game.rs` follows it for the
//! toy game, which the `toy` feature adds to the list. Without bot support a game is played by
//! the random bot and outside engines, and other bots are refused with a clear error; without
//! an encoding it plays everywhere except the learning environments.

pub mod analysis;
pub mod fuzzing;
pub mod view;

use boardlab_ai::review::{Progress, Review, ReviewConfig, ReviewError};
use boardlab_ai::{kind_of, DynGame, DynKind};
use boardlab_core::{GameRecord, NewGameError, Options, RecordError};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::LazyLock;

/// Every game, in the order listed to users.
fn list() -> Vec<&'static dyn DynKind> {
    #[allow(unused_mut)] // without the toy game
    let mut games = vec![
        kind_of::<boardlab_sight_reduction::SightReduction>(),
        kind_of::<boardlab_obsidio::Obsidio>(),
        kind_of::<boardlab_opprimo::Opprimo>(),
        kind_of::<boardlab_assideum::Assideum>(),
    ];
    #[cfg(feature = "toy")]
    games.push(kind_of::<boardlab_toy::Toy>());
    games
}

/// The list of games, made once.
pub static LIST: LazyLock<Vec<&'static dyn DynKind>> = LazyLock::new(list);

static KINDS: LazyLock<Vec<GameKind>> =
    LazyLock::new(|| (0..LIST.len()).map(|i| GameKind(i as u8)).collect());

/// One game of the list: a small copyable handle, ordered as the list is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameKind(u8);

impl GameKind {
    /// Every game, in the order listed to users.
    #[must_use]
    pub fn all() -> &'static [GameKind] {
        &KINDS
    }

    /// The game's name, as used on command lines and in records.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The game named `name` (see [`str::parse`]).
    ///
    /// # Errors
    /// An unknown name, listing the known ones.
    pub fn named(name: &str) -> Result<GameKind, UnknownGame> {
        name.parse()
    }

    /// Parses options `key=value,…` for this game.
    ///
    /// # Errors
    /// Unknown names or values.
    pub fn parse_options(self, text: &str) -> Result<Options, boardlab_core::OptionError> {
        self.info().parse_options(text)
    }

    /// The names of every game, comma-separated (for error messages).
    #[must_use]
    pub fn names() -> String {
        GameKind::all()
            .iter()
            .map(|k| k.name())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The game's dynamic kind.
    #[must_use]
    pub fn dyn_kind(self) -> &'static dyn DynKind {
        LIST[usize::from(self.0)]
    }
}

impl std::ops::Deref for GameKind {
    type Target = dyn DynKind;
    fn deref(&self) -> &(dyn DynKind + 'static) {
        self.dyn_kind()
    }
}

impl fmt::Debug for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameKind({})", self.name())
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for GameKind {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameKind::all()
            .iter()
            .copied()
            .find(|k| k.info().is_named(s))
            .ok_or_else(|| UnknownGame(s.to_string()))
    }
}

/// The kind in the list of a dynamic kind.
fn listed(kind: &'static dyn DynKind) -> GameKind {
    let name = kind.info().name;
    GameKind::all()
        .iter()
        .copied()
        .find(|k| k.name() == name)
        .expect("every game made here is of a listed kind")
}

/// A game in progress of any kind. It dereferences to [`DynGame`] for everything it can do.
#[derive(Clone, Debug)]
pub struct AnyGame(Box<dyn DynGame>);

impl AnyGame {
    /// A new game of `kind`.
    ///
    /// # Errors
    /// Options the game cannot play.
    pub fn new(kind: GameKind, options: &Options, seed: u64) -> Result<AnyGame, NewGameError> {
        kind.new_game(options, seed).map(AnyGame)
    }

    /// A game of `kind` from a position text.
    ///
    /// # Errors
    /// An invalid position text.
    pub fn from_position(
        kind: GameKind,
        options: &Options,
        text: &str,
    ) -> Result<AnyGame, NewGameError> {
        kind.dyn_kind().read_position(options, text).map(AnyGame)
    }

    /// The game `record` starts from (its set-up or position, with its options), as a game of
    /// `kind`.
    ///
    /// # Errors
    /// A record of another game, bad options or a bad position.
    pub fn record_start(kind: GameKind, record: &GameRecord) -> Result<AnyGame, RecordError> {
        kind.dyn_kind().record_start(record).map(AnyGame)
    }

    /// A game already made behind the dynamic interface (of a listed kind).
    #[must_use]
    pub fn from_dyn(game: Box<dyn DynGame>) -> AnyGame {
        AnyGame(game)
    }

    /// Which game this is.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        listed(self.0.kind())
    }
}

impl PartialEq for AnyGame {
    fn eq(&self, other: &AnyGame) -> bool {
        self.0.same(&*other.0)
    }
}

impl std::ops::Deref for AnyGame {
    type Target = dyn DynGame;
    fn deref(&self) -> &(dyn DynGame + 'static) {
        &*self.0
    }
}

impl std::ops::DerefMut for AnyGame {
    fn deref_mut(&mut self) -> &mut (dyn DynGame + 'static) {
        &mut *self.0
    }
}

/// Reviews the game of `record` (any game of the list): see
/// [`boardlab_ai::review::review_record`].
///
/// # Errors
/// An unknown game, a record that does not replay, a game without bot support, a bad thread
/// count, or a stopped review.
pub fn review_record(
    record: &GameRecord,
    config: &ReviewConfig,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<Review, ReviewError> {
    let kind: GameKind = record
        .game
        .parse()
        .map_err(|e: UnknownGame| ReviewError::UnknownGame(e.to_string()))?;
    kind.review_record(record, config, stop, progress)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &k in GameKind::all() {
            assert_eq!(k.name().parse::<GameKind>(), Ok(k));
            assert_eq!(k.to_string(), k.name());
        }
        let e = "chess".parse::<GameKind>().unwrap_err();
        assert!(e.to_string().contains("accepted: sight-reduction"), "{e}");
    }

    /// Every value of a choice or switch option, as text.
    fn values(spec: &boardlab_core::OptionSpec) -> Vec<String> {
        match spec.values {
            boardlab_core::OptionValues::Choice { choices } => {
                choices.iter().map(ToString::to_string).collect()
            }
            boardlab_core::OptionValues::Bool => vec!["true".into(), "false".into()],
            _ => Vec::new(),
        }
    }

    #[test]
    fn the_options_of_a_one_person_mode_are_those_the_game_says() {
        for &k in GameKind::all() {
            let info = k.info();
            for name in info.solitaire_options {
                assert!(info.options.iter().any(|o| o.name == *name), "{k}: {name}");
            }
            for spec in info.options {
                for v in values(spec) {
                    let options = info.options_from_pairs([(spec.name, v.as_str())]).unwrap();
                    let Ok(game) = AnyGame::new(k, &options, 0) else {
                        continue;
                    };
                    if game.is_solitaire() {
                        assert!(
                            info.solitaire_options.contains(&spec.name),
                            "{k}: {}={v} makes a game played alone, but is not listed",
                            spec.name
                        );
                    }
                }
            }
            // The first option listed is the one that makes the game one played alone.
            if let Some(first) = info.solitaire_options.first() {
                let spec = info.options.iter().find(|o| o.name == *first).unwrap();
                assert!(
                    values(spec).iter().any(|v| {
                        let o = info.options_from_pairs([(spec.name, v.as_str())]).unwrap();
                        AnyGame::new(k, &o, 0).is_ok_and(|g| g.is_solitaire())
                    }),
                    "{k}: {first} never makes a game played alone"
                );
            }
        }
    }

    #[test]
    fn every_listed_game_has_bots_and_a_tutorial_that_holds_up() {
        for &k in GameKind::all() {
            if k.name() == "toy" {
                continue;
            }
            assert!(k.has_bots(), "{k}");
            let steps = k.tutorial().unwrap_or_else(|e| panic!("{e}"));
            assert!(
                (5..=10).contains(&steps.len()),
                "{k}: {} steps",
                steps.len()
            );
        }
    }
}
