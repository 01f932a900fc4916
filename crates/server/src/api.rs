//! The HTTP routes. Handlers only read and check input and shape output; [`App`] does the
//! work. Every body is read by [`JsonBody`], which answers malformed JSON, wrong types,
//! unknown fields and oversized bodies with a clear 4xx.

use crate::accounts::{self, Session};
use crate::app::App;
use crate::error::ApiError;
use crate::extract::{ClientAddr, GameId, JsonBody, QueryParams};
use crate::player::Player;
use crate::services::games::{Actor, NewGame};
use crate::state::Action;
use crate::{live, lobby, view, web};
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::Router;
use boardlab_games::{AnyGame, GameKind};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Largest request body accepted, in bytes.
pub const BODY_LIMIT: usize = 64 * 1024;

/// Longest move text accepted.
const MOVE_LIMIT: usize = 200;

/// Longest position text accepted.
const POSITION_LIMIT: usize = 4096;

/// The OpenAPI document served at `/api/openapi.json`.
pub const OPENAPI: &str = include_str!("openapi.json");

/// The API reference served at `/api/docs`.
pub const API_DOCS: &str = include_str!("../../../docs/api.md");

/// A route: method, path and handler.
type Route = (&'static str, &'static str, MethodRouter<Arc<App>>);

/// Every route of the API, in the order the OpenAPI document lists them. The router, the
/// OpenAPI check and the docs check all read this one table.
fn table() -> Vec<Route> {
    vec![
        ("get", "/api/catalog", get(catalog)),
        ("get", "/api/games", get(list_games)),
        ("post", "/api/games", post(create_game)),
        ("get", "/api/games/{id}", get(get_game)),
        ("post", "/api/games/{id}/moves", post(post_move)),
        ("post", "/api/games/{id}/resign", post(post_resign)),
        ("post", "/api/games/{id}/draw", post(post_draw)),
        ("post", "/api/games/{id}/undo", post(post_undo)),
        ("post", "/api/games/{id}/join", post(post_join)),
        ("post", "/api/games/{id}/rematch", post(post_rematch)),
        ("get", "/api/games/{id}/record", get(get_record)),
        ("get", "/api/games/{id}/at/{ply}", get(get_at)),
        ("get", "/api/games/{id}/hint", get(get_hint)),
        ("post", "/api/games/{id}/review", post(post_review)),
        ("get", "/api/games/{id}/review", get(get_review)),
        ("post", "/api/reviews", post(post_reviews)),
        ("get", "/api/analysis", get(crate::analysis::analysis)),
        ("post", "/api/positions", post(post_position)),
        ("get", "/api/rules/{game}", get(get_rules)),
        ("get", "/api/findings/{page}", get(get_findings)),
        ("get", "/api/tutorials/{game}", get(get_tutorial)),
        ("get", "/api/puzzles", get(list_puzzles)),
        ("get", "/api/puzzles/{id}", get(get_puzzle)),
        ("post", "/api/puzzles/{id}/moves", post(post_puzzle_move)),
        ("post", "/api/puzzles/{id}/hint", post(post_puzzle_hint)),
        ("post", "/api/games/{id}/claim", post(accounts::claim)),
        ("post", "/api/account/signup", post(accounts::signup)),
        ("post", "/api/account/login", post(accounts::login)),
        ("post", "/api/account/logout", post(accounts::logout)),
        (
            "post",
            "/api/account/logout-everywhere",
            post(accounts::logout_everywhere),
        ),
        ("get", "/api/account", get(accounts::me)),
        ("get", "/api/account/games", get(accounts::my_games)),
        ("get", "/api/account/live", get(accounts::live)),
        ("get", "/api/players/{name}", get(accounts::player)),
        ("get", "/api/lobby", get(lobby::list)),
        ("post", "/api/lobby", post(lobby::post)),
        ("post", "/api/lobby/{id}/accept", post(lobby::accept)),
        ("post", "/api/lobby/{id}/cancel", post(lobby::cancel)),
        ("get", "/api/lobby/live", get(lobby::live)),
        ("get", "/api/ratings/{game}", get(lobby::leaderboard)),
        ("get", "/api/games/{id}/live", get(live::websocket)),
        ("get", "/api/games/{id}/events", get(live::sse)),
        ("get", "/api/openapi.json", get(openapi)),
        ("get", "/api/docs", get(api_docs)),
        ("get", "/api/health", get(health)),
    ]
}

