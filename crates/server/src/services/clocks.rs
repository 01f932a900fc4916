//! The timekeeper: a timer per game with a running clock, which flags the side to move when its time
//! runs out (and, before any other action, [`Timekeeper::flag_if_due`] ends a game whose clock ran
//! out).

use crate::services::games::{Actor, Games};
use crate::state::Action;
use crate::store::Store;
use crate::{lock, now_ms};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The clocks of the games this server knows.
pub struct Timekeeper {
    store: Arc<Store>,
    games: Arc<Games>,
    /// A timer per game with a running clock, flagging it when its time runs out.
    flag_timers: Mutex<HashMap<String, tokio::task::JoinHandle<()>>>,
}

impl std::fmt::Debug for Timekeeper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Timekeeper({:?})", self.store)
    }
}

impl Timekeeper {
    /// The clocks of `games`.
    #[must_use]
    pub fn new(store: Arc<Store>, games: Arc<Games>) -> Timekeeper {
        Timekeeper {
            store,
            games,
            flag_timers: Mutex::new(HashMap::new()),
        }
    }

    /// Records that the side to move of game `id` ran out of time, if it has; whether it did.
    pub async fn flag_if_due(&self, id: &str) -> bool {
        // A game without a clock never runs out of time: most moves are so judged without a
        // store read (on PostgreSQL, `with_entry` checks the stored version).
        if self.games.known_without_clock(id).await {
            return false;
        }
        let due = self
            .games
            .with_entry(id, |e| {
                e.live
                    .flag_due(now_ms())
                    .map(|seat| (seat, e.live.version, e.live.flag_data(seat)))
            })
            .await;
        let Ok(Some((seat, version, data))) = due else {
            return false;
        };
        // A seat that never moved aborts the game rather than losing it.
        match self
            .games
            .act(id, &Actor::Clock(seat), Action::Flag, data, Some(version))
            .await
        {
            Ok(_) => true,
            Err(e) if e.is_conflict() => false,
            Err(e) => {
                tracing::warn!(game = id, "cannot record a flag: {}", e.message);
                false
            }
        }
    }

    /// Flags game `id` when its side to move runs out of time at `deadline_ms`, unless the
    /// game changes first (a later call replaces the timer).
    pub fn schedule_flag(self: &Arc<Self>, id: &str, deadline_ms: Option<i64>) {
        let mut timers = lock(&self.flag_timers);
        if let Some(old) = timers.remove(id) {
            old.abort();
        }
        let Some(deadline) = deadline_ms else {
            return;
        };
        let me = Arc::clone(self);
        let key = id.to_string();
        let wait = Duration::from_millis(u64::try_from(deadline - now_ms()).unwrap_or(0) + 20);
        timers.insert(
            key.clone(),
            tokio::spawn(async move {
                tokio::time::sleep(wait).await;
                lock(&me.flag_timers).remove(&key);
                me.flag_if_due(&key).await;
            }),
        );
    }

    /// Flags the games whose time ran out by now, and (with `all`) sets a timer for every
    /// game with a clock (after a start: games whose server stopped are flagged on time).
    pub async fn sweep_clocks(self: &Arc<Self>, all: bool) {
        let now = now_ms();
        match self.store.deadlines((!all).then_some(now)).await {
            Ok(games) => {
                for (id, deadline) in games {
                    if deadline <= now {
                        self.flag_if_due(&id).await;
                    } else {
                        self.schedule_flag(&id, Some(deadline));
                    }
                }
            }
            Err(e) => tracing::warn!("cannot look for clocks: {e}"),
        }
    }
}
