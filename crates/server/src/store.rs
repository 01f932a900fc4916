//! Durable storage: SQLite (one file, WAL) or PostgreSQL behind the same SQL, run with sqlx's
//! run-time query functions. Writes go through a writer task that commits waiting writes
//! together (group commit); a write is acknowledged only after its transaction committed.
//! Appends use `INSERT … ON CONFLICT DO NOTHING` on `(game_id, seq)`, so two servers appending
//! the same version to one game cannot both succeed: the loser learns it and reloads.

use crate::state::{Action, Event};
use boardlab_core::Seat;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::Row;
use std::str::FromStr;
use std::time::Duration;
use thiserror::Error;
use tokio::sync::{mpsc, oneshot};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The channel PostgreSQL servers use to tell each other a game changed (`ID VERSION`).
pub const NOTIFY_CHANNEL: &str = "boardlab_games";

/// Most writes committed in one transaction.
const MAX_BATCH: usize = 256;

/// A storage failure.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("bad database URL '{url}': {reason}")]
    Url { url: String, reason: String },
    #[error("stored game {id} is unreadable: {reason}")]
    Corrupt { id: String, reason: String },
    #[error("the storage writer has stopped")]
    WriterGone,
}

/// Which database a URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A game's fixed facts as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub game: String,
    /// Non-default options as a JSON object.
    pub options: String,
    pub seed: u64,
    pub position: Option<String>,
    pub first_player: String,
    pub second_player: String,
    /// Token digests in hex.
    pub first_token: Option<String>,
    pub second_token: Option<String>,
    pub same_screen: bool,
    pub created_ms: i64,
}

/// The summary kept beside a game for listings and sweeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub version: i64,
    /// `ongoing` or `finished`.
    pub status: &'static str,
    pub result: Option<String>,
    pub termination: Option<String>,
    pub move_count: i64,
    pub to_move: Option<Seat>,
    pub computer_to_move: bool,
    pub updated_ms: i64,
}

/// One line of the recent-games list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    pub id: String,
    pub game: String,
    pub first_player: String,
    pub second_player: String,
    pub created_ms: i64,
    pub version: i64,
    pub status: String,
    pub result: Option<String>,
    pub termination: Option<String>,
    pub move_count: i64,
    pub to_move: Option<String>,
    pub updated_ms: i64,
}

/// A write for the writer task.
#[derive(Debug)]
pub enum Write {
    /// A new game with its initial summary.
    Create(GameRow, Summary),
    /// An event appended to a game's log, with the summary after it.
    Append {
        game_id: String,
        event: Event,
        summary: Summary,
    },
}

type Reply = oneshot::Sender<Result<bool, StoreError>>;

enum Pools {
    Sqlite { write: SqlitePool, read: SqlitePool },
    Postgres(PgPool),
}

/// The database: pools plus the writer task's queue.
pub struct Store {
    pools: Pools,
    queue: std::sync::Mutex<Option<mpsc::Sender<(Write, Reply)>>>,
    writer: tokio::sync::Mutex<Option<tokio::task::JoinHandle<()>>>,
    description: String,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Store({})", self.description)
    }
}

/// Runs the same statements on whichever pool is in use.
macro_rules! on_pool {
    ($pools:expr, $p:ident => $body:expr) => {
        match $pools {
            Pools::Sqlite { read: $p, .. } => $body,
            Pools::Postgres($p) => $body,
        }
    };
}

