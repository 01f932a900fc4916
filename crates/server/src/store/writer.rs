//! The writer task: waiting writes committed together in one transaction (group commit), with the
//! same few statements whatever the size of the batch.

use super::{
    GameRow, GameSummary, Pools, Reply, Store, StoreError, Write, CHECKPOINT_EVERY, MAX_BATCH,
    NOTIFY_CHANNEL,
};
use boardlab_core::Seat;
use sqlx::postgres::PgPool;
use sqlx::sqlite::SqlitePool;
use sqlx::Row;
use tokio::sync::{mpsc, oneshot};

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

impl Store {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Action, Event};

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
