//! What a client draws a position from, made the same way wherever the position is worked
//! out: the server's `POST /api/positions` and the browser's engine answer one request with
//! the same JSON. A position is a start (a set-up seed or position text) and the moves played
//! from it; its view holds the game's own presentation (board, clicks), the turn, the legal
//! moves and the rules' result.

use crate::{AnyGame, GameKind};
use boardlab_core::present::{Board, Interaction, PlayedMove, Text};
use boardlab_core::{Colour, Options, Outcome, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Longest move text accepted.
pub const MOVE_LIMIT: usize = 200;

/// Longest position text accepted.
pub const POSITION_LIMIT: usize = 4096;

/// Most moves a position request plays from its start.
pub const LINE_LIMIT: usize = 1000;

/// `text` cut to 40 characters (with `…`), for quoting a client's input in a message.
#[must_use]
pub fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// A finished game's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub winner: Option<Seat>,
    pub colour: Option<Colour>,
    pub draw: bool,
    /// The record's result tag: the winning colour, `draw`, `solved`, `score N`.
    pub tag: String,
    pub reason: String,
    /// `rules`, `resignation`, `agreement`, `time` or `aborted`.
    pub termination: &'static str,
    /// The rules' outcome when the rules ended the game.
    pub outcome: Option<Outcome>,
}

impl GameResult {
    /// The result of a game the rules ended with `outcome`.
    #[must_use]
    pub fn by_rules(outcome: Outcome) -> GameResult {
        GameResult {
            winner: outcome.winner(),
            colour: match outcome {
                Outcome::Win { colour, .. } => Some(colour),
                _ => None,
            },
            draw: matches!(outcome, Outcome::Draw { .. }),
            tag: outcome.tag(),
            reason: outcome.reason().to_string(),
            termination: "rules",
            outcome: Some(outcome),
        }
    }

    /// The result of a game `game` that seat `loser` lost by `what` (`resigned`, `ran out of
    /// time`) before the rules ended it; `termination` says how.
    #[must_use]
    pub fn lost(game: &AnyGame, loser: Seat, what: &str, termination: &'static str) -> GameResult {
        let winner = loser.other();
        let colour = game.colour_of(winner);
        GameResult {
            winner: Some(winner),
            colour,
            draw: false,
            tag: colour.map_or_else(|| winner.name().to_string(), |c| c.name().into()),
            reason: match game.colour_of(loser) {
                Some(c) => format!("{} {what}", c.title()),
                None => format!("the {loser} player {what}"),
            },
            termination,
            outcome: None,
        }
    }
}

/// A result as clients read it.
#[derive(Debug, Serialize)]
pub struct ResultView {
    /// The winning seat; `null` for a draw or a puzzle.
    pub winner: Option<Seat>,
    pub colour: Option<Colour>,
    pub draw: bool,
    /// The record's result tag: the winning colour, `draw`, `solved` or `score N`.
    pub tag: String,
    /// A puzzle not solved: the pieces left (the `N` of `score N`).
    pub score: Option<u32>,
    pub reason: String,
    /// `rules`, `resignation`, `agreement` or `time`.
    pub termination: &'static str,
    /// A sentence for people, colours named with capitals: `White wins: Black ran out of time`.
    pub text: String,
}

impl From<GameResult> for ResultView {
    fn from(r: GameResult) -> Self {
        // Words for people: the winner by colour (a name, with a capital), not by seat.
        let text = match (r.winner, r.colour, &r.outcome) {
            (Some(_), Some(c), _) => format!("{} wins: {}", c.title(), r.reason),
            (Some(w), None, _) => format!("the {w} player wins: {}", r.reason),
            (None, _, Some(o)) if !r.draw => o.to_string(),
            (None, _, _) => format!("draw: {}", r.reason),
        };
        ResultView {
            winner: r.winner,
            colour: r.colour,
            draw: r.draw,
            score: Outcome::score_of_tag(&r.tag),
            tag: r.tag,
            reason: r.reason,
            termination: r.termination,
            text,
        }
    }
}

/// A position reached from a start by some moves, outside any stored game: what the analysis
/// board, the rules' figures, tutorials and puzzles draw and play on.
#[derive(Debug, Serialize)]
pub struct PositionView {
    pub game: &'static str,
    /// Every option with its value.
    pub options: BTreeMap<String, String>,
    pub position: String,
    pub diagram: String,
    pub board: Board,
    /// How each legal move is entered by clicks (empty when the game is over).
    pub interaction: Interaction,
    /// `null` when the game is over.
    pub to_move: Option<PositionTurn>,
    pub legal_moves: Vec<String>,
    pub solitaire: bool,
    /// The moves played from the start, in canonical notation.
    pub moves: Vec<String>,
    /// The last of `moves` (`null` when none).
    pub last_move: Option<String>,
    /// The cells the last move touched.
    pub last_cells: Vec<Text>,
    /// The rules' result when the game is over.
    pub result: Option<ResultView>,
}

