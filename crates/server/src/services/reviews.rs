//! Game reviews on the server: every position of a game evaluated by the game's review bot
//! (`boardlab_ai::review`), stored in the database (one review per game, the latest), with
//! progress on the game's live channel. A review shares the computer players' search threads:
//! it holds one slot and hands it back after every position, so computer moves waiting for a
//! slot go first and reviews never starve live games.

use crate::error::ApiError;
use crate::lock;
use crate::scheduler::{Class, SearchPool};
use crate::services::games::Games;
use crate::services::notify::Notifier;
use crate::store::{ReviewRow, Store, Write};
use axum::http::StatusCode;
use boardlab_ai::review::{Progress, ReviewConfig, ReviewError};
use boardlab_core::GameRecord;
use boardlab_games::{AnyGame, GameKind};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// How long a review running on another server counts as running without news of it (its
/// server stopped).
const ELSEWHERE_TTL: Duration = Duration::from_secs(120);

/// Most moves a review takes on (longer games and records are refused).
pub const REVIEW_MOVES_LIMIT: usize = 600;

/// Where the review of a game stands.
#[derive(Debug)]
pub enum ReviewStatus {
    /// Running, of version `reviewing` of a game now at `version`.
    Running {
        reviewing: i64,
        version: i64,
        progress: Progress,
    },
    /// Stored: `row`, of a game now at `version`.
    Done { row: ReviewRow, version: i64 },
}

/// A review in progress.
#[derive(Debug)]
pub struct ReviewJob {
    /// The game's version being reviewed.
    version: i64,
    progress: Progress,
    stop: Arc<AtomicBool>,
}

/// The progress message of the live channel.
fn progress_message(status: &str, version: i64, progress: Progress) -> String {
    serde_json::json!({
        "type": "review",
        "review": { "status": status, "version": version, "done": progress.done, "total": progress.total },
    })
    .to_string()
}

/// The error of a review that could not be made, as the API answers it.
fn review_error(e: ReviewError) -> ApiError {
    match e {
        ReviewError::Record(e) => ApiError::bad_request(format!("bad record: {e}")),
        ReviewError::UnknownGame(e) => ApiError::bad_request(e.to_string()),
        ReviewError::Ai(e) => ApiError::conflict("not_allowed", e.to_string()),
        ReviewError::Config(m) => ApiError::bad_request(m),
        ReviewError::Stopped => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "stopped",
            "the review was stopped (the server is shutting down)",
        ),
    }
}

