//! Accounts (optional: anonymous play needs none). A player signs up with a name and a
//! password, and is then known by a session cookie:
//!
//! - Passwords are hashed with Argon2id (the `argon2` crate's defaults: 19 MiB, 2 passes)
//!   on a few threads of their own ([`crate::hashing`]), and never logged, stored or
//!   returned as written.
//! - A session is a 128-bit secret in an `HttpOnly`, `SameSite=Lax` cookie (`Secure` behind
//!   TLS); the database keeps only its SHA-256 digest. Every log-in makes a new session, so a
//!   session id planted before the log-in is worth nothing after it (no session fixation).
//! - A request that changes anything and carries the cookie must come from this site: its
//!   `Origin` (or, without one, `Sec-Fetch-Site`) is checked, so another site cannot act in
//!   a visitor's name.
//! - Log-ins and sign-ups are limited per address, and failed log-ins per account name
//!   across servers, except from the account's known devices ([`crate::logins`]); 429 with
//!   `Retry-After`.
//! - A seat belongs to an account once its holder claims it (`POST /api/games/{id}/claim`
//!   with the seat's token while signed in); the account then acts in it from any browser.

use crate::app::App;
use crate::error::ApiError;
use crate::http::extract::{ClientAddr, GameId, JsonBody, QueryParams};
use crate::http::session::{
    cookie_secret, cross_site, same_site, secure, session_cookie, Session, DAY_MS, SESSION_DAYS,
};
use crate::services::games::Actor;
use crate::state::{Action, SeatAccount};
use crate::store::{name_key, AccountRow, Listed};
use crate::{logins, now_ms, token, view};
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

/// The shortest and longest account names.
pub const NAME_LENGTH: std::ops::RangeInclusive<usize> = 3..=20;

/// The shortest and longest passwords, in characters.
pub const PASSWORD_LENGTH: std::ops::RangeInclusive<usize> = 8..=128;

/// Checks a new account's name.
///
/// # Errors
/// What is wrong with it.
pub fn check_name(name: &str) -> Result<(), String> {
    let n = name.chars().count();
    if !NAME_LENGTH.contains(&n) {
        return Err(format!(
            "a name has {} to {} characters",
            NAME_LENGTH.start(),
            NAME_LENGTH.end()
        ));
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err("a name has only letters a–z, digits, '_' and '-'".into());
    }
    Ok(())
}

/// Checks a new password's length.
///
/// # Errors
/// What is wrong with it.
pub fn check_password(password: &str) -> Result<(), String> {
    let n = password.chars().count();
    if !PASSWORD_LENGTH.contains(&n) {
        return Err(format!(
            "a password has {} to {} characters",
            PASSWORD_LENGTH.start(),
            PASSWORD_LENGTH.end()
        ));
    }
    Ok(())
}

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
    crate::http::response::json_response(status, serde_json::to_string(body).expect("serialises"))
}

