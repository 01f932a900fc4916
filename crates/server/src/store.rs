//! Durable storage: SQLite (one file, WAL) or PostgreSQL behind the same SQL, run with sqlx's
//! run-time query functions. Writes go through a writer task that commits waiting writes
//! together (group commit); a write is acknowledged only after its transaction committed.
//! Appends use `INSERT … ON CONFLICT DO NOTHING` on `(game_id, seq)`, so two servers appending
//! the same version to one game cannot both succeed: the loser learns it and reloads. A
//! trigger refuses an event whose number does not follow the game's last one, so no bug above
//! the database can ever store a gap in a log.

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
    /// The accounts holding the seats when the game was read: `(id, name)`.
    pub accounts: [Option<(String, String)>; 2],
    /// Whether the result counts for ratings.
    pub rated: bool,
    /// The time control (`5+3`, `3d`), if the game has a clock.
    pub clock: Option<String>,
}

/// The summary kept beside a game for listings and sweeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    pub version: i64,
    /// `ongoing` or `finished`.
    pub status: &'static str,
    pub result: Option<String>,
    pub termination: Option<String>,
    pub move_count: i64,
    pub to_move: Option<Seat>,
    pub computer_to_move: bool,
    pub updated_ms: i64,
    /// The ids of the accounts holding the seats.
    pub accounts: [Option<String>; 2],
    /// The winning seat of a finished game (`None` for a draw or a game going on).
    pub winner: Option<Seat>,
    /// When the side to move runs out of time (games with a clock).
    pub deadline_ms: Option<i64>,
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
    /// `first` or `second` when a seat won.
    pub winner: Option<String>,
    /// The names of the accounts holding the seats.
    pub accounts: [Option<String>; 2],
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

/// A stored review of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewRow {
    pub game_id: String,
    /// The game's version (events played) when it was reviewed.
    pub version: i64,
    pub bot: String,
    /// The review as JSON.
    pub review: String,
    pub created_ms: i64,
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
            Pools::Sqlite { read: $p, .. } => $body,
            Pools::Postgres($p) => $body,
        }
    };
}

/// As [`on_pool`], with a pool that may write (for writes outside the game logs).
macro_rules! on_write_pool {
    ($pools:expr, $p:ident => $body:expr) => {
        match $pools {
            Pools::Sqlite { side: $p, .. } => $body,
            Pools::Postgres($p) => $body,
        }
    };
}

mod guard;

/// A batch as JSON arrays: new games, appended events, and the summaries after them. Each
/// batch is then the same few statements whatever its size, prepared once and reused.
struct BatchJson {
    games: String,
    events: String,
    summaries: String,
    reviews: String,
    /// Per write: `(index, game id, version)` of appends; creates always apply.
    appends: Vec<(usize, String, i64)>,
    /// New games made for good, and new games made only with an event of the batch.
    creates: usize,
    linked: usize,
}

fn batch_json(writes: &[&Write]) -> BatchJson {
    use serde_json::json;
    let mut games = Vec::new();
    let mut events = Vec::new();
    let mut summaries = Vec::new();
    let mut appends = Vec::new();
    let mut reviews = Vec::new();
    let summary = |id: &str, s: &GameSummary| {
        json!({
            "g": id, "v": s.version, "st": s.status, "r": s.result, "te": s.termination,
            "n": s.move_count, "tm": s.to_move.map(Seat::name),
            "c": i32::from(s.computer_to_move), "u": s.updated_ms,
            "a1": s.accounts[0], "a2": s.accounts[1], "w": s.winner.map(Seat::name), "dl": s.deadline_ms,
        })
    };
    // `after`: the `[game id, seq]` of the event without which the game is not made.
    let game = |g: &GameRow, s: &GameSummary, after: Option<(&str, i64)>| {
        json!({
            "id": g.id, "game": g.game, "options": g.options, "seed": g.seed as i64,
            "position": g.position, "p1": g.first_player, "p2": g.second_player,
            "t1": g.first_token, "t2": g.second_token, "same": i32::from(g.same_screen),
            "created": g.created_ms, "s": summary(&g.id, s), "rated": i32::from(g.rated), "clock": g.clock,
            "ag": after.map(|a| a.0), "aq": after.map(|a| a.1),
        })
    };
    for (i, w) in writes.iter().enumerate() {
        match w {
            Write::Create(c) => games.push(game(&c.0, &c.1, None)),
            Write::Append {
                game_id,
                event,
                summary: s,
                creates,
            } => {
                if let Some(c) = creates {
                    games.push(game(&c.0, &c.1, Some((game_id, event.seq))));
                }
                events.push(json!({
                    "g": game_id, "s": event.seq, "t": event.seat.name(),
                    "a": event.action.name(), "d": event.data, "m": event.at_ms,
                }));
                summaries.push(summary(game_id, s));
                appends.push((i, game_id.clone(), event.seq));
            }
            Write::Review(r) => reviews.push(json!({
                "g": r.game_id, "v": r.version, "b": r.bot, "r": r.review, "m": r.created_ms,
            })),
        }
    }
    let linked = writes
        .iter()
        .filter(|w| {
            matches!(
                w,
                Write::Append {
                    creates: Some(_),
                    ..
                }
            )
        })
        .count();
    BatchJson {
        creates: games.len() - linked,
        linked,
        games: serde_json::Value::Array(games).to_string(),
        events: serde_json::Value::Array(events).to_string(),
        summaries: serde_json::Value::Array(summaries).to_string(),
        reviews: serde_json::Value::Array(reviews).to_string(),
        appends,
    }
}

