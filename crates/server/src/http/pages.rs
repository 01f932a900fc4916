//! Reference pages and puzzles: rules, findings, tutorials, and the puzzle collection.

use crate::app::App;
use crate::error::ApiError;
use crate::http::extract::{ClientAddr, JsonBody, QueryParams};
use crate::http::forms::MOVE_LIMIT;
use crate::http::response::json_response;
use crate::view;
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use boardlab_games::GameKind;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesQuery {
    format: Option<String>,
}

pub async fn get_rules(
    State(app): State<Arc<App>>,
    Path(params): Path<BTreeMap<String, String>>,
    QueryParams(q): QueryParams<RulesQuery>,
) -> Result<Response, ApiError> {
    let name = params.get("game").map_or("", String::as_str);
    let kind: GameKind = name
        .parse()
        .map_err(|e: boardlab_games::UnknownGame| ApiError::not_found(e.to_string()))?;
    let page = crate::http::docs::rules_file(
        app.settings.web_dir.as_ref(),
        &format!("{}.md", kind.name()),
    )
    .ok_or_else(|| ApiError::not_found(format!("no rules page for {}", kind.name())))?;
    markdown_page(&page, q.format.as_deref(), "/rules")
}

/// A page of designer findings (`docs/analysis/PAGE.md`): a game's, or `README` (how the
/// reports are made and what their metrics mean), or a full report, `DIR/report` (asked for
/// as `DIR%2Freport`).
pub async fn get_findings(
    State(app): State<Arc<App>>,
    Path(params): Path<BTreeMap<String, String>>,
    QueryParams(q): QueryParams<RulesQuery>,
) -> Result<Response, ApiError> {
    let name = params.get("page").map_or("", String::as_str);
    let missing = || ApiError::not_found(format!("no findings page '{name}'"));
    let plain = |part: &str| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    let valid = match name.split_once('/') {
        Some((dir, page)) => plain(dir) && page == "report",
        None => plain(name),
    };
    if !valid {
        return Err(missing());
    }
    let page =
        crate::http::docs::analysis_file(app.settings.web_dir.as_ref(), &format!("{name}.md"))
            .ok_or_else(missing)?;
    markdown_page(&page, q.format.as_deref(), "/findings")
}

/// A Markdown page as it is (`format` absent or `markdown`) or as HTML (`html`), its links to
/// sibling pages going to `{pages}/NAME`.
pub fn markdown_page(page: &[u8], format: Option<&str>, pages: &str) -> Result<Response, ApiError> {
    let (kind, body) = match format {
        None | Some("markdown") => ("text/markdown; charset=utf-8", page.to_vec()),
        Some("html") => {
            let text = std::str::from_utf8(page)
                .map_err(|_| ApiError::not_found("the page is not readable text"))?;
            (
                "text/html; charset=utf-8",
                crate::http::docs::markdown_html_in(text, pages).into_bytes(),
            )
        }
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "unknown format '{other}'; accepted: markdown, html"
            )))
        }
    };
    Ok((
        [(header::CONTENT_TYPE, HeaderValue::from_static(kind))],
        body,
    )
        .into_response())
}

/// A game's tutorial: its steps, each checked against the rules by the game's crate.
pub async fn get_tutorial(
    Path(params): Path<BTreeMap<String, String>>,
) -> Result<Response, ApiError> {
    let name = params.get("game").map_or("", String::as_str);
    let kind: GameKind = name
        .parse()
        .map_err(|e: boardlab_games::UnknownGame| ApiError::not_found(e.to_string()))?;
    let steps = kind.tutorial().map_err(|e| {
        tracing::error!("{e}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the {} tutorial is broken", kind.name()),
        )
    })?;
    if steps.is_empty() {
        return Err(ApiError::not_found(format!(
            "{} has no tutorial",
            kind.name()
        )));
    }
    let body = view::Tutorial {
        game: kind.name(),
        title: kind.info().title,
        steps,
    };
    Ok(json_response(
        StatusCode::OK,
        serde_json::to_string(&body).expect("serialises"),
    ))
}

