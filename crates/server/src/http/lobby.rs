//! The lobby and ratings. A signed-in player posts an open challenge (a game, its options,
//! their seat or a random one, rated or not), open to everyone or to one named player, or
//! plays the computer at once from the same form. Everyone on the lobby page sees
//! challenges come and go live; accepting one deletes it and starts the game for both,
//! with both seats held by the players' accounts (no tokens), and takes the author to it
//! through their account's live channel. Rated games count for both players' Glicko-2
//! ratings ([`crate::ratings`]) when they end.

use crate::app::App;
use crate::error::ApiError;
use crate::http::extract::{ClientAddr, JsonBody, QueryParams};
use crate::http::forms::{clock_of, options_of, Empty};
use crate::http::response::json_response;
use crate::http::session::Session;
use crate::ratings::{provisional, PROVISIONAL_DEVIATION};
use crate::services::lobby::{Challenge, Posted};
use crate::store::{ChallengeRow, RatingRow};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use boardlab_core::Seat;
use boardlab_games::GameKind;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChallengeRequest {
    game: String,
    #[serde(default)]
    options: BTreeMap<String, serde_json::Value>,
    /// `first`, `second` or `random` (the default).
    seat: Option<String>,
    #[serde(default)]
    rated: bool,
    /// A player's name (a challenge to them alone), or `computer` / `computer:SPEC` (a game
    /// against the computer, started at once); none: open to everyone.
    opponent: Option<String>,
    /// A time control: `M+S` (real time) or `Nd` (correspondence); none: untimed.
    clock: Option<String>,
}

/// One challenge as the lobby shows it.
#[derive(Debug, Serialize)]
struct ChallengeView {
    id: String,
    /// The author's name.
    by: String,
    game: String,
    title: &'static str,
    /// The non-default options.
    options: BTreeMap<String, String>,
    /// The author's seat (`random`: decided when accepted), and its colour where the seat
    /// has one from the start.
    seat: String,
    colour: Option<boardlab_core::Colour>,
    rated: bool,
    /// The one player it is for (`null`: anyone).
    opponent: Option<String>,
    /// The time control (`null`: untimed), as text and in numbers.
    clock: Option<String>,
    time_control: Option<crate::clock::TimeControlView>,
    created: String,
    /// The author's rating in the game, if they have one.
    rating: Option<RatingBrief>,
    /// Whether the viewer made it (they may cancel it) and whether they may accept it.
    yours: bool,
    acceptable: bool,
}

#[derive(Debug, Serialize)]
struct RatingBrief {
    rating: i64,
    deviation: i64,
    provisional: bool,
}

fn brief(rating: f64, deviation: f64) -> RatingBrief {
    RatingBrief {
        rating: rating.round() as i64,
        deviation: deviation.round() as i64,
        provisional: provisional(deviation),
    }
}

fn challenge_view(c: ChallengeRow, viewer: Option<&str>) -> Option<ChallengeView> {
    let kind: GameKind = c.game.parse().ok()?;
    let options: BTreeMap<String, String> = serde_json::from_str(&c.options).ok()?;
    let start = kind
        .info()
        .options_from_pairs(&options)
        .ok()
        .and_then(|o| boardlab_games::AnyGame::new(kind, &o, 0).ok());
    let colour = match (c.seat.as_str(), &start) {
        ("first", Some(g)) => g.colour_of(Seat::First),
        ("second", Some(g)) => g.colour_of(Seat::Second),
        _ => None,
    };
    let yours = viewer == Some(c.account_id.as_str());
    Some(ChallengeView {
        acceptable: viewer.is_some() && !yours,
        yours,
        id: c.id,
        by: c.name,
        game: kind.name().to_string(),
        title: kind.info().title,
        options,
        seat: c.seat,
        colour,
        rated: c.rated,
        opponent: c.opponent_name,
        time_control: c
            .clock
            .as_deref()
            .and_then(|t| t.parse::<crate::clock::TimeControl>().ok())
            .map(crate::clock::TimeControl::view),
        clock: c.clock,
        created: crate::rfc3339(c.created_ms),
        rating: c.rating.map(|(r, d)| brief(r, d)),
    })
}

/// `GET /api/lobby`: the open challenges the viewer may see.
pub(crate) async fn list(
    State(app): State<Arc<App>>,
    session: Session,
) -> Result<Response, ApiError> {
    let viewer = session.account();
    let rows = app.lobby.challenges(viewer.as_deref()).await?;
    let challenges: Vec<ChallengeView> = rows
        .into_iter()
        .filter_map(|c| challenge_view(c, viewer.as_deref()))
        .collect();
    Ok(json_response(
        StatusCode::OK,
        serde_json::json!({ "challenges": challenges }).to_string(),
    ))
}

