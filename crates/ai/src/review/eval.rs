//! Evaluating the positions of a review: exactly where the game's solver judges them, else by
//! the review's bot, on one thread or several.

use super::{Progress, ReviewError};
use crate::capabilities::{new_bot, Capabilities};
use crate::knowledge::{ExactJudgement, Judge, EXACT_PV};
use crate::search::Value;
use crate::BotSpec;
use boardlab_core::{Budget, Game, Outcome, Proven, Seat, Wdl};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// What one position is worth and how to play it.
#[derive(Clone, Debug)]
pub(super) struct PositionEval {
    /// For the seat to move.
    pub(super) value: Value,
    /// The best move (none in a finished game).
    pub(super) best: Option<String>,
    pub(super) pv: Vec<String>,
    /// From an exact match search: every legal move with its value for the seat to move.
    pub(super) moves: Option<Vec<(String, Proven)>>,
    /// Solitaire: decided by the solitaire solver (undecided positions have no verdict).
    pub(super) solitaire: bool,
    pub(super) nodes: u64,
}

impl PositionEval {
    /// A finished game: its result for the seat that would move next.
    fn finished(outcome: &Outcome, seat: Seat) -> PositionEval {
        let result = outcome.for_seat(seat);
        let proven = match result {
            Wdl::Draw => Proven::draw(seat),
            r => Proven {
                seat,
                result: r,
                plies: Some(0),
            },
        };
        PositionEval {
            value: Value::proven(proven),
            best: None,
            pv: Vec::new(),
            moves: None,
            solitaire: matches!(outcome, Outcome::Puzzle { .. }),
            nodes: 0,
        }
    }
}

/// The seed of the bot of position `i`.
fn seed_for(seed: u64, i: usize) -> u64 {
    boardlab_core::zobrist::splitmix64(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)).1
}

impl PositionEval {
    /// A position as the game's solver judged it.
    fn judged<G: Game>(game: &G, judgement: ExactJudgement<G::Move>) -> PositionEval {
        let seat = game.to_move();
        let (value, line, moves, solitaire, nodes) = match judgement {
            ExactJudgement::Moves {
                values,
                best,
                line,
                nodes,
            } => {
                let texts = values
                    .iter()
                    .map(|&(m, v)| (game.format_move(m), v))
                    .collect();
                (
                    Value::proven(values[best].1),
                    line,
                    Some(texts),
                    false,
                    nodes,
                )
            }
            ExactJudgement::Solitaire { value, line, nodes } => {
                let value = value.map_or_else(|| Value::estimate(seat, 0.5), Value::proven);
                (value, line, None, true, nodes)
            }
        };
        let pv = line_text(game, &line);
        PositionEval {
            value,
            best: pv.first().cloned(),
            pv,
            moves,
            solitaire,
            nodes,
        }
    }
}

/// `line`, played from `game`, in notation (up to the end of the game).
pub(crate) fn line_text<G: Game>(game: &G, line: &[G::Move]) -> Vec<String> {
    let mut g = game.clone();
    let mut pv = Vec::with_capacity(line.len());
    for &m in line {
        if g.outcome().is_some() {
            break;
        }
        pv.push(g.format_move(m));
        g.play_unchecked(m);
    }
    pv
}

/// Evaluates positions, one at a time, for one thread: exactly where the game's solver
/// judges them, else by the review's bot.
struct Evaluator<G: Capabilities> {
    spec: BotSpec,
    seed: u64,
    judge: Option<Judge<G>>,
}

impl<G: Capabilities> Evaluator<G> {
    fn new(spec: BotSpec, seed: u64) -> Evaluator<G> {
        Evaluator {
            spec,
            seed,
            judge: G::bots().map(|b| b.endgame()),
        }
    }

    fn eval(&mut self, game: &G, i: usize, stop: &AtomicBool) -> PositionEval {
        if let Some(o) = game.outcome() {
            return PositionEval::finished(&o, game.to_move());
        }
        if let Some(judge) = &mut self.judge {
            if let Some(j) = judge(game, Budget::UNLIMITED.stopped_by(stop), EXACT_PV) {
                return PositionEval::judged(game, j);
            }
        }
        let mut bot = new_bot::<G>(&self.spec, seed_for(self.seed, i))
            .expect("the bot was made once before the review started");
        let r = bot.search(game, stop);
        PositionEval {
            value: r.value.for_seat(game.to_move()),
            best: Some(game.format_move(r.best)),
            pv: line_text(game, &r.pv),
            moves: None,
            solitaire: false,
            nodes: r.nodes,
        }
    }
}

/// Evaluates every position, `threads` at a time, reporting each as it is done.
pub(super) fn evaluate_all<G: Capabilities>(
    positions: &[G],
    spec: BotSpec,
    seed: u64,
    threads: usize,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<PositionEval>, ReviewError> {
    let total = positions.len();
    if threads <= 1 {
        // On the caller's thread: no thread of its own (a review may itself run on a pool).
        let mut ev = Evaluator::<G>::new(spec, seed);
        let mut out = Vec::with_capacity(total);
        for (i, g) in positions.iter().enumerate() {
            if stop.load(Ordering::Relaxed) {
                return Err(ReviewError::Stopped);
            }
            out.push(ev.eval(g, i, stop));
            progress(Progress { done: i + 1, total });
        }
        if stop.load(Ordering::Relaxed) {
            return Err(ReviewError::Stopped);
        }
        return Ok(out);
    }
    let next = AtomicUsize::new(0);
    let mut out: Vec<Option<PositionEval>> = vec![None; total];
    let (tx, rx) = mpsc::channel::<(usize, PositionEval)>();
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, total.max(1)) {
            let tx = tx.clone();
            let next = &next;
            let spec = spec.clone();
            s.spawn(move || {
                let mut ev = Evaluator::<G>::new(spec, seed);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let e = ev.eval(&positions[i], i, stop);
                    if tx.send((i, e)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (done, (i, e)) in rx.into_iter().enumerate() {
            out[i] = Some(e);
            progress(Progress {
                done: done + 1,
                total,
            });
        }
    });
    if stop.load(Ordering::Relaxed) {
        return Err(ReviewError::Stopped);
    }
    Ok(out
        .into_iter()
        .map(|e| e.expect("every position was evaluated"))
        .collect())
}
