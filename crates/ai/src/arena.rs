//! Matches between two bots.
//!
//! Games come in pairs: both games of a pair start from the same set-up (the set-up seed is
//! `seed + pair`), bot A takes the first seat in the first game of the pair and the second
//! seat in the other, so a set-up that favours one seat favours both bots equally. Games run
//! on several threads at once; each game gets fresh bots seeded from the arena seed and the
//! game number, so an arena with work budgets (iterations, nodes, depth) gives the same
//! results for the same seed whatever the thread count. An optional random opening (the
//! same for both games of a pair) varies the games of bots that always choose the same move.
//!
//! A bot that fails to move (an outside engine that stops, answers too late or answers an
//! illegal move) loses that game by forfeit; the result says why.

use crate::ugi::UgiBot;
use crate::{new_bot, AiError, BotSpec, Capabilities};
use boardlab_core::{Game, GameRecord, Options, Outcome, Seat};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Duration;
use web_time::Instant;

/// How to run an arena.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// The two bots; results are counted from A's (the first) point of view.
    pub bots: [BotSpec; 2],
    /// Number of games (an odd number leaves the last pair incomplete).
    pub games: u32,
    /// Games played at the same time.
    pub threads: usize,
    /// Seeds the set-ups and the bots.
    pub seed: u64,
    /// The game options.
    pub options: Options,
    /// Start every game from this position text instead of the set-up.
    pub position: Option<String>,
    /// Moves played before the bots take over.
    pub moves: Vec<String>,
    /// Random moves played after `moves` and before the bots take over, the same in both
    /// games of a pair, so that bots that always choose the same move (alpha-beta with a
    /// depth or node budget) still meet in many different games.
    pub opening_plies: u32,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// Game number, from 0.
    pub index: u32,
    /// The seat bot A played.
    pub a_seat: Seat,
    /// How it ended.
    pub outcome: Outcome,
    /// A's score: 1, ½ or 0.
    pub a_score: f64,
    /// Moves played by the bots.
    pub plies: u32,
    /// Thinking time of A and B, and their moves.
    pub time: [Duration; 2],
    pub moves: [u32; 2],
    /// The whole game, for saving.
    pub record: GameRecord,
    /// Set when a bot failed to move and lost by forfeit: which bot (0 for A, 1 for B) and
    /// why.
    pub forfeit: Option<(usize, String)>,
}

/// Results from A's point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchSummary {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// A's (wins, draws, losses) in the first seat and in the second seat.
    pub by_seat: [[u32; 3]; 2],
    pub plies: u64,
    pub time: [Duration; 2],
    pub moves: [u64; 2],
    /// Sum of squared scores, for the variance.
    score_sq: f64,
}

/// The Elo difference that gives an expected score `s` (0..1), infinite at 0 and 1.
fn elo_of(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

impl MatchSummary {
    /// Adds one game.
    pub fn add(&mut self, r: &MatchGame) {
        self.games += 1;
        let seat = r.a_seat.index();
        let k = if r.a_score > 0.75 {
            self.wins += 1;
            0
        } else if r.a_score < 0.25 {
            self.losses += 1;
            2
        } else {
            self.draws += 1;
            1
        };
        self.by_seat[seat][k] += 1;
        self.plies += u64::from(r.plies);
        for i in 0..2 {
            self.time[i] += r.time[i];
            self.moves[i] += u64::from(r.moves[i]);
        }
        self.score_sq += r.a_score * r.a_score;
    }

    /// A's mean score, 0..1.
    #[must_use]
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games)
    }

    /// Half the width of the 95% confidence interval of the score.
    #[must_use]
    pub fn score_margin(&self) -> f64 {
        if self.games < 2 {
            return 0.5;
        }
        let n = f64::from(self.games);
        let mean = self.score();
        let var = (self.score_sq / n - mean * mean).max(0.0) * n / (n - 1.0);
        1.96 * (var / n).sqrt()
    }

    /// The Elo difference of A over B and the half width of its 95% interval (infinite when
    /// the interval of the score reaches 0% or 100%; see [`MatchSummary::elo_interval`]).
    #[must_use]
    pub fn elo(&self) -> (f64, f64) {
        let (lo, hi) = self.elo_interval();
        (elo_of(self.score()), ((hi - lo) / 2.0).abs())
    }

    /// The ends of the 95% interval of the Elo difference: the Elo differences of the ends of
    /// the score's interval, so infinite where that reaches 0% or 100%.
    #[must_use]
    pub fn elo_interval(&self) -> (f64, f64) {
        let (s, m) = (self.score(), self.score_margin());
        (elo_of((s - m).max(0.0)), elo_of((s + m).min(1.0)))
    }

    /// Average thinking time per move of A and B.
    #[must_use]
    pub fn time_per_move(&self) -> [f64; 2] {
        [0, 1].map(|i| self.time[i].as_secs_f64() / self.moves[i].max(1) as f64)
    }

    /// "W-D-L" for a seat of A (0 first, 1 second).
    #[must_use]
    pub fn seat_line(&self, seat: usize) -> String {
        let [w, d, l] = self.by_seat[seat];
        format!("{w}-{d}-{l}")
    }
}

