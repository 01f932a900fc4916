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
use crate::http::forms::{check_player, options_of, Empty};
use crate::http::response::json_response;
use crate::http::session::Session;
use crate::player::Player;
use crate::ratings::{provisional, PROVISIONAL_DEVIATION};
use crate::services::games::NewGame;
use crate::state::SeatAccount;
use crate::store::{ChallengeRow, RatingRow};
use crate::{now_ms, token};
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

/// How long a challenge stays open, in hours.
pub const CHALLENGE_HOURS: i64 = 24;

/// A challenge for a game played now (real time or untimed) lapses when its author has had
/// no page of the app open for `--challenge-lapse` (90 s by default); correspondence
/// challenges wait the whole [`CHALLENGE_HOURS`]. An author with a page open is noted as
/// here three times in that time.
pub const DEFAULT_LAPSE_SECONDS: u64 = 90;

/// Most challenges one account may have open at once.
pub const MAX_OPEN: i64 = 20;

const HOUR_MS: i64 = 60 * 60 * 1000;

fn open_since() -> i64 {
    now_ms() - CHALLENGE_HOURS * HOUR_MS
}

/// The oldest time an author of a challenge for a game played now may have been seen for
/// it to be open.
pub(crate) fn present_since(app: &App) -> i64 {
    now_ms() - i64::try_from(app.settings.challenge_lapse.as_millis()).unwrap_or(i64::MAX)
}

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
    /// The time control (`null`: untimed).
    clock: Option<String>,
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
    let rows = app
        .store
        .challenges(viewer.as_deref(), (open_since(), present_since(&app)))
        .await
        .map_err(ApiError::storage)?;
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
    let clock = crate::http::forms::clock_of(req.clock.as_deref(), alone)?;
    if alone {
        return Err(ApiError::bad_request(
            "with these options the game is a puzzle played alone: there is no one to challenge",
        ));
    }
    let seat = req.seat.as_deref().unwrap_or("random");
    if !["first", "second", "random"].contains(&seat) {
        return Err(ApiError::bad_request(format!(
            "unknown seat '{seat}'; accepted: first, second, random"
        )));
    }
    let options_json = serde_json::to_string(&options.to_map()).expect("options serialise as JSON");
    let opponent = req.opponent.as_deref().map(str::trim);
    if let Some(spec) = opponent.filter(|o| o.to_ascii_lowercase().starts_with("computer")) {
        if req.rated {
            return Err(ApiError::bad_request(
                "games against the computer are not rated",
            ));
        }
        let game = (kind, options, clock);
        return play_computer(&app, &me, game, (spec, seat), &client.to_string()).await;
    }
    let opponent_id = match opponent {
        None | Some("") => None,
        Some(name) => {
            let found = app
                .store
                .account_by_name(name)
                .await
                .map_err(ApiError::storage)?
                .ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "no player named '{}'",
                        crate::http::forms::shorten(name)
                    ))
                })?;
            if found.id == me.id {
                return Err(ApiError::bad_request("you cannot challenge yourself"));
            }
            Some(found.id)
        }
    };
    let row = ChallengeRow {
        id: token::new_token()[..16].to_string(),
        account_id: me.id.clone(),
        name: me.name.clone(),
        game: kind.name().to_string(),
        options: options_json,
        seat: seat.to_string(),
        rated: req.rated,
        opponent_id,
        opponent_name: None,
        created_ms: now_ms(),
        rating: None,
        clock: clock.map(|c| c.to_string()),
    };
    let made = app
        .store
        .create_challenge(&row, MAX_OPEN)
        .await
        .map_err(ApiError::storage)?;
    if !made {
        return Err(ApiError::conflict(
            "too_many_challenges",
            format!("you have {MAX_OPEN} challenges open already; cancel one first"),
        ));
    }
    app.notifier.lobby_changed().await;
    if let Some(opponent) = &row.opponent_id {
        // The player challenged hears of it wherever they are in the app.
        let news = serde_json::json!({
            "challenge": row.id, "from": me.name, "title": kind.info().title,
        });
        app.notifier.tell_account(opponent, &news.to_string()).await;
    }
    Ok(json_response(
        StatusCode::CREATED,
        serde_json::json!({ "challenge": row.id }).to_string(),
    ))
}

