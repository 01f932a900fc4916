//! Computer players: a bot spec of the AI crate (`random`, `level:5`, `mcts:time=200ms`, …)
//! and the call that chooses its move. Random play works in every game; other bots in the
//! games the AI crate supports.

use boardlab_ai::{AiError, BotSpec};
use boardlab_core::rand::{Rng, SeedableRng};
use boardlab_games::{AnyGame, GameKind};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The level of a plain `computer` seat.
pub const DEFAULT_LEVEL: u8 = 3;

/// A bot described by its spec.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bot {
    spec: BotSpec,
}

impl Bot {
    /// Reads a bot spec (`random`, `level:N`, `mcts:…`, `alphabeta:…`, `best:…`).
    ///
    /// # Errors
    /// A spec that no bot accepts, listing the accepted forms.
    pub fn parse(spec: &str) -> Result<Bot, String> {
        spec.parse::<BotSpec>()
            .map(|spec| Bot { spec })
            .map_err(|e: AiError| e.to_string())
    }

    /// The uniformly random player.
    #[must_use]
    pub fn random() -> Bot {
        Bot {
            spec: BotSpec::Random,
        }
    }

    /// The bot a plain `computer` seat gets: `level:3`.
    #[must_use]
    pub fn default_level() -> Bot {
        Bot {
            spec: BotSpec::Level(DEFAULT_LEVEL),
        }
    }

    /// Checks that this bot can play `kind`.
    ///
    /// # Errors
    /// The AI does not support the game with this spec.
    pub fn check_game(&self, kind: GameKind) -> Result<(), String> {
        if self.spec == BotSpec::Random {
            return Ok(());
        }
        boardlab_ai::resolve_for(kind, &self.spec)
            .map(|_| ())
            .map_err(|e| format!("{e}; computer:random plays every game"))
    }

    /// A typical upper bound on the time one move takes.
    #[must_use]
    pub fn time_hint(&self) -> Duration {
        self.spec.time_hint()
    }

    /// Chooses a move for the side to move; returns its notation. Setting `stop` ends a
    /// search early with the best move so far.
    ///
    /// # Errors
    /// The game is over, or the bot cannot play this game.
    pub fn choose(&self, game: &AnyGame, seed: u64, stop: &AtomicBool) -> Result<String, String> {
        if self.spec == BotSpec::Random {
            let moves = game.legal_moves();
            if moves.is_empty() {
                return Err("the game is over".into());
            }
            let mut rng = boardlab_core::Rng::seed_from_u64(seed);
            return Ok(moves[rng.random_range(0..moves.len())].clone());
        }
        boardlab_ai::choose_move_with_stop(game, &self.spec, seed, stop).map_err(|e| e.to_string())
    }
}

impl fmt::Display for Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.spec)
    }
}