/// Starts a new session for an account and answers with its cookie.
async fn signed_in(
    app: &App,
    headers: &HeaderMap,
    status: StatusCode,
    id: &str,
    name: &str,
) -> Result<Response, ApiError> {
    let secret = token::new_token();
    let digest = token::to_hex(&token::hash(&secret));
    app.store
        .create_session(&digest, id, now_ms())
        .await
        .map_err(ApiError::storage)?;
    let device = logins::remember_device(app, headers, id, secure(app, headers)).await?;
    let mut r = json(
        status,
        &serde_json::json!({ "account": AccountView { name } }),
    );
    r.headers_mut().append(
        header::SET_COOKIE,
        session_cookie(Some(&secret), secure(app, headers)),
    );
    if let Some(device) = device {
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
    check_name(&req.name).map_err(ApiError::bad_request)?;
    check_password(&req.password).map_err(ApiError::bad_request)?;
    let hash = app
        .hasher
        .hash(req.password)
        .await
        .map_err(ApiError::from_hashing)?;
    let account = AccountRow {
        id: token::new_token()[..16].to_string(),
        name: req.name,
        password: hash,
    };
    let made = app
        .store
        .create_account(&account, now_ms())
        .await
        .map_err(ApiError::storage)?;
    if !made {
        return Err(ApiError::conflict(
            "name_taken",
            format!("the name '{}' is taken; choose another", account.name),
        ));
    }
    signed_in(
        &app,
        &headers,
        StatusCode::CREATED,
        &account.id,
        &account.name,
    )
    .await
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
    if req.name.len() > 64 || req.password.len() > 4 * PASSWORD_LENGTH.end() {
        return Err(wrong_login());
    }
    let found = app
        .store
        .account_by_name(&req.name)
        .await
        .map_err(ApiError::storage)?;
    let attempt = logins::admit(
        &app,
        &headers,
        &req.name,
        found.as_ref().map(|a| a.id.as_str()),
    )
    .await?;
    let stored = found.as_ref().map(|a| a.password.clone());
    let right = app
        .hasher
        .verify(req.password, stored)
        .await
        .map_err(ApiError::from_hashing)?;
    let Some(account) = found.filter(|_| right) else {
        logins::failed(&app, &attempt).await;
        return Err(wrong_login());
    };
    if let Some(old) = cookie_secret(&headers) {
        let _ = app
            .store
            .delete_session(&token::to_hex(&token::hash(&old)))
            .await;
    }
    signed_in(&app, &headers, StatusCode::OK, &account.id, &account.name).await
}

fn wrong_login() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "wrong_login",
        "wrong name or password",
    )
}

