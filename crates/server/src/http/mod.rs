//! The HTTP layer: the route table, and handlers that only convert between HTTP and the
//! services ([`crate::services`]). Every body is read by [`extract::JsonBody`], which answers
//! malformed JSON, wrong types, unknown fields and oversized bodies with a clear 4xx. The
//! OpenAPI document and the API reference's check read the same table.

pub mod accounts;
pub mod admission;
pub mod analysis;
pub mod docs;
pub mod extract;
pub mod forms;
pub mod games;
mod live;
pub mod lobby;
pub mod offline;
pub mod pages;
pub mod response;
pub mod session;
pub mod web;

use crate::app::App;
use crate::error::ApiError;
use crate::http::response::json_response;
use crate::view;
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::Router;
use boardlab_games::GameKind;
use std::sync::Arc;

/// The OpenAPI document served at `/api/openapi.json`.
pub const OPENAPI: &str = include_str!("openapi.json");

/// The API reference served at `/api/docs`.
pub const API_DOCS: &str = include_str!("../../../../docs/api.md");

/// A route: method, path and handler.
type Route = (&'static str, &'static str, MethodRouter<Arc<App>>);

/// Every route of the API, in the order the OpenAPI document lists them. The router, the
/// OpenAPI check and the docs check all read this one table.
fn table() -> Vec<Route> {
    vec![
        ("get", "/api/catalog", get(catalog)),
        ("get", "/api/games", get(games::list_games)),
        ("post", "/api/games", post(games::create_game)),
        ("get", "/api/games/{id}", get(games::get_game)),
        ("post", "/api/games/{id}/moves", post(games::post_move)),
        ("post", "/api/games/{id}/resign", post(games::post_resign)),
        ("post", "/api/games/{id}/draw", post(games::post_draw)),
        ("post", "/api/games/{id}/undo", post(games::post_undo)),
        ("post", "/api/games/{id}/join", post(games::post_join)),
        ("post", "/api/games/{id}/rematch", post(games::post_rematch)),
        ("get", "/api/games/{id}/record", get(games::get_record)),
        ("get", "/api/games/{id}/at/{ply}", get(games::get_at)),
        ("get", "/api/games/{id}/hint", get(games::get_hint)),
        ("post", "/api/games/{id}/review", post(games::post_review)),
        ("get", "/api/games/{id}/review", get(games::get_review)),
        ("post", "/api/reviews", post(games::post_reviews)),
        ("get", "/api/analysis", get(analysis::analysis)),
        ("post", "/api/positions", post(games::post_position)),
        ("get", "/api/rules/{game}", get(pages::get_rules)),
        ("get", "/api/findings/{page}", get(pages::get_findings)),
        ("get", "/api/tutorials/{game}", get(pages::get_tutorial)),
        ("get", "/api/puzzles", get(pages::list_puzzles)),
        ("get", "/api/puzzles/{id}", get(pages::get_puzzle)),
        (
            "post",
            "/api/puzzles/{id}/moves",
            post(pages::post_puzzle_move),
        ),
        (
            "post",
            "/api/puzzles/{id}/hint",
            post(pages::post_puzzle_hint),
        ),
        ("post", "/api/games/{id}/claim", post(accounts::claim)),
        ("post", "/api/account/signup", post(accounts::signup)),
        ("post", "/api/account/login", post(accounts::login)),
        ("post", "/api/account/logout", post(accounts::logout)),
        (
            "post",
            "/api/account/logout-everywhere",
            post(accounts::logout_everywhere),
        ),
        ("get", "/api/account", get(accounts::me)),
        ("get", "/api/account/games", get(accounts::my_games)),
        ("get", "/api/account/live", get(accounts::live)),
        ("get", "/api/players/{name}", get(accounts::player)),
        ("get", "/api/lobby", get(lobby::list)),
        ("post", "/api/lobby", post(lobby::post)),
        ("post", "/api/lobby/{id}/accept", post(lobby::accept)),
        ("post", "/api/lobby/{id}/cancel", post(lobby::cancel)),
        ("get", "/api/lobby/live", get(lobby::live)),
        ("get", "/api/ratings/{game}", get(lobby::leaderboard)),
        ("get", "/api/games/{id}/live", get(live::websocket)),
        ("get", "/api/games/{id}/events", get(live::sse)),
        ("get", "/api/openapi.json", get(openapi)),
        ("get", "/api/docs", get(api_docs)),
        ("get", "/api/health", get(health)),
    ]
}

/// Every route as (method, path).
#[must_use]
pub fn routes() -> Vec<(&'static str, &'static str)> {
    table().into_iter().map(|(m, p, _)| (m, p)).collect()
}

/// The router: API under `/api`, the web UI everywhere else.
pub fn router(app: Arc<App>) -> Router {
    let mut api = Router::new();
    for (_, path, handler) in table() {
        api = api.route(path, handler);
    }
    let api = api
        .route("/api", get(api_not_found))
        .route("/api/{*rest}", get(api_not_found).post(api_not_found))
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::map_response(no_store));
    api.route(offline::LIST_PATH, get(offline::list))
        .fallback(web::serve)
        .with_state(app)
}

async fn no_store(mut r: Response) -> Response {
    r.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r
}

async fn api_not_found() -> ApiError {
    ApiError::not_found("no such API route; see /api/openapi.json or /api/docs")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this method is not allowed here; see /api/openapi.json",
    )
}

async fn health(State(app): State<Arc<App>>) -> Response {
    let answered = tokio::time::timeout(std::time::Duration::from_secs(2), app.store.ping()).await;
    let (status, word) = match answered {
        Ok(Ok(())) => (StatusCode::OK, "ok"),
        Ok(Err(e)) => {
            tracing::warn!("health check: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, "storage")
        }
        Err(_) => (StatusCode::SERVICE_UNAVAILABLE, "storage"),
    };
    json_response(
        status,
        serde_json::json!({ "status": word, "store": app.store.description() }).to_string(),
    )
}

async fn catalog() -> Response {
    let c = view::Catalog {
        games: GameKind::all()
            .iter()
            .map(|k| view::CatalogGame {
                info: k.info(),
                legend: k.legend(),
            })
            .collect(),
        players: crate::player::ACCEPTED,
        levels: view::Levels {
            min: 1,
            max: boardlab_ai::spec::MAX_LEVEL,
            default: crate::bot::DEFAULT_LEVEL,
        },
        facts: boardlab_core::present::Fact::ALL
            .iter()
            .map(|f| f.info())
            .collect(),
    };
    json_response(
        StatusCode::OK,
        serde_json::to_string(&c).expect("catalog serialises"),
    )
}

async fn openapi() -> Response {
    json_response(StatusCode::OK, OPENAPI.to_string())
}

async fn api_docs() -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/markdown; charset=utf-8"),
        )],
        API_DOCS,
    )
        .into_response()
}
