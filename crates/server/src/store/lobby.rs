//! The lobby's open challenges.

use super::{Store, StoreError};
use sqlx::Row;

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

impl Store {
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
}
