//! The browser UI: the files of `web/`, embedded at compile time, served at `/`. Paths without
//! a file extension that match no file get `index.html` (the UI's own routes, such as
//! `/games/ID`). Without a built UI, `/` explains that and links the API documents.

use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

mod files {
    include!(concat!(env!("OUT_DIR"), "/web_files.rs"));
}

/// The embedded files.
#[must_use]
pub fn files() -> &'static [(&'static str, &'static [u8])] {
    files::FILES
}

const NOT_BUILT: &str = "<!doctype html>
<html lang=\"en\">
<head><meta charset=\"utf-8\"><title>boardlab</title></head>
<body>
<h1>boardlab</h1>
<p>The browser interface is not built into this server: its <code>web/</code> folder was missing
or empty at compile time.</p>
<p>The game API works: see the <a href=\"/api/docs\">API reference</a> and the
<a href=\"/api/openapi.json\">OpenAPI document</a>, or start with the
<a href=\"/api/catalog\">game catalog</a>.</p>
</body>
</html>
";

fn content_type(path: &str) -> &'static str {
    let ext = path
        .rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "ico" => "image/x-icon",
        "webp" => "image/webp",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "txt" => "text/plain; charset=utf-8",
        "md" => "text/markdown; charset=utf-8",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

fn find(path: &str) -> Option<(&'static str, &'static [u8])> {
    files().iter().copied().find(|(p, _)| *p == path)
}

/// Answers any request outside `/api`.
pub async fn serve(method: Method, uri: Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return crate::error::ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            "only GET and HEAD are allowed here",
        )
        .into_response();
    }
    let path = uri.path().trim_start_matches('/');
    if path == "api" || path.starts_with("api/") {
        return crate::error::ApiError::not_found("no such API route").into_response();
    }
    let index = || find("index.html");
    let hit = if path.is_empty() || path.ends_with('/') {
        find(&format!("{path}index.html")).or_else(index)
    } else if path
        .split('/')
        .any(|seg| seg == ".." || seg.starts_with('.'))
    {
        None
    } else {
        find(path).or_else(|| {
            let last = path.rsplit('/').next().unwrap_or(path);
            if last.contains('.') {
                None
            } else {
                index()
            }
        })
    };
    match hit {
        Some((name, bytes)) => (
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static(content_type(name)),
                ),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            ],
            bytes,
        )
            .into_response(),
        None if files().is_empty() && (path.is_empty() || path == "index.html") => (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            )],
            NOT_BUILT,
        )
            .into_response(),
        None => (
            StatusCode::NOT_FOUND,
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            )],
            "not found\n",
        )
            .into_response(),
    }
}
