//! Writing a report: `report.json`, `report.md` with its charts in `charts/`, and
//! `report.html`, one file with the charts inline that opens offline.

use crate::charts::{self, Bar};
use crate::metrics::{Share, Spread};
use crate::summary::{Report, SetReport};
use crate::ReportError;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

fn interval(s: &Share) -> String {
    format!("{} – {}", pct(s.low), pct(s.high))
}

fn num(x: f64) -> String {
    if x.abs() >= 100.0 {
        format!("{x:.0}")
    } else if x.abs() >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

fn spread_cells(s: &Spread) -> String {
    format!(
        "{} | {} | {} | {} | {}",
        num(s.mean),
        num(s.sd),
        num(s.min),
        num(s.median),
        num(s.max)
    )
}

/// A chart: its file name, its description, and its SVG.
struct Chart {
    file: String,
    alt: String,
    svg: String,
}

fn charts_of(r: &Report) -> Vec<Chart> {
    let mut out = vec![Chart {
        file: "outcomes.svg".into(),
        alt: "Who wins, per option set, with 95% intervals".into(),
        svg: charts::outcomes(&r.sets),
    }];
    let compare = r.sets.len() > 1;
    if compare {
        let share_bars = |f: &dyn Fn(&SetReport) -> Share| -> Vec<Bar> {
            r.sets
                .iter()
                .map(|s| {
                    let v = f(s);
                    Bar {
                        label: s.label.clone(),
                        value: v.share,
                        low: v.low,
                        high: v.high,
                    }
                })
                .collect()
        };
        let spread_bars = |f: &dyn Fn(&SetReport) -> Spread| -> Vec<Bar> {
            r.sets
                .iter()
                .map(|s| {
                    let v = f(s);
                    // The mean with ± its 95% interval.
                    let half = if v.n > 1 {
                        1.96 * v.sd / f64::from(v.n).sqrt()
                    } else {
                        0.0
                    };
                    Bar {
                        label: s.label.clone(),
                        value: v.mean,
                        low: (v.mean - half).max(0.0),
                        high: v.mean + half,
                    }
                })
                .collect()
        };
        let mut add = |file: &str, alt: &str, svg: String| {
            out.push(Chart {
                file: file.into(),
                alt: alt.into(),
                svg,
            });
        };
        add(
            "first-score.svg",
            "The first player's score per option set",
            charts::bars(
                "First player's score (draws ½)",
                "score",
                &share_bars(&|s| s.first_score),
                Some(1.0),
            ),
        );
        add(
            "length.svg",
            "Mean game length per option set",
            charts::bars(
                "Mean game length",
                "plies",
                &spread_bars(&|s| s.length),
                None,
            ),
        );
        add(
            "branching-mean.svg",
            "Mean number of legal moves per option set",
            charts::bars(
                "Mean moves to choose from",
                "legal moves",
                &spread_bars(&|s| s.branching),
                None,
            ),
        );
        add(
            "decided.svg",
            "How early games are decided, per option set",
            charts::bars(
                "Share of the game before the winner leads for good",
                "share of the game",
                &spread_bars(&|s| s.decided_at),
                Some(1.0),
            ),
        );
        add(
            "drama.svg",
            "Drama per option set",
            charts::bars(
                "Drama: how far the winner trailed",
                "expected score",
                &spread_bars(&|s| s.drama),
                None,
            ),
        );
        add(
            "lead-changes.svg",
            "Lead changes per game, per option set",
            charts::bars(
                "Lead changes per game",
                "changes",
                &spread_bars(&|s| s.lead_changes),
                None,
            ),
        );
        add(
            "completion.svg",
            "Share of games finished within the ply cap",
            charts::bars(
                "Games finished within the ply cap",
                "share",
                &share_bars(&|s| s.completion),
                Some(1.0),
            ),
        );
    }
    for (i, s) in r.sets.iter().enumerate() {
        if s.finished > 0 {
            out.push(Chart {
                file: format!("lengths-{}.svg", i + 1),
                alt: format!("Game lengths, {}", s.label),
                svg: charts::lengths(&s.label, &s.length_histogram),
            });
        }
    }
    let bands: Vec<(&str, &[crate::metrics::PlyBand])> = r
        .sets
        .iter()
        .map(|s| (s.label.as_str(), s.branching_by_ply.as_slice()))
        .collect();
    out.push(Chart {
        file: "branching.svg".into(),
        alt: "Moves to choose from by ply".into(),
        svg: charts::branching(&bands),
    });
    if r.sets.iter().any(|s| !s.skill.is_empty()) {
        let series: Vec<(&str, &[crate::summary::SkillStep])> = r
            .sets
            .iter()
            .map(|s| (s.label.as_str(), s.skill.as_slice()))
            .collect();
        out.push(Chart {
            file: "skill.svg".into(),
            alt: "Skill trace: the score of a doubled budget".into(),
            svg: charts::skill(&series),
        });
    }
    out
}

/// The report as Markdown; `image` writes a chart's reference (a file link, or the SVG).
fn markdown(r: &Report, charts: &[Chart], image: &dyn Fn(&Chart) -> String) -> String {
    let d = &r.definition;
    let chart = |file: &str| {
        charts
            .iter()
            .find(|c| c.file == file)
            .map(|c| image(c) + "\n\n")
            .unwrap_or_default()
    };
    let mut m = String::new();
    let _ = writeln!(m, "# {} — designer report\n", r.title);
    let _ = writeln!(
        m,
        "{} self-play games per option set by `{}` (here `{}`), the first {} plies of each \
         game chosen at random, games stopped at {} plies counted as unfinished, seed {}.{}\n",
        d.games,
        r.bot,
        r.bot_resolved,
        d.opening_plies,
        d.max_plies,
        d.seed,
        if d.skill_games > 0 {
            format!(
                " Skill trace: {} games per step over {} steps.",
                d.skill_games, d.skill_steps
            )
        } else {
            String::new()
        }
    );
    let _ = writeln!(m, "Made by `{}` (boardlab {}).\n", r.command, r.version);
    let _ = writeln!(m, "## In short\n");
    for s in &r.sets {
        let _ = writeln!(
            m,
            "- **{}**: the first player wins {} of finished games (95%: {}), the second {}, \
             draws {}; games last {} plies on average (sd {}), with {} moves to choose from \
             on average; {} of games finished.",
            s.label,
            pct(s.first_wins.share),
            interval(&s.first_wins),
            pct(s.second_wins.share),
            pct(s.draws.share),
            num(s.length.mean),
            num(s.length.sd),
            num(s.branching.mean),
            pct(s.completion.share)
        );
        if f64::from(s.distinct) < 0.9 * f64::from(s.games) {
            let _ = writeln!(
                m,
                "  - *Only {} of the {} games differ*: the bot repeats itself, so the intervals \
                 overstate how sure these numbers are. Play more random opening plies \
                 (`--opening-plies`) or use a bot that varies its play.",
                s.distinct, s.games
            );
        }
    }
    m.push('\n');
    let _ = writeln!(m, "## Who wins\n");
    let _ = writeln!(
        m,
        "| option set | games | finished | first player wins | 95% interval | second player wins | draws | first player's score | balance |"
    );
    let _ = writeln!(m, "|---|---|---|---|---|---|---|---|---|");
    for s in &r.sets {
        let _ = writeln!(
            m,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.3} |",
            s.label,
            s.games,
            s.finished,
            pct(s.first_wins.share),
            interval(&s.first_wins),
            pct(s.second_wins.share),
            pct(s.draws.share),
            pct(s.first_score.share),
            s.balance
        );
    }
    m.push('\n');
    m.push_str(&chart("outcomes.svg"));
    m.push_str(&chart("first-score.svg"));
    let _ = writeln!(m, "## Length and completion\n");
    let _ = writeln!(
        m,
        "| option set | unfinished | mean plies | sd | shortest | median | longest |"
    );
    let _ = writeln!(m, "|---|---|---|---|---|---|---|");
    for s in &r.sets {
        let _ = writeln!(
            m,
            "| {} | {} | {} |",
            s.label,
            s.unfinished,
            spread_cells(&s.length)
        );
    }
    m.push('\n');
    m.push_str(&chart("length.svg"));
    m.push_str(&chart("completion.svg"));
    for i in 0..r.sets.len() {
        m.push_str(&chart(&format!("lengths-{}.svg", i + 1)));
    }
    let _ = writeln!(m, "## Moves to choose from\n");
    let _ = writeln!(
        m,
        "Per game, the mean number of legal moves over its positions; then the spread of that \
         mean over games.\n"
    );
    let _ = writeln!(
        m,
        "| option set | mean | sd | lowest | median | highest | distinct games |"
    );
    let _ = writeln!(m, "|---|---|---|---|---|---|---|");
    for s in &r.sets {
        let _ = writeln!(
            m,
            "| {} | {} | {} |",
            s.label,
            spread_cells(&s.branching),
            s.distinct
        );
    }
    m.push('\n');
    m.push_str(&chart("branching.svg"));
    m.push_str(&chart("branching-mean.svg"));
    let _ = writeln!(m, "## Decisiveness, drama and lead changes\n");
    let _ = writeln!(
        m,
        "From the bot's own expected score after each of its moves. *Decided at*: the share of \
         the game played before the eventual winner leads for good (lower: decided earlier). \
         *Drama*: how far behind the winner was, on average, while behind. *Lead changes* per \
         game. *Instability*: the mean change of the expected score from one move to the \
         next.\n"
    );
    let _ = writeln!(
        m,
        "| option set | decided at (mean) | sd | drama (mean) | lead changes (mean) | max | instability (mean) |"
    );
    let _ = writeln!(m, "|---|---|---|---|---|---|---|");
    for s in &r.sets {
        let _ = writeln!(
            m,
            "| {} | {} | {} | {} | {} | {} | {} |",
            s.label,
            num(s.decided_at.mean),
            num(s.decided_at.sd),
            num(s.drama.mean),
            num(s.lead_changes.mean),
            num(s.lead_changes.max),
            num(s.instability.mean)
        );
    }
    m.push('\n');
    m.push_str(&chart("decided.svg"));
    m.push_str(&chart("drama.svg"));
    m.push_str(&chart("lead-changes.svg"));
    if r.sets.iter().any(|s| s.pie.is_some()) {
        let _ = writeln!(m, "## The pie rule\n");
        let _ = writeln!(
            m,
            "| option set | second player swaps | 95% interval | first player's score after a swap | without a swap |"
        );
        let _ = writeln!(m, "|---|---|---|---|---|");
        for s in &r.sets {
            if let Some(p) = &s.pie {
                let _ = writeln!(
                    m,
                    "| {} | {} | {} | {} (of {}) | {} (of {}) |",
                    s.label,
                    pct(p.swaps.share),
                    interval(&p.swaps),
                    pct(p.first_score_swapped.share),
                    p.first_score_swapped.of,
                    pct(p.first_score_kept.share),
                    p.first_score_kept.of
                );
            }
        }
        m.push('\n');
    }
    let _ = writeln!(m, "## First moves\n");
    let _ = writeln!(
        m,
        "The first moves played most, with the first player's score in the games that began \
         with them (the first {} plies are random, so every first move is tried).\n",
        d.opening_plies
    );
    for s in &r.sets {
        if r.sets.len() > 1 {
            let _ = writeln!(m, "**{}**\n", s.label);
        }
        let _ = writeln!(
            m,
            "| first move | games | first player's score | 95% interval |"
        );
        let _ = writeln!(m, "|---|---|---|---|");
        for o in &s.openings {
            let _ = writeln!(
                m,
                "| {} | {} | {} | {} |",
                o.first_move,
                o.games,
                pct(o.first_score.share),
                interval(&o.first_score)
            );
        }
        m.push('\n');
    }
    if r.sets.iter().any(|s| !s.skill.is_empty()) {
        let _ = writeln!(m, "## Skill trace\n");
        let _ = writeln!(
            m,
            "The bot against itself with half the budget, seats alternating. A score above 50% \
             means the extra thinking paid; a game where it keeps paying at every doubling is \
             deep.\n"
        );
        let _ = writeln!(
            m,
            "| option set | stronger | weaker | games | stronger's score | 95% interval |"
        );
        let _ = writeln!(m, "|---|---|---|---|---|---|");
        for s in &r.sets {
            for p in &s.skill {
                let _ = writeln!(
                    m,
                    "| {} | `{}` | `{}` | {} | {} | {} |",
                    s.label,
                    p.stronger,
                    p.weaker,
                    p.games,
                    pct(p.stronger_score.share),
                    interval(&p.stronger_score)
                );
            }
        }
        m.push('\n');
        m.push_str(&chart("skill.svg"));
    }
    let _ = writeln!(m, "## Speed\n");
    let _ = writeln!(
        m,
        "| option set | seconds per self-play game | games per hour per core |"
    );
    let _ = writeln!(m, "|---|---|---|");
    for s in &r.sets {
        let _ = writeln!(
            m,
            "| {} | {} | {:.0} |",
            s.label,
            num(s.speed.seconds_per_game),
            s.speed.games_per_hour_per_core
        );
    }
    m.push('\n');
    let _ = writeln!(
        m,
        "The metrics are defined in boardlab's `docs/analysis/README.md`."
    );
    m
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:980px;margin:2rem auto;\
padding:0 1rem;color:#1d2633;line-height:1.5}table{border-collapse:collapse;margin:1rem 0;\
font-size:.92rem}th,td{border:1px solid #d6d0c4;padding:.3rem .6rem;text-align:left}\
th{background:#f3efe7}code{background:#f3efe7;padding:0 .25rem;border-radius:3px}\
figure{margin:1rem 0}figure svg{max-width:100%;height:auto}figcaption{font-size:.9rem;\
color:#555}";

/// Writes `report.json`, `report.md`, `charts/*.svg` and `report.html` into `dir`.
///
/// # Errors
/// A file that cannot be written.
pub fn write(r: &Report, dir: &Path) -> Result<(), ReportError> {
    let put = |name: &str, text: &str| {
        let path = dir.join(name);
        fs::write(&path, text).map_err(|source| ReportError::Io { path, source })
    };
    let charts = charts_of(r);
    let chart_dir = dir.join("charts");
    fs::create_dir_all(&chart_dir).map_err(|source| ReportError::Io {
        path: chart_dir.clone(),
        source,
    })?;
    for c in &charts {
        put(&format!("charts/{}", c.file), &c.svg)?;
    }
    put(
        "report.json",
        &(serde_json::to_string_pretty(r).expect("a report serialises") + "\n"),
    )?;
    put(
        "report.md",
        &markdown(r, &charts, &|c| format!("![{}](charts/{})", c.alt, c.file)),
    )?;
    let inline = markdown(r, &charts, &|c| {
        // Raw HTML passes through the Markdown renderer as it is.
        let body = c.svg.trim_start_matches(|ch| ch != '<');
        let body = body
            .strip_prefix("<?xml")
            .map_or(body, |rest| rest.split_once("?>").map_or(rest, |x| x.1));
        format!(
            "<figure>{}<figcaption>{}</figcaption></figure>",
            body.trim().replace("\n\n", "\n"),
            html_escape(&c.alt)
        )
    });
    let mut body = String::new();
    pulldown_cmark::html::push_html(
        &mut body,
        pulldown_cmark::Parser::new_ext(&inline, pulldown_cmark::Options::ENABLE_TABLES),
    );
    let html = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} — designer report</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        html_escape(&r.title)
    );
    put("report.html", &html)
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
