//! Game records: JSON for programs, and a PGN-like text form for files.
//!
//! The text form is a block of `[Tag "value"]` headers, a blank line, then one move per line
//! as `N. MOVE` (N counts moves from 1; one move per line because some moves contain spaces).
//! Lines starting with `#` are comments. Example:
//!
//! ```text
//! [Game "sight-reduction"]
//! [Options "removal=pair"]
//! [Seed "7"]
//! [First "alice"]
//! [Second "random"]
//! [Result "white"]
//!
//! 1. b2
//! 2. c7+c8
//! ```
//!
//! Loading replays every move through the rules and reports the first bad one.

use crate::game::{Game, MoveError, NewGameError};
use crate::options::{OptionError, Options};
use crate::player::Outcome;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use thiserror::Error;

/// Names of the two seats' players (a person's name or a bot spec).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatNames {
    #[serde(default)]
    pub first: String,
    #[serde(default)]
    pub second: String,
}

/// A whole game as played: enough to replay it exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// Game name, e.g. `obsidio`.
    pub game: String,
    /// Non-default options.
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    /// Seed of a random set-up.
    #[serde(default)]
    pub seed: u64,
    /// Starting position text, when the game did not start from the normal set-up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    #[serde(default)]
    pub seats: SeatNames,
    /// Moves in canonical notation.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Result tag: the winning colour, `draw`, `solved`, `score N`; `None` while unfinished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// How the game ended when the rules did not end it: `resignation`, `agreement`, …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination: Option<String>,
    /// RFC 3339 time the game started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<String>,
    /// RFC 3339 time the game ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<String>,
}

