//! The browser UI: the files of `web/`, embedded at compile time (or read from the source
//! tree with `--dev`), served at `/`. Paths without a file extension that match no file get
//! `index.html` (the UI's own routes, such as `/games/ID`). Without a built UI, `/` explains
//! that and links the API documents.
//!
//! Each file is sent with `Cache-Control: no-cache` and an `ETag` (a hash of its bytes): a
//! browser asks again every time, and a file it already has costs a `304 Not Modified` and no
//! body (the engine's WebAssembly is 2 MB). Text and WebAssembly go gzipped to browsers that
//! take it, each embedded file compressed once and kept.

use crate::app::App;
use crate::http::docs::{analysis_file, figure, rules_file};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use std::borrow::Cow;
use std::collections::HashMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

/// The top-level entries of `web/` that are not part of the app (the build script leaves out
/// the same).
pub const UNSERVED: [&str; 3] = ["tests", "NEEDS-FROM-SERVER.md", "jsconfig.json"];

/// Files at least this long go gzipped to browsers that take it.
const COMPRESS_FROM: usize = 1024;

mod files {
    include!(concat!(env!("OUT_DIR"), "/web_files.rs"));
}

/// The embedded files.
#[must_use]
pub fn files() -> &'static [(&'static str, &'static [u8])] {
    files::FILES
}

/// The `web/` folder of the source tree this binary was built from (for `--dev`).
#[must_use]
pub fn source_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web")
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
        "webmanifest" => "application/manifest+json",
        _ => "application/octet-stream",
    }
}

/// Whether files of this kind shrink when gzipped (pictures and fonts are compressed already).
fn compressible(path: &str) -> bool {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(
        ext,
        "html"
            | "htm"
            | "js"
            | "mjs"
            | "css"
            | "json"
            | "map"
            | "svg"
            | "txt"
            | "md"
            | "wasm"
            | "webmanifest"
    )
}

/// Whether the request says it takes gzip (`Accept-Encoding`, a q of 0 refusing it).
fn takes_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let coding = parts.next().unwrap_or("");
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            (coding.eq_ignore_ascii_case("gzip") || coding == "*") && !refused
        })
}

/// `bytes` gzipped, as small as gzip makes them (`best`, for files compressed once and kept)
/// or fast (for files read from disk on every request, `--dev`).
fn gzip(bytes: &[u8], best: bool) -> Vec<u8> {
    let level = if best {
        flate2::Compression::best()
    } else {
        flate2::Compression::fast()
    };
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), level);
    enc.write_all(bytes).expect("writing to memory");
    enc.finish().expect("writing to memory")
}

/// `bytes` of file `name` gzipped: for an embedded file compressed on first request and kept.
fn gzipped(name: &str, bytes: &[u8], embedded: bool) -> Arc<[u8]> {
    static KEPT: OnceLock<Mutex<HashMap<String, Arc<[u8]>>>> = OnceLock::new();
    if !embedded {
        return gzip(bytes, false).into();
    }
    let kept = KEPT.get_or_init(Mutex::default);
    if let Some(z) = kept.lock().unwrap_or_else(|e| e.into_inner()).get(name) {
        return Arc::clone(z);
    }
    let z: Arc<[u8]> = gzip(bytes, true).into();
    kept.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(name.to_string(), Arc::clone(&z));
    z
}

/// File `path` of the app: from the embedded table, or with `dir` (`--dev`) from disk.
#[must_use]
pub fn file(dir: Option<&PathBuf>, path: &str) -> Option<Cow<'static, [u8]>> {
    match dir {
        None => files()
            .iter()
            .find(|(p, _)| *p == path)
            .map(|(_, b)| Cow::Borrowed(*b)),
        Some(d) => {
            let top = path.split('/').next().unwrap_or("");
            if top == "tests" || path.split('/').any(|s| s == "node_modules") {
                return None;
            }
            std::fs::read(d.join(path)).ok().map(Cow::Owned)
        }
    }
}

/// The FNV-1a hash of nothing, where a hash starts.
pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// The 64-bit FNV-1a hash of `bytes`, going on from `h`.
#[must_use]
pub fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A strong validator of `bytes`: their FNV-1a hash, quoted.
fn etag_of(bytes: &[u8]) -> String {
    format!("\"{:016x}\"", fnv(FNV_START, bytes))
}

/// The validator of file `name` with `bytes`: worked out once for the embedded files.
fn etag(name: &str, bytes: &[u8], embedded: bool) -> String {
    static EMBEDDED: OnceLock<HashMap<&'static str, String>> = OnceLock::new();
    if !embedded {
        return etag_of(bytes);
    }
    EMBEDDED
        .get_or_init(|| files().iter().map(|(p, b)| (*p, etag_of(b))).collect())
        .get(name)
        .cloned()
        .unwrap_or_else(|| etag_of(bytes))
}

