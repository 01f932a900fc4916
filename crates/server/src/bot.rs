//! Computer players: a bot spec of the AI crate (`random`, `level:5`, `mcts:time=200ms`, …)
//! and the call that chooses its move. Random play works in every game; other bots in the
//! games the AI crate supports. An outside engine (`ugi:COMMAND`) runs only when the operator
//! allowed its command (`--ugi-engine`): a seat's spec comes from whoever creates the game.

use crate::settings::ComputerLimits;
use boardlab_ai::spec::UgiSpec;
use boardlab_ai::{AiError, BotSpec};
use boardlab_core::rand::{Rng, SeedableRng};
use boardlab_games::{AnyGame, GameKind};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The level of a plain `computer` seat.
pub const DEFAULT_LEVEL: u8 = 3;

/// A computer player: the bot its spec describes.
#[derive(Clone, Debug, PartialEq)]
pub struct ComputerPlayer {
    spec: BotSpec,
}

impl ComputerPlayer {
    /// Reads a bot spec (`random`, `level:N`, `mcts:…`, `alphabeta:…`, `best:…`, `ugi:…`).
    ///
    /// # Errors
    /// A spec that no bot accepts, listing the accepted forms.
    pub fn parse(spec: &str) -> Result<ComputerPlayer, String> {
        spec.parse::<BotSpec>()
            .map(|spec| ComputerPlayer { spec })
            .map_err(|e: AiError| e.to_string())
    }

    /// The uniformly random player.
    #[must_use]
    pub fn random() -> ComputerPlayer {
        ComputerPlayer {
            spec: BotSpec::Random,
        }
    }

    /// The bot a plain `computer` seat gets: `level:3`.
    #[must_use]
    pub fn default_level() -> ComputerPlayer {
        ComputerPlayer {
            spec: BotSpec::Level(DEFAULT_LEVEL),
        }
    }

    /// The strength level, for a `level:N` bot.
    #[must_use]
    pub fn level(&self) -> Option<u8> {
        match self.spec {
            BotSpec::Level(n) => Some(n),
            _ => None,
        }
    }

