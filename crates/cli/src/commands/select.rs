//! How every command picks a game and a position: the game name, `--option KEY=VALUE`,
//! `--position TEXT`, `--moves "M1 M2 ..."` and `--seed N`.

use anyhow::{Context, Result};
use boardlab_ai::DynGame;
use boardlab_core::{split_moves, Game, Options};
use boardlab_games::{AnyGame, GameKind};
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

    /// The checked options of the chosen game.
    ///
    /// # Errors
    /// An unknown game, malformed `KEY=VALUE` items, unknown options or values.
    pub fn options(&self) -> Result<Options> {
        super::game_options(self.kind()?.info(), Vec::new(), &self.options)
    }

    /// The moves given with `--moves`, split into single moves.
    ///
    /// # Errors
    /// An unknown game.
    pub fn move_list(&self) -> Result<Vec<String>> {
        let multi_word = self.kind()?.info().multi_word_moves;
        Ok(self
            .moves
            .as_deref()
            .map(|m| split_moves(m, multi_word))
            .unwrap_or_default())
    }

    /// The selected game: options, position or set-up, then the moves.
    ///
    /// # Errors
    /// Bad options, position text or moves, naming what was wrong.
    pub fn game(&self) -> Result<AnyGame> {
        let kind = self.kind()?;
        let options = self.options()?;
        let name = kind.info().name;
        if self.position.is_some() && !kind.info().has_position_text {
            anyhow::bail!("{name} has no position text; use --moves");
        }
        let moves = self.move_list()?;
        let game = kind
            .setup(&options, self.seed, self.position.as_deref(), &moves)
            .with_context(|| format!("cannot set up the {name} position"))?;
        Ok(AnyGame::from_dyn(game))
    }

    /// The selected game as game `G`, for the commands of one game's solver.
    ///
    /// # Errors
    /// Bad options, position text or moves, naming what was wrong.
    pub fn typed_game<G: Game>(&self) -> Result<G> {
        let (options, moves) = (self.options()?, self.move_list()?);
        boardlab_core::setup::<G>(&options, self.seed, self.position.as_deref(), &moves)
            .with_context(|| format!("cannot set up the {} position", G::info().name))
    }

    /// The selected start (options and position or set-up) and the moves played from it, in
    /// canonical notation.
    ///
    /// # Errors
    /// Bad options, position text or moves, naming what was wrong.
    pub fn line(&self) -> Result<(AnyGame, Vec<String>)> {
        let start = Selectors {
            moves: None,
            ..self.clone()
        }
        .game()?;
        let mut game = start.clone();
        let mut line = Vec::new();
        for (i, text) in self.move_list()?.iter().enumerate() {
            let played = game
                .play_text(text)
                .with_context(|| format!("--moves, move {}", i + 1))?;
            line.push(played.notation);
        }
        Ok((start, line))
    }
}

/// A one-line description of whose turn it is or how the game ended.
pub fn status_line(game: &dyn DynGame) -> String {
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