/// Whether the request's `If-None-Match` names `tag` (or `*`).
fn not_modified(headers: &HeaderMap, tag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == tag || t == "*")
}

fn any_files(dir: Option<&PathBuf>) -> bool {
    match dir {
        None => !files().is_empty(),
        Some(d) => d.join("index.html").is_file(),
    }
}

/// File `name` with its type and validator, gzipped where the browser takes it, or
/// `304 Not Modified` when the request already holds these bytes.
pub fn file_response(name: &str, bytes: Cow<'static, [u8]>, headers: &HeaderMap) -> Response {
    let embedded = matches!(bytes, Cow::Borrowed(_));
    let mut tag = etag(name, &bytes, embedded);
    let varies = compressible(name) && bytes.len() >= COMPRESS_FROM;
    let zipped = varies && takes_gzip(headers);
    if zipped {
        // Another validator for the other bytes: `"HASH-gzip"`.
        tag.insert_str(tag.len() - 1, "-gzip");
    }
    let tag_value = HeaderValue::from_str(&tag).expect("a hex hash in quotes");
    let cache = (header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    let vary = (header::VARY, HeaderValue::from_static("accept-encoding"));
    if not_modified(headers, &tag) {
        let mut r = (StatusCode::NOT_MODIFIED, [(header::ETAG, tag_value), cache]).into_response();
        if varies {
            r.headers_mut().insert(vary.0, vary.1);
        }
        return r;
    }
    let body = if zipped {
        axum::body::Body::from(axum::body::Bytes::from_owner(gzipped(
            name, &bytes, embedded,
        )))
    } else {
        match bytes {
            Cow::Borrowed(b) => axum::body::Body::from(b),
            Cow::Owned(v) => axum::body::Body::from(v),
        }
    };
    let mut r = (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(content_type(name)),
            ),
            (header::ETAG, tag_value),
            cache,
        ],
        body,
    )
        .into_response();
    if varies {
        r.headers_mut().insert(vary.0, vary.1);
    }
    if zipped {
        r.headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    r
}

/// Answers any request outside `/api`.
pub async fn serve(
    State(app): State<Arc<App>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return crate::error::ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            "only GET and HEAD are allowed here",
        )
        .into_response();
    }
    let dir = app.settings.web_dir.as_ref();
    let path = uri.path().trim_start_matches('/');
    if path == "api" || path.starts_with("api/") {
        return crate::error::ApiError::not_found("no such API route").into_response();
    }

    let picture = if let Some(name) = path.strip_prefix("rules/figures/") {
        // The rules' figures, with the rules pages.
        let file = format!("figures/{name}");
        Some(figure::picture_name(&file).and_then(|_| rules_file(dir, &file)))
    } else {
        // The findings' charts, beside their pages, and the reports' numbers.
        path.strip_prefix("findings/")
            .filter(|p| p.ends_with(".svg") || p.ends_with("/report.json"))
            .map(|p| analysis_file(dir, p))
    };
    let kind = if path.ends_with(".json") {
        "application/json"
    } else {
        "image/svg+xml"
    };
    if let Some(picture) = picture {
        return match picture {
            Some(bytes) => (
                [
                    (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
                    (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
                ],
                match bytes {
                    Cow::Borrowed(b) => axum::body::Body::from(b),
                    Cow::Owned(v) => axum::body::Body::from(v),
                },
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
        };
    }
    let last = path.rsplit('/').next().unwrap_or(path);
    let unsafe_path = path
        .split('/')
        .any(|seg| seg == ".." || seg.starts_with('.') || seg.contains('\\'));
    let hit = if unsafe_path {
        None
    } else if path.is_empty() || path.ends_with('/') {
        let p = format!("{path}index.html");
        file(dir, &p)
            .map(|b| (p, b))
            .or_else(|| file(dir, "index.html").map(|b| ("index.html".to_string(), b)))
    } else {
        file(dir, path).map(|b| (path.to_string(), b)).or_else(|| {
            if last.contains('.') {
                None
            } else {
                file(dir, "index.html").map(|b| ("index.html".to_string(), b))
            }
        })
    };
    match hit {
        Some((name, bytes)) => file_response(&name, bytes, &headers),
        None if !any_files(dir)
            && !unsafe_path
            && (!last.contains('.') || path == "index.html") =>
        {
            (
                [(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("text/html; charset=utf-8"),
                )],
                NOT_BUILT,
            )
                .into_response()
        }
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
