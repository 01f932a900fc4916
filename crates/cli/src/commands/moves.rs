//! `boardlab moves GAME`.

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

impl GameVisitor for Args {
    type Output = Result<()>;
    fn visit<G: Game>(self) -> Result<()> {
        let game: G = self.select.game()?;
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        for m in moves {
            outln!("{}", game.format_move(m))?;
        }
        Ok(())
    }
}
