//! Computer players and hints: who thinks in which game, and the search pool they share
//! fairly with hints, puzzles, reviews and analysis ([`crate::scheduler`]).

use crate::error::ApiError;
use crate::player::Player;
use crate::scheduler::{Class, SearchPool};
use crate::services::games::{Actor, Games};
use crate::settings::ComputerLimits;
use crate::state::Action;
use crate::store::Store;
use crate::{lock, now_ms};
use boardlab_core::Seat;
use boardlab_games::GameKind;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The longest time making one puzzle may take.
pub const PUZZLE_TIME: Duration = Duration::from_secs(5);

/// Puzzles kept in memory at most (all are dropped when the cache is full).
const PUZZLE_CACHE: usize = 10_000;

struct Thinking {
    stop: Arc<AtomicBool>,
    again: bool,
}

pub use boardlab_games::analysis::Hint;

/// How the computer players of this server may play.
#[derive(Clone, Debug, Default)]
pub struct ComputerSettings {
    /// Pause before each computer move (lets people watch computer games).
    pub delay: Duration,
    /// How much computer seats and hints may think.
    pub limits: ComputerLimits,
    /// The outside engines computer seats may run: each a program and its arguments.
    pub engines: Vec<Vec<String>>,
}

/// The computer players, hints and puzzles of this server.
pub struct Computer {
    store: Arc<Store>,
    games: Arc<Games>,
    settings: ComputerSettings,
    thinking: Mutex<HashMap<String, Thinking>>,
    /// The search threads of computer players, hints and analysis, shared fairly.
    pub searches: Arc<SearchPool>,
    /// Puzzles made so far, by name (made again on request when dropped).
    puzzles: Mutex<HashMap<String, Arc<boardlab_solve::collection::PuzzleEntry>>>,
    shutting_down: AtomicBool,
}

impl std::fmt::Debug for Computer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Computer({:?})", self.settings)
    }
}

impl Computer {
    /// The computer players of `games`.
    #[must_use]
    pub fn new(store: Arc<Store>, games: Arc<Games>, settings: ComputerSettings) -> Computer {
        let threads = settings.limits.threads.max(1);
        let analysis_threads = settings.limits.analysis_threads;
        Computer {
            store,
            games,
            settings,
            thinking: Mutex::new(HashMap::new()),
            searches: SearchPool::new(threads, analysis_threads),
            puzzles: Mutex::new(HashMap::new()),
            shutting_down: AtomicBool::new(false),
        }
    }

    /// Whether this server runs `player` in a game of `kind`: an outside engine it allows, a
    /// player of that game, within the time and threads it gives.
    ///
    /// # Errors
    /// Why it does not.
    pub fn admits(&self, kind: GameKind, player: &Player) -> Result<(), String> {
        if let Player::Computer(bot) = player {
            bot.check_engine(&self.settings.engines)
                .and_then(|()| bot.check_game(kind))
                .and_then(|()| bot.check_limits(kind, &self.settings.limits))?;
        }
        Ok(())
    }

    /// Stops every computer player and starts no other (the server is stopping).
    pub fn stop_all(&self) {
        self.shutting_down.store(true, Ordering::Relaxed);
        for t in lock(&self.thinking).values() {
            t.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Stops the search of game `id`'s computer player, if one thinks.
    pub fn stop_thinking(&self, id: &str) {
        if let Some(t) = lock(&self.thinking).get(id) {
            t.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Makes sure the computer moves in game `id` when it is its turn. At most one task per
    /// game thinks in this process; asking again while it runs makes it look once more.
    pub fn schedule(self: &Arc<Self>, id: &str) {
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
            .games
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
        if !self.settings.delay.is_zero() {
            tokio::time::sleep(self.settings.delay).await;
        }
        // The bot as this server allows it, holding one slot per search thread: computer
        // players and hints together never use more threads than the operator gave them.
        let limits = self.settings.limits;
        let (bot, threads) = bot.within(game.kind(), &limits);
        let owner = self.games.owner_of(id);
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
            .games
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
            .games
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
    pub async fn hint(&self, id: &str, key: &str) -> Result<Hint, ApiError> {
        let (game, finished, version, seed, between_people) = self
            .games
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
        let seed = seed ^ (version as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
        tokio::task::spawn_blocking(move || {
            let r = boardlab_games::analysis::hint(&game, seed, &stop);
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
        .map_err(|e| ApiError::conflict("not_allowed", e.to_string()))
    }

    /// Starts the computer in games where it should be moving and nobody has moved for
    /// `idle` (after a restart, or when another server stopped).
    pub async fn sweep(self: &Arc<Self>, idle: Duration) {
        let before = now_ms() - i64::try_from(idle.as_millis()).unwrap_or(i64::MAX);
        match self.store.waiting_for_computer(before).await {
            Ok(ids) => {
                for id in ids {
                    self.schedule(&id);
                }
            }
            Err(e) => tracing::warn!("cannot look for computer games: {e}"),
        }
    }

    /// Waits (up to `limit`) for computer moves in progress to finish.
    pub async fn wait(&self, limit: Duration) {
        let deadline = tokio::time::Instant::now() + limit;
        while !lock(&self.thinking).is_empty() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}
