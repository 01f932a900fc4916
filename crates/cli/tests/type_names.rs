//! No two public types of the library crates share a name: a name says which type it is
//! without its crate or module path (a re-export, `pub use`, is no second declaration).
//!
//! Walks `crates/*/src/**/*.rs` except the command's own sources (`crates/cli/src`); tests,
//! benches and examples lie outside `src` and are not walked. Every `pub struct`, `pub enum`,
//! `pub trait` and `pub type` at any indentation counts.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The four game crates, each with the vocabulary of its own rules.
const GAME_CRATES: [&str; 4] = ["assideum", "obsidio", "opprimo", "sight-reduction"];

/// Names every game crate may declare for its own rules, addressed by the crate's path
/// (`boardlab_obsidio::Move`): a game crate's declaration of one of these clashes with
/// nothing. Two declarations outside the game crates still clash.
const GAME_VOCABULARY: &[&str] = &[
    "Bits",   // iterates the squares of a game's bit set
    "Board",  // assideum's position (beside the drawn `boardlab_core::present::Board`)
    "Config", // a game's options as typed values
    "Facing", // an assideum piece's facing (beside `boardlab_core::present::Facing`)
    "Kind",   // a kind of piece or of square
    "Move",   // a game's move
    "Setup",  // a game's position as read from text, before the rules check it (`Notation::Setup`)
    "Square", // a game's square index
];

/// The crates whose sources are walked: every crate folder with a `src`, but the command's.
fn library_sources(root: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for dir in fs::read_dir(root.join("crates")).expect("crates/ is readable") {
        let dir = dir.expect("a crates/ entry is readable").path();
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .expect("crate folders have plain names")
            .to_string();
        if name != "cli" && dir.join("src").is_dir() {
            out.push((name, dir.join("src")));
        }
    }
    out.sort();
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a source folder is readable") {
        let path = entry.expect("a source entry is readable").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The names of the public types `text` declares.
fn declared(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in text.lines() {
        let line = line.trim_start();
        for keyword in ["pub struct ", "pub enum ", "pub trait ", "pub type "] {
            if let Some(rest) = line.strip_prefix(keyword) {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if name.starts_with(|c: char| c.is_ascii_uppercase()) {
                    names.push(name);
                }
            }
        }
    }
    names
}

#[test]
fn public_type_names_are_unique() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // Name → the files declaring it, relative to the workspace root.
    let mut by_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut files_read = 0;
    for (krate, src) in library_sources(&root) {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        files.sort();
        for file in files {
            let text = fs::read_to_string(&file).expect("a source file is readable");
            files_read += 1;
            let shown = file
                .strip_prefix(&root)
                .unwrap_or(&file)
                .display()
                .to_string();
            for name in declared(&text) {
                if GAME_CRATES.contains(&krate.as_str()) && GAME_VOCABULARY.contains(&name.as_str())
                {
                    continue;
                }
                by_name.entry(name).or_default().push(shown.clone());
            }
        }
    }
    assert!(
        files_read > 50 && by_name.contains_key("AnyGame"),
        "the walk found the workspace's sources"
    );
    let clashes: Vec<String> = by_name
        .iter()
        .filter(|(_, files)| files.len() > 1)
        .map(|(name, files)| format!("  {name}: {}", files.join(", ")))
        .collect();
    assert!(
        clashes.is_empty(),
        "public types sharing a name (rename all but one, or re-export it with `pub use`):\n{}",
        clashes.join("\n")
    );
}

#[test]
fn declarations_are_found_at_any_indentation() {
    let text = "pub struct A;\n    pub enum B {}\npub(crate) struct C;\n// pub struct D;\n\
        pub trait E<T>: Sized {}\n\tpub type F = u8;\npub fn g() {}\npub struct h;\n";
    assert_eq!(declared(text), ["A", "B", "E", "F"]);
}
