//! `boardlab-server`: the game server alone (the same as `boardlab serve`).

use clap::Parser;
use std::process::ExitCode;

/// The boardlab game server: HTTP + WebSocket API and the browser UI.
#[derive(Debug, Parser)]
#[command(name = "boardlab-server", version, about)]
struct Cli {
    #[command(flatten)]
    serve: boardlab_server::ServeArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match boardlab_server::serve_blocking(&cli.serve) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
