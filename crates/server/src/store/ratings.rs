//! Ratings: rated results counted once, each player's rating per game and its history.

use super::{Store, StoreError, WritePool};
use sqlx::Row;

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

impl Store {
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
}
