//! `boardlab play GAME`: a game in the terminal.

use super::select::status_line;
use super::Selectors;
use anyhow::{Context, Result};
use boardlab_ai::{BotSpec, DynBot};
use boardlab_core::{GameRecord, Seat};
use boardlab_games::AnyGame;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub select: Selectors,
    /// Who plays the first seat: human, or a bot spec (random, level:5, mcts:time=1s,
    /// ugi:COMMAND, …).
    #[arg(long, default_value = "human")]
    pub first: String,
    /// Who plays the second seat: human, or a bot spec (random, level:5, mcts:time=1s,
    /// ugi:COMMAND, …).
    #[arg(long, default_value = "random")]
    pub second: String,
    /// The bot that answers `hint`.
    #[arg(long, default_value = "best:time=1s")]
    pub hint: String,
    /// Save the game record to this file when the game ends (JSON if it ends in .json,
    /// else the text form).
    #[arg(long)]
    pub record: Option<PathBuf>,
}

/// Who plays a seat.
#[derive(Debug, Clone, PartialEq)]
pub enum Player {
    Human,
    Bot(BotSpec),
}

impl std::str::FromStr for Player {
    type Err = anyhow::Error;
    fn from_str(s: &str) -> Result<Self> {
        if s.trim().eq_ignore_ascii_case("human") {
            return Ok(Player::Human);
        }
        s.parse::<BotSpec>().map(Player::Bot).map_err(|e| match e {
            boardlab_ai::AiError::Spec { reason, .. } => anyhow::anyhow!(
                "unknown player '{}' ({reason}); accepted: human, random, or a bot spec: {}",
                s.trim(),
                boardlab_ai::spec::ACCEPTED
            ),
            e => e.into(),
        })
    }
}

impl Player {
    fn name(&self) -> String {
        match self {
            Player::Human => "human".to_string(),
            Player::Bot(spec) => spec.to_string(),
        }
    }
}

pub fn run(args: &Args) -> Result<()> {
    args.play()
}

