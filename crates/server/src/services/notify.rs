//! Live updates and presence: the live channels of games, of signed-in players and of the
//! lobby, for WebSockets and server-sent events alike, and the notices that carry a change to
//! the other servers sharing a PostgreSQL database (LISTEN/NOTIFY).

use crate::lock;
use crate::store::Store;
use boardlab_core::Seat;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// The live channels of this server.
pub struct Notifier {
    store: Arc<Store>,
    channels: Mutex<HashMap<String, broadcast::Sender<Update>>>,
    /// Live channels of signed-in players, by account id: a message whenever one of their
    /// games changes.
    account_channels: Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>,
    /// Tells lobby pages that the open challenges changed.
    lobby: broadcast::Sender<()>,
    /// Live connections that showed a seat's token, per game and seat (this server's only).
    presence: Mutex<HashMap<String, [u32; 2]>>,
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
    /// The event's name for server-sent events: `state` or `review`.
    pub event: &'static str,
    /// The message, JSON text.
    pub text: Arc<str>,
}

/// The live-update message carrying a state.
#[must_use]
pub fn live_message(state_json: &str) -> String {
    format!("{{\"type\":\"state\",\"state\":{state_json}}}")
}

impl Notifier {
    /// The channels of a server whose notices to other servers go through `store`.
    #[must_use]
    pub fn new(store: Arc<Store>) -> Notifier {
        Notifier {
            store,
            channels: Mutex::new(HashMap::new()),
            account_channels: Mutex::new(HashMap::new()),
            lobby: broadcast::channel(16).0,
            presence: Mutex::new(HashMap::new()),
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

    pub fn publish(&self, id: &str, version: i64, json: &str) {
        let channels = lock(&self.channels);
        if let Some(tx) = channels.get(id) {
            if tx.receiver_count() > 0 {
                let _ = tx.send(Update {
                    version: Some(version),
                    event: "state",
                    text: Arc::from(live_message(json)),
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
                    text: Arc::from(text),
                });
            }
        }
    }

    /// The presence message of game `id`: which seats have a live connection here.
    pub fn presence_message(&self, id: &str) -> String {
        let counts = lock(&self.presence).get(id).copied().unwrap_or([0, 0]);
        serde_json::json!({
            "type": "presence",
            "presence": { "first": counts[0] > 0, "second": counts[1] > 0 },
        })
        .to_string()
    }

    /// A live connection to game `id` holds `seats` (`delta` 1) or no longer does (-1); tells
    /// every live client when a seat comes or goes.
    pub fn set_present(&self, id: &str, seats: &[Seat], delta: i32) {
        let changed = {
            let mut map = lock(&self.presence);
            let counts = map.entry(id.to_string()).or_insert([0, 0]);
            let before = counts.map(|c| c > 0);
            for seat in seats {
                let c = &mut counts[seat.index()];
                *c = if delta > 0 {
                    *c + 1
                } else {
                    c.saturating_sub(1)
                };
            }
            let after = counts.map(|c| c > 0);
            if *counts == [0, 0] {
                map.remove(id);
            }
            before != after
        };
        if changed {
            self.announce(id, "presence", self.presence_message(id));
        }
    }
}
