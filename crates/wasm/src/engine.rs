//! The engine's work in plain Rust: each call takes and gives JSON text, and a failure is a
//! message in words. `lib.rs` hands these to JavaScript; the tests call them directly.

use boardlab_ai::BotSpec;
use boardlab_core::present::Text;
use boardlab_games::view::{self, PositionRequest};
use boardlab_games::{analysis, AnyGame, GameKind};
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Searches here are never stopped from inside: the page stops one by ending its worker.
static NEVER: AtomicBool = AtomicBool::new(false);

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("a view always serialises")
}

fn request(text: &str) -> Result<PositionRequest, String> {
    serde_json::from_str(text).map_err(|e| format!("a bad position request: {e}"))
}

/// The games, each with its name, title and the options that make it a solitaire.
#[must_use]
pub fn games() -> String {
    #[derive(Serialize)]
    struct Listed {
        name: &'static str,
        title: &'static str,
        solitaire_options: &'static [&'static str],
    }
    let list: Vec<Listed> = GameKind::all()
        .iter()
        .map(|k| Listed {
            name: k.name(),
            title: k.info().title,
            solitaire_options: k.info().solitaire_options,
        })
        .collect();
    json(&list)
}

/// The view of a position request, as `POST /api/positions` answers it.
///
/// # Errors
/// The request's problem in words, as the server's 400 says it.
pub fn position(request_json: &str) -> Result<String, String> {
    request(request_json)
        .and_then(|r| r.view())
        .map(|v| json(&v))
}

/// A game kept between calls: a start and the moves played from it.
#[derive(Debug)]
pub struct KeptGame {
    game: AnyGame,
    moves: Vec<String>,
    last_cells: Vec<Text>,
}

impl KeptGame {
    /// The position a request reaches (its start and moves).
    ///
    /// # Errors
    /// The request's problem in words.
    pub fn new(request_json: &str) -> Result<KeptGame, String> {
        let r = request(request_json)?;
        let mut p = KeptGame {
            game: r.start()?,
            moves: Vec::new(),
            last_cells: Vec::new(),
        };
        for (i, m) in r.moves.iter().enumerate() {
            p.play(m)
                .map_err(|e| format!("move {} '{}': {e}", i + 1, view::shorten(m)))?;
        }
        Ok(p)
    }

    /// Plays `text` (any accepted spelling); returns it in canonical notation.
    ///
    /// # Errors
    /// A move that is too long, illegal, or played after the end.
    pub fn play(&mut self, text: &str) -> Result<String, String> {
        let played = view::play(&mut self.game, text)?;
        self.moves.push(played.notation.clone());
        self.last_cells = played.touched;
        Ok(played.notation)
    }

    /// The position's view, as [`position`] gives it.
    #[must_use]
    pub fn view(&self) -> String {
        json(&view::position(
            &self.game,
            self.moves.clone(),
            self.last_cells.clone(),
        ))
    }

