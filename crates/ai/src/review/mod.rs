//! Game review: every position of a played game evaluated, every move graded.
//!
//! [`review`] takes a start position and the moves played (or [`review_record`] a
//! [`GameRecord`] of any game) and evaluates each position once, with a bot of the given spec
//! (by default the game's [`crate::knowledge::GameAi::review_spec`]). The value after a move is the value of the
//! position before the next one, so no position is searched twice. Each move gets:
//!
//! - the value before and after it, for the seat that made it ([`Value`]: an expected score, or
//!   a result proven by exact search), and in words for a person, by colour;
//! - the best move and its line when the played move was not the best;
//! - the expected score it lost ([`PlyReview::loss`]), its [`Grade`] by the thresholds
//!   [`INACCURACY`], [`MISTAKE`], [`BLUNDER`], and its accuracy ([`move_accuracy`]);
//! - in Sight Reduction's removal phase, where the exact solver always answers, an exact
//!   verdict instead ([`Verdict`]): the move keeps the win, throws it away, or the game was
//!   already lost, with how many moves keep the win. Solitaire games are judged by whether the
//!   puzzle can still be solved.
//!
//! Per seat, [`SideSummary`] counts the grades and gives an accuracy ([`side_accuracy`]).
//! Every result is a plain serde structure; a progress callback sees each position as it is
//! done, a stop flag ends the review early, and positions may be evaluated on several threads
//! (`ReviewConfig::threads`) with the same result for the same seed under a work budget.
//! `docs/review.md` describes the grades and the figures.

use crate::capabilities::{new_bot, resolve_type, supported, Capabilities};
use crate::search::Value;
use crate::{AiError, BotSpec};
use boardlab_core::{
    Colour, Game, GameRecord, MoveNote, Proven, RecordError, RecordValue, Seat, Wdl,
};
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use thiserror::Error;
use web_time::Instant;

/// A move that loses at least this much expected score (0 to 1, from the mover's view) is an
/// inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// A move that loses at least this much is a mistake.
pub const MISTAKE: f64 = 0.10;
/// A move that loses at least this much is a blunder.
pub const BLUNDER: f64 = 0.15;

/// How good a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    /// The best move found (or, graded exactly, one of the best).
    Best,
    /// Not the best move, but it lost less than [`INACCURACY`].
    Good,
    /// Lost from [`INACCURACY`] up to [`MISTAKE`]: `?!`.
    Inaccuracy,
    /// Lost from [`MISTAKE`] up to [`BLUNDER`]: `?`.
    Mistake,
    /// Lost [`BLUNDER`] or more (graded exactly: threw a win away): `??`.
    Blunder,
}

impl Grade {
    /// The grade of a move that lost `loss` of expected score; `best` when it is the move the
    /// search chose.
    #[must_use]
    pub fn from_loss(loss: f64, best: bool) -> Grade {
        if best {
            Grade::Best
        } else if loss >= BLUNDER {
            Grade::Blunder
        } else if loss >= MISTAKE {
            Grade::Mistake
        } else if loss >= INACCURACY {
            Grade::Inaccuracy
        } else {
            Grade::Good
        }
    }

    /// The symbol written after the move: `?!`, `?`, `??`, or nothing.
    #[must_use]
    pub fn symbol(self) -> &'static str {
        match self {
            Grade::Best | Grade::Good => "",
            Grade::Inaccuracy => "?!",
            Grade::Mistake => "?",
            Grade::Blunder => "??",
        }
    }

    /// The grade's name: `best`, `good`, `inaccuracy`, `mistake`, `blunder`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Grade::Best => "best",
            Grade::Good => "good",
            Grade::Inaccuracy => "inaccuracy",
            Grade::Mistake => "mistake",
            Grade::Blunder => "blunder",
        }
    }
}

/// The accuracy of one move, from 0 to 100, from the expected score it lost (0 to 1): the
/// curve Lichess uses on its win percentages, `103.1668 · e^(−0.04354 · 100 · loss) − 2.1669`,
/// kept within 0 to 100. A move that loses nothing scores 100, 0.05 about 81, 0.10 about 65,
/// 0.15 about 52, a thrown-away win (1) 0.
#[must_use]
pub fn move_accuracy(loss: f64) -> f64 {
    let loss = loss.max(0.0) * 100.0;
    (103.166_8 * (-0.043_54 * loss).exp() - 3.166_9 + 1.0).clamp(0.0, 100.0)
}

