//! Embeds files from the workspace into the server binary, as tables of `(path, bytes)` in
//! `OUT_DIR`:
//! - `web_files.rs`: the browser UI (`web/`, without its `tests/` folder, the type checker's
//!   settings and the notes on what it needs from the server). Without a `web/`
//!   folder the table is empty and the server shows a page saying the UI is not built.
//! - `rules_files.rs`: the rules pages (`docs/rules/*.md`), served at `/api/rules/{game}`, and
//!   the pictures of their figures (`docs/rules/figures/*.svg`), served at `/rules/figures/`.
//! - `analysis_files.rs`: the designer findings (`docs/analysis/*.md`), the full reports
//!   (`docs/analysis/DIR/report.md`) and their numbers (`report.json`), and their charts (every
//!   `.svg` below `docs/analysis/`), served at `/api/findings/{page}` and `/findings/`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn kept(name: &str, keep: &[&str]) -> bool {
    keep.is_empty() || keep.iter().any(|k| name.ends_with(k))
}

fn collect(
    dir: &Path,
    base: &Path,
    skip_top: &[&str],
    keep: &[&str],
    out: &mut Vec<(String, PathBuf)>,
) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for e in entries {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "node_modules" {
            continue;
        }
        if dir == base && skip_top.contains(&name.as_str()) {
            continue;
        }
        if path.is_dir() {
            collect(&path, base, skip_top, keep, out);
        } else if path.is_file() && kept(&name, keep) {
            let rel = path
                .strip_prefix(base)
                .expect("inside the folder")
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, path));
        }
    }
}

fn table(dir: &Path, skip_top: &[&str], keep: &[&str], name: &str, doc: &str) {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files = Vec::new();
    if dir.is_dir() {
        let dir = dir.canonicalize().expect("the folder exists");
        collect(&dir, &dir, skip_top, keep, &mut files);
    }
    let mut code = format!("/// {doc}\npub static FILES: &[(&str, &[u8])] = &[\n");
    for (rel, path) in &files {
        let _ = writeln!(
            code,
            "    ({rel:?}, include_bytes!({:?})),",
            path.display().to_string()
        );
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join(name);
    if std::fs::read_to_string(&out).ok().as_deref() != Some(code.as_str()) {
        std::fs::write(&out, code).expect("OUT_DIR is writable");
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.join("../..");
    println!("cargo:rerun-if-changed=build.rs");
    // `sqlx::migrate!` embeds the migrations; a build script that names what it watches turns
    // off cargo's default of watching the whole package, so they are named here.
    println!("cargo:rerun-if-changed=migrations");
    table(
        &root.join("web"),
        &["tests", "NEEDS-FROM-SERVER.md", "jsconfig.json"],
        &[],
        "web_files.rs",
        "The files of `web/`, by path relative to it.",
    );
    table(
        &root.join("docs/rules"),
        &[],
        &[],
        "rules_files.rs",
        "The rules pages of `docs/rules/`, by file name.",
    );
    table(
        &root.join("docs/analysis"),
        &[],
        &[".md", ".svg", "report.json"],
        "analysis_files.rs",
        "The findings pages of `docs/analysis/`, the reports, their numbers and charts, by path.",
    );
}
