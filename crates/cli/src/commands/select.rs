//! How every command picks a game and a position: the game name, `--option KEY=VALUE`,
//! `--position TEXT`, `--moves "M1 M2 ..."` and `--seed N`.

use anyhow::{Context, Result};
use boardlab_core::{split_moves, Game, Options};
use boardlab_games::GameKind;
use clap::Args;

/// Game and position selection.
#[derive(Debug, Clone, Args)]
pub struct Selectors {
    /// The game: sight-reduction, obsidio, opprimo or assideum (see `boardlab games`).
    pub game: String,
    /// A game option as KEY=VALUE (repeatable), e.g. --option removal=pair.
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Start from this position text instead of the game's set-up.
    #[arg(long, value_name = "TEXT")]
    pub position: Option<String>,
    /// Moves to play first, separated by spaces (or by ';' when moves contain spaces).
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Seed for random set-ups (the same seed always gives the same board).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl Selectors {
    /// The chosen game.
    ///
    /// # Errors
    /// An unknown game name, listing the known ones.
    pub fn kind(&self) -> Result<GameKind> {
        Ok(self.game.parse::<GameKind>()?)
    }

    /// The checked options of game `G`.
    ///
    /// # Errors
    /// Malformed `KEY=VALUE` items, unknown options or values.
    pub fn options<G: Game>(&self) -> Result<Options> {
        super::game_options::<G>(Vec::new(), &self.options)
    }

    /// The moves given with `--moves`, split into single moves.
    #[must_use]
    pub fn move_list<G: Game>(&self) -> Vec<String> {
        self.moves
            .as_deref()
            .map(|m| split_moves(m, G::info().multi_word_moves))
            .unwrap_or_default()
    }

    /// The selected game: options, position or set-up, then the moves.
    ///
    /// # Errors
    /// Bad options, position text or moves, naming what was wrong.
    pub fn game<G: Game>(&self) -> Result<G> {
        let options = self.options::<G>()?;
        if self.position.is_some() && !G::info().has_position_text {
            anyhow::bail!("{} has no position text; use --moves", G::info().name);
        }
        let moves = self.move_list::<G>();
        boardlab_core::setup::<G>(&options, self.seed, self.position.as_deref(), &moves)
            .with_context(|| format!("cannot set up the {} position", G::info().name))
    }
}

impl Selectors {
    /// The selected start (options and position or set-up) and the moves played from it.
    ///
    /// # Errors
    /// Bad options, position text or moves, naming what was wrong.
    pub fn line<G: Game>(&self) -> Result<(G, Vec<G::Move>)> {
        let start: G = Selectors {
            moves: None,
            ..self.clone()
        }
        .game()?;
        let mut game = start.clone();
        let mut line = Vec::new();
        for (i, text) in self.move_list::<G>().iter().enumerate() {
            line.push(
                game.play_text(text)
                    .with_context(|| format!("--moves, move {}", i + 1))?,
            );
        }
        Ok((start, line))
    }
}

/// A one-line description of whose turn it is or how the game ended.
pub fn status_line<G: Game>(game: &G) -> String {
    if let Some(o) = game.outcome() {
        return format!("Game over: {o}");
    }
    let seat = game.to_move();
    match game.colour_to_move() {
        Some(c) if game.is_solitaire() => format!("{c} to remove (solitaire)"),
        Some(c) => format!("{c} to move ({seat} seat)"),
        None => format!("{seat} seat to move"),
    }
}
