//! `boardlab loadtest`: concurrent games against a server on this machine; prints
//! acknowledged moves/s and move latency percentiles.

use anyhow::Result;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub load: boardlab_server::loadtest::LoadtestArgs,
}

pub fn run(args: &Args) -> Result<()> {
    boardlab_server::loadtest::run_blocking(&args.load).map(|_| ())
}
