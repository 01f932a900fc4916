//! Live updates and presence: the live channels of games, of signed-in players and of the
//! lobby, for WebSockets and server-sent events alike, and the notices that carry a change to
//! the other servers sharing a PostgreSQL database (LISTEN/NOTIFY).
//!
//! Presence is the union of every server's: each server counts its own connections and tells
//! the others whenever a seat comes or goes on it, and again every [`PRESENCE_RENEW`]; what
//! another server said lapses after [`PRESENCE_TTL`] without news (a server that stopped).
//! A review's progress goes to every server in the order it was made.

use crate::lock;
use crate::state::GameState;
use crate::store::{Store, PRESENCE_CHANNEL, REVIEW_CHANNEL};
use boardlab_core::Seat;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, mpsc};

/// How often a server tells the others again which seats are present on it.
pub const PRESENCE_RENEW: Duration = Duration::from_secs(20);

/// How long what another server said of presence holds without news.
pub const PRESENCE_TTL: Duration = Duration::from_secs(60);

/// Notices to other servers waiting to be sent, at most (more are dropped, with a warning:
/// presence is told again soon, and a review's next step carries its progress).
const OUTBOX: usize = 1024;

/// The seats present on one other server, and when it said so.
type Elsewhere = HashMap<String, ([bool; 2], Instant)>;

/// The live channels of this server.
pub struct Notifier {
    store: Arc<Store>,
    channels: Mutex<HashMap<String, broadcast::Sender<Update>>>,
    /// Live channels of signed-in players, by account id: a message whenever one of their
    /// games changes.
    account_channels: Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>,
    /// Tells lobby pages that the open challenges changed.
    lobby: broadcast::Sender<()>,
    /// Live connections that showed a seat's token, per game and seat (this server's).
    presence: Mutex<HashMap<String, [u32; 2]>>,
    /// The seats present on other servers, per game and server.
    elsewhere: Mutex<HashMap<String, Elsewhere>>,
    /// This server's name in its notices (its own come back to it, and are skipped).
    server: String,
    /// Notices for the other servers, sent in order by [`Notifier::send_notices`].
    outbox: mpsc::Sender<(&'static str, String)>,
    outbox_rx: Mutex<Option<mpsc::Receiver<(&'static str, String)>>>,
}

impl std::fmt::Debug for Notifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Notifier({:?})", self.store)
    }
}

/// A live update: a message for the game's live channel.
#[derive(Clone, Debug)]
pub struct Update {
    /// The game's version for a state (sent only to clients that have not seen it yet);
    /// `None` for a message that is not a state (a review's progress), sent to everyone.
    pub version: Option<i64>,
    /// The event's name for server-sent events: `state`, `review` or `presence`.
    pub event: &'static str,
    pub message: Message,
}

/// What a live update carries.
#[derive(Clone, Debug)]
pub enum Message {
    /// A game's new state (the live layer writes it, once for every client).
    State(Arc<GameState>),
    /// A message already written: JSON text.
    Text(Arc<str>),
}

impl Notifier {
    /// The channels of a server whose notices to other servers go through `store`.
    #[must_use]
    pub fn new(store: Arc<Store>) -> Notifier {
        let (outbox, rx) = mpsc::channel(OUTBOX);
        Notifier {
            store,
            channels: Mutex::new(HashMap::new()),
            account_channels: Mutex::new(HashMap::new()),
            lobby: broadcast::channel(16).0,
            presence: Mutex::new(HashMap::new()),
            elsewhere: Mutex::new(HashMap::new()),
            server: crate::token::new_token()[..12].to_string(),
            outbox,
            outbox_rx: Mutex::new(Some(rx)),
        }
    }

    /// Sends the notices for the other servers, in order, as long as the server runs (started
    /// once, on PostgreSQL; elsewhere nothing is queued).
    pub async fn send_notices(&self) {
        let Some(mut rx) = lock(&self.outbox_rx).take() else {
            return;
        };
        while let Some((channel, payload)) = rx.recv().await {
            if let Err(e) = self.store.notify(channel, &payload).await {
                tracing::warn!("cannot tell the other servers of a live change: {e}");
            }
        }
    }

    /// Queues a notice for the other servers sharing the database.
    fn tell_others(&self, channel: &'static str, payload: String) {
        if self.store.pg_pool().is_none() {
            return;
        }
        if self.outbox.try_send((channel, payload)).is_err() {
            tracing::warn!("too many live changes to tell the other servers; one is dropped");
        }
    }

    /// Whether anyone here listens to game `id`.
    #[must_use]
    pub fn listened(&self, id: &str) -> bool {
        lock(&self.channels)
            .get(id)
            .is_some_and(|c| c.receiver_count() > 0)
    }

    /// The games with a live channel here.
    #[must_use]
    pub fn channels(&self) -> Vec<String> {
        lock(&self.channels).keys().cloned().collect()
    }

