//! `boardlab show GAME`.

use super::select::status_line;
use super::Selectors;
use anyhow::Result;
use boardlab_ai::DynGame;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub select: Selectors,
}

pub fn run(args: &Args) -> Result<()> {
    print_position(&*args.select.game()?)?;
    Ok(())
}

/// Prints the diagram, the status line and the position text.
pub fn print_position(game: &dyn DynGame) -> std::io::Result<()> {
    out!("{}", game.diagram())?;
    outln!("{}", status_line(game))?;
    outln!("Position: {}", game.position_text())
}