/// `POST /api/lobby`: a new challenge, or, against the computer, a new game at once.
pub(crate) async fn post(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    session: Session,
    JsonBody(req): JsonBody<ChallengeRequest>,
) -> Result<Response, ApiError> {
    let me = session.required()?;
    // A challenge makes a game (at once against the computer): it draws on the same
    // allowance as every other way of making one.
    app.create_limit.check(client)?;
    let kind: GameKind = req
        .game
        .parse()
        .map_err(|e: boardlab_games::UnknownGame| ApiError::bad_request(e.to_string()))?;
    let options = options_of(kind, &req.options)?;
    let alone = boardlab_games::AnyGame::new(kind, &options, 0)
        .map_err(|e| ApiError::bad_request(e.to_string()))?
        .is_solitaire();
    let clock = clock_of(req.clock.as_deref(), alone)?;
    let challenge = Challenge {
        kind,
        options,
        clock,
        alone,
        seat: req.seat.unwrap_or_else(|| "random".to_string()),
        rated: req.rated,
        opponent: req.opponent,
    };
    let body = match app
        .lobby
        .post(&me.account(), challenge, &client.to_string())
        .await?
    {
        Posted::Challenge(id) => serde_json::json!({ "challenge": id }),
        Posted::Game(id) => serde_json::json!({ "game": id }),
    };
    Ok(json_response(StatusCode::CREATED, body.to_string()))
}

/// `POST /api/lobby/{id}/accept`: starts the challenge's game for both players. A challenge
/// can be accepted once: a second taker gets 404.
pub(crate) async fn accept(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    session: Session,
    Path(params): Path<BTreeMap<String, String>>,
    JsonBody(_): JsonBody<Empty>,
) -> Result<Response, ApiError> {
    let me = session.required()?;
    let id = params.get("id").cloned().unwrap_or_default();
    if crate::token::valid_game_id(&id) {
        app.create_limit.check(client)?;
    }
    let game = app
        .lobby
        .accept(&id, me.account(), &client.to_string())
        .await?;
    Ok(json_response(
        StatusCode::CREATED,
        serde_json::json!({ "game": game }).to_string(),
    ))
}

/// `POST /api/lobby/{id}/cancel`: withdraws one's own challenge.
pub(crate) async fn cancel(
    State(app): State<Arc<App>>,
    session: Session,
    Path(params): Path<BTreeMap<String, String>>,
    JsonBody(_): JsonBody<Empty>,
) -> Result<Response, ApiError> {
    let me = session.required()?;
    let id = params.get("id").cloned().unwrap_or_default();
    app.lobby.cancel(&id, &me.id).await?;
    Ok(json_response(
        StatusCode::OK,
        serde_json::json!({ "cancelled": id }).to_string(),
    ))
}

/// `GET /api/lobby/live`: server-sent events: `hello`, then `lobby` whenever challenges
/// come or go (on any server sharing the database); pages then fetch `GET /api/lobby`.
pub(crate) async fn live(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    session: Session,
) -> Result<Response, ApiError> {
    let held = app.streams.open(client)?;
    let rx = app.notifier.subscribe_lobby();
    let shutdown = app.shutdown.subscribe();
    // A signed-in author's challenges stay open while this page is.
    let seen = session.account().map(|id| app.lobby.keep_seen(id));
    let hello = futures_util::stream::once(async {
        Ok::<Event, Infallible>(Event::default().event("hello").data("{}"))
    });
    let updates = futures_util::stream::unfold(
        (rx, shutdown, (held, seen)),
        |(mut rx, mut shutdown, kept)| async move {
            tokio::select! {
                m = rx.recv() => match m {
                    Ok(()) | Err(RecvError::Lagged(_)) => {
                        let ev = Event::default().event("lobby").data("{}");
                        Some((Ok(ev), (rx, shutdown, kept)))
                    }
                    Err(RecvError::Closed) => None,
                },
                _ = shutdown.changed() => None,
            }
        },
    );
    let stream = futures_util::StreamExt::chain(hello, updates);
    Ok(Sse::new(crate::http::live::aged(&app, stream))
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// One rating as pages show it.
#[derive(Debug, Serialize)]
pub(crate) struct RatingView {
    game: String,
    title: &'static str,
    name: String,
    rating: i64,
    deviation: i64,
    /// Provisional while the deviation is above the threshold.
    provisional: bool,
    games: i64,
    updated: String,
}

pub(crate) fn rating_view(r: RatingRow) -> Option<RatingView> {
    let kind: GameKind = r.game.parse().ok()?;
    Some(RatingView {
        game: r.game,
        title: kind.info().title,
        name: r.name,
        rating: r.rating.round() as i64,
        deviation: r.deviation.round() as i64,
        provisional: provisional(r.deviation),
        games: r.games,
        updated: crate::rfc3339(r.updated_ms),
    })
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BoardQuery {
    limit: Option<i64>,
}

/// `GET /api/ratings/{game}`: the leaderboard of a game.
pub(crate) async fn leaderboard(
    State(app): State<Arc<App>>,
    Path(params): Path<BTreeMap<String, String>>,
    QueryParams(q): QueryParams<BoardQuery>,
) -> Result<Response, ApiError> {
    let name = params.get("game").cloned().unwrap_or_default();
    let kind: GameKind = name
        .parse()
        .map_err(|e: boardlab_games::UnknownGame| ApiError::not_found(e.to_string()))?;
    let limit = q.limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        return Err(ApiError::bad_request(format!(
            "limit {limit} is out of range; accepted: 1 to 200"
        )));
    }
    let rows = app.ratings.leaderboard(kind, limit).await?;
    let players: Vec<RatingView> = rows.into_iter().filter_map(rating_view).collect();
    Ok(json_response(
        StatusCode::OK,
        serde_json::json!({
            "game": kind.name(),
            "title": kind.info().title,
            "provisional_above": PROVISIONAL_DEVIATION,
            "players": players,
        })
        .to_string(),
    ))
}
