//! `boardlab arena GAME --bot A --bot B [--games N] [--threads T] [--seed S] [--option …]
//! [--opening-plies N] [--records DIR]`: a match between two bots with alternating seats.

use super::Selectors;
use anyhow::{Context, Result};
use boardlab_ai::arena::{ArenaConfig, MatchGame, MatchSummary};
use boardlab_ai::BotSpec;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game, options (--option), and optionally a start position or moves; --seed seeds
    /// the set-ups (both games of a pair share one) and the bots.
    #[command(flatten)]
    pub select: Selectors,
    /// A bot spec (or ugi:COMMAND, an outside engine); give exactly two (the first is "A":
    /// results are from its point of view). A bot that fails to move loses that game.
    #[arg(long = "bot", required = true, num_args = 1)]
    pub bots: Vec<String>,
    /// Number of games (pairs of games with seats swapped).
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Games played at the same time (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Random moves played at the start of every pair of games (the same in both games of a
    /// pair) before the bots take over; gives bots that always pick the same move (alpha-beta
    /// with a depth or node budget) different games to play.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub opening_plies: u32,
    /// Save every game record (text form) in this folder.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<()> {
    args.play()
}

impl Args {
    fn play(&self) -> Result<()> {
        let kind = self.select.kind()?;
        let [a, b] = self.bots.as_slice() else {
            anyhow::bail!(
                "give exactly two bots: --bot SPEC --bot SPEC (got {})",
                self.bots.len()
            );
        };
        let bots: [BotSpec; 2] = [a.parse()?, b.parse()?];
        if self.games == 0 {
            anyhow::bail!("--games must be at least 1");
        }
        let threads = super::worker_threads(self.threads)?;
        let options = self.select.options()?;
        if let Some(dir) = &self.records {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create the records folder {}", dir.display()))?;
        }
        let cfg = ArenaConfig {
            bots: bots.clone(),
            games: self.games,
            threads,
            seed: self.select.seed,
            options,
            position: self.select.position.clone(),
            moves: self.select.move_list()?,
            opening_plies: self.opening_plies,
        };
        // Check the set-up once before starting threads.
        kind.setup(&cfg.options, cfg.seed, cfg.position.as_deref(), &cfg.moves)
            .context("cannot set up the arena's start position")?;
        let resolved = [kind.resolve(&bots[0])?, kind.resolve(&bots[1])?];
        let show = |i: usize| {
            if resolved[i] == bots[i] {
                bots[i].to_string()
            } else {
                format!("{} = {}", bots[i], resolved[i])
            }
        };
        outln!(
            "{} (options: {}): A = {}, B = {}; {} games, {threads} threads, seed {}{}",
            kind.info().name,
            cfg.options,
            show(0),
            show(1),
            cfg.games,
            cfg.seed,
            if cfg.opening_plies > 0 {
                format!(", {} random opening plies", cfg.opening_plies)
            } else {
                String::new()
            }
        )?;
        let tty = std::io::stderr().is_terminal();
        let bar = super::progress_bar(
            u64::from(cfg.games),
            "{bar:30} {pos}/{len} games, {msg} [{elapsed} < {eta}]",
        );
        let step = (cfg.games / 10).max(1);
        let records = self.records.clone();
        let save_error = std::sync::Mutex::new(None);
        let on_game = |r: &MatchGame, s: &MatchSummary| {
            if let Some((who, reason)) = &r.forfeit {
                let line = format!(
                    "game {}: {} ({}) loses by forfeit: {reason}",
                    r.index + 1,
                    ["A", "B"][*who],
                    bots[*who]
                );
                // A failed write shows again in the summary, which ends the command.
                let _ = bar.suspend(|| outln!("{line}"));
            }
            let line = format!(
                "A {}-{}-{} ({:.1}%)",
                s.wins,
                s.draws,
                s.losses,
                100.0 * s.score()
            );
            if tty {
                bar.set_message(line);
                bar.inc(1);
            } else if s.games % step == 0 || s.games == cfg.games {
                eprintln!("{}/{} games: {line}", s.games, cfg.games);
            }
            if let Some(dir) = &records {
                let path = dir.join(format!("game-{:05}.txt", r.index + 1));
                if let Err(e) = std::fs::write(&path, r.record.to_text()) {
                    *save_error.lock().expect("not poisoned") =
                        Some(format!("cannot write {}: {e}", path.display()));
                }
            }
        };
        let summary = kind.arena(&cfg, &AtomicBool::new(false), &on_game)?;
        bar.finish_and_clear();
        if let Some(e) = save_error.into_inner().expect("not poisoned") {
            anyhow::bail!(e);
        }
        print_summary(&summary)?;
        if let Some(dir) = &self.records {
            outln!("records: {}", dir.display())?;
        }
        Ok(())
    }
}

fn print_summary(s: &MatchSummary) -> std::io::Result<()> {
    let (elo, err) = s.elo();
    let [ta, tb] = s.time_per_move();
    outln!(
        "A: {} wins, {} draws, {} losses in {} games (as first seat {}, as second seat {})",
        s.wins,
        s.draws,
        s.losses,
        s.games,
        s.seat_line(0),
        s.seat_line(1)
    )?;
    outln!(
        "score: {:.1}% ± {:.1}% (95%)",
        100.0 * s.score(),
        100.0 * s.score_margin()
    )?;
    let (lo, hi) = s.elo_interval();
    if lo.is_finite() && hi.is_finite() {
        outln!("Elo difference: {elo:+.0} ± {err:.0} (95%)")?;
    } else if elo.is_finite() {
        // The score's interval reaches 0% or 100%: the Elo interval is open on that side.
        let end = |x: f64| {
            if x.is_finite() {
                format!("{x:+.0}")
            } else if x > 0.0 {
                "+inf".to_string()
            } else {
                "-inf".to_string()
            }
        };
        outln!(
            "Elo difference: {elo:+.0} (95% interval {} to {})",
            end(lo),
            end(hi)
        )?;
    } else {
        outln!(
            "Elo difference: {} (one side scored every point)",
            if elo > 0.0 { "+inf" } else { "-inf" }
        )?;
    }
    outln!(
        "plies per game: {:.1}; time per move: A {:.3} s, B {:.3} s",
        s.plies as f64 / f64::from(s.games.max(1)),
        ta,
        tb
    )
}
