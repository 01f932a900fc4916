//! Live updates: a WebSocket (`/api/games/{id}/live`) or server-sent events
//! (`/api/games/{id}/events`). Both send the game's state at once and again after every change,
//! as `{"type":"state","state":{…}}`, to players and spectators alike (a state holds no token),
//! a review's progress as `{"type":"review","review":{…}}`, and which seats are connected as
//! `{"type":"presence","presence":{"first":true,"second":false}}`. A WebSocket client holding
//! seats says so with `{"type":"hello","tokens":[…]}`; it then counts as present until it
//! closes, on any server sharing the database ([`crate::services::notify`]).
//!
//! Every live stream (these, the account's and the lobby's) counts against the server's
//! stream budget (`App::streams`): so many per client address and so many in all, leaving
//! connections for ordinary requests. A stream ends on the server's terms: after
//! `--stream-max-age` (clients reconnect), and, for a WebSocket, when the peer stops
//! answering pings.

use crate::app::App;
use crate::error::ApiError;
use crate::http::extract::{ClientAddr, GameId};
use crate::services::notify::{self, Update};
use crate::view;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::broadcast::Receiver;

/// Largest message accepted from a client (clients need not send anything).
const CLIENT_MESSAGE_LIMIT: usize = 4096;

/// How often a WebSocket peer is pinged.
const PING_EVERY: Duration = Duration::from_secs(30);

/// A WebSocket peer that sends nothing (not even a pong) for this long is gone.
const PEER_SILENT: Duration = Duration::from_secs(75);

/// Ends `stream` once the server's maximum stream age has passed (the client reconnects).
pub(crate) fn aged<S: futures_util::Stream>(
    app: &App,
    stream: S,
) -> futures_util::stream::TakeUntil<S, tokio::time::Sleep> {
    stream.take_until(tokio::time::sleep(app.settings.budgets.stream_max_age))
}

/// `GET /api/games/{id}/live`: upgrades to a WebSocket.
pub async fn websocket(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    GameId(id): GameId,
    session: crate::http::session::Session,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let held = app.streams.open(client)?;
    // Subscribe before reading the state, so no change falls between the two.
    let rx = app.notifier.subscribe(&id);
    let (first, version) = match app.games.state(&id).await {
        Ok(s) => {
            let version = s.live.version;
            (text(&notify::Message::State(s)), version)
        }
        Err(e) => {
            drop(rx);
            app.notifier.unsubscribed(&id);
            return Err(e);
        }
    };
    let upgrade = match upgrade {
        Ok(u) => u,
        Err(e) => {
            drop(rx);
            app.notifier.unsubscribed(&id);
            return Err(ApiError::bad_request(format!(
                "this endpoint needs a WebSocket upgrade ({}); use /api/games/{id}/events for \
                 server-sent events",
                e.body_text()
            )));
        }
    };
    Ok(upgrade
        .max_message_size(CLIENT_MESSAGE_LIMIT)
        .max_frame_size(CLIENT_MESSAGE_LIMIT)
        .on_upgrade(move |socket| async move {
            let account = session.account();
            run_socket(&app, &id, socket, rx, (version, first), account).await;
            app.notifier.unsubscribed(&id);
            drop(held);
        }))
}

async fn run_socket(
    app: &Arc<App>,
    id: &str,
    socket: WebSocket,
    mut rx: Receiver<Update>,
    (mut sent, first): (i64, Arc<str>),
    account: Option<String>,
) {
    let (mut sink, mut stream) = socket.split();
    if sink
        .send(Message::Text(first.as_ref().into()))
        .await
        .is_err()
    {
        return;
    }
    if sink
        .send(Message::Text(app.notifier.presence_message(id).into()))
        .await
        .is_err()
    {
        return;
    }
    // The seats this connection holds: those of its signed-in account, and those it showed
    // a token for (`{"type":"hello","tokens":[…]}`).
    let mut present = Present {
        app,
        id: id.to_string(),
        seats: Vec::new(),
        account_seats: match &account {
            Some(a) => app.games.seats_of_account(id, a).await,
            None => Vec::new(),
        },
    };
    present.set(Vec::new());
    let mut shutdown = app.shutdown.subscribe();
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    let too_old = tokio::time::sleep(app.settings.budgets.stream_max_age);
    tokio::pin!(too_old);
    let mut heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            update = rx.recv() => match update {
                Ok(update) => {
                    let fresh = update.version.is_none_or(|v| v > sent);
                    if fresh {
                        sent = update.version.unwrap_or(sent);
                        if sink.send(Message::Text(text(&update.message).as_ref().into())).await.is_err() {
                            return;
                        }
                    }
                }
                // Too slow to read every update: the channel keeps the latest ones, and each
                // carries the whole state, so reading on brings the client up to date.
                Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return,
            },
            incoming = stream.next() => {
                heard = tokio::time::Instant::now();
                match incoming {
                    Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                    Some(Ok(Message::Text(text))) => present.hello(&text).await,
                    Some(Ok(_)) => {}
                }
            },
            _ = ping.tick() => {
                // A peer that answered nothing since well before the last ping is gone.
                if heard.elapsed() > PEER_SILENT
                    || sink.send(Message::Ping(Vec::new().into())).await.is_err()
                {
                    return;
                }
            }
            () = &mut too_old => {
                // Long enough: the client reconnects (and is counted again).
                let frame = axum::extract::ws::CloseFrame {
                    code: axum::extract::ws::close_code::AWAY,
                    reason: "the stream reached its maximum age; reconnect".into(),
                };
                let _ = sink.send(Message::Close(Some(frame))).await;
                return;
            }
            _ = shutdown.changed() => {
                let _ = sink.send(Message::Close(None)).await;
                return;
            }
        }
    }
}

