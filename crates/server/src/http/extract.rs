//! What the handlers take from a request, each with its own clear 4xx: a JSON body
//! ([`JsonBody`]), a game id from the path ([`GameId`]), query parameters ([`QueryParams`]) and
//! the client's address ([`ClientAddr`]).

use crate::app::App;
use crate::error::ApiError;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A JSON body of type `T`; anything wrong with it is a 400 (413 when too large).
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if let Some(ct) = req.headers().get(header::CONTENT_TYPE) {
            let ok = ct
                .to_str()
                .map(|v| {
                    let v = v.trim().to_ascii_lowercase();
                    v == "application/json" || v.starts_with("application/json;")
                })
                .unwrap_or(false);
            if !ok {
                return Err(unsupported_media_type());
            }
        } else {
            return Err(unsupported_media_type());
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "payload_too_large",
                    format!("the body is larger than the limit of {BODY_LIMIT} bytes"),
                )
            } else if timed_out(&e) {
                ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "timeout",
                    "the body was not sent in time",
                )
            } else {
                ApiError::bad_request(format!("cannot read the body: {}", e.body_text()))
            }
        })?;
        if bytes.is_empty() {
            return Err(ApiError::bad_request(
                "the body is empty; send a JSON object",
            ));
        }
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| ApiError::bad_request(format!("invalid JSON body: {e}")))
    }
}

/// Whether reading a body failed because the client took longer than the body timeout.
pub fn timed_out(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(e);
    while let Some(c) = cause {
        if c.is::<tower_http::timeout::TimeoutError>() {
            return true;
        }
        cause = c.source();
    }
    false
}

/// Only `application/json` bodies are read: a web page elsewhere can send a form or plain text
/// to this server in a visitor's browser without asking, but not JSON.
pub fn unsupported_media_type() -> ApiError {
    ApiError::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported_media_type",
        "send the body as JSON with the header Content-Type: application/json",
    )
}

/// The address a request comes from (see [`crate::limits::client_addr`]).
#[derive(Debug)]
pub struct ClientAddr(pub std::net::IpAddr);

impl FromRequestParts<Arc<App>> for ClientAddr {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let peer = parts
            .extensions
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
            .map(|c| c.0);
        Ok(ClientAddr(crate::limits::client_addr(
            peer,
            &parts.headers,
            app.settings.trust_proxy,
        )))
    }
}

/// A game id from the path; anything that cannot be an id is a 404.
#[derive(Debug)]
pub struct GameId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let Path(params) = Path::<BTreeMap<String, String>>::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::not_found("no such game"))?;
        let id = params.get("id").cloned().unwrap_or_default();
        if crate::token::valid_game_id(&id) {
            Ok(GameId(id))
        } else {
            Err(ApiError::not_found(format!(
                "no game with id '{}'",
                id.chars().take(40).collect::<String>()
            )))
        }
    }
}

/// Query parameters of type `T`; anything wrong is a 400.
#[derive(Debug)]
pub struct QueryParams<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for QueryParams<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let q = parts.uri.query().unwrap_or("");
        serde_urlencoded::from_str(q)
            .map(QueryParams)
            .map_err(|e| ApiError::bad_request(format!("bad query parameters: {e}")))
    }
}

/// Largest request body accepted, in bytes.
pub const BODY_LIMIT: usize = 64 * 1024;
