//! `boardlab replay FILE`.

use super::show::print_position;
use anyhow::Result;
use boardlab_core::{Game, GameRecord};
use boardlab_games::{GameKind, GameVisitor};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A game record, in the JSON or the text form (`-` reads standard input).
    pub file: PathBuf,
    /// Print every move with the position after it.
    #[arg(long)]
    pub verbose: bool,
}

pub fn run(args: &Args) -> Result<()> {
    let record = super::read_record(&args.file)?;
    let kind: GameKind = record.game.parse()?;
    kind.visit(Replay {
        record,
        verbose: args.verbose,
    })
}

struct Replay {
    record: GameRecord,
    verbose: bool,
}

impl GameVisitor for Replay {
    type Output = Result<()>;
    fn visit<G: Game>(self) -> Result<()> {
        let r = &self.record;
        let (game, moves) = r.replay::<G>()?;
        if self.verbose {
            let mut g: G = match &r.position {
                Some(p) => G::from_position(&game.options(), p)?,
                None => G::new(&game.options(), r.seed)?,
            };
            for (i, mv) in moves.iter().enumerate() {
                outln!("{}. {}", i + 1, g.format_move(*mv))?;
                g.play_unchecked(*mv);
                out!("{}", g.diagram())?;
            }
        }
        outln!(
            "{} — {} vs {}, {} moves, options: {}",
            G::info().title,
            if r.seats.first.is_empty() {
                "?"
            } else {
                &r.seats.first
            },
            if r.seats.second.is_empty() {
                "?"
            } else {
                &r.seats.second
            },
            moves.len(),
            game.options()
        )?;
        print_position(&game)?;
        if game.outcome().is_none() {
            match (&r.result, &r.termination) {
                (Some(res), Some(t)) => outln!("Recorded result: {res} ({t})")?,
                (Some(res), None) => outln!("Recorded result: {res}")?,
                _ => outln!("The game is unfinished.")?,
            }
        }
        outln!("The record is valid.")?;
        Ok(())
    }
}
