//! The boardlab engines in the browser. Everything the web app asks the server about a position
//! outside a stored game it can ask here instead, with the same request and the same JSON
//! answer: a position's view (`POST /api/positions`), the analysis board's evaluations
//! (`GET /api/analysis`), a hint, a computer player's move at any level and random playouts.
//!
//! Requests and answers are JSON text, as over HTTP: a position request is
//! `{ "game", "options"?, "seed"?, "position"?, "moves"? }`. [`BrowserGame`] (`Game` in JavaScript) keeps one position between
//! calls, for a game played move by move. The web app runs this in a Web Worker
//! (`web/js/engine/worker.js`), so that a search never freezes the page; a search is stopped by
//! ending the worker. The work itself is in [`engine`], in plain Rust; this file only hands it
//! to JavaScript, a failure becoming a thrown `Error` with the message.

pub mod engine;

use std::time::Duration;
use wasm_bindgen::prelude::*;

fn thrown(message: String) -> JsError {
    JsError::new(&message)
}

/// A seed from JavaScript's number (a whole number below 2^53; anything else counts as 0).
fn seed_of(seed: f64) -> u64 {
    if seed.is_finite() && (0.0..9_007_199_254_740_992.0).contains(&seed) {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let s = seed as u64;
        s
    } else {
        0
    }
}

/// The games: `[{ "name", "title", "solitaire_options" }]`.
#[wasm_bindgen]
#[must_use]
pub fn games() -> String {
    engine::games()
}

/// The view of a position request, as `POST /api/positions` answers it.
///
/// # Errors
/// The request's problem in words, as the server's 400 says it.
#[wasm_bindgen]
pub fn position(request_json: &str) -> Result<String, JsError> {
    engine::position(request_json).map_err(thrown)
}

/// A position kept between calls: a start and the moves played from it (`Game` in
/// JavaScript).
#[wasm_bindgen(js_name = Game)]
#[derive(Debug)]
pub struct BrowserGame(engine::KeptGame);

#[wasm_bindgen(js_class = Game)]
impl BrowserGame {
    /// The position a request reaches (its start and moves).
    ///
    /// # Errors
    /// The request's problem in words.
    #[wasm_bindgen(constructor)]
    pub fn new(request_json: &str) -> Result<BrowserGame, JsError> {
        engine::KeptGame::new(request_json)
            .map(BrowserGame)
            .map_err(thrown)
    }

    /// Plays `text` (any accepted spelling); returns it in canonical notation.
    ///
    /// # Errors
    /// A move that is too long, illegal, or played after the end.
    pub fn play(&mut self, text: &str) -> Result<String, JsError> {
        self.0.play(text).map_err(thrown)
    }

    /// The position's view, as `POST /api/positions` gives it.
    #[must_use]
    pub fn view(&self) -> String {
        self.0.view()
    }

    /// The legal moves, in canonical notation.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<String> {
        self.0.legal_moves()
    }

    /// Whether the game is over (by the rules or a resignation).
    #[must_use]
    pub fn over(&self) -> bool {
        self.0.over()
    }

    /// The colour each seat plays and the seat that played each move:
    /// `{ "first", "second", "moves": ["first", …] }`.
    #[must_use]
    pub fn seats(&self) -> String {
        self.0.seats()
    }

    /// Seat `seat` (`first` or `second`) resigns.
    ///
    /// # Errors
    /// An unknown seat, or a game already over.
    pub fn resign(&mut self, seat: &str) -> Result<(), JsError> {
        self.0.resign(seat).map_err(thrown)
    }

    /// The game's record with the players and times of `request_json`:
    /// `{ "first", "second", "started"?, "finished"?, "format"?: "text" | "json" }`.
    ///
    /// # Errors
    /// A request not understood.
    pub fn record(&self, request_json: &str) -> Result<String, JsError> {
        self.0.record(request_json).map_err(thrown)
    }

    /// Evaluation `step` (from 0) of the analysis board's series.
    ///
    /// # Errors
    /// A game that is over, a step past the last, or a game without computer players.
    pub fn evaluate(&self, step: usize) -> Result<String, JsError> {
        self.0.evaluate(step).map_err(thrown)
    }

    /// A suggested move for the side to move.
    ///
    /// # Errors
    /// A game that is over, or a game without computer players.
    pub fn hint(&self, seed: f64) -> Result<String, JsError> {
        self.0.hint(seed_of(seed)).map_err(thrown)
    }

    /// The move of computer player `spec` (`level:5`, `random`, …).
    ///
    /// # Errors
    /// A game that is over, a spec not understood, or one this game has no player for.
    pub fn computer_move(&self, spec: &str, seed: f64) -> Result<String, JsError> {
        self.0.computer_move(spec, seed_of(seed)).map_err(thrown)
    }

    /// Random games from this position for `ms` milliseconds: `{ "games", "plies", "seconds" }`.
    #[must_use]
    pub fn random_playouts(&self, ms: f64, seed: f64) -> String {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let ms = ms.clamp(1.0, 600_000.0) as u64;
        self.0
            .random_playouts(Duration::from_millis(ms), seed_of(seed))
    }
}

/// The review of a game record (text or JSON), as the server answers a finished game's review;
/// `progress(done, total)` is called after each position.
///
/// # Errors
/// A record that cannot be read or replayed.
#[wasm_bindgen]
pub fn review(record: &str, progress: &js_sys::Function) -> Result<String, JsError> {
    engine::review(record, &mut |done, total| {
        // A progress callback that throws changes nothing in the review.
        #[allow(clippy::cast_precision_loss)]
        let _ = progress.call2(
            &JsValue::NULL,
            &JsValue::from_f64(done as f64),
            &JsValue::from_f64(total as f64),
        );
    })
    .map_err(thrown)
}

/// The exact value of a Sight Reduction position request (see `engine::solve`), visiting at
/// most `node_limit` positions (0: the default, fifty million).
///
/// # Errors
/// Another game, a request refused, a game already over, or no answer within the limit.
#[wasm_bindgen]
pub fn solve(request_json: &str, node_limit: f64) -> Result<String, JsError> {
    let limit = match seed_of(node_limit) {
        0 => engine::SOLVE_NODES,
        n => n,
    };
    engine::solve(request_json, limit).map_err(thrown)
}

/// Puzzle `id` (`clear-easy-1`), as `GET /api/puzzles/{id}` answers it.
///
/// # Errors
/// An id not understood, or one the generator has no puzzle for.
#[wasm_bindgen]
pub fn puzzle(id: &str) -> Result<String, JsError> {
    engine::puzzle(id).map_err(thrown)
}

/// The judgement of the last of `moves` (a JSON list) in puzzle `id`, as
/// `POST /api/puzzles/{id}/moves` answers it.
///
/// # Errors
/// An unknown puzzle, or a line that is empty or illegal.
#[wasm_bindgen]
pub fn puzzle_move(id: &str, moves: &str) -> Result<String, JsError> {
    engine::puzzle_move(id, moves).map_err(thrown)
}

/// A move that keeps puzzle `id` solvable after `moves` (a JSON list), as
/// `POST /api/puzzles/{id}/hint` answers it.
///
/// # Errors
/// An unknown puzzle, or a line that is illegal or not the player's turn.
#[wasm_bindgen]
pub fn puzzle_hint(id: &str, moves: &str) -> Result<String, JsError> {
    engine::puzzle_hint(id, moves).map_err(thrown)
}
