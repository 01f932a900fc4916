//! `boardlab analyze GAME [selectors] [--bot SPEC]`: the bot's best move, value, principal
//! variation and work done; the last line is `bestmove MOVE`.

use super::select::status_line;
use super::Selectors;
use anyhow::Result;
use boardlab_ai::BotSpec;
use std::sync::atomic::AtomicBool;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub select: Selectors,
    /// The bot: random, mcts:time=1s, mcts:iterations=20000,c=1.4, mcts:plain,
    /// alphabeta:depth=6, best:time=1s, level:1 … level:10, ugi:COMMAND (an outside engine).
    #[arg(long, default_value = "best:time=1s")]
    pub bot: String,
    /// Seed of the bot (its choices are reproducible for a seed and a work budget).
    #[arg(long, default_value_t = 0)]
    pub bot_seed: u64,
}

pub fn run(args: &Args) -> Result<()> {
    let spec: BotSpec = args.bot.parse()?;
    let kind = args.select.kind()?;
    let game = args.select.game()?;
    if let Some(o) = game.outcome() {
        anyhow::bail!("the game is over ({o}); there is nothing to analyse");
    }
    let mut bot = kind.new_bot(&spec, args.bot_seed, None)?;
    let (start, line) = args.select.line()?;
    bot.follow(&*start, &line)?;
    outln!("{}", status_line(&*game))?;
    let a = bot.search(&*game, &AtomicBool::new(false))?;
    let seat = game.to_move();
    let colour = game
        .colour_to_move()
        .map(|c| format!(" ({c})"))
        .unwrap_or_default();
    let resolved = kind.resolve(&spec)?;
    if resolved == spec {
        outln!("bot: {spec}")?;
    } else {
        outln!("bot: {spec} = {resolved}")?;
    }
    outln!("best move: {}", a.best)?;
    outln!("value: {}{colour}", a.value.for_seat(seat))?;
    outln!("pv: {}", a.pv.join(" "))?;
    outln!(
        "nodes: {} in {:.3} s ({:.0}/s), depth {}",
        a.nodes,
        a.elapsed.as_secs_f64(),
        a.nodes_per_second(),
        a.depth
    )?;
    outln!("bestmove {}", a.best)?;
    Ok(())
}
