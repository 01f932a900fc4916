//! Ratings: each rated game's result counted once, whichever servers try.

use crate::error::ApiError;
use crate::now_ms;
use crate::ratings::PROVISIONAL_DEVIATION;
use crate::store::{RatingRow, Store};
use boardlab_games::GameKind;
use std::sync::Arc;

/// Counts rated results into the players' ratings.
#[derive(Debug)]
pub struct Ratings {
    store: Arc<Store>,
    /// Held while rated results are being counted (one counting pass at a time here).
    rating: tokio::sync::Mutex<()>,
}

impl Ratings {
    /// The ratings kept in `store`.
    #[must_use]
    pub fn new(store: Arc<Store>) -> Ratings {
        Ratings {
            store,
            rating: tokio::sync::Mutex::new(()),
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

    /// The leaderboard of `kind`, at most `limit` players: settled ratings first (deviation at
    /// most [`PROVISIONAL_DEVIATION`]), then by rating.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn leaderboard(
        &self,
        kind: GameKind,
        limit: i64,
    ) -> Result<Vec<RatingRow>, ApiError> {
        self.store
            .leaderboard(kind.name(), PROVISIONAL_DEVIATION, limit)
            .await
            .map_err(ApiError::storage)
    }
}
