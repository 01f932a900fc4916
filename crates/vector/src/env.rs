//! [`VecEnv`]: the games, stepping them, and the arrays each step writes.

use crate::seeds;
use boardlab_ai::BotSpec;
use boardlab_core::encoding::DynEncoding;
use boardlab_core::{Options, Outcome, Seat};
use boardlab_games::{AnyGame, GameKind};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use rayon::prelude::*;

/// The most action ids a game may have here: masks are dense, one entry per id (as the
/// PettingZoo environments).
pub const MAX_ACTIONS: u32 = 1 << 22;

/// The most envs in one [`VecEnv`].
pub const MAX_ENVS: usize = 1 << 20;

/// The most new games tried in a row for one env when each ends before the agent can move.
const MAX_RESTARTS: u32 = 1000;

/// Which seat the agent plays against an [`Opponent`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentSeats {
    /// The same seat in every env.
    Fixed(Seat),
    /// Env `i` plays seat `i % 2`: half the envs the first seat, half the second.
    Alternate,
}

impl AgentSeats {
    /// The agent's seat in env `index`.
    #[must_use]
    pub fn of(self, index: usize) -> Seat {
        match self {
            AgentSeats::Fixed(seat) => seat,
            AgentSeats::Alternate if index % 2 == 0 => Seat::First,
            AgentSeats::Alternate => Seat::Second,
        }
    }
}

/// A bot that plays the other seat inside every step, for single-agent learning.
#[derive(Clone, Debug)]
pub struct Opponent {
    /// The bot (`random`, `level:3`, `mcts:iterations=200` …).
    pub bot: BotSpec,
    /// The agent's seats.
    pub seats: AgentSeats,
}

/// What a [`VecEnv`] is made of.
#[derive(Clone, Debug)]
pub struct Config {
    /// The game.
    pub kind: GameKind,
    /// Its options (the same in every env).
    pub options: Options,
    /// The number of games stepped together, 1 to [`MAX_ENVS`].
    pub num_envs: usize,
    /// The base seed of every set-up, bot move and sampled action.
    pub seed: u64,
    /// Threads that step the envs: 1 steps them on the calling thread.
    pub threads: usize,
    /// Moves (of both seats) after which a game is cut off (`truncated`), if any.
    pub max_moves: Option<u32>,
    /// A bot for the other seat, if the envs are single-agent.
    pub opponent: Option<Opponent>,
}

/// What went wrong; nothing changes on any of these, except as [`VecError::Bot`] says.
#[derive(Debug, thiserror::Error)]
pub enum VecError {
    /// Options, sizes or a bot the envs cannot be made with.
    #[error("{0}")]
    Config(String),
    /// An action that is not legal in that env's game: no env was stepped.
    #[error("env {index}: {message}")]
    Action {
        /// The env.
        index: usize,
        /// Why, in the game's words.
        message: String,
    },
    /// Arrays of the wrong length.
    #[error("{0}")]
    Shape(String),
    /// The bot failed to move in a legal position (a bot that cannot play this game is refused
    /// when the envs are made, so this is not expected). The other envs were stepped; this
    /// env's game stands where the bot failed.
    #[error("env {index}: the bot could not move: {message}")]
    Bot {
        /// The env.
        index: usize,
        /// The bot's error.
        message: String,
    },
    /// A search's evaluator failed or answered with the wrong sizes; nothing changed.
    #[error("the evaluator failed: {0}")]
    Evaluator(String),
}

/// The arrays a step or reset writes, each holding one row per env, row-major.
#[derive(Debug)]
pub struct Outputs<'a> {
    /// `num_envs × channels × height × width` planes: from the side to move, or from the
    /// agent's seat against an [`Opponent`].
    pub observation: &'a mut [f32],
    /// `num_envs × action_count`: true for each legal id.
    pub action_mask: &'a mut [bool],
    /// Whether `action_mask` holds exactly what the previous step or reset of this env wrote:
    /// then only those entries are cleared, not whole rows (which matters for games with
    /// hundreds of thousands of ids).
    pub mask_is_current: bool,
    /// `num_envs`: the seat to move, 0 or 1.
    pub current_player: &'a mut [i32],
    /// `num_envs × 2`: each seat's reward, +1 win, −1 loss, 0 draw, on the step that ends a
    /// game; 0 otherwise.
    pub rewards: &'a mut [f32],
    /// `num_envs`: the game ended by its rules in this step.
    pub terminated: &'a mut [bool],
    /// `num_envs`: the game was cut off at `max_moves` in this step.
    pub truncated: &'a mut [bool],
    /// Optionally, `num_envs` planes: for the envs whose game ended in this step, its last
    /// position (from the same view as `observation`). Other rows are left as they are.
    pub final_observation: Option<&'a mut [f32]>,
}