/// Executes one write inside a transaction; evaluates to `bool` (applied) or returns the
/// error from the enclosing function.
macro_rules! apply_write {
    ($conn:expr, $w:expr, $notify:expr) => {
        match $w {
            Write::Create(g, s) => {
                sqlx::query(
                    "INSERT INTO games (id, game, options, seed, position, first_player, \
                     second_player, first_token, second_token, same_screen, created_ms, version, \
                     status, result, termination, move_count, to_move, computer_to_move, \
                     updated_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, \
                     $14, $15, $16, $17, $18, $19)",
                )
                .bind(&g.id)
                .bind(&g.game)
                .bind(&g.options)
                .bind(g.seed as i64)
                .bind(&g.position)
                .bind(&g.first_player)
                .bind(&g.second_player)
                .bind(&g.first_token)
                .bind(&g.second_token)
                .bind(i32::from(g.same_screen))
                .bind(g.created_ms)
                .bind(s.version)
                .bind(s.status)
                .bind(&s.result)
                .bind(&s.termination)
                .bind(s.move_count)
                .bind(s.to_move.map(Seat::name))
                .bind(i32::from(s.computer_to_move))
                .bind(s.updated_ms)
                .execute($conn)
                .await?;
                true
            }
            Write::Append {
                game_id,
                event,
                summary: s,
            } => {
                let inserted = sqlx::query(
                    "INSERT INTO events (game_id, seq, seat, action, data, at_ms) \
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (game_id, seq) DO NOTHING",
                )
                .bind(game_id)
                .bind(event.seq)
                .bind(event.seat.name())
                .bind(event.action.name())
                .bind(&event.data)
                .bind(event.at_ms)
                .execute($conn)
                .await?
                .rows_affected()
                    == 1;
                if inserted {
                    sqlx::query(
                        "UPDATE games SET version = $1, status = $2, result = $3, \
                         termination = $4, move_count = $5, to_move = $6, computer_to_move = $7, \
                         updated_ms = $8 WHERE id = $9",
                    )
                    .bind(s.version)
                    .bind(s.status)
                    .bind(&s.result)
                    .bind(&s.termination)
                    .bind(s.move_count)
                    .bind(s.to_move.map(Seat::name))
                    .bind(i32::from(s.computer_to_move))
                    .bind(s.updated_ms)
                    .bind(game_id)
                    .execute($conn)
                    .await?;
                    if $notify {
                        sqlx::query("SELECT pg_notify($1, $2)")
                            .bind(NOTIFY_CHANNEL)
                            .bind(format!("{game_id} {}", event.seq))
                            .execute($conn)
                            .await?;
                    }
                }
                inserted
            }
        }
    };
}

/// Reads the URL's backend: `postgres://…`/`postgresql://…`, `sqlite:…`, or a file path.
///
/// # Errors
/// An empty URL or an unknown scheme.
pub fn backend_of(url: &str) -> Result<Backend, StoreError> {
    let lower = url.trim().to_ascii_lowercase();
    if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
        Ok(Backend::Postgres)
    } else if lower.starts_with("sqlite:") {
        Ok(Backend::Sqlite)
    } else if lower.is_empty() {
        Err(StoreError::Url {
            url: url.into(),
            reason: "empty".into(),
        })
    } else if lower.contains("://") {
        Err(StoreError::Url {
            url: url.into(),
            reason: "accepted: sqlite://FILE, postgres://USER@HOST/DB, or a file path".into(),
        })
    } else {
        Ok(Backend::Sqlite)
    }
}

fn sqlite_options(url: &str) -> Result<SqliteConnectOptions, StoreError> {
    let bad = |reason: String| StoreError::Url {
        url: url.to_string(),
        reason,
    };
    let mut text = url.trim().to_string();
    if !text.to_ascii_lowercase().starts_with("sqlite:") {
        text = format!("sqlite://{text}");
    }
    // `synchronous=full` (ours, not sqlx's) also survives power loss; the default `normal`
    // survives any crash of the server process.
    let mut synchronous = SqliteSynchronous::Normal;
    if let Some((base, query)) = text.clone().split_once('?') {
        let mut keep = Vec::new();
        for item in query.split('&').filter(|s| !s.is_empty()) {
            match item.split_once('=') {
                Some(("synchronous", v)) => {
                    synchronous = match v.to_ascii_lowercase().as_str() {
                        "normal" => SqliteSynchronous::Normal,
                        "full" => SqliteSynchronous::Full,
                        other => {
                            return Err(bad(format!(
                                "synchronous={other}: accepted values are normal and full"
                            )))
                        }
                    }
                }
                _ => keep.push(item),
            }
        }
        text = if keep.is_empty() {
            base.to_string()
        } else {
            format!("{base}?{}", keep.join("&"))
        };
    }
    Ok(SqliteConnectOptions::from_str(&text)
        .map_err(|e| bad(e.to_string()))?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(synchronous)
        .busy_timeout(Duration::from_secs(10))
        .foreign_keys(true))
}

