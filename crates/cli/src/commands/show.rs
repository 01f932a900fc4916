//! `boardlab show GAME`.

use super::select::status_line;
use super::Selectors;
use anyhow::Result;
use boardlab_core::Game;
use boardlab_games::GameVisitor;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub select: Selectors,
}

pub fn run(args: Args) -> Result<()> {
    args.select.kind()?.visit(args)
}

/// Prints the diagram, the status line and the position text.
pub fn print_position<G: Game>(game: &G) -> std::io::Result<()> {
    out!("{}", game.diagram())?;
    outln!("{}", status_line(game))?;
    outln!("Position: {}", game.position_text())
}

impl GameVisitor for Args {
    type Output = Result<()>;
    fn visit<G: Game>(self) -> Result<()> {
        let game: G = self.select.game()?;
        print_position(&game)?;
        Ok(())
    }
}
