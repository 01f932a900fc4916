//! Game records: JSON for programs, and a PGN-like text form for files.
//!
//! The text form is a block of `[Tag "value"]` headers, a blank line, then one move per line
//! as `N. MOVE` (N counts moves from 1; one move per line because some moves contain spaces).
//! Lines starting with `#` are comments. A move may carry a note after ` ; `: the value of the
//! position it leads to as `[%value …]` ([`RecordValue`]) and a comment (the rest of the line).
//! Example:
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
//! 2. c7+c8 ; [%value second 0.250] Mistake (?). Best: a1.
//! ```
//!
//! Loading replays every move through the rules and reports the first bad one.

use crate::game::{Game, MoveError, NewGameError};
use crate::options::{OptionError, Options};
use crate::player::{Outcome, Proven, Seat, Wdl};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use std::str::FromStr;
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
    /// Notes on single moves (a value, a comment), in the order of their moves, at most one
    /// per move. Records written before notes existed have none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<MoveNote>,
}

/// A note on one move of a record: the value of the position the move leads to, a comment,
/// or both.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveNote {
    /// The move's number, counted from 1 like the record's moves.
    #[serde(rename = "move")]
    pub number: usize,
    /// The value of the position after the move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<RecordValue>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// A position's value as a record keeps it, always stated for a named seat: an expected score
/// (0 a loss, ½ a draw, 1 a win; kept to three decimals) or a result proven by exact search.
///
/// Its text (in the text form's `[%value …]` and from [`fmt::Display`]/[`FromStr`]) is the seat
/// followed by the score or the result: `first 0.620`, `second win in 13` (plies to the end),
/// `first loss`, `second draw`. In JSON it is an object:
/// `{"seat": "first", "score": 0.62}` or `{"seat": "second", "result": "win", "plies": 13}`.
///
/// ```
/// use boardlab_core::record::RecordValue;
/// use boardlab_core::{Proven, Seat};
///
/// let v: RecordValue = "second win in 13".parse().unwrap();
/// assert_eq!(v, RecordValue::Proven(Proven::win_in(Seat::Second, 13)));
/// assert_eq!(RecordValue::score(Seat::First, 0.62).to_string(), "first 0.620");
/// assert_eq!(RecordValue::score(Seat::First, 0.62).for_seat(Seat::Second).to_string(), "second 0.380");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "ValueRepr", into = "ValueRepr")]
pub enum RecordValue {
    /// The expected score of `seat`, in thousandths (0 to 1000).
    Score { seat: Seat, thousandths: u16 },
    /// A proven result.
    Proven(Proven),
}

impl RecordValue {
    /// The expected score `score` (clamped to 0..1, rounded to three decimals) of `seat`.
    #[must_use]
    pub fn score(seat: Seat, score: f64) -> RecordValue {
        let s = if score.is_nan() { 0.5 } else { score };
        RecordValue::Score {
            seat,
            thousandths: (s.clamp(0.0, 1.0) * 1000.0).round() as u16,
        }
    }

    /// The seat the value is stated for.
    #[must_use]
    pub fn seat(self) -> Seat {
        match self {
            RecordValue::Score { seat, .. } => seat,
            RecordValue::Proven(p) => p.seat,
        }
    }

    /// The expected score of [`RecordValue::seat`], from 0 to 1.
    #[must_use]
    pub fn expected(self) -> f64 {
        match self {
            RecordValue::Score { thousandths, .. } => f64::from(thousandths) / 1000.0,
            RecordValue::Proven(p) => p.score(),
        }
    }

    /// The same value seen by `seat`.
    #[must_use]
    pub fn for_seat(self, seat: Seat) -> RecordValue {
        match self {
            RecordValue::Score { seat: s, .. } if s == seat => self,
            RecordValue::Score { thousandths, .. } => RecordValue::Score {
                seat,
                thousandths: 1000 - thousandths,
            },
            RecordValue::Proven(p) => RecordValue::Proven(p.for_seat(seat)),
        }
    }
}

impl fmt::Display for RecordValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RecordValue::Score { seat, thousandths } => {
                write!(f, "{seat} {}.{:03}", thousandths / 1000, thousandths % 1000)
            }
            RecordValue::Proven(p) => {
                let word = match p.result {
                    Wdl::Win => "win",
                    Wdl::Loss => "loss",
                    Wdl::Draw => "draw",
                };
                write!(f, "{} {word}", p.seat)?;
                match p.plies {
                    Some(n) if p.result != Wdl::Draw => write!(f, " in {n}"),
                    _ => Ok(()),
                }
            }
        }
    }
}