/// A side's accuracy: the mean of its moves' accuracies, from 0 to 100; `None` for no moves.
/// (Lichess also mixes in a harmonic mean, which lets one bad move dominate; graded exactly,
/// a thrown-away win loses the whole expected score, so here one such move among ten costs
/// ten points, no more.)
#[must_use]
pub fn side_accuracy(moves: &[f64]) -> Option<f64> {
    (!moves.is_empty()).then(|| moves.iter().sum::<f64>() / moves.len() as f64)
}

/// An exact judgement of a move, where a solver decided every position involved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The mover was winning and still is.
    KeepsWin,
    /// The mover was winning and now loses.
    ThrowsWinAway,
    /// The mover was losing whatever it played.
    AlreadyLost,
    /// Solitaire: the puzzle could be solved and still can.
    KeepsSolution,
    /// Solitaire: the puzzle could be solved and no longer can.
    ThrowsSolutionAway,
    /// Solitaire: the puzzle could no longer be solved before this move.
    AlreadyUnsolvable,
}

impl Verdict {
    /// The verdict in words: "keeps the win", "throws the win away", …
    #[must_use]
    pub fn words(self) -> &'static str {
        match self {
            Verdict::KeepsWin => "keeps the win",
            Verdict::ThrowsWinAway => "throws the win away",
            Verdict::AlreadyLost => "already lost",
            Verdict::KeepsSolution => "keeps the solution",
            Verdict::ThrowsSolutionAway => "throws the solution away",
            Verdict::AlreadyUnsolvable => "already unsolvable",
        }
    }
}

/// An exact verdict with the choice the mover had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exact {
    pub verdict: Verdict,
    /// How many legal moves keep the win (none in a lost position); `None` where not counted
    /// (solitaire).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keeping: Option<u32>,
    /// The legal moves of the position.
    pub moves: u32,
}

/// One move of the game, reviewed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlyReview {
    /// The move's number, counted from 1.
    pub number: usize,
    /// The seat that made it.
    pub seat: Seat,
    /// The colour it moved, where colours were assigned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<Colour>,
    /// The move, in canonical notation.
    #[serde(rename = "move")]
    pub played: String,
    /// The value of the position before the move, for `seat`.
    pub before: Value,
    /// The value of the position after the move, for `seat`.
    pub after: Value,
    /// `after` in a person's words: "62% for White", "White wins in 13 moves".
    pub value_text: String,
    /// The best move of the position before.
    pub best: String,
    /// The line expected after the best move, starting with it.
    pub pv: Vec<String>,
    /// The expected score the move lost, from 0 to 1 (0 for the best move).
    pub loss: f64,
    /// The move's accuracy, from 0 to 100 ([`move_accuracy`]).
    pub accuracy: f64,
    pub grade: Grade,
    /// The exact verdict, where a solver decided the position and every move from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<Exact>,
    /// The review of the move in words, with the best move when it was not played.
    pub comment: String,
}

/// One seat's moves, summed up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SideSummary {
    pub seat: Seat,
    /// The seat's colour at the end of the game, where colours were assigned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<Colour>,
    /// The player's name from the record (empty when unknown).
    #[serde(default)]
    pub player: String,
    /// Moves made.
    pub moves: u32,
    pub best: u32,
    pub good: u32,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// [`side_accuracy`] of the seat's moves, from 0 to 100.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<f64>,
    /// The mean expected score lost per move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_loss: Option<f64>,
}

/// A whole game, reviewed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// The game's name.
    pub game: String,
    /// The game's options, canonically spelled.
    pub options: String,
    /// The concrete spec of the bot that evaluated the positions (levels resolved).
    pub bot: String,
    /// A one-person game (a Sight Reduction puzzle): graded by whether it can be solved.
    pub solitaire: bool,
    /// Every move, in order.
    pub plies: Vec<PlyReview>,
    /// Each seat's summary (one for a solitaire game).
    pub sides: Vec<SideSummary>,
    /// How the game ended, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// Positions evaluated (each once).
    pub positions: usize,
    /// Work done: bot iterations or nodes, solver positions.
    pub nodes: u64,
    /// Wall time of the whole review.
    pub seconds: f64,
}

