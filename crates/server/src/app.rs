//! The server's shared state: the store, a cache of live games, live-update channels, and the
//! computer players. Every change to a game goes through [`App::act`]: check the action
//! against the state rebuilt from the log, commit the event, then answer and notify.

use crate::error::ApiError;
use crate::limits::{ComputerLimits, PerAddress};
use crate::player::Player;
use crate::scheduler::{Class, SearchPool};
use crate::state::{Action, Event, Live, Meta, SeatAccount};
use crate::store::{Backend, GameRow, GameSummary, Store, StoreError, Write};
use crate::{now_ms, token, view};
use boardlab_core::Seat;
use boardlab_games::GameKind;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::broadcast;

/// The most positions the solitaire solver may visit for a puzzle hint (about a second).
const HINT_PUZZLE_NODES: u64 = 4_000_000;

/// The search behind `GET /api/games/{id}/hint`.
pub const HINT_SPEC: &str = "best:time=500ms";

/// The longest time making one puzzle may take.
pub const PUZZLE_TIME: Duration = Duration::from_secs(5);

/// Puzzles kept in memory at most (all are dropped when the cache is full).
const PUZZLE_CACHE: usize = 10_000;

/// Games kept in memory at most (least recently touched ones are dropped first).
const CACHE_LIMIT: usize = 20_000;

/// Most game owners remembered (forgotten all at once past it: their games then take turns
/// as games of their own).
const OWNERS_LIMIT: usize = 200_000;

/// A game in memory: fixed facts and the state after its log.
#[derive(Debug)]
pub struct CachedGame {
    pub meta: Arc<Meta>,
    pub live: Live,
}

/// One game's cache slot; its lock serialises every change to the game in this process.
#[derive(Debug, Default)]
pub struct Slot {
    entry: tokio::sync::Mutex<Option<CachedGame>>,
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

/// Who acts.
#[derive(Clone, Debug)]
pub enum Actor {
    /// A person holding a seat token, signed in to an account (by its id), both or neither.
    Person {
        token: Option<String>,
        account: Option<String>,
    },
    /// The computer playing `seat`.
    Computer(Seat),
    /// The server's clock, flagging `seat`.
    Clock(Seat),
}

impl Actor {
    /// A person known by a token only.
    #[must_use]
    pub fn token(token: Option<String>) -> Actor {
        Actor::Person {
            token,
            account: None,
        }
    }
}

/// A new game as requested.
#[derive(Debug)]
pub struct NewGame {
    pub kind: GameKind,
    pub options: boardlab_core::Options,
    pub seed: u64,
    pub position: Option<String>,
    pub players: [Player; 2],
    pub same_screen: bool,
    /// The digests of the seats' tokens, when the players keep tokens they already hold (a
    /// rematch); `None` makes new tokens.
    pub token_hashes: Option<[Option<crate::token::TokenHash>; 2]>,
    /// The accounts holding the seats from the start (a rematch between accounts, a game
    /// from the lobby).
    pub accounts: [Option<SeatAccount>; 2],
    /// Whether the result counts for ratings.
    pub rated: bool,
    /// The time control, if the game has a clock.
    pub clock: Option<crate::clock::TimeControl>,
}

/// A new game checked and ready to store: its row and summary, its cached form, and the
/// tokens of its human seats.
struct Made {
    meta: Meta,
    live: Live,
    row: GameRow,
    summary: GameSummary,
    tokens: BTreeMap<Seat, String>,
}

impl Made {
    fn new(new: NewGame) -> Result<Made, ApiError> {
        let mut tokens = BTreeMap::new();
        let mut hashes = [None, None];
        if let Some(given) = new.token_hashes {
            hashes = given;
        } else {
            let shared = new.same_screen.then(token::new_token);
            for seat in Seat::BOTH {
                if !new.players[seat.index()].is_computer() {
                    let t = shared.clone().unwrap_or_else(token::new_token);
                    hashes[seat.index()] = Some(token::hash(&t));
                    tokens.insert(seat, t);
                }
            }
        }
        let meta = Meta {
            id: new_id(),
            kind: new.kind,
            options: new.options,
            seed: new.seed,
            position: new.position,
            players: new.players,
            tokens: hashes,
            same_screen: new.same_screen,
            created_ms: now_ms(),
            accounts: new.accounts,
            rated: new.rated,
            clock: new.clock,
        };
        let live = Live::new(&meta).map_err(|e| ApiError::bad_request(e.to_string()))?;
        let row = GameRow {
            id: meta.id.clone(),
            game: meta.kind.name().to_string(),
            options: serde_json::to_string(&meta.options.to_map()).expect("options serialise"),
            seed: meta.seed,
            position: meta.position.clone(),
            first_player: meta.players[0].to_string(),
            second_player: meta.players[1].to_string(),
            first_token: meta.tokens[0].map(|h| token::to_hex(&h)),
            second_token: meta.tokens[1].map(|h| token::to_hex(&h)),
            same_screen: meta.same_screen,
            created_ms: meta.created_ms,
            accounts: meta.accounts.clone().map(|a| a.map(|a| (a.id, a.name))),
            rated: meta.rated,
            clock: meta.clock.map(|c| c.to_string()),
        };
        let summary = summary(&meta, &live);
        Ok(Made {
            meta,
            live,
            row,
            summary,
            tokens,
        })
    }
}

/// Server settings that shape behaviour.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Pause before each computer move (lets people watch computer games).
    pub computer_delay: Duration,
    /// Serve the web UI from this folder instead of the embedded copy.
    pub web_dir: Option<std::path::PathBuf>,
    /// How much computer seats and hints may think.
    pub computer: ComputerLimits,
    /// The outside engines computer seats may run: each a program and its arguments.
    pub engines: Vec<Vec<String>>,
    /// Games one address may create per minute (0: no limit).
    pub games_per_minute: u32,
    /// Hints one address may ask for per minute (0: no limit).
    pub hints_per_minute: u32,
    /// Take client addresses from `X-Forwarded-For` (behind a trusted proxy).
    pub trust_proxy: bool,
    /// Log-ins and sign-ups one address, and log-ins one account name, may try per minute
    /// (0: no limit).
    pub logins_per_minute: u32,
    /// The server is reached over TLS (through a proxy): session cookies are `Secure`.
    pub behind_tls: bool,
    /// Live streams and password hashing.
    pub budgets: crate::limits::Budgets,
    /// How long after its author left a challenge for a game played now lapses.
    pub challenge_lapse: Duration,
}

