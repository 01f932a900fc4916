//! `boardlab review FILE [--bot SPEC] [--json] [--record OUT]`: every move of a recorded game
//! graded, with the best move where another was played, and a summary per side.

use anyhow::{Context, Result};
use boardlab_ai::review::{self, Grade, Progress, Review, ReviewConfig, ReviewError};
use boardlab_ai::BotSpec;
use boardlab_core::{GameRecord, Seat};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A game record, in the JSON or the text form (`-` reads standard input).
    pub file: PathBuf,
    /// The bot that evaluates each position (default: the game's review bot, see
    /// docs/review.md), e.g. best:time=500ms or mcts:iterations=20000.
    #[arg(long)]
    pub bot: Option<String>,
    /// Seed of the bots (with a work budget the same seed gives the same review).
    #[arg(long, default_value_t = 0)]
    pub bot_seed: u64,
    /// Positions evaluated at once (each on its own thread); 0 = one per core.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Print the review as JSON instead of the annotated game.
    #[arg(long)]
    pub json: bool,
    /// Also save the record with a value and a comment on every move (JSON if the name ends
    /// in .json, else the text form).
    #[arg(long, value_name = "OUT")]
    pub record: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<()> {
    let record = super::read_record(&args.file)?;
    let bot = args.bot.as_deref().map(str::parse::<BotSpec>).transpose()?;
    let config = ReviewConfig {
        bot,
        seed: args.bot_seed,
        threads: args.threads,
    };
    let tty = std::io::stderr().is_terminal();
    let bar = super::progress_bar(
        (record.moves.len() + 1) as u64,
        "{bar:30} {pos}/{len} positions [{elapsed} < {eta}]",
    );
    let mut last_tenth = 0;
    let mut progress = |p: Progress| {
        if tty {
            bar.set_length(p.total as u64);
            bar.set_position(p.done as u64);
        } else if p.done * 10 / p.total.max(1) > last_tenth || p.done == p.total {
            last_tenth = p.done * 10 / p.total.max(1);
            eprintln!("reviewed {}/{} positions", p.done, p.total);
        }
    };
    let result =
        boardlab_games::review_record(&record, &config, &AtomicBool::new(false), &mut progress);
    bar.finish_and_clear();
    let review = result.map_err(|e| match e {
        ReviewError::Record(e) => {
            anyhow::anyhow!("{} cannot be reviewed: {e}", args.file.display())
        }
        other => other.into(),
    })?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&review).expect("a review always serialises")
        );
    } else {
        print_review(&review, &record);
    }
    eprintln!(
        "{} positions reviewed in {:.1} s with {}",
        review.positions, review.seconds, review.bot
    );
    if let Some(path) = &args.record {
        let annotated = review::annotate(&record, &review);
        let text = if path.extension().is_some_and(|e| e == "json") {
            annotated.to_json()
        } else {
            annotated.to_text()
        };
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("annotated record: {}", path.display());
    }
    Ok(())
}

/// The side's name for a person: its colour, else its seat.
fn side_name(review: &Review, seat: Seat) -> String {
    match review.side(seat).and_then(|s| s.colour) {
        Some(c) => capitalised(c.name()),
        None => format!("{} seat", capitalised(seat.name())),
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// "1 move", "3 moves".
fn count(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn print_review(review: &Review, record: &GameRecord) {
    let player = |name: &str| {
        if name.is_empty() {
            "?".to_string()
        } else {
            name.to_string()
        }
    };
    let title = boardlab_games::GameKind::all()
        .iter()
        .find(|k| k.name() == review.game)
        .map_or(review.game.as_str(), |k| k.info().title);
    if review.solitaire {
        println!("{title} review (solitaire), {} moves", review.plies.len());
    } else {
        println!(
            "{title} review: {} (first) vs {} (second), {} moves",
            player(&record.seats.first),
            player(&record.seats.second),
            review.plies.len()
        );
    }
    if review.solitaire {
        println!(
            "options: {}; judged by the solitaire solver",
            review.options
        );
    } else {
        println!("options: {}; bot: {}", review.options, review.bot);
    }
    println!();
    let width = review
        .plies
        .iter()
        .map(|p| p.played.len() + p.grade.symbol().len())
        .max()
        .unwrap_or(0);
    let value_width = review
        .plies
        .iter()
        .map(|p| p.value_text.len())
        .max()
        .unwrap_or(0);
    for p in &review.plies {
        let colour = match p.colour {
            Some(c) => capitalised(c.name()),
            None => capitalised(p.seat.name()),
        };
        let mv = format!("{}{}", p.played, p.grade.symbol());
        let note = if p.grade == Grade::Best {
            String::new()
        } else {
            p.comment.clone()
        };
        let line = format!(
            "{:>3}. {colour:<6} {mv:<width$}  {:<value_width$}  {note}",
            p.number, p.value_text
        );
        println!("{}", line.trim_end());
    }
    println!();
    if let Some(r) = &review.result {
        println!("Result: {r}");
    } else {
        println!("The game is unfinished.");
    }
    for s in &review.sides {
        let who = if review.solitaire {
            "Player".to_string()
        } else {
            let name = if s.player.is_empty() {
                String::new()
            } else {
                format!(", {}", s.player)
            };
            format!("{} ({} seat{name})", side_name(review, s.seat), s.seat)
        };
        let accuracy = s
            .accuracy
            .map_or("no moves".to_string(), |a| format!("accuracy {a:.1}%"));
        println!(
            "{who}: {}, {accuracy}; {}, {}, {}",
            count(s.moves, "move", "moves"),
            count(s.inaccuracies, "inaccuracy", "inaccuracies"),
            count(s.mistakes, "mistake", "mistakes"),
            count(s.blunders, "blunder", "blunders")
        );
    }
}
