//! Stored reviews of finished games.

use super::{Store, StoreError};
use sqlx::Row;

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

impl Store {
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
}
