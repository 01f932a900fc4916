#!/usr/bin/env bash
# Builds the browser's engine (crates/wasm) into web/engine/: the WebAssembly module
# (boardlab_wasm_bg.wasm) and the JavaScript that loads it (boardlab_wasm.js), which the server
# embeds and serves with the rest of web/. Both are committed, so that `cargo run --release`
# serves the engine on a machine with only the Rust toolchain.
#
#   scripts/build-engine.sh           build and write web/engine/
#   scripts/build-engine.sh --check   build, and fail if web/engine/ differs from the build
#
# Needs the wasm32-unknown-unknown target and wasm-bindgen-cli at the version of the
# wasm-bindgen crate in Cargo.lock; installs both when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
check=false
[ "${1:-}" = "--check" ] && check=true

version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }')" != "$version" ]; then
    # The lock file of the tool first; where the registry lacks a version it names, the newest
    # that fit.
    cargo install wasm-bindgen-cli --version "$version" --locked ||
        cargo install wasm-bindgen-cli --version "$version"
fi

# The module must not depend on where the sources lie: paths in panic messages are made
# relative, so that a build on any machine gives the same bytes.
registry="${CARGO_HOME:-$HOME/.cargo}"
export RUSTFLAGS="--remap-path-prefix=$root=. --remap-path-prefix=$registry=cargo --cfg getrandom_backend=\"wasm_js\""
cargo build -p boardlab-wasm --lib --target wasm32-unknown-unknown --profile wasm --target-dir target/wasm

out=target/wasm/bindgen
rm -rf "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" \
    target/wasm/wasm32-unknown-unknown/wasm/boardlab_wasm.wasm

if $check; then
    if ! diff -r "$out" web/engine >/dev/null; then
        echo "web/engine/ is not the build of crates/wasm: run scripts/build-engine.sh and commit web/engine/" >&2
        diff -rq "$out" web/engine >&2 || true
        exit 1
    fi
    echo "web/engine/ is the build of crates/wasm"
else
    rm -rf web/engine
    cp -r "$out" web/engine
fi
ls -l web/engine
echo "compressed: $(gzip -9 -c web/engine/boardlab_wasm_bg.wasm | wc -c) bytes (gzip -9)"