struct Thinking {
    stop: Arc<AtomicBool>,
    again: bool,
}

/// The shared server state.
pub struct App {
    pub store: Arc<Store>,
    pub settings: Settings,
    cache: Mutex<HashMap<String, Arc<Slot>>>,
    channels: Mutex<HashMap<String, broadcast::Sender<Update>>>,
    thinking: Mutex<HashMap<String, Thinking>>,
    /// The search threads of computer players, hints and analysis, shared fairly.
    pub(crate) searches: Arc<SearchPool>,
    /// Who created each game this server knows of (a client address): computer players take
    /// turns for the search threads by it.
    owners: Mutex<HashMap<String, Arc<str>>>,
    /// Reviews in progress, by game id.
    pub(crate) reviews: Mutex<HashMap<String, crate::review::ReviewJob>>,
    /// Live connections that showed a seat's token, per game and seat (this server's only).
    presence: Mutex<HashMap<String, [u32; 2]>>,
    /// Game creations per client address.
    pub create_limit: PerAddress,
    /// Hints per client address.
    pub hint_limit: PerAddress,
    /// Analysis-board evaluations per client address.
    pub analysis_limit: PerAddress,
    /// Log-ins and sign-ups per client address.
    pub login_limit: PerAddress,
    /// Live streams (WebSockets and server-sent events) held open, per address and in all.
    pub streams: Arc<crate::limits::Gauge>,
    /// Analysis-board streams held open per address.
    pub analysis_streams: Arc<crate::limits::Gauge>,
    /// The password-hashing threads.
    pub hasher: crate::hashing::Hasher,
    /// Live channels of signed-in players, by account id: a message whenever one of their
    /// games changes.
    account_channels: Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>,
    /// Tells lobby pages that the open challenges changed.
    lobby: broadcast::Sender<()>,
    /// Held while rated results are being counted (one counting pass at a time here).
    rating: tokio::sync::Mutex<()>,
    /// A timer per game with a running clock, flagging it when its time runs out.
    flag_timers: Mutex<HashMap<String, tokio::task::JoinHandle<()>>>,
    shutting_down: AtomicBool,
    /// Tells live connections the server is stopping.
    pub shutdown: tokio::sync::watch::Sender<bool>,
    /// Puzzles made so far, by name (made again on request when dropped).
    puzzles: Mutex<HashMap<String, Arc<boardlab_solve::collection::PuzzleEntry>>>,
}

impl std::fmt::Debug for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "App({:?})", self.store)
    }
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A game's id: 16 lower-case hex digits from the operating system's generator.
fn new_id() -> String {
    let t = token::new_token();
    t[..16].to_string()
}

/// Whether `id` could be a game id (anything else is answered 404 without a lookup).
#[must_use]
pub fn valid_id(id: &str) -> bool {
    (1..=32).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
}

fn summary(meta: &Meta, live: &Live) -> GameSummary {
    let result = live.result();
    GameSummary {
        version: live.version,
        status: if live.finished() {
            "finished"
        } else {
            "ongoing"
        },
        termination: result.as_ref().map(|r| r.termination.to_string()),
        result: result.map(|r| r.tag),
        move_count: live.moves.len() as i64,
        to_move: live.to_move(),
        computer_to_move: live.computer_to_move(meta).is_some(),
        updated_ms: live.updated_ms,
        accounts: live.accounts.clone().map(|a| a.map(|a| a.id)),
        winner: live.result().and_then(|r| r.winner),
        deadline_ms: live.deadline(),
    }
}