const HELP: &str = "Type a move in notation, or one of:
  moves    list the legal moves
  hint     the computer's suggestion (see --hint)
  show     draw the board again
  undo     take back your last move (and the computer's reply)
  resign   give up the game
  help     this text
  quit     stop without a result";

impl Args {
    fn play(&self) -> Result<()> {
        let kind = self.select.kind()?;
        let players = [
            self.first.parse::<Player>()?,
            self.second.parse::<Player>()?,
        ];
        let hint: BotSpec = self.hint.parse()?;
        let bot = |p: &Player, i: u64| match p {
            Player::Bot(spec) => kind.new_bot(spec, self.select.seed ^ i, None).map(Some),
            Player::Human => Ok(None),
        };
        let bots = [bot(&players[0], 1)?, bot(&players[1], 2)?];

        let options = self.select.options()?;
        let start = AnyGame::from_dyn(kind.setup(
            &options,
            self.select.seed,
            self.select.position.as_deref(),
            &[],
        )?);
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let record = GameRecord {
            game: kind.name().to_string(),
            options: start.options().to_map(),
            seed: self.select.seed,
            position: self.select.position.clone(),
            ..GameRecord::default()
        };
        let mut session = Session {
            record,
            start: start.clone(),
            game: start,
            history: Vec::new(),
            players,
            bots,
            hint,
            hint_bot: None,
            hint_seed: self.select.seed ^ 3,
        };
        // Moves given with --moves are part of the game from the start.
        for (i, text) in self.select.move_list()?.iter().enumerate() {
            let played = session
                .game
                .play_text(text)
                .with_context(|| format!("--moves, move {}", i + 1))?;
            session.history.push(played.notation);
        }
        session.record.seats.first = session.players[0].name();
        session.record.seats.second = session.players[1].name();
        session.record.started = Some(now());
        outln!("{} — type 'help' for commands.", kind.info().title)?;
        let end = session.run(&mut input)?;
        session.finish(end, self.record.as_ref())
    }
}

enum End {
    Over,
    Resigned(Seat),
    /// A bot (an outside engine) failed to move: its seat loses.
    Forfeit(Seat, String),
    Quit,
}

struct Session {
    start: AnyGame,
    game: AnyGame,
    /// Moves played, in canonical notation.
    history: Vec<String>,
    players: [Player; 2],
    bots: [Option<Box<dyn DynBot>>; 2],
    hint: BotSpec,
    hint_bot: Option<Box<dyn DynBot>>,
    hint_seed: u64,
    record: GameRecord,
}

impl Session {
    fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    fn show(&self) -> std::io::Result<()> {
        out!("{}", self.game.diagram())?;
        outln!("{}", status_line(&*self.game))
    }

    fn run(&mut self, input: &mut impl BufRead) -> Result<End> {
        self.show()?;
        loop {
            if self.game.outcome().is_some() {
                return Ok(End::Over);
            }
            let seat = self.game.to_move();
            if let Some(bot) = &mut self.bots[seat.index()] {
                let found = bot
                    .follow(&*self.start, &self.history)
                    .and_then(|()| bot.search(&*self.game, &AtomicBool::new(false)));
                let text = match found {
                    Ok(r) => r.best,
                    Err(e) => return Ok(End::Forfeit(seat, e.to_string())),
                };
                outln!(
                    "{seat} seat ({}) plays {text}",
                    self.players[seat.index()].name()
                )?;
                self.game.play_text(&text)?;
                self.history.push(text);
                self.show()?;
                continue;
            }
            out!("{seat} seat > ")?;
            std::io::stdout().flush().ok();
            let mut line = String::new();
            if input
                .read_line(&mut line)
                .context("cannot read the terminal")?
                == 0
            {
                outln!()?;
                outln!("Input ended; the game is unfinished.")?;
                return Ok(End::Quit);
            }
            match line.trim().to_ascii_lowercase().as_str() {
                "" => {}
                "help" | "?" => outln!("{HELP}")?,
                "moves" => {
                    let list = self.game.legal_moves();
                    outln!("{} legal moves: {}", list.len(), list.join(", "))?;
                }
                "show" => self.show()?,
                "hint" => {
                    if self.hint_bot.is_none() {
                        match self.game.kind().new_bot(&self.hint, self.hint_seed, None) {
                            Ok(b) => self.hint_bot = Some(b),
                            Err(e) => outln!("no hint: {e}")?,
                        }
                    }
                    if let Some(bot) = &mut self.hint_bot {
                        let found = bot
                            .follow(&*self.start, &self.history)
                            .and_then(|()| bot.search(&*self.game, &AtomicBool::new(false)));
                        match found {
                            Ok(a) => outln!(
                                "hint: {} (value {}; line {})",
                                a.best,
                                a.value.for_seat(seat),
                                a.pv.join(" ")
                            )?,
                            Err(e) => {
                                outln!("no hint: {e}")?;
                                self.hint_bot = None;
                            }
                        }
                    }
                }
                "undo" => self.undo()?,
                "resign" => return Ok(End::Resigned(seat)),
                "quit" | "exit" => return Ok(End::Quit),
                text => match self.game.play_text(text) {
                    Err(e) => outln!("{e}")?,
                    Ok(played) => {
                        self.history.push(played.notation);
                        self.show()?;
                    }
                },
            }
        }
    }

    /// Takes back moves until it is a person's turn again, at least one move.
    fn undo(&mut self) -> std::io::Result<()> {
        if self.history.is_empty() {
            return outln!("Nothing to undo.");
        }
        loop {
            self.history.pop();
            self.game = self.start.clone();
            for text in &self.history {
                self.game
                    .play_text(text)
                    .expect("the moves played so far replay");
            }
            if self.history.is_empty() || *self.player(self.game.to_move()) == Player::Human {
                break;
            }
        }
        outln!("Taken back.")?;
        self.show()
    }

    fn finish(mut self, end: End, path: Option<&PathBuf>) -> Result<()> {
        self.record.moves = self.history.clone();
        match end {
            End::Over => {
                let o = self.game.outcome().expect("the game is over");
                outln!("Game over: {o}")?;
                self.record.set_outcome(Some(o));
            }
            End::Resigned(seat) => {
                let winner = seat.other();
                let colour = self.game.colour_of(winner);
                outln!(
                    "The {seat} seat resigns; the {winner} seat{} wins.",
                    colour.map(|c| format!(" ({c})")).unwrap_or_default()
                )?;
                self.record.result =
                    Some(colour.map_or_else(|| winner.to_string(), |c| c.to_string()));
                self.record.termination = Some("resignation".into());
            }
            End::Forfeit(seat, reason) => {
                let winner = seat.other();
                let colour = self.game.colour_of(winner);
                outln!(
                    "The {seat} seat ({}) cannot move: {reason}",
                    self.players[seat.index()].name()
                )?;
                outln!(
                    "The {winner} seat{} wins by forfeit.",
                    colour.map(|c| format!(" ({c})")).unwrap_or_default()
                )?;
                self.record.result =
                    Some(colour.map_or_else(|| winner.to_string(), |c| c.to_string()));
                self.record.termination = Some("forfeit".into());
            }
            End::Quit => {}
        }
        self.record.finished = Some(now());
        if let Some(path) = path {
            let text = if path.extension().is_some_and(|e| e == "json") {
                self.record.to_json()
            } else {
                self.record.to_text()
            };
            std::fs::write(path, text)
                .with_context(|| format!("cannot write the record to {}", path.display()))?;
            outln!("Record saved to {}", path.display())?;
        }
        Ok(())
    }
}

fn now() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}
