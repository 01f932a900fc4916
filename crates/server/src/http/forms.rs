//! Reading requests into domain values: players, options, clocks and positions as a client
//! sends them, checked, with the messages the API answers.

use crate::app::App;
use crate::error::ApiError;
use crate::player::Player;
use boardlab_games::GameKind;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Longest move text accepted.
pub const MOVE_LIMIT: usize = 200;

/// Longest position text accepted.
pub const POSITION_LIMIT: usize = 4096;

/// Reads a time control for a game that `alone` says is a puzzle or not.
pub fn clock_of(
    text: Option<&str>,
    alone: bool,
) -> Result<Option<crate::clock::TimeControl>, ApiError> {
    let Some(t) = text else {
        return Ok(None);
    };
    if alone {
        return Err(ApiError::bad_request("a puzzle is played without a clock"));
    }
    t.parse().map(Some).map_err(ApiError::bad_request)
}

/// Refuses a computer player this server does not run for `kind` (`field` names it in the
/// message).
pub fn check_player(
    app: &App,
    kind: GameKind,
    player: &Player,
    field: &str,
) -> Result<(), ApiError> {
    app.computer
        .admits(kind, player)
        .map_err(|e| ApiError::bad_request(format!("{field}: {e}")))
}

/// A game's options from JSON values (strings, numbers or booleans).
pub fn options_of(
    kind: GameKind,
    values: &BTreeMap<String, serde_json::Value>,
) -> Result<boardlab_core::Options, ApiError> {
    let mut pairs = Vec::new();
    for (k, v) in values {
        let value = match v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) => n.to_string(),
            serde_json::Value::Bool(b) => b.to_string(),
            _ => {
                return Err(ApiError::bad_request(format!(
                    "option '{k}' must be a string, number or boolean"
                )))
            }
        };
        pairs.push((k.clone(), value));
    }
    kind.info()
        .options_from_pairs(pairs)
        .map_err(|e| ApiError::bad_request(e.to_string()))
}

/// Refuses position text the game cannot have or that is too long.
pub fn check_position(kind: GameKind, position: Option<&str>) -> Result<(), ApiError> {
    if let Some(p) = position {
        if !kind.info().has_position_text {
            return Err(ApiError::bad_request(format!(
                "{} has no position text",
                kind.name()
            )));
        }
        if p.len() > POSITION_LIMIT {
            return Err(ApiError::bad_request(format!(
                "the position text is longer than {POSITION_LIMIT} characters"
            )));
        }
    }
    Ok(())
}

/// A body with nothing in it (`{}`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Empty {}
