//! What the web app needs to work with no server: every file of the app and the answers of the
//! read-only API routes it reads (the catalog, the rules, the tutorials, the puzzle kinds, the
//! findings and their pictures). The service worker (`web/sw.js`) reads this list at
//! `/app-files.json` and keeps everything in it; `boardlab site` writes everything in it to a
//! folder. Its `version` changes whenever any of those bytes change, so a browser replaces
//! what it keeps after an update.

use crate::app::App;
use crate::http::docs::{analysis_file, analysis_paths, rules_file, rules_paths};
use crate::http::web::{self, fnv, FNV_START};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use boardlab_games::GameKind;
use serde::Serialize;
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The address of the list.
pub const LIST_PATH: &str = "/app-files.json";

/// The files and answers the app needs offline.
#[derive(Debug, Clone, Serialize)]
pub struct AppFiles {
    /// A hash of every byte listed: a new one means something changed.
    pub version: String,
    /// The app's files, by address (`/` first).
    pub files: Vec<String>,
    /// The read-only API answers and pictures the pages read, by address.
    pub data: Vec<String>,
}

/// The files of a `web/` folder on disk, as the build embeds them (without its tests and the
/// type checker's settings).
fn disk_files(dir: &Path, base: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        let top = dir == base;
        if name.starts_with('.')
            || name == "node_modules"
            || (top && web::UNSERVED.contains(&name.as_str()))
        {
            continue;
        }
        let path = e.path();
        if path.is_dir() {
            disk_files(&path, base, out);
        } else if let Ok(rel) = path.strip_prefix(base) {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The web app's files: the embedded ones, or with `web_dir` (`--dev`) those on disk.
fn web_paths(web_dir: Option<&PathBuf>) -> Vec<String> {
    match web_dir {
        None => web::files().iter().map(|(p, _)| (*p).to_string()).collect(),
        Some(d) => {
            let mut out = Vec::new();
            disk_files(d, d, &mut out);
            out
        }
    }
}

/// The list for the app served from the embedded files, or with `web_dir` from disk.
#[must_use]
pub fn app_files(web_dir: Option<&PathBuf>) -> AppFiles {
    let mut h = fnv(FNV_START, env!("CARGO_PKG_VERSION").as_bytes());
    let mut files = vec!["/".to_string()];
    for p in web_paths(web_dir) {
        h = fnv(h, p.as_bytes());
        if let Some(bytes) = web::file(web_dir, &p) {
            h = fnv(h, &bytes);
        }
        files.push(format!("/{p}"));
    }
    let mut data = vec!["/api/catalog".to_string(), "/api/puzzles".to_string()];
    for kind in GameKind::all() {
        data.push(format!("/api/rules/{}?format=html", kind.name()));
        if kind.tutorial().is_ok_and(|steps| !steps.is_empty()) {
            data.push(format!("/api/tutorials/{}", kind.name()));
        }
    }
    for p in rules_paths() {
        if let Some(bytes) = rules_file(web_dir, p) {
            h = fnv(fnv(h, p.as_bytes()), &bytes);
        }
        if let Some(name) = p.strip_prefix("figures/") {
            data.push(format!("/rules/figures/{name}"));
        }
    }
    for p in analysis_paths() {
        if let Some(bytes) = analysis_file(web_dir, p) {
            h = fnv(fnv(h, p.as_bytes()), &bytes);
        }
        // The findings pages of the games and how reports are made; the full reports
        // (`DIR/report`) stay online.
        if let Some(page) = p.strip_suffix(".md").filter(|n| !n.contains('/')) {
            data.push(format!("/api/findings/{page}?format=html"));
        } else if p.ends_with(".svg") {
            data.push(format!("/findings/{p}"));
        }
    }
    AppFiles {
        version: format!("{h:016x}"),
        files,
        data,
    }
}

/// `GET /app-files.json`: the list, with a validator like every file of the app.
/// Made once for the embedded files (hashing them all takes a few milliseconds), on every
/// request for files read from disk (`--dev`).
pub async fn list(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    static EMBEDDED: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    let write = |dir| serde_json::to_vec(&app_files(dir)).expect("a list serialises");
    let text = match app.settings.web_dir.as_ref() {
        None => Cow::Borrowed(EMBEDDED.get_or_init(|| write(None)).as_slice()),
        Some(dir) => Cow::Owned(write(Some(dir))),
    };
    web::file_response("app-files.json", text, &headers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_holds_the_app_the_engine_and_what_the_pages_read() {
        let list = app_files(Some(&web::source_dir()));
        for f in [
            "/",
            "/index.html",
            "/js/main.js",
            "/js/engine/worker.js",
            "/engine/boardlab_wasm_bg.wasm",
        ] {
            assert!(list.files.iter().any(|x| x == f), "{f} is missing");
        }
        assert!(!list.files.iter().any(|f| f.contains("/tests/")));
        assert!(!list.files.iter().any(|f| f.ends_with("jsconfig.json")));
        for d in [
            "/api/catalog",
            "/api/rules/obsidio?format=html",
            "/api/tutorials/sight-reduction",
        ] {
            assert!(list.data.iter().any(|x| x == d), "{d} is missing");
        }
        assert!(list.data.iter().any(|d| d.starts_with("/rules/figures/")));
        assert_eq!(list.version, app_files(Some(&web::source_dir())).version);
    }
}