/// Whose turn it is.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct PositionTurn {
    pub seat: Seat,
    pub colour: Option<Colour>,
}

/// The view of `game` after `moves` (canonical), the last of which touched `last_cells`.
#[must_use]
pub fn position(game: &AnyGame, moves: Vec<String>, last_cells: Vec<Text>) -> PositionView {
    let outcome = game.outcome();
    let over = outcome.is_some();
    PositionView {
        game: game.kind().name(),
        options: game
            .options()
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        position: game.position_text(),
        diagram: game.diagram(),
        board: game.board(),
        interaction: if over {
            Interaction::default()
        } else {
            game.interaction()
        },
        to_move: (!over).then(|| PositionTurn {
            seat: game.to_move(),
            colour: game.colour_to_move(),
        }),
        legal_moves: if over { Vec::new() } else { game.legal_moves() },
        solitaire: game.is_solitaire(),
        last_move: moves.last().cloned(),
        moves,
        last_cells,
        result: outcome.map(|o| GameResult::by_rules(o).into()),
    }
}

/// Game options as a client sends them in JSON: each a string, a number or a boolean.
///
/// # Errors
/// Another kind of value, or options the game refuses, in words.
pub fn options_from_json(
    kind: GameKind,
    values: &BTreeMap<String, serde_json::Value>,
) -> Result<Options, String> {
    let mut pairs = Vec::new();
    for (k, v) in values {
        let value = match v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::Bool(b) => b.to_string(),
            _ => return Err(format!("option '{k}' must be a string, number or boolean")),
        };
        pairs.push((k.clone(), value));
    }
    kind.info()
        .options_from_pairs(pairs)
        .map_err(|e| e.to_string())
}

/// Refuses position text the game cannot have or that is too long.
///
/// # Errors
/// Why, in words.
pub fn check_position(kind: GameKind, position: Option<&str>) -> Result<(), String> {
    if let Some(p) = position {
        if !kind.info().has_position_text {
            return Err(format!("{} has no position text", kind.name()));
        }
        if p.len() > POSITION_LIMIT {
            return Err(format!(
                "the position text is longer than {POSITION_LIMIT} characters"
            ));
        }
    }
    Ok(())
}

/// Plays `text` on `game`, as a client's move: refused when too long, after the end, or
/// illegal, with why in words.
///
/// # Errors
/// Why the move is refused.
pub fn play(game: &mut AnyGame, text: &str) -> Result<PlayedMove, String> {
    if text.len() > MOVE_LIMIT {
        return Err(format!("longer than {MOVE_LIMIT} characters"));
    }
    if game.outcome().is_some() {
        return Err("the game is already over".into());
    }
    game.play_text(text).map_err(|e| e.to_string())
}

/// A start and the moves played from it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    pub game: String,
    #[serde(default)]
    pub options: BTreeMap<String, serde_json::Value>,
    /// The set-up's seed, where there is no position text (0 when neither is given).
    pub seed: Option<u64>,
    pub position: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
}

impl PositionRequest {
    /// The game at the request's start.
    ///
    /// # Errors
    /// An unknown game, options or position text it refuses, or too many moves, in words.
    pub fn start(&self) -> Result<AnyGame, String> {
        let kind: GameKind = self
            .game
            .parse()
            .map_err(|e: crate::UnknownGame| e.to_string())?;
        let options = options_from_json(kind, &self.options)?;
        check_position(kind, self.position.as_deref())?;
        if self.moves.len() > LINE_LIMIT {
            return Err(format!("more than {LINE_LIMIT} moves"));
        }
        match &self.position {
            Some(text) => AnyGame::from_position(kind, &options, text),
            None => AnyGame::new(kind, &options, self.seed.unwrap_or(0)),
        }
        .map_err(|e| e.to_string())
    }

    /// The view of the position the request's moves reach.
    ///
    /// # Errors
    /// A start [`PositionRequest::start`] refuses, or a move that is too long, illegal, or
    /// played after the end, named by its number.
    pub fn view(&self) -> Result<PositionView, String> {
        let mut game = self.start()?;
        let mut moves = Vec::with_capacity(self.moves.len());
        let mut last_cells = Vec::new();
        for (i, text) in self.moves.iter().enumerate() {
            let played = play(&mut game, text)
                .map_err(|why| format!("move {} '{}': {why}", i + 1, shorten(text)))?;
            moves.push(played.notation);
            last_cells = played.touched;
        }
        Ok(position(&game, moves, last_cells))
    }
}