    /// Subscribes to live updates of a game.
    pub fn subscribe(&self, id: &str) -> broadcast::Receiver<Update> {
        let mut channels = lock(&self.channels);
        channels
            .entry(id.to_string())
            .or_insert_with(|| broadcast::channel(64).0)
            .subscribe()
    }

    /// Subscribes to the changes of a signed-in player's games.
    pub fn subscribe_account(&self, account: &str) -> broadcast::Receiver<Arc<str>> {
        let mut channels = lock(&self.account_channels);
        channels
            .entry(account.to_string())
            .or_insert_with(|| broadcast::channel(64).0)
            .subscribe()
    }

    /// Forgets the channel of an account nobody listens for any more.
    pub fn unsubscribed_account(&self, account: &str) {
        let mut channels = lock(&self.account_channels);
        if channels
            .get(account)
            .is_some_and(|c| c.receiver_count() == 0)
        {
            channels.remove(account);
        }
    }

    /// Tells the live channels of `accounts` (those listening on this server) that game
    /// `id` changed.
    pub fn tell_accounts(&self, accounts: &[String], id: &str) {
        self.tell_accounts_text(accounts, &serde_json::json!({ "game": id }).to_string());
    }

    /// Tells a player that game `id` started for them (a challenge of theirs was accepted, a
    /// rematch was agreed), so their page can go to it.
    pub async fn tell_started(&self, account: &str, id: &str) {
        let text = serde_json::json!({ "game": id, "started": true }).to_string();
        self.tell_account(account, &text).await;
    }

    /// Sends `text` (JSON) to a player's live channel on every server sharing the database.
    pub async fn tell_account(&self, account: &str, text: &str) {
        self.tell_account_here(account, text);
        if let Err(e) = self
            .store
            .notify(crate::store::ACCOUNT_CHANNEL, &format!("{account} {text}"))
            .await
        {
            tracing::warn!("cannot tell the other servers of a player's news: {e}");
        }
    }

    /// Sends `text` (JSON) to a player's live channel on this server.
    pub fn tell_account_here(&self, account: &str, text: &str) {
        self.tell_accounts_text(&[account.to_string()], text);
    }

    fn tell_accounts_text(&self, accounts: &[String], text: &str) {
        let channels = lock(&self.account_channels);
        if channels.is_empty() {
            return;
        }
        let text: Arc<str> = Arc::from(text);
        for a in accounts {
            if let Some(tx) = channels.get(a) {
                let _ = tx.send(Arc::clone(&text));
            }
        }
    }

    /// Another server changed game `id`: tells its players listening here, reading who they
    /// are from the database (only when anyone listens at all).
    pub async fn tell_accounts_of(&self, id: &str) {
        if lock(&self.account_channels).is_empty() {
            return;
        }
        match self.store.seat_accounts(id).await {
            Ok(Some(accounts)) => {
                let ids: Vec<String> = accounts.into_iter().flatten().collect();
                self.tell_accounts(&ids, id);
            }
            Ok(None) => {}
            Err(e) => tracing::warn!(game = id, "cannot read a game's accounts: {e}"),
        }
    }

    /// Subscribes to lobby changes.
    pub fn subscribe_lobby(&self) -> broadcast::Receiver<()> {
        self.lobby.subscribe()
    }

    /// Tells lobby pages on this server that the challenges changed.
    pub fn lobby_changed_here(&self) {
        let _ = self.lobby.send(());
    }

    /// Tells lobby pages on every server sharing the database that the challenges changed.
    pub async fn lobby_changed(&self) {
        self.lobby_changed_here();
        if let Err(e) = self.store.notify(crate::store::LOBBY_CHANNEL, "").await {
            tracing::warn!("cannot tell the other servers of a lobby change: {e}");
        }
    }

    /// Forgets the channel of a game nobody listens to any more.
    pub fn unsubscribed(&self, id: &str) {
        let mut channels = lock(&self.channels);
        if channels.get(id).is_some_and(|c| c.receiver_count() == 0) {
            channels.remove(id);
        }
    }

    /// Sends game `id`'s new `state` to its live clients here.
    pub fn publish(&self, id: &str, state: &Arc<GameState>) {
        let channels = lock(&self.channels);
        if let Some(tx) = channels.get(id) {
            if tx.receiver_count() > 0 {
                let _ = tx.send(Update {
                    version: Some(state.live.version),
                    event: "state",
                    message: Message::State(Arc::clone(state)),
                });
            }
        }
    }

    /// Sends `text`, a message that is not a state, to every live client of game `id`.
    pub fn announce(&self, id: &str, event: &'static str, text: String) {
        let channels = lock(&self.channels);
        if let Some(tx) = channels.get(id) {
            if tx.receiver_count() > 0 {
                let _ = tx.send(Update {
                    version: None,
                    event,
                    message: Message::Text(Arc::from(text)),
                });
            }
        }
    }

