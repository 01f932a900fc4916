//! `boardlab site --out DIR`: the whole web app as a folder of files that any static host
//! serves, and that works with no server: the app's files, the engine, and the answers of the
//! read-only API routes the pages read (the catalog, the rules, the tutorials, the puzzle
//! kinds, the findings), asked of this very server in-process so they are the same bytes.
//! Games against the computer, hints, the analysis board, tutorials, puzzles and reviews of
//! local games then run in the browser; online play and accounts need a server.

use crate::app::App;
use crate::http::offline::{app_files, LIST_PATH};
use crate::settings::Settings;
use crate::store::Store;
use anyhow::{bail, Context, Result};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use std::path::{Path, PathBuf};
use tower::ServiceExt;

/// What `write_site` wrote.
#[derive(Debug, Clone, Copy)]
pub struct Written {
    pub files: usize,
    pub bytes: u64,
}

/// The file an address is written to: its path with `/` as `index.html`, without its query
/// and with `%XX` decoded, as static servers look it up.
fn file_for(out: &Path, address: &str) -> Result<PathBuf> {
    let path = address.split('?').next().unwrap_or("");
    let path = if path == "/" { "/index.html" } else { path };
    let mut file = out.to_path_buf();
    for seg in path.trim_start_matches('/').split('/') {
        let seg = percent_decode(seg);
        if seg.is_empty() || seg == "." || seg == ".." || seg.contains(['/', '\\']) {
            bail!("an address the site cannot hold: {address}");
        }
        file.push(seg);
    }
    Ok(file)
}

fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8_lossy()
        .into_owned()
}

/// Writes the app to `out` (made if missing): every address of `/app-files.json`, the list
/// itself, and `404.html` (the app's page, which static hosts such as GitHub Pages send for
/// the app's own addresses).
///
/// # Errors
/// A folder that cannot be written, or an address this server does not answer.
pub async fn write_site(out: &Path) -> Result<Written> {
    let scratch = tempfile::tempdir().context("cannot make a scratch folder")?;
    let url = format!("sqlite://{}", scratch.path().join("site.db").display());
    let store = Store::open(&url)
        .await
        .context("cannot open a scratch database")?;
    let router = crate::http::router(App::new(std::sync::Arc::new(store), Settings::default()));
    let list = app_files(None);
    if list.files.len() < 3 {
        bail!("this binary was built without its web app (web/ was missing)");
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot make {}", out.display()))?;
    let mut written = Written { files: 0, bytes: 0 };
    let addresses = list.files.iter().chain(&list.data).map(String::as_str);
    for address in addresses.chain([LIST_PATH]) {
        let request = Request::get(address)
            .body(Body::empty())
            .context("an address")?;
        let answer = router
            .clone()
            .oneshot(request)
            .await
            .context("the in-process server failed")?;
        if answer.status() != StatusCode::OK {
            bail!("{address} answers {}", answer.status());
        }
        let bytes = axum::body::to_bytes(answer.into_body(), usize::MAX)
            .await
            .with_context(|| format!("cannot read {address}"))?;
        let file = file_for(out, address)?;
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot make {}", dir.display()))?;
        }
        std::fs::write(&file, &bytes)
            .with_context(|| format!("cannot write {}", file.display()))?;
        if address == "/" {
            std::fs::write(out.join("404.html"), &bytes).context("cannot write 404.html")?;
        }
        written.files += 1;
        written.bytes += bytes.len() as u64;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_become_the_files_static_servers_look_up() {
        let out = Path::new("/site");
        assert_eq!(file_for(out, "/").unwrap(), out.join("index.html"));
        assert_eq!(
            file_for(out, "/api/rules/obsidio?format=html").unwrap(),
            out.join("api/rules/obsidio")
        );
        assert_eq!(
            file_for(out, "/findings/a%20b.svg").unwrap(),
            out.join("findings/a b.svg")
        );
        assert!(file_for(out, "/../etc/passwd").is_err());
        assert!(file_for(out, "/a/%2e%2e/b").is_err());
        assert!(file_for(out, "/a%2Fb").is_err());
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
    }
}
