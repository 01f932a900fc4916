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
            Pools::Sqlite { read: $p, .. } => $body,
            Pools::Postgres($p) => $body,
        }
    };
}

/// Runs a batch of writes inside transaction `$tx` of database `$db`; evaluates to the
/// per-write `Vec<bool>` (applied or lost to another writer) with the change notices of the
/// applied appends (`ID VERSION`), or returns the error.
macro_rules! commit_batch {
    ($tx:ident, $db:ty, $writes:expr) => {{
        let writes: &[&Write] = $writes;
        let mut out = vec![false; writes.len()];
        let mut payloads: Vec<String> = Vec::new();
        let mut appends: Vec<(usize, &str, &Event, &Summary)> = Vec::new();
        for (i, w) in writes.iter().enumerate() {
            match w {
                Write::Create(g, s) => {
                    sqlx::query(
                        "INSERT INTO games (id, game, options, seed, position, first_player, \
                         second_player, first_token, second_token, same_screen, created_ms, \
                         version, status, result, termination, move_count, to_move, \
                         computer_to_move, updated_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, \
                         $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)",
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
                    .execute(&mut *$tx)
                    .await?;
                    out[i] = true;
                }
                Write::Append {
                    game_id,
                    event,
                    summary,
                } => appends.push((i, game_id.as_str(), event, summary)),
            }
        }
        if !appends.is_empty() {
            let mut q = sqlx::QueryBuilder::<$db>::new(
                "INSERT INTO events (game_id, seq, seat, action, data, at_ms) ",
            );
            q.push_values(&appends, |mut b, (_, id, e, _)| {
                b.push_bind(*id)
                    .push_bind(e.seq)
                    .push_bind(e.seat.name())
                    .push_bind(e.action.name())
                    .push_bind(e.data.as_str())
                    .push_bind(e.at_ms);
            });
            q.push(" ON CONFLICT (game_id, seq) DO NOTHING RETURNING game_id");
            let rows = q.build().fetch_all(&mut *$tx).await?;
            let mut inserted = std::collections::HashSet::with_capacity(rows.len());
            for r in &rows {
                inserted.insert(r.try_get::<String, _>(0)?);
            }
            let applied: Vec<&(usize, &str, &Event, &Summary)> =
                appends.iter().filter(|a| inserted.contains(a.1)).collect();
            if !applied.is_empty() {
                let mut q = sqlx::QueryBuilder::<$db>::new(
                    "UPDATE games SET version = v.column2, status = v.column3, \
                     result = v.column4, termination = v.column5, move_count = v.column6, \
                     to_move = v.column7, computer_to_move = v.column8, updated_ms = v.column9 \
                     FROM (VALUES ",
                );
                for (n, (_, id, _, s)) in applied.iter().enumerate() {
                    q.push(if n == 0 { "(" } else { ", (" });
                    q.push("CAST(").push_bind(*id);
                    q.push(" AS TEXT), CAST(").push_bind(s.version);
                    q.push(" AS BIGINT), CAST(").push_bind(s.status);
                    q.push(" AS TEXT), CAST(").push_bind(s.result.as_deref());
                    q.push(" AS TEXT), CAST(")
                        .push_bind(s.termination.as_deref());
                    q.push(" AS TEXT), CAST(").push_bind(s.move_count);
                    q.push(" AS BIGINT), CAST(")
                        .push_bind(s.to_move.map(Seat::name));
                    q.push(" AS TEXT), CAST(")
                        .push_bind(i32::from(s.computer_to_move));
                    q.push(" AS INTEGER), CAST(").push_bind(s.updated_ms);
                    q.push(" AS BIGINT))");
                }
                q.push(") AS v WHERE games.id = v.column1");
                q.build().execute(&mut *$tx).await?;
            }
            for a in &applied {
                payloads.push(format!("{} {}", a.1, a.2.seq));
                out[a.0] = true;
            }
        }
        (out, payloads)
    }};
}

/// Commits a batch on SQLite as one script in one call: `BEGIN IMMEDIATE`, the new games, one
/// multi-row insert of the events (returning those that did not conflict), one multi-row update
/// of the summaries of exactly those games (their stored version is the one before the event),
/// `COMMIT`. The writer's thread hands work to SQLite's thread once per batch instead of once
/// per statement.
async fn commit_sqlite(
    conn: &mut sqlx::SqliteConnection,
    writes: &[&Write],
) -> Result<Vec<bool>, StoreError> {
    let mut q = sqlx::QueryBuilder::<sqlx::Sqlite>::new("BEGIN IMMEDIATE; ");
    let mut appends: Vec<(usize, &str, &Event, &Summary)> = Vec::new();
    for (i, w) in writes.iter().enumerate() {
        match w {
            Write::Create(g, s) => {
                q.push(
                    "INSERT INTO games (id, game, options, seed, position, first_player, \
                     second_player, first_token, second_token, same_screen, created_ms, version, \
                     status, result, termination, move_count, to_move, computer_to_move, \
                     updated_ms) ",
                );
                q.push_values([(g, s)], |mut b, (g, s)| {
                    b.push_bind(g.id.as_str())
                        .push_bind(g.game.as_str())
                        .push_bind(g.options.as_str())
                        .push_bind(g.seed as i64)
                        .push_bind(g.position.as_deref())
                        .push_bind(g.first_player.as_str())
                        .push_bind(g.second_player.as_str())
                        .push_bind(g.first_token.as_deref())
                        .push_bind(g.second_token.as_deref())
                        .push_bind(i32::from(g.same_screen))
                        .push_bind(g.created_ms)
                        .push_bind(s.version)
                        .push_bind(s.status)
                        .push_bind(s.result.as_deref())
                        .push_bind(s.termination.as_deref())
                        .push_bind(s.move_count)
                        .push_bind(s.to_move.map(Seat::name))
                        .push_bind(i32::from(s.computer_to_move))
                        .push_bind(s.updated_ms);
                });
                q.push("; ");
            }
            Write::Append {
                game_id,
                event,
                summary,
            } => appends.push((i, game_id.as_str(), event, summary)),
        }
    }
    if !appends.is_empty() {
        q.push("INSERT INTO events (game_id, seq, seat, action, data, at_ms) ");
        q.push_values(&appends, |mut b, (_, id, e, _)| {
            b.push_bind(*id)
                .push_bind(e.seq)
                .push_bind(e.seat.name())
                .push_bind(e.action.name())
                .push_bind(e.data.as_str())
                .push_bind(e.at_ms);
        });
        q.push(" ON CONFLICT (game_id, seq) DO NOTHING RETURNING game_id, seq; ");
        q.push(
            "UPDATE games SET version = v.column2, status = v.column3, result = v.column4, \
             termination = v.column5, move_count = v.column6, to_move = v.column7, \
             computer_to_move = v.column8, updated_ms = v.column9 FROM (VALUES ",
        );
        for (n, (_, id, _, s)) in appends.iter().enumerate() {
            q.push(if n == 0 { "(" } else { ", (" });
            q.push_bind(*id);
            q.push(", ").push_bind(s.version);
            q.push(", ").push_bind(s.status);
            q.push(", ").push_bind(s.result.as_deref());
            q.push(", ").push_bind(s.termination.as_deref());
            q.push(", ").push_bind(s.move_count);
            q.push(", ").push_bind(s.to_move.map(Seat::name));
            q.push(", ").push_bind(i32::from(s.computer_to_move));
            q.push(", ").push_bind(s.updated_ms);
            q.push(")");
        }
        q.push(") AS v WHERE games.id = v.column1 AND games.version = v.column2 - 1; ");
    }
    q.push("COMMIT;");
    let rows = match q.build().persistent(false).fetch_all(&mut *conn).await {
        Ok(rows) => rows,
        Err(e) => {
            let _ = sqlx::query("ROLLBACK").execute(&mut *conn).await;
            return Err(e.into());
        }
    };
    let mut inserted = std::collections::HashSet::with_capacity(rows.len());
    for r in &rows {
        inserted.insert((r.try_get::<String, _>(0)?, r.try_get::<i64, _>(1)?));
    }
    let mut out = vec![true; writes.len()];
    for (i, id, e, _) in appends {
        out[i] = inserted.contains(&(id.to_string(), e.seq));
    }
    Ok(out)
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

    /// Starts the writer. It runs on a thread of its own with its own small runtime: the
    /// commit path is the one every change waits for, so it must not queue behind the
    /// request handlers on the server's runtime.
    ///
    /// # Panics
    /// If the operating system cannot start a thread.
    pub async fn start_writer(self: &std::sync::Arc<Self>) {
        let (tx, rx) = mpsc::channel::<(Write, Reply)>(4096);
        let (done_tx, done_rx) = oneshot::channel();
        let me = std::sync::Arc::clone(self);
        std::thread::Builder::new()
            .name("boardlab-writer".into())
            .spawn(move || {
                match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt.block_on(me.writer_loop(rx)),
                    Err(e) => tracing::error!("cannot start the storage writer: {e}"),
                }
                let _ = done_tx.send(());
            })
            .expect("a thread for the storage writer");
        *self
            .queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(tx);
        *self.writer.lock().await = Some(done_rx);
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
        // SQLite has one writer connection: keep it for the writer's whole life.
        let mut held = match &self.pools {
            Pools::Sqlite { write, .. } => write.acquire().await.ok(),
            Pools::Postgres(_) => None,
        };
        let mut batch: Vec<(Write, Reply)> = Vec::with_capacity(MAX_BATCH);
        while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
            let writes: Vec<&Write> = batch.iter().map(|(w, _)| w).collect();
            let started = std::time::Instant::now();
            let committed = self.commit(held.as_deref_mut(), &writes).await;
            tracing::debug!(
                writes = writes.len(),
                micros = started.elapsed().as_micros(),
                "batch committed"
            );
            match committed {
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
                        let r = self.commit(held.as_deref_mut(), &[&w]).await.map(|v| v[0]);
                        let _ = reply.send(r);
                    }
                }
            }
        }
    }

    /// Commits `writes` in one transaction; per write, whether it was applied (an append is not
    /// when another server wrote that version first). On SQLite (with the writer's connection
    /// `held`, if it has one) the whole batch is one script sent in one call; on PostgreSQL it
    /// is a transaction of a few statements whatever the batch size.
    async fn commit(
        &self,
        held: Option<&mut sqlx::SqliteConnection>,
        writes: &[&Write],
    ) -> Result<Vec<bool>, StoreError> {
        match &self.pools {
            Pools::Sqlite { write, .. } => match held {
                Some(conn) => commit_sqlite(conn, writes).await,
                None => commit_sqlite(&mut *write.acquire().await?, writes).await,
            },
            Pools::Postgres(pool) => {
                let mut tx = pool.begin().await?;
                let (out, payloads) = commit_batch!(tx, sqlx::Postgres, writes);
                if !payloads.is_empty() {
                    // Delivered to every listening server when the transaction commits.
                    sqlx::query("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS t(p)")
                        .bind(NOTIFY_CHANNEL)
                        .bind(payloads)
                        .execute(&mut *tx)
                        .await?;
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
