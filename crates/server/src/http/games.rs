//! The games' routes: create, list, act (moves, resignation, draws, take-backs, joins,
//! rematches), records, positions, hints and reviews.

use crate::app::App;
use crate::error::ApiError;
use crate::http::extract::{ClientAddr, GameId, JsonBody, QueryParams};
use crate::http::forms::{check_player, check_position, clock_of, options_of, MOVE_LIMIT};
use crate::http::response::{json_response, state_response};
use crate::http::session::Session;
use crate::player::Player;
use crate::services::games::NewGame;
use crate::services::reviews::ReviewStatus;
use crate::state::Action;
use crate::view;
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use boardlab_games::{AnyGame, GameKind};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    limit: Option<i64>,
    status: Option<String>,
    game: Option<String>,
}

pub async fn list_games(
    State(app): State<Arc<App>>,
    QueryParams(q): QueryParams<ListQuery>,
) -> Result<Response, ApiError> {
    let limit = q.limit.unwrap_or(20);
    if !(1..=100).contains(&limit) {
        return Err(ApiError::bad_request(format!(
            "limit {limit} is out of range; accepted: 1 to 100"
        )));
    }
    if let Some(s) = &q.status {
        if s != "ongoing" && s != "finished" {
            return Err(ApiError::bad_request(format!(
                "unknown status '{s}'; accepted: ongoing, finished"
            )));
        }
    }
    let game = match &q.game {
        Some(g) => Some(
            g.parse::<GameKind>()
                .map_err(|e| ApiError::bad_request(e.to_string()))?
                .name(),
        ),
        None => None,
    };
    let rows = app.games.recent(limit, q.status.as_deref(), game).await?;
    let games: Vec<view::ListedView> = rows.into_iter().map(Into::into).collect();
    Ok(json_response(
        StatusCode::OK,
        serde_json::json!({ "games": games }).to_string(),
    ))
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatsRequest {
    first: Option<String>,
    second: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    game: String,
    #[serde(default)]
    options: BTreeMap<String, serde_json::Value>,
    seed: Option<u64>,
    position: Option<String>,
    #[serde(default)]
    seats: SeatsRequest,
    #[serde(default)]
    same_screen: bool,
    /// A time control: `M+S` or `Nd`.
    clock: Option<String>,
}

pub async fn create_game(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    JsonBody(req): JsonBody<CreateRequest>,
) -> Result<Response, ApiError> {
    app.create_limit.check(client)?;
    let kind: GameKind = req
        .game
        .parse()
        .map_err(|e: boardlab_games::UnknownGame| ApiError::bad_request(e.to_string()))?;
    let options = options_of(kind, &req.options)?;
    check_position(kind, req.position.as_deref())?;
    let player = |seat: &str, text: &Option<String>| -> Result<Player, ApiError> {
        Player::parse(text.as_deref().unwrap_or("human"))
            .map_err(|e| ApiError::bad_request(format!("seats.{seat}: {e}")))
    };
    let players = [
        player("first", &req.seats.first)?,
        player("second", &req.seats.second)?,
    ];
    for (seat, p) in ["first", "second"].iter().zip(&players) {
        check_player(&app, kind, p, &format!("seats.{seat}"))?;
    }
    if req.same_screen && players.iter().any(Player::is_computer) {
        return Err(ApiError::bad_request(
            "same_screen needs two human seats (one person plays both)",
        ));
    }
    let seed = req.seed.unwrap_or_else(rand::random);
    let alone = match &req.position {
        Some(p) => AnyGame::from_position(kind, &options, p),
        None => AnyGame::new(kind, &options, seed),
    }
    .map(|g| g.is_solitaire())
    .unwrap_or(false);
    let clock = clock_of(req.clock.as_deref(), alone)?;
    let (id, tokens, state) = app
        .games
        .create(
            NewGame {
                kind,
                options,
                seed,
                position: req.position,
                players,
                same_screen: req.same_screen,
                token_hashes: None,
                accounts: [None, None],
                rated: false,
                clock,
            },
            &client.to_string(),
        )
        .await?;
    let tokens: BTreeMap<&str, &str> = tokens.iter().map(|(s, t)| (s.name(), t.as_str())).collect();
    let body = format!(
        "{{\"id\":{},\"tokens\":{},\"state\":{}}}",
        serde_json::to_string(&id).expect("string"),
        serde_json::to_string(&tokens).expect("map"),
        state.written(view::state_json),
    );
    let mut r = json_response(StatusCode::CREATED, body);
    if let Ok(v) = HeaderValue::from_str(&format!("/api/games/{id}")) {
        r.headers_mut().insert(header::LOCATION, v);
    }
    Ok(r)
}

/// A position from a start (the set-up of `seed`, or position text) and moves, with its board,
/// legal moves and clicks: nothing is stored.
pub async fn post_position(
    JsonBody(req): JsonBody<boardlab_games::view::PositionRequest>,
) -> Result<Response, ApiError> {
    let view = req.view().map_err(ApiError::bad_request)?;
    Ok(json_response(
        StatusCode::OK,
        serde_json::to_string(&view).expect("serialises"),
    ))
}

pub async fn get_game(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
) -> Result<Response, ApiError> {
    let state = app.games.state(&id).await?;
    Ok(state_response(StatusCode::OK, state))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
    token: Option<String>,
    version: Option<i64>,
}

pub async fn post_move(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    session: Session,
    JsonBody(req): JsonBody<MoveRequest>,
) -> Result<Response, ApiError> {
    if req.text.len() > MOVE_LIMIT {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "malformed_move",
            format!("the move text is longer than {MOVE_LIMIT} characters"),
        ));
    }
    let state = app
        .games
        .act(
            &id,
            &session.actor(req.token),
            Action::Move,
            &req.text,
            req.version,
        )
        .await?;
    Ok(state_response(StatusCode::OK, state))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResignRequest {
    token: Option<String>,
    version: Option<i64>,
}