/// Every route as (method, path).
#[must_use]
pub fn routes() -> Vec<(&'static str, &'static str)> {
    table().into_iter().map(|(m, p, _)| (m, p)).collect()
}

/// The router: API under `/api`, the web UI everywhere else.
pub fn router(app: Arc<App>) -> Router {
    let mut api = Router::new();
    for (_, path, handler) in table() {
        api = api.route(path, handler);
    }
    let api = api
        .route("/api", get(api_not_found))
        .route("/api/{*rest}", get(api_not_found).post(api_not_found))
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::map_response(no_store));
    api.fallback(web::serve).with_state(app)
}

async fn no_store(mut r: Response) -> Response {
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

async fn api_not_found() -> ApiError {
    ApiError::not_found("no such API route; see /api/openapi.json or /api/docs")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this method is not allowed here; see /api/openapi.json",
    )
}

pub(crate) fn json_response(status: StatusCode, body: String) -> Response {
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

async fn health(State(app): State<Arc<App>>) -> Response {
    let answered = tokio::time::timeout(std::time::Duration::from_secs(2), app.store.ping()).await;
    let (status, word) = match answered {
        Ok(Ok(())) => (StatusCode::OK, "ok"),
        Ok(Err(e)) => {
            tracing::warn!("health check: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, "storage")
        }
        Err(_) => (StatusCode::SERVICE_UNAVAILABLE, "storage"),
    };
    json_response(
        status,
        serde_json::json!({ "status": word, "store": app.store.description() }).to_string(),
    )
}

async fn catalog() -> Response {
    let c = view::Catalog {
        games: GameKind::all()
            .iter()
            .map(|k| view::CatalogGame {
                info: k.info(),
                legend: k.legend(),
            })
            .collect(),
        players: crate::player::ACCEPTED,
        levels: view::Levels {
            min: 1,
            max: boardlab_ai::spec::MAX_LEVEL,
            default: crate::bot::DEFAULT_LEVEL,
        },
    };
    json_response(
        StatusCode::OK,
        serde_json::to_string(&c).expect("catalog serialises"),
    )
}

async fn openapi() -> Response {
    json_response(StatusCode::OK, OPENAPI.to_string())
}

async fn api_docs() -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/markdown; charset=utf-8"),
        )],
        API_DOCS,
    )
        .into_response()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    limit: Option<i64>,
    status: Option<String>,
    game: Option<String>,
}