impl Review {
    /// The summary of `seat`, if it made moves or the game has it.
    #[must_use]
    pub fn side(&self, seat: Seat) -> Option<&SideSummary> {
        self.sides.iter().find(|s| s.seat == seat)
    }
}

/// How far a review has got: `done` of `total` positions evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub done: usize,
    pub total: usize,
}

/// How to review.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewConfig {
    /// The bot that evaluates each position (a fresh one per position); `None` for the game's
    /// [`crate::knowledge::GameAi::review_spec`].
    pub bot: Option<BotSpec>,
    /// Seed of the bots: each position's bot is seeded from it and the position's number.
    pub seed: u64,
    /// Positions evaluated at once, 1 to 256 (0: one per core). Each thread has its own bot
    /// and solver; with a work budget the review is the same for any count.
    pub threads: usize,
}

impl Default for ReviewConfig {
    fn default() -> Self {
        ReviewConfig {
            bot: None,
            seed: 0,
            threads: 1,
        }
    }
}

/// Why a review could not be made.
#[derive(Debug, Error)]
pub enum ReviewError {
    /// The record cannot be read as a game: bad options or position, or the first bad move.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The record names no known game (the message lists the known ones).
    #[error("{0}")]
    UnknownGame(String),
    /// The game has no bot support, or the spec cannot be used.
    #[error(transparent)]
    Ai(#[from] AiError),
    /// A setting out of range.
    #[error("{0}")]
    Config(String),
    /// The stop flag was set before the review was done.
    #[error("the review was stopped before it was done")]
    Stopped,
}

/// The most moves of a line a comment shows (the review's `pv` has them all).
const COMMENT_PV: usize = 6;

mod eval;

pub(crate) use eval::line_text;
use eval::{evaluate_all, PositionEval};
/// The bot spec a review of `G` uses by default ([`crate::knowledge::GameAi::review_spec`]).
///
/// # Errors
/// A game without bot support.
pub fn default_spec<G: Capabilities>() -> Result<BotSpec, AiError> {
    Ok(supported::<G>()?.review_spec())
}

/// A value in a person's words, with colours where the game has them: "62% for White",
/// "White wins in 13 moves", "a draw with best play"; for a puzzle "solvable", "unsolvable",
/// "undecided".
fn value_words<G: Game>(v: Value, game: &G, solitaire: bool) -> String {
    let colours = [game.colour_of(Seat::First), game.colour_of(Seat::Second)];
    if solitaire {
        return match v.proven {
            Some(p) if p.plies == Some(0) && p.result == Wdl::Win => "solved".into(),
            Some(p) if p.plies == Some(0) => "not solved".into(),
            Some(p) if p.result == Wdl::Win => "solvable".into(),
            Some(_) => "unsolvable".into(),
            None => "undecided".into(),
        };
    }
    match v.proven {
        Some(p) => crate::words::proven_words(p, colours),
        None => format!(
            "{:.0}% for {}",
            v.score * 100.0,
            crate::words::player_name(colours, v.seat)
        ),
    }
}

/// Reviews the game that starts at `start` and continues with `moves` (legal moves, as
/// [`GameRecord::replay`] gives them). `progress` is called after each position; setting
/// `stop` ends the review early with [`ReviewError::Stopped`].
///
/// # Errors
/// A game without bot support, a bad thread count, or a stopped review.
///
/// # Panics
/// If a move is illegal where it is played.
pub fn review<G: Capabilities>(
    start: &G,
    moves: &[G::Move],
    config: &ReviewConfig,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<Review, ReviewError> {
    let clock = Instant::now();
    let threads = match config.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n if n <= 256 => n,
        _ => return Err(ReviewError::Config("threads must be from 0 to 256".into())),
    };
    let spec = match &config.bot {
        Some(s) => s.clone(),
        None => default_spec::<G>()?,
    };
    // Refuse a game without bot support before any work.
    new_bot::<G>(&spec, 0)?;
    let bot = resolve_type::<G>(&spec)?.to_string();
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut g = start.clone();
    positions.push(g.clone());
    for &m in moves {
        g.play(m).expect("the moves of a review are legal");
        positions.push(g.clone());
    }
    let evals = evaluate_all(&positions, spec, config.seed, threads, stop, progress)?;
    let solitaire = start.is_solitaire();
    let mut plies = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        let pos = &positions[i];
        plies.push(grade_ply(
            i + 1,
            pos,
            &positions[i + 1],
            &pos.format_move(m),
            &evals[i],
            &evals[i + 1],
            solitaire,
        ));
    }
    let last = positions.last().expect("the start position");
    let seats: &[Seat] = if solitaire {
        &[Seat::First]
    } else {
        &Seat::BOTH
    };
    let sides = seats
        .iter()
        .map(|&seat| summary(seat, last.colour_of(seat), &plies))
        .collect();
    Ok(Review {
        game: G::info().name.to_string(),
        options: start.options().to_string(),
        bot,
        solitaire,
        plies,
        sides,
        result: last.outcome().map(|o| o.to_string()),
        positions: positions.len(),
        nodes: evals.iter().map(|e| e.nodes).sum(),
        seconds: clock.elapsed().as_secs_f64(),
    })
}

