//! Answers: JSON bodies, and errors as JSON with their status (and `Retry-After` where a
//! budget refused).

use crate::error::ApiError;
use crate::state::GameState;
use crate::view;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// A game's state as the API answers it.
#[must_use]
pub fn state_response(status: StatusCode, state: Arc<GameState>) -> Response {
    json_response(status, state.into_written(view::state_json))
}

pub fn json_response(status: StatusCode, body: String) -> Response {
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body,
    )
        .into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message, "code": self.code });
        let mut response = (self.status, axum::Json(body)).into_response();
        if let Some(s) = self.retry_after {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, s.into());
        }
        if self.status == StatusCode::PAYLOAD_TOO_LARGE {
            // The rest of the body was never read, so the connection cannot carry another
            // request: say so, or a keep-alive client sends its next request on a connection
            // the server is about to close, and that request fails.
            response.headers_mut().insert(
                axum::http::header::CONNECTION,
                axum::http::HeaderValue::from_static("close"),
            );
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_large_answers_close_the_connection_and_others_keep_it() {
        let close = |status| {
            ApiError::new(status, "x", "y")
                .into_response()
                .headers()
                .get(axum::http::header::CONNECTION)
                .is_some_and(|v| v == "close")
        };
        assert!(close(StatusCode::PAYLOAD_TOO_LARGE));
        assert!(!close(StatusCode::BAD_REQUEST));
    }
}