/// The accepted forms of a [`RecordValue`], for error messages.
const VALUE_FORMS: &str =
    "SEAT SCORE (first 0.620), SEAT win|loss [in N] (second win in 13), SEAT draw";

impl FromStr for RecordValue {
    type Err = String;

    fn from_str(text: &str) -> Result<RecordValue, String> {
        let bad = |why: &str| format!("bad value '{text}': {why}; accepted: {VALUE_FORMS}");
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some((&seat, rest)) = words.split_first() else {
            return Err(bad("empty"));
        };
        let seat: Seat = seat.parse().map_err(|e: String| bad(&e))?;
        let plies = |rest: &[&str]| -> Result<Option<u32>, String> {
            match rest {
                [] => Ok(None),
                ["in", n] => n
                    .parse()
                    .map(Some)
                    .map_err(|_| bad(&format!("'{n}' is not a number of plies"))),
                _ => Err(bad("a result is followed by nothing or 'in N'")),
            }
        };
        match rest {
            [w, more @ ..] if w.eq_ignore_ascii_case("win") => Ok(RecordValue::Proven(Proven {
                seat,
                result: Wdl::Win,
                plies: plies(more)?,
            })),
            [w, more @ ..] if w.eq_ignore_ascii_case("loss") => Ok(RecordValue::Proven(Proven {
                seat,
                result: Wdl::Loss,
                plies: plies(more)?,
            })),
            [w] if w.eq_ignore_ascii_case("draw") => Ok(RecordValue::Proven(Proven::draw(seat))),
            [score] => match score.parse::<f64>() {
                Ok(s) if (0.0..=1.0).contains(&s) => Ok(RecordValue::score(seat, s)),
                _ => Err(bad(&format!("'{score}' is not a score from 0 to 1"))),
            },
            _ => Err(bad("expected a score or a result after the seat")),
        }
    }
}

/// The JSON shape of a [`RecordValue`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ValueRepr {
    seat: Seat,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    result: Option<Wdl>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    plies: Option<u32>,
}

impl From<RecordValue> for ValueRepr {
    fn from(v: RecordValue) -> ValueRepr {
        match v {
            RecordValue::Score { seat, thousandths } => ValueRepr {
                seat,
                score: Some(f64::from(thousandths) / 1000.0),
                result: None,
                plies: None,
            },
            RecordValue::Proven(p) => ValueRepr {
                seat: p.seat,
                score: None,
                result: Some(p.result),
                plies: p.plies,
            },
        }
    }
}

impl TryFrom<ValueRepr> for RecordValue {
    type Error = String;

    fn try_from(r: ValueRepr) -> Result<RecordValue, String> {
        match (r.score, r.result) {
            (Some(s), None) if r.plies.is_none() && (0.0..=1.0).contains(&s) => {
                Ok(RecordValue::score(r.seat, s))
            }
            (Some(s), None) if r.plies.is_none() => {
                Err(format!("a value's score must be from 0 to 1, not {s}"))
            }
            (None, Some(result)) => Ok(RecordValue::Proven(Proven {
                seat: r.seat,
                result,
                plies: r.plies,
            })),
            _ => Err("a value has either a score or a result (with optional plies)".into()),
        }
    }
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
    #[error("note {index}: {message}")]
    Note { index: usize, message: String },
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

    /// The note on move `number` (counted from 1), if any.
    #[must_use]
    pub fn note(&self, number: usize) -> Option<&MoveNote> {
        self.notes
            .binary_search_by_key(&number, |n| n.number)
            .ok()
            .map(|i| &self.notes[i])
    }

    /// Sets the note on move `note.number`, replacing any there; a note without a value or a
    /// comment removes it.
    pub fn set_note(&mut self, note: MoveNote) {
        let at = self.notes.binary_search_by_key(&note.number, |n| n.number);
        let empty = note.value.is_none() && note.comment.is_none();
        match (at, empty) {
            (Ok(i), true) => {
                self.notes.remove(i);
            }
            (Ok(i), false) => self.notes[i] = note,
            (Err(_), true) => {}
            (Err(i), false) => self.notes.insert(i, note),
        }
    }