/// `POST /api/account/logout`: ends this session.
pub(crate) async fn logout(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    session: Session,
) -> Result<Response, ApiError> {
    if let Some(s) = &session.0 {
        app.store
            .delete_session(&s.digest)
            .await
            .map_err(ApiError::storage)?;
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
    let ended = app
        .store
        .delete_sessions(&me.id, now_ms() - SESSION_DAYS * DAY_MS)
        .await
        .map_err(ApiError::storage)?;
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

/// One game from one player's side.
#[derive(Debug, Serialize)]
struct PlayerGame {
    #[serde(flatten)]
    game: view::ListedView,
    /// The player's seat (`null`: both, on one screen).
    seat: Option<Seat>,
    /// The other seat's account name, if it has one.
    opponent: Option<String>,
    /// The other seat's player (`human` or `computer:SPEC`).
    opponent_player: String,
    /// Whether it is this player's move.
    your_turn: bool,
    /// `won`, `lost`, `drawn` or `ongoing`.
    outcome: &'static str,
}

fn player_game(l: Listed, name: &str) -> PlayerGame {
    let key = name_key(name);
    let holds = |i: usize| l.accounts[i].as_deref().is_some_and(|n| name_key(n) == key);
    let seat = match (holds(0), holds(1)) {
        (true, false) => Some(Seat::First),
        (false, true) => Some(Seat::Second),
        _ => None,
    };
    let opponent = seat.and_then(|s| l.accounts[s.other().index()].clone());
    let opponent_player = match seat {
        Some(Seat::First) => l.second_player.clone(),
        Some(Seat::Second) => l.first_player.clone(),
        None => "human".to_string(),
    };
    let your_turn = l
        .to_move
        .as_deref()
        .is_some_and(|t| seat.is_none_or(|s| s.name() == t));
    let outcome = if l.status != "finished" {
        "ongoing"
    } else {
        match (&l.winner, seat) {
            (Some(w), Some(s)) if w == s.name() => "won",
            (Some(_), Some(_)) => "lost",
            _ if l.result.as_deref() == Some("draw") => "drawn",
            _ => "finished",
        }
    };
    PlayerGame {
        game: l.into(),
        seat,
        opponent,
        opponent_player,
        your_turn,
        outcome,
    }
}

fn games_query(q: &GamesQuery) -> Result<(Option<&'static str>, i64), ApiError> {
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
    Ok((game, limit))
}

/// `GET /api/account/games`: the signed-in player's games, those where it is their move
/// first, then the others going on, then finished ones, most recently changed first.
pub(crate) async fn my_games(
    State(app): State<Arc<App>>,
    session: Session,
    QueryParams(q): QueryParams<GamesQuery>,
) -> Result<Response, ApiError> {
    let me = session.required()?;
    let (game, limit) = games_query(&q)?;
    let rows = app
        .store
        .account_games(&me.id, game, limit)
        .await
        .map_err(ApiError::storage)?;
    let games: Vec<PlayerGame> = rows
        .into_iter()
        .map(|l| player_game(l, &me.name))
        .filter(|g| q.result.as_deref().is_none_or(|r| r == g.outcome))
        .collect();
    let your_turn = games.iter().filter(|g| g.your_turn).count();
    Ok(json(
        StatusCode::OK,
        &serde_json::json!({ "your_turn": your_turn, "games": games }),
    ))
}

/// Most games a player page reads to count records.
const PLAYER_GAMES: i64 = 1000;

/// `GET /api/players/{name}`: a player's games (filtered by game and result) and their
/// record against each opponent.
pub(crate) async fn player(
    State(app): State<Arc<App>>,
    Path(params): Path<BTreeMap<String, String>>,
    QueryParams(q): QueryParams<GamesQuery>,
) -> Result<Response, ApiError> {
    let name = params.get("name").cloned().unwrap_or_default();
    let (game, limit) = games_query(&q)?;
    let unknown = || {
        ApiError::not_found(format!(
            "no player named '{}'",
            crate::error::shorten(&name)
        ))
    };
    if check_name(&name).is_err() {
        return Err(unknown());
    }
    let account = app
        .store
        .account_by_name(&name)
        .await
        .map_err(ApiError::storage)?
        .ok_or_else(unknown)?;
    let rows = app
        .store
        .account_games(&account.id, game, PLAYER_GAMES)
        .await
        .map_err(ApiError::storage)?;
    let all: Vec<PlayerGame> = rows
        .into_iter()
        .map(|l| player_game(l, &account.name))
        .collect();
    // Head to head: finished games against each named opponent.
    let mut records: BTreeMap<String, [u32; 3]> = BTreeMap::new();
    let mut total = [0u32; 3];
    for g in &all {
        let i = match g.outcome {
            "won" => 0,
            "lost" => 1,
            "drawn" => 2,
            _ => continue,
        };
        total[i] += 1;
        if let Some(o) = &g.opponent {
            records.entry(o.clone()).or_default()[i] += 1;
        }
    }
    let records: Vec<serde_json::Value> = records
        .into_iter()
        .map(|(opponent, [w, l, d])| {
            serde_json::json!({ "opponent": opponent, "won": w, "lost": l, "drawn": d })
        })
        .collect();
    let games: Vec<&PlayerGame> = all
        .iter()
        .filter(|g| q.result.as_deref().is_none_or(|r| r == g.outcome))
        .take(usize::try_from(limit).unwrap_or(50))
        .collect();
    // Ratings per game, each with its history (one point per rated game).
    let mut ratings = Vec::new();
    for r in app
        .store
        .ratings_of(&account.id)
        .await
        .map_err(ApiError::storage)?
    {
        let history = app
            .store
            .rating_history(&account.id, &r.game)
            .await
            .map_err(ApiError::storage)?;
        if let Some(view) = crate::http::lobby::rating_view(r) {
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
    Ok(json(
        StatusCode::OK,
        &serde_json::json!({
            "name": account.name,
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
    let seats = app.games.seats_of_token(&id, &t).await;
    let already = app
        .games
        .with_entry(&id, |e| {
            !seats.is_empty()
                && seats.iter().all(|s| {
                    e.live.accounts[s.index()]
                        .as_ref()
                        .is_some_and(|a| a.id == me.id)
                })
        })
        .await?;
    let state = if already {
        app.games.state_json(&id).await?
    } else {
        let account = SeatAccount {
            id: me.id.clone(),
            name: me.name.clone(),
        };
        app.act(
            &id,
            &Actor::token(Some(t)),
            Action::Claim,
            &account.to_data(),
            None,
        )
        .await?
    };
    Ok(crate::http::response::json_response(StatusCode::OK, state))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_passwords_are_checked() {
        assert!(check_name("ada_99").is_ok());
        assert!(check_name("ab").is_err());
        assert!(check_name("a b c").is_err());
        assert!(check_name("ünïcode").is_err());
        assert!(check_name(&"x".repeat(21)).is_err());
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
    }
}