/// Sets a stop flag when dropped while armed: a request whose client hangs up stops its
/// review.
struct StopOnDrop(Option<Arc<AtomicBool>>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        if let Some(stop) = &self.0 {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// The reviews of this server: those running, and those stored.
#[derive(Debug)]
pub struct Reviews {
    store: Arc<Store>,
    games: Arc<Games>,
    notifier: Arc<Notifier>,
    searches: Arc<SearchPool>,
    /// Reviews in progress, by game id.
    jobs: Mutex<HashMap<String, ReviewJob>>,
    /// Reviews in progress on other servers, by game id: the version, the progress, and when
    /// it was last heard of.
    elsewhere: Mutex<HashMap<String, (i64, Progress, Instant)>>,
    /// Changes when the server begins to stop.
    shutdown: watch::Receiver<bool>,
}

impl Reviews {
    /// The reviews of `games`, searching in `searches`; progress goes to `notifier`'s game
    /// channels, and a review in progress stops when `shutdown` changes.
    #[must_use]
    pub fn new(
        store: Arc<Store>,
        games: Arc<Games>,
        notifier: Arc<Notifier>,
        searches: Arc<SearchPool>,
        shutdown: watch::Receiver<bool>,
    ) -> Reviews {
        Reviews {
            store,
            games,
            notifier,
            searches,
            jobs: Mutex::new(HashMap::new()),
            elsewhere: Mutex::new(HashMap::new()),
            shutdown,
        }
    }

    /// Reviews `record` on a blocking thread, holding one computer slot at a time and handing
    /// it back after each position; `progress` is told after each position.
    async fn run_review(
        self: &Arc<Self>,
        record: GameRecord,
        key: String,
        stop: Arc<AtomicBool>,
        mut progress: impl FnMut(Progress) + Send + 'static,
    ) -> Result<(String, String), ApiError> {
        if record.moves.len() > REVIEW_MOVES_LIMIT {
            return Err(ApiError::bad_request(format!(
                "the game has more than {REVIEW_MOVES_LIMIT} moves to review"
            )));
        }
        let kind: GameKind = record
            .game
            .parse()
            .map_err(|e: boardlab_games::UnknownGame| ApiError::bad_request(e.to_string()))?;
        let start = AnyGame::record_start(kind, &record)
            .map_err(|e| ApiError::bad_request(format!("bad record: {e}")))?;
        // The pool's request to stop is not heard mid-position: a review hands its thread
        // back after every position anyway.
        let unheard = Arc::new(AtomicBool::new(false));
        let pool = Arc::clone(&self.searches);
        let first = Some(
            pool.acquire(&key, Class::Hint, 1, Arc::clone(&unheard))
                .await,
        );
        let handle = tokio::runtime::Handle::current();
        let mut shutdown = self.shutdown.clone();
        shutdown.mark_unchanged();
        let stop2 = Arc::clone(&stop);
        let task = tokio::task::spawn_blocking(move || {
            let mut permit = first;
            let config = ReviewConfig {
                bot: None,
                seed: record.seed,
                threads: 1,
            };
            let review = boardlab_games::review_record(&record, &config, &stop2, &mut |p| {
                progress(p);
                // Hand the slot back: computer players waiting for one go first.
                permit = None;
                permit =
                    Some(handle.block_on(pool.acquire(&key, Class::Hint, 1, Arc::clone(&unheard))));
            });
            drop(permit);
            review.map(|r| (boardlab_games::analysis::review_json(&start, &r), r.bot))
        });
        let mut stopper = StopOnDrop(Some(Arc::clone(&stop)));
        let result = tokio::select! {
            r = task => r,
            _ = shutdown.changed() => {
                stop.store(true, Ordering::Relaxed);
                return Err(review_error(ReviewError::Stopped));
            }
        };
        stopper.0 = None;
        result
            .map_err(|e| {
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal",
                    format!("the review failed: {e}"),
                )
            })?
            .map_err(review_error)
    }

    /// `POST /api/games/{id}/review`: the stored review when it covers every move played
    /// (200), else starts one, or reports the one already running (202).
    ///
    /// # Errors
    /// 404 unknown game, 409 no moves to review, storage failures.
    pub async fn start_review(
        self: &Arc<Self>,
        id: &str,
        key: &str,
    ) -> Result<ReviewStatus, ApiError> {
        let (record, version, moves) = self
            .games
            .with_entry(id, |e| {
                (e.live.record(&e.meta), e.live.version, e.live.moves.len())
            })
            .await?;
        if moves == 0 {
            return Err(ApiError::conflict(
                "not_allowed",
                "no move has been played yet: there is nothing to review",
            ));
        }
        if let Some(row) = self.store.review(id).await.map_err(ApiError::storage)? {
            if row.version == version {
                return Ok(ReviewStatus::Done { row, version });
            }
        }
        let stop = Arc::new(AtomicBool::new(false));
        {
            let mut jobs = lock(&self.jobs);
            if let Some(running) = self.running(&jobs, id, version) {
                return Ok(running);
            }
            jobs.insert(
                id.to_string(),
                ReviewJob {
                    version,
                    progress: Progress {
                        done: 0,
                        total: moves + 1,
                    },
                    stop: Arc::clone(&stop),
                },
            );
        }
        let reviews = Arc::clone(self);
        let (id, key) = (id.to_string(), key.to_string());
        tokio::spawn(async move {
            reviews
                .review_and_store(id, key, (record, version), stop)
                .await
        });
        Ok(ReviewStatus::Running {
            reviewing: version,
            version,
            progress: Progress {
                done: 0,
                total: moves + 1,
            },
        })
    }

    /// Reviews game `id`'s `record` at `version`, stores the review, and tells its live
    /// clients on every server how it goes.
    async fn review_and_store(
        self: Arc<Self>,
        id: String,
        key: String,
        (record, version): (GameRecord, i64),
        stop: Arc<AtomicBool>,
    ) {
        let me = Arc::clone(&self);
        let id2 = id.clone();
        let result = self
            .run_review(record, key, stop, move |p| {
                if let Some(job) = lock(&me.jobs).get_mut(&id2) {
                    job.progress = p;
                }
                me.notifier
                    .review_progress(&id2, progress_message("running", version, p));
            })
            .await;
        let stored = match result {
            Ok((json, bot)) => {
                let row = ReviewRow {
                    game_id: id.clone(),
                    version,
                    bot,
                    review: json,
                    created_ms: crate::now_ms(),
                };
                match self.store.write(Write::Review(row)).await {
                    Ok(_) => Ok(()),
                    Err(e) => Err(e.to_string()),
                }
            }
            Err(e) => Err(e.message),
        };
        let total = lock(&self.jobs)
            .remove(&id)
            .map_or(Progress { done: 0, total: 0 }, |j| j.progress);
        let message = match stored {
            Ok(()) => progress_message("done", version, total),
            Err(e) => {
                tracing::warn!(game = id, "review failed: {e}");
                serde_json::json!({
                    "type": "review",
                    "review": { "status": "failed", "version": version, "error": e },
                })
                .to_string()
            }
        };
        self.notifier.review_progress(&id, message);
    }

    /// The review of game `id` (now at `version`) running here (one of `jobs`) or on another
    /// server, if one runs.
    fn running(
        &self,
        jobs: &HashMap<String, ReviewJob>,
        id: &str,
        version: i64,
    ) -> Option<ReviewStatus> {
        let (reviewing, progress) = match jobs.get(id) {
            Some(job) => (job.version, job.progress),
            None => self.running_elsewhere(id)?,
        };
        Some(ReviewStatus::Running {
            reviewing,
            version,
            progress,
        })
    }

    /// The version and progress of a review of game `id` running on another server.
    fn running_elsewhere(&self, id: &str) -> Option<(i64, Progress)> {
        let mut elsewhere = lock(&self.elsewhere);
        match elsewhere.get(id) {
            Some((v, p, at)) if at.elapsed() < ELSEWHERE_TTL => Some((*v, *p)),
            Some(_) => {
                elsewhere.remove(id);
                None
            }
            None => None,
        }
    }

    /// Another server's progress message `text` for the review of game `id`: kept while the
    /// review runs, and sent to the game's live clients here.
    pub fn progress_elsewhere(&self, id: &str, text: &str) {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else {
            return;
        };
        let r = &v["review"];
        {
            let mut elsewhere = lock(&self.elsewhere);
            if r["status"] == "running" {
                let n = |k: &str| usize::try_from(r[k].as_u64().unwrap_or(0)).unwrap_or(0);
                let progress = Progress {
                    done: n("done"),
                    total: n("total"),
                };
                let version = r["version"].as_i64().unwrap_or(0);
                elsewhere.insert(id.to_string(), (version, progress, Instant::now()));
            } else {
                elsewhere.remove(id);
            }
        }
        self.notifier.announce(id, "review", text.to_string());
    }

    /// `GET /api/games/{id}/review`: the stored review, or the progress of the running one.
    ///
    /// # Errors
    /// 404 unknown game or no review yet, storage failures.
    pub async fn get_review(&self, id: &str) -> Result<ReviewStatus, ApiError> {
        let version = self.games.with_entry(id, |e| e.live.version).await?;
        if let Some(running) = self.running(&lock(&self.jobs), id, version) {
            return Ok(running);
        }
        match self.store.review(id).await.map_err(ApiError::storage)? {
            Some(row) => Ok(ReviewStatus::Done { row, version }),
            None => Err(ApiError::new(
                StatusCode::NOT_FOUND,
                "no_review",
                "this game has not been reviewed; POST to this address starts a review",
            )),
        }
    }

    /// Stops every review in progress (the server is stopping).
    pub fn stop_all(&self) {
        for job in lock(&self.jobs).values() {
            job.stop.store(true, Ordering::Relaxed);
        }
    }

    /// `POST /api/reviews`: reviews an uploaded record and answers the review.
    ///
    /// # Errors
    /// 400 a record that cannot be read or replayed (the first bad move named), 409 a game the
    /// computer cannot review.
    pub async fn review_upload(
        self: &Arc<Self>,
        text: &str,
        key: &str,
    ) -> Result<String, ApiError> {
        let record = GameRecord::parse(text)
            .map_err(|e| ApiError::bad_request(format!("bad record: {e}")))?;
        if record.moves.is_empty() {
            return Err(ApiError::bad_request(
                "the record has no moves: there is nothing to review",
            ));
        }
        self.run_review(
            record,
            key.to_string(),
            Arc::new(AtomicBool::new(false)),
            |_| {},
        )
        .await
        .map(|(json, _)| json)
    }
}
