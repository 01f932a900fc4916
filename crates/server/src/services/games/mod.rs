//! The games service: the cache of live games and every change to a game. A change is checked
//! against the state rebuilt from the game's log, committed, and only then shown and told to
//! the game's watchers; on PostgreSQL each change is checked against the stored version, so
//! servers sharing a database stay in step.

mod made;
mod seats;

use crate::error::ApiError;
use crate::services::notify::Notifier;
use crate::state::{Action, Event, GameState, Live, Meta, SeatAccount};
use crate::store::{Backend, Listed, Store, StoreError, Write};
use crate::{lock, now_ms, token};
use boardlab_core::Seat;
pub use made::NewGame;
use made::{meta_from_row, summary, Made};
use seats::resolve_seat;
pub use seats::Actor;
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, Weak};

/// What the other services do when a game changes. The application wires them in, so the
/// games service knows none of them.
pub trait Followers: Send + Sync {
    /// Game `id`'s clock now runs out at `deadline_ms` (`None`: no clock runs).
    fn clock_changed(&self, id: &str, deadline_ms: Option<i64>);
    /// A rated game ended: its result is to be counted.
    fn rated_game_ended(&self);
    /// Game `id` changed: searches on its old state stop, and with `computer_to_move` the
    /// computer is to move in it.
    fn turn_changed(&self, id: &str, computer_to_move: bool);
    /// An action other than a flag is about to be judged in game `id`: a clock that ran out
    /// ends the game first.
    fn before_action<'a>(&'a self, id: &'a str) -> Pin<Box<dyn Future<Output = ()> + Send + 'a>>;
}

/// The games: a cache in front of the store, and the only path by which a game changes.
pub struct Games {
    store: Arc<Store>,
    notifier: Arc<Notifier>,
    cache: Mutex<HashMap<String, Arc<Slot>>>,
    /// Who created each game this server knows of (a client address): computer players take
    /// turns for the search threads by it.
    owners: Mutex<HashMap<String, Arc<str>>>,
    followers: Weak<dyn Followers>,
}

impl std::fmt::Debug for Games {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Games({:?})", self.store)
    }
}

/// Games kept in memory at most (least recently touched ones are dropped first).
const CACHE_LIMIT: usize = 20_000;

/// Most game owners remembered (forgotten all at once past it: their games then take turns
/// as games of their own).
const OWNERS_LIMIT: usize = 200_000;

/// A game in memory: fixed facts and the state after its log.
#[derive(Debug)]
pub struct CachedGame {
    pub meta: Arc<Meta>,
    pub live: Arc<Live>,
}

impl CachedGame {
    /// The game as it stands now.
    fn state(&self) -> Arc<GameState> {
        Arc::new(GameState::new(
            Arc::clone(&self.meta),
            Arc::clone(&self.live),
        ))
    }
}

/// One game's cache slot; its lock serialises every change to the game in this process.
#[derive(Debug, Default)]
pub struct Slot {
    entry: tokio::sync::Mutex<Option<CachedGame>>,
}

/// Forgets a cached game when dropped while still holding it: set while a write whose outcome
/// the cache must follow is on its way, and cleared once the outcome is known.
struct ForgetIfDropped<'a>(Option<&'a mut Option<CachedGame>>);

impl Drop for ForgetIfDropped<'_> {
    fn drop(&mut self) {
        if let Some(entry) = self.0.take() {
            *entry = None;
        }
    }
}

impl Games {
    /// The games of `store`, telling `notifier`'s channels and `followers` of every change.
    #[must_use]
    pub fn new(
        store: Arc<Store>,
        notifier: Arc<Notifier>,
        followers: Weak<dyn Followers>,
    ) -> Games {
        Games {
            store,
            notifier,
            cache: Mutex::new(HashMap::new()),
            owners: Mutex::new(HashMap::new()),
            followers,
        }
    }