/// A live update's message as sent: a state is written once for all its clients.
fn text(message: &notify::Message) -> Arc<str> {
    match message {
        notify::Message::State(s) => s.message(view::state_json, view::live_message),
        notify::Message::Text(t) => Arc::clone(t),
    }
}

/// The seats a live connection holds, counted as present until it closes.
struct Present<'a> {
    app: &'a Arc<App>,
    id: String,
    seats: Vec<boardlab_core::Seat>,
    /// The seats of the connection's signed-in account, counted whatever the tokens.
    account_seats: Vec<boardlab_core::Seat>,
}

impl Present<'_> {
    /// A client message: `{"type":"hello","tokens":[…]}` names the seats this client holds
    /// (checked against the game); anything else is ignored.
    async fn hello(&mut self, text: &str) {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else {
            return;
        };
        if v["type"] != "hello" {
            return;
        }
        let mut seats = Vec::new();
        for t in v["tokens"].as_array().into_iter().flatten().take(2) {
            if let Some(t) = t.as_str() {
                for seat in self.app.games.seats_of_token(&self.id, t).await {
                    if !seats.contains(&seat) {
                        seats.push(seat);
                    }
                }
            }
        }
        self.set(seats);
    }

    /// The connection now holds the seats of `tokens` and of its account.
    fn set(&mut self, mut seats: Vec<boardlab_core::Seat>) {
        for s in &self.account_seats {
            if !seats.contains(s) {
                seats.push(*s);
            }
        }
        self.app.notifier.set_present(&self.id, &seats, 1);
        self.app.notifier.set_present(&self.id, &self.seats, -1);
        self.seats = seats;
    }
}

impl Drop for Present<'_> {
    fn drop(&mut self) {
        self.app.notifier.set_present(&self.id, &self.seats, -1);
    }
}

/// `GET /api/games/{id}/events`: server-sent events, one `state` event per change.
pub async fn sse(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    GameId(id): GameId,
) -> Result<Response, ApiError> {
    let held = app.streams.open(client)?;
    let rx = app.notifier.subscribe(&id);
    let (first, version) = match app.games.state(&id).await {
        Ok(s) => {
            let version = s.live.version;
            (text(&notify::Message::State(s)), version)
        }
        Err(e) => {
            drop(rx);
            app.notifier.unsubscribed(&id);
            return Err(e);
        }
    };
    let shutdown = app.shutdown.subscribe();
    let initial = futures_util::stream::once(async move {
        Ok::<Event, Infallible>(Event::default().event("state").data(first.as_ref()))
    });
    let aged_app = Arc::clone(&app);
    let updates = futures_util::stream::unfold(
        (rx, version, shutdown, (Guard { app, id }, held)),
        |(mut rx, mut sent, mut shutdown, guard)| async move {
            loop {
                tokio::select! {
                    update = rx.recv() => match update {
                        Ok(u) if u.version.is_none_or(|v| v > sent) => {
                            sent = u.version.unwrap_or(sent);
                            let ev = Event::default().event(u.event).data(text(&u.message).as_ref());
                            return Some((Ok(ev), (rx, sent, shutdown, guard)));
                        }
                        Ok(_) | Err(RecvError::Lagged(_)) => {}
                        Err(RecvError::Closed) => return None,
                    },
                    _ = shutdown.changed() => return None,
                }
            }
        },
    );
    Ok(Sse::new(aged(&aged_app, initial.chain(updates)))
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// Drops a game's channel when the last event stream ends.
struct Guard {
    app: Arc<App>,
    id: String,
}

impl Drop for Guard {
    fn drop(&mut self) {
        self.app.notifier.unsubscribed(&self.id);
    }
}