impl Store {
    /// Connects, runs the embedded migrations and starts the writer task.
    ///
    /// # Errors
    /// A bad URL, an unreachable database, or a failed migration.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let (pools, description) = match backend_of(url)? {
            Backend::Sqlite => {
                let options = sqlite_options(url)?;
                let description = format!("SQLite {}", options.get_filename().display());
                let write = SqlitePoolOptions::new()
                    .max_connections(1)
                    .min_connections(1)
                    .idle_timeout(None)
                    .max_lifetime(None)
                    .connect_with(options.clone())
                    .await?;
                MIGRATOR.run(&write).await?;
                let read = SqlitePoolOptions::new()
                    .max_connections(4)
                    .idle_timeout(None)
                    .max_lifetime(None)
                    .connect_with(options.read_only(true))
                    .await?;
                (Pools::Sqlite { write, read }, description)
            }
            Backend::Postgres => {
                let options = PgConnectOptions::from_str(url).map_err(|e| StoreError::Url {
                    url: "postgres://…".into(),
                    reason: e.to_string(),
                })?;
                let description = format!(
                    "PostgreSQL {}/{}",
                    options.get_host(),
                    options.get_database().unwrap_or("")
                );
                let pool = PgPoolOptions::new()
                    .max_connections(16)
                    .acquire_timeout(Duration::from_secs(10))
                    .connect_with(options)
                    .await?;
                MIGRATOR.run(&pool).await?;
                (Pools::Postgres(pool), description)
            }
        };
        let store = Store {
            pools,
            queue: std::sync::Mutex::new(None),
            writer: tokio::sync::Mutex::new(None),
            description,
        };
        Ok(store)
    }

    /// Starts the writer task (`writers` of them for PostgreSQL, one for SQLite).
    pub async fn start_writer(self: &std::sync::Arc<Self>) {
        let (tx, rx) = mpsc::channel::<(Write, Reply)>(4096);
        let me = std::sync::Arc::clone(self);
        let handle = tokio::spawn(async move { me.writer_loop(rx).await });
        *self
            .queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(tx);
        *self.writer.lock().await = Some(handle);
    }

    /// Stops accepting writes, lets the writer commit what is queued, and closes the pools.
    pub async fn close(&self) {
        self.queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(h) = self.writer.lock().await.take() {
            let _ = h.await;
        }
        match &self.pools {
            Pools::Sqlite { write, read } => {
                read.close().await;
                write.close().await;
            }
            Pools::Postgres(p) => p.close().await,
        }
    }

    /// Which database this is, for logs.
    #[must_use]
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The backend in use.
    #[must_use]
    pub fn backend(&self) -> Backend {
        match self.pools {
            Pools::Sqlite { .. } => Backend::Sqlite,
            Pools::Postgres(_) => Backend::Postgres,
        }
    }

    /// The PostgreSQL pool, for LISTEN.
    #[must_use]
    pub fn pg_pool(&self) -> Option<&PgPool> {
        match &self.pools {
            Pools::Postgres(p) => Some(p),
            Pools::Sqlite { .. } => None,
        }
    }

    /// Commits `write`; `Ok(false)` when an append lost to another writer of the same version.
    ///
    /// # Errors
    /// The database failed or the server is shutting down.
    pub async fn write(&self, write: Write) -> Result<bool, StoreError> {
        let sender = self
            .queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
            .ok_or(StoreError::WriterGone)?;
        let (tx, rx) = oneshot::channel();
        sender
            .send((write, tx))
            .await
            .map_err(|_| StoreError::WriterGone)?;
        rx.await.map_err(|_| StoreError::WriterGone)?
    }

    async fn writer_loop(&self, mut rx: mpsc::Receiver<(Write, Reply)>) {
        let mut batch: Vec<(Write, Reply)> = Vec::with_capacity(MAX_BATCH);
        while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
            let writes: Vec<&Write> = batch.iter().map(|(w, _)| w).collect();
            match self.commit(&writes).await {
                Ok(results) => {
                    for ((_, reply), r) in batch.drain(..).zip(results) {
                        let _ = reply.send(Ok(r));
                    }
                }
                Err(e) => {
                    // One bad write must not sink the others: retry each on its own.
                    tracing::warn!(
                        "batch of {} writes failed ({e}); retrying one by one",
                        batch.len()
                    );
                    for (w, reply) in batch.drain(..) {
                        let r = self.commit(&[&w]).await.map(|v| v[0]);
                        let _ = reply.send(r);
                    }
                }
            }
        }
    }

    /// Commits `writes` in one transaction; per write, whether it was applied.
    async fn commit(&self, writes: &[&Write]) -> Result<Vec<bool>, StoreError> {
        match &self.pools {
            Pools::Sqlite { write, .. } => {
                let mut tx = write.begin().await?;
                let mut out = Vec::with_capacity(writes.len());
                for w in writes {
                    out.push(apply_write!(&mut *tx, w, false));
                }
                tx.commit().await?;
                Ok(out)
            }
            Pools::Postgres(pool) => {
                let mut tx = pool.begin().await?;
                let mut out = Vec::with_capacity(writes.len());
                for w in writes {
                    out.push(apply_write!(&mut *tx, w, true));
                }
                tx.commit().await?;
                Ok(out)
            }
        }
    }

    /// A game's row and its whole log, or `None` for an unknown id.
    ///
    /// # Errors
    /// The database failed or holds something unreadable.
    pub async fn load(&self, id: &str) -> Result<Option<(GameRow, Vec<Event>)>, StoreError> {
        let sql_game = "SELECT id, game, options, seed, position, first_player, second_player, \
                        first_token, second_token, same_screen, created_ms FROM games WHERE id = $1";
        let sql_events =
            "SELECT seq, seat, action, data, at_ms FROM events WHERE game_id = $1 ORDER BY seq";
        on_pool!(&self.pools, pool => {
            let Some(row) = sqlx::query(sql_game).bind(id).fetch_optional(pool).await? else {
                return Ok(None);
            };
            let game = GameRow {
                id: row.try_get("id")?,
                game: row.try_get("game")?,
                options: row.try_get("options")?,
                seed: row.try_get::<i64, _>("seed")? as u64,
                position: row.try_get("position")?,
                first_player: row.try_get("first_player")?,
                second_player: row.try_get("second_player")?,
                first_token: row.try_get("first_token")?,
                second_token: row.try_get("second_token")?,
                same_screen: row.try_get::<i32, _>("same_screen")? != 0,
                created_ms: row.try_get("created_ms")?,
            };
            let rows = sqlx::query(sql_events).bind(id).fetch_all(pool).await?;
            let mut events = Vec::with_capacity(rows.len());
            for r in rows {
                let corrupt = |reason: String| StoreError::Corrupt { id: id.to_string(), reason };
                let seat: String = r.try_get("seat")?;
                let action: String = r.try_get("action")?;
                events.push(Event {
                    seq: r.try_get("seq")?,
                    seat: seat.parse().map_err(corrupt)?,
                    action: action.parse::<Action>().map_err(corrupt)?,
                    data: r.try_get("data")?,
                    at_ms: r.try_get("at_ms")?,
                });
            }
            Ok(Some((game, events)))
        })
    }

    /// The stored version of a game (`None` for an unknown id).
    ///
    /// # Errors
    /// The database failed.
    pub async fn version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        on_pool!(&self.pools, pool => {
            let row = sqlx::query("SELECT version FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await?;
            Ok(match row { Some(r) => Some(r.try_get("version")?), None => None })
        })
    }

    /// The most recently created games, newest first, optionally only one status or game.
    ///
    /// # Errors
    /// The database failed.
    pub async fn recent(
        &self,
        limit: i64,
        status: Option<&str>,
        game: Option<&str>,
    ) -> Result<Vec<Listed>, StoreError> {
        let sql = "SELECT id, game, first_player, second_player, created_ms, version, status, \
                   result, termination, move_count, to_move, updated_ms FROM games \
                   WHERE ($1 = '' OR status = $1) AND ($2 = '' OR game = $2) \
                   ORDER BY created_ms DESC, id LIMIT $3";
        on_pool!(&self.pools, pool => {
            let rows = sqlx::query(sql)
                .bind(status.unwrap_or(""))
                .bind(game.unwrap_or(""))
                .bind(limit)
                .fetch_all(pool)
                .await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows {
                out.push(Listed {
                    id: r.try_get("id")?,
                    game: r.try_get("game")?,
                    first_player: r.try_get("first_player")?,
                    second_player: r.try_get("second_player")?,
                    created_ms: r.try_get("created_ms")?,
                    version: r.try_get("version")?,
                    status: r.try_get("status")?,
                    result: r.try_get("result")?,
                    termination: r.try_get("termination")?,
                    move_count: r.try_get("move_count")?,
                    to_move: r.try_get("to_move")?,
                    updated_ms: r.try_get("updated_ms")?,
                });
            }
            Ok(out)
        })
    }

    /// Games where a computer seat is to move and nothing happened since `before_ms`.
    ///
    /// # Errors
    /// The database failed.
    pub async fn waiting_for_computer(&self, before_ms: i64) -> Result<Vec<String>, StoreError> {
        let sql = "SELECT id FROM games WHERE computer_to_move = 1 AND updated_ms < $1 \
                   ORDER BY updated_ms LIMIT 10000";
        on_pool!(&self.pools, pool => {
            let rows = sqlx::query(sql).bind(before_ms).fetch_all(pool).await?;
            rows.iter().map(|r| r.try_get("id").map_err(StoreError::from)).collect()
        })
    }
}