/// What every env shares: the game, the seeds and the sizes.
#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) kind: GameKind,
    pub(crate) options: Options,
    pub(crate) seed: u64,
    pub(crate) max_moves: Option<u32>,
    pub(crate) opponent: Option<Opponent>,
    pub(crate) shape: [usize; 3],
    pub(crate) plane_len: usize,
    pub(crate) actions: usize,
}

/// One env: its game, the legal ids of its position, and where it stands in its episodes.
#[derive(Clone, Debug)]
pub(crate) struct Slot {
    pub(crate) game: AnyGame,
    pub(crate) legal: Vec<u32>,
    index: usize,
    moves: u32,
    episode: u64,
    agent: Option<Seat>,
    samples: SmallRng,
}

/// One env's rows of the [`Outputs`].
struct Row<'a> {
    observation: &'a mut [f32],
    mask: &'a mut [bool],
    player: &'a mut i32,
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    final_observation: Option<&'a mut [f32]>,
}

/// The encoding of a game that [`VecEnv::new`] checked has one.
pub(crate) fn encoding(game: &AnyGame) -> &dyn DynEncoding {
    game.encoding()
        .unwrap_or_else(|| unreachable!("VecEnv::new refuses games without an encoding"))
}

fn encoding_mut(game: &mut AnyGame) -> &mut dyn DynEncoding {
    game.encoding_mut()
        .unwrap_or_else(|| unreachable!("VecEnv::new refuses games without an encoding"))
}

/// Each seat's reward for a finished game.
pub(crate) fn rewards_of(outcome: &Outcome) -> [f32; 2] {
    match *outcome {
        Outcome::Win {
            seat: Seat::First, ..
        } => [1.0, -1.0],
        Outcome::Win { .. } => [-1.0, 1.0],
        Outcome::Draw { .. } | Outcome::Puzzle { .. } => [0.0, 0.0],
    }
}

impl Slot {
    fn new(sh: &Shared, index: usize) -> Result<Slot, VecError> {
        let game =
            AnyGame::new(sh.kind, &sh.options, 0).map_err(|e| VecError::Config(e.to_string()))?;
        let mut slot = Slot {
            game,
            legal: Vec::new(),
            index,
            moves: 0,
            episode: 0,
            agent: sh.opponent.as_ref().map(|o| o.seats.of(index)),
            samples: SmallRng::seed_from_u64(0),
        };
        slot.restart(sh, 0)?;
        Ok(slot)
    }

    fn seed(&self, sh: &Shared, stream: u64) -> u64 {
        seeds::derive(sh.seed, stream, self.index as u64, self.episode)
    }

    fn cut_off(&self, sh: &Shared) -> bool {
        sh.max_moves.is_some_and(|m| self.moves >= m)
    }

    /// Starts episode `episode` (or the next one whose game the agent gets to move in).
    fn restart(&mut self, sh: &Shared, episode: u64) -> Result<(), VecError> {
        self.episode = episode;
        if episode == 0 {
            self.samples = SmallRng::seed_from_u64(self.seed(sh, seeds::SAMPLES));
        }
        for _ in 0..MAX_RESTARTS {
            self.game = AnyGame::new(sh.kind, &sh.options, self.seed(sh, seeds::GAMES))
                .map_err(|e| VecError::Config(e.to_string()))?;
            self.moves = 0;
            self.bot_moves(sh)?;
            if self.game.outcome().is_none() && !self.cut_off(sh) {
                encoding(&self.game).legal_actions_into(&mut self.legal);
                return Ok(());
            }
            self.episode += 1;
        }
        Err(VecError::Config(format!(
            "{MAX_RESTARTS} new games in a row ended before the agent could move"
        )))
    }