    fn clock_changed(&self, id: &str, deadline_ms: Option<i64>) {
        if let Some(f) = self.followers.upgrade() {
            f.clock_changed(id, deadline_ms);
        }
    }

    fn turn_changed(&self, id: &str, computer_to_move: bool) {
        if let Some(f) = self.followers.upgrade() {
            f.turn_changed(id, computer_to_move);
        }
    }

    fn slot(&self, id: &str) -> Arc<Slot> {
        let mut cache = lock(&self.cache);
        if let Some(s) = cache.get(id) {
            return Arc::clone(s);
        }
        if cache.len() >= CACHE_LIMIT {
            // Drop the slots nobody is using; they reload from the store on demand.
            cache.retain(|_, s| Arc::strong_count(s) > 1);
            if cache.len() >= CACHE_LIMIT {
                let drop: Vec<String> = cache.keys().take(CACHE_LIMIT / 4).cloned().collect();
                for k in drop {
                    cache.remove(&k);
                }
            }
        }
        let s = Arc::new(Slot::default());
        cache.insert(id.to_string(), Arc::clone(&s));
        s
    }

    /// Loads the game into `guard` if it is not there.
    async fn ensure_loaded(
        &self,
        id: &str,
        guard: &mut Option<CachedGame>,
    ) -> Result<(), ApiError> {
        if guard.is_some() {
            return Ok(());
        }
        *guard = Some(self.load_entry(id).await?);
        Ok(())
    }

    /// Replaces the game in `guard` with the stored one.
    async fn reload(&self, id: &str, guard: &mut Option<CachedGame>) -> Result<(), ApiError> {
        *guard = None;
        self.ensure_loaded(id, guard).await
    }

    async fn load_entry(&self, id: &str) -> Result<CachedGame, ApiError> {
        let Some((row, events)) = self.store.load(id).await.map_err(ApiError::storage)? else {
            return Err(ApiError::not_found(format!("no game with id '{id}'")));
        };
        let meta = meta_from_row(&row).map_err(|reason| {
            ApiError::storage(StoreError::Corrupt {
                id: id.to_string(),
                reason,
            })
        })?;
        let live = Live::replay(&meta, &events).map_err(|reason| {
            ApiError::storage(StoreError::Corrupt {
                id: id.to_string(),
                reason,
            })
        })?;
        Ok(CachedGame {
            meta: Arc::new(meta),
            live: Arc::new(live),
        })
    }

    /// Creates a game; returns its id and the tokens of its human seats.
    ///
    /// # Errors
    /// Options or a position the game cannot start from (400); storage failures.
    pub async fn create(
        &self,
        new: NewGame,
        owner: &str,
    ) -> Result<(String, BTreeMap<Seat, String>, Arc<GameState>), ApiError> {
        let made = Made::new(new)?;
        self.set_owner(&made.meta.id, owner);
        self.store
            .write(Write::Create(Box::new((
                made.row.clone(),
                made.summary.clone(),
            ))))
            .await
            .map_err(ApiError::storage)?;
        let Made {
            meta, live, tokens, ..
        } = made;
        let id = meta.id.clone();
        let state = self.install(meta, live).await;
        Ok((id, tokens, state))
    }

    /// Records that client `owner` made game `id` (kept while the server runs).
    pub fn set_owner(&self, id: &str, owner: &str) {
        let mut owners = lock(&self.owners);
        if owners.len() >= OWNERS_LIMIT {
            owners.clear();
        }
        owners.insert(id.to_string(), Arc::from(owner));
    }

    /// The client whose share of the search threads game `id`'s computer players use: the
    /// one that made it, or, for a game made before this server started, the game itself.
    pub fn owner_of(&self, id: &str) -> Arc<str> {
        lock(&self.owners)
            .get(id)
            .cloned()
            .unwrap_or_else(|| Arc::from(format!("game {id}")))
    }