fn meta_from_row(row: &GameRow) -> Result<Meta, String> {
    let kind: GameKind = row.game.parse().map_err(|e| format!("{e}"))?;
    let pairs: BTreeMap<String, String> =
        serde_json::from_str(&row.options).map_err(|e| format!("options: {e}"))?;
    let options = kind
        .info()
        .options_from_pairs(&pairs)
        .map_err(|e| e.to_string())?;
    let player = |t: &str| Player::parse(t);
    let hash = |t: &Option<String>| -> Result<Option<token::TokenHash>, String> {
        t.as_deref()
            .map(|h| token::hash_from_hex(h).ok_or_else(|| "bad token digest".to_string()))
            .transpose()
    };
    Ok(Meta {
        id: row.id.clone(),
        kind,
        options,
        seed: row.seed,
        position: row.position.clone(),
        players: [player(&row.first_player)?, player(&row.second_player)?],
        tokens: [hash(&row.first_token)?, hash(&row.second_token)?],
        same_screen: row.same_screen,
        created_ms: row.created_ms,
        rated: row.rated,
        clock: row
            .clock
            .as_deref()
            .map(str::parse::<crate::clock::TimeControl>)
            .transpose()?,
        accounts: row
            .accounts
            .clone()
            .map(|a| a.map(|(id, name)| SeatAccount { id, name })),
    })
}