    /// The bot's moves, until the agent is to move or the game ends or is cut off.
    fn bot_moves(&mut self, sh: &Shared) -> Result<(), VecError> {
        let (Some(opponent), Some(agent)) = (&sh.opponent, self.agent) else {
            return Ok(());
        };
        while self.game.outcome().is_none() && self.game.to_move() != agent && !self.cut_off(sh) {
            let seed = seeds::mix(self.seed(sh, seeds::BOT) ^ u64::from(self.moves));
            let bot_error = |message: String| VecError::Bot {
                index: self.index,
                message,
            };
            let text = boardlab_ai::choose_move(&*self.game, &opponent.bot, seed)
                .map_err(|e| bot_error(e.to_string()))?;
            self.game
                .play_text(&text)
                .map_err(|e| bot_error(e.to_string()))?;
            self.moves += 1;
        }
        Ok(())
    }

    /// Plays `action` (checked to be legal), the bot's answer, and starts the next game if
    /// this one ended; writes the env's rows.
    fn advance(
        &mut self,
        sh: &Shared,
        action: u32,
        row: Row<'_>,
        current: bool,
    ) -> Result<(), VecError> {
        self.clear_mask(row.mask, current);
        if !encoding_mut(&mut self.game).play_listed_action(action) {
            return Err(VecError::Action {
                index: self.index,
                message: format!("action {action} names no move here"),
            });
        }
        self.moves += 1;
        self.bot_moves(sh)?;
        let outcome = self.game.outcome();
        let rewards = outcome.as_ref().map_or([0.0; 2], rewards_of);
        row.rewards.copy_from_slice(&rewards);
        *row.terminated = outcome.is_some();
        *row.truncated = outcome.is_none() && self.cut_off(sh);
        if *row.terminated || *row.truncated {
            if let Some(last) = row.final_observation {
                encoding(&self.game).write_planes(self.view(), last);
            }
            self.restart(sh, self.episode + 1)?;
        } else {
            encoding(&self.game).legal_actions_into(&mut self.legal);
        }
        self.write(row.observation, row.mask, row.player);
        Ok(())
    }

    fn clear_mask(&self, mask: &mut [bool], current: bool) {
        if current {
            for &id in &self.legal {
                mask[id as usize] = false;
            }
        } else {
            mask.fill(false);
        }
    }

    /// The seat the planes are seen from.
    fn view(&self) -> Seat {
        self.agent.unwrap_or_else(|| self.game.to_move())
    }

    fn write(&self, observation: &mut [f32], mask: &mut [bool], player: &mut i32) {
        for &id in &self.legal {
            mask[id as usize] = true;
        }
        encoding(&self.game).write_planes(self.view(), observation);
        *player = i32::from(self.game.to_move() == Seat::Second);
    }
}

/// Many games of one kind, stepped together. See the [crate documentation](crate).
#[derive(Debug)]
pub struct VecEnv {
    pub(crate) shared: Shared,
    pub(crate) slots: Vec<Slot>,
    pub(crate) pool: Option<rayon::ThreadPool>,
}

impl VecEnv {
    /// Makes `config.num_envs` games, each at the start of its first episode (call
    /// [`VecEnv::reset`] to write the arrays).
    ///
    /// # Errors
    /// Bad options, a game without action ids or with too many, a solitaire puzzle, sizes out
    /// of range, or a bot that cannot play the game.
    pub fn new(config: Config) -> Result<VecEnv, VecError> {
        let Config {
            kind,
            options,
            num_envs,
            seed,
            threads,
            max_moves,
            opponent,
        } = config;
        if !(1..=MAX_ENVS).contains(&num_envs) {
            return Err(VecError::Config(format!(
                "num_envs must be between 1 and {MAX_ENVS}, not {num_envs}"
            )));
        }
        if !(1..=256).contains(&threads) {
            return Err(VecError::Config(format!(
                "threads must be between 1 and 256, not {threads}"
            )));
        }
        if max_moves == Some(0) {
            return Err(VecError::Config("max_moves must be at least 1".into()));
        }
        let probe =
            AnyGame::new(kind, &options, seed).map_err(|e| VecError::Config(e.to_string()))?;
        let Some(enc) = probe.encoding() else {
            return Err(VecError::Config(format!(
                "{kind} defines no action ids or planes, which the environments need"
            )));
        };
        if probe.is_solitaire() {
            return Err(VecError::Config(
                "mode=solitaire is a one-person puzzle, not a game between two seats".into(),
            ));
        }
        if enc.action_count() > MAX_ACTIONS {
            return Err(VecError::Config(format!(
                "{kind} with these options has {} action ids, too many for dense masks (at \
                 most {MAX_ACTIONS})",
                enc.action_count()
            )));
        }
        if let Some(o) = &opponent {
            if probe.outcome().is_none() {
                boardlab_ai::choose_move(&*probe, &o.bot, 0)
                    .map_err(|e| VecError::Config(format!("bot {}: {e}", o.bot)))?;
            }
        }
        let shape = enc.planes_shape();
        let shared = Shared {
            kind,
            options,
            seed,
            max_moves,
            opponent,
            shape,
            plane_len: shape.iter().product(),
            actions: enc.action_count() as usize,
        };
        let pool = (threads > 1)
            .then(|| rayon::ThreadPoolBuilder::new().num_threads(threads).build())
            .transpose()
            .map_err(|e| VecError::Config(format!("cannot start {threads} threads: {e}")))?;
        let mut env = VecEnv {
            shared,
            slots: Vec::new(),
            pool,
        };
        let sh = &env.shared;
        let made: Result<Vec<Slot>, VecError> = env.run_indexed(num_envs, |i| Slot::new(sh, i));
        env.slots = made?;
        Ok(env)
    }

