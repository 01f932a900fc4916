//! Reading requests into domain values: players, options, clocks and positions as a client
//! sends them, checked, with the messages the API answers.

use crate::app::App;
use crate::error::ApiError;
use crate::player::Player;
use boardlab_games::GameKind;
use serde::Deserialize;
use std::collections::BTreeMap;

pub use boardlab_games::view::{MOVE_LIMIT, POSITION_LIMIT};

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
    boardlab_games::view::options_from_json(kind, values).map_err(ApiError::bad_request)
}

/// Refuses position text the game cannot have or that is too long.
pub fn check_position(kind: GameKind, position: Option<&str>) -> Result<(), ApiError> {
    boardlab_games::view::check_position(kind, position).map_err(ApiError::bad_request)
}

/// A body with nothing in it (`{}`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Empty {}