    /// Which seats of game `id` have a live connection on any server.
    fn presence_of(&self, id: &str) -> [bool; 2] {
        let here = lock(&self.presence)
            .get(id)
            .map_or([false, false], |c| c.map(|n| n > 0));
        let elsewhere = lock(&self.elsewhere);
        let mut seats = here;
        for (s, at) in elsewhere.get(id).into_iter().flat_map(HashMap::values) {
            if at.elapsed() < PRESENCE_TTL {
                seats = [seats[0] || s[0], seats[1] || s[1]];
            }
        }
        seats
    }

    /// The presence message of game `id`: which seats have a live connection.
    pub fn presence_message(&self, id: &str) -> String {
        let seats = self.presence_of(id);
        serde_json::json!({
            "type": "presence",
            "presence": { "first": seats[0], "second": seats[1] },
        })
        .to_string()
    }

    /// A live connection to game `id` holds `seats` (`delta` 1) or no longer does (-1); tells
    /// every live client, here and on the other servers, when a seat comes or goes.
    pub fn set_present(&self, id: &str, seats: &[Seat], delta: i32) {
        let before = self.presence_of(id);
        let here = {
            let mut map = lock(&self.presence);
            let counts = map.entry(id.to_string()).or_insert([0, 0]);
            let here_before = counts.map(|c| c > 0);
            for seat in seats {
                let c = &mut counts[seat.index()];
                *c = if delta > 0 {
                    *c + 1
                } else {
                    c.saturating_sub(1)
                };
            }
            let here = counts.map(|c| c > 0);
            if *counts == [0, 0] {
                map.remove(id);
            }
            (here != here_before).then_some(here)
        };
        if let Some(here) = here {
            self.tell_others(PRESENCE_CHANNEL, self.presence_notice(id, here));
        }
        if self.presence_of(id) != before {
            self.announce(id, "presence", self.presence_message(id));
        }
    }

    fn presence_notice(&self, id: &str, seats: [bool; 2]) -> String {
        format!(
            "{} {id} {}{}",
            self.server,
            u8::from(seats[0]),
            u8::from(seats[1])
        )
    }

    /// Another server's notice of presence (`SERVER GAME FS`, each of F and S `0` or `1`).
    pub fn presence_elsewhere(&self, payload: &str) {
        let mut parts = payload.split(' ');
        let (Some(server), Some(id), Some(bits)) = (parts.next(), parts.next(), parts.next())
        else {
            return;
        };
        if server == self.server || bits.len() != 2 {
            return;
        }
        let seats = [bits.starts_with('1'), bits.ends_with('1')];
        let before = self.presence_of(id);
        {
            let mut map = lock(&self.elsewhere);
            let game = map.entry(id.to_string()).or_default();
            if seats == [false, false] {
                game.remove(server);
            } else {
                game.insert(server.to_string(), (seats, Instant::now()));
            }
            if game.is_empty() {
                map.remove(id);
            }
        }
        if self.presence_of(id) != before {
            self.announce(id, "presence", self.presence_message(id));
        }
    }

    /// Tells the other servers again of the seats present here, and forgets what another
    /// server said too long ago (run every [`PRESENCE_RENEW`]).
    pub fn renew_presence(&self) {
        let here: Vec<(String, [bool; 2])> = lock(&self.presence)
            .iter()
            .map(|(id, c)| (id.clone(), c.map(|n| n > 0)))
            .collect();
        for (id, seats) in here {
            self.tell_others(PRESENCE_CHANNEL, self.presence_notice(&id, seats));
        }
        let lapsed: Vec<String> = {
            let mut map = lock(&self.elsewhere);
            let mut lapsed = Vec::new();
            map.retain(|id, game| {
                let n = game.len();
                game.retain(|_, (_, at)| at.elapsed() < PRESENCE_TTL);
                if game.len() != n {
                    lapsed.push(id.clone());
                }
                !game.is_empty()
            });
            lapsed
        };
        for id in lapsed {
            self.announce(&id, "presence", self.presence_message(&id));
        }
    }

    /// Sends a review's progress on game `id` to its live clients here and on every other
    /// server.
    pub fn review_progress(&self, id: &str, text: String) {
        self.tell_others(REVIEW_CHANNEL, format!("{} {id} {text}", self.server));
        self.announce(id, "review", text);
    }

    /// Another server's notice of a review's progress (`SERVER GAME JSON`): the game and the
    /// message, unless it is this server's own.
    #[must_use]
    pub fn review_elsewhere<'a>(&self, payload: &'a str) -> Option<(&'a str, &'a str)> {
        let (server, rest) = payload.split_once(' ')?;
        let (id, text) = rest.split_once(' ')?;
        (server != self.server).then_some((id, text))
    }
}