pub async fn post_resign(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    session: Session,
    JsonBody(req): JsonBody<ResignRequest>,
) -> Result<Response, ApiError> {
    let state = app
        .games
        .act(
            &id,
            &session.actor(req.token),
            Action::Resign,
            "",
            req.version,
        )
        .await?;
    Ok(state_response(StatusCode::OK, state))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OfferRequest {
    token: Option<String>,
    action: String,
    version: Option<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RematchRequest {
    token: Option<String>,
    action: String,
    version: Option<i64>,
    /// With `offer`: a rated game (both players signed in); the acceptance takes the offer's
    /// choice.
    #[serde(default)]
    rated: bool,
}

/// The action a word of an offer's answer names: `words` pairs each accepted word with its
/// action; `what` names the offer in the refusal.
fn answer_of(word: &str, what: &str, words: [(&str, Action); 3]) -> Result<Action, ApiError> {
    words
        .iter()
        .find(|(w, _)| *w == word)
        .map(|&(_, a)| a)
        .ok_or_else(|| {
            let accepted: Vec<&str> = words.iter().map(|(w, _)| *w).collect();
            ApiError::bad_request(format!(
                "unknown {what} action '{word}'; accepted: {}",
                accepted.join(", ")
            ))
        })
}

/// Answers `req` in game `id` as `action`.
async fn act_on_offer(
    app: &App,
    id: &str,
    session: Session,
    req: OfferRequest,
    action: Action,
) -> Result<Response, ApiError> {
    let state = app
        .games
        .act(id, &session.actor(req.token), action, "", req.version)
        .await?;
    Ok(state_response(StatusCode::OK, state))
}

pub async fn post_draw(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    session: Session,
    JsonBody(req): JsonBody<OfferRequest>,
) -> Result<Response, ApiError> {
    let words = [
        ("offer", Action::DrawOffer),
        ("accept", Action::DrawAccept),
        ("decline", Action::DrawDecline),
    ];
    let action = answer_of(&req.action, "draw", words)?;
    act_on_offer(&app, &id, session, req, action).await
}

pub async fn post_rematch(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    GameId(id): GameId,
    session: Session,
    JsonBody(req): JsonBody<RematchRequest>,
) -> Result<Response, ApiError> {
    if req.action != "decline" {
        // Agreeing to a rematch makes a game.
        app.create_limit.check(client)?;
    }
    let words = [
        ("offer", Action::RematchOffer),
        ("accept", Action::RematchAccept),
        ("decline", Action::RematchDecline),
    ];
    let action = answer_of(&req.action, "rematch", words)?;
    let state = app
        .games
        .rematch(
            &id,
            session.actor(req.token),
            (action, req.rated),
            req.version,
            &client.to_string(),
        )
        .await?;
    Ok(state_response(StatusCode::OK, state))
}

pub async fn post_undo(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    session: Session,
    JsonBody(req): JsonBody<OfferRequest>,
) -> Result<Response, ApiError> {
    let words = [
        ("request", Action::UndoRequest),
        ("accept", Action::UndoAccept),
        ("decline", Action::UndoDecline),
    ];
    let action = answer_of(&req.action, "undo", words)?;
    act_on_offer(&app, &id, session, req, action).await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    token: Option<String>,
    /// The seat's new token, proposed by the client (32 lower-case hex digits); the server
    /// makes one when none is given.
    new_token: Option<String>,
}

/// Opens an invite link: the link's token is exchanged for a fresh one, once.
pub async fn post_join(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    JsonBody(req): JsonBody<JoinRequest>,
) -> Result<Response, ApiError> {
    // The client may propose the seat's new token, so that a join whose answer was lost can
    // be sent again and succeed: the seat is then already its.
    let fresh = match req.new_token {
        Some(t)
            if t.len() == 32
                && t.bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) =>
        {
            Some(t)
        }
        Some(_) => {
            return Err(ApiError::bad_request(
                "new_token is 32 lower-case hex digits (128 random bits)",
            ))
        }
        None => None,
    };
    let (seat, fresh, state) = app.games.join(&id, req.token, fresh).await?;
    Ok(json_response(
        StatusCode::OK,
        format!(
            "{{\"seat\":\"{seat}\",\"token\":\"{fresh}\",\"state\":{}}}",
            state.written(view::state_json)
        ),
    ))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordQuery {
    format: Option<String>,
}

pub async fn get_record(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    QueryParams(q): QueryParams<RecordQuery>,
) -> Result<Response, ApiError> {
    let format = q.format.unwrap_or_else(|| "json".into());
    if format != "json" && format != "pgn" {
        return Err(ApiError::bad_request(format!(
            "unknown record format '{format}'; accepted: json, pgn"
        )));
    }
    let record = app
        .games
        .with_entry(&id, |e| e.live.record(&e.meta))
        .await?;
    Ok(if format == "json" {
        json_response(StatusCode::OK, record.to_json())
    } else {
        (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            )],
            record.to_text(),
        )
            .into_response()
    })
}

