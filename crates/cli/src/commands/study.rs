//! `boardlab study sight-reduction --setups N [--seed S] [--threads T] [--option …]
//! [--shard K/N] [--depth winner|length|first-moves] [--out DIR]` and `--merge DIR … --out DIR`: random set-ups solved exactly; first-player win rate with its 95%
//! interval, game lengths with perfect play, first-move statistics; JSON, CSV and an SVG
//! chart in DIR. Resumable: run it again with the same DIR to continue.
//!
//! `boardlab study sight-reduction --placement [--from TEXT] [--split D] [--shard K/N]` solves
//! the placement set-up exactly (who wins it, which first placements win): every distinct
//! position D placements below the root is solved as one job, the jobs sharded; `--merge`
//! combines the shards and decides the root.

use anyhow::Result;
use boardlab_core::Game as _;
use boardlab_solve::placement::{self, PlacementConfig};
use boardlab_solve::study::{run as run_study, Depth, StudyConfig};
use boardlab_solve::SightReduction;
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game (sight-reduction).
    pub game: String,
    /// Number of random set-ups.
    #[arg(long, required_unless_present = "placement")]
    pub setups: Option<u64>,
    /// Solve the placement set-up (setup=deterministic) exactly instead of random set-ups.
    #[arg(long, conflicts_with_all = ["setups", "seed", "depth"])]
    pub placement: bool,
    /// With --placement: the position to solve from (a placement position's text; default:
    /// the empty board).
    #[arg(long, requires = "placement", value_name = "TEXT")]
    pub from: Option<String>,
    /// With --placement: the jobs are the distinct positions this many placements below the
    /// root.
    #[arg(long, requires = "placement", default_value_t = 4, value_name = "D")]
    pub split: u32,
    /// Set-up i is the game with seed S + i.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// A game option as KEY=VALUE (repeatable), e.g. --option sight=any.
    #[arg(long = "option", short = 'o', value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Output folder (results.jsonl, summary.json, results.csv, lengths.svg).
    #[arg(long, default_value = "study")]
    pub out: PathBuf,
    /// Solve only slice K of N of the set-ups (K/N); combine the slices with --merge.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Combine these folders (the shards of one study) into --out; --setups names the study's
    /// size.
    #[arg(long, num_args = 1.., value_name = "DIR", conflicts_with = "shard")]
    pub merge: Vec<PathBuf>,
    /// Memory for each thread's solver table, in MiB.
    #[arg(long, default_value_t = 64, value_name = "MIB")]
    pub table_mb: usize,
    /// How much to solve of each set-up: `winner` (who wins), `length` (and the length with
    /// perfect play), `first-moves` (and which first moves win: most of the work). A study's
    /// folder keeps its choice.
    #[arg(long, default_value = "first-moves", value_parser = clap::value_parser!(Depth))]
    pub depth: Depth,
}

pub fn run(args: Args) -> Result<()> {
    super::sight_reduction_only(args.game.parse()?, "is no exact study", "study")?;
    let table_bytes = super::table_bytes(args.table_mb)?;
    let threads = super::worker_threads(args.threads)?;
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    if args.placement {
        return run_placement(&args, table_bytes, threads, shard);
    }
    let setups = args.setups.unwrap_or(0);
    if setups == 0 || setups > 100_000_000 {
        anyhow::bail!("--setups must be from 1 to 100000000");
    }
    let options = super::game_options(SightReduction::info(), Vec::new(), &args.options)?;
    let config = StudyConfig {
        options,
        setups,
        seed: args.seed,
        threads,
        table_bytes,
        out: args.out.clone(),
        shard,
        depth: args.depth,
    };
    if !args.merge.is_empty() {
        let summary = boardlab_solve::study::merge(&args.merge, &config)?;
        out!("{}", summary.report())?;
        outln!("merged into {}", args.out.display())?;
        return Ok(());
    }
    let bar = super::progress_bar(setups, "{bar:30} {pos}/{len} set-ups [{elapsed} < {eta}]");
    let quiet_step = (setups / 20).max(1);
    let terminal = std::io::stderr().is_terminal();
    let mut started = false;
    let summary = run_study(&config, |done, total| {
        if !terminal && (done % quiet_step == 0 || done == total) {
            eprintln!("{done}/{total} set-ups");
        }
        if !started {
            started = true;
            if done > 0 {
                eprintln!("resuming: {done} of {total} set-ups already solved");
            }
            // The rate and time left count only this run's work.
            bar.reset();
        }
        bar.set_position(done);
    })?;
    bar.finish_and_clear();
    out!("{}", summary.report())?;
    outln!("written to {}", args.out.display())?;
    Ok(())
}

/// Reads `K/N` (1 ≤ K ≤ N).
fn parse_shard(text: &str) -> Result<(u64, u64)> {
    let bad = || anyhow::anyhow!("bad --shard '{text}': expected K/N with 1 ≤ K ≤ N");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// `--placement`: the placement set-up solved exactly, or one shard of it, or the shards
/// merged.
fn run_placement(
    args: &Args,
    table_bytes: usize,
    threads: usize,
    shard: Option<(u64, u64)>,
) -> Result<()> {
    let options = super::game_options(
        SightReduction::info(),
        vec![("setup".into(), "deterministic".into())],
        &args.options,
    )?;
    let config = PlacementConfig {
        options,
        from: args.from.clone(),
        split: args.split,
        threads,
        table_bytes,
        out: args.out.clone(),
        shard,
    };
    let summary = if args.merge.is_empty() {
        let bar = super::progress_bar(0, "{bar:30} {pos}/{len} positions [{elapsed} < {eta}]");
        let terminal = std::io::stderr().is_terminal();
        let result = placement::run(&config, |done, total| {
            bar.set_length(total);
            bar.set_position(done);
            if !terminal && (done % (total / 20).max(1) == 0 || done == total) {
                eprintln!("{done}/{total} positions");
            }
        })?;
        bar.finish_and_clear();
        match result {
            Some(summary) => summary,
            None => {
                outln!(
                    "shard written to {}; combine the shards with --merge",
                    args.out.display()
                )?;
                return Ok(());
            }
        }
    } else {
        placement::merge(&args.merge, &config)?
    };
    let who = if summary.mover_wins { "wins" } else { "loses" };
    outln!(
        "{}: {} to place {who} with perfect play",
        summary.root,
        summary.to_move
    )?;
    outln!(
        "winning placements: {}",
        if summary.winning_moves.is_empty() {
            "none".to_string()
        } else {
            summary.winning_moves.join(" ")
        }
    )?;
    outln!(
        "{} positions {} placements below, {} full boards solved, {:.2} s of solving",
        summary.frontier,
        summary.split,
        summary.boards,
        summary.seconds
    )?;
    outln!("written to {}", args.out.display())?;
    Ok(())
}
