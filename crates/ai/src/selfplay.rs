//! Playing one game of a designer report (`boardlab_report`): a self-play game, or a game of the skill trace between the
//! bot and itself at half the budget.

use crate::arena::mix;
use crate::spec::BotSpec;
use crate::{new_bot, resolve_type, AiError, Capabilities};
use boardlab_core::rand::{rngs::SmallRng, SeedableRng};
use boardlab_core::{Options, Seat};
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use web_time::Instant;

/// One game of a report, identified so that any machine plays the same game for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Job {
    /// Self-play game `n`.
    SelfPlay(u32),
    /// Game `n` of skill step `step`: the bot at its budget halved `step` times against
    /// itself halved once more.
    Skill(u32, u32),
}

/// What a report's games share: the game options, the bot, the seeds and the limits.
#[derive(Clone, Debug)]
pub struct Setting {
    pub options: Options,
    pub bot: BotSpec,
    pub seed: u64,
    pub max_plies: u32,
    pub opening_plies: u32,
}

/// A played game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub job: Job,
    /// The set-up seed.
    pub setup_seed: u64,
    /// The moves, in the game's notation.
    pub moves: Vec<String>,
    /// The number of legal moves before each move.
    pub branching: Vec<u32>,
    /// After each move chosen by a bot, the first seat's expected score by that bot's search
    /// (the random opening moves have none).
    pub values: Vec<f64>,
    /// The first seat's score (1, ½ or 0), or `None` when the game reached the ply cap.
    pub first_score: Option<f64>,
    /// The first seat played the other colour at the end than at the start (a swap).
    pub swapped: bool,
    /// For skill games: whether the stronger bot (the larger budget) had the first seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stronger_first: Option<bool>,
    /// Thinking time of the whole game, in milliseconds.
    pub ms: u64,
}

/// The spec with its work budget divided by `2^halvings`: iterations, nodes and time halved,
/// a depth lowered by one per halving (to at least 1).
///
/// # Errors
/// A bot with no budget to halve (random, outside engines, or a spec with no budget).
pub fn halved(spec: &BotSpec, halvings: u32) -> Result<BotSpec, String> {
    if halvings == 0 {
        return Ok(spec.clone());
    }
    let div = 1u64 << halvings.min(40);
    let time = |t: Option<std::time::Duration>| t.map(|t| t / div.min(u64::from(u32::MAX)) as u32);
    let none = || format!("'{spec}' has no work budget to halve for the skill trace");
    match spec {
        BotSpec::Mcts(m) => {
            if m.iterations.is_none() && m.time.is_none() {
                return Err(none());
            }
            let mut m = *m;
            m.iterations = m.iterations.map(|n| (n / div).max(1));
            m.time = time(m.time);
            Ok(BotSpec::Mcts(m))
        }
        BotSpec::AlphaBeta(a) => {
            if a.depth.is_none() && a.nodes.is_none() && a.time.is_none() {
                return Err(none());
            }
            let mut a = *a;
            a.nodes = a.nodes.map(|n| (n / div).max(1));
            a.depth = a.depth.map(|d| d.saturating_sub(halvings).max(1));
            a.time = time(a.time);
            Ok(BotSpec::AlphaBeta(a))
        }
        _ => Err(none()),
    }
}

/// Plays `job`: set-up from the job's seed, `opening_plies` random moves, then the bots.
///
/// # Errors
/// Options the game refuses, a bot it cannot have, or a failing outside engine.
pub fn play<G: Capabilities>(setting: &Setting, job: Job) -> Result<Trace, AiError> {
    let (n, role) = match job {
        Job::SelfPlay(n) => (n, 0),
        Job::Skill(step, n) => (n, 1 + u64::from(step)),
    };
    let setup_seed = mix(setting.seed, u64::from(n), 10 + role);
    let mut game = G::new(&setting.options, setup_seed)
        .map_err(|e| AiError::Unsupported(format!("these options: {e}")))?;
    let base = resolve_type::<G>(&setting.bot)?;
    // Seat i's bot; in skill games the stronger bot takes the first seat in even games.
    let stronger_first = match job {
        Job::SelfPlay(_) => None,
        Job::Skill(..) => Some(n % 2 == 0),
    };
    let specs: [BotSpec; 2] = match job {
        Job::SelfPlay(_) => [base.clone(), base.clone()],
        Job::Skill(step, _) => {
            let strong = halved(&base, step).map_err(AiError::Unsupported)?;
            let weak = halved(&base, step + 1).map_err(AiError::Unsupported)?;
            if n % 2 == 0 {
                [strong, weak]
            } else {
                [weak, strong]
            }
        }
    };
    let bot_seed = |i: u64| mix(setting.seed, u64::from(n), 100 * role + i);
    let mut bots = [
        new_bot::<G>(&specs[0], bot_seed(0))?,
        new_bot::<G>(&specs[1], bot_seed(1))?,
    ];
    let start_colour = game.colour_of(Seat::First);
    let mut rng = SmallRng::seed_from_u64(mix(setting.seed, u64::from(n), 20 + role));
    let mut trace = Trace {
        job,
        setup_seed,
        moves: Vec::new(),
        branching: Vec::new(),
        values: Vec::new(),
        first_score: None,
        swapped: false,
        stronger_first,
        ms: 0,
    };
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let mut legal = Vec::new();
    while game.outcome().is_none() && (trace.moves.len() as u32) < setting.max_plies {
        legal.clear();
        game.legal_moves(&mut legal);
        trace.branching.push(legal.len() as u32);
        let mv = if (trace.moves.len() as u32) < setting.opening_plies {
            legal[rand_index(&mut rng, legal.len())]
        } else {
            let seat = game.to_move();
            let found = bots[seat.index()].try_search(&game, &stop)?;
            trace.values.push(found.value.for_seat(Seat::First).score);
            found.best
        };
        trace.moves.push(game.format_move(mv));
        game.play_unchecked(mv);
    }
    trace.ms = started.elapsed().as_millis() as u64;
    trace.first_score = game.outcome().map(|o| crate::search::outcome_scores(&o)[0]);
    trace.swapped = game.colour_of(Seat::First) != start_colour;
    Ok(trace)
}

fn rand_index(rng: &mut SmallRng, n: usize) -> usize {
    use boardlab_core::rand::Rng;
    rng.random_range(0..n)
}