/// Grades move `number`, played in `pos` (evaluated as `now`) and leading to `next_pos`
/// (evaluated as `next`).
fn grade_ply<G: Game>(
    number: usize,
    pos: &G,
    next_pos: &G,
    played: &str,
    now: &PositionEval,
    next: &PositionEval,
    solitaire: bool,
) -> PlyReview {
    let seat = pos.to_move();
    let before = now.value.for_seat(seat);
    // The value after the move is the next position's value. Where the exact list of move
    // values has the move, the grade comes from the list (values of moves, one ply longer
    // than the positions they lead to), and the list stands in for a next position that
    // was not decided exactly.
    let listed = now
        .moves
        .as_ref()
        .and_then(|ms| ms.iter().find(|(t, _)| t == played));
    let after = match listed {
        Some(&(_, v)) if next.value.proven.is_none() => Value::proven(Proven {
            plies: v.plies.map(|n| n.saturating_sub(1)),
            ..v.for_seat(seat)
        }),
        _ => next.value.for_seat(seat),
    };
    let best = now.best.clone().unwrap_or_default();
    let mut exact = None;
    let (loss, grade, is_best);
    if let (Some(ms), Some(&(_, played_value))) = (&now.moves, listed) {
        // Sight Reduction's removal phase: every move's exact value.
        let top = ms
            .iter()
            .map(|(_, v)| v.rank_for(seat))
            .max()
            .unwrap_or(i32::MIN);
        let keeping = ms.iter().filter(|(_, v)| v.wins(seat)).count() as u32;
        is_best = played_value.rank_for(seat) == top;
        let verdict = match (keeping > 0, played_value.wins(seat)) {
            (true, true) => Verdict::KeepsWin,
            (true, false) => Verdict::ThrowsWinAway,
            _ => Verdict::AlreadyLost,
        };
        exact = Some(Exact {
            verdict,
            keeping: Some(keeping),
            moves: ms.len() as u32,
        });
        loss = if verdict == Verdict::ThrowsWinAway {
            1.0
        } else {
            0.0
        };
        grade = match verdict {
            Verdict::ThrowsWinAway => Grade::Blunder,
            _ if is_best => Grade::Best,
            _ => Grade::Good,
        };
    } else if solitaire && now.solitaire && next.solitaire {
        let decided = before.proven.is_some() && after.proven.is_some();
        is_best = best == played;
        if decided {
            let verdict = match (before.score >= 1.0, after.score >= 1.0) {
                (true, true) => Verdict::KeepsSolution,
                (true, false) => Verdict::ThrowsSolutionAway,
                _ => Verdict::AlreadyUnsolvable,
            };
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            exact = Some(Exact {
                verdict,
                keeping: None,
                moves: moves.len() as u32,
            });
            loss = (before.score - after.score).max(0.0);
            grade = if verdict == Verdict::ThrowsSolutionAway {
                Grade::Blunder
            } else if is_best || verdict == Verdict::KeepsSolution {
                Grade::Best
            } else {
                Grade::Good
            };
        } else {
            // Undecided within the search's limit: not graded down.
            loss = 0.0;
            grade = if is_best { Grade::Best } else { Grade::Good };
        }
    } else {
        is_best = best == played;
        loss = if is_best {
            0.0
        } else {
            (before.score - after.score).max(0.0)
        };
        grade = Grade::from_loss(loss, is_best);
    }
    let value_text = value_words(after, next_pos, solitaire);
    let comment = comment(grade, exact, is_best, &best, now, pos, solitaire);
    PlyReview {
        number,
        seat,
        colour: pos.colour_to_move(),
        played: played.to_string(),
        before,
        after,
        value_text,
        best,
        pv: now.pv.clone(),
        loss,
        accuracy: move_accuracy(loss),
        grade,
        exact,
        comment,
    }
}