pub async fn get_at(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    Path(params): Path<BTreeMap<String, String>>,
) -> Result<Response, ApiError> {
    let text = params.get("ply").map_or("", String::as_str);
    let ply: usize = text.parse().map_err(|_| {
        ApiError::bad_request(format!("ply '{text}' is not a whole number of moves"))
    })?;
    let at = app
        .games
        .with_entry(&id, |e| -> Result<view::At, ApiError> {
            let game = e.live.position_at(ply).map_err(ApiError::bad_request)?;
            let over = game.outcome().is_some() || (ply == e.live.moves.len() && e.live.finished());
            let to_move = (!over).then(|| {
                let seat = game.to_move();
                view::Turn {
                    seat,
                    colour: game.colour_to_move(),
                    computer: e.meta.player(seat).is_computer(),
                }
            });
            Ok(view::At {
                ply,
                position: game.position_text(),
                board: game.board(),
                diagram: game.diagram(),
                to_move,
                last_move: ply.checked_sub(1).map(|i| e.live.moves[i].text.clone()),
                last_cells: ply
                    .checked_sub(1)
                    .map_or_else(Vec::new, |i| e.live.moves[i].cells.clone()),
                legal_moves: if over { Vec::new() } else { game.legal_moves() },
            })
        })
        .await??;
    Ok(json_response(
        StatusCode::OK,
        serde_json::to_string(&at).expect("serialises"),
    ))
}

pub async fn get_hint(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    GameId(id): GameId,
) -> Result<Response, ApiError> {
    app.hint_limit.check(client)?;
    let hint = app.computer.hint(&id, &client.to_string()).await?;
    Ok(json_response(
        StatusCode::OK,
        serde_json::to_string(&hint).expect("serialises"),
    ))
}

pub async fn post_review(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    GameId(id): GameId,
    JsonBody(_): JsonBody<crate::http::forms::Empty>,
) -> Result<Response, ApiError> {
    app.hint_limit.check(client)?;
    let review = app.reviews.start_review(&id, &client.to_string()).await?;
    let running = matches!(review, ReviewStatus::Running { .. });
    let status = if running {
        StatusCode::ACCEPTED
    } else {
        StatusCode::OK
    };
    let mut r = json_response(status, view::review_status_json(&review));
    if running {
        if let Ok(v) = HeaderValue::from_str(&format!("/api/games/{id}/review")) {
            r.headers_mut().insert(header::LOCATION, v);
        }
    }
    Ok(r)
}

pub async fn get_review(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
) -> Result<Response, ApiError> {
    let review = app.reviews.get_review(&id).await?;
    Ok(json_response(
        StatusCode::OK,
        view::review_status_json(&review),
    ))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    /// The record, in its text or JSON form.
    record: String,
}

pub async fn post_reviews(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    JsonBody(req): JsonBody<ReviewRequest>,
) -> Result<Response, ApiError> {
    app.hint_limit.check(client)?;
    Ok(json_response(
        StatusCode::OK,
        app.reviews
            .review_upload(&req.record, &client.to_string())
            .await?,
    ))
}