    /// Caches a game just stored and lets the computer move in it; the game as it stands.
    async fn install(&self, meta: Meta, live: Live) -> Arc<GameState> {
        let id = meta.id.clone();
        let computer = live.computer_to_move(&meta).is_some();
        if meta.clock.is_some() {
            self.clock_changed(&id, live.deadline());
        }
        let slot = self.slot(&id);
        let cached = CachedGame {
            meta: Arc::new(meta),
            live: Arc::new(live),
        };
        let state = cached.state();
        *slot.entry.lock().await = Some(cached);
        if computer {
            self.turn_changed(&id, true);
        }
        state
    }

    /// Game `id` as it stands.
    ///
    /// # Errors
    /// 404 for an unknown game; storage failures.
    pub async fn state(&self, id: &str) -> Result<Arc<GameState>, ApiError> {
        self.with_entry(id, CachedGame::state).await
    }

    /// Whether game `id` is known here, from its cached copy alone, to have no clock (what a
    /// game was made with never changes, so no store read is needed). `false` when the game
    /// has a clock or is not cached.
    pub async fn known_without_clock(&self, id: &str) -> bool {
        let slot = {
            let cache = lock(&self.cache);
            cache.get(id).cloned()
        };
        let Some(slot) = slot else {
            return false;
        };
        let entry = slot.entry.lock().await;
        entry.as_ref().is_some_and(|e| e.meta.clock.is_none())
    }

    /// Runs `f` on the game's entry. On PostgreSQL the cached copy is first checked against
    /// the stored version (one indexed read), so every server shows every committed change.
    ///
    /// # Errors
    /// 404 for an unknown game; storage failures.
    pub async fn with_entry<T>(
        &self,
        id: &str,
        f: impl FnOnce(&CachedGame) -> T,
    ) -> Result<T, ApiError> {
        if !token::valid_game_id(id) {
            return Err(ApiError::not_found(format!("no game with id '{id}'")));
        }
        let slot = self.slot(id);
        let mut guard = slot.entry.lock().await;
        let cached = guard.as_ref().map(|e| e.live.version);
        self.ensure_loaded(id, &mut guard).await?;
        if let Some(cached) = cached {
            if self.store.backend() == Backend::Postgres {
                // Another server may have committed a change whose notice is still on the way:
                // a client that was just answered by that server must see its change here too.
                let stored = self.store.version(id).await.map_err(ApiError::storage)?;
                if stored.is_some_and(|v| v > cached) {
                    self.reload(id, &mut guard).await?;
                }
            }
        }
        Ok(f(guard.as_ref().expect("loaded")))
    }

    /// Performs `action` on game `id` for `actor`, after checking `expected_version` if given;
    /// returns the new state as JSON text. Nothing changes on an error. A clock that ran out
    /// ends the game before any other action is judged.
    ///
    /// The change is made on a copy of the cached game, which replaces it only after the
    /// event is committed. If the caller goes away while the write is on its way (a client
    /// that hangs up), whether it commits is unknown, so the cached game is dropped and the
    /// next request reads the game from the database.
    ///
    /// # Errors
    /// 404 unknown game, 403 missing or wrong token, 409 stale version / not this seat's turn /
    /// game over / nothing pending, 400 malformed or illegal move; storage failures.
    pub async fn act(
        &self,
        id: &str,
        actor: &Actor,
        action: Action,
        data: &str,
        expected_version: Option<i64>,
    ) -> Result<Arc<GameState>, ApiError> {
        if action != Action::Flag {
            if let Some(f) = self.followers.upgrade() {
                f.before_action(id).await;
            }
        }
        self.act_making(id, actor, action, data, expected_version, None)
            .await
    }

