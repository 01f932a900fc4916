//! The accounts' routes: sign-up, log-in and log-out, the signed-in player's games and live
//! notices, player pages, and claiming a seat for one's account. A request that changes
//! anything and carries the session cookie must come from this site ([`same_site`]).
//! Log-ins and sign-ups are limited per address; the accounts service
//! ([`crate::services::accounts`]) keeps its own rules.

use crate::app::App;
use crate::error::ApiError;
use crate::http::extract::{ClientAddr, GameId, JsonBody, QueryParams};
use crate::http::lobby::rating_view;
use crate::http::response::{json_response, state_response};
use crate::http::session::{
    cookie_secret, cross_site, device_cookie, device_secret, same_site, secure, session_cookie,
    Session,
};
use crate::services::accounts::{GamesWanted, PlayerGame};
use crate::state::SeatAccount;
use crate::view;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use boardlab_core::Seat;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Credentials {
    name: String,
    password: String,
}

#[derive(Debug, Serialize)]
struct AccountView<'a> {
    name: &'a str,
}

fn json(status: StatusCode, body: &impl Serialize) -> Response {
    json_response(status, serde_json::to_string(body).expect("serialises"))
}

/// Starts a new session for `account` and answers with its cookie (and a known-device
/// cookie for a browser new to the account).
async fn signed_in(
    app: &App,
    headers: &HeaderMap,
    status: StatusCode,
    account: &SeatAccount,
) -> Result<Response, ApiError> {
    let device = device_secret(headers);
    let session = app
        .accounts
        .open_session(account, device.as_deref())
        .await?;
    let secure = secure(app, headers);
    let mut r = json(
        status,
        &serde_json::json!({ "account": AccountView { name: &account.name } }),
    );
    r.headers_mut().append(
        header::SET_COOKIE,
        session_cookie(Some(&session.secret), secure),
    );
    if let Some(device) = session
        .device
        .as_deref()
        .and_then(|d| device_cookie(d, secure))
    {
        r.headers_mut().append(header::SET_COOKIE, device);
    }
    Ok(r)
}

/// Refuses a sign-up or log-in from another site, or past this address's allowance.
fn admit_login(app: &App, headers: &HeaderMap, client: std::net::IpAddr) -> Result<(), ApiError> {
    if !same_site(headers, secure(app, headers)) {
        return Err(cross_site());
    }
    app.login_limit.check(client)
}

/// `POST /api/account/signup`: a new account, signed in at once.
pub(crate) async fn signup(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    JsonBody(req): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    admit_login(&app, &headers, client)?;
    let account = app.accounts.sign_up(req.name, req.password).await?;
    signed_in(&app, &headers, StatusCode::CREATED, &account).await
}

/// `POST /api/account/login`: a new session for the right name and password. A session the
/// request carried is ended.
pub(crate) async fn login(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    headers: HeaderMap,
    JsonBody(req): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    admit_login(&app, &headers, client)?;
    let device = device_secret(&headers);
    let account = app
        .accounts
        .log_in(&req.name, req.password, device.as_deref())
        .await?;
    if let Some(old) = cookie_secret(&headers) {
        app.accounts.forget_session(&old).await;
    }
    signed_in(&app, &headers, StatusCode::OK, &account).await
}

/// `POST /api/account/logout`: ends this session.
pub(crate) async fn logout(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    session: Session,
) -> Result<Response, ApiError> {
    if let Some(s) = &session.0 {
        app.accounts.end_session(&s.digest).await?;
    }
    Ok(signed_out(&app, &headers, 0))
}

/// `POST /api/account/logout-everywhere`: ends every session of the account.
pub(crate) async fn logout_everywhere(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    session: Session,
) -> Result<Response, ApiError> {
    let me = session.required()?;
    let ended = app.accounts.end_sessions(&me.id).await?;
    Ok(signed_out(&app, &headers, ended))
}