/// A game against the computer `spec` started at once from the lobby's form, the player in
/// `seat` (`first`, `second` or `random`) by their account.
async fn play_computer(
    app: &Arc<App>,
    me: &crate::http::session::SignedIn,
    (kind, options, clock): (
        GameKind,
        boardlab_core::Options,
        Option<crate::clock::TimeControl>,
    ),
    (spec, seat): (&str, &str),
    owner: &str,
) -> Result<Response, ApiError> {
    let computer = Player::parse(spec).map_err(ApiError::bad_request)?;
    check_player(app, kind, &computer, "opponent")?;
    let mine = pick_seat(seat);
    let mut players = [Player::Human, Player::Human];
    players[mine.other().index()] = computer;
    let mut accounts = [None, None];
    accounts[mine.index()] = Some(SeatAccount {
        id: me.id.clone(),
        name: me.name.clone(),
    });
    let new = NewGame {
        kind,
        options,
        seed: rand::random(),
        position: None,
        players,
        same_screen: false,
        token_hashes: Some([None, None]),
        accounts,
        rated: false,
        clock,
    };
    let (id, _, _) = app.games.create(new, owner).await?;
    Ok(json_response(
        StatusCode::CREATED,
        serde_json::json!({ "game": id }).to_string(),
    ))
}

fn pick_seat(seat: &str) -> Seat {
    match seat {
        "first" => Seat::First,
        "second" => Seat::Second,
        _ => {
            if rand::random::<bool>() {
                Seat::First
            } else {
                Seat::Second
            }
        }
    }
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
    let gone = || {
        ApiError::not_found(
            "this challenge is no longer open: it was accepted, withdrawn or expired",
        )
    };
    if !crate::token::valid_game_id(&id) {
        return Err(gone());
    }
    app.create_limit.check(client)?;
    let Some(c) = app
        .store
        .take_challenge(&id, &me.id, (open_since(), present_since(&app)))
        .await
        .map_err(ApiError::storage)?
    else {
        return Err(gone());
    };
    // The challenge is taken: its game is made in a task of its own, so a client that hangs
    // up now cannot leave a challenge deleted and no game made.
    let key = client.to_string();
    let game = tokio::spawn(async move { start_challenge(&app, c, &me, &key).await })
        .await
        .map_err(|e| {
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
        })??;
    Ok(json_response(
        StatusCode::CREATED,
        serde_json::json!({ "game": game }).to_string(),
    ))
}

/// Starts the game of a challenge just taken by `me`; its id.
async fn start_challenge(
    app: &Arc<App>,
    c: ChallengeRow,
    me: &crate::http::session::SignedIn,
    owner: &str,
) -> Result<String, ApiError> {
    app.notifier.lobby_changed().await;
    let kind: GameKind = c
        .game
        .parse()
        .map_err(|e: boardlab_games::UnknownGame| ApiError::bad_request(e.to_string()))?;
    let pairs: BTreeMap<String, String> =
        serde_json::from_str(&c.options).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let options = kind
        .info()
        .options_from_pairs(&pairs)
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let author_name = app
        .store
        .account_name(&c.account_id)
        .await
        .map_err(ApiError::storage)?
        .unwrap_or_default();
    let theirs = pick_seat(&c.seat);
    let mut accounts = [None, None];
    accounts[theirs.index()] = Some(SeatAccount {
        id: c.account_id.clone(),
        name: author_name,
    });
    accounts[theirs.other().index()] = Some(SeatAccount {
        id: me.id.clone(),
        name: me.name.clone(),
    });
    let (game, _, _) = app
        .games
        .create(
            NewGame {
                kind,
                options,
                seed: rand::random(),
                position: None,
                players: [Player::Human, Player::Human],
                same_screen: false,
                token_hashes: Some([None, None]),
                accounts,
                rated: c.rated,
                clock: c
                    .clock
                    .as_deref()
                    .map(str::parse)
                    .transpose()
                    .map_err(ApiError::bad_request)?,
            },
            owner,
        )
        .await?;
    app.notifier.tell_started(&c.account_id, &game).await;
    Ok(game)
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
    let done = crate::token::valid_game_id(&id)
        && app
            .store
            .cancel_challenge(&id, &me.id)
            .await
            .map_err(ApiError::storage)?;
    if !done {
        return Err(ApiError::not_found(
            "you have no open challenge with that id",
        ));
    }
    app.notifier.lobby_changed().await;
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
    let seen = session.account().map(|id| app.keep_seen(id));
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
    let rows = app
        .store
        .leaderboard(kind.name(), PROVISIONAL_DEVIATION, limit)
        .await
        .map_err(ApiError::storage)?;
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
