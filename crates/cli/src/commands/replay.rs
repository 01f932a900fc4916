//! `boardlab replay FILE`.

use super::show::print_position;
use anyhow::Result;
use boardlab_games::{AnyGame, GameKind};
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
    let r = super::read_record(&args.file)?;
    let kind: GameKind = r.game.parse()?;
    let (game, moves) = kind.replay(&r)?;
    if args.verbose {
        let mut g = AnyGame::record_start(kind, &r)?;
        for (i, text) in moves.iter().enumerate() {
            g.play_text(text)?;
            outln!("{}. {text}", i + 1)?;
            out!("{}", g.diagram())?;
        }
    }
    let name = |n: &str| {
        if n.is_empty() {
            "?".to_string()
        } else {
            n.to_string()
        }
    };
    outln!(
        "{} — {} vs {}, {} moves, options: {}",
        kind.info().title,
        name(&r.seats.first),
        name(&r.seats.second),
        moves.len(),
        game.options()
    )?;
    print_position(&*game)?;
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
