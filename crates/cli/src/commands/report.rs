//! `boardlab report GAME [--option K=V …] [--compare KEY=V1,V2 …] [--games N] [--bot SPEC]
//! [--threads T] [--seed S] [--shard K/N] --out DIR`, and `boardlab report --merge DIR …
//! --out DIR`: self-play statistics for designers, with charts (see `docs/analysis/README.md`).

use anyhow::{Context, Result};
use boardlab_report::{Definition, Run, Shard};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game (not needed with --merge).
    #[arg(required_unless_present = "merge")]
    pub game: Option<String>,
    /// A game option for every game, KEY=VALUE (repeatable).
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Compare the values of an option: KEY=V1,V2,… (repeatable: every combination is played).
    #[arg(long, value_name = "KEY=V1,V2")]
    pub compare: Vec<String>,
    /// Self-play games per option set.
    #[arg(long, default_value_t = 200)]
    pub games: u32,
    /// The bot playing both seats (default: the game's report bot, see docs/analysis/README.md).
    #[arg(long)]
    pub bot: Option<String>,
    /// Worker threads, one game each (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seeds the set-ups, the random opening moves and the bots.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games that reach this many plies stop and count as unfinished.
    #[arg(long, default_value_t = 1000)]
    pub max_plies: u32,
    /// Random moves at the start of every game, for variety (default: 4 in Opprimo and
    /// assideum, 1 in the others).
    #[arg(long)]
    pub opening_plies: Option<u32>,
    /// Games per step of the skill trace (0: none).
    #[arg(long, default_value_t = 100)]
    pub skill_games: u32,
    /// Steps of the skill trace (the bot's budget halved 0, 1, … times against itself halved
    /// once more).
    #[arg(long, default_value_t = 3)]
    pub skill_steps: u32,
    /// Play only this slice of the games, K/N; combine the slices with --merge.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Combine these folders (the shards of one report) into --out.
    #[arg(long, num_args = 1.., value_name = "DIR", conflicts_with_all = ["game", "shard"])]
    pub merge: Vec<PathBuf>,
    /// Output folder: config.json, games.jsonl, report.html, report.json, report.md, charts/.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: &Args) -> Result<()> {
    // As typed, with the program named by its name rather than its path.
    let command = std::iter::once("boardlab".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    if !args.merge.is_empty() {
        let report = boardlab_report::merge(&args.merge, &args.out, &command)?;
        outln!(
            "merged {} folders: {} option sets; written to {}",
            args.merge.len(),
            report.sets.len(),
            args.out.display()
        )?;
        return Ok(());
    }
    let game = args.game.as_deref().unwrap_or_default();
    let kind: boardlab_games::GameKind = game.parse()?;
    let mut options = BTreeMap::new();
    for item in &args.options {
        let (k, v) = boardlab_core::options::parse_key_value(item)?;
        options.insert(k, v);
    }
    let mut compare = Vec::new();
    for item in &args.compare {
        let (k, v) = boardlab_core::options::parse_key_value(item)
            .with_context(|| format!("--compare {item}: expected KEY=V1,V2"))?;
        let values: Vec<String> = v
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        compare.push((k, values));
    }
    if args.games > 1_000_000 || args.skill_games > 1_000_000 {
        anyhow::bail!("--games and --skill-games must be at most 1000000");
    }
    if args.skill_steps > 20 {
        anyhow::bail!("--skill-steps must be at most 20");
    }
    let def = Definition {
        game: kind.name().to_string(),
        options,
        compare,
        games: args.games,
        bot: args
            .bot
            .clone()
            .unwrap_or_else(|| boardlab_report::default_bot(kind).to_string()),
        seed: args.seed,
        max_plies: args.max_plies,
        opening_plies: args
            .opening_plies
            .unwrap_or_else(|| boardlab_report::default_opening_plies(kind)),
        skill_games: if args.skill_steps == 0 {
            0
        } else {
            args.skill_games
        },
        skill_steps: if args.skill_games == 0 {
            0
        } else {
            args.skill_steps
        },
    };
    let clock = std::time::Instant::now();
    let stop = AtomicBool::new(false);
    let run = Run {
        out: args.out.clone(),
        threads: super::worker_threads(args.threads)?,
        shard: args.shard,
        stop: &stop,
        command,
    };
    let bar = super::progress_bar(0, "{bar:30} {pos}/{len} games [{elapsed} < {eta}]");
    let terminal = std::io::stderr().is_terminal();
    let mut started = false;
    let mut last_line = 0;
    let report = boardlab_report::run(&def, &run, |done, total| {
        if !started {
            started = true;
            bar.set_length(total as u64);
            if done > 0 {
                eprintln!("resuming: {done} of {total} games already played");
            }
            bar.reset();
        }
        bar.set_position(done as u64);
        let step = (total / 20).max(1);
        if !terminal && (done >= last_line + step || done == total) {
            last_line = done;
            eprintln!("{done}/{total} games");
        }
    })?;
    bar.finish_and_clear();
    match report {
        Some(r) => {
            for s in &r.sets {
                outln!(
                    "{}: first player wins {:.1}% (95%: {:.1}–{:.1}%), draws {:.1}%, {:.1} plies on average, {} of {} finished",
                    s.label,
                    s.first_wins.share * 100.0,
                    s.first_wins.low * 100.0,
                    s.first_wins.high * 100.0,
                    s.draws.share * 100.0,
                    s.length.mean,
                    s.finished,
                    s.games
                )?;
            }
            outln!(
                "written to {} (report.html, report.md, report.json) in {:.0} s",
                args.out.display(),
                clock.elapsed().as_secs_f64()
            )?;
        }
        None => outln!(
            "shard played; combine the shards with `boardlab report --merge DIR… --out DIR`"
        )?,
    }
    Ok(())
}
