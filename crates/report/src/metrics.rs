//! The metrics of a report, as pure functions of game traces. Each is defined in
//! `docs/analysis/README.md`; values are from the first seat's point of view unless said.

use serde::{Deserialize, Serialize};

/// A share with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Share {
    /// Events counted (a draw counts as half where the share is a score).
    pub count: f64,
    /// Out of this many.
    pub of: u32,
    /// `count / of` (0 when `of` is 0).
    pub share: f64,
    /// The interval's ends.
    pub low: f64,
    pub high: f64,
}

/// `count` of `n` with its 95% Wilson interval (z = 1.96). With `n` = 0 the share is 0 and the
/// interval the whole of 0..1.
#[must_use]
pub fn wilson(count: f64, n: u32) -> Share {
    if n == 0 {
        return Share {
            count,
            of: 0,
            share: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let z = 1.96_f64;
    let nf = f64::from(n);
    let p = (count / nf).clamp(0.0, 1.0);
    let denom = 1.0 + z * z / nf;
    let centre = (p + z * z / (2.0 * nf)) / denom;
    let half = z * (p * (1.0 - p) / nf + z * z / (4.0 * nf * nf)).sqrt() / denom;
    Share {
        count,
        of: n,
        share: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// The side ahead at a value: `Some(true)` the first seat (above ½), `Some(false)` the second,
/// `None` level.
fn leader(v: f64) -> Option<bool> {
    if v > 0.5 {
        Some(true)
    } else if v < 0.5 {
        Some(false)
    } else {
        None
    }
}

/// Lead changes: how often the side ahead (by the first seat's value `values`, ½ being level)
/// differs from the side last ahead. Level values are skipped.
#[must_use]
pub fn lead_changes(values: &[f64]) -> u32 {
    let mut last = None;
    let mut changes = 0;
    for side in values.iter().filter_map(|&v| leader(v)) {
        if last.is_some_and(|l| l != side) {
            changes += 1;
        }
        last = Some(side);
    }
    changes
}

/// When the eventual winner took the lead for good: the share of the game (0..1) played before
/// the first value from which the winner stays ahead to the end (`values` from the first
/// seat's point of view, `first_won` who won). 1 when the winner is not ahead at the last
/// value; `None` for an empty trace.
#[must_use]
pub fn decided_at(values: &[f64], first_won: bool) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let ahead = |v: f64| leader(v) == Some(first_won);
    let mut from = values.len();
    for (i, &v) in values.iter().enumerate().rev() {
        if ahead(v) {
            from = i;
        } else {
            break;
        }
    }
    Some(from as f64 / values.len() as f64)
}

/// Drama: how far behind the eventual winner was, on average over the values where it was
/// behind (½ minus its expected score); 0 when it was never behind.
#[must_use]
pub fn drama(values: &[f64], first_won: bool) -> f64 {
    let behind: Vec<f64> = values
        .iter()
        .map(|&v| if first_won { v } else { 1.0 - v })
        .filter(|&w| w < 0.5)
        .map(|w| 0.5 - w)
        .collect();
    if behind.is_empty() {
        0.0
    } else {
        behind.iter().sum::<f64>() / behind.len() as f64
    }
}

/// Instability: the mean absolute change of the value from one move to the next (0 for fewer
/// than two values). Lower is steadier.
#[must_use]
pub fn instability(values: &[f64]) -> f64 {
    if values.len() < 2 {
        return 0.0;
    }
    let sum: f64 = values.windows(2).map(|w| (w[1] - w[0]).abs()).sum();
    sum / (values.len() - 1) as f64
}

/// Mean, standard deviation (n − 1), minimum, median and maximum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub n: u32,
    pub mean: f64,
    pub sd: f64,
    pub min: f64,
    pub median: f64,
    pub max: f64,
}

/// The [`Spread`] of `xs` (all zero when empty).
#[must_use]
pub fn spread(xs: &[f64]) -> Spread {
    if xs.is_empty() {
        return Spread::default();
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 {
        xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.0
    };
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    Spread {
        n: xs.len() as u32,
        mean,
        sd: var.sqrt(),
        min: sorted[0],
        median: quantile(&sorted, 0.5),
        max: sorted[sorted.len() - 1],
    }
}

/// The `q` quantile of sorted `xs` (linear between neighbours); 0 when empty.
#[must_use]
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let pos = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

/// The branching factor at one ply over the games that reached it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlyBand {
    pub ply: u32,
    pub games: u32,
    pub p10: f64,
    pub median: f64,
    pub p90: f64,
}

/// Median and 10–90% band of the number of legal moves at each ply, over `traces` (each the
/// move counts of one game, ply by ply), for plies reached by at least `min_games` games.
#[must_use]
pub fn branching_by_ply(traces: &[&[u32]], min_games: u32) -> Vec<PlyBand> {
    let longest = traces.iter().map(|t| t.len()).max().unwrap_or(0);
    let mut out = Vec::new();
    for ply in 0..longest {
        let mut xs: Vec<f64> = traces
            .iter()
            .filter_map(|t| t.get(ply).map(|&b| f64::from(b)))
            .collect();
        if (xs.len() as u32) < min_games.max(1) {
            break;
        }
        xs.sort_by(f64::total_cmp);
        out.push(PlyBand {
            ply: ply as u32,
            games: xs.len() as u32,
            p10: quantile(&xs, 0.1),
            median: quantile(&xs, 0.5),
            p90: quantile(&xs, 0.9),
        });
    }
    out
}

/// Counts of `xs` in `bins` equal bins from `lo` to `hi` (the last bin includes `hi`).
#[must_use]
pub fn histogram(xs: &[f64], lo: f64, hi: f64, bins: usize) -> Vec<u32> {
    let mut out = vec![0; bins.max(1)];
    let width = (hi - lo) / out.len() as f64;
    for &x in xs {
        let i = if width > 0.0 {
            (((x - lo) / width).floor().max(0.0) as usize).min(out.len() - 1)
        } else {
            0
        };
        out[i] += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_worked_value() {
        // 2,059 of 10,000 (the Sight Reduction study): 19.81% – 21.39%.
        let s = wilson(2059.0, 10_000);
        assert!((s.low - 0.1981).abs() < 5e-5, "{s:?}");
        assert!((s.high - 0.2139).abs() < 5e-5, "{s:?}");
        // 0 of 10: 0 – 27.75%.
        let z = wilson(0.0, 10);
        assert_eq!(z.low, 0.0);
        assert!((z.high - 0.2775).abs() < 5e-4, "{z:?}");
        assert_eq!(wilson(0.0, 0).high, 1.0);
    }

    #[test]
    fn a_lead_that_changes_twice_counts_two() {
        // First ahead, level, second ahead, second, first ahead again.
        assert_eq!(lead_changes(&[0.6, 0.5, 0.4, 0.3, 0.7]), 2);
        assert_eq!(lead_changes(&[0.6, 0.7, 0.9]), 0);
        assert_eq!(lead_changes(&[0.5, 0.5]), 0);
        assert_eq!(lead_changes(&[]), 0);
    }

    #[test]
    fn the_game_is_decided_where_the_winner_leads_for_good() {
        // The first seat wins; it leads for good from the third of four values.
        assert_eq!(decided_at(&[0.6, 0.4, 0.7, 0.9], true), Some(0.5));
        // Ahead from the start.
        assert_eq!(decided_at(&[0.6, 0.8], true), Some(0.0));
        // The second seat wins but is never ahead by the bot's values.
        assert_eq!(decided_at(&[0.6, 0.8], false), Some(1.0));
        assert_eq!(decided_at(&[], true), None);
    }

    #[test]
    fn drama_is_how_far_the_winner_trailed() {
        // The second seat wins; its values are 0.4, 0.2 and 0.6: behind by 0.1 and 0.3.
        let d = drama(&[0.6, 0.8, 0.4], false);
        assert!((d - 0.2).abs() < 1e-12, "{d}");
        assert_eq!(drama(&[0.7, 0.9], true), 0.0);
    }

    #[test]
    fn instability_is_the_mean_step() {
        assert!((instability(&[0.5, 0.7, 0.4]) - 0.25).abs() < 1e-12);
        assert_eq!(instability(&[0.5]), 0.0);
    }

    #[test]
    fn spread_quantiles_and_histogram() {
        let s = spread(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(
            (s.n, s.mean, s.min, s.median, s.max),
            (4, 2.5, 1.0, 2.5, 4.0)
        );
        assert!((s.sd - 1.290_994_448_7).abs() < 1e-9);
        assert_eq!(
            histogram(&[0.0, 1.0, 9.9, 10.0], 0.0, 10.0, 5),
            [2, 0, 0, 0, 2]
        );
        let b = branching_by_ply(&[&[10, 8], &[20], &[30, 6]], 2);
        assert_eq!(b.len(), 2);
        assert_eq!((b[0].median, b[0].games), (20.0, 3));
        assert_eq!((b[1].median, b[1].games), (7.0, 2));
        assert_eq!(branching_by_ply(&[&[10, 8], &[20], &[30, 6]], 3).len(), 1);
    }
}
