//! Embeds the browser UI (`web/` at the workspace root) into the server binary: writes a
//! table of `(path, bytes)` to `OUT_DIR/web_files.rs`. Without a `web/` folder the table is
//! empty and the server shows a page saying the UI is not built.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, base: &Path, out: &mut Vec<(String, PathBuf)>) {
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
        if path.is_dir() {
            collect(&path, base, out);
        } else if path.is_file() {
            let rel = path
                .strip_prefix(base)
                .expect("inside web/")
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, path));
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let web = manifest.join("../../web");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", web.display());
    let mut files = Vec::new();
    if web.is_dir() {
        let web = web.canonicalize().expect("web/ exists");
        collect(&web, &web, &mut files);
    }
    let mut code = String::from("/// The files of `web/`, by path relative to it.\n");
    code.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (rel, path) in &files {
        let _ = writeln!(
            code,
            "    ({rel:?}, include_bytes!({:?})),",
            path.display().to_string()
        );
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("web_files.rs");
    if std::fs::read_to_string(&out).ok().as_deref() != Some(code.as_str()) {
        std::fs::write(&out, code).expect("OUT_DIR is writable");
    }
}