    /// The most recently created games, newest first: `limit` of them, of one status and one
    /// game if given.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn recent(
        &self,
        limit: i64,
        status: Option<&str>,
        game: Option<&str>,
    ) -> Result<Vec<Listed>, ApiError> {
        self.store
            .recent(limit, status, game)
            .await
            .map_err(ApiError::storage)
    }

    /// The holder of the invite `token` of game `id` joins it: its seat then answers to the
    /// new token `fresh` (made here when the client proposed none) and no longer to the
    /// invite's. A join whose answer was lost may be sent again with the same `fresh`: the
    /// seat is then already its. The seat, the new token and the game's state.
    ///
    /// # Errors
    /// As [`Games::act`]; 409 `invite_used` when the seat answers to another token.
    pub async fn join(
        &self,
        id: &str,
        token: Option<String>,
        fresh: Option<String>,
    ) -> Result<(Seat, String, Arc<GameState>), ApiError> {
        let fresh = fresh.unwrap_or_else(token::new_token);
        let digest = token::to_hex(&token::hash(&fresh));
        let joined = self
            .act(id, &Actor::token(token), Action::Join, &digest, None)
            .await;
        let state = match joined {
            Ok(state) => state,
            Err(e) if e.code == "invite_used" => self.state(id).await.map_err(|_| e.clone())?,
            Err(e) => return Err(e),
        };
        let seat = Seat::BOTH
            .into_iter()
            .find(|s| state.live.joined[s.index()].is_some_and(|d| token::matches(&fresh, &d)))
            .ok_or_else(|| {
                ApiError::conflict(
                    "invite_used",
                    "this invite link has already been used: the seat is taken",
                )
            })?;
        Ok((seat, fresh, state))
    }

    /// The seats `token` holds in game `id` become the account's; the game's state (claiming
    /// seats already the account's changes nothing).
    ///
    /// # Errors
    /// As [`Games::act`].
    pub async fn claim(
        &self,
        id: &str,
        token: String,
        account: &SeatAccount,
    ) -> Result<Arc<GameState>, ApiError> {
        let seats = self.seats_of_token(id, &token).await;
        let already = self
            .with_entry(id, |e| {
                !seats.is_empty()
                    && seats.iter().all(|s| {
                        e.live.accounts[s.index()]
                            .as_ref()
                            .is_some_and(|a| a.id == account.id)
                    })
            })
            .await?;
        if already {
            return self.state(id).await;
        }
        self.act(
            id,
            &Actor::token(Some(token)),
            Action::Claim,
            &account.to_data(),
            None,
        )
        .await
    }

    /// As [`Games::act`], and with `made`, that game is stored in the same transaction as the
    /// event, and only if the event is (a rematch: never a new game without the old game's
    /// record of it, nor the other way round).
    async fn act_making(
        &self,
        id: &str,
        actor: &Actor,
        action: Action,
        data: &str,
        expected_version: Option<i64>,
        mut made: Option<Made>,
    ) -> Result<Arc<GameState>, ApiError> {
        // The players of a game made with this action (a rematch), told of it once it exists.
        let made_for: Option<(String, Vec<String>)> = made.as_ref().map(|m| {
            let accounts = m.meta.accounts.iter().flatten().map(|a| a.id.clone());
            (m.meta.id.clone(), accounts.collect())
        });
        if !token::valid_game_id(id) {
            return Err(ApiError::not_found(format!("no game with id '{id}'")));
        }
        let slot = self.slot(id);
        let mut guard = slot.entry.lock().await;
        // One retry: when another server appended first, reload and try again (unless the
        // caller named the version it expected, which is then stale).
        for attempt in 0..2 {
            self.ensure_loaded(id, &mut guard).await?;
            if let Some(v) = expected_version {
                // The client has seen a version this copy has not: another server committed
                // it and its notice is still on the way. Judge against the database.
                if v > guard.as_ref().expect("loaded").live.version {
                    self.reload(id, &mut guard).await?;
                }
            }
            let entry = guard.as_ref().expect("loaded");
            let seat = resolve_seat(&entry.meta, &entry.live, actor, action)?;
            if let Some(v) = expected_version {
                if v != entry.live.version {
                    return Err(ApiError::stale(v, entry.live.version));
                }
            }
            // The change is made on a copy; the cached game stays as it is until the event
            // is committed.
            entry.live.admit(action).map_err(ApiError::from_action)?;
            let mut next = Live::clone(&entry.live);
            let at_ms = now_ms().max(next.updated_ms);
            let stored = next
                .apply(&entry.meta, seat, action, data, at_ms)
                .map_err(ApiError::from_action)?;
            let event = Event {
                seq: next.version,
                seat,
                action,
                data: stored,
                at_ms,
            };
            let write = Write::Append {
                game_id: id.to_string(),
                event,
                summary: summary(&entry.meta, &next),
                creates: made
                    .as_ref()
                    .map(|m| Box::new((m.row.clone(), m.summary.clone()))),
            };
            let mut unsure = ForgetIfDropped(Some(&mut *guard));
            let written = self.store.write(write).await;
            unsure.0 = None;
            drop(unsure);
            match written {
                Ok(true) => {
                    if let Some(m) = made.take() {
                        // Cached before anyone is told of it.
                        self.install(m.meta, m.live).await;
                    }
                    let entry = guard.as_mut().expect("loaded");
                    entry.live = Arc::new(next);
                    let state = entry.state();
                    self.notifier.publish(id, &state);
                    let told: Vec<String> = entry
                        .live
                        .accounts
                        .iter()
                        .flatten()
                        .map(|a| a.id.clone())
                        .collect();
                    self.notifier.tell_accounts(&told, id);
                    if entry.meta.clock.is_some() {
                        self.clock_changed(id, entry.live.deadline());
                    }
                    if entry.meta.rated && entry.live.finished() {
                        if let Some(f) = self.followers.upgrade() {
                            f.rated_game_ended();
                        }
                    }
                    let computer = entry.live.computer_to_move(&entry.meta).is_some();
                    drop(guard);
                    if let Some((new_id, accounts)) = &made_for {
                        for a in accounts {
                            self.notifier.tell_started(a, new_id).await;
                        }
                    }
                    self.turn_changed(id, computer);
                    return Ok(state);
                }
                Ok(false) => {
                    // Another server wrote this version first: our state is stale.
                    *guard = None;
                    if expected_version.is_some() || attempt == 1 {
                        self.ensure_loaded(id, &mut guard).await?;
                        let now = guard.as_ref().expect("loaded").live.version;
                        return Err(ApiError::stale(expected_version.unwrap_or(now - 1), now));
                    }
                }
                Err(e) => {
                    // Unknown whether it committed: forget the cached state.
                    *guard = None;
                    return Err(ApiError::storage(e));
                }
            }
        }
        unreachable!("the loop returns on its second pass")
    }

    /// A rematch of game `id`: `offer`, `accept` or `decline`. Accepting (or offering on one
    /// screen or against the computer, where the offer is agreed at once) starts a new game
    /// with the same options and start, the seats swapped, each player keeping the token they
    /// hold; the old game's log records the new game's id. Answers the old game's state.
    ///
    /// # Errors
    /// As [`Games::act`]. The new game and the acceptance are stored in one transaction: when
    /// the acceptance loses a race, no new game is left behind.
    pub async fn rematch(
        &self,
        id: &str,
        actor: Actor,
        (action, rated): (Action, bool),
        version: Option<i64>,
        owner: &str,
    ) -> Result<Arc<GameState>, ApiError> {
        let (meta, live) = self
            .with_entry(id, |e| (Arc::clone(&e.meta), e.live.clone()))
            .await?;
        let seat = resolve_seat(&meta, &live, &actor, action)?;
        let at_once = meta.same_screen || meta.player(seat.other()).is_computer();
        if rated && (action != Action::RematchOffer || at_once) {
            return Err(ApiError::bad_request(
                "only an offer between two people chooses a rated rematch; an acceptance \
                 takes the offer's choice",
            ));
        }
        if action == Action::RematchDecline || (action == Action::RematchOffer && !at_once) {
            let data = if rated { "rated" } else { "" };
            return self.act(id, &actor, action, data, version).await;
        }
        // Try the acceptance on a copy first, so no game is made for a refused one.
        let mut trial = Live::clone(&live);
        trial
            .apply(&meta, seat, Action::RematchAccept, &"0".repeat(16), 0)
            .map_err(ApiError::from_action)?;
        let kept = |s: Seat| live.joined[s.index()].or(meta.tokens[s.index()]);
        let made = Made::new(NewGame {
            kind: meta.kind,
            options: meta.options.clone(),
            seed: rand::random(),
            position: meta.position.clone(),
            players: [meta.players[1].clone(), meta.players[0].clone()],
            same_screen: meta.same_screen,
            token_hashes: Some([kept(Seat::Second), kept(Seat::First)]),
            accounts: [live.accounts[1].clone(), live.accounts[0].clone()],
            // Rated only when the offer said so, for all to see.
            rated: live.rematch_rated,
            clock: meta.clock,
        })?;
        let new_id = made.meta.id.clone();
        self.set_owner(&new_id, owner);
        self.act_making(
            id,
            &actor,
            Action::RematchAccept,
            &new_id,
            version,
            Some(made),
        )
        .await
    }

    /// The seats `token` holds in game `id` (both in a same-screen game); empty for a token
    /// that holds none, or an unknown game.
    pub async fn seats_of_token(&self, id: &str, token: &str) -> Vec<Seat> {
        self.with_entry(id, |e| {
            Seat::BOTH
                .into_iter()
                .filter(|&seat| {
                    let actor = Actor::token(Some(token.to_string()));
                    resolve_seat(&e.meta, &e.live, &actor, Action::Resign)
                        .is_ok_and(|s| s == seat || e.meta.same_screen)
                })
                .collect()
        })
        .await
        .unwrap_or_default()
    }

    /// The seats of game `id` held by the account `account`.
    pub async fn seats_of_account(&self, id: &str, account: &str) -> Vec<Seat> {
        self.with_entry(id, |e| {
            Seat::BOTH
                .into_iter()
                .filter(|s| {
                    e.live.accounts[s.index()]
                        .as_ref()
                        .is_some_and(|a| a.id == account)
                })
                .collect()
        })
        .await
        .unwrap_or_default()
    }

    /// Another server changed game `id` to `version`: drop a stale cached copy, and reload and
    /// notify local subscribers.
    pub async fn changed_elsewhere(&self, id: &str, version: i64) {
        self.notifier.tell_accounts_of(id).await;
        let slot = {
            let cache = lock(&self.cache);
            cache.get(id).cloned()
        };
        let listening = self.notifier.listened(id);
        let Some(slot) = slot else {
            if listening {
                let _ = self.refresh(id).await;
            }
            return;
        };
        let mut guard = slot.entry.lock().await;
        if guard.as_ref().is_some_and(|e| e.live.version >= version) {
            return;
        }
        *guard = None;
        if listening {
            if let Ok(()) = self.ensure_loaded(id, &mut guard).await {
                let e = guard.as_ref().expect("loaded");
                self.notifier.publish(id, &e.state());
            }
        }
        drop(guard);
        self.turn_changed(id, false);
    }

    /// Reloads a game from the store and notifies its subscribers.
    async fn refresh(&self, id: &str) -> Result<(), ApiError> {
        let slot = self.slot(id);
        let mut guard = slot.entry.lock().await;
        self.reload(id, &mut guard).await?;
        let e = guard.as_ref().expect("loaded");
        self.notifier.publish(id, &e.state());
        Ok(())
    }

    /// Forgets every cached game (after missed notifications) and refreshes subscribers.
    pub async fn forget_all(&self) {
        let ids: Vec<String> = lock(&self.cache).keys().cloned().collect();
        lock(&self.cache).clear();
        let listened = self.notifier.channels();
        for id in listened {
            let _ = self.refresh(&id).await;
        }
        drop(ids);
    }
}
