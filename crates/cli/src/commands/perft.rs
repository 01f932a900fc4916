//! `boardlab perft GAME --depth N [--divide]`.

use super::Selectors;
use anyhow::Result;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub select: Selectors,
    /// Number of moves (whole turns) to look ahead.
    #[arg(long, short = 'd')]
    pub depth: u32,
    /// Also list every legal move with its count.
    #[arg(long)]
    pub divide: bool,
}

pub fn run(args: &Args) -> Result<()> {
    args.count()
}

impl Args {
    fn count(&self) -> Result<()> {
        let game = self.select.game()?;
        let start = Instant::now();
        let total = if self.divide {
            let rows = game.divide(self.depth);
            for (mv, n) in &rows {
                outln!("{mv}: {n}")?;
            }
            if self.depth == 0 {
                1
            } else {
                rows.iter().map(|(_, n)| n).sum()
            }
        } else {
            game.perft(self.depth)
        };
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "perft({}) = {total} in {secs:.3} s ({:.0} nodes/s)",
            self.depth,
            total as f64 / secs.max(1e-9)
        );
        outln!("{total}")?;
        Ok(())
    }
}
