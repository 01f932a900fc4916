//! New games: a game as requested, checked and made ready to store (its row, its summary and
//! its cached form), and a stored game read back.

//! The games service: the cache of live games and every change to a game. A change is checked
//! against the state rebuilt from the game's log, committed, and only then shown and told to
//! the game's watchers; on PostgreSQL each change is checked against the stored version, so
//! servers sharing a database stay in step.

use crate::error::ApiError;
use crate::player::Player;
use crate::state::{Live, Meta, SeatAccount};
use crate::store::{GameRow, GameSummary};
use crate::{now_ms, token};
use boardlab_core::Seat;
use boardlab_games::GameKind;
use std::collections::BTreeMap;

/// A new game as requested.
#[derive(Debug)]
pub struct NewGame {
    pub kind: GameKind,
    pub options: boardlab_core::Options,
    pub seed: u64,
    pub position: Option<String>,
    pub players: [Player; 2],
    pub same_screen: bool,
    /// The digests of the seats' tokens, when the players keep tokens they already hold (a
    /// rematch); `None` makes new tokens.
    pub token_hashes: Option<[Option<crate::token::TokenHash>; 2]>,
    /// The accounts holding the seats from the start (a rematch between accounts, a game
    /// from the lobby).
    pub accounts: [Option<SeatAccount>; 2],
    /// Whether the result counts for ratings.
    pub rated: bool,
    /// The time control, if the game has a clock.
    pub clock: Option<crate::clock::TimeControl>,
}

/// A new game checked and ready to store: its row and summary, its cached form, and the
/// tokens of its human seats.
pub(super) struct Made {
    pub(super) meta: Meta,
    pub(super) live: Live,
    pub(super) row: GameRow,
    pub(super) summary: GameSummary,
    pub(super) tokens: BTreeMap<Seat, String>,
}

impl Made {
    pub(super) fn new(new: NewGame) -> Result<Made, ApiError> {
        let mut tokens = BTreeMap::new();
        let mut hashes = [None, None];
        if let Some(given) = new.token_hashes {
            hashes = given;
        } else {
            let shared = new.same_screen.then(token::new_token);
            for seat in Seat::BOTH {
                if !new.players[seat.index()].is_computer() {
                    let t = shared.clone().unwrap_or_else(token::new_token);
                    hashes[seat.index()] = Some(token::hash(&t));
                    tokens.insert(seat, t);
                }
            }
        }
        let meta = Meta {
            id: token::new_game_id(),
            kind: new.kind,
            options: new.options,
            seed: new.seed,
            position: new.position,
            players: new.players,
            tokens: hashes,
            same_screen: new.same_screen,
            created_ms: now_ms(),
            accounts: new.accounts,
            rated: new.rated,
            clock: new.clock,
        };
        let live = Live::new(&meta).map_err(|e| ApiError::bad_request(e.to_string()))?;
        let row = GameRow {
            id: meta.id.clone(),
            game: meta.kind.name().to_string(),
            options: serde_json::to_string(&meta.options.to_map()).expect("options serialise"),
            seed: meta.seed,
            position: meta.position.clone(),
            first_player: meta.players[0].to_string(),
            second_player: meta.players[1].to_string(),
            first_token: meta.tokens[0].map(|h| token::to_hex(&h)),
            second_token: meta.tokens[1].map(|h| token::to_hex(&h)),
            same_screen: meta.same_screen,
            created_ms: meta.created_ms,
            accounts: meta.accounts.clone().map(|a| a.map(|a| (a.id, a.name))),
            rated: meta.rated,
            clock: meta.clock.map(|c| c.to_string()),
        };
        let summary = summary(&meta, &live);
        Ok(Made {
            meta,
            live,
            row,
            summary,
            tokens,
        })
    }
}

pub(super) fn summary(meta: &Meta, live: &Live) -> GameSummary {
    let result = live.result();
    GameSummary {
        version: live.version,
        status: if live.finished() {
            "finished"
        } else {
            "ongoing"
        },
        termination: result.as_ref().map(|r| r.termination.to_string()),
        result: result.map(|r| r.tag),
        move_count: live.moves.len() as i64,
        to_move: live.to_move(),
        computer_to_move: live.computer_to_move(meta).is_some(),
        updated_ms: live.updated_ms,
        accounts: live.accounts.clone().map(|a| a.map(|a| a.id)),
        winner: live.result().and_then(|r| r.winner),
        deadline_ms: live.deadline(),
    }
}

pub(super) fn meta_from_row(row: &GameRow) -> Result<Meta, String> {
    let kind: GameKind = row.game.parse().map_err(|e| format!("{e}"))?;
    let pairs: BTreeMap<String, String> =
        serde_json::from_str(&row.options).map_err(|e| format!("options: {e}"))?;
    let options = kind
        .info()
        .options_from_pairs(&pairs)
        .map_err(|e| e.to_string())?;
    let player = |t: &str| Player::parse(t);
    let hash = |t: &Option<String>| -> Result<Option<token::TokenHash>, String> {
        t.as_deref()
            .map(|h| token::hash_from_hex(h).ok_or_else(|| "bad token digest".to_string()))
            .transpose()
    };
    Ok(Meta {
        id: row.id.clone(),
        kind,
        options,
        seed: row.seed,
        position: row.position.clone(),
        players: [player(&row.first_player)?, player(&row.second_player)?],
        tokens: [hash(&row.first_token)?, hash(&row.second_token)?],
        same_screen: row.same_screen,
        created_ms: row.created_ms,
        rated: row.rated,
        clock: row
            .clock
            .as_deref()
            .map(str::parse::<crate::clock::TimeControl>)
            .transpose()?,
        accounts: row
            .accounts
            .clone()
            .map(|a| a.map(|(id, name)| SeatAccount { id, name })),
    })
}