/// A record that cannot be read or replayed.
#[derive(Debug, Error)]
pub enum RecordError {
    #[error("line {line}: {message}")]
    Syntax { line: usize, message: String },
    #[error("record is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("record is for game '{found}', expected '{expected}'")]
    WrongGame { expected: String, found: String },
    #[error("record options: {0}")]
    Options(#[from] OptionError),
    #[error("record start: {0}")]
    Start(#[from] NewGameError),
    #[error("move {number} ('{text}'): {error}")]
    Move {
        number: usize,
        text: String,
        error: MoveError,
    },
    #[error("the record says the result is '{recorded}' but replaying its moves gives '{actual}'")]
    ResultMismatch { recorded: String, actual: String },
}

impl GameRecord {
    /// An empty record for a game about to be played.
    #[must_use]
    pub fn new<G: Game>(game: &G, seed: u64, position: Option<String>) -> GameRecord {
        GameRecord {
            game: G::info().name.to_string(),
            options: game.options().to_map(),
            seed,
            position,
            ..GameRecord::default()
        }
    }

    /// Sets `result` from the game's outcome, if it is over.
    pub fn set_outcome(&mut self, outcome: Option<Outcome>) {
        if let Some(o) = outcome {
            self.result = Some(o.tag());
        }
    }

    /// Rebuilds the options.
    ///
    /// # Errors
    /// Unknown options or values.
    pub fn options_for<G: Game>(&self) -> Result<Options, RecordError> {
        Ok(G::info().options_from_pairs(&self.options)?)
    }

    /// Replays the record: the final game and every move played.
    ///
    /// # Errors
    /// A record of another game, bad options or position, the first bad move with its number,
    /// or a result tag that contradicts the moves.
    pub fn replay<G: Game>(&self) -> Result<(G, Vec<G::Move>), RecordError> {
        if !self.game.eq_ignore_ascii_case(G::info().name) {
            return Err(RecordError::WrongGame {
                expected: G::info().name.to_string(),
                found: self.game.clone(),
            });
        }
        let options = self.options_for::<G>()?;
        let mut game = match &self.position {
            Some(p) => G::from_position(&options, p)?,
            None => G::new(&options, self.seed)?,
        };
        let mut played = Vec::with_capacity(self.moves.len());
        for (i, text) in self.moves.iter().enumerate() {
            let mv = game.play_text(text).map_err(|error| RecordError::Move {
                number: i + 1,
                text: text.clone(),
                error,
            })?;
            played.push(mv);
        }
        if let (Some(recorded), Some(outcome)) = (&self.result, game.outcome()) {
            if !recorded.eq_ignore_ascii_case(&outcome.tag()) {
                return Err(RecordError::ResultMismatch {
                    recorded: recorded.clone(),
                    actual: outcome.tag(),
                });
            }
        }
        Ok((game, played))
    }

    /// The JSON form.
    #[must_use]
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record always serialises")
    }

    /// Reads the JSON form.
    ///
    /// # Errors
    /// Invalid JSON or unknown fields.
    pub fn from_json(text: &str) -> Result<GameRecord, RecordError> {
        Ok(serde_json::from_str(text)?)
    }

    /// The PGN-like text form.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let mut tag = |k: &str, v: &str| {
            let _ = writeln!(s, "[{k} \"{}\"]", escape(v));
        };
        tag("Game", &self.game);
        if !self.options.is_empty() {
            let o: Vec<String> = self
                .options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            tag("Options", &o.join(","));
        }
        tag("Seed", &self.seed.to_string());
        if let Some(p) = &self.position {
            tag("Position", p);
        }
        tag("First", &self.seats.first);
        tag("Second", &self.seats.second);
        if let Some(t) = &self.started {
            tag("Started", t);
        }
        if let Some(t) = &self.finished {
            tag("Finished", t);
        }
        tag("Result", self.result.as_deref().unwrap_or("*"));
        if let Some(t) = &self.termination {
            tag("Termination", t);
        }
        s.push('\n');
        for (i, m) in self.moves.iter().enumerate() {
            let _ = writeln!(s, "{}. {m}", i + 1);
        }
        s
    }

    /// Reads the text form.
    ///
    /// # Errors
    /// A malformed line (with its number), an unknown tag, or a missing `Game` tag.
    pub fn from_text(text: &str) -> Result<GameRecord, RecordError> {
        let mut r = GameRecord::default();
        let mut have_game = false;
        for (n, raw) in text.lines().enumerate() {
            let line_no = n + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let syntax = |message: String| RecordError::Syntax {
                line: line_no,
                message,
            };
            if let Some(inner) = line.strip_prefix('[') {
                let inner = inner
                    .strip_suffix(']')
                    .ok_or_else(|| syntax("a tag line must end with ']'".into()))?;
                let (key, rest) = inner
                    .split_once(char::is_whitespace)
                    .ok_or_else(|| syntax("a tag is written [Name \"value\"]".into()))?;
                let value = rest
                    .trim()
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .ok_or_else(|| syntax("a tag value must be in double quotes".into()))?;
                let value = unescape(value);
                match key.to_ascii_lowercase().as_str() {
                    "game" => {
                        r.game = value;
                        have_game = true;
                    }
                    "options" => {
                        for item in crate::options::split_items(&value) {
                            let (k, v) = crate::options::parse_key_value(&item)?;
                            r.options.insert(k, v);
                        }
                    }
                    "seed" => {
                        r.seed = value
                            .parse()
                            .map_err(|_| syntax(format!("seed '{value}' is not a whole number")))?;
                    }
                    "position" => r.position = Some(value),
                    "first" => r.seats.first = value,
                    "second" => r.seats.second = value,
                    "started" => r.started = Some(value),
                    "finished" => r.finished = Some(value),
                    "result" => r.result = (value != "*").then_some(value),
                    "termination" => r.termination = Some(value),
                    _ => {
                        return Err(syntax(format!(
                            "unknown tag '{key}'; accepted: Game, Options, Seed, Position, First, \
                             Second, Started, Finished, Result, Termination"
                        )))
                    }
                }
                continue;
            }
            let (num, mv) = line
                .split_once('.')
                .ok_or_else(|| syntax(format!("expected '{}. MOVE'", r.moves.len() + 1)))?;
            let num: usize = num
                .trim()
                .parse()
                .map_err(|_| syntax(format!("expected a move number before '.', found '{num}'")))?;
            if num != r.moves.len() + 1 {
                return Err(syntax(format!(
                    "move number {num} out of order; expected {}",
                    r.moves.len() + 1
                )));
            }
            let mv = mv.trim();
            if mv.is_empty() {
                return Err(syntax(format!("move {num} is empty")));
            }
            r.moves.push(mv.to_string());
        }
        if !have_game {
            return Err(RecordError::Syntax {
                line: 1,
                message: "missing [Game \"…\"] tag".into(),
            });
        }
        Ok(r)
    }

    /// Reads either form: JSON when the text starts with `{`.
    ///
    /// # Errors
    /// As [`GameRecord::from_json`] or [`GameRecord::from_text`].
    pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
        if text.trim_start().starts_with('{') {
            GameRecord::from_json(text)
        } else {
            GameRecord::from_text(text)
        }
    }
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

fn unescape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            game: "sight-reduction".into(),
            options: [("removal".to_string(), "pair".to_string())].into(),
            seed: 7,
            position: None,
            seats: SeatNames {
                first: "al \"x\"".into(),
                second: "random".into(),
            },
            moves: vec!["b2".into(), "swap a1 c3".into()],
            result: Some("white".into()),
            termination: None,
            started: Some("2026-01-01T00:00:00Z".into()),
            finished: None,
        }
    }

    #[test]
    fn text_and_json_round_trip() {
        let r = sample();
        assert_eq!(GameRecord::parse(&r.to_text()).unwrap(), r);
        assert_eq!(GameRecord::parse(&r.to_json()).unwrap(), r);
    }

    #[test]
    fn text_errors_name_the_line() {
        let e = GameRecord::from_text("[Game \"x\"]\n\n1. a\n3. b\n").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 4: move number 3 out of order"),
            "{e}"
        );
        let e = GameRecord::from_text("[Gme \"x\"]\n").unwrap_err();
        assert!(e.to_string().contains("unknown tag 'Gme'"), "{e}");
        let e = GameRecord::from_text("1. a\n").unwrap_err();
        assert!(e.to_string().contains("missing [Game"), "{e}");
        assert!(GameRecord::from_json("{\"game\":\"x\",\"bogus\":1}").is_err());
    }
}