/// Answers "not applied" at once to every append of a version that an earlier write of the
/// same batch also appends, and takes it out of the batch. Which writes applied is read from
/// the `(game_id, seq)` rows the insert returns, and two writes of one version would both
/// find the row of the first; only the first can be stored anyway. (A server never sends two
/// while it waits for the first, but a request whose client hung up leaves its write queued.)
fn refuse_second_appends(batch: &mut Vec<(Write, Reply)>) {
    let mut seen = std::collections::HashSet::new();
    let mut i = 0;
    while i < batch.len() {
        if let Write::Append { game_id, event, .. } = &batch[i].0 {
            if !seen.insert((game_id.clone(), event.seq)) {
                let (_, reply) = batch.remove(i);
                let _ = reply.send(Ok(false));
                continue;
            }
        }
        i += 1;
    }
}

/// Which writes applied, from the `(game_id, seq)` rows the event insert returned.
fn applied(writes: &[&Write], b: &BatchJson, rows: &[(String, i64)]) -> Vec<bool> {
    let inserted: std::collections::HashSet<(&str, i64)> =
        rows.iter().map(|(g, s)| (g.as_str(), *s)).collect();
    let mut out = vec![true; writes.len()];
    for (i, id, seq) in &b.appends {
        out[*i] = inserted.contains(&(id.as_str(), *seq));
    }
    out
}

/// New games from the batch's `games` array (`$1`), to be followed by a `WHERE` clause.
macro_rules! sqlite_insert_games {
    () => {
        "INSERT INTO games (id, game, options, seed, position, first_player, second_player, first_token,
    second_token, same_screen, created_ms, version, status, result, termination, move_count,
    to_move, computer_to_move, updated_ms, first_account, second_account, winner, rated, clock,
    deadline_ms)
SELECT value ->> 'id', value ->> 'game', value ->> 'options', value ->> 'seed',
    value ->> 'position', value ->> 'p1', value ->> 'p2', value ->> 't1', value ->> 't2',
    value ->> 'same', value ->> 'created', value ->> '$.s.v', value ->> '$.s.st',
    value ->> '$.s.r', value ->> '$.s.te', value ->> '$.s.n', value ->> '$.s.tm',
    value ->> '$.s.c', value ->> '$.s.u', value ->> '$.s.a1', value ->> '$.s.a2',
    value ->> '$.s.w', value ->> 'rated', value ->> 'clock', value ->> '$.s.dl'
FROM json_each($1)"
    };
}

/// The SQLite batch: one script, sent in one call and prepared once. The summary update
/// touches exactly the games whose event was inserted: their stored version is the one
/// before it (a version another writer took first is already past that). A game made with an
/// event (a rematch) is inserted after the events, only when its event was.
const SQLITE_BATCH: &str = concat!(
    "BEGIN IMMEDIATE;\n",
    sqlite_insert_games!(),
    " WHERE value ->> 'ag' IS NULL;
INSERT INTO events (game_id, seq, seat, action, data, at_ms)
SELECT value ->> 'g', value ->> 's', value ->> 't', value ->> 'a', value ->> 'd', value ->> 'm'
FROM json_each($2) WHERE true
ON CONFLICT (game_id, seq) DO NOTHING RETURNING game_id, seq;
UPDATE games SET version = j.value ->> 'v', status = j.value ->> 'st', result = j.value ->> 'r',
    termination = j.value ->> 'te', move_count = j.value ->> 'n', to_move = j.value ->> 'tm',
    computer_to_move = j.value ->> 'c', updated_ms = j.value ->> 'u',
    first_account = j.value ->> 'a1', second_account = j.value ->> 'a2', winner = j.value ->> 'w',
    deadline_ms = j.value ->> 'dl'
FROM json_each($3) AS j
WHERE games.id = j.value ->> 'g' AND games.version = (j.value ->> 'v') - 1;
",
    sqlite_insert_games!(),
    "
WHERE value ->> 'ag' IS NOT NULL AND EXISTS (SELECT 1 FROM events e
    WHERE e.game_id = value ->> 'ag' AND e.seq = value ->> 'aq' AND e.data = value ->> 'id');
INSERT INTO reviews (game_id, version, bot, review, created_ms)
SELECT value ->> 'g', value ->> 'v', value ->> 'b', value ->> 'r', value ->> 'm'
FROM json_each($4) WHERE true
ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, bot = excluded.bot,
    review = excluded.review, created_ms = excluded.created_ms;
COMMIT;"
);

/// The account `(id, name)` in two columns of a row, if any.
fn account_of<R: Row>(row: &R, id: &str, name: &str) -> Result<Option<(String, String)>, StoreError>
where
    for<'a> &'a str: sqlx::ColumnIndex<R>,
    for<'a> Option<String>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    let id: Option<String> = row.try_get(id)?;
    let name: Option<String> = row.try_get(name)?;
    Ok(id.map(|i| (i, name.unwrap_or_default())))
}

/// The columns of a [`Listed`] game (`g`) with its seats' account names, to be followed by
/// a `WHERE` clause.
const LISTED: &str = "SELECT g.id, g.game, g.first_player, g.second_player, g.created_ms, \
    g.version, g.status, g.result, g.termination, g.move_count, g.to_move, g.updated_ms, \
    g.winner, a1.name AS first_name, a2.name AS second_name FROM games g \
    LEFT JOIN accounts a1 ON a1.id = g.first_account \
    LEFT JOIN accounts a2 ON a2.id = g.second_account";