async fn list_games(
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
    let rows = app
        .store
        .recent(limit, q.status.as_deref(), game)
        .await
        .map_err(ApiError::storage)?;
    let games: Vec<view::ListedView> = rows.into_iter().map(Into::into).collect();
    Ok(json_response(
        StatusCode::OK,
        serde_json::json!({ "games": games }).to_string(),
    ))
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeatsRequest {
    first: Option<String>,
    second: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
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

/// Reads a time control for a game that `alone` says is a puzzle or not.
pub(crate) fn clock_of(
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

async fn create_game(
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
        "{{\"id\":{},\"tokens\":{},\"state\":{state}}}",
        serde_json::to_string(&id).expect("string"),
        serde_json::to_string(&tokens).expect("map"),
    );
    let mut r = json_response(StatusCode::CREATED, body);
    if let Ok(v) = HeaderValue::from_str(&format!("/api/games/{id}")) {
        r.headers_mut().insert(header::LOCATION, v);
    }
    Ok(r)
}

/// Refuses a computer player this server does not run for `kind` (`field` names it in the
/// message).
pub(crate) fn check_player(
    app: &App,
    kind: GameKind,
    player: &Player,
    field: &str,
) -> Result<(), ApiError> {
    if let Player::Computer(bot) = player {
        bot.check_engine(&app.settings.engines)
            .and_then(|()| bot.check_game(kind))
            .and_then(|()| bot.check_limits(kind, &app.settings.computer))
            .map_err(|e| ApiError::bad_request(format!("{field}: {e}")))?;
    }
    Ok(())
}

/// A game's options from JSON values (strings, numbers or booleans).
pub(crate) fn options_of(
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
fn check_position(kind: GameKind, position: Option<&str>) -> Result<(), ApiError> {
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

/// Most moves `POST /api/positions` plays from its start.
const POSITION_MOVES_LIMIT: usize = 1000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionRequest {
    game: String,
    #[serde(default)]
    options: BTreeMap<String, serde_json::Value>,
    seed: Option<u64>,
    position: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
}

/// A position from a start (the set-up of `seed`, or position text) and moves, with its board,
/// legal moves and clicks: nothing is stored.
async fn post_position(JsonBody(req): JsonBody<PositionRequest>) -> Result<Response, ApiError> {
    let kind: GameKind = req
        .game
        .parse()
        .map_err(|e: boardlab_games::UnknownGame| ApiError::bad_request(e.to_string()))?;
    let options = options_of(kind, &req.options)?;
    check_position(kind, req.position.as_deref())?;
    if req.moves.len() > POSITION_MOVES_LIMIT {
        return Err(ApiError::bad_request(format!(
            "more than {POSITION_MOVES_LIMIT} moves"
        )));
    }
    let mut game = match &req.position {
        Some(text) => AnyGame::from_position(kind, &options, text),
        None => AnyGame::new(kind, &options, req.seed.unwrap_or(0)),
    }
    .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let mut moves = Vec::with_capacity(req.moves.len());
    let mut last_cells = Vec::new();
    for (i, text) in req.moves.iter().enumerate() {
        let bad = |why: String| {
            ApiError::bad_request(format!("move {} '{}': {why}", i + 1, shorten(text)))
        };
        if text.len() > MOVE_LIMIT {
            return Err(bad(format!("longer than {MOVE_LIMIT} characters")));
        }
        if game.outcome().is_some() {
            return Err(bad("the game is already over".into()));
        }
        let played = game.play_text(text).map_err(|e| bad(e.to_string()))?;
        moves.push(played.notation);
        last_cells = played.touched;
    }
    let view = view::position(&game, moves, last_cells);
    Ok(json_response(
        StatusCode::OK,
        serde_json::to_string(&view).expect("serialises"),
    ))
}

/// At most 40 characters of `text`, for error messages.
pub(crate) fn shorten(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

async fn get_game(State(app): State<Arc<App>>, GameId(id): GameId) -> Result<Response, ApiError> {
    Ok(json_response(
        StatusCode::OK,
        app.games.state_json(&id).await?,
    ))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
    token: Option<String>,
    version: Option<i64>,
}

async fn post_move(
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
        .act(
            &id,
            &session.actor(req.token),
            Action::Move,
            &req.text,
            req.version,
        )
        .await?;
    Ok(json_response(StatusCode::OK, state))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ResignRequest {
    token: Option<String>,
    version: Option<i64>,
}

async fn post_resign(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    session: Session,
    JsonBody(req): JsonBody<ResignRequest>,
) -> Result<Response, ApiError> {
    let state = app
        .act(
            &id,
            &session.actor(req.token),
            Action::Resign,
            "",
            req.version,
        )
        .await?;
    Ok(json_response(StatusCode::OK, state))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OfferRequest {
    token: Option<String>,
    action: String,
    version: Option<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RematchRequest {
    token: Option<String>,
    action: String,
    version: Option<i64>,
    /// With `offer`: a rated game (both players signed in); the acceptance takes the offer's
    /// choice.
    #[serde(default)]
    rated: bool,
}

async fn post_draw(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    session: Session,
    JsonBody(req): JsonBody<OfferRequest>,
) -> Result<Response, ApiError> {
    let action = match req.action.as_str() {
        "offer" => Action::DrawOffer,
        "accept" => Action::DrawAccept,
        "decline" => Action::DrawDecline,
        other => {
            return Err(ApiError::bad_request(format!(
                "unknown draw action '{other}'; accepted: offer, accept, decline"
            )))
        }
    };
    let state = app
        .act(&id, &session.actor(req.token), action, "", req.version)
        .await?;
    Ok(json_response(StatusCode::OK, state))
}

async fn post_rematch(
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
    let state = app
        .games
        .rematch(
            &id,
            session.actor(req.token),
            (&req.action, req.rated),
            req.version,
            &client.to_string(),
        )
        .await?;
    Ok(json_response(StatusCode::OK, state))
}

async fn post_undo(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    session: Session,
    JsonBody(req): JsonBody<OfferRequest>,
) -> Result<Response, ApiError> {
    let action = match req.action.as_str() {
        "request" => Action::UndoRequest,
        "accept" => Action::UndoAccept,
        "decline" => Action::UndoDecline,
        other => {
            return Err(ApiError::bad_request(format!(
                "unknown undo action '{other}'; accepted: request, accept, decline"
            )))
        }
    };
    let state = app
        .act(&id, &session.actor(req.token), action, "", req.version)
        .await?;
    Ok(json_response(StatusCode::OK, state))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    token: Option<String>,
    /// The seat's new token, proposed by the client (32 lower-case hex digits); the server
    /// makes one when none is given.
    new_token: Option<String>,
}

/// Opens an invite link: the link's token is exchanged for a fresh one, once.
async fn post_join(
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
            t
        }
        Some(_) => {
            return Err(ApiError::bad_request(
                "new_token is 32 lower-case hex digits (128 random bits)",
            ))
        }
        None => crate::token::new_token(),
    };
    let digest = crate::token::to_hex(&crate::token::hash(&fresh));
    let joined = app
        .act(
            &id,
            &Actor::token(req.token.clone()),
            Action::Join,
            &digest,
            None,
        )
        .await;
    let state = match joined {
        Ok(state) => state,
        Err(e) if e.code == "invite_used" => {
            app.games.state_json(&id).await.map_err(|_| e.clone())?
        }
        Err(e) => return Err(e),
    };
    let seat = app
        .games
        .with_entry(&id, |e| {
            boardlab_core::Seat::BOTH.into_iter().find(|s| {
                e.live.joined[s.index()].is_some_and(|d| crate::token::matches(&fresh, &d))
            })
        })
        .await?
        .ok_or_else(|| {
            ApiError::conflict(
                "invite_used",
                "this invite link has already been used: the seat is taken",
            )
        })?;
    Ok(json_response(
        StatusCode::OK,
        format!("{{\"seat\":\"{seat}\",\"token\":\"{fresh}\",\"state\":{state}}}"),
    ))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordQuery {
    format: Option<String>,
}

async fn get_record(
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

async fn get_at(
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

async fn get_hint(
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

async fn post_review(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    GameId(id): GameId,
    JsonBody(_): JsonBody<crate::lobby::Empty>,
) -> Result<Response, ApiError> {
    app.hint_limit.check(client)?;
    let (status, body) = app.reviews.start_review(&id, &client.to_string()).await?;
    let mut r = json_response(status, body);
    if status == StatusCode::ACCEPTED {
        if let Ok(v) = HeaderValue::from_str(&format!("/api/games/{id}/review")) {
            r.headers_mut().insert(header::LOCATION, v);
        }
    }
    Ok(r)
}

async fn get_review(State(app): State<Arc<App>>, GameId(id): GameId) -> Result<Response, ApiError> {
    Ok(json_response(
        StatusCode::OK,
        app.reviews.get_review(&id).await?,
    ))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewRequest {
    /// The record, in its text or JSON form.
    record: String,
}

async fn post_reviews(
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesQuery {
    format: Option<String>,
}

async fn get_rules(
    State(app): State<Arc<App>>,
    Path(params): Path<BTreeMap<String, String>>,
    QueryParams(q): QueryParams<RulesQuery>,
) -> Result<Response, ApiError> {
    let name = params.get("game").map_or("", String::as_str);
    let kind: GameKind = name
        .parse()
        .map_err(|e: boardlab_games::UnknownGame| ApiError::not_found(e.to_string()))?;
    let page = crate::web::rules_file(
        app.settings.web_dir.as_ref(),
        &format!("{}.md", kind.name()),
    )
    .ok_or_else(|| ApiError::not_found(format!("no rules page for {}", kind.name())))?;
    markdown_page(&page, q.format.as_deref(), "/rules")
}

/// A page of designer findings (`docs/analysis/PAGE.md`): a game's, or `README` (how the
/// reports are made and what their metrics mean), or a full report, `DIR/report` (asked for
/// as `DIR%2Freport`).
async fn get_findings(
    State(app): State<Arc<App>>,
    Path(params): Path<BTreeMap<String, String>>,
    QueryParams(q): QueryParams<RulesQuery>,
) -> Result<Response, ApiError> {
    let name = params.get("page").map_or("", String::as_str);
    let missing = || ApiError::not_found(format!("no findings page '{name}'"));
    let plain = |part: &str| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    let valid = match name.split_once('/') {
        Some((dir, page)) => plain(dir) && page == "report",
        None => plain(name),
    };
    if !valid {
        return Err(missing());
    }
    let page = crate::web::analysis_file(app.settings.web_dir.as_ref(), &format!("{name}.md"))
        .ok_or_else(missing)?;
    markdown_page(&page, q.format.as_deref(), "/findings")
}

/// A Markdown page as it is (`format` absent or `markdown`) or as HTML (`html`), its links to
/// sibling pages going to `{pages}/NAME`.
fn markdown_page(page: &[u8], format: Option<&str>, pages: &str) -> Result<Response, ApiError> {
    let (kind, body) = match format {
        None | Some("markdown") => ("text/markdown; charset=utf-8", page.to_vec()),
        Some("html") => {
            let text = std::str::from_utf8(page)
                .map_err(|_| ApiError::not_found("the page is not readable text"))?;
            (
                "text/html; charset=utf-8",
                crate::web::markdown_html_in(text, pages).into_bytes(),
            )
        }
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "unknown format '{other}'; accepted: markdown, html"
            )))
        }
    };
    Ok((
        [(header::CONTENT_TYPE, HeaderValue::from_static(kind))],
        body,
    )
        .into_response())
}

/// A game's tutorial: its steps, each checked against the rules by the game's crate.
async fn get_tutorial(Path(params): Path<BTreeMap<String, String>>) -> Result<Response, ApiError> {
    let name = params.get("game").map_or("", String::as_str);
    let kind: GameKind = name
        .parse()
        .map_err(|e: boardlab_games::UnknownGame| ApiError::not_found(e.to_string()))?;
    let steps = kind.tutorial().map_err(|e| {
        tracing::error!("{e}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the {} tutorial is broken", kind.name()),
        )
    })?;
    if steps.is_empty() {
        return Err(ApiError::not_found(format!(
            "{} has no tutorial",
            kind.name()
        )));
    }
    let body = view::Tutorial {
        game: kind.name(),
        title: kind.info().title,
        steps,
    };
    Ok(json_response(
        StatusCode::OK,
        serde_json::to_string(&body).expect("serialises"),
    ))
}

/// Most moves a puzzle line may hold (a Sight Reduction board has 32 pieces).
const PUZZLE_MOVES_LIMIT: usize = 40;

/// The kinds and grades of puzzles.
async fn list_puzzles() -> Response {
    use boardlab_solve::collection::{PuzzleKind, DIFFICULTIES, MAX_NUMBER};
    let kinds: Vec<view::PuzzleKindView> = PuzzleKind::ALL
        .iter()
        .map(|&k| view::PuzzleKindView {
            kind: k,
            word: k.word(),
            title: k.title(),
            goal: k.goal(),
        })
        .collect();
    let body = serde_json::json!({
        "game": "sight-reduction",
        "kinds": kinds,
        "difficulties": DIFFICULTIES,
        "numbers": { "min": 1, "max": MAX_NUMBER },
    });
    json_response(StatusCode::OK, body.to_string())
}

/// The puzzle named in the path, made on first request.
async fn puzzle_of(
    app: &App,
    params: &BTreeMap<String, String>,
    key: &str,
) -> Result<Arc<boardlab_solve::collection::PuzzleEntry>, ApiError> {
    let name = params.get("id").map_or("", String::as_str);
    let id: boardlab_solve::collection::PuzzleId = name
        .parse()
        .map_err(|e: boardlab_solve::collection::BadPuzzleId| ApiError::not_found(e.to_string()))?;
    app.computer.puzzle(key, id).await
}

async fn get_puzzle(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    Path(params): Path<BTreeMap<String, String>>,
) -> Result<Response, ApiError> {
    let entry = puzzle_of(&app, &params, &client.to_string()).await?;
    Ok(json_response(
        StatusCode::OK,
        serde_json::to_string(&*entry).expect("serialises"),
    ))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PuzzleLine {
    #[serde(default)]
    moves: Vec<String>,
}

/// Refuses a line that is too long or holds an over-long move.
fn check_line(line: &PuzzleLine) -> Result<(), ApiError> {
    if line.moves.len() > PUZZLE_MOVES_LIMIT {
        return Err(ApiError::bad_request(format!(
            "more than {PUZZLE_MOVES_LIMIT} moves"
        )));
    }
    if let Some((i, m)) = line
        .moves
        .iter()
        .enumerate()
        .find(|(_, m)| m.len() > MOVE_LIMIT)
    {
        return Err(ApiError::bad_request(format!(
            "move {} '{}': longer than {MOVE_LIMIT} characters",
            i + 1,
            shorten(m)
        )));
    }
    Ok(())
}

/// Judges the last move of a puzzle line; for a "win from here" puzzle also gives the
/// computer's answer.
async fn post_puzzle_move(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    Path(params): Path<BTreeMap<String, String>>,
    JsonBody(line): JsonBody<PuzzleLine>,
) -> Result<Response, ApiError> {
    check_line(&line)?;
    let key = client.to_string();
    let entry = puzzle_of(&app, &params, &key).await?;
    let judgement = app
        .computer
        .search(&key, move || {
            boardlab_solve::collection::judge(&entry, &line.moves)
        })
        .await?
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok(json_response(
        StatusCode::OK,
        serde_json::to_string(&judgement).expect("serialises"),
    ))
}

/// A move that keeps the puzzle solvable (won) after a line.
async fn post_puzzle_hint(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    Path(params): Path<BTreeMap<String, String>>,
    JsonBody(line): JsonBody<PuzzleLine>,
) -> Result<Response, ApiError> {
    app.hint_limit.check(client)?;
    check_line(&line)?;
    let key = client.to_string();
    let entry = puzzle_of(&app, &params, &key).await?;
    let hint = app
        .computer
        .search(&key, move || {
            boardlab_solve::collection::hint(&entry, &line.moves)
        })
        .await?
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok(json_response(
        StatusCode::OK,
        serde_json::to_string(&hint).expect("serialises"),
    ))
}