    /// The number of envs.
    #[must_use]
    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// The number of action ids (the width of a mask row).
    #[must_use]
    pub fn action_count(&self) -> usize {
        self.shared.actions
    }

    /// The shape of one env's planes: `[channels, height, width]`.
    #[must_use]
    pub fn planes_shape(&self) -> [usize; 3] {
        self.shared.shape
    }

    /// The base seed in force (the last one given to [`VecEnv::reset`], else the config's).
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.shared.seed
    }

    /// Env `index`'s game now.
    #[must_use]
    pub fn game(&self, index: usize) -> Option<&AnyGame> {
        self.slots.get(index).map(|s| &s.game)
    }

    /// The legal ids of env `index`'s position, in the game's move order.
    #[must_use]
    pub fn legal(&self, index: usize) -> Option<&[u32]> {
        self.slots.get(index).map(|s| s.legal.as_slice())
    }

    /// The agent's seat in each env against an [`Opponent`]; `None` without one.
    #[must_use]
    pub fn agent_seats(&self) -> Option<Vec<Seat>> {
        self.shared
            .opponent
            .as_ref()
            .map(|o| (0..self.num_envs()).map(|i| o.seats.of(i)).collect())
    }

    /// Starts every env's first episode again, under `seed` if given (else the seed in force),
    /// and writes the arrays (rewards 0, no game ended).
    ///
    /// # Errors
    /// Arrays of the wrong length (nothing changes), or a bot that fails (see [`VecError`]).
    pub fn reset(&mut self, seed: Option<u64>, out: Outputs<'_>) -> Result<(), VecError> {
        self.check(&out)?;
        if let Some(seed) = seed {
            self.shared.seed = seed;
        }
        let rows = self.rows(out);
        let sh = &self.shared;
        let work = |slot: &mut Slot, row: Row<'_>| -> Result<(), VecError> {
            slot.restart(sh, 0)?;
            row.mask.fill(false);
            row.rewards.fill(0.0);
            *row.terminated = false;
            *row.truncated = false;
            slot.write(row.observation, row.mask, row.player);
            Ok(())
        };
        run_rows(self.pool.as_ref(), &mut self.slots, rows, &work)
    }

    /// Plays `actions[i]` in env `i`, for every env, then the bot's answers; a game that ends
    /// is replaced by the env's next game in the same step. Writes the arrays.
    ///
    /// # Errors
    /// An action that is not legal in its env, or arrays of the wrong length: then nothing
    /// changes. A bot that fails: see [`VecError::Bot`].
    pub fn step(&mut self, actions: &[i64], out: Outputs<'_>) -> Result<(), VecError> {
        self.check(&out)?;
        if actions.len() != self.num_envs() {
            return Err(VecError::Shape(format!(
                "{} actions for {} envs",
                actions.len(),
                self.num_envs()
            )));
        }
        for (slot, &action) in self.slots.iter().zip(actions) {
            check_action(slot, action, self.shared.actions)?;
        }
        let current = out.mask_is_current;
        let rows = self.rows(out);
        let sh = &self.shared;
        let work = |slot: &mut Slot, row: Row<'_>| {
            let action = actions[slot.index] as u32;
            slot.advance(sh, action, row, current)
        };
        run_rows(self.pool.as_ref(), &mut self.slots, rows, &work)
    }

    /// A uniformly random legal action for every env, from each env's own seeded stream.
    ///
    /// # Errors
    /// `out` of the wrong length.
    pub fn sample_actions(&mut self, out: &mut [i64]) -> Result<(), VecError> {
        if out.len() != self.num_envs() {
            return Err(VecError::Shape(format!(
                "room for {} actions, not {}",
                out.len(),
                self.num_envs()
            )));
        }
        for (slot, a) in self.slots.iter_mut().zip(out) {
            let k = slot.samples.random_range(0..slot.legal.len());
            *a = i64::from(slot.legal[k]);
        }
        Ok(())
    }

    fn check(&self, out: &Outputs<'_>) -> Result<(), VecError> {
        let n = self.num_envs();
        let sh = &self.shared;
        let lengths = [
            ("observation", out.observation.len(), n * sh.plane_len),
            ("action_mask", out.action_mask.len(), n * sh.actions),
            ("current_player", out.current_player.len(), n),
            ("rewards", out.rewards.len(), n * 2),
            ("terminated", out.terminated.len(), n),
            ("truncated", out.truncated.len(), n),
            (
                "final_observation",
                out.final_observation
                    .as_ref()
                    .map_or(n * sh.plane_len, |f| f.len()),
                n * sh.plane_len,
            ),
        ];
        for (name, got, want) in lengths {
            if got != want {
                return Err(VecError::Shape(format!(
                    "{name} holds {got} values; {n} envs need {want}"
                )));
            }
        }
        Ok(())
    }

    /// Splits the outputs into one [`Row`] per env.
    fn rows<'a>(&self, out: Outputs<'a>) -> Vec<Row<'a>> {
        let (pl, a) = (self.shared.plane_len, self.shared.actions);
        let mut finals: Box<dyn Iterator<Item = Option<&'a mut [f32]>>> =
            match out.final_observation {
                Some(f) => Box::new(f.chunks_exact_mut(pl).map(Some)),
                None => Box::new(std::iter::repeat_with(|| None)),
            };
        out.observation
            .chunks_exact_mut(pl)
            .zip(out.action_mask.chunks_exact_mut(a))
            .zip(out.current_player.iter_mut())
            .zip(out.rewards.chunks_exact_mut(2))
            .zip(out.terminated.iter_mut().zip(out.truncated.iter_mut()))
            .map(
                |((((observation, mask), player), rewards), (terminated, truncated))| Row {
                    observation,
                    mask,
                    player,
                    rewards,
                    terminated,
                    truncated,
                    final_observation: finals.next().flatten(),
                },
            )
            .collect()
    }

    /// `make(i)` for `i` in `0..n`, on the pool if there is one.
    pub(crate) fn run_indexed<T: Send>(
        &self,
        n: usize,
        make: impl Fn(usize) -> Result<T, VecError> + Sync,
    ) -> Result<Vec<T>, VecError> {
        match &self.pool {
            Some(pool) => pool.install(|| (0..n).into_par_iter().map(&make).collect()),
            None => (0..n).map(make).collect(),
        }
    }
}