/// Mixes the arena seed with a game number and a role into a bot or set-up seed.
#[must_use]
pub fn mix(seed: u64, a: u64, b: u64) -> u64 {
    let mut x =
        seed ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    x ^= x >> 31;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^ (x >> 29)
}

/// Plays game `index` of the arena.
///
/// # Errors
/// A game without bot support, or set-up options, position or moves the game refuses.
pub fn play_game<G: Capabilities>(
    cfg: &ArenaConfig,
    index: u32,
    stop: &AtomicBool,
) -> Result<Option<MatchGame>, AiError> {
    let pair = u64::from(index / 2);
    let a_seat = if index % 2 == 0 {
        Seat::First
    } else {
        Seat::Second
    };
    let setup_seed = cfg.seed.wrapping_add(pair);
    let set_up = |e: String| AiError::Unsupported(format!("this arena set-up: {e}"));
    let first: G = boardlab_core::setup(&cfg.options, setup_seed, cfg.position.as_deref(), &[])
        .map_err(|e| set_up(e.to_string()))?;
    let mut record = GameRecord::new(&first, setup_seed, cfg.position.clone());
    // The whole line from the first position, for bots that are told it (outside engines).
    let mut line = Vec::new();
    let mut start = first.clone();
    for (i, text) in cfg.moves.iter().enumerate() {
        let mv = start
            .play_text(text)
            .map_err(|e| set_up(format!("move {}: {e}", i + 1)))?;
        line.push(mv);
        record.moves.push(start_format(&first, &line));
    }
    for mv in random_opening(&mut start, cfg.opening_plies, mix(cfg.seed, pair, 3)) {
        line.push(mv);
        record.moves.push(start_format(&first, &line));
    }
    let seat_spec = |seat: Seat| if seat == a_seat { 0 } else { 1 };
    record.seats.first = cfg.bots[seat_spec(Seat::First)].to_string();
    record.seats.second = cfg.bots[seat_spec(Seat::Second)].to_string();
    let mut bots = [
        new_bot::<G>(&cfg.bots[0], mix(cfg.seed, u64::from(index), 1))?,
        new_bot::<G>(&cfg.bots[1], mix(cfg.seed, u64::from(index), 2))?,
    ];
    let mut game = start;
    let mut time = [Duration::ZERO; 2];
    let mut moves = [0u32; 2];
    let mut plies = 0;
    let mut forfeit = None;
    while game.outcome().is_none() {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let who = seat_spec(game.to_move());
        let t = Instant::now();
        bots[who].follow(&first, &line);
        let r = match bots[who].try_search(&game, stop) {
            Ok(r) => r,
            Err(_) if stop.load(Ordering::Relaxed) => return Ok(None),
            Err(e) => {
                forfeit = Some((who, e.to_string()));
                break;
            }
        };
        time[who] += t.elapsed();
        moves[who] += 1;
        record.moves.push(game.format_move(r.best));
        game.play(r.best)
            .unwrap_or_else(|e| panic!("bot {} chose an illegal move: {e}", cfg.bots[who]));
        line.push(r.best);
        plies += 1;
    }
    let outcome = match game.outcome() {
        Some(o) => o,
        None => {
            let winner = game.to_move().other();
            record.termination = Some("forfeit".into());
            Outcome::Win {
                seat: winner,
                colour: game
                    .colour_of(winner)
                    .unwrap_or(G::info().colours[winner.index()]),
                reason: "the other side failed to move",
            }
        }
    };
    record.set_outcome(Some(outcome));
    Ok(Some(MatchGame {
        index,
        a_seat,
        outcome,
        a_score: outcome.for_seat(a_seat).score(),
        plies,
        time,
        moves,
        record,
        forfeit,
    }))
}

