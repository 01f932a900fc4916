//! Admission: the requests served at once are capped, and one past the cap is refused at once
//! (503 with `Retry-After`) before any work is done for it. An overloaded server so keeps
//! serving what it admitted at full speed, instead of slowing every request down until clients
//! time out. Live streams (WebSockets, server-sent events) are not counted here: they have
//! budgets of their own ([`crate::limits::Gauge`]).

use crate::error::ApiError;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use tokio::sync::Semaphore;

/// The requests being served, at most a fixed number.
#[derive(Debug)]
pub struct Admission {
    slots: Arc<Semaphore>,
}

impl Admission {
    /// At most `max` requests served at once.
    #[must_use]
    pub fn new(max: usize) -> Arc<Admission> {
        Arc::new(Admission {
            slots: Arc::new(Semaphore::new(max.max(1))),
        })
    }
}

/// Whether `path` is a live stream's (held open, so not counted as a request in flight).
fn is_stream(path: &str) -> bool {
    path.ends_with("/live") || path.ends_with("/events") || path == "/api/analysis"
}

/// Serves `req` if a slot is free, else refuses it at once.
pub async fn admit(State(admission): State<Arc<Admission>>, req: Request, next: Next) -> Response {
    if is_stream(req.uri().path()) {
        return next.run(req).await;
    }
    let Ok(slot) = Arc::clone(&admission.slots).try_acquire_owned() else {
        return ApiError::busy(
            "overloaded",
            "the server is serving as many requests as it can; try again in a moment",
            1,
        )
        .into_response();
    };
    let answer = next.run(req).await;
    drop(slot);
    answer
}

#[cfg(test)]
mod tests {
    use super::is_stream;

    #[test]
    fn live_streams_are_not_counted_as_requests() {
        assert!(is_stream("/api/games/abc/live"));
        assert!(is_stream("/api/games/abc/events"));
        assert!(is_stream("/api/account/live"));
        assert!(is_stream("/api/lobby/live"));
        assert!(is_stream("/api/analysis"));
        assert!(!is_stream("/api/games/abc/moves"));
        assert!(!is_stream("/api/games"));
    }
}