/// Checks that `action` is one of `slot`'s legal ids; the error says why not.
fn check_action(slot: &Slot, action: i64, count: usize) -> Result<(), VecError> {
    let listed = u32::try_from(action)
        .ok()
        .filter(|id| slot.legal.contains(id));
    if listed.is_some() {
        return Ok(());
    }
    let message = match u32::try_from(action) {
        Ok(id) if (id as usize) < count => encoding(&slot.game)
            .move_of_action(id)
            .err()
            .unwrap_or_else(|| format!("action {id} is not legal here")),
        _ => format!("action {action} is out of range: the ids are 0..{count}"),
    };
    Err(VecError::Action {
        index: slot.index,
        message,
    })
}

/// Runs `work` on every env and its row, on the pool if there is one; the first error wins.
fn run_rows(
    pool: Option<&rayon::ThreadPool>,
    slots: &mut [Slot],
    rows: Vec<Row<'_>>,
    work: &(dyn Fn(&mut Slot, Row<'_>) -> Result<(), VecError> + Sync),
) -> Result<(), VecError> {
    match pool {
        Some(pool) => pool.install(|| {
            slots
                .par_iter_mut()
                .zip(rows.into_par_iter())
                .with_min_len(16)
                .try_for_each(|(slot, row)| work(slot, row))
        }),
        None => slots
            .iter_mut()
            .zip(rows)
            .try_for_each(|(slot, row)| work(slot, row)),
    }
}