/// Most moves a puzzle line may hold (a Sight Reduction board has 32 pieces).
pub const PUZZLE_MOVES_LIMIT: usize = 40;

/// The kinds and grades of puzzles.
pub async fn list_puzzles() -> Response {
    use boardlab_solve::collection::{PuzzleKind, DIFFICULTIES, MAX_NUMBER};
    let kinds: Vec<view::PuzzleKindView> = PuzzleKind::ALL
        .iter()
        .map(|&k| view::PuzzleKindView {
            kind: k,
            word: k.word(),
            title: k.title(),
            goal: k.goal(),
        })
        .collect();
    let body = serde_json::json!({
        "game": "sight-reduction",
        "kinds": kinds,
        "difficulties": DIFFICULTIES,
        "numbers": { "min": 1, "max": MAX_NUMBER },
    });
    json_response(StatusCode::OK, body.to_string())
}

/// The puzzle named in the path, made on first request.
pub async fn puzzle_of(
    app: &App,
    params: &BTreeMap<String, String>,
    key: &str,
) -> Result<Arc<boardlab_solve::collection::PuzzleEntry>, ApiError> {
    let name = params.get("id").map_or("", String::as_str);
    let id: boardlab_solve::collection::PuzzleId = name
        .parse()
        .map_err(|e: boardlab_solve::collection::BadPuzzleId| ApiError::not_found(e.to_string()))?;
    app.computer.puzzle(key, id).await
}

pub async fn get_puzzle(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    Path(params): Path<BTreeMap<String, String>>,
) -> Result<Response, ApiError> {
    let entry = puzzle_of(&app, &params, &client.to_string()).await?;
    Ok(json_response(
        StatusCode::OK,
        serde_json::to_string(&*entry).expect("serialises"),
    ))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleLine {
    #[serde(default)]
    moves: Vec<String>,
}

/// Refuses a line that is too long or holds an over-long move.
pub fn check_line(line: &PuzzleLine) -> Result<(), ApiError> {
    if line.moves.len() > PUZZLE_MOVES_LIMIT {
        return Err(ApiError::bad_request(format!(
            "more than {PUZZLE_MOVES_LIMIT} moves"
        )));
    }
    if let Some((i, m)) = line
        .moves
        .iter()
        .enumerate()
        .find(|(_, m)| m.len() > MOVE_LIMIT)
    {
        return Err(ApiError::bad_request(format!(
            "move {} '{}': longer than {MOVE_LIMIT} characters",
            i + 1,
            crate::error::shorten(m)
        )));
    }
    Ok(())
}

/// Judges the last move of a puzzle line; for a "win from here" puzzle also gives the
/// computer's answer.
pub async fn post_puzzle_move(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    Path(params): Path<BTreeMap<String, String>>,
    JsonBody(line): JsonBody<PuzzleLine>,
) -> Result<Response, ApiError> {
    check_line(&line)?;
    let key = client.to_string();
    let entry = puzzle_of(&app, &params, &key).await?;
    let judgement = app
        .computer
        .search(&key, move || {
            boardlab_solve::collection::judge(&entry, &line.moves)
        })
        .await?
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok(json_response(
        StatusCode::OK,
        serde_json::to_string(&judgement).expect("serialises"),
    ))
}

/// A move that keeps the puzzle solvable (won) after a line.
pub async fn post_puzzle_hint(
    State(app): State<Arc<App>>,
    ClientAddr(client): ClientAddr,
    Path(params): Path<BTreeMap<String, String>>,
    JsonBody(line): JsonBody<PuzzleLine>,
) -> Result<Response, ApiError> {
    app.hint_limit.check(client)?;
    check_line(&line)?;
    let key = client.to_string();
    let entry = puzzle_of(&app, &params, &key).await?;
    let hint = app
        .computer
        .search(&key, move || {
            boardlab_solve::collection::hint(&entry, &line.moves)
        })
        .await?
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok(json_response(
        StatusCode::OK,
        serde_json::to_string(&hint).expect("serialises"),
    ))
}