/// A [`Listed`] game from a row of [`LISTED`].
fn listed<R: Row>(r: &R) -> Result<Listed, StoreError>
where
    for<'a> &'a str: sqlx::ColumnIndex<R>,
    for<'a> Option<String>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> String: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> i64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    Ok(Listed {
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
        winner: r.try_get("winner")?,
        accounts: [r.try_get("first_name")?, r.try_get("second_name")?],
    })
}

/// Commits a batch on SQLite: [`SQLITE_BATCH`] with the batch as JSON.
async fn commit_sqlite(
    conn: &mut sqlx::SqliteConnection,
    writes: &[&Write],
) -> Result<Vec<bool>, StoreError> {
    let b = batch_json(writes);
    let result = sqlx::query(SQLITE_BATCH)
        .bind(&b.games)
        .bind(&b.events)
        .bind(&b.summaries)
        .bind(&b.reviews)
        .fetch_all(&mut *conn)
        .await;
    let rows = match result {
        Ok(rows) => rows,
        Err(e) => {
            let _ = sqlx::query("ROLLBACK").execute(&mut *conn).await;
            return Err(e.into());
        }
    };
    let mut returned = Vec::with_capacity(rows.len());
    for r in &rows {
        returned.push((r.try_get::<String, _>(0)?, r.try_get::<i64, _>(1)?));
    }
    Ok(applied(writes, &b, &returned))
}

/// New games from a batch's `games` array, to be followed by a `WHERE` clause.
const PG_INSERT_GAMES: &str = "INSERT INTO games (id, game, options, seed, position, \
    first_player, second_player, first_token, second_token, same_screen, created_ms, version, \
    status, result, termination, move_count, to_move, computer_to_move, updated_ms, \
    first_account, second_account, winner, rated, clock, deadline_ms) \
    SELECT x.id, x.game, x.options, x.seed, x.position, x.p1, x.p2, x.t1, x.t2, x.same, \
    x.created, (x.s ->> 'v')::bigint, x.s ->> 'st', x.s ->> 'r', x.s ->> 'te', \
    (x.s ->> 'n')::bigint, x.s ->> 'tm', (x.s ->> 'c')::integer, (x.s ->> 'u')::bigint, \
    x.s ->> 'a1', x.s ->> 'a2', x.s ->> 'w', x.rated, x.clock, (x.s ->> 'dl')::bigint \
    FROM jsonb_to_recordset($1::jsonb) AS x(id text, game text, options text, seed bigint, \
    position text, p1 text, p2 text, t1 text, t2 text, same integer, created bigint, s jsonb, \
    ag text, aq bigint, rated integer, clock text)";

