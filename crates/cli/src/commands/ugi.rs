//! `boardlab ugi [GAME]`: boardlab as an engine speaking UGI on standard input and output
//! (the engine itself is `boardlab_ai::ugi::engine`; `docs/ugi.md` is the reference).

use anyhow::Result;
use boardlab_games::GameKind;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game to play; without it the engine offers the option `Game` (sight-reduction by
    /// default).
    pub game: Option<String>,
}

pub fn run(args: Args) -> Result<()> {
    let fixed = args
        .game
        .as_deref()
        .map(str::parse::<GameKind>)
        .transpose()?;
    let stdin = std::io::stdin();
    let games: Vec<_> = GameKind::all().iter().map(|k| k.ugi()).collect();
    boardlab_ai::ugi::engine::serve(
        &games,
        fixed.map(|k| k.ugi()),
        &mut stdin.lock(),
        Box::new(std::io::stdout()),
    )?;
    Ok(())
}
