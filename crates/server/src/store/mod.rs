//! Durable storage: SQLite (one file, WAL) or PostgreSQL behind the same SQL, run with sqlx's
//! run-time query functions. Writes go through a writer task that commits waiting writes
//! together (group commit); a write is acknowledged only after its transaction committed.
//! Appends use `INSERT … ON CONFLICT DO NOTHING` on `(game_id, seq)`, so two servers appending
//! the same version to one game cannot both succeed: the loser learns it and reloads. A
//! trigger refuses an event whose number does not follow the game's last one, so no bug above
//! the database can ever store a gap in a log.
//!
//! This module holds the connection, the migrations and the writer's queue; each aggregate
//! has its own module of queries: `games` (games, their logs and lists), `accounts`
//! (accounts and sessions), `lobby` (challenges), `ratings`, `reviews` and `guard`
//! (the counters that keep budgets across servers). `writer` commits the game logs.

use crate::state::Event;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use std::str::FromStr;
use std::time::Duration;
use thiserror::Error;
use tokio::sync::{mpsc, oneshot};

/// The schema's migrations. The tables are the same on both databases; a few statements
/// (triggers) have each database's own syntax, so each has its own folder, and migrations that
/// are the same on both are the same file in both.
static SQLITE_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

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

/// A write for the writer task.
#[derive(Debug)]
pub enum Write {
    /// A new game with its initial summary.
    Create(Box<(GameRow, GameSummary)>),
    /// An event appended to a game's log, with the summary after it; with `creates`, a new
    /// game made in the same transaction if and only if the event is stored (a rematch).
    Append {
        game_id: String,
        event: Event,
        summary: GameSummary,
        creates: Option<Box<(GameRow, GameSummary)>>,
    },
    /// A game's review, replacing the one stored before.
    Review(ReviewRow),
}

type Reply = oneshot::Sender<Result<bool, StoreError>>;

enum Pools {
    Sqlite {
        write: SqlitePool,
        read: SqlitePool,
        /// Copies the WAL into the database file beside the writer (see [`Store::start_writer`]).
        checkpoint: SqlitePool,
        /// Writes outside the game logs (accounts and sessions): small transactions of their
        /// own, which wait for the writer's lock like another process would.
        side: SqlitePool,
    },
    Postgres(PgPool),
}

/// How often the SQLite checkpointer copies the WAL into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(100);

/// WAL pages after which the writer checkpoints itself. By then the checkpointer has copied
/// nearly everything, so this is quick, and it lets the next commit start the WAL afresh:
/// the WAL stays below about this many pages.
const WRITER_CHECKPOINT_PAGES: &str = "4000";

/// The database: pools plus the writer task's queue.
pub struct Store {
    pools: Pools,
    queue: std::sync::Mutex<Option<mpsc::Sender<(Write, Reply)>>>,
    /// Resolves when the writer thread has committed its last batch.
    writer: tokio::sync::Mutex<Option<oneshot::Receiver<()>>>,
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
            $crate::store::Pools::Sqlite { read: $p, .. } => $body,
            $crate::store::Pools::Postgres($p) => $body,
        }
    };
}

/// As [`on_pool`], with a pool that may write (for writes outside the game logs).
macro_rules! on_write_pool {
    ($pools:expr, $p:ident => $body:expr) => {
        match $pools {
            $crate::store::Pools::Sqlite { side: $p, .. } => $body,
            $crate::store::Pools::Postgres($p) => $body,
        }
    };
}

mod accounts;
mod games;
mod guard;
mod lobby;
mod ratings;
mod reviews;
mod writer;