impl App {
    /// The state around `store`.
    #[must_use]
    pub fn new(store: Arc<Store>, settings: Settings) -> Arc<App> {
        let (shutdown, _) = tokio::sync::watch::channel(false);
        let threads = settings.computer.threads.max(1);
        let analysis_threads = settings.computer.analysis_threads;
        Arc::new(App {
            create_limit: PerAddress::new(
                "new games",
                settings.games_per_minute,
                settings.games_per_minute,
            ),
            hint_limit: PerAddress::new(
                "hints",
                settings.hints_per_minute,
                settings.hints_per_minute.min(10),
            ),
            // The analysis board asks again at every move it shows: four times the hints.
            analysis_limit: PerAddress::new(
                "analyses",
                settings.hints_per_minute.saturating_mul(4),
                settings.hints_per_minute.saturating_mul(4).min(40),
            ),
            login_limit: PerAddress::new(
                "log-ins",
                settings.logins_per_minute,
                settings.logins_per_minute,
            ),
            streams: crate::limits::Gauge::new(
                "live streams",
                settings.budgets.max_streams,
                settings.budgets.streams_per_address,
            ),
            analysis_streams: crate::limits::Gauge::new(
                "analysis streams",
                usize::MAX,
                settings.budgets.analysis_streams_per_address,
            ),
            hasher: crate::hashing::Hasher::new(
                settings.budgets.hash_threads,
                settings.budgets.hash_queue,
            ),
            account_channels: Mutex::new(HashMap::new()),
            lobby: broadcast::channel(16).0,
            rating: tokio::sync::Mutex::new(()),
            flag_timers: Mutex::new(HashMap::new()),
            store,
            settings,
            cache: Mutex::new(HashMap::new()),
            channels: Mutex::new(HashMap::new()),
            thinking: Mutex::new(HashMap::new()),
            searches: SearchPool::new(threads, analysis_threads),
            owners: Mutex::new(HashMap::new()),
            reviews: Mutex::new(HashMap::new()),
            presence: Mutex::new(HashMap::new()),
            puzzles: Mutex::new(HashMap::new()),
            shutting_down: AtomicBool::new(false),
            shutdown,
        })
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
            live,
        })
    }

    /// Creates a game; returns its id and the tokens of its human seats.
    ///
    /// # Errors
    /// Options or a position the game cannot start from (400); storage failures.
    pub async fn create(
        self: &Arc<Self>,
        new: NewGame,
        owner: &str,
    ) -> Result<(String, BTreeMap<Seat, String>, String), ApiError> {
        let made = Made::new(new)?;
        self.set_owner(&made.meta.id, owner);
        self.store
            .write(Write::Create(Box::new((
                made.row.clone(),
                made.summary.clone(),
            ))))
            .await
            .map_err(ApiError::storage)?;
        let json = view::state_json(&made.meta, &made.live);
        let Made {
            meta, live, tokens, ..
        } = made;
        let id = meta.id.clone();
        self.install(meta, live).await;
        Ok((id, tokens, json))
    }

    /// Records that client `owner` made game `id` (kept while the server runs).
    pub(crate) fn set_owner(&self, id: &str, owner: &str) {
        let mut owners = lock(&self.owners);
        if owners.len() >= OWNERS_LIMIT {
            owners.clear();
        }
        owners.insert(id.to_string(), Arc::from(owner));
    }

    /// The client whose share of the search threads game `id`'s computer players use: the
    /// one that made it, or, for a game made before this server started, the game itself.
    fn owner_of(&self, id: &str) -> Arc<str> {
        lock(&self.owners)
            .get(id)
            .cloned()
            .unwrap_or_else(|| Arc::from(format!("game {id}")))
    }

    /// Caches a game just stored and lets the computer move in it.
    async fn install(self: &Arc<Self>, meta: Meta, live: Live) {
        let id = meta.id.clone();
        let computer = live.computer_to_move(&meta).is_some();
        if meta.clock.is_some() {
            self.schedule_flag(&id, live.deadline());
        }
        let slot = self.slot(&id);
        *slot.entry.lock().await = Some(CachedGame {
            meta: Arc::new(meta),
            live,
        });
        if computer {
            self.schedule_computer(&id);
        }
    }

    /// The state of a game as JSON text.
    ///
    /// # Errors
    /// 404 for an unknown game; storage failures.
    pub async fn state_json(&self, id: &str) -> Result<String, ApiError> {
        self.with_entry(id, |e| view::state_json(&e.meta, &e.live))
            .await
    }

    /// The state of a game as JSON text, with its version.
    ///
    /// # Errors
    /// 404 for an unknown game; storage failures.
    pub async fn state_and_version(&self, id: &str) -> Result<(String, i64), ApiError> {
        self.with_entry(id, |e| (view::state_json(&e.meta, &e.live), e.live.version))
            .await
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
        if !valid_id(id) {
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
    /// returns the new state as JSON text. Nothing changes on an error.
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
        self: &Arc<Self>,
        id: &str,
        actor: &Actor,
        action: Action,
        data: &str,
        expected_version: Option<i64>,
    ) -> Result<String, ApiError> {
        if action != Action::Flag {
            // A clock that ran out ends the game before anything else is judged.
            self.flag_if_due(id).await;
        }
        self.act_making(id, actor, action, data, expected_version, None)
            .await
    }

    /// Records that the side to move of game `id` ran out of time, if it has; whether it did.
    pub async fn flag_if_due(self: &Arc<Self>, id: &str) -> bool {
        let due = self
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
            .act_making(
                id,
                &Actor::Clock(seat),
                Action::Flag,
                data,
                Some(version),
                None,
            )
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

    /// As [`App::act`], and with `made`, that game is stored in the same transaction as the
    /// event, and only if the event is (a rematch: never a new game without the old game's
    /// record of it, nor the other way round).
    async fn act_making(
        self: &Arc<Self>,
        id: &str,
        actor: &Actor,
        action: Action,
        data: &str,
        expected_version: Option<i64>,
        mut made: Option<Made>,
    ) -> Result<String, ApiError> {
        // The players of a game made with this action (a rematch), told of it once it exists.
        let made_for: Option<(String, Vec<String>)> = made.as_ref().map(|m| {
            let accounts = m.meta.accounts.iter().flatten().map(|a| a.id.clone());
            (m.meta.id.clone(), accounts.collect())
        });
        if !valid_id(id) {
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
            let mut next = entry.live.clone();
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
                    entry.live = next;
                    let json = view::state_json(&entry.meta, &entry.live);
                    self.publish(id, entry.live.version, &json);
                    let told: Vec<String> = entry
                        .live
                        .accounts
                        .iter()
                        .flatten()
                        .map(|a| a.id.clone())
                        .collect();
                    self.tell_accounts(&told, id);
                    if entry.meta.clock.is_some() {
                        self.schedule_flag(id, entry.live.deadline());
                    }
                    if entry.meta.rated && entry.live.finished() {
                        let me = Arc::clone(self);
                        tokio::spawn(async move { me.rate_pending().await });
                    }
                    let computer = entry.live.computer_to_move(&entry.meta).is_some();
                    drop(guard);
                    if let Some((new_id, accounts)) = &made_for {
                        for a in accounts {
                            self.tell_started(a, new_id).await;
                        }
                    }
                    self.stop_thinking(id);
                    if computer {
                        self.schedule_computer(id);
                    }
                    return Ok(json);
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
    fn tell_accounts(&self, accounts: &[String], id: &str) {
        self.tell_accounts_text(accounts, &serde_json::json!({ "game": id }).to_string());
    }

    /// Tells a player that game `id` started for them (a challenge of theirs was accepted, a
    /// rematch was agreed), so their page can go to it.
    pub(crate) async fn tell_started(&self, account: &str, id: &str) {
        let text = serde_json::json!({ "game": id, "started": true }).to_string();
        self.tell_account(account, &text).await;
    }

    /// Sends `text` (JSON) to a player's live channel on every server sharing the database.
    pub(crate) async fn tell_account(&self, account: &str, text: &str) {
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
    pub(crate) fn tell_account_here(&self, account: &str, text: &str) {
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
    async fn tell_accounts_of(&self, id: &str) {
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
    pub(crate) fn lobby_changed_here(&self) {
        let _ = self.lobby.send(());
    }

    /// Tells lobby pages on every server sharing the database that the challenges changed.
    pub(crate) async fn lobby_changed(&self) {
        self.lobby_changed_here();
        if let Err(e) = self.store.notify(crate::store::LOBBY_CHANNEL, "").await {
            tracing::warn!("cannot tell the other servers of a lobby change: {e}");
        }
    }

    /// Counts the results of finished rated games not counted yet. Each is counted in one
    /// transaction that records it as counted, so a game is counted once however many
    /// servers try (the server that ended it tries at once; every server's sweep tries
    /// again, for a result whose server stopped before counting it).
    pub async fn rate_pending(&self) {
        let _one_at_a_time = self.rating.lock().await;
        let pending = match self.store.unrated_results().await {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!("cannot look for rated results: {e}");
                return;
            }
        };
        for r in pending {
            if let Err(e) = self.store.rate_game(&r, now_ms()).await {
                tracing::warn!(game = r.game_id, "cannot count a rated result: {e}");
            }
        }
    }

    /// Forgets the channel of a game nobody listens to any more.
    pub fn unsubscribed(&self, id: &str) {
        let mut channels = lock(&self.channels);
        if channels.get(id).is_some_and(|c| c.receiver_count() == 0) {
            channels.remove(id);
        }
    }

    fn publish(&self, id: &str, version: i64, json: &str) {
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
    pub(crate) fn announce(&self, id: &str, event: &'static str, text: String) {
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

    /// A rematch of game `id`: `offer`, `accept` or `decline`. Accepting (or offering on one
    /// screen or against the computer, where the offer is agreed at once) starts a new game
    /// with the same options and start, the seats swapped, each player keeping the token they
    /// hold; the old game's log records the new game's id. Answers the old game's state.
    ///
    /// # Errors
    /// As [`App::act`]. The new game and the acceptance are stored in one transaction: when
    /// the acceptance loses a race, no new game is left behind.
    pub async fn rematch(
        self: &Arc<Self>,
        id: &str,
        actor: Actor,
        (answer, rated): (&str, bool),
        version: Option<i64>,
        owner: &str,
    ) -> Result<String, ApiError> {
        let action = match answer {
            "offer" => Action::RematchOffer,
            "accept" => Action::RematchAccept,
            "decline" => Action::RematchDecline,
            other => {
                return Err(ApiError::bad_request(format!(
                    "unknown rematch action '{other}'; accepted: offer, accept, decline"
                )))
            }
        };
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
        let mut trial = live.clone();
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

    /// The presence message of game `id`: which seats have a live connection here.
    pub(crate) fn presence_message(&self, id: &str) -> String {
        let counts = lock(&self.presence).get(id).copied().unwrap_or([0, 0]);
        serde_json::json!({
            "type": "presence",
            "presence": { "first": counts[0] > 0, "second": counts[1] > 0 },
        })
        .to_string()
    }

    /// A live connection to game `id` holds `seats` (`delta` 1) or no longer does (-1); tells
    /// every live client when a seat comes or goes.
    pub(crate) fn set_present(&self, id: &str, seats: &[Seat], delta: i32) {
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

    /// Another server changed game `id` to `version`: drop a stale cached copy, and reload and
    /// notify local subscribers.
    pub async fn changed_elsewhere(self: &Arc<Self>, id: &str, version: i64) {
        self.tell_accounts_of(id).await;
        let slot = {
            let cache = lock(&self.cache);
            cache.get(id).cloned()
        };
        let listening = lock(&self.channels)
            .get(id)
            .is_some_and(|c| c.receiver_count() > 0);
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
                self.publish(id, e.live.version, &view::state_json(&e.meta, &e.live));
            }
        }
        drop(guard);
        self.stop_thinking(id);
    }

    /// Reloads a game from the store and notifies its subscribers.
    async fn refresh(&self, id: &str) -> Result<(), ApiError> {
        let slot = self.slot(id);
        let mut guard = slot.entry.lock().await;
        self.reload(id, &mut guard).await?;
        let e = guard.as_ref().expect("loaded");
        self.publish(id, e.live.version, &view::state_json(&e.meta, &e.live));
        Ok(())
    }

    /// Forgets every cached game (after missed notifications) and refreshes subscribers.
    pub async fn forget_all(self: &Arc<Self>) {
        let ids: Vec<String> = lock(&self.cache).keys().cloned().collect();
        lock(&self.cache).clear();
        let listened: Vec<String> = lock(&self.channels).keys().cloned().collect();
        for id in listened {
            let _ = self.refresh(&id).await;
        }
        drop(ids);
    }

    fn stop_thinking(&self, id: &str) {
        if let Some(t) = lock(&self.thinking).get(id) {
            t.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Makes sure the computer moves in game `id` when it is its turn. At most one task per
    /// game thinks in this process; asking again while it runs makes it look once more.
    pub fn schedule_computer(self: &Arc<Self>, id: &str) {
        if self.shutting_down.load(Ordering::Relaxed) {
            return;
        }
        {
            let mut thinking = lock(&self.thinking);
            if let Some(t) = thinking.get_mut(id) {
                t.again = true;
                return;
            }
            thinking.insert(
                id.to_string(),
                Thinking {
                    stop: Arc::new(AtomicBool::new(false)),
                    again: false,
                },
            );
        }
        let app = Arc::clone(self);
        let id = id.to_string();
        tokio::spawn(async move {
            loop {
                let moved = app.computer_turn(&id).await;
                if moved && !app.shutting_down.load(Ordering::Relaxed) {
                    continue;
                }
                let mut thinking = lock(&app.thinking);
                match thinking.get_mut(&id) {
                    Some(t) if t.again && !app.shutting_down.load(Ordering::Relaxed) => {
                        t.again = false;
                        t.stop.store(false, Ordering::Relaxed);
                    }
                    _ => {
                        thinking.remove(&id);
                        break;
                    }
                }
            }
        });
    }

    /// One computer move if a computer seat is to move; whether a move was played.
    async fn computer_turn(self: &Arc<Self>, id: &str) -> bool {
        let snapshot = self
            .with_entry(id, |e| {
                e.live.computer_to_move(&e.meta).map(|seat| {
                    let bot = match e.meta.player(seat) {
                        Player::Computer(b) => b.clone(),
                        Player::Human => unreachable!("a computer seat"),
                    };
                    let moves: Vec<String> = e.live.moves.iter().map(|p| p.text.clone()).collect();
                    let start = e.live.start().clone();
                    // On a clock, the computer thinks within what its clock allows.
                    let budget = e.live.clocks.and_then(|c| {
                        let left = c.left_at(seat.index(), true, now_ms());
                        c.control.computer_budget_ms(left)
                    });
                    (
                        (seat, bot, start, moves),
                        (e.live.game.clone(), e.live.version, e.meta.seed, budget),
                    )
                })
            })
            .await;
        let Ok(Some(((seat, bot, start, moves), (game, version, seed, budget)))) = snapshot else {
            return false;
        };
        // Checked again here: the game may come from a server that allowed other engines.
        if let Err(e) = bot.check_engine(&self.settings.engines) {
            tracing::warn!(
                game = id,
                "computer player {bot} cannot play ({e}); it resigns"
            );
            return self.computer_resigns(id, seat, version).await;
        }
        let Some(stop) = lock(&self.thinking).get(id).map(|t| Arc::clone(&t.stop)) else {
            return false;
        };
        stop.store(false, Ordering::Relaxed);
        if !self.settings.computer_delay.is_zero() {
            tokio::time::sleep(self.settings.computer_delay).await;
        }
        // The bot as this server allows it, holding one slot per search thread: computer
        // players and hints together never use more threads than the operator gave them.
        let limits = self.settings.computer;
        let (bot, threads) = bot.within(game.kind(), &limits);
        let owner = self.owner_of(id);
        let permit = self
            .searches
            .acquire(&owner, Class::Computer, threads as usize, Arc::clone(&stop))
            .await;
        // Fewer threads when the pool had fewer to give.
        let bot = bot.with_threads(permit.slots());
        let mut limit = bot.deadline(&limits);
        if let Some(ms) = budget {
            limit = limit.min(Duration::from_millis(u64::try_from(ms).unwrap_or(0)));
        }
        let seed = seed ^ (version as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let stop2 = Arc::clone(&stop);
        let bot2 = bot.clone();
        let game2 = game.clone();
        let mut task = tokio::task::spawn_blocking(move || {
            let r = bot2.choose(&start, &moves, &game2, seed, &stop2);
            drop(permit);
            r
        });
        let chosen = match tokio::time::timeout(limit, &mut task).await {
            Ok(r) => r,
            Err(_) => {
                stop.store(true, Ordering::Relaxed);
                task.await
            }
        };
        let mv = match chosen {
            Ok(Ok(mv)) => mv,
            Ok(Err(boardlab_ai::AiError::Engine(e))) => {
                // An outside engine that fails loses the game, as over a board.
                tracing::warn!(game = id, "computer player {bot} failed ({e}); it resigns");
                return self.computer_resigns(id, seat, version).await;
            }
            Ok(Err(e)) => {
                tracing::warn!(
                    game = id,
                    "computer player {bot} failed ({e}); playing a random move"
                );
                match crate::bot::ComputerPlayer::random().choose(
                    &game,
                    &[],
                    &game,
                    seed,
                    &AtomicBool::new(false),
                ) {
                    Ok(mv) => mv,
                    Err(_) => return false,
                }
            }
            Err(e) => {
                tracing::error!(game = id, "computer player task failed: {e}");
                return false;
            }
        };
        match self
            .act(id, &Actor::Computer(seat), Action::Move, &mv, Some(version))
            .await
        {
            Ok(_) => true,
            Err(e) if e.is_conflict() => {
                // The game changed while the computer thought (take-back, resignation, another
                // server): look again.
                true
            }
            Err(e) => {
                tracing::error!(game = id, "computer move {mv} refused: {}", e.message);
                false
            }
        }
    }

    /// The computer seat `seat` resigns game `id` (its outside engine failed or is not
    /// allowed here); whether it did.
    async fn computer_resigns(self: &Arc<Self>, id: &str, seat: Seat, version: i64) -> bool {
        match self
            .act(
                id,
                &Actor::Computer(seat),
                Action::Resign,
                "",
                Some(version),
            )
            .await
        {
            Ok(_) => true,
            Err(e) if e.is_conflict() => true,
            Err(e) => {
                tracing::error!(game = id, "computer resignation refused: {}", e.message);
                false
            }
        }
    }

    /// One of the search threads for client `key`'s request of `class`, waited for up to 10
    /// seconds; `stop` is set when the pool needs the thread back.
    ///
    /// # Errors
    /// 503 when they stay busy.
    pub(crate) async fn search_slot(
        &self,
        key: &str,
        class: Class,
        stop: Arc<AtomicBool>,
    ) -> Result<crate::scheduler::Permit, ApiError> {
        tokio::time::timeout(
            Duration::from_secs(10),
            self.searches.acquire(key, class, 1, stop),
        )
        .await
        .map_err(|_| {
            ApiError::busy(
                "busy",
                "the computer players are all busy; try again shortly",
                5,
            )
        })
    }

    /// Runs `work` on the blocking pool while holding one of the search threads, in client
    /// `key`'s turn (waiting at most 10 seconds for one).
    ///
    /// # Errors
    /// 503 when the search threads stay busy.
    pub async fn search<T: Send + 'static>(
        &self,
        key: &str,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let stop = Arc::new(AtomicBool::new(false));
        let permit = self.search_slot(key, Class::Hint, stop).await?;
        tokio::task::spawn_blocking(move || {
            let out = work();
            drop(permit);
            out
        })
        .await
        .map_err(|e| {
            ApiError::new(
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                e.to_string(),
            )
        })
    }

    /// The puzzle `id`, made on first request (within [`PUZZLE_TIME`]) and kept.
    ///
    /// # Errors
    /// 404 when the generator finds no such puzzle, 503 when making it takes too long or the
    /// computer players are busy.
    pub async fn puzzle(
        &self,
        key: &str,
        id: boardlab_solve::collection::PuzzleId,
    ) -> Result<Arc<boardlab_solve::collection::PuzzleEntry>, ApiError> {
        use boardlab_solve::collection::{make, MakeError};
        let name = id.to_string();
        if let Some(e) = lock(&self.puzzles).get(&name) {
            return Ok(Arc::clone(e));
        }
        let deadline = std::time::Instant::now() + PUZZLE_TIME;
        let entry = self
            .search(key, move || make(id, Some(deadline)))
            .await?
            .map_err(|e| match e {
                MakeError::NotFound(_) => ApiError::not_found(e.to_string()),
                MakeError::OutOfTime(_) => ApiError::new(
                    axum::http::StatusCode::SERVICE_UNAVAILABLE,
                    "busy",
                    e.to_string(),
                ),
            })?;
        let entry = Arc::new(entry);
        let mut cache = lock(&self.puzzles);
        if cache.len() >= PUZZLE_CACHE {
            cache.clear();
        }
        cache.insert(name, Arc::clone(&entry));
        Ok(entry)
    }

    /// A suggested move for the side to move of game `id`: a short search of the strongest
    /// computer player (exact where the game is small enough).
    ///
    /// # Errors
    /// 404 unknown game, 409 the game is over or is between two people on two screens, 503
    /// when the computer players are all busy.
    pub async fn hint(&self, id: &str, key: &str) -> Result<view::HintView, ApiError> {
        let (game, finished, version, seed, between_people) = self
            .with_entry(id, |e| {
                (
                    e.live.game.clone(),
                    e.live.finished(),
                    e.live.version,
                    e.meta.seed,
                    !e.meta.same_screen
                        && !e.live.game.is_solitaire()
                        && !e.meta.players.iter().any(Player::is_computer),
                )
            })
            .await?;
        if between_people {
            return Err(ApiError::conflict(
                "not_allowed",
                "hints are not offered in a game between two people",
            ));
        }
        if finished {
            return Err(ApiError::conflict(
                "game_over",
                "the game is over: there is no move to suggest",
            ));
        }
        let stop = Arc::new(AtomicBool::new(false));
        let permit = self
            .search_slot(key, Class::Hint, Arc::clone(&stop))
            .await?;
        // A puzzle is answered exactly where the solitaire solver decides it quickly.
        let puzzle = game.clone();
        let exact = tokio::task::spawn_blocking(move || puzzle.puzzle_hint(HINT_PUZZLE_NODES))
            .await
            .ok()
            .flatten();
        if let Some((pv, solvable)) = exact {
            drop(permit);
            return Ok(view::HintView {
                best: pv[0].clone(),
                exact: true,
                value: Some(if solvable { "win" } else { "loss" }),
                score: if solvable { 1.0 } else { 0.0 },
                pv,
                text: if solvable {
                    "keeps the puzzle solvable".to_string()
                } else {
                    "the puzzle can no longer be solved from here".to_string()
                },
                bot: "solitaire solver".to_string(),
            });
        }
        let spec: boardlab_ai::BotSpec = HINT_SPEC.parse().expect("a valid spec");
        let seed = seed ^ (version as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
        let seat = game.to_move();
        let colours = [game.colour_of(Seat::First), game.colour_of(Seat::Second)];
        let solitaire = game.is_solitaire();
        let analysis = tokio::task::spawn_blocking(move || {
            let r = boardlab_ai::analyze(&*game, &spec, seed, &stop);
            drop(permit);
            r
        })
        .await
        .map_err(|e| {
            ApiError::new(
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                e.to_string(),
            )
        })?
        .map_err(|e| ApiError::conflict("not_allowed", e.to_string()))?;
        let value = analysis.value.for_seat(seat);
        Ok(view::HintView {
            best: analysis.best,
            exact: value.proven.is_some(),
            value: value.proven.map(|p| match p.result_for(seat) {
                boardlab_core::Wdl::Win => "win",
                boardlab_core::Wdl::Loss => "loss",
                boardlab_core::Wdl::Draw => "draw",
            }),
            score: value.score,
            pv: analysis.pv,
            text: boardlab_ai::words::value_words(value, colours, solitaire),
            bot: analysis.bot,
        })
    }

    /// Starts the computer in games where it should be moving and nobody has moved for
    /// `idle` (after a restart, or when another server stopped).
    pub async fn sweep_computer_games(self: &Arc<Self>, idle: Duration) {
        let before = now_ms() - i64::try_from(idle.as_millis()).unwrap_or(i64::MAX);
        match self.store.waiting_for_computer(before).await {
            Ok(ids) => {
                for id in ids {
                    self.schedule_computer(&id);
                }
            }
            Err(e) => tracing::warn!("cannot look for computer games: {e}"),
        }
    }

    /// Forgets the rate-limit state of clients that have been quiet (run now and then).
    pub fn forget_idle_clients(&self) {
        self.create_limit.forget_idle();
        self.hint_limit.forget_idle();
        self.analysis_limit.forget_idle();
        self.login_limit.forget_idle();
    }

    /// Notes, now and three times per challenge lapse while the guard lives, that the
    /// player `account` has a page of the app open: their challenges stay open.
    pub(crate) fn keep_seen(self: &Arc<Self>, account: String) -> SeenGuard {
        let app = Arc::clone(self);
        SeenGuard(tokio::spawn(async move {
            let every = (app.settings.challenge_lapse / 3).max(Duration::from_millis(200));
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                if let Err(e) = app.store.author_seen(&account, now_ms()).await {
                    tracing::warn!("cannot note that a player is here: {e}");
                }
            }
        }))
    }

    /// Stops the computer players and tells live connections to close.
    pub fn begin_shutdown(&self) {
        self.shutting_down.store(true, Ordering::Relaxed);
        for t in lock(&self.thinking).values() {
            t.stop.store(true, Ordering::Relaxed);
        }
        self.stop_reviews();
        let _ = self.shutdown.send(true);
    }

    /// Waits (up to `limit`) for computer moves in progress to finish.
    pub async fn wait_for_computers(&self, limit: Duration) {
        let deadline = tokio::time::Instant::now() + limit;
        while !lock(&self.thinking).is_empty() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Keeps noting that a player is here until dropped.
#[derive(Debug)]
pub(crate) struct SeenGuard(tokio::task::JoinHandle<()>);

impl Drop for SeenGuard {
    fn drop(&mut self) {
        self.0.abort();
    }
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

/// The live-update message carrying a state.
#[must_use]
pub fn live_message(state_json: &str) -> String {
    format!("{{\"type\":\"state\",\"state\":{state_json}}}")
}

/// The seat `actor` acts for with `action`, or why it may not.
fn resolve_seat(meta: &Meta, live: &Live, actor: &Actor, action: Action) -> Result<Seat, ApiError> {
    let (token, account) = match actor {
        Actor::Computer(seat) | Actor::Clock(seat) => return Ok(*seat),
        Actor::Person {
            token: None,
            account: None,
        } => {
            return Err(ApiError::forbidden(
                "missing token: send the seat's token as \"token\", or sign in",
            ))
        }
        Actor::Person { token, account } => (token, account),
    };
    let mut seats = Vec::new();
    if let Some(t) = token {
        // A seat whose invite link was used answers to the token given at the join; the
        // link's token only reaches it to be told that it was used.
        seats = meta.seats_of(t);
        if action != Action::Join {
            seats.retain(|s| live.joined[s.index()].is_none());
        }
        for seat in Seat::BOTH {
            if let Some(digest) = &live.joined[seat.index()] {
                if crate::token::matches(t, digest) && !seats.contains(&seat) {
                    seats.push(seat);
                }
            }
        }
    }
    if let Some(account) = account {
        // A signed-in player holds the seats of their account (claims need the token).
        if action != Action::Claim {
            for seat in Seat::BOTH {
                let theirs = live.accounts[seat.index()]
                    .as_ref()
                    .is_some_and(|a| &a.id == account);
                if theirs && !seats.contains(&seat) {
                    seats.push(seat);
                }
            }
        }
    }
    match seats.as_slice() {
        [] if token.is_none() => Err(ApiError::forbidden(
            "no seat of this game belongs to your account",
        )),
        [] => Err(ApiError::forbidden(
            "wrong token: it holds no seat of this game",
        )),
        [seat] => {
            if action == Action::Move && !live.finished() && live.game.to_move() != *seat {
                return Err(ApiError::conflict(
                    "not_your_turn",
                    format!(
                        "it is not the {seat} seat's turn: the {} seat is to move",
                        live.game.to_move()
                    ),
                ));
            }
            Ok(*seat)
        }
        _ => Ok(live.game.to_move()),
    }
}
