//! API errors: a status, a stable code and a message saying what was wrong and what is
//! accepted, sent as `{"error": MESSAGE, "code": CODE}`.

use crate::state::ActionError;
use crate::store::StoreError;
use axum::http::StatusCode;
use boardlab_core::MoveError;

/// An error answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    /// Seconds to wait before asking again (sent as `Retry-After`).
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// Any status with a code.
    #[must_use]
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    /// 500: something failed that the client could not help.
    #[must_use]
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }

    /// 429: this client asked too often; it may ask again after `seconds`.
    #[must_use]
    pub fn too_many(what: &str, whom: &str, seconds: u64) -> ApiError {
        let seconds = seconds.max(1);
        ApiError {
            retry_after: Some(seconds),
            ..ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                format!("too many {what} from {whom}; try again in {seconds} s"),
            )
        }
    }

    /// 503: the server has no room for this now (`code` says for what); the client may ask
    /// again after `seconds`.
    #[must_use]
    pub fn busy(code: &'static str, message: impl Into<String>, seconds: u64) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, code, message).retry_after(seconds)
    }

    /// The same error with another message.
    #[must_use]
    pub fn with_message(mut self, message: impl Into<String>) -> ApiError {
        self.message = message.into();
        self
    }

    /// The same error, telling the client to wait `seconds` before asking again.
    #[must_use]
    pub fn retry_after(mut self, seconds: u64) -> ApiError {
        self.retry_after = Some(seconds.max(1));
        self
    }

    /// The answer when a password cannot be worked on now: 503 with `Retry-After`, or 500
    /// when the hasher failed.
    #[must_use]
    pub fn from_hashing(e: crate::hashing::HashError) -> ApiError {
        use crate::hashing::{HashError, RETRY_SECONDS};
        match e {
            HashError::Busy | HashError::Unavailable => {
                ApiError::busy("busy", e.to_string(), RETRY_SECONDS)
            }
            HashError::Failed => {
                ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string())
            }
        }
    }

    /// 400: the request is malformed.
    #[must_use]
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    /// 403: missing or wrong token.
    #[must_use]
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, "forbidden", message)
    }

    /// 404.
    #[must_use]
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    /// 409 with a code.
    #[must_use]
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }

    /// 409: the client's version is not the game's.
    #[must_use]
    pub fn stale(given: i64, now: i64) -> ApiError {
        ApiError::conflict(
            "stale_version",
            format!("version {given} is stale: the game is at version {now}; fetch the game again"),
        )
    }

    /// 503: the database failed. Logged; the message names no internals.
    #[must_use]
    pub fn storage(e: StoreError) -> ApiError {
        tracing::error!("storage: {e}");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "storage",
            "the game store is not available; try again",
        )
    }

    /// The answer for a refused action.
    #[must_use]
    pub fn from_action(e: ActionError) -> ApiError {
        match e {
            ActionError::Move(m @ MoveError::Parse(_)) => {
                ApiError::new(StatusCode::BAD_REQUEST, "malformed_move", m.to_string())
            }
            ActionError::Move(m @ MoveError::Illegal(_)) => {
                ApiError::new(StatusCode::BAD_REQUEST, "illegal_move", m.to_string())
            }
            ActionError::Conflict { code, message } => ApiError::conflict(code, message),
        }
    }

    /// Whether this is a 409.
    #[must_use]
    pub fn is_conflict(&self) -> bool {
        self.status == StatusCode::CONFLICT
    }
}

pub use boardlab_games::view::shorten;