    /// Checks that the notes belong to moves of the record, in order, one per move.
    ///
    /// # Errors
    /// The first note out of place.
    pub fn check_notes(&self) -> Result<(), RecordError> {
        let mut last = 0;
        for (i, n) in self.notes.iter().enumerate() {
            let message = if n.number == 0 || n.number > self.moves.len() {
                format!(
                    "is for move {}, but the record has moves 1 to {}",
                    n.number,
                    self.moves.len()
                )
            } else if n.number <= last {
                format!(
                    "is for move {} after a note for move {last}; notes go in the order of their moves, one per move",
                    n.number
                )
            } else {
                last = n.number;
                continue;
            };
            return Err(RecordError::Note {
                index: i + 1,
                message,
            });
        }
        Ok(())
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

    /// The game as it was before the first move: the set-up of the record's seed, or its
    /// starting position.
    ///
    /// # Errors
    /// A record of another game, bad options or a bad position.
    pub fn start<G: Game>(&self) -> Result<G, RecordError> {
        if !self.game.eq_ignore_ascii_case(G::info().name) {
            return Err(RecordError::WrongGame {
                expected: G::info().name.to_string(),
                found: self.game.clone(),
            });
        }
        let options = self.options_for::<G>()?;
        Ok(match &self.position {
            Some(p) => G::from_position(&options, p)?,
            None => G::new(&options, self.seed)?,
        })
    }

    /// Replays the record: the final game and every move played.
    ///
    /// # Errors
    /// A record of another game, bad options or position, the first bad move with its number,
    /// or a result tag that contradicts the moves.
    pub fn replay<G: Game>(&self) -> Result<(G, Vec<G::Move>), RecordError> {
        let mut game = self.start::<G>()?;
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
    /// Invalid JSON, unknown fields, or notes out of place.
    pub fn from_json(text: &str) -> Result<GameRecord, RecordError> {
        let r: GameRecord = serde_json::from_str(text)?;
        r.check_notes()?;
        Ok(r)
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
        let mut notes = self.notes.iter().peekable();
        for (i, m) in self.moves.iter().enumerate() {
            let _ = write!(s, "{}. {m}", i + 1);
            if let Some(n) = notes.next_if(|n| n.number == i + 1) {
                s.push_str(" ;");
                if let Some(v) = n.value {
                    let _ = write!(s, " [%value {v}]");
                }
                if let Some(c) = &n.comment {
                    let _ = write!(s, " {}", escape_comment(c));
                }
            }
            s.push('\n');
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
            let (mv, note) = match mv.split_once(';') {
                Some((mv, note)) => (mv, Some(note)),
                None => (mv, None),
            };
            let mv = mv.trim();
            if mv.is_empty() {
                return Err(syntax(format!("move {num} is empty")));
            }
            r.moves.push(mv.to_string());
            if let Some(note) = note {
                let note = parse_note(num, note).map_err(syntax)?;
                r.set_note(note);
            }
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

/// A move's note in the text form (what follows the `;`): `[%value …]` and a comment.
fn parse_note(number: usize, text: &str) -> Result<MoveNote, String> {
    let mut rest = text.trim();
    let mut value = None;
    if let Some(inner) = rest.strip_prefix("[%") {
        let (body, after) = inner
            .split_once(']')
            .ok_or_else(|| format!("move {number}: '[%' without a closing ']'"))?;
        let v = body
            .strip_prefix("value")
            .filter(|v| v.starts_with(char::is_whitespace))
            .ok_or_else(|| {
                format!("move {number}: unknown annotation '[%{body}]'; accepted: [%value …]")
            })?;
        value = Some(
            v.trim()
                .parse::<RecordValue>()
                .map_err(|e| format!("move {number}: {e}"))?,
        );
        rest = after.trim();
    }
    Ok(MoveNote {
        number,
        value,
        comment: (!rest.is_empty()).then(|| unescape_comment(rest)),
    })
}

/// A comment on one line: `\\` for a backslash, `\n` for a line break, and `\[` for a
/// leading `[` (which would otherwise open an annotation).
fn escape_comment(c: &str) -> String {
    let mut out = String::with_capacity(c.len());
    if c.starts_with('[') {
        out.push('\\');
    }
    for ch in c.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => {}
            _ => out.push(ch),
        }
    }
    out
}

fn unescape_comment(c: &str) -> String {
    let mut out = String::with_capacity(c.len());
    let mut chars = c.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            },
            _ => out.push(ch),
        }
    }
    out
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
            notes: Vec::new(),
        }
    }

    fn annotated() -> GameRecord {
        let mut r = sample();
        r.set_note(MoveNote {
            number: 2,
            value: Some(RecordValue::Proven(Proven::win_in(Seat::Second, 13))),
            comment: Some("Blunder (??): throws the win away; a \\ b;\nnext [x]".into()),
        });
        r.set_note(MoveNote {
            number: 1,
            value: Some(RecordValue::score(Seat::First, 0.4567)),
            comment: None,
        });
        r
    }

    #[test]
    fn text_and_json_round_trip() {
        let r = sample();
        assert_eq!(GameRecord::parse(&r.to_text()).unwrap(), r);
        assert_eq!(GameRecord::parse(&r.to_json()).unwrap(), r);
    }

    #[test]
    fn notes_round_trip_in_both_forms() {
        let r = annotated();
        assert_eq!(r.notes.len(), 2);
        assert_eq!(r.notes[0].number, 1, "notes stay in move order");
        let text = r.to_text();
        assert!(text.contains("\n1. b2 ; [%value first 0.457]\n"), "{text}");
        assert!(
            text.contains("2. swap a1 c3 ; [%value second win in 13] Blunder (??): throws the win away; a \\\\ b;\\nnext [x]\n"),
            "{text}"
        );
        assert_eq!(GameRecord::parse(&text).unwrap(), r);
        let json = r.to_json();
        assert!(json.contains("\"result\": \"win\""), "{json}");
        assert_eq!(GameRecord::parse(&json).unwrap(), r);
        // A comment alone, and one that starts with a bracket.
        let mut c = sample();
        c.set_note(MoveNote {
            number: 1,
            value: None,
            comment: Some("[not an annotation]".into()),
        });
        assert!(c.to_text().contains("1. b2 ; \\[not an annotation]\n"));
        assert_eq!(GameRecord::parse(&c.to_text()).unwrap(), c);
        // An empty note removes the note.
        c.set_note(MoveNote {
            number: 1,
            ..MoveNote::default()
        });
        assert_eq!(c, sample());
    }

    #[test]
    fn values_read_every_form_and_refuse_the_rest() {
        for (text, canonical) in [
            ("first 0.62", "first 0.620"),
            ("second 1", "second 1.000"),
            ("FIRST win in 7", "first win in 7"),
            ("second loss", "second loss"),
            ("first draw", "first draw"),
        ] {
            let v: RecordValue = text.parse().unwrap();
            assert_eq!(v.to_string(), canonical);
            assert_eq!(canonical.parse::<RecordValue>().unwrap(), v);
        }
        for bad in [
            "",
            "third 0.5",
            "first 1.5",
            "first win in x",
            "first wins",
            "first 0.5 x",
        ] {
            let e = bad.parse::<RecordValue>().unwrap_err();
            assert!(e.contains("accepted"), "{bad}: {e}");
        }
        let e = GameRecord::from_text("[Game \"x\"]\n1. a ; [%value first 2]\n").unwrap_err();
        assert!(
            e.to_string().starts_with("line 2: move 1: bad value"),
            "{e}"
        );
        let e = GameRecord::from_text("[Game \"x\"]\n1. a ; [%eval 0.3]\n").unwrap_err();
        assert!(
            e.to_string().contains("unknown annotation '[%eval 0.3]'"),
            "{e}"
        );
        let e = GameRecord::from_json(
            r#"{"game":"x","moves":["a"],"notes":[{"move":1,"value":{"seat":"first","score":0.5,"result":"win"}}]}"#,
        )
        .unwrap_err();
        assert!(e.to_string().contains("either a score or a result"), "{e}");
    }

    #[test]
    fn json_notes_must_follow_their_moves() {
        let e = GameRecord::from_json(
            r#"{"game":"x","moves":["a"],"notes":[{"move":2,"comment":"c"}]}"#,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "note 1: is for move 2, but the record has moves 1 to 1"
        );
        let e = GameRecord::from_json(
            r#"{"game":"x","moves":["a","b"],"notes":[{"move":2,"comment":"c"},{"move":1,"comment":"d"}]}"#,
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("note 2: is for move 1 after a note for move 2"),
            "{e}"
        );
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