/// The canonical notation of the last move of `line`, played from `first`.
fn start_format<G: Game>(first: &G, line: &[G::Move]) -> String {
    let (last, before) = line.split_last().expect("a move was just added");
    let mut g = first.clone();
    for &m in before {
        g.play_unchecked(m);
    }
    g.format_move(*last)
}

/// Plays up to `plies` uniformly random moves on `game`, never one that ends the game (the
/// bots decide every result), and returns them. Stops early when every move would end the
/// game.
fn random_opening<G: Game>(game: &mut G, plies: u32, seed: u64) -> Vec<G::Move> {
    use boardlab_core::rand::Rng;
    let mut rng = boardlab_core::rng(seed);
    let mut moves = Vec::new();
    let mut played = Vec::new();
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        game.legal_moves(&mut moves);
        let mut choice = None;
        while !moves.is_empty() {
            let m = moves.swap_remove(rng.random_range(0..moves.len()));
            let mut next = game.clone();
            next.play_unchecked(m);
            if next.outcome().is_none() {
                choice = Some((m, next));
                break;
            }
        }
        let Some((m, next)) = choice else { break };
        played.push(m);
        *game = next;
    }
    played
}

/// Plays the whole arena on `cfg.threads` threads. `on_game` is called after every game (from
/// the thread that played it) with the game and the running summary. Setting `stop` ends the
/// arena after the games in progress are abandoned; the summary covers the finished games.
///
/// # Errors
/// A game without bot support, or a set-up the game refuses.
pub fn run<G: Capabilities>(
    cfg: &ArenaConfig,
    stop: &AtomicBool,
    on_game: &(dyn Fn(&MatchGame, &MatchSummary) + Sync),
) -> Result<MatchSummary, AiError> {
    // Fail early, on this thread, for bad specs or set-ups, and for outside engines that
    // cannot be started or do not offer the game.
    for spec in &cfg.bots {
        new_bot::<G>(spec, 0)?;
        if let BotSpec::Ugi(u) = spec {
            UgiBot::<G>::new(u.clone()).prepare(&cfg.options)?;
        }
    }
    let next = AtomicU32::new(0);
    let summary = Mutex::new(MatchSummary::default());
    let error: Mutex<Option<AiError>> = Mutex::new(None);
    let worker = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= cfg.games || stop.load(Ordering::Relaxed) {
            break;
        }
        match play_game::<G>(cfg, i, stop) {
            Ok(Some(r)) => {
                let mut s = summary.lock().expect("no thread panics holding the lock");
                s.add(&r);
                on_game(&r, &s);
            }
            Ok(None) => break,
            Err(e) => {
                *error.lock().expect("no thread panics holding the lock") = Some(e);
                stop.store(true, Ordering::Relaxed);
                break;
            }
        }
    };
    let threads = cfg.threads.clamp(1, cfg.games.max(1) as usize);
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(worker);
        }
        worker();
    });
    if let Some(e) = error.into_inner().expect("no thread panicked") {
        return Err(e);
    }
    Ok(summary.into_inner().expect("no thread panicked"))
}