    /// The legal moves, in canonical notation (none when the game is over).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<String> {
        if self.over() {
            Vec::new()
        } else {
            self.game.legal_moves()
        }
    }

    /// Whether the game is over.
    #[must_use]
    pub fn over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// Evaluation `step` (from 0) of the analysis board's series, as `GET /api/analysis`
    /// sends it.
    ///
    /// # Errors
    /// A game that is over, a step past the last, or a game without computer players.
    pub fn evaluate(&self, step: usize) -> Result<String, String> {
        if let Some(o) = self.game.outcome() {
            return Err(format!(
                "the game is over ({o}): there is nothing to analyse"
            ));
        }
        if step >= analysis::STEPS_MS.len() {
            return Err(format!("there are {} steps", analysis::STEPS_MS.len()));
        }
        analysis::evaluate(&self.game, step, &NEVER)
            .map(|e| json(&e))
            .map_err(|e| e.to_string())
    }

    /// A suggested move for the side to move, as the server's hint gives it.
    ///
    /// # Errors
    /// A game that is over, or a game without computer players.
    pub fn hint(&self, seed: u64) -> Result<String, String> {
        if self.over() {
            return Err("the game is over: there is no move to suggest".into());
        }
        analysis::hint(&self.game, seed, &NEVER)
            .map(|h| json(&h))
            .map_err(|e| e.to_string())
    }

    /// The move of computer player `spec` (`level:5`, `random`, `best:time=1s`, …).
    ///
    /// # Errors
    /// A game that is over, a spec not understood, or one this game has no player for.
    pub fn computer_move(&self, spec: &str, seed: u64) -> Result<String, String> {
        if self.over() {
            return Err("the game is over".into());
        }
        let spec: BotSpec = spec
            .parse()
            .map_err(|e: boardlab_ai::AiError| e.to_string())?;
        boardlab_ai::analyze(&*self.game, &spec, seed, &NEVER)
            .map(|a| a.best)
            .map_err(|e| e.to_string())
    }

    /// Random games from this position for `budget`: `{ "games", "plies", "seconds" }`.
    #[must_use]
    pub fn random_playouts(&self, budget: Duration, seed: u64) -> String {
        let (games, plies, seconds) = self.game.random_playouts(budget, seed);
        json(&serde_json::json!({ "games": games, "plies": plies, "seconds": seconds }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> serde_json::Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn a_position_is_the_one_the_server_gives() {
        let req = r#"{"game":"sight-reduction","seed":3,"moves":[]}"#;
        let here = value(&position(req).unwrap());
        let there: PositionRequest = serde_json::from_str(req).unwrap();
        assert_eq!(here, value(&json(&there.view().unwrap())));
        assert_eq!(here["game"], "sight-reduction");
        assert!(!here["legal_moves"].as_array().unwrap().is_empty());
    }

    #[test]
    fn bad_requests_and_moves_are_told_in_words() {
        assert!(position("{")
            .unwrap_err()
            .starts_with("a bad position request"));
        assert!(position(r#"{"game":"chess"}"#)
            .unwrap_err()
            .contains("chess"));
        let err = KeptGame::new(r#"{"game":"sight-reduction","moves":["zz9"]}"#).unwrap_err();
        assert!(err.starts_with("move 1 'zz9'"), "{err}");
        let mut p = KeptGame::new(r#"{"game":"sight-reduction","seed":1}"#).unwrap();
        let before = p.view();
        assert!(p.play("zz9").is_err());
        assert_eq!(p.view(), before, "a refused move changes nothing");
    }

    #[test]
    fn a_game_is_played_to_its_end_by_computer_players() {
        for kind in GameKind::all() {
            let req = format!(r#"{{"game":"{}","seed":7}}"#, kind.name());
            let mut p = KeptGame::new(&req).unwrap();
            let mut plies = 0;
            while !p.over() && plies < 2000 {
                let m = p.computer_move("random", plies).unwrap();
                assert!(
                    p.legal_moves().contains(&m),
                    "{} plays a legal move",
                    kind.name()
                );
                p.play(&m).unwrap();
                plies += 1;
            }
            assert!(p.over(), "{} ends", kind.name());
            assert!(p.legal_moves().is_empty());
            assert!(value(&p.view())["result"]["text"].is_string());
            assert!(p.hint(0).is_err() && p.evaluate(0).is_err());
        }
    }

    #[test]
    fn evaluations_and_hints_name_a_legal_move() {
        let p = KeptGame::new(r#"{"game":"sight-reduction","seed":5}"#).unwrap();
        let e = value(&p.evaluate(0).unwrap());
        assert_eq!(e["step"], 1);
        assert!(p
            .legal_moves()
            .contains(&e["move"].as_str().unwrap().to_string()));
        let h = value(&p.hint(1).unwrap());
        assert!(p
            .legal_moves()
            .contains(&h["move"].as_str().unwrap().to_string()));
        assert!(p.evaluate(analysis::STEPS_MS.len()).is_err());
        let r = value(&p.random_playouts(Duration::from_millis(20), 1));
        assert!(r["games"].as_u64().unwrap() > 0);
    }
}