/// Commits a batch on PostgreSQL: the same statements with `jsonb_to_recordset`, in one
/// transaction, with a notice to the other servers for each applied event.
async fn commit_postgres(pool: &PgPool, writes: &[&Write]) -> Result<Vec<bool>, StoreError> {
    let b = batch_json(writes);
    let mut tx = pool.begin().await?;
    if b.creates > 0 {
        sqlx::query(&format!("{PG_INSERT_GAMES} WHERE x.ag IS NULL"))
            .bind(&b.games)
            .execute(&mut *tx)
            .await?;
    }
    let mut returned = Vec::new();
    if !b.appends.is_empty() {
        let rows = sqlx::query(
            "INSERT INTO events (game_id, seq, seat, action, data, at_ms) \
             SELECT x.g, x.s, x.t, x.a, x.d, x.m FROM jsonb_to_recordset($1::jsonb) \
             AS x(g text, s bigint, t text, a text, d text, m bigint) \
             ON CONFLICT (game_id, seq) DO NOTHING RETURNING game_id, seq",
        )
        .bind(&b.events)
        .fetch_all(&mut *tx)
        .await?;
        for r in &rows {
            returned.push((r.try_get::<String, _>(0)?, r.try_get::<i64, _>(1)?));
        }
        sqlx::query(
            "UPDATE games SET version = x.v, status = x.st, result = x.r, termination = x.te, \
             move_count = x.n, to_move = x.tm, computer_to_move = x.c, updated_ms = x.u, \
             first_account = x.a1, second_account = x.a2, winner = x.w, deadline_ms = x.dl \
             FROM jsonb_to_recordset($1::jsonb) AS x(g text, v bigint, st text, r text, \
             te text, n bigint, tm text, c integer, u bigint, a1 text, a2 text, w text, dl bigint) \
             WHERE games.id = x.g AND games.version = x.v - 1",
        )
        .bind(&b.summaries)
        .execute(&mut *tx)
        .await?;
        if b.linked > 0 {
            sqlx::query(&format!(
                "{PG_INSERT_GAMES} WHERE x.ag IS NOT NULL AND EXISTS (SELECT 1 FROM events e \
                 WHERE e.game_id = x.ag AND e.seq = x.aq AND e.data = x.id)"
            ))
            .bind(&b.games)
            .execute(&mut *tx)
            .await?;
        }
        if !returned.is_empty() {
            // Delivered to every listening server when the transaction commits.
            let notices: Vec<String> = returned.iter().map(|(g, s)| format!("{g} {s}")).collect();
            sqlx::query("SELECT pg_notify($1, p) FROM unnest($2::text[]) AS t(p)")
                .bind(NOTIFY_CHANNEL)
                .bind(notices)
                .execute(&mut *tx)
                .await?;
        }
    }
    if b.reviews != "[]" {
        sqlx::query(
            "INSERT INTO reviews (game_id, version, bot, review, created_ms) \
             SELECT x.g, x.v, x.b, x.r, x.m FROM jsonb_to_recordset($1::jsonb) \
             AS x(g text, v bigint, b text, r text, m bigint) \
             ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, \
             bot = excluded.bot, review = excluded.review, created_ms = excluded.created_ms",
        )
        .bind(&b.reviews)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(applied(writes, &b, &returned))
}

/// Copies committed WAL pages into the SQLite database file every [`CHECKPOINT_EVERY`],
/// without blocking the writer (a passive checkpoint), so the WAL stays small and commits
/// stay quick.
async fn checkpointer(pool: SqlitePool) {
    let mut tick = tokio::time::interval(CHECKPOINT_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if pool.is_closed() {
            return;
        }
        if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .execute(&pool)
            .await
        {
            tracing::debug!("checkpoint: {e}");
        }
    }
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
                    Ok(rt) => {
                        if let Pools::Sqlite { checkpoint, .. } = &me.pools {
                            rt.spawn(checkpointer(checkpoint.clone()));
                        }
                        rt.block_on(me.writer_loop(rx));
                    }
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
            refuse_second_appends(&mut batch);
            if batch.is_empty() {
                continue;
            }
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
                    // One bad write must not sink the others: retry each on its own, on a
                    // fresh connection in case the old one broke.
                    tracing::warn!(
                        "batch of {} writes failed ({e}); retrying one by one",
                        batch.len()
                    );
                    if let Some(c) = held.take() {
                        let _ = c.close().await;
                        if let Pools::Sqlite { write, .. } = &self.pools {
                            held = write.acquire().await.ok();
                        }
                    }
                    for (w, reply) in batch.drain(..) {
                        let r = self.commit(held.as_deref_mut(), &[&w]).await.map(|v| v[0]);
                        let _ = reply.send(r);
                    }
                }
            }
        }
        // Give the connection back for good before this thread's runtime goes away.
        if let Some(c) = held.take() {
            let _ = c.close().await;
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
            Pools::Postgres(pool) => commit_postgres(pool, writes).await,
        }
    }

    /// A game's row and its whole log, or `None` for an unknown id.
    ///
    /// # Errors
    /// The database failed or holds something unreadable.
    pub async fn load(&self, id: &str) -> Result<Option<(GameRow, Vec<Event>)>, StoreError> {
        let sql_game = "SELECT g.id, g.game, g.options, g.seed, g.position, g.first_player, \
                        g.second_player, g.first_token, g.second_token, g.same_screen, \
                        g.created_ms, g.first_account, a1.name AS first_name, \
                        g.second_account, a2.name AS second_name, g.rated, g.clock \
                        FROM games g \
                        LEFT JOIN accounts a1 ON a1.id = g.first_account \
                        LEFT JOIN accounts a2 ON a2.id = g.second_account WHERE g.id = $1";
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
                accounts: [
                    account_of(&row, "first_account", "first_name")?,
                    account_of(&row, "second_account", "second_name")?,
                ],
                rated: row.try_get::<i32, _>("rated")? != 0,
                clock: row.try_get("clock")?,
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

    /// The stored review of a game, if any.
    ///
    /// # Errors
    /// The database failed.
    pub async fn review(&self, id: &str) -> Result<Option<ReviewRow>, StoreError> {
        let sql =
            "SELECT game_id, version, bot, review, created_ms FROM reviews WHERE game_id = $1";
        on_pool!(&self.pools, pool => {
            let Some(r) = sqlx::query(sql).bind(id).fetch_optional(pool).await? else {
                return Ok(None);
            };
            Ok(Some(ReviewRow {
                game_id: r.try_get("game_id")?,
                version: r.try_get("version")?,
                bot: r.try_get("bot")?,
                review: r.try_get("review")?,
                created_ms: r.try_get("created_ms")?,
            }))
        })
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
        let sql = format!(
            "{LISTED} WHERE ($1 = '' OR g.status = $1) AND ($2 = '' OR g.game = $2) \
             ORDER BY g.created_ms DESC, g.id LIMIT $3"
        );
        on_pool!(&self.pools, pool => {
            let rows = sqlx::query(&sql)
                .bind(status.unwrap_or(""))
                .bind(game.unwrap_or(""))
                .bind(limit)
                .fetch_all(pool)
                .await?;
            rows.iter().map(listed).collect()
        })
    }

    /// Games going on with a clock, and when their side to move runs out of time; only
    /// those out of time by `before_ms` if given.
    ///
    /// # Errors
    /// The database failed.
    pub async fn deadlines(
        &self,
        before_ms: Option<i64>,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let sql = "SELECT id, deadline_ms FROM games WHERE deadline_ms IS NOT NULL \
                   AND deadline_ms < $1 ORDER BY deadline_ms LIMIT 100000";
        on_pool!(&self.pools, pool => {
            let rows = sqlx::query(sql)
                .bind(before_ms.unwrap_or(i64::MAX))
                .fetch_all(pool)
                .await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows {
                out.push((r.try_get("id")?, r.try_get("deadline_ms")?));
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
    /// Stores a new account; `false` when its name (in any case) is taken.
    ///
    /// # Errors
    /// The database failed.
    pub async fn create_account(
        &self,
        a: &AccountRow,
        created_ms: i64,
    ) -> Result<bool, StoreError> {
        let sql = "INSERT INTO accounts (id, name, name_key, password, created_ms) \
                   VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name_key) DO NOTHING";
        on_write_pool!(&self.pools, pool => {
            let done = sqlx::query(sql)
                .bind(&a.id)
                .bind(&a.name)
                .bind(name_key(&a.name))
                .bind(&a.password)
                .bind(created_ms)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// The account of a name (in any case), if there is one.
    ///
    /// # Errors
    /// The database failed.
    pub async fn account_by_name(&self, name: &str) -> Result<Option<AccountRow>, StoreError> {
        let sql = "SELECT id, name, password FROM accounts WHERE name_key = $1";
        on_pool!(&self.pools, pool => {
            let Some(r) = sqlx::query(sql).bind(name_key(name)).fetch_optional(pool).await? else {
                return Ok(None);
            };
            Ok(Some(AccountRow {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
                password: r.try_get("password")?,
            }))
        })
    }

    /// Stores a session (by its secret's digest) for an account.
    ///
    /// # Errors
    /// The database failed.
    pub async fn create_session(
        &self,
        digest: &str,
        account_id: &str,
        created_ms: i64,
    ) -> Result<(), StoreError> {
        let sql = "INSERT INTO sessions (id, account_id, created_ms) VALUES ($1, $2, $3)";
        on_write_pool!(&self.pools, pool => {
            sqlx::query(sql).bind(digest).bind(account_id).bind(created_ms).execute(pool).await?;
            Ok(())
        })
    }

    /// The account `(id, name)` of a session made at or after `since_ms`, if it exists.
    ///
    /// # Errors
    /// The database failed.
    pub async fn session(
        &self,
        digest: &str,
        since_ms: i64,
    ) -> Result<Option<(String, String)>, StoreError> {
        let sql = "SELECT a.id, a.name FROM sessions s JOIN accounts a ON a.id = s.account_id \
                   WHERE s.id = $1 AND s.created_ms >= $2";
        on_pool!(&self.pools, pool => {
            let row = sqlx::query(sql).bind(digest).bind(since_ms).fetch_optional(pool).await?;
            match row {
                Some(r) => Ok(Some((r.try_get("id")?, r.try_get("name")?))),
                None => Ok(None),
            }
        })
    }

    /// Ends one session.
    ///
    /// # Errors
    /// The database failed.
    pub async fn delete_session(&self, digest: &str) -> Result<(), StoreError> {
        on_write_pool!(&self.pools, pool => {
            sqlx::query("DELETE FROM sessions WHERE id = $1").bind(digest).execute(pool).await?;
            Ok(())
        })
    }

    /// Ends every session of an account, and sessions of any account older than
    /// `expired_before_ms`; returns how many of the account's ended.
    ///
    /// # Errors
    /// The database failed.
    pub async fn delete_sessions(
        &self,
        account_id: &str,
        expired_before_ms: i64,
    ) -> Result<u64, StoreError> {
        on_write_pool!(&self.pools, pool => {
            let done = sqlx::query("DELETE FROM sessions WHERE account_id = $1")
                .bind(account_id)
                .execute(pool)
                .await?;
            sqlx::query("DELETE FROM sessions WHERE created_ms < $1")
                .bind(expired_before_ms)
                .execute(pool)
                .await?;
            Ok(done.rows_affected())
        })
    }

    /// The games of an account (optionally of one game kind), most recently changed first,
    /// those where the account is to move before all others, then the other games going on.
    ///
    /// # Errors
    /// The database failed.
    pub async fn account_games(
        &self,
        account_id: &str,
        game: Option<&str>,
        limit: i64,
    ) -> Result<Vec<Listed>, StoreError> {
        let sql = format!(
            "{LISTED} WHERE (g.first_account = $1 OR g.second_account = $1) \
             AND ($2 = '' OR g.game = $2) \
             ORDER BY CASE WHEN (g.first_account = $1 AND g.to_move = 'first') \
             OR (g.second_account = $1 AND g.to_move = 'second') THEN 0 \
             WHEN g.status = 'ongoing' THEN 1 ELSE 2 END, g.updated_ms DESC, g.id LIMIT $3"
        );
        on_pool!(&self.pools, pool => {
            let rows = sqlx::query(&sql)
                .bind(account_id)
                .bind(game.unwrap_or(""))
                .bind(limit)
                .fetch_all(pool)
                .await?;
            rows.iter().map(listed).collect()
        })
    }

    /// The seats' account ids and the seat to move of a game, for telling its players.
    ///
    /// # Errors
    /// The database failed.
    pub async fn seat_accounts(&self, id: &str) -> Result<Option<[Option<String>; 2]>, StoreError> {
        let sql = "SELECT first_account, second_account FROM games WHERE id = $1";
        on_pool!(&self.pools, pool => {
            let row = sqlx::query(sql).bind(id).fetch_optional(pool).await?;
            match row {
                Some(r) => Ok(Some([r.try_get("first_account")?, r.try_get("second_account")?])),
                None => Ok(None),
            }
        })
    }
    /// Counts a rated game's result: the two accounts' Glicko-2 ratings in its game are
    /// updated, with their history, in one transaction that also records the game as
    /// counted, and only if it was not counted before (by this server or another). Returns
    /// whether this call counted it.
    ///
    /// # Errors
    /// The database failed.
    pub async fn rate_game(&self, r: &RatedResult, at_ms: i64) -> Result<bool, StoreError> {
        on_write_pool!(&self.pools, pool => {
            let mut tx = pool.begin_write().await?;
            let counted = sqlx::query(
                "INSERT INTO rated_games (game_id, at_ms) VALUES ($1, $2) \
                 ON CONFLICT (game_id) DO NOTHING",
            )
            .bind(&r.game_id)
            .bind(at_ms)
            .execute(&mut *tx)
            .await?;
            if counted.rows_affected() == 0 {
                tx.rollback().await?;
                return Ok(false);
            }
            let Some(score) = r.score_first else {
                // A result that is neither a win nor a draw (none so far): counted as seen.
                tx.commit().await?;
                return Ok(true);
            };
            let mut before = Vec::with_capacity(2);
            for account in &r.accounts {
                sqlx::query(
                    "INSERT INTO ratings (account_id, game, rating, deviation, volatility, \
                     games, updated_ms) VALUES ($1, $2, $3, $4, $5, 0, $6) \
                     ON CONFLICT (account_id, game) DO NOTHING",
                )
                .bind(account)
                .bind(&r.game)
                .bind(crate::ratings::START.rating)
                .bind(crate::ratings::START.deviation)
                .bind(crate::ratings::START.volatility)
                .bind(at_ms)
                .execute(&mut *tx)
                .await?;
                let row = sqlx::query(&format!(
                    "SELECT rating, deviation, volatility FROM ratings \
                     WHERE account_id = $1 AND game = $2{}",
                    pool.lock_rows()
                ))
                .bind(account)
                .bind(&r.game)
                .fetch_one(&mut *tx)
                .await?;
                before.push(crate::ratings::Rating {
                    rating: row.try_get("rating")?,
                    deviation: row.try_get("deviation")?,
                    volatility: row.try_get("volatility")?,
                });
            }
            let after = crate::ratings::after_game(before[0], before[1], score);
            for (account, new) in r.accounts.iter().zip(after) {
                sqlx::query(
                    "UPDATE ratings SET rating = $3, deviation = $4, volatility = $5, \
                     games = games + 1, updated_ms = $6 WHERE account_id = $1 AND game = $2",
                )
                .bind(account)
                .bind(&r.game)
                .bind(new.rating)
                .bind(new.deviation)
                .bind(new.volatility)
                .bind(at_ms)
                .execute(&mut *tx)
                .await?;
                sqlx::query(
                    "INSERT INTO rating_history (account_id, game, game_id, rating, deviation, \
                     at_ms) VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(account)
                .bind(&r.game)
                .bind(&r.game_id)
                .bind(new.rating)
                .bind(new.deviation)
                .bind(at_ms)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(true)
        })
    }

    /// Finished rated games whose result has not been counted yet.
    ///
    /// # Errors
    /// The database failed.
    pub async fn unrated_results(&self) -> Result<Vec<RatedResult>, StoreError> {
        let sql = "SELECT g.id, g.game, g.first_account, g.second_account, g.winner, g.result \
                   FROM games g WHERE g.rated = 1 AND g.status = 'finished' \
                   AND NOT EXISTS (SELECT 1 FROM rated_games r WHERE r.game_id = g.id) \
                   ORDER BY g.updated_ms LIMIT 1000";
        on_pool!(&self.pools, pool => {
            let rows = sqlx::query(sql).fetch_all(pool).await?;
            let mut out = Vec::with_capacity(rows.len());
            for row in rows {
                let (Some(a1), Some(a2)) = (
                    row.try_get::<Option<String>, _>("first_account")?,
                    row.try_get::<Option<String>, _>("second_account")?,
                ) else {
                    continue;
                };
                let winner: Option<String> = row.try_get("winner")?;
                let result: Option<String> = row.try_get("result")?;
                out.push(RatedResult {
                    game_id: row.try_get("id")?,
                    game: row.try_get("game")?,
                    accounts: [a1, a2],
                    score_first: match (winner.as_deref(), result.as_deref()) {
                        (Some("first"), _) => Some(1.0),
                        (Some("second"), _) => Some(0.0),
                        (_, Some("draw")) => Some(0.5),
                        _ => None,
                    },
                });
            }
            Ok(out)
        })
    }

    /// An account's ratings, one per game it has played rated games of.
    ///
    /// # Errors
    /// The database failed.
    pub async fn ratings_of(&self, account_id: &str) -> Result<Vec<RatingRow>, StoreError> {
        let sql = "SELECT r.game, a.name, r.rating, r.deviation, r.volatility, r.games, \
                   r.updated_ms FROM ratings r JOIN accounts a ON a.id = r.account_id \
                   WHERE r.account_id = $1 ORDER BY r.game";
        on_pool!(&self.pools, pool => {
            let rows = sqlx::query(sql).bind(account_id).fetch_all(pool).await?;
            rows.iter().map(rating_row).collect()
        })
    }

    /// An account's rating after each rated game of `game`, oldest first: `(ms, rating,
    /// deviation)`.
    ///
    /// # Errors
    /// The database failed.
    pub async fn rating_history(
        &self,
        account_id: &str,
        game: &str,
    ) -> Result<Vec<(i64, f64, f64)>, StoreError> {
        let sql = "SELECT at_ms, rating, deviation FROM rating_history \
                   WHERE account_id = $1 AND game = $2 ORDER BY at_ms, game_id";
        on_pool!(&self.pools, pool => {
            let rows = sqlx::query(sql).bind(account_id).bind(game).fetch_all(pool).await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in rows {
                out.push((r.try_get("at_ms")?, r.try_get("rating")?, r.try_get("deviation")?));
            }
            Ok(out)
        })
    }

    /// The best-rated players of a game: settled ratings first (deviation at most
    /// `settled`), then by rating.
    ///
    /// # Errors
    /// The database failed.
    pub async fn leaderboard(
        &self,
        game: &str,
        settled: f64,
        limit: i64,
    ) -> Result<Vec<RatingRow>, StoreError> {
        let sql = "SELECT r.game, a.name, r.rating, r.deviation, r.volatility, r.games, \
                   r.updated_ms FROM ratings r JOIN accounts a ON a.id = r.account_id \
                   WHERE r.game = $1 \
                   ORDER BY CASE WHEN r.deviation <= $2 THEN 0 ELSE 1 END, r.rating DESC, a.name \
                   LIMIT $3";
        on_pool!(&self.pools, pool => {
            let rows = sqlx::query(sql).bind(game).bind(settled).bind(limit).fetch_all(pool).await?;
            rows.iter().map(rating_row).collect()
        })
    }

    /// Stores an open challenge; `false` when its author already has `max_open` open.
    ///
    /// # Errors
    /// The database failed.
    pub async fn create_challenge(
        &self,
        c: &ChallengeRow,
        max_open: i64,
    ) -> Result<bool, StoreError> {
        let sql = "INSERT INTO challenges (id, account_id, game, options, seat, rated, \
                   opponent_id, created_ms, clock, seen_ms) \
                   SELECT $1, $2, $3, $4, $5, $6, $7, $8, $10, $8 \
                   WHERE (SELECT count(*) FROM challenges WHERE account_id = $2) < $9";
        on_write_pool!(&self.pools, pool => {
            let done = sqlx::query(sql)
                .bind(&c.id)
                .bind(&c.account_id)
                .bind(&c.game)
                .bind(&c.options)
                .bind(&c.seat)
                .bind(i32::from(c.rated))
                .bind(&c.opponent_id)
                .bind(c.created_ms)
                .bind(max_open)
                .bind(&c.clock)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// The open challenges made at or after `since_ms` that `viewer` may see: open ones, and
    /// those made by or to the viewer; oldest first. A challenge for a game played now
    /// (not correspondence) is open only while its author was seen at or after `seen_ms`.
    ///
    /// # Errors
    /// The database failed.
    pub async fn challenges(
        &self,
        viewer: Option<&str>,
        (since_ms, seen_ms): (i64, i64),
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        let sql = "SELECT c.id, c.account_id, a.name, c.game, c.options, c.seat, c.rated, \
                   c.opponent_id, o.name AS opponent_name, c.created_ms, r.rating, \
                   r.deviation, c.clock FROM challenges c \
                   JOIN accounts a ON a.id = c.account_id \
                   LEFT JOIN accounts o ON o.id = c.opponent_id \
                   LEFT JOIN ratings r ON r.account_id = c.account_id AND r.game = c.game \
                   WHERE c.created_ms >= $2 AND (c.opponent_id IS NULL \
                   OR c.opponent_id = $1 OR c.account_id = $1) \
                   AND (c.seen_ms >= $3 OR c.clock LIKE '%d') \
                   ORDER BY c.created_ms, c.id LIMIT 500";
        on_pool!(&self.pools, pool => {
            let rows = sqlx::query(sql)
                .bind(viewer.unwrap_or(""))
                .bind(since_ms)
                .bind(seen_ms)
                .fetch_all(pool)
                .await?;
            rows.iter().map(challenge_row).collect()
        })
    }

    /// Takes an open challenge for `taker`: deletes and returns it, if it is still open, was
    /// made at or after `since_ms`, is not the taker's own, and is open to them. Two takers
    /// of one challenge: one gets it.
    ///
    /// # Errors
    /// The database failed.
    pub async fn take_challenge(
        &self,
        id: &str,
        taker: &str,
        (since_ms, seen_ms): (i64, i64),
    ) -> Result<Option<ChallengeRow>, StoreError> {
        let sql = "DELETE FROM challenges WHERE id = $1 AND account_id <> $2 \
                   AND (opponent_id IS NULL OR opponent_id = $2) AND created_ms >= $3 \
                   AND (seen_ms >= $4 OR clock LIKE '%d') \
                   RETURNING id, account_id, game, options, seat, rated, opponent_id, created_ms, \
                   clock";
        on_write_pool!(&self.pools, pool => {
            let row = sqlx::query(sql)
                .bind(id)
                .bind(taker)
                .bind(since_ms)
                .bind(seen_ms)
                .fetch_optional(pool)
                .await?;
            match row {
                Some(r) => Ok(Some(ChallengeRow {
                    id: r.try_get("id")?,
                    account_id: r.try_get("account_id")?,
                    name: String::new(),
                    game: r.try_get("game")?,
                    options: r.try_get("options")?,
                    seat: r.try_get("seat")?,
                    rated: r.try_get::<i32, _>("rated")? != 0,
                    opponent_id: r.try_get("opponent_id")?,
                    opponent_name: None,
                    created_ms: r.try_get("created_ms")?,
                    rating: None,
                    clock: r.try_get("clock")?,
                })),
                None => Ok(None),
            }
        })
    }

    /// An account's name by its id.
    ///
    /// # Errors
    /// The database failed.
    pub async fn account_name(&self, id: &str) -> Result<Option<String>, StoreError> {
        on_pool!(&self.pools, pool => {
            let row = sqlx::query("SELECT name FROM accounts WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await?;
            match row {
                Some(r) => Ok(Some(r.try_get("name")?)),
                None => Ok(None),
            }
        })
    }

    /// Deletes challenges made before `before_ms` (expired), and those for a game played
    /// now whose author was last seen before `seen_ms` (lapsed); how many.
    ///
    /// # Errors
    /// The database failed.
    pub async fn purge_challenges(&self, before_ms: i64, seen_ms: i64) -> Result<u64, StoreError> {
        let sql = "DELETE FROM challenges WHERE created_ms < $1 \
                   OR (seen_ms < $2 AND (clock IS NULL OR clock NOT LIKE '%d'))";
        on_write_pool!(&self.pools, pool => {
            let done = sqlx::query(sql)
                .bind(before_ms)
                .bind(seen_ms)
                .execute(pool)
                .await?;
            Ok(done.rows_affected())
        })
    }

    /// Withdraws a challenge of `account`; whether there was one.
    ///
    /// # Errors
    /// The database failed.
    pub async fn cancel_challenge(&self, id: &str, account: &str) -> Result<bool, StoreError> {
        on_write_pool!(&self.pools, pool => {
            let done = sqlx::query("DELETE FROM challenges WHERE id = $1 AND account_id = $2")
                .bind(id)
                .bind(account)
                .execute(pool)
                .await?;
            Ok(done.rows_affected() == 1)
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

/// The channel PostgreSQL servers tell each other the lobby changed on.
pub const LOBBY_CHANNEL: &str = "boardlab_lobby";

/// The channel PostgreSQL servers pass news for a player's live channel on (`ACCOUNT JSON`).
pub const ACCOUNT_CHANNEL: &str = "boardlab_accounts";

/// A finished rated game between two accounts, to be counted.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedResult {
    pub game_id: String,
    /// The game kind's name.
    pub game: String,
    /// The accounts of the first and second seats.
    pub accounts: [String; 2],
    /// The first seat's score: 1 a win, 0.5 a draw, 0 a loss (`None`: neither).
    pub score_first: Option<f64>,
}

/// A stored rating.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub game: String,
    /// The account's name.
    pub name: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
    pub updated_ms: i64,
}

fn rating_row<R: Row>(r: &R) -> Result<RatingRow, StoreError>
where
    for<'a> &'a str: sqlx::ColumnIndex<R>,
    for<'a> String: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> i64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> f64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    Ok(RatingRow {
        game: r.try_get("game")?,
        name: r.try_get("name")?,
        rating: r.try_get("rating")?,
        deviation: r.try_get("deviation")?,
        volatility: r.try_get("volatility")?,
        games: r.try_get("games")?,
        updated_ms: r.try_get("updated_ms")?,
    })
}

/// An open challenge as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeRow {
    pub id: String,
    pub account_id: String,
    /// The author's name (empty where not read).
    pub name: String,
    pub game: String,
    /// Non-default options as a JSON object.
    pub options: String,
    /// The author's seat: `first`, `second` or `random`.
    pub seat: String,
    pub rated: bool,
    pub opponent_id: Option<String>,
    pub opponent_name: Option<String>,
    pub created_ms: i64,
    /// The author's rating and deviation in the game, if they have one (where read).
    pub rating: Option<(f64, f64)>,
    /// The time control, if any.
    pub clock: Option<String>,
}

fn challenge_row<R: Row>(r: &R) -> Result<ChallengeRow, StoreError>
where
    for<'a> &'a str: sqlx::ColumnIndex<R>,
    for<'a> String: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> Option<String>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> i64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> i32: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> Option<f64>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    let rating: Option<f64> = r.try_get("rating")?;
    let deviation: Option<f64> = r.try_get("deviation")?;
    Ok(ChallengeRow {
        rating: rating.zip(deviation),
        id: r.try_get("id")?,
        account_id: r.try_get("account_id")?,
        name: r.try_get("name")?,
        game: r.try_get("game")?,
        options: r.try_get("options")?,
        seat: r.try_get("seat")?,
        rated: r.try_get::<i32, _>("rated")? != 0,
        opponent_id: r.try_get("opponent_id")?,
        opponent_name: r.try_get("opponent_name")?,
        created_ms: r.try_get("created_ms")?,
        clock: r.try_get("clock")?,
    })
}

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

/// The key an account name is unique by: its lower-case form.
#[must_use]
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    pub id: String,
    pub name: String,
    /// The password's Argon2id hash (PHC string).
    pub password: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn append(
        game: &str,
        seq: i64,
        data: &str,
    ) -> (Write, Reply, oneshot::Receiver<Result<bool, StoreError>>) {
        let (tx, rx) = oneshot::channel();
        let write = Write::Append {
            creates: None,
            game_id: game.into(),
            event: Event {
                seq,
                seat: Seat::First,
                action: Action::Move,
                data: data.into(),
                at_ms: 0,
            },
            summary: GameSummary {
                version: seq,
                status: "ongoing",
                result: None,
                termination: None,
                move_count: seq,
                to_move: Some(Seat::Second),
                computer_to_move: false,
                updated_ms: 0,
                accounts: [None, None],
                winner: None,
                deadline_ms: None,
            },
        };
        (write, tx, rx)
    }

    #[test]
    fn regression_21_a_second_append_of_one_version_in_a_batch_is_refused() {
        let (w1, r1, _a) = append("g", 21, "d1");
        let (w2, r2, mut b) = append("g", 21, "d2");
        let (w3, r3, _c) = append("h", 21, "d2");
        let mut batch = vec![(w1, r1), (w2, r2), (w3, r3)];
        refuse_second_appends(&mut batch);
        let kept: Vec<(&str, &str)> = batch
            .iter()
            .map(|(w, _)| match w {
                Write::Append { game_id, event, .. } => (game_id.as_str(), event.data.as_str()),
                Write::Create(..) | Write::Review(_) => unreachable!(),
            })
            .collect();
        assert_eq!(kept, [("g", "d1"), ("h", "d2")]);
        assert!(matches!(b.try_recv(), Ok(Ok(false))));
    }
}