fn signed_out(app: &App, headers: &HeaderMap, ended: u64) -> Response {
    let mut r = json(
        StatusCode::OK,
        &serde_json::json!({ "account": null, "sessions_ended": ended.max(1) }),
    );
    r.headers_mut().append(
        header::SET_COOKIE,
        session_cookie(None, secure(app, headers)),
    );
    r
}

/// `GET /api/account`: who is signed in (`{"account": null}` for nobody).
pub(crate) async fn me(session: Session) -> Response {
    let account = session.0.as_ref().map(|s| AccountView { name: &s.name });
    json(StatusCode::OK, &serde_json::json!({ "account": account }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GamesQuery {
    game: Option<String>,
    limit: Option<i64>,
    /// `won`, `lost`, `drawn` or `ongoing` (player pages).
    result: Option<String>,
}

/// One game from one player's side, as pages show it.
#[derive(Debug, Serialize)]
struct PlayerGameView {
    #[serde(flatten)]
    game: view::ListedView,
    /// The player's seat (`null`: both, on one screen).
    seat: Option<Seat>,
    /// The other seat's account name, if it has one.
    opponent: Option<String>,
    /// The other seat's player (`human` or `computer:SPEC`).
    opponent_player: String,
    /// The computer playing the other seat (`null` for a person).
    opponent_computer: Option<crate::player::ComputerView>,
    /// Whether it is this player's move.
    your_turn: bool,
    /// `won`, `lost`, `drawn` or `ongoing`.
    outcome: &'static str,
}

impl From<PlayerGame> for PlayerGameView {
    fn from(g: PlayerGame) -> PlayerGameView {
        PlayerGameView {
            game: g.game.into(),
            seat: g.seat,
            opponent: g.opponent,
            opponent_computer: crate::player::Player::computer_view_of(&g.opponent_player),
            opponent_player: g.opponent_player,
            your_turn: g.your_turn,
            outcome: g.outcome,
        }
    }
}

fn games_query(q: &GamesQuery) -> Result<GamesWanted<'_>, ApiError> {
    let limit = q.limit.unwrap_or(50);
    if !(1..=200).contains(&limit) {
        return Err(ApiError::bad_request(format!(
            "limit {limit} is out of range; accepted: 1 to 200"
        )));
    }
    let game = match &q.game {
        Some(g) => Some(
            g.parse::<boardlab_games::GameKind>()
                .map_err(|e| ApiError::bad_request(e.to_string()))?
                .name(),
        ),
        None => None,
    };
    if let Some(r) = &q.result {
        if !["won", "lost", "drawn", "ongoing"].contains(&r.as_str()) {
            return Err(ApiError::bad_request(format!(
                "unknown result '{r}'; accepted: won, lost, drawn, ongoing"
            )));
        }
    }
    Ok(GamesWanted {
        game,
        result: q.result.as_deref(),
        limit,
    })
}

/// `GET /api/account/games`: the signed-in player's games, those where it is their move
/// first, then the others going on, then finished ones, most recently changed first.
pub(crate) async fn my_games(
    State(app): State<Arc<App>>,
    session: Session,
    QueryParams(q): QueryParams<GamesQuery>,
) -> Result<Response, ApiError> {
    let me = session.required()?;
    let wanted = games_query(&q)?;
    let games = app.accounts.games(&me.account(), &wanted).await?;
    let your_turn = games.iter().filter(|g| g.your_turn).count();
    let games: Vec<PlayerGameView> = games.into_iter().map(PlayerGameView::from).collect();
    Ok(json(
        StatusCode::OK,
        &serde_json::json!({ "your_turn": your_turn, "games": games }),
    ))
}

/// `GET /api/players/{name}`: a player's games (filtered by game and result) and their
/// record against each opponent.
pub(crate) async fn player(
    State(app): State<Arc<App>>,
    Path(params): Path<BTreeMap<String, String>>,
    QueryParams(q): QueryParams<GamesQuery>,
) -> Result<Response, ApiError> {
    let name = params.get("name").cloned().unwrap_or_default();
    let wanted = games_query(&q)?;
    let profile = app.accounts.profile(&name, &wanted).await?;
    let records: Vec<serde_json::Value> = profile
        .head_to_head
        .into_iter()
        .map(|(opponent, [w, l, d])| {
            serde_json::json!({ "opponent": opponent, "won": w, "lost": l, "drawn": d })
        })
        .collect();
    let games: Vec<PlayerGameView> = profile
        .games
        .into_iter()
        .map(PlayerGameView::from)
        .collect();
    // Ratings per game, each with its history (one point per rated game).
    let mut ratings = Vec::new();
    for (r, history) in profile.ratings {
        if let Some(view) = rating_view(r) {
            let history: Vec<serde_json::Value> = history
                .into_iter()
                .map(|(ms, rating, deviation)| {
                    serde_json::json!({
                        "at": crate::rfc3339(ms),
                        "rating": rating.round() as i64,
                        "deviation": deviation.round() as i64,
                    })
                })
                .collect();
            ratings.push(serde_json::json!({ "rating": view, "history": history }));
        }
    }
    let total = profile.record;
    Ok(json(
        StatusCode::OK,
        &serde_json::json!({
            "name": profile.name,
            "ratings": ratings,
            "record": { "won": total[0], "lost": total[1], "drawn": total[2] },
            "head_to_head": records,
            "games": games,
        }),
    ))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClaimRequest {
    token: Option<String>,
}

/// `POST /api/games/{id}/claim`: the seats the token holds become the signed-in account's
/// (answered with the game's state; claiming seats already the account's changes nothing).
pub(crate) async fn claim(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    session: Session,
    JsonBody(req): JsonBody<ClaimRequest>,
) -> Result<Response, ApiError> {
    let me = session.required()?;
    let Some(t) = req.token else {
        return Err(ApiError::forbidden(
            "missing token: send the seat's token as \"token\"",
        ));
    };
    let state = app.games.claim(&id, t, &me.account()).await?;
    Ok(state_response(StatusCode::OK, state))
}

/// `GET /api/account/live`: server-sent events for the signed-in player: `games` whenever
/// one of their games changes (a move, a new game, its end), so a page can show "your turn"
/// across games without polling.
pub(crate) async fn live(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    session: Session,
) -> Result<Response, ApiError> {
    let me = session.required()?;
    let held = app.streams.open(client)?;
    let rx = app.notifier.subscribe_account(&me.id);
    let shutdown = app.shutdown.subscribe();
    let hello = futures_util::stream::once(async {
        Ok::<Event, Infallible>(Event::default().event("hello").data("{}"))
    });
    let aged_app = Arc::clone(&app);
    // The player's challenges stay open while a page of the app is.
    let seen = app.lobby.keep_seen(me.id.clone());
    let updates = futures_util::stream::unfold(
        (rx, shutdown, (AccountGuard { app, id: me.id }, held, seen)),
        |(mut rx, mut shutdown, guard)| async move {
            let data: Arc<str> = tokio::select! {
                m = rx.recv() => match m {
                    Ok(text) => text,
                    // Too slow to read every notice: one that names no game says "look again".
                    Err(RecvError::Lagged(_)) => Arc::from("{}"),
                    Err(RecvError::Closed) => return None,
                },
                _ = shutdown.changed() => return None,
            };
            let ev = Event::default().event("games").data(data.as_ref());
            Some((Ok(ev), (rx, shutdown, guard)))
        },
    );
    let stream = futures_util::StreamExt::chain(hello, updates);
    Ok(Sse::new(crate::http::live::aged(&aged_app, stream))
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// Drops an account's channel when its last stream ends.
struct AccountGuard {
    app: Arc<App>,
    id: String,
}

impl Drop for AccountGuard {
    fn drop(&mut self) {
        self.app.notifier.unsubscribed_account(&self.id);
    }
}