pub use accounts::{name_key, AccountRow};
pub use games::{GameRow, GameSummary, Listed};
pub use lobby::ChallengeRow;
pub use ratings::{RatedResult, RatingRow};
pub use reviews::ReviewRow;

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
    // How long a write waits for a lock another process holds before it fails.
    let mut busy = Duration::from_secs(10);
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
                Some(("busy_timeout", v)) => {
                    busy = v
                        .parse::<u64>()
                        .ok()
                        .filter(|ms| (1..=600_000).contains(ms))
                        .map(Duration::from_millis)
                        .ok_or_else(|| {
                            bad(format!(
                                "busy_timeout={v}: give milliseconds from 1 to 600000"
                            ))
                        })?;
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
        // Small pages: each move rewrites a few scattered pages (its game's row, the event
        // index), and the WAL holds whole pages, so smaller pages mean fewer bytes per commit.
        // (Takes effect when the database is created.)
        .page_size(1024)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(synchronous)
        .busy_timeout(busy)
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
                let one = || {
                    SqlitePoolOptions::new()
                        .max_connections(1)
                        .min_connections(1)
                        .idle_timeout(None)
                        .max_lifetime(None)
                };
                // The checkpointer copies the WAL into the database file beside the writer, so
                // a commit seldom waits for that.
                let write = one()
                    .connect_with(
                        options
                            .clone()
                            .pragma("wal_autocheckpoint", WRITER_CHECKPOINT_PAGES),
                    )
                    .await?;
                SQLITE_MIGRATOR.run(&write).await?;
                let checkpoint = one().connect_with(options.clone()).await?;
                let side = one().connect_with(options.clone()).await?;
                let read = SqlitePoolOptions::new()
                    .max_connections(4)
                    .idle_timeout(None)
                    .max_lifetime(None)
                    .connect_with(options.read_only(true))
                    .await?;
                (
                    Pools::Sqlite {
                        write,
                        read,
                        checkpoint,
                        side,
                    },
                    description,
                )
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
                POSTGRES_MIGRATOR.run(&pool).await?;
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

    /// Stops accepting writes, lets the writer commit what is queued, and closes the pools.
    pub async fn close(&self) {
        self.queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(done) = self.writer.lock().await.take() {
            let _ = done.await;
        }
        match &self.pools {
            Pools::Sqlite {
                write,
                read,
                checkpoint,
                side,
            } => {
                read.close().await;
                checkpoint.close().await;
                side.close().await;
                // Leave a compact database: everything copied in, the WAL emptied.
                let _ = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                    .execute(write)
                    .await;
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

    /// Whether the database answers a trivial query.
    ///
    /// # Errors
    /// The database failed.
    pub async fn ping(&self) -> Result<(), StoreError> {
        on_pool!(&self.pools, pool => {
            sqlx::query("SELECT 1").execute(pool).await?;
            Ok(())
        })
    }

    /// Tells the other servers on PostgreSQL something on `channel` (nothing on SQLite,
    /// where this server is the only one).
    ///
    /// # Errors
    /// The database failed.
    pub async fn notify(&self, channel: &str, payload: &str) -> Result<(), StoreError> {
        if let Pools::Postgres(pool) = &self.pools {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(channel)
                .bind(payload)
                .execute(pool)
                .await?;
        }
        Ok(())
    }
}

/// The channel PostgreSQL servers tell each other which seats are present on them on.
pub const PRESENCE_CHANNEL: &str = "boardlab_presence";

/// The channel PostgreSQL servers tell each other a review's progress on.
pub const REVIEW_CHANNEL: &str = "boardlab_reviews";

/// The channel PostgreSQL servers tell each other the lobby changed on.
pub const LOBBY_CHANNEL: &str = "boardlab_lobby";

/// The channel PostgreSQL servers pass news for a player's live channel on (`ACCOUNT JSON`).
pub const ACCOUNT_CHANNEL: &str = "boardlab_accounts";

/// Starting a write transaction the same way on both databases: on SQLite it takes the write
/// lock at once (`BEGIN IMMEDIATE`), so a transaction that reads before it writes never has
/// to give up half-way; on PostgreSQL rows read for an update are locked with `FOR UPDATE`.
trait WritePool {
    type Db: sqlx::Database;
    async fn begin_write(&self) -> Result<sqlx::Transaction<'static, Self::Db>, sqlx::Error>;
    /// What ends a `SELECT` of rows the transaction will change.
    fn lock_rows(&self) -> &'static str;
}

impl WritePool for SqlitePool {
    type Db = sqlx::Sqlite;
    async fn begin_write(&self) -> Result<sqlx::Transaction<'static, sqlx::Sqlite>, sqlx::Error> {
        self.begin_with("BEGIN IMMEDIATE").await
    }
    fn lock_rows(&self) -> &'static str {
        ""
    }
}

impl WritePool for PgPool {
    type Db = sqlx::Postgres;
    async fn begin_write(&self) -> Result<sqlx::Transaction<'static, sqlx::Postgres>, sqlx::Error> {
        self.begin().await
    }
    fn lock_rows(&self) -> &'static str {
        " FOR UPDATE"
    }
}
