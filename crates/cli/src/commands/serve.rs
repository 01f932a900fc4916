//! `boardlab serve`: the game server (also what `boardlab` runs without a command).

use anyhow::Result;

#[derive(Debug, Default, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub server: boardlab_server::ServeArgs,
}

pub fn run(args: &Args) -> Result<()> {
    boardlab_server::serve_blocking(&args.server)
}
