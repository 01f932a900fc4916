//! The analysis board's engine: `GET /api/analysis` searches one position with the strongest
//! computer player for longer and longer (0.1 s, 0.3 s, 1 s, 3 s) and sends each result as a
//! server-sent event, so a first evaluation arrives at once and better ones follow. The
//! search stops when the client closes the stream (it moved on to another position). Each
//! search holds one of the search threads, within the analysis board's share of them
//! (`--analysis-threads`): computer players and hints come first, and an analysis gives its
//! thread up to them at once (that step then reports what it found so far). One address may
//! hold `--analysis-streams-per-address` streams at once (2 by default).
//!
//! The analysis board is open to anyone for any position, as on other game sites: fair play
//! between two people is not enforced by the server.

use crate::app::App;
use crate::error::ApiError;
use crate::http::extract::{ClientAddr, QueryParams};
use crate::scheduler::Class;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use boardlab_games::analysis::{evaluate, STEPS_MS};
use boardlab_games::view::POSITION_LIMIT;
use boardlab_games::{AnyGame, GameKind};
use serde::Deserialize;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisQuery {
    game: String,
    position: String,
    /// Options as `key=value,…`.
    options: Option<String>,
}

/// Stops an analysis: the whole stream, and the search running for it.
#[derive(Default)]
struct Stop {
    stream: AtomicBool,
    /// The running step's flag (the search pool may set it on its own, to take the thread
    /// back, without ending the stream).
    step: std::sync::Mutex<Arc<AtomicBool>>,
}

impl Stop {
    fn stopped(&self) -> bool {
        self.stream.load(Ordering::Relaxed)
    }

    /// A flag for the next step, set when the stream stops.
    fn next_step(&self) -> Arc<AtomicBool> {
        let flag = Arc::new(AtomicBool::new(self.stopped()));
        *crate::lock(&self.step) = Arc::clone(&flag);
        flag
    }

    fn stop(&self) {
        self.stream.store(true, Ordering::Relaxed);
        crate::lock(&self.step).store(true, Ordering::Relaxed);
    }
}

/// Stops the analysis when the event stream is dropped (the client went away).
struct StopOnDrop(Arc<Stop>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// `GET /api/analysis?game=G&position=TEXT[&options=K=V,…]`: evaluations as server-sent
/// events named `analysis`, then an `end` event.
pub async fn analysis(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    QueryParams(q): QueryParams<AnalysisQuery>,
) -> Result<Response, ApiError> {
    let kind: GameKind = q
        .game
        .parse()
        .map_err(|e: boardlab_games::UnknownGame| ApiError::bad_request(e.to_string()))?;
    if q.position.len() > POSITION_LIMIT {
        return Err(ApiError::bad_request(format!(
            "the position text is longer than {POSITION_LIMIT} characters"
        )));
    }
    let options = kind
        .parse_options(q.options.as_deref().unwrap_or(""))
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let game = AnyGame::from_position(kind, &options, &q.position)
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    if let Some(o) = game.outcome() {
        return Err(ApiError::conflict(
            "game_over",
            format!("the game is over ({o}): there is nothing to analyse"),
        ));
    }
    app.analysis_limit.check(client)?;
    let held = app.analysis_streams.open(client)?;
    let stream = app.streams.open(client)?;
    let max_age = app.settings.budgets.stream_max_age;
    let stop = Arc::new(Stop::default());
    let (tx, rx) = tokio::sync::mpsc::channel::<Event>(4);
    let flag = Arc::clone(&stop);
    tokio::spawn(async move {
        let key = client.to_string();
        for i in 0..STEPS_MS.len() {
            if flag.stopped() {
                return;
            }
            let step = flag.next_step();
            let permit = app
                .computer
                .searches
                .acquire(&key, Class::Analysis, 1, Arc::clone(&step))
                .await;
            let g = game.clone();
            let r = tokio::task::spawn_blocking(move || {
                let r = evaluate(&g, i, &step);
                drop(permit);
                r
            })
            .await;
            if flag.stopped() {
                return;
            }
            let event = match r {
                Ok(Ok(e)) => {
                    let last = e.last;
                    let data = serde_json::to_string(&e).expect("serialises");
                    if tx
                        .send(Event::default().event("analysis").data(data))
                        .await
                        .is_err()
                        || last
                    {
                        break;
                    }
                    continue;
                }
                Ok(Err(e)) => serde_json::json!({ "error": e.to_string() }),
                Err(e) => serde_json::json!({ "error": e.to_string() }),
            };
            let _ = tx
                .send(Event::default().event("error").data(event.to_string()))
                .await;
            return;
        }
        let _ = tx.send(Event::default().event("end").data("{}")).await;
    });
    let guard = (StopOnDrop(stop), held, stream);
    let events = futures_util::stream::unfold((rx, guard), |(mut rx, guard)| async move {
        rx.recv()
            .await
            .map(|e| (Ok::<Event, Infallible>(e), (rx, guard)))
    });
    let events = futures_util::StreamExt::take_until(events, tokio::time::sleep(max_age));
    Ok(Sse::new(events)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response())
}