    /// Checks that this bot is not an outside engine, or one whose command (program and
    /// arguments, exactly) is among the `allowed` ones.
    ///
    /// # Errors
    /// An outside engine the operator did not allow.
    pub fn check_engine(&self, allowed: &[Vec<String>]) -> Result<(), String> {
        match &self.spec {
            BotSpec::Ugi(u) if !allowed.contains(&u.command) => Err(format!(
                "this server does not run the outside engine `{}`{}",
                u.command_line(),
                if allowed.is_empty() {
                    " (it runs none; its operator allows engines with --ugi-engine)".to_string()
                } else {
                    let list: Vec<String> = allowed
                        .iter()
                        .map(|command| {
                            let spec = UgiSpec {
                                command: command.clone(),
                                time: None,
                            };
                            format!("`{}`", spec.command_line())
                        })
                        .collect();
                    format!("; it runs {}", list.join(", "))
                }
            )),
            _ => Ok(()),
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
        kind.resolve(&self.spec)
            .map(|_| ())
            .map_err(|e| format!("{e}; computer:random plays every game"))
    }

    /// This bot as a server with `limits` runs it in `kind`, and the search threads it then
    /// uses: its time per move cut to the limit, and its threads to the server's (a search
    /// "on every core" gets every thread the server allows).
    #[must_use]
    pub fn within(&self, kind: GameKind, limits: &ComputerLimits) -> (ComputerPlayer, u32) {
        let Ok(mut spec) = kind.resolve(&self.spec) else {
            return (self.clone(), 1);
        };
        let cap = u32::try_from(limits.threads.max(1)).unwrap_or(u32::MAX);
        let fit = |time: &mut Option<Duration>, threads: &mut u32| {
            *time = time.map(|t| t.min(limits.max_time));
            if *threads == 0 || *threads > cap {
                *threads = cap;
            }
            *threads
        };
        let threads = match &mut spec {
            BotSpec::Mcts(m) => fit(&mut m.time, &mut m.threads),
            BotSpec::AlphaBeta(a) => fit(&mut a.time, &mut a.threads),
            BotSpec::Ugi(u) => {
                u.time = Some(u.move_time().min(limits.max_time));
                1
            }
            _ => 1,
        };
        (ComputerPlayer { spec }, threads)
    }

    /// This bot searching on at most `threads` threads (the search pool had no more to
    /// give).
    #[must_use]
    pub fn with_threads(&self, threads: usize) -> ComputerPlayer {
        let cap = u32::try_from(threads.max(1)).unwrap_or(u32::MAX);
        let mut spec = self.spec.clone();
        match &mut spec {
            BotSpec::Mcts(m) if m.threads == 0 || m.threads > cap => m.threads = cap,
            BotSpec::AlphaBeta(a) if a.threads == 0 || a.threads > cap => a.threads = cap,
            _ => {}
        }
        ComputerPlayer { spec }
    }

    /// Checks that this bot asks for no more than a server with `limits` allows: a time per
    /// move within the limit and no more threads than the server has for computer players.
    /// (Iteration, node and depth budgets are not refused: such a search is stopped at the
    /// time limit.)
    ///
    /// # Errors
    /// What exceeds which limit, naming the operator's setting.
    pub fn check_limits(&self, kind: GameKind, limits: &ComputerLimits) -> Result<(), String> {
        let spec = kind.resolve(&self.spec).map_err(|e| e.to_string())?;
        let (time, threads) = match (&self.spec, spec) {
            (_, BotSpec::Mcts(m)) => (m.time, m.threads),
            (_, BotSpec::AlphaBeta(a)) => (a.time, a.threads),
            (_, BotSpec::Ugi(u)) => (Some(u.move_time()), 1),
            _ => (None, 1),
        };
        if let Some(t) = time.filter(|t| *t > limits.max_time) {
            return Err(format!(
                "{self} thinks {} a move; this server allows at most {} \
                 (its setting --computer-max-time)",
                boardlab_ai::spec::format_duration(t),
                boardlab_ai::spec::format_duration(limits.max_time)
            ));
        }
        // Levels and "every core" (threads=0) take what the server has; a number is a request.
        let explicit = !matches!(self.spec, BotSpec::Level(_));
        if explicit && threads as usize > limits.threads {
            return Err(format!(
                "{self} asks for {threads} threads; this server gives computer players at most \
                 {} (its setting --computer-threads)",
                limits.threads
            ));
        }
        Ok(())
    }

    /// The longest this bot may think on a server with `limits` before it is told to stop:
    /// twice its usual time plus a second, and never much beyond the server's limit.
    #[must_use]
    pub fn deadline(&self, limits: &ComputerLimits) -> Duration {
        let usual = self.time_hint() * 2 + Duration::from_secs(1);
        usual.min(limits.max_time + limits.max_time / 10 + Duration::from_millis(50))
    }

    /// A typical upper bound on the time one move takes.
    #[must_use]
    pub fn time_hint(&self) -> Duration {
        self.spec.time_hint()
    }

    /// Chooses a move for the side to move of `game`, reached from `start` by `moves`
    /// (an outside engine is told the whole line); returns its notation. Setting `stop` ends
    /// a search early with the best move so far.
    ///
    /// # Errors
    /// The game is over, the bot cannot play this game, or an outside engine failed
    /// ([`AiError::Engine`]).
    pub fn choose(
        &self,
        start: &AnyGame,
        moves: &[String],
        game: &AnyGame,
        seed: u64,
        stop: &AtomicBool,
    ) -> Result<String, AiError> {
        if self.spec == BotSpec::Random {
            let moves = game.legal_moves();
            if moves.is_empty() {
                return Err(AiError::GameOver(
                    game.outcome().map(|o| o.to_string()).unwrap_or_default(),
                ));
            }
            let mut rng = boardlab_core::Rng::seed_from_u64(seed);
            return Ok(moves[rng.random_range(0..moves.len())].clone());
        }
        boardlab_ai::analyze_line(&**start, moves, &self.spec, seed, stop).map(|a| a.best)
    }
}

impl fmt::Display for ComputerPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.spec)
    }
}
