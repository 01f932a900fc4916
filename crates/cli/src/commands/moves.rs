//! `boardlab moves GAME`.

use super::Selectors;
use anyhow::Result;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub select: Selectors,
}

pub fn run(args: &Args) -> Result<()> {
    for m in args.select.game()?.legal_moves() {
        outln!("{m}")?;
    }
    Ok(())
}