/// The review of one move in words.
fn comment<G: Game>(
    grade: Grade,
    exact: Option<Exact>,
    is_best: bool,
    best: &str,
    now: &PositionEval,
    pos: &G,
    solitaire: bool,
) -> String {
    let mut s = match exact {
        Some(e) => {
            let mut s = crate::words::capitalised(e.verdict.words());
            match (e.verdict, e.keeping) {
                (Verdict::KeepsWin, Some(1)) => s += " (the only winning move)",
                (Verdict::KeepsWin, Some(k)) => s += &format!(" ({k} of {} moves win)", e.moves),
                (Verdict::ThrowsWinAway, Some(k)) => {
                    s += &format!(" ({k} of {} moves won)", e.moves);
                }
                _ => {}
            }
            s.push('.');
            s
        }
        None if is_best => "Best move.".to_string(),
        None => format!("{}.", crate::words::capitalised(grade.name())),
    };
    if !is_best && !best.is_empty() {
        let line = if now.pv.len() > 1 {
            let shown: Vec<&str> = now.pv.iter().take(COMMENT_PV).map(String::as_str).collect();
            format!(" ({})", shown.join(" "))
        } else {
            String::new()
        };
        let value = value_words(now.value, pos, solitaire);
        s += &format!(" Best: {best}{line}, {value}.");
    }
    s
}

/// The summary of `seat` over the reviewed plies.
fn summary(seat: Seat, colour: Option<Colour>, plies: &[PlyReview]) -> SideSummary {
    let mine: Vec<&PlyReview> = plies.iter().filter(|p| p.seat == seat).collect();
    let count = |g: Grade| mine.iter().filter(|p| p.grade == g).count() as u32;
    let accuracies: Vec<f64> = mine.iter().map(|p| p.accuracy).collect();
    SideSummary {
        seat,
        colour,
        player: String::new(),
        moves: mine.len() as u32,
        best: count(Grade::Best),
        good: count(Grade::Good),
        inaccuracies: count(Grade::Inaccuracy),
        mistakes: count(Grade::Mistake),
        blunders: count(Grade::Blunder),
        accuracy: side_accuracy(&accuracies),
        average_loss: (!mine.is_empty())
            .then(|| mine.iter().map(|p| p.loss).sum::<f64>() / mine.len() as f64),
    }
}

/// Reviews the game of `record`: replays it first, so a bad record is reported with its first
/// bad move before any search; then as [`review`], with the players' names from the record in
/// the summaries. For a game chosen at run time, `boardlab_games::review_record`.
///
/// # Errors
/// A record that does not replay, a game without bot support, a bad thread count, or a
/// stopped review.
pub fn review_record<G: Capabilities>(
    record: &GameRecord,
    config: &ReviewConfig,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<Review, ReviewError> {
    let start: G = record.start()?;
    let (_, moves) = record.replay::<G>()?;
    let mut r = review(&start, &moves, config, stop, progress)?;
    for s in &mut r.sides {
        s.player = match s.seat {
            Seat::First => record.seats.first.clone(),
            Seat::Second => record.seats.second.clone(),
        };
    }
    Ok(r)
}

/// `record` with a note on every reviewed move: the value after the move (for the seat that
/// made it) and the review's comment, led by the grade's symbol. Notes already on those
/// moves are replaced.
#[must_use]
pub fn annotate(record: &GameRecord, review: &Review) -> GameRecord {
    let mut out = record.clone();
    for p in &review.plies {
        let value = match p.after.proven {
            Some(proven) => RecordValue::Proven(proven),
            None => RecordValue::score(p.after.seat, p.after.score),
        };
        let comment = match p.grade.symbol() {
            "" => p.comment.clone(),
            sym => format!("{sym} {}", p.comment),
        };
        out.set_note(MoveNote {
            number: p.number,
            value: Some(value),
            comment: Some(comment),
        });
    }
    out
}
