//! The analysis board's evaluations and the hint, worked out the same way by the server and
//! by the browser's engine: a series of searches of growing thinking time, each told in words
//! naming the colours, and a suggested move (exact where the solitaire solver decides it).

use crate::AnyGame;
use boardlab_ai::review::Review;
use boardlab_ai::{AiError, BotSpec};
use boardlab_core::present::Text;
use boardlab_core::{Seat, Wdl};
use serde::Serialize;
use std::sync::atomic::AtomicBool;

/// The thinking times of the analysis board's searches, in order.
pub const STEPS_MS: [u64; 4] = [100, 300, 1000, 3000];

/// The search behind a hint.
pub const HINT_SPEC: &str = "best:time=500ms";

/// Most positions the solitaire solver may visit to answer a hint exactly (about a second).
pub const HINT_PUZZLE_NODES: u64 = 4_000_000;

/// One evaluation of a position.
#[derive(Debug, Serialize)]
pub struct Evaluation {
    /// The search's number, from 1; the last one has `last` set.
    pub step: usize,
    pub last: bool,
    /// Thinking time of this search.
    pub ms: u64,
    #[serde(rename = "move")]
    pub best: String,
    /// The cells the move touches, for drawing it.
    pub cells: Vec<Text>,
    pub pv: Vec<String>,
    /// The value in words, naming colours.
    pub text: String,
    /// The expected score of the first seat (1 a win for it).
    pub first_score: f64,
    /// Whether the value is proven.
    pub exact: bool,
    pub depth: u32,
    pub nodes: u64,
}

/// The evaluation of step `index` (from 0) of [`STEPS_MS`]; the last step, or a proven
/// value, ends the series.
///
/// # Errors
/// A game without bot support, or a search that failed.
///
/// # Panics
/// `index` past the last step.
pub fn evaluate(game: &AnyGame, index: usize, stop: &AtomicBool) -> Result<Evaluation, AiError> {
    let ms = STEPS_MS[index];
    let spec: BotSpec = format!("best:time={ms}ms").parse()?;
    let seat = game.to_move();
    let colours = [game.colour_of(Seat::First), game.colour_of(Seat::Second)];
    let a = boardlab_ai::analyze(&**game, &spec, u64::try_from(index).unwrap_or(0), stop)?;
    let value = a.value.for_seat(seat);
    let first = a.value.for_seat(Seat::First);
    Ok(Evaluation {
        step: index + 1,
        last: index + 1 == STEPS_MS.len() || value.proven.is_some(),
        ms,
        cells: game.suggested(&a.best),
        best: a.best,
        pv: a.pv,
        text: boardlab_ai::words::value_words(value, colours, game.is_solitaire()),
        first_score: first.score,
        exact: value.proven.is_some(),
        depth: a.depth,
        nodes: a.nodes,
    })
}

/// A suggested move for the side to move.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hint {
    #[serde(rename = "move")]
    pub best: String,
    /// Whether the value is proven (exact search), not estimated.
    pub exact: bool,
    /// `win`, `loss` or `draw` for the side to move when proven, else `null`.
    #[serde(serialize_with = "wdl_word")]
    pub value: Option<Wdl>,
    /// The estimated score of the side to move (1 a win, 0 a loss).
    pub score: f64,
    /// The expected line of play, starting with `best`.
    pub pv: Vec<String>,
    /// A sentence for people.
    pub text: String,
    /// The search used.
    pub bot: String,
}

fn wdl_word<S: serde::Serializer>(v: &Option<Wdl>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(Wdl::Win) => s.serialize_str("win"),
        Some(Wdl::Loss) => s.serialize_str("loss"),
        Some(Wdl::Draw) => s.serialize_str("draw"),
        None => s.serialize_none(),
    }
}

/// A hint for `game` (not over): a puzzle answered exactly where the solitaire solver decides
/// it quickly, otherwise a short search of the strongest computer player, seeded by `seed`.
///
/// # Errors
/// A game without bot support, or a search that failed.
pub fn hint(game: &AnyGame, seed: u64, stop: &AtomicBool) -> Result<Hint, AiError> {
    if let Some((pv, solvable)) = game.puzzle_hint(HINT_PUZZLE_NODES) {
        return Ok(Hint {
            best: pv[0].clone(),
            exact: true,
            value: Some(if solvable { Wdl::Win } else { Wdl::Loss }),
            score: if solvable { 1.0 } else { 0.0 },
            pv,
            text: if solvable {
                "keeps the puzzle solvable".to_string()
            } else {
                "the puzzle can no longer be solved from here".to_string()
            },
            bot: "solitaire solver".to_string(),
        });
    }
    let spec: BotSpec = HINT_SPEC.parse()?;
    let seat = game.to_move();
    let colours = [game.colour_of(Seat::First), game.colour_of(Seat::Second)];
    let analysis = boardlab_ai::analyze(&**game, &spec, seed, stop)?;
    let value = analysis.value.for_seat(seat);
    Ok(Hint {
        best: analysis.best,
        exact: value.proven.is_some(),
        value: value.proven.map(|p| p.result_for(seat)),
        score: value.score,
        pv: analysis.pv,
        text: boardlab_ai::words::value_words(value, colours, game.is_solitaire()),
        bot: analysis.bot,
    })
}

/// A review as clients read it: the review with the best moves' cells and the start.
#[derive(Debug, Serialize)]
struct Stored<'a> {
    #[serde(flatten)]
    review: &'a Review,
    /// Per move, the cells the best move of the position before it touches.
    best_cells: Vec<Vec<Text>>,
    /// The position the game started from.
    start: String,
    /// Every option of the game with its value.
    option_values: std::collections::BTreeMap<String, String>,
}

/// `review` of the game that began at `start`, as the server stores and answers it and the
/// browser's engine gives it.
#[must_use]
pub fn review_json(start: &AnyGame, review: &Review) -> String {
    let mut game = start.clone();
    let mut best_cells = Vec::with_capacity(review.plies.len());
    for p in &review.plies {
        best_cells.push(game.suggested(&p.best));
        if game.play_text(&p.played).is_err() {
            break;
        }
    }
    serde_json::to_string(&Stored {
        review,
        best_cells,
        start: start.position_text(),
        option_values: start
            .options()
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    })
    .expect("a review serialises")
}
